// Package report writes tofulint's findings and loading diagnostics in its
// output formats: text for people, and json, sarif, checkstyle, junit,
// compact and github for programs.
package report

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tofucue/tofucue/rules"
)

// Output formats.
const (
	Text = "text"
	JSON = "json"
)

// Formats lists every output format, in the order help shows them.
var Formats = []string{Text, JSON}

// Report is what one tofulint run found.
type Report struct {
	// Findings are the rules' findings, in output order.
	Findings []rules.Finding
	// Diagnostics are the loading diagnostics that no rule claims.
	Diagnostics hcl.Diagnostics
	// Files are the parsed configuration files by name, for source
	// snippets.
	Files map[string]*hcl.File
	// Rules are the rules that ran, for formats that describe them.
	Rules []*rules.Rule
}

// Write writes r to w in format, one of Formats.
func Write(w io.Writer, format string, r *Report) error {
	switch format {
	case Text:
		return writeText(w, r.Files, r.Findings, r.Diagnostics)
	case JSON:
		return writeJSON(w, r.Findings, r.Diagnostics)
	}
	return fmt.Errorf("unknown output format %q: want one of %s", format, strings.Join(Formats, ", "))
}

// SortDiagnostics orders diags by file and start position; diagnostics
// without a subject come first. The order among equal positions is kept.
func SortDiagnostics(diags hcl.Diagnostics) {
	slices.SortStableFunc(diags, func(a, b *hcl.Diagnostic) int {
		switch {
		case a.Subject == nil && b.Subject == nil:
			return 0
		case a.Subject == nil:
			return -1
		case b.Subject == nil:
			return 1
		}
		return cmp.Or(
			cmp.Compare(a.Subject.Filename, b.Subject.Filename),
			cmp.Compare(a.Subject.Start.Byte, b.Subject.Start.Byte),
		)
	})
}

// writeText prints the loading diagnostics and the findings the way tofu
// validate prints diagnostics: severity and summary (with the rule's name),
// the file and line with a source snippet from files, then the detail; in
// order of file and position.
func writeText(w io.Writer, files map[string]*hcl.File, findings []rules.Finding, loadDiags hcl.Diagnostics) error {
	all := slices.Clone(loadDiags)
	for i := range findings {
		all = append(all, findingDiagnostic(&findings[i]))
	}
	SortDiagnostics(all)
	dw := hcl.NewDiagnosticTextWriter(w, files, 0, false)
	for _, d := range all {
		if err := dw.WriteDiagnostic(d); err != nil {
			return err
		}
	}
	return nil
}

// findingDiagnostic shows a finding as a diagnostic: errors as errors, the
// rest as warnings, with the rule's name after the message (and "notice"
// before it for notices).
func findingDiagnostic(f *rules.Finding) *hcl.Diagnostic {
	d := &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: f.Message + " (" + f.Rule + ")", Detail: f.Detail}
	switch f.Severity {
	case rules.Error:
		d.Severity = hcl.DiagError
	case rules.Notice:
		d.Summary = "notice: " + d.Summary
	}
	if f.Range.Filename != "" {
		rng := f.Range
		d.Subject = &rng
	}
	if f.Fix != nil {
		d.Detail += "\n\nSuggested fix: " + f.Fix.Description + "."
	}
	return d
}

// jsonReport is the JSON output of tofulint: issues found by rules and
// errors from loading the modules.
type jsonReport struct {
	Issues []jsonIssue `json:"issues"`
	Errors []jsonError `json:"errors"`
}

// jsonIssue is a rule finding, with the fields of the JSON contract in
// DESIGN.md.
type jsonIssue struct {
	Rule     string     `json:"rule"`
	Severity string     `json:"severity"`
	Message  string     `json:"message"`
	Detail   string     `json:"detail"`
	Range    *jsonRange `json:"range"`
	Fixable  bool       `json:"fixable"`
}

// jsonError is a diagnostic from loading a module.
type jsonError struct {
	Severity string     `json:"severity"`
	Summary  string     `json:"summary"`
	Detail   string     `json:"detail"`
	Range    *jsonRange `json:"range"`
}

type jsonRange struct {
	Filename string  `json:"filename"`
	Start    jsonPos `json:"start"`
	End      jsonPos `json:"end"`
}

type jsonPos struct {
	Line   int `json:"line"`
	Column int `json:"column"`
	Byte   int `json:"byte"`
}

func severityName(s hcl.DiagnosticSeverity) string {
	switch s {
	case hcl.DiagError:
		return "error"
	case hcl.DiagWarning:
		return "warning"
	default:
		return fmt.Sprintf("severity(%d)", s)
	}
}

func toJSONRange(r *hcl.Range) *jsonRange {
	if r == nil {
		return nil
	}
	return &jsonRange{
		Filename: r.Filename,
		Start:    jsonPos{Line: r.Start.Line, Column: r.Start.Column, Byte: r.Start.Byte},
		End:      jsonPos{Line: r.End.Line, Column: r.End.Column, Byte: r.End.Byte},
	}
}

// writeJSON prints one JSON document: the findings in issues and the
// loading diagnostics in errors.
func writeJSON(w io.Writer, findings []rules.Finding, loadDiags hcl.Diagnostics) error {
	report := jsonReport{Issues: []jsonIssue{}, Errors: []jsonError{}}
	for i := range findings {
		f := &findings[i]
		rng := f.Range
		report.Issues = append(report.Issues, jsonIssue{
			Rule:     f.Rule,
			Severity: f.Severity.String(),
			Message:  f.Message,
			Detail:   f.Detail,
			Range:    toJSONRange(&rng),
			Fixable:  f.Fix != nil,
		})
	}
	for _, d := range loadDiags {
		report.Errors = append(report.Errors, jsonError{
			Severity: severityName(d.Severity),
			Summary:  d.Summary,
			Detail:   d.Detail,
			Range:    toJSONRange(d.Subject),
		})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(report)
}
