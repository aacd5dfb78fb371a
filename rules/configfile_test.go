package rules

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// withOptionRule registers, for one test, a rule with options, so that
// option parsing is tested whatever the real rules declare.
func withOptionRule(t *testing.T) *Rule {
	t.Helper()
	r := &Rule{
		Name: "test_options", Severity: Warning, Enabled: true, Check: func(*Pass) {},
		Options: []Option{
			{Name: "max_length", Doc: "The longest name allowed.", Type: cty.Number, Default: cty.NumberIntVal(10)},
			{Name: "allow", Doc: "Names to skip.", Type: cty.List(cty.String), Default: cty.ListValEmpty(cty.String)},
		},
	}
	saved := registered
	registered = append(registered[:len(registered):len(registered)], r)
	t.Cleanup(func() { registered = saved })
	return r
}

// withTFLintOnlyRule adds to the table of TFLint's rules one that no
// tofulint rule stands for, terraform_test_only, for the test's duration.
// (Every rule of TFLint's table has an equivalent once all are written.)
func withTFLintOnlyRule(t *testing.T) {
	t.Helper()
	saved := tflintRules
	tflintRules = append(tflintRules[:len(tflintRules):len(tflintRules)], tflintRule{name: "terraform_test_only", recommended: true})
	t.Cleanup(func() { tflintRules = saved })
}

func TestResolve(t *testing.T) {
	withTFLintOnlyRule(t)
	for _, tt := range []struct{ name, want, err string }{
		{"unused_declaration", "unused_declaration", ""},
		{"terraform_unused_declarations", "unused_declaration", ""},
		{"terraform_test_only", "", `TFLint rule "terraform_test_only" has no equivalent in tofulint: no tofulint rule finds what it finds`},
		{"azurerm_linux_vm_size", "", `rule "azurerm_linux_vm_size" belongs to TFLint's tflint-ruleset-azurerm plugin, which tofulint does not have`},
		{"unused_declarations", "", `unknown rule "unused_declarations" (did you mean "unused_declaration"?)`},
	} {
		got, err := Resolve(tt.name)
		if got != tt.want || fmt.Sprint(err) != cmp.Or(tt.err, "<nil>") && !strings.HasPrefix(fmt.Sprint(err), tt.err) {
			t.Errorf("Resolve(%q) = %q, %v; want %q, %s", tt.name, got, err, tt.want, tt.err)
		}
	}
	names, missing, ok := TFLintPreset("recommended")
	if !ok || !slices.Contains(names, "unused_declaration") || !slices.Contains(missing, "terraform_test_only") || slices.Contains(names, "") {
		t.Errorf("recommended preset: %v, missing %v", names, missing)
	}
	if _, _, ok := TFLintPreset("strict"); ok {
		t.Error("an unknown preset is accepted")
	}
}

func TestParseConfig(t *testing.T) {
	withOptionRule(t)
	src := `
config {
  disabled_by_default   = true
  report_unused_ignores = true
  exclude               = ["generated/**", "*.gen.tf"]
}

rule "future_symbol_conflict" {
  enabled  = true
  severity = "error"
}

rule "terraform_typed_variables" {
  severity = "notice"
}

rule "test_options" {
  max_length = "12"
  allow      = ["a", "b"]
}
`
	cfg, diags := ParseConfig([]byte(src), filepath.Join("root", ".tofulint.hcl"))
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if !cfg.DisabledByDefault || !cfg.ReportUnusedIgnores || cfg.Root != "root" || strings.Join(cfg.Exclude, " ") != "generated/** *.gen.tf" {
		t.Errorf("config block = %+v", cfg)
	}
	if tv := cfg.Rules["variable_type_missing"]; tv.Severity == nil || *tv.Severity != Notice {
		t.Errorf("a rule block by TFLint name configures the rule by tofulint name: %+v", cfg.Rules)
	}
	fsc := cfg.Rules["future_symbol_conflict"]
	if fsc.Enabled == nil || !*fsc.Enabled || fsc.Severity == nil || *fsc.Severity != Error {
		t.Errorf("future_symbol_conflict = %+v", fsc)
	}
	sel, err := cfg.Select()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range sel {
		names = append(names, s.Rule.Name)
	}
	// disabled_by_default: only the rule enabled explicitly runs; the test
	// rule has settings but no enabled = true.
	if strings.Join(names, " ") != "future_symbol_conflict" {
		t.Errorf("selected %v", names)
	}

	// Options reach the pass converted to their types; unset ones take the
	// default.
	opts := cfg.Rules["test_options"].Options
	p := &Pass{Rule: Lookup("test_options"), options: opts}
	if v := p.Option("max_length"); !v.RawEquals(cty.NumberIntVal(12)) {
		t.Errorf("max_length = %#v", v)
	}
	if v := p.Option("allow"); v.LengthInt() != 2 {
		t.Errorf("allow = %#v", v)
	}
	p.options = nil
	if v := p.Option("max_length"); !v.RawEquals(cty.NumberIntVal(10)) {
		t.Errorf("default max_length = %#v", v)
	}
	if v := p.Option("nope"); v != cty.NilVal {
		t.Errorf("undeclared option = %#v", v)
	}
}

