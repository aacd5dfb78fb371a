package rules

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tofucue/tofucue/config"
)

func TestRegistry(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range All() {
		if seen[r.Name] {
			t.Errorf("rule %s registered twice", r.Name)
		}
		seen[r.Name] = true
		if !hclsyntax.ValidIdentifier(r.Name) || strings.ToLower(r.Name) != r.Name || strings.Contains(r.Name, "-") {
			t.Errorf("rule name %q: want lower case with underscores", r.Name)
		}
		if r.Severity < Error || r.Severity > Notice || r.Check == nil {
			t.Errorf("rule %s: severity %v, check set %v", r.Name, r.Severity, r.Check != nil)
		}
		if !strings.Contains(r.Doc, "Bad:") || !strings.Contains(r.Doc, "Good:") {
			t.Errorf("rule %s: the doc needs a Bad: and a Good: example", r.Name)
		}
		if _, err := os.Stat(filepath.Join(".", r.Name+".go")); err != nil {
			t.Errorf("rule %s: want it in %s.go", r.Name, r.Name)
		}
	}
}

func ptr[T any](v T) *T { return &v }

func names(sel []Selected) string {
	var out []string
	for _, s := range sel {
		n := s.Rule.Name
		if s.Severity != 0 {
			n += "=" + s.Severity.String()
		}
		out = append(out, n)
	}
	return strings.Join(out, ",")
}

// defaults names the rules enabled by default, in registry order, with
// edit applied to each name (returning "" drops it).
func defaults(edit func(string) string) string {
	var out []string
	for _, r := range All() {
		if !r.Enabled {
			continue
		}
		if n := edit(r.Name); n != "" {
			out = append(out, n)
		}
	}
	return strings.Join(out, ",")
}

