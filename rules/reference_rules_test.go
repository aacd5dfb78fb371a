package rules

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"

	"github.com/tofucue/tofucue/config"
)

// lintSource writes src as main.tf of a new module, runs one rule over it
// and returns its findings and the file's source after the fixes.
func lintSource(t *testing.T, rule, src string) ([]Finding, string) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "main.tf")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	m, diags := config.Load(dir)
	if LoadErrors(diags).HasErrors() {
		t.Fatalf("load: %s", diags.Error())
	}
	sel, err := Config{Only: []string{rule}}.Select()
	if err != nil {
		t.Fatal(err)
	}
	findings := Run(m, diags, sel, Config{})
	changed, skipped := ApplyFixes(map[string][]byte{path: m.Files[path].Bytes}, findings)
	for _, err := range skipped {
		t.Errorf("fix skipped: %v", err)
	}
	fixed := src
	if c, ok := changed[path]; ok {
		fixed = string(c)
	}
	return findings, fixed
}

// evalLocals evaluates every local value of a file that refers only to
// var, with the given variables, and returns them by name.
func evalLocals(t *testing.T, src string, vars cty.Value) map[string]cty.Value {
	t.Helper()
	f, diags := hclsyntax.ParseConfig([]byte(src), "main.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("parse:\n%s\n%s", src, diags.Error())
	}
	ctx := &hcl.EvalContext{
		Variables: map[string]cty.Value{"var": vars},
		Functions: map[string]function.Function{"upper": stdlib.UpperFunc, "join": stdlib.JoinFunc, "length": stdlib.LengthFunc},
	}
	out := map[string]cty.Value{}
	for _, b := range f.Body.(*hclsyntax.Body).Blocks {
		if b.Type != "locals" {
			continue
		}
		for name, a := range b.Body.Attributes {
			v, diags := a.Expr.Value(ctx)
			if diags.HasErrors() {
				t.Fatalf("local.%s = %s: %s", name, string(a.Expr.Range().SliceBytes([]byte(src))), diags.Error())
			}
			out[name] = v
		}
	}
	return out
}

// testVars are the variables that the expressions of the fix tests read.
var testVars = cty.ObjectVal(map[string]cty.Value{
	"list": cty.TupleVal([]cty.Value{
		cty.ObjectVal(map[string]cty.Value{
			"id":   cty.StringVal("i-1"),
			"tags": cty.TupleVal([]cty.Value{cty.StringVal("a1"), cty.StringVal("a2")}),
			"b":    cty.TupleVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"c": cty.StringVal("c1")})}),
		}),
		cty.ObjectVal(map[string]cty.Value{
			"id":   cty.StringVal("i-2"),
			"tags": cty.TupleVal([]cty.Value{cty.StringVal("b1"), cty.StringVal("b2")}),
			"b":    cty.TupleVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"c": cty.StringVal("c2")})}),
		}),
	}),
	"names": cty.TupleVal([]cty.Value{cty.StringVal("x"), cty.StringVal("y")}),
	"on":    cty.True,
	"key":   cty.StringVal("k"),
	"n":     cty.NumberIntVal(3),
})

