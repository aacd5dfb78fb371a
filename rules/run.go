package rules

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/refs"
)

// Config selects the rules that run and their severities. The zero value
// runs every rule that is enabled by default, at its default severity.
type Config struct {
	// Rules holds the settings of the rules that the configuration names.
	Rules map[string]RuleConfig
	// DisabledByDefault runs only the rules that Rules enables.
	DisabledByDefault bool
	// Preset, "recommended" or "all", names a preset of TFLint's terraform
	// ruleset: the rules that stand for a TFLint rule (Rule.TFLint) are
	// on by default exactly when the preset holds their TFLint rule, even
	// with DisabledByDefault (as in TFLint); the other rules keep their
	// defaults. "" keeps every default.
	Preset string
	// Only, when not empty, runs exactly these rules (--only).
	Only []string
	// ReportUnusedIgnores reports ignore comments that silence nothing.
	ReportUnusedIgnores bool
	// Exclude holds glob patterns (with ** for any number of directories)
	// of files whose findings and loading diagnostics are dropped,
	// relative to Root.
	Exclude []string
	// Root is the directory that Exclude patterns are relative to: the
	// configuration file's. "" means the working directory.
	Root string
	// Sources find the modules of module calls that are not local (the
	// command line's --module-source); nil finds those tofu init
	// installed in the module's .terraform.
	Sources *config.Sources
}

// RuleConfig is the configuration of one rule; nil fields keep the default.
type RuleConfig struct {
	Enabled  *bool
	Severity *Severity
	// Options are the values of the rule's options that the configuration
	// sets, converted to their types.
	Options map[string]cty.Value
}

// Selected is a rule as the configuration leaves it.
type Selected struct {
	Rule *Rule
	// Severity, when the configuration sets one, replaces the severity of
	// every finding of the rule.
	Severity Severity
	// Options are the configured option values.
	Options map[string]cty.Value
}

// Select returns the rules that cfg runs, in registry order, or an error
// naming every rule that cfg names and that does not exist.
func (cfg Config) Select() ([]Selected, error) {
	var errs []error
	for name := range cfg.Rules {
		if canonical, err := Resolve(name); err != nil {
			errs = append(errs, err)
		} else if canonical != name {
			errs = append(errs, fmt.Errorf("rule %q is configured by its TFLint name: Config.Rules takes tofulint names (Resolve)", name))
		}
	}
	for _, name := range cfg.Only {
		if _, err := Resolve(name); err != nil {
			errs = append(errs, err)
		}
	}
	var preset []string
	if cfg.Preset != "" {
		var ok bool
		if preset, _, ok = TFLintPreset(cfg.Preset); !ok {
			errs = append(errs, fmt.Errorf("unknown preset %q: want recommended or all", cfg.Preset))
		}
	}
	if len(errs) > 0 {
		slices.SortFunc(errs, func(a, b error) int { return strings.Compare(a.Error(), b.Error()) })
		return nil, errors.Join(errs...)
	}
	var out []Selected
	for _, r := range All() {
		rc := cfg.Rules[r.Name]
		on := r.Enabled && !cfg.DisabledByDefault
		if cfg.Preset != "" && r.TFLint != "" {
			// As in TFLint, the preset wins over disabled_by_default.
			on = slices.Contains(preset, r.Name)
		}
		if rc.Enabled != nil {
			on = *rc.Enabled
		}
		if len(cfg.Only) > 0 {
			on = slices.ContainsFunc(cfg.Only, func(n string) bool { return n == r.Name || r.TFLint != "" && n == r.TFLint })
		}
		if !on {
			continue
		}
		sel := Selected{Rule: r, Options: rc.Options}
		if rc.Severity != nil {
			sel.Severity = *rc.Severity
		}
		out = append(out, sel)
	}
	return out, nil
}

func unknownRule(name string) error {
	msg := fmt.Sprintf("unknown rule %q", name)
	if s := closest(name); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	}
	return errors.New(msg)
}

