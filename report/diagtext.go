package report

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"sort"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// MaxPerFile is how many diagnostics about one file the text writer shows;
// the rest are counted in a line after them.
const MaxPerFile = 100

// DiagnosticWriter writes diagnostics as text, the way tofu prints them
// (the output of hcl's text writer without width or color), in time
// linear in the size of the output: each file's line starts are indexed
// once, and a snippet reads only the lines it shows. It shows at most
// MaxPerFile diagnostics about one file; Close says how many more there
// were.
type DiagnosticWriter struct {
	// Color marks severities (red errors, yellow warnings) and the
	// source a diagnostic is about (bold, underlined) with terminal
	// escape sequences, as hcl's writer does.
	Color bool
	// Columns gives the column with the line ("on FILE line L, column
	// C"); hcl's writer gives the line alone.
	Columns bool

	w     io.Writer
	files map[string]*hcl.File
	lines map[string][]int // byte offsets of line starts, by file
	shown map[string]int
	extra map[string]int // diagnostics not shown, by file
	err   error
}

// NewDiagnosticWriter returns a writer of diagnostics to w that takes
// snippets from files (by name; a file that is missing or has no bytes is
// shown as "source code not available").
func NewDiagnosticWriter(w io.Writer, files map[string]*hcl.File) *DiagnosticWriter {
	return &DiagnosticWriter{w: w, files: files, lines: map[string][]int{}, shown: map[string]int{}, extra: map[string]int{}}
}

// WriteDiagnostics writes diags to w, then the counts of those not shown.
func WriteDiagnostics(w io.Writer, files map[string]*hcl.File, diags hcl.Diagnostics) error {
	dw := NewDiagnosticWriter(w, files)
	for _, d := range diags {
		dw.Write(d)
	}
	return dw.Close()
}

// Write writes one diagnostic, or counts it when MaxPerFile about its file
// were written already. Write errors are kept for Close.
func (dw *DiagnosticWriter) Write(d *hcl.Diagnostic) {
	if dw.err != nil || d == nil {
		return
	}
	if d.Subject != nil {
		name := d.Subject.Filename
		if dw.shown[name] >= MaxPerFile {
			dw.extra[name]++
			return
		}
		dw.shown[name]++
	}
	var b bytes.Buffer
	dw.format(&b, d)
	_, dw.err = dw.w.Write(b.Bytes())
}

// Terminal escape sequences of Color.
const (
	reset     = "\x1b[0m"
	underline = "\x1b[1;4m"
	bold      = "\x1b[1m"
)

// Heading writes a line naming the file whose diagnostics follow.
func (dw *DiagnosticWriter) Heading(file string) {
	if dw.err != nil {
		return
	}
	if dw.Color {
		file = bold + file + reset
	}
	_, dw.err = fmt.Fprintf(dw.w, "%s\n\n", file)
}

// Close writes, for each file with diagnostics that were not shown, a line
// with their number, in file name order, and returns the first write error.
func (dw *DiagnosticWriter) Close() error {
	names := make([]string, 0, len(dw.extra))
	for name := range dw.extra {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if dw.err != nil {
			break
		}
		n := dw.extra[name]
		noun := "diagnostics"
		if n == 1 {
			noun = "diagnostic"
		}
		_, dw.err = fmt.Fprintf(dw.w, "%d more %s about %s not shown (the first %d are; --format json lists all).\n\n", n, noun, name, MaxPerFile)
	}
	return dw.err
}

func (dw *DiagnosticWriter) format(b *bytes.Buffer, d *hcl.Diagnostic) {
	severity, color := "???????", ""
	switch d.Severity {
	case hcl.DiagError:
		severity, color = "Error", "\x1b[31m"
	case hcl.DiagWarning:
		severity, color = "Warning", "\x1b[33m"
	}
	if dw.Color {
		severity = color + severity + reset
	}
	fmt.Fprintf(b, "%s: %s\n\n", severity, d.Summary)
	if d.Subject != nil {
		dw.snippet(b, d)
		dw.values(b, d)
	}
	if d.Detail != "" {
		fmt.Fprintf(b, "%s\n\n", d.Detail)
	}
}

