package cue

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/cuecontext"
	"cuelang.org/go/cue/format"
	"cuelang.org/go/cue/load"
	"cuelang.org/go/cue/parser"
	"github.com/zclconf/go-cty/cty"
)

// TestNullProgram checks the program built again with an @input field's
// value null: the field and what reads it in another file are null, the
// other fields and every position are as they were, and the program it
// was built from, and its syntax, are unchanged.
func TestNullProgram(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"cue.mod/module.cue": "module: \"example.com/m\"\nlanguage: version: \"v0.9.0\"\n",
		"variables.cue": `package m

_var: {
	tags: *close({}) | {
		[string]: string
	} @input(tags)
	name: *"web" | string @input(name)
}
`,
		"outputs.cue": `package m

output: {
	tags: _var.tags @output(tags)
	name: _var.name @output(name)
}
`,
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	insts := load.Instances([]string{"."}, &load.Config{Dir: dir})
	v := cuecontext.New().BuildInstance(insts[0])
	if err := v.Err(); err != nil {
		t.Fatal(err)
	}
	before := formatFiles(t, v)
	_, varSel := lookupHidden(v, "_var")
	path := func(s string) cue.Path {
		if rest, ok := strings.CutPrefix(s, "_var."); ok {
			return cue.MakePath(varSel, cue.Str(rest))
		}
		return cue.ParsePath(s)
	}
	namePos := v.LookupPath(path("_var.name")).Pos()

	nv, err := rebuiltProgram(cuecontext.New(), v, []rebuild{{path("_var.tags"), fillNull}})
	if err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]string{"output.tags": "null", "output.name": `"web"`, "_var.tags": "null"} {
		got := nv.LookupPath(path(p))
		if dv, ok := got.Default(); ok {
			got = dv
		}
		if s := syntaxOf(t, got); s != want {
			t.Errorf("%s = %s in the program built again, want %s", p, s, want)
		}
	}
	if got := nv.LookupPath(path("_var.name")).Pos(); got != namePos {
		t.Errorf("_var.name is at %v in the program built again, was at %v", got, namePos)
	}
	if got := syntaxOf(t, v.LookupPath(cue.ParsePath("output.tags"))); got == "null" {
		t.Errorf("output.tags of the original program is null")
	}
	if after := formatFiles(t, v); after != before {
		t.Errorf("the original program's syntax changed:\n%s\nwas:\n%s", after, before)
	}
}

// TestInputFill checks what is filled at an @input field for an input:
// null where the field admits null and has another default (*"y" | _),
// *null | _ where its only default is null, and a replacement of the
// field where it does not admit null.
func TestInputFill(t *testing.T) {
	ctx := cuecontext.New()
	for _, tc := range []struct {
		field string
		val   cty.Value
		want  string
		how   fill
	}{
		{`*"y" | _`, cty.NullVal(cty.DynamicPseudoType), "null", fillValue},
		{`*null | string`, cty.NullVal(cty.String), "*null | _", fillValue},
		{`string`, cty.NullVal(cty.String), "", fillNull},
		{`*close({}) | {[string]: string}`, cty.NullVal(cty.Map(cty.String)), "", fillNull},
		{`*"x" | string`, cty.StringVal("a"), `"a"`, fillValue},
		// A default that sets an attribute the value given leaves null:
		// unified, the default would keep it.
		{`*close({a: *null | _, b: c: *null | _}) | close({a: *null | close({c: *null | number}), b: *null | close({c: *null | number})})`, cty.ObjectVal(map[string]cty.Value{"a": cty.ObjectVal(map[string]cty.Value{"c": cty.NumberIntVal(1)}), "b": cty.NullVal(cty.Object(map[string]cty.Type{"c": cty.Number}))}), `{
	"a": {
		"c": 1
	}
	"b": *null | _
}`, fillWithoutDefault},
		// The default itself, given: the default's arm takes it as it is.
		{`*close({a: *null | _, b: c: *null | _}) | close({a: *null | close({c: *null | number}), b: *null | close({c: *null | number})})`, cty.ObjectVal(map[string]cty.Value{"a": cty.NullVal(cty.Object(map[string]cty.Type{"c": cty.Number})), "b": cty.ObjectVal(map[string]cty.Value{"c": cty.NullVal(cty.Number)})}), `{
	"a": *null | _
	"b": {
		"c": *null | _
	}
}`, fillValue},
	} {
		x, how := inputFill(ctx, ctx.CompileString(tc.field), tc.val)
		got := ""
		if x != nil {
			b, err := format.Node(x)
			if err != nil {
				t.Fatal(err)
			}
			got = string(b)
		}
		if got != tc.want || how != tc.how {
			t.Errorf("inputFill(%s, %#v) = %q, %v; want %q, %v", tc.field, tc.val, got, how, tc.want, tc.how)
		}
	}
}

func formatFiles(t *testing.T, v cue.Value) string {
	t.Helper()
	var all string
	for _, f := range v.BuildInstance().Files {
		b, err := format.Node(f)
		if err != nil {
			t.Fatal(err)
		}
		all += string(b)
	}
	return all
}

func syntaxOf(t *testing.T, v cue.Value) string {
	t.Helper()
	b, err := format.Node(v.Syntax(cue.Final()))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestWithoutDefault(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{`*close({a: 1}) | {[string]: int}`, `{[string]: int}`},
		{`(*"x" | string) & =~"^x"`, `string & =~"^x"`},
		{`((*1 | int))`, `int`},
		{`string`, ``},
		{`"a" | *"b"`, ``},
	} {
		x, err := parser.ParseExpr("field", tc.src)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if y := withoutDefault(x); y != nil {
			b, err := format.Node(y)
			if err != nil {
				t.Fatal(err)
			}
			got = string(b)
		}
		if got != tc.want {
			t.Errorf("withoutDefault(%s) = %q, want %q", tc.src, got, tc.want)
		}
	}
}
