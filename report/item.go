package report

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tofucue/tofucue/rules"
)

// LoadError is the rule name under which the machine formats (all but text
// and json) report a loading diagnostic, error or warning: programs that
// read them expect every entry to name its rule.
const LoadError = "load_error"

// item is a finding or a loading diagnostic as the machine formats show
// it.
type item struct {
	rule     string
	severity rules.Severity
	message  string
	detail   string
	// rng is nil when the item is about no file in particular.
	rng *hcl.Range
	fix *rules.Fix
}

// items returns the loading diagnostics and the findings of r as items,
// ordered by file and start position, the items about no file first; at
// equal positions, loading diagnostics come first, then the findings in
// report order.
func items(r *Report) []item {
	out := make([]item, 0, len(r.Diagnostics)+len(r.Findings))
	for _, d := range r.Diagnostics {
		if d == nil {
			continue
		}
		it := item{rule: LoadError, severity: rules.Error, message: d.Summary, detail: d.Detail}
		if d.Severity == hcl.DiagWarning {
			it.severity = rules.Warning
		}
		if d.Subject != nil && d.Subject.Filename != "" {
			rng := *d.Subject
			it.rng = &rng
		}
		out = append(out, it)
	}
	for i := range r.Findings {
		f := &r.Findings[i]
		it := item{rule: f.Rule, severity: f.Severity, message: f.Message, detail: f.Detail, fix: f.Fix}
		if f.Range.Filename != "" {
			rng := f.Range
			it.rng = &rng
		}
		out = append(out, it)
	}
	slices.SortStableFunc(out, func(a, b item) int {
		switch {
		case a.rng == nil && b.rng == nil:
			return 0
		case a.rng == nil:
			return -1
		case b.rng == nil:
			return 1
		}
		return cmp.Or(
			cmp.Compare(a.rng.Filename, b.rng.Filename),
			cmp.Compare(a.rng.Start.Byte, b.rng.Start.Byte),
		)
	})
	return out
}

// fileNames returns the names of the files of r and of every file that an
// item names, sorted.
func fileNames(r *Report, its []item) []string {
	var names []string
	for name := range r.Files {
		if name != "" {
			names = append(names, name)
		}
	}
	for i := range its {
		if its[i].rng != nil {
			names = append(names, its[i].rng.Filename)
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// fullText is the item's message, then its detail and the fix it suggests
// in paragraphs of their own, for formats whose messages may span lines.
func (it *item) fullText() string {
	s := it.message
	if it.detail != "" {
		s += "\n\n" + it.detail
	}
	if it.fix != nil && it.fix.Description != "" {
		s += "\n\nSuggested fix: " + it.fix.Description + "."
	}
	return s
}

// oneLine is the item's message on one line: a loading diagnostic's summary
// is often too short to be understood alone ("Unsupported block type"), so
// its detail follows it; a finding's message says what is wrong by itself.
func (it *item) oneLine() string {
	s := flatten(it.message)
	if it.rule == LoadError && it.detail != "" {
		sep := ": "
		if strings.HasSuffix(s, ".") || strings.HasSuffix(s, ":") {
			sep = " "
		}
		s += sep + flatten(it.detail)
	}
	return s
}

// position is "FILE:LINE:COL", or "" for an item about no file.
func (it *item) position() string {
	if it.rng == nil {
		return ""
	}
	return fmt.Sprintf("%s:%d:%d", it.rng.Filename, it.rng.Start.Line, it.rng.Start.Column)
}

// flatten puts s on one line: line breaks and the blanks around them
// become one space.
func flatten(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	lines := strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' })
	for i := range lines {
		lines[i] = strings.TrimSpace(lines[i])
	}
	lines = slices.DeleteFunc(lines, func(l string) bool { return l == "" })
	return strings.Join(lines, " ")
}

// severityLevel names a severity in a format's words for error, warning
// and notice; a severity out of range is shown as a warning.
func severityLevel(s rules.Severity, errorWord, warningWord, noticeWord string) string {
	switch s {
	case rules.Error:
		return errorWord
	case rules.Notice:
		return noticeWord
	}
	return warningWord
}

// ruleInfo returns the description of the rule that an item names: a
// registered rule, or one of the names that the report itself gives
// findings (LoadError, rules.UnusedIgnore). A name it does not know gives
// a rule with the name alone.
func ruleInfo(name string) *rules.Rule {
	if r := rules.Lookup(name); r != nil {
		return r
	}
	switch name {
	case LoadError:
		return loadErrorRule
	case rules.UnusedIgnore:
		return unusedIgnoreRule
	}
	return &rules.Rule{Name: name, Severity: rules.Warning, Enabled: true}
}

// loadErrorRule describes the loading diagnostics, for formats that
// describe the rules their results name.
var loadErrorRule = &rules.Rule{
	Name:     LoadError,
	Severity: rules.Error,
	Enabled:  true,
	Doc: `Reports a problem found while loading a module, before any rule runs: a
file that is not valid HCL or JSON, a block or argument that the OpenTofu
language does not have, or a value that it does not accept there. An error
stops the rules from running over the module, since its configuration
cannot be read the way OpenTofu reads it; a warning does not. It cannot be
disabled: correct the configuration.`,
}

// unusedIgnoreRule describes the findings about ignore comments that
// silence nothing.
var unusedIgnoreRule = &rules.Rule{
	Name:     rules.UnusedIgnore,
	Severity: rules.Warning,
	Doc: `Reports a tofulint-ignore comment that silences nothing: no finding of
the rule it names is reported on the line it applies to, or a
tofulint-ignore-file comment comes after the first block of its file.
tofulint reports these only when asked to (--report-unused-ignores).`,
}
