// Package report writes tofulint's findings and loading diagnostics in its
// output formats: text for people, and json, sarif, checkstyle, junit,
// compact and github for programs.
//
// Every format shows the same things: the rules' findings, and the loading
// diagnostics that no rule claims. The formats other than text and json
// give a loading diagnostic, error or warning, the rule name [LoadError]
// ("load_error"), and order everything by file name, then position, with
// what is about no file first; the same report always gives the same
// bytes. File names are written as the report holds them (relative when
// tofulint was given relative paths), with forward slashes in sarif and
// github. Below, "finding" stands for a finding or a loading diagnostic.
//
//   - text: each finding the way tofu validate prints a diagnostic:
//     severity, summary with the rule's name, file, line and column with
//     a source snippet, detail, and the fix it suggests; grouped by file,
//     each rule's detail once unless TextOptions.Verbose, then a line of
//     counts (writeText). A clean run prints nothing.
//     At most MaxPerFile are shown per file, then a line counting the rest
//     (DiagnosticWriter, which every command's text diagnostics use).
//   - json: the contract of DESIGN.md: {"issues": [...], "errors": [...]},
//     the rules' findings in issues and the loading diagnostics in errors,
//     in the report's order, each with its range; "fixable" tells whether
//     a finding has a fix.
//   - sarif: one SARIF 2.1.0 log with one run of the tool "tofulint" (with
//     Report.Version and InformationURI), describing every rule that ran
//     and every other rule that the log names (id, first sentence of the
//     doc as short description, first paragraph as full description, whole
//     doc as help, default level and state). Each finding that has a file
//     is a result with its rule and rule index, level (error, warning,
//     note), message (summary and detail), location (a URI relative to
//     Report.Root, the repository's root, against %SRCROOT%, whatever
//     the current directory; a file URI for a file outside it; and a
//     region whose columns count Unicode code points), a partial
//     fingerprint that does not change when lines are added above the
//     finding (a hash of the rule, the URI and the text of the finding's
//     line and range, then ":N" for its occurrence among equal hashes)
//     and, when it has a fix, the fix as byte-range replacements.
//     Properties nobody set are left out (no empty arrays, no -1).
//     A finding about no file is a tool execution notification of the
//     run's invocation instead, since GitHub code scanning rejects a whole
//     log that has a result without a location.
//   - checkstyle: Checkstyle's XML: a <file> element for every file of the
//     report, in name order, with or without errors (as Checkstyle lists
//     every file it checked), holding an <error> per finding with line,
//     column, severity (error, warning, info), message (summary, detail and
//     suggested fix) and source (the rule's name, as TFLint writes it and
//     reviewdog reads it). Findings about no file are in a <file> with an
//     empty name.
//   - junit: JUnit XML: a <testsuite> per module (named by its directory)
//     in name order, a failing <testcase> per finding, whatever its
//     severity (name: the rule; classname and file: the file; the
//     failure's type: the severity; its message "FILE:LINE:COL: summary";
//     its text "FILE:LINE:COL: Severity - summary (rule)", the detail and
//     the suggested fix) and, for a module without findings, one passing
//     testcase named "tofulint", so that a clean module gives a passing
//     report rather than an empty one. Findings about no file are in a
//     testsuite named "tofulint".
//   - compact: TFLint's compact format: a line "N issue(s) found:" and an
//     empty line, then one line per finding, "FILE:LINE:COL: Severity -
//     Message (rule)" ("Severity - Message (rule)" for one about no file).
//     A loading diagnostic's summary is followed by its detail on the same
//     line, as it often says too little alone ("Unsupported block type");
//     a finding's message says what is wrong by itself. A clean run prints
//     nothing.
//   - github: a GitHub Actions workflow command per finding, "::error
//     file=F,line=L,col=C,endLine=EL,endColumn=EC,title=RULE::MESSAGE"
//     (::warning and ::notice for the other severities), which GitHub
//     shows as an annotation. The message holds the summary, the
//     suggested fix and a link to the rule's documentation (RuleDocURL;
//     a loading diagnostic's detail too, not a finding's explanation);
//     properties and message are escaped as the runner requires. A clean
//     run prints nothing.
package report

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tofucue/tofucue/rules"
)