// snippet writes the "on FILE line N" line and the source lines that the
// subject and context ranges overlap, the subject's part of them marked as
// hcl does (without color, the mark is invisible).
func (dw *DiagnosticWriter) snippet(b *bytes.Buffer, d *hcl.Diagnostic) {
	name := d.Subject.Filename
	file := dw.files[name]
	if file == nil || file.Bytes == nil {
		fmt.Fprintf(b, "  on %s line %d:\n  (source code not available)\n\n", name, d.Subject.Start.Line)
		return
	}
	snip, highlight := *d.Subject, *d.Subject
	if d.Context != nil {
		snip = hcl.RangeOver(snip, *d.Context)
	}
	// An empty range cannot be shown: it becomes one character long.
	if snip.Empty() {
		snip.End.Byte++
		snip.End.Column++
	}
	if highlight.Empty() {
		highlight.End.Byte++
		highlight.End.Column++
	}
	context := ""
	if cs, ok := file.Nav.(interface{ ContextString(int) string }); ok {
		if s := cs.ContextString(d.Subject.Start.Byte); s != "" {
			context = ", in " + s
		}
	}
	column := ""
	if dw.Columns {
		column = fmt.Sprintf(", column %d", d.Subject.Start.Column)
	}
	fmt.Fprintf(b, "  on %s line %d%s%s:\n", name, d.Subject.Start.Line, column, context)
	src := file.Bytes
	starts := dw.lineStarts(name, src)
	// The lines that can overlap the snippet: from the one before the line
	// holding its start to the one after the line holding its end.
	first := max(lineIndex(starts, snip.Start.Byte)-1, 0)
	last := min(lineIndex(starts, snip.End.Byte)+1, len(starts)-1)
	shown := 0
	for i := first; i <= last; i++ {
		start, end := starts[i], len(src)
		if i+1 < len(starts) {
			end = starts[i+1]
		}
		if end > start && src[end-1] == '\n' {
			end-- // without the newline
		}
		if end > start && src[end-1] == '\r' {
			end--
		}
		line := hcl.Range{Filename: name, Start: hcl.Pos{Line: i + 1, Column: 1, Byte: start}, End: hcl.Pos{Line: i + 1, Column: 1 + end - start, Byte: end}}
		if !line.Overlaps(snip) {
			continue
		}
		if shown == MaxSnippetLines {
			fmt.Fprintf(b, "      (%d more lines)\n", lineIndex(starts, snip.End.Byte)+1-i)
			break
		}
		shown++
		// A long line (minified JSON, random bytes) is shown as a window
		// of at most MaxLineBytes around the start of what it marks.
		from, to := start, end
		if end-start > MaxLineBytes {
			at := max(start, min(highlight.Start.Byte, end))
			from = runeStart(src, max(start, at-MaxLineBytes/4))
			to = runeStart(src, min(end, from+MaxLineBytes))
		}
		lead, trail := "", ""
		if from > start {
			lead = "…"
		}
		if to < end {
			trail = "…"
		}
		window := hcl.Range{Filename: name, Start: hcl.Pos{Line: i + 1, Byte: from}, End: hcl.Pos{Line: i + 1, Byte: to}}
		before, marked, after := window.PartitionAround(highlight)
		if marked.Empty() {
			fmt.Fprintf(b, "%4d: %s%s%s\n", i+1, lead, src[from:to], trail)
			continue
		}
		mark, unmark := "", ""
		if dw.Color {
			mark, unmark = underline, reset
		}
		fmt.Fprintf(b, "%4d: %s%s%s%s%s%s%s\n", i+1, lead, before.SliceBytes(src), mark, marked.SliceBytes(src), unmark, after.SliceBytes(src), trail)
	}
	b.WriteByte('\n')
}