func TestParseConfigErrors(t *testing.T) {
	withOptionRule(t)
	withTFLintOnlyRule(t)
	tests := []struct {
		name, src string
		want      []string // substrings of the diagnostics, in order
	}{
		{"unknown rule", `rule "symbol_refrence" {}`, []string{`:1,6-23: Unknown rule; unknown rule "symbol_refrence" (did you mean "symbol_reference"?)`}},
		{"unknown option", "rule \"test_options\" {\n  max_lenght = 3\n}", []string{`:2,3-13: Unsupported argument; An argument named "max_lenght" is not expected here. Did you mean "max_length"?`}},
		{"option of the wrong type", "rule \"test_options\" {\n  allow = {a = 1}\n}", []string{`:2,11-18: Invalid value; The argument "allow" must be list of string`}},
		{"option value rejected by the rule", "rule \"unused_declaration\" {\n  kinds = [\"variables\"]\n}", []string{`:2,11-24: Invalid value; Invalid kinds for the rule unused_declaration: "variables" is not a kind of declaration; want variable, local, data, provider.`}},
		{"bad severity", "rule \"symbol_reference\" {\n  severity = \"fatal\"\n}", []string{`Invalid severity; unknown severity "fatal": want error, warning or notice.`}},
		{"enabled not a bool", "rule \"symbol_reference\" {\n  enabled = \"maybe\"\n}", []string{`The argument "enabled" must be bool`}},
		{"variables are not allowed", "rule \"symbol_reference\" {\n  enabled = var.on\n}", []string{"Variables not allowed"}},
		{"duplicate rule", "rule \"symbol_reference\" {}\nrule \"symbol_reference\" {}", []string{`:2,6-24: Duplicate rule block`}},
		{"TFLint name with no equivalent", `rule "terraform_test_only" {}`, []string{`:1,6-27: Unknown rule; TFLint rule "terraform_test_only" has no equivalent in tofulint`}},
		{"TFLint plugin rule", `rule "aws_instance_invalid_type" {}`, []string{`Unknown rule; rule "aws_instance_invalid_type" belongs to TFLint's tflint-ruleset-aws plugin, which tofulint does not have`}},
		{"a rule by both names", "rule \"unused_declaration\" {}\nrule \"terraform_unused_declarations\" {}", []string{`:2,6-37: Duplicate rule block; The rule "unused_declaration" is configured twice`}},
		{"unknown preset", "config {\n  preset = \"strict\"\n}", []string{`:2,12-20: Invalid preset; Unknown preset "strict": want recommended or all`}},
		{"duplicate config", "config {}\nconfig {}", []string{`:2,1-7: Duplicate config block`}},
		{"unknown block", `plugin "aws" {}`, []string{`Unsupported block type; Blocks of type "plugin" are not expected here.`}},
		{"unknown config argument", "config {\n  disabled_by_defaults = true\n}", []string{`Did you mean "disabled_by_default"?`}},
		{"bad exclude pattern", "config {\n  exclude = [\"[a\"]\n}", []string{`Invalid exclude pattern; "[a" is not a valid glob pattern.`}},
		{"null", "config {\n  exclude = null\n}", []string{`The argument "exclude" must not be null.`}},
		{"syntax error", "rule \"x\" {", []string{"Unclosed configuration block"}},
		{"format naming no format", "rule \"naming_convention\" {\n  format = \"kebab_case\"\n}", []string{`:1,6-25: Invalid options; The options of the rule naming_convention do not fit together: the format "kebab_case" of the option format is none of mixed_snake_case, none, snake_case.`}},
		{"a kind's format naming no custom format", "rule \"naming_convention\" {\n  custom_formats = { upper = { regex = \"^[A-Z]+$\", description = \"UPPER\" } }\n  output { format = \"lower\" }\n}", []string{`the format "lower" of the option output is none of mixed_snake_case, none, snake_case, upper.`}},
		{"a kind's block without format or custom", "rule \"naming_convention\" {\n  variable {}\n}", []string{`:2,3-11: Invalid value; Invalid variable for the rule naming_convention: it sets neither format nor custom.`}},
		{"a bad custom regex", "rule \"naming_convention\" {\n  locals = { custom = \"^(a\" }\n}", []string{`:2,12-30: Invalid value; Invalid locals for the rule naming_convention: error parsing regexp: missing closing ): `}},
		{"a bad custom format regex", "rule \"naming_convention\" {\n  custom_formats = { x = { regex = \"[\", description = \"x\" } }\n}", []string{`Invalid custom_formats for the rule naming_convention: custom format "x": error parsing regexp`}},
		{"a custom format without description", "rule \"naming_convention\" {\n  custom_formats = { x = { regex = \"^x$\" } }\n}", []string{`The argument "custom_formats" must be map of object: element "x": attribute "description" is required.`}},
		{"a kind as argument and block", "rule \"naming_convention\" {\n  module = { format = \"none\" }\n  module { format = \"none\" }\n}", []string{`:3,3-9: Duplicate option; The option module of the rule naming_convention is given both as an argument and as a block.`}},
		{"an unknown argument in a kind's block", "rule \"naming_convention\" {\n  check { fromat = \"none\" }\n}", []string{`:2,11-17: Unsupported argument; The check block of the rule naming_convention has no argument "fromat". Did you mean "format"?`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := ParseConfig([]byte(tt.src), ".tofulint.hcl")
			if !diags.HasErrors() {
				t.Fatalf("no error for:\n%s", tt.src)
			}
			got := diags.Error()
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("diagnostics\n%s\ndo not contain\n%s", got, w)
				}
			}
		})
	}
}