// Output formats.
const (
	Text       = "text"
	JSON       = "json"
	SARIF      = "sarif"
	Checkstyle = "checkstyle"
	JUnit      = "junit"
	Compact    = "compact"
	GitHub     = "github"
)

// Formats lists every output format, in the order help shows them.
var Formats = []string{Text, JSON, SARIF, Checkstyle, JUnit, Compact, GitHub}

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
	// Version is the version of tofulint that made the report.
	Version string
	// Text holds the settings of the text format.
	Text TextOptions
	// Root is the directory that SARIF's URIs are relative to: the
	// repository's root (config.RepositoryRoot); "" means the current
	// directory.
	Root string
}

// Write writes r to w in format, one of Formats.
func Write(w io.Writer, format string, r *Report) error {
	switch format {
	case Text:
		return writeText(w, r)
	case JSON:
		return writeJSON(w, r.Findings, r.Diagnostics)
	case SARIF:
		return writeSARIF(w, r)
	case Checkstyle:
		return writeCheckstyle(w, r)
	case JUnit:
		return writeJUnit(w, r)
	case Compact:
		return writeCompact(w, r)
	case GitHub:
		return writeGitHub(w, r)
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

// TextOptions are the settings of the text format.
type TextOptions struct {
	// Verbose gives every finding's explanation (its detail), not only the
	// first of each rule's.
	Verbose bool
	// Color marks severities and the source a finding is about with
	// terminal escape sequences.
	Color bool
}

// writeText prints the loading diagnostics and the findings the way tofu
// validate prints diagnostics: severity and summary (with the rule's name),
// the file, line and column with a source snippet from files, then the
// detail; grouped by file (a line naming it before its findings), in
// order of position. A rule's findings explain themselves (their detail)
// once per run, at the first, unless Verbose (the fix they suggest is
// always given); loading diagnostics always explain themselves. A last line counts the errors, warnings and notices and the
// modules they are in. A clean report prints nothing.
func writeText(w io.Writer, r *Report) error {
	all := slices.Clone(r.Diagnostics)
	findingOf := map[*hcl.Diagnostic]*rules.Finding{}
	var errs, warnings, notices int
	for i := range r.Findings {
		d := findingDiagnostic(&r.Findings[i])
		findingOf[d] = &r.Findings[i]
		all = append(all, d)
		switch r.Findings[i].Severity {
		case rules.Error:
			errs++
		case rules.Warning:
			warnings++
		default:
			notices++
		}
	}
	for _, d := range r.Diagnostics {
		if d.Severity == hcl.DiagError {
			errs++
		} else {
			warnings++
		}
	}
	if len(all) == 0 {
		return nil
	}
	SortDiagnostics(all)
	dw := NewDiagnosticWriter(w, r.Files)
	dw.Color, dw.Columns = r.Text.Color, true
	explained := map[string]bool{}
	file := ""
	modules := map[string]bool{}
	for _, d := range all {
		if d.Subject != nil {
			modules[filepath.Dir(d.Subject.Filename)] = true
			if d.Subject.Filename != file {
				file = d.Subject.Filename
				dw.Heading(file)
			}
		}
		if f, ok := findingOf[d]; ok {
			if explained[f.Rule] && !r.Text.Verbose {
				// Without the explanation, but with the fix.
				short := *f
				short.Detail = ""
				d = findingDiagnostic(&short)
				d.Detail = strings.TrimPrefix(d.Detail, "\n\n")
			}
			explained[f.Rule] = true
		}
		dw.Write(d)
	}
	if err := dw.Close(); err != nil {
		return err
	}
	var counts []string
	for _, c := range []struct {
		n    int
		noun string
	}{{errs, "error"}, {warnings, "warning"}, {notices, "notice"}} {
		if c.n > 0 {
			counts = append(counts, plural(c.n, c.noun))
		}
	}
	_, err := fmt.Fprintf(w, "%s in %s\n", strings.Join(counts, ", "), plural(max(len(modules), 1), "module"))
	return err
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
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