// MaxLineBytes is the most of one source line a snippet shows; a longer
// line is cut around the start of the range it marks, with "…" where it
// is cut. MaxSnippetLines is the most lines a snippet shows.
const (
	MaxLineBytes    = 200
	MaxSnippetLines = 12
)

// runeStart is i, or the offset before it where the UTF-8 character that
// holds byte i starts.
func runeStart(src []byte, i int) int {
	for i > 0 && i < len(src) && !utf8.RuneStart(src[i]) {
		i--
	}
	return i
}

// lineStarts returns the byte offsets at which the lines of a file start,
// computing them on first use.
func (dw *DiagnosticWriter) lineStarts(name string, src []byte) []int {
	if s, ok := dw.lines[name]; ok {
		return s
	}
	starts := []int{0}
	for i, c := range src {
		if c == '\n' && i+1 < len(src) {
			starts = append(starts, i+1)
		}
	}
	dw.lines[name] = starts
	return starts
}

// lineIndex is the index of the line that holds byte offset off.
func lineIndex(starts []int, off int) int {
	i, found := slices.BinarySearch(starts, off)
	if found {
		return i
	}
	return max(i-1, 0)
}

// values writes the values of the variables that the diagnostic's
// expression refers to, when it has an evaluation context, as hcl does.
func (dw *DiagnosticWriter) values(b *bytes.Buffer, d *hcl.Diagnostic) {
	if d.Expression == nil || d.EvalContext == nil {
		return
	}
	var stmts []string
	seen := map[string]bool{}
	for _, t := range d.Expression.Variables() {
		val, diags := t.TraverseAbs(d.EvalContext)
		if diags.HasErrors() || !val.IsKnown() {
			continue
		}
		name := traversalString(t)
		if seen[name] {
			continue
		}
		seen[name] = true
		if val.IsNull() {
			stmts = append(stmts, name+" set to null")
		} else {
			stmts = append(stmts, name+" as "+valueString(val))
		}
	}
	sort.Strings(stmts)
	for i, s := range stmts {
		if i == 0 {
			b.WriteString("with ")
		} else {
			b.WriteString("     ")
		}
		b.WriteString(s)
		if i == len(stmts)-1 {
			b.WriteString(".\n\n")
		} else {
			b.WriteString(",\n")
		}
	}
}

func traversalString(t hcl.Traversal) string {
	var b bytes.Buffer
	for _, step := range t {
		switch s := step.(type) {
		case hcl.TraverseRoot:
			b.WriteString(s.Name)
		case hcl.TraverseAttr:
			b.WriteString("." + s.Name)
		case hcl.TraverseIndex:
			key := "..."
			if s.Key.Type().IsPrimitiveType() {
				key = valueString(s.Key)
			}
			b.WriteString("[" + key + "]")
		}
	}
	return b.String()
}

// valueString describes a value briefly, as hcl's diagnostics do.
func valueString(v cty.Value) string {
	ty := v.Type()
	switch {
	case v.IsNull():
		return "null"
	case !v.IsKnown():
		return "(not yet known)"
	case ty == cty.Bool:
		return fmt.Sprint(v.True())
	case ty == cty.Number:
		return v.AsBigFloat().Text('g', 10)
	case ty == cty.String:
		return fmt.Sprintf("%q", v.AsString())
	case ty.IsCollectionType() || ty.IsTupleType():
		switch n := v.LengthInt(); n {
		case 0:
			return "empty " + ty.FriendlyName()
		case 1:
			return ty.FriendlyName() + " with 1 element"
		default:
			return fmt.Sprintf("%s with %d elements", ty.FriendlyName(), n)
		}
	case ty.IsObjectType():
		atys := ty.AttributeTypes()
		switch len(atys) {
		case 0:
			return "object with no attributes"
		case 1:
			for k := range atys {
				return fmt.Sprintf("object with 1 attribute %q", k)
			}
		}
		return fmt.Sprintf("object with %d attributes", len(atys))
	}
	return ty.FriendlyName()
}