func TestFindConfig(t *testing.T) {
	root := t.TempDir()
	deep := filepath.Join(root, "a", "b", "c")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	cfgFile := filepath.Join(root, "a", ConfigFileName)
	if err := os.WriteFile(cfgFile, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	// A directory of that name is not a configuration file.
	if err := os.Mkdir(filepath.Join(root, "a", "b", ConfigFileName), 0o755); err != nil {
		t.Fatal(err)
	}
	if got, err := FindConfig(deep); err != nil || got != cfgFile {
		t.Errorf("FindConfig(a/b/c) = %q, %v; want %q", got, err, cfgFile)
	}
	if got, err := FindConfig(root); err != nil || got != "" {
		t.Errorf("FindConfig(root) = %q, %v; want none", got, err)
	}
}

func TestExcluded(t *testing.T) {
	cfg := Config{Root: "/m", Exclude: []string{"generated/**", "*.gen.tf"}}
	for file, want := range map[string]bool{
		"/m/generated/x/main.tf": true,
		"/m/generated/main.tf":   true,
		"/m/a.gen.tf":            true,
		"/m/sub/a.gen.tf":        false, // * does not cross directories
		"/m/main.tf":             false,
		"/other/generated/a.tf":  false,
	} {
		if got := cfg.Excluded(file); got != want {
			t.Errorf("Excluded(%s) = %v, want %v", file, got, want)
		}
	}
}

func TestMergeOverridesFieldByField(t *testing.T) {
	on, off, sev := true, false, Error
	base := Config{Rules: map[string]RuleConfig{"symbol_reference": {Enabled: &off, Severity: &sev}}, Exclude: []string{"x"}, Root: "r"}
	got := base.Merge(Config{Rules: map[string]RuleConfig{"symbol_reference": {Enabled: &on}}, ReportUnusedIgnores: true})
	rc := got.Rules["symbol_reference"]
	if !*rc.Enabled || *rc.Severity != Error || !got.ReportUnusedIgnores || got.Root != "r" || len(got.Exclude) != 1 {
		t.Errorf("Merge = %+v, rule %+v", got, rc)
	}
	if *base.Rules["symbol_reference"].Enabled {
		t.Errorf("Merge changed its receiver: %+v", base.Rules["symbol_reference"])
	}
}