func TestConfigSelect(t *testing.T) {
	same := func(n string) string { return n }
	tests := []struct {
		name string
		cfg  Config
		want string
		err  string
	}{
		{"defaults", Config{}, defaults(same), ""},
		{"disable one", Config{Rules: map[string]RuleConfig{"future_symbol_conflict": {Enabled: ptr(false)}}}, defaults(func(n string) string {
			if n == "future_symbol_conflict" {
				return ""
			}
			return n
		}), ""},
		{"enable one that is off by default", Config{Rules: map[string]RuleConfig{"variable_type_missing": {Enabled: ptr(true)}}}, func() string {
			var out []string
			for _, r := range All() {
				if r.Enabled || r.Name == "variable_type_missing" {
					out = append(out, r.Name)
				}
			}
			return strings.Join(out, ",")
		}(), ""},
		{"severity override", Config{Rules: map[string]RuleConfig{"feature_opt_in": {Severity: ptr(Warning)}}}, defaults(func(n string) string {
			if n == "feature_opt_in" {
				return n + "=warning"
			}
			return n
		}), ""},
		{"disabled by default", Config{DisabledByDefault: true, Rules: map[string]RuleConfig{"feature_opt_in": {Enabled: ptr(true)}}}, "feature_opt_in", ""},
		{"only", Config{Only: []string{"future_symbol_conflict"}}, "future_symbol_conflict", ""},
		{"unknown rule", Config{Rules: map[string]RuleConfig{"symbol_refrence": {}}}, "", `unknown rule "symbol_refrence" (did you mean "symbol_reference"?)`},
		{"unknown only", Config{Only: []string{"nothing_like_this_at_all"}}, "", `unknown rule "nothing_like_this_at_all"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sel, err := tt.cfg.Select()
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := names(sel); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

func TestFindIgnores(t *testing.T) {
	src := `# tofulint-ignore-file: rule_a, rule_b # reason
// tofulint-ignore-file: rule_c
locals {
  # tofulint-ignore: rule_d
  a = 1
  b = 2 # tofulint-ignore: rule_e,rule_f
  /* tofulint-ignore: rule_g */
  c = 3
  // tofulint-ignore: all
  d = 4
  # tofulint-ignore rule_h (no colon: not an ignore)
}
# tofulint-ignore-file: rule_i
`
	f, diags := hclsyntax.ParseConfig([]byte(src), "m.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	igs := findIgnores(map[string]*hcl.File{"m.tf": f})
	var got []string
	for _, ig := range igs["m.tf"] {
		where := "file"
		if ig.first != 0 {
			where = "line " + strconv.Itoa(ig.first)
			if ig.last != ig.first {
				where += "-" + strconv.Itoa(ig.last)
			}
		}
		if !ig.valid {
			where = "misplaced"
		}
		got = append(got, strings.Join(ig.rules, "+")+"@"+where)
	}
	want := "rule_a+rule_b@file rule_c@file rule_d@line 5 rule_e+rule_f@line 6 rule_g@line 8 all@line 10 rule_i@misplaced"
	if strings.Join(got, " ") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, " "), want)
	}

	finding := func(rule string, line int) Finding {
		return Finding{Rule: rule, Range: hcl.Range{Filename: "m.tf", Start: hcl.Pos{Line: line}}}
	}
	for _, tt := range []struct {
		f    Finding
		want bool
	}{
		{finding("rule_a", 9), true},
		{finding("rule_d", 5), true},
		{finding("rule_d", 6), false},
		{finding("rule_f", 6), true},
		{finding("rule_g", 8), true},
		{finding("anything", 10), true},
		{finding("rule_i", 5), false},
		{finding("rule_h", 12), false},
	} {
		if got := igs.silences(&tt.f); got != tt.want {
			t.Errorf("silences(%s at line %d) = %v, want %v", tt.f.Rule, tt.f.Range.Start.Line, got, tt.want)
		}
	}
	var unused []string
	for _, f := range igs.unused(nil) {
		unused = append(unused, f.Message)
	}
	if want := "Unused ignore for rule_b|Unused ignore for rule_c|Unused ignore for rule_e|Misplaced tofulint-ignore-file"; strings.Join(unused, "|") != want {
		t.Errorf("unused:\n got %s\nwant %s", strings.Join(unused, "|"), want)
	}
}

func rangeAt(file string, start, end int) hcl.Range {
	return hcl.Range{Filename: file, Start: hcl.Pos{Byte: start}, End: hcl.Pos{Byte: end}}
}

func TestApplyFixes(t *testing.T) {
	src := []byte("locals {\n  a = symbols.x.id # keep this comment\n  b = symbols.y.id\n}\n")
	at := bytes.Index(src, []byte("symbols.x"))
	bt := bytes.Index(src, []byte("symbols.y"))
	insert := func(pos int) *Fix {
		return &Fix{Description: "insert", Edits: []Edit{{Range: rangeAt("m.tf", pos, pos), NewText: "resource."}}}
	}
	findings := []Finding{
		{Fix: insert(at)},
		{Fix: insert(bt)},
		{Fix: insert(bt)}, // the same place again: overlaps
		{Fix: &Fix{Description: "break it", Edits: []Edit{{Range: rangeAt("m.tf", 0, 1), NewText: "{"}}}},
		{Fix: &Fix{Description: "out of range", Edits: []Edit{{Range: rangeAt("m.tf", 5, 500)}}}},
		{},
	}
	changed, skipped := ApplyFixes(map[string][]byte{"m.tf": src}, findings)
	want := "locals {\n  a = resource.symbols.x.id # keep this comment\n  b = resource.symbols.y.id\n}\n"
	if got := string(changed["m.tf"]); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	var reasons []string
	for _, err := range skipped {
		reasons = append(reasons, err.Error())
	}
	joined := strings.Join(reasons, "\n")
	for _, want := range []string{"insert: it overlaps another fix", "break it: the result would not parse", "out of range: edit range 5-500 is outside the file"} {
		if !strings.Contains(joined, want) {
			t.Errorf("skipped reasons %q do not mention %q", joined, want)
		}
	}
	if len(skipped) != 3 {
		t.Errorf("%d fixes skipped, want 3", len(skipped))
	}
}

// Run reports nothing for a module with no problems.
func TestRunCleanModule(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte("middleware \"m\" {\n  command      = \"x\"\n  metadata_key = \"m\"\n}\nterraform {\n  middleware = [middleware.m]\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m, diags := config.Load(dir)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	sel, _ := Config{}.Select()
	if fs := Run(m, diags, sel, Config{ReportUnusedIgnores: true}); len(fs) != 0 {
		t.Errorf("findings on a clean module: %+v", fs)
	}
}
