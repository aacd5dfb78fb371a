package rules

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/refs"
)

// Severity is how serious a finding is.
type Severity int

// The severities, most serious first.
const (
	Error Severity = iota + 1
	Warning
	Notice
)

func (s Severity) String() string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	case Notice:
		return "notice"
	}
	return fmt.Sprintf("Severity(%d)", int(s))
}

// ParseSeverity reads "error", "warning" or "notice".
func ParseSeverity(s string) (Severity, error) {
	for _, sev := range []Severity{Error, Warning, Notice} {
		if sev.String() == s {
			return sev, nil
		}
	}
	return 0, fmt.Errorf("unknown severity %q: want error, warning or notice", s)
}

// Rule is one check. Like an analysis.Analyzer of golang.org/x/tools, it is
// a small value: a name, a doc, defaults, and a Check function over a Pass.
// Each rule lives in a file of its own named after it.
type Rule struct {
	// Name is the rule's public name, used in configuration, ignore
	// comments and output: lower case with underscores.
	Name string
	// TFLint is the name of the rule of TFLint's bundled terraform ruleset
	// that finds the same problems ("terraform_unused_declarations"), or
	// "" when it has none. Wherever a rule name is taken (flags, the
	// configuration file, ignore comments) the TFLint name is accepted too.
	TFLint string
	// Doc is one paragraph saying what the rule finds and why, followed by
	// a bad and a good example.
	Doc string
	// Severity is the default severity of its findings.
	Severity Severity
	// Enabled tells whether the rule runs when the configuration does not
	// say.
	Enabled bool
	// Fixes tells whether some findings of the rule carry a fix.
	Fixes bool
	// Check inspects the module of the pass and reports findings.
	Check func(*Pass)
	// Options are the settings that a rule block of the configuration file
	// may give the rule, besides enabled and severity.
	Options []Option
	// CheckOptions, when set, checks the options of a rule block together
	// (one option naming the entries of another), each given by option
	// (the configured value or the default); its error is shown at the
	// rule block.
	CheckOptions func(option func(name string) cty.Value) error
	// Claims, when set, tells which of the loader's diagnostics the rule
	// reports under its name (those marked with a config.Kind or a
	// features.OptIn it owns). Claimed diagnostics are not loading errors:
	// they do not stop the rules from running, and disabling the rule
	// silences them.
	Claims func(*hcl.Diagnostic) bool
}

// Option is a setting of one rule, written in the rule's block of the
// configuration file.
type Option struct {
	Name string
	// Doc says what the option changes, in one sentence.
	Doc string
	// Type is the option's type; configured values are converted to it.
	// An option of an object type may also be written as a block of its
	// name (variable { format = "..." }), as TFLint's rule blocks have it.
	Type cty.Type
	// Default is the value when the configuration does not set it.
	Default cty.Value
	// Validate, when set, checks a configured value after conversion; its
	// error is shown at the value in the configuration file.
	Validate func(cty.Value) error
}

// Pass is one rule's run over one module.
type Pass struct {
	Rule   *Rule
	Module *config.Module
	// LoadDiagnostics are the loader's diagnostics for the module. Rules
	// that own some of them (feature_opt_in) report those.
	LoadDiagnostics hcl.Diagnostics
	// References are every reference of the module, found once for all
	// rules (refs.InModule).
	References []refs.Use
	// Sources find the modules of the module's calls, the module taken as
	// a root (see config.Sources); nil finds local and installed ones.
	Sources *config.Sources

	options map[string]cty.Value
	report  func(Finding)
}

// Option returns the value of the rule's option name: the configured one,
// or the option's default. A name that the rule does not declare gives
// cty.NilVal.
func (p *Pass) Option(name string) cty.Value {
	if v, ok := p.options[name]; ok {
		return v
	}
	for _, o := range p.Rule.Options {
		if o.Name == name {
			return o.Default
		}
	}
	return cty.NilVal
}

// Report records a finding of the pass's rule. Rule and Severity are
// filled in from the rule when left empty.
func (p *Pass) Report(f Finding) {
	f.Rule = p.Rule.Name
	if f.Severity == 0 {
		f.Severity = p.Rule.Severity
	}
	p.report(f)
}

// ReportDiagnostic reports an hcl diagnostic as a finding, with an optional
// fix. An hcl warning is a Warning finding, an error takes the rule's
// severity.
func (p *Pass) ReportDiagnostic(d *hcl.Diagnostic, fix *Fix) {
	f := Finding{Message: d.Summary, Detail: d.Detail, Fix: fix}
	if d.Severity == hcl.DiagWarning {
		f.Severity = Warning
	}
	if d.Subject != nil {
		f.Range = *d.Subject
	}
	p.Report(f)
}

// Finding is a problem a rule found.
type Finding struct {
	Rule     string
	Severity Severity
	// Message is one line; Detail explains, and may span lines.
	Message string
	Detail  string
	Range   hcl.Range
	// Fix, when set, corrects the finding without changing what the
	// module means.
	Fix *Fix
}

// Fix is a set of edits that correct one finding, as a SuggestedFix of
// golang.org/x/tools/go/analysis.
type Fix struct {
	// Description says what the fix does: `Insert "resource."`.
	Description string
	Edits       []Edit
}

// Edit replaces the bytes of Range (Start.Byte to End.Byte of
// Range.Filename) with NewText. An insertion has an empty range.
type Edit struct {
	Range   hcl.Range
	NewText string
}