// TestFixesKeepMeaning applies the fixes of deprecated_index and
// deprecated_interpolation to expressions where a careless fix would
// change what they evaluate to (the splat followed by an index, operators
// next to a template, object keys), evaluates every expression before and
// after, and requires the same values. Every expression must be fixed.
func TestFixesKeepMeaning(t *testing.T) {
	for _, tc := range []struct {
		rule  string
		exprs []string
	}{
		{"deprecated_index", []string{
			`var.list.0.id`,
			`var.list.*.id`,
			`var.list.*`,
			`var.list.*.tags.0`,
			`var.list.*.id[0]`,
			`var.list.*.tags[1]`,
			`var.list.*.tags[*]`,
			`var.list.*.tags[var.n - 2]`,
			`var.list.*.b.0.c`,
			`var.list.*.tags[1][0]`,
			`"first: ${var.list.0.id}"`,
			`[for x in var.list.*.id : upper(x)]`,
			`var.list[*].tags.0`,
			`var.list[*].b.*.c`,
			`join(",", var.list.*.id)`,
		}},
		{"deprecated_interpolation", []string{
			`"${var.list}"`,
			`"${var.on ? 1 : 2}" == 1`,
			`{ "${var.key}" = 1 }`,
			`[for n in "${var.on ? var.names : []}" : upper("${n}")]`,
			`2 * "${var.n + 1}"`,
			`"${var.n + 1}" * 2`,
			`-"${var.n}"`,
			`!"${var.on}"`,
			`"${var.on}" ? "a" : "b"`,
			`"${var.names}"[0]`,
			`"${var.on ? var.names : []}"[0]`,
			`"${-1}" * 2`,
			`"${"${var.n - 1}"}" * 2`,
			`{ for k, v in var.names : "${v}" => "${k + 1}" }`,
			`var.on ? "${var.n}" : "${var.n - 1}"`,
		}},
	} {
		t.Run(tc.rule, func(t *testing.T) {
			var b strings.Builder
			b.WriteString("locals {\n")
			for i, e := range tc.exprs {
				fmt.Fprintf(&b, "  e%d = %s\n", i, e)
			}
			b.WriteString("}\n")
			src := b.String()
			_, fixed := lintSource(t, tc.rule, src)
			before, after := evalLocals(t, src, testVars), evalLocals(t, fixed, testVars)
			fixedLines := strings.Split(fixed, "\n")
			for i, e := range tc.exprs {
				name := fmt.Sprintf("e%d", i)
				line := strings.TrimSpace(fixedLines[i+1])
				if line == name+" = "+e {
					t.Errorf("%s was not fixed", e)
				}
				if !before[name].RawEquals(after[name]) {
					t.Errorf("%s -> %s: %#v became %#v", e, line, before[name], after[name])
				}
			}
			if again, _ := lintSource(t, tc.rule, fixed); len(again) > 0 {
				t.Errorf("the fixed source still has findings: %+v\n%s", again, fixed)
			}
		})
	}
}

func TestNearest(t *testing.T) {
	for _, tc := range []struct {
		name       string
		candidates []string
		want       string
	}{
		{"regoin", []string{"region", "zone"}, "region"},
		{"ab", []string{"ac", "ad", "ab"}, "ac"}, // the name itself is no suggestion; ties sort
		{"database", []string{"region"}, ""},
		{"", nil, ""},
	} {
		if got := nearest(tc.name, tc.candidates); got != tc.want {
			t.Errorf("nearest(%q, %q) = %q, want %q", tc.name, tc.candidates, got, tc.want)
		}
	}
}

// TestModuleOutputsCache checks that the outputs of a called module are
// read again when its files change, and not otherwise.
func TestModuleOutputsCache(t *testing.T) {
	dir := t.TempDir()
	child := filepath.Join(dir, "child")
	if err := os.MkdirAll(child, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name, src string) {
		t.Helper()
		if err := os.WriteFile(name, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(child, "outputs.tf"), `output "a" { value = 1 }`)
	if co := loadOutputs(child); !co.ok || strings.Join(co.names, ",") != "a" {
		t.Fatalf("first load: %+v", co)
	}
	abs, _ := filepath.Abs(child)
	cached, _ := outputsCache.Load(abs)
	if co := loadOutputs(child); co.stamp != cached.(childOutputs).stamp {
		t.Errorf("unchanged directory loaded again")
	}
	later := time.Now().Add(time.Minute)
	write(filepath.Join(child, "more.tf"), `output "b" { value = 2 }`)
	if err := os.Chtimes(filepath.Join(child, "more.tf"), later, later); err != nil {
		t.Fatal(err)
	}
	if co := loadOutputs(child); !co.ok || strings.Join(co.names, ",") != "a,b" {
		t.Errorf("after a new file: %+v", co)
	}
	write(filepath.Join(child, "broken.tf"), `output "c" {`)
	if co := loadOutputs(child); co.ok {
		t.Errorf("a module that does not load is checked: %+v", co)
	}
	if co := loadOutputs(filepath.Join(dir, "missing")); co.ok {
		t.Errorf("a missing directory is checked: %+v", co)
	}
}
