package golden

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// NoDiagnostics is what [Diagnostics] returns for an empty list.
const NoDiagnostics = "(no diagnostics)\n"

// Diagnostics formats diags one per line, for a want/ section:
//
//	FILE:LINE,COL-LINE,COL: error|warning: SUMMARY; DETAIL
//
// FILE is relative to dir (with forward slashes); a diagnostic without a
// subject range shows "-" instead of FILE and the position. The lines are
// sorted by file, then position, then severity and summary. Newlines in the
// detail are written as \n so that each diagnostic stays on one line; an
// empty detail leaves out "; DETAIL". No diagnostics give "(no diagnostics)".
func Diagnostics(dir string, diags hcl.Diagnostics) string {
	if len(diags) == 0 {
		return NoDiagnostics
	}
	sorted := slices.Clone(diags)
	slices.SortStableFunc(sorted, func(a, b *hcl.Diagnostic) int {
		return cmp.Or(
			cmpSubject(dir, a.Subject, b.Subject),
			cmp.Compare(a.Severity, b.Severity),
			cmp.Compare(a.Summary, b.Summary),
			cmp.Compare(a.Detail, b.Detail),
		)
	})
	var b strings.Builder
	for _, d := range sorted {
		b.WriteString(diagnosticLine(dir, d))
		b.WriteByte('\n')
	}
	return b.String()
}

func diagnosticLine(dir string, d *hcl.Diagnostic) string {
	pos := "-"
	if r := d.Subject; r != nil {
		pos = fmt.Sprintf("%s:%d,%d-%d,%d", relFile(dir, r.Filename), r.Start.Line, r.Start.Column, r.End.Line, r.End.Column)
	}
	var sev string
	switch d.Severity {
	case hcl.DiagError:
		sev = "error"
	case hcl.DiagWarning:
		sev = "warning"
	default:
		sev = fmt.Sprintf("severity(%d)", d.Severity)
	}
	line := fmt.Sprintf("%s: %s: %s", pos, sev, d.Summary)
	if d.Detail != "" {
		line += "; " + strings.ReplaceAll(d.Detail, "\n", `\n`)
	}
	return line
}

// cmpSubject orders diagnostics without a subject first, then by file and
// start position.
func cmpSubject(dir string, a, b *hcl.Range) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return -1
	case b == nil:
		return 1
	}
	return cmp.Or(
		cmp.Compare(relFile(dir, a.Filename), relFile(dir, b.Filename)),
		cmp.Compare(a.Start.Line, b.Start.Line),
		cmp.Compare(a.Start.Column, b.Start.Column),
		cmp.Compare(a.End.Line, b.End.Line),
		cmp.Compare(a.End.Column, b.End.Column),
	)
}

// relFile returns filename relative to dir with forward slashes, or the
// filename with dir replaced by $DIR when it is not inside dir.
func relFile(dir, filename string) string {
	if dir != "" {
		if rel, err := filepath.Rel(dir, filename); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(ReplaceDir(filename, dir))
}

// Render writes diagnostics the way a terminal shows them (hcl's text
// writer: summary, source snippet, detail), without wrapping, with file
// names relative to dir. files are the parsed files the snippets come from,
// keyed by path.
func Render(dir string, files map[string]*hcl.File, diags hcl.Diagnostics) string {
	if len(diags) == 0 {
		return NoDiagnostics
	}
	rel := map[string]*hcl.File{}
	for path, f := range files {
		rel[relFile(dir, path)] = f
	}
	relRange := func(r *hcl.Range) *hcl.Range {
		if r == nil {
			return nil
		}
		c := *r
		c.Filename = relFile(dir, c.Filename)
		return &c
	}
	var b strings.Builder
	w := hcl.NewDiagnosticTextWriter(&b, rel, 0, false)
	for _, d := range diags {
		c := *d
		c.Subject, c.Context = relRange(d.Subject), relRange(d.Context)
		if err := w.WriteDiagnostic(&c); err != nil {
			return fmt.Sprintf("rendering failed: %v\n", err)
		}
	}
	return b.String()
}