// Run runs the selected rules over a loaded module and returns their
// findings that no ignore comment silences and that are not in a file that
// cfg excludes, ordered by file and position. loadDiags are the loader's
// diagnostics for the module.
//
// A module whose loading diagnostics have errors that no rule claims
// (LoadErrors) is not fit for the rules: duplicate or malformed
// declarations would make them guess. Then no rule runs, and the loader's
// diagnostics that selected rules claim are reported as those rules'
// findings as they are, so that nothing the loader found is lost.
func Run(m *config.Module, loadDiags hcl.Diagnostics, selected []Selected, cfg Config) []Finding {
	var findings []Finding
	if LoadErrors(loadDiags).HasErrors() {
		findings = claimedFindings(loadDiags, selected)
	} else {
		findings = runRules(m, loadDiags, selected, cfg.Sources)
	}
	igs := findIgnores(m.Files)
	kept := findings[:0]
	for i := range findings {
		if !cfg.Excluded(findings[i].Range.Filename) && !igs.silences(&findings[i]) {
			kept = append(kept, findings[i])
		}
	}
	if cfg.ReportUnusedIgnores {
		ran := map[string]bool{}
		for _, sel := range selected {
			ran[sel.Rule.Name] = true
		}
		unused := igs.unused(ran)
		for i := range unused {
			if !cfg.Excluded(unused[i].Range.Filename) {
				kept = append(kept, unused[i])
			}
		}
	}
	SortFindings(kept)
	return kept
}

// runRules runs each selected rule's Check over m.
func runRules(m *config.Module, loadDiags hcl.Diagnostics, selected []Selected, sources *config.Sources) []Finding {
	uses, _ := refs.InModule(m)
	var findings []Finding
	for _, s := range selected {
		pass := &Pass{
			Rule:            s.Rule,
			Module:          m,
			LoadDiagnostics: loadDiags,
			References:      uses,
			Sources:         sources,
			options:         s.Options,
			report: func(f Finding) {
				if s.Severity != 0 {
					f.Severity = s.Severity
				}
				findings = append(findings, f)
			},
		}
		s.Rule.Check(pass)
	}
	return findings
}

// claimedFindings turns the loader diagnostics that selected rules claim
// into findings of those rules.
func claimedFindings(loadDiags hcl.Diagnostics, selected []Selected) []Finding {
	var findings []Finding
	for _, d := range loadDiags {
		i := slices.IndexFunc(selected, func(s Selected) bool { return s.Rule.Claims != nil && s.Rule.Claims(d) })
		if i < 0 {
			continue
		}
		s := selected[i]
		pass := &Pass{Rule: s.Rule, report: func(f Finding) {
			if s.Severity != 0 {
				f.Severity = s.Severity
			}
			findings = append(findings, f)
		}}
		pass.ReportDiagnostic(d, nil)
	}
	return findings
}

// SortFindings orders findings by file, position, rule and message.
func SortFindings(fs []Finding) {
	slices.SortStableFunc(fs, func(a, b Finding) int {
		return cmp.Or(
			strings.Compare(a.Range.Filename, b.Range.Filename),
			cmp.Compare(a.Range.Start.Byte, b.Range.Start.Byte),
			strings.Compare(a.Rule, b.Rule),
			strings.Compare(a.Message, b.Message),
		)
	})
}

// ClaimsKind returns a Rule.Claims function that claims the loader
// diagnostics marked with one of kinds.
func ClaimsKind(kinds ...config.Kind) func(*hcl.Diagnostic) bool {
	return func(d *hcl.Diagnostic) bool {
		k, ok := config.KindOf(d)
		return ok && slices.Contains(kinds, k)
	}
}

// LoadErrors returns the loader diagnostics that no rule claims: the ones
// that a linter prints as loading diagnostics. Rules run over a module only
// when these have no error.
func LoadErrors(diags hcl.Diagnostics) hcl.Diagnostics {
	return slices.DeleteFunc(slices.Clone(diags), Claimed)
}
