package rules

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/json"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/tofucue/tofucue/config"
)

func parseTestExpr(t *testing.T, src string) hcl.Expression {
	t.Helper()
	expr, diags := hclsyntax.ParseExpression([]byte(src), "test.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("%s: %s", src, diags.Error())
	}
	return expr
}

func testValue(t *testing.T, src string) cty.Value {
	t.Helper()
	v, diags := parseTestExpr(t, src).Value(nil)
	if diags.HasErrors() {
		t.Fatalf("%s: %s", src, diags.Error())
	}
	return v
}

func testType(t *testing.T, src string) cty.Type {
	t.Helper()
	ty, _, diags := typeexpr.TypeConstraintWithDefaults(parseTestExpr(t, src))
	if diags.HasErrors() {
		t.Fatalf("%s: %s", src, diags.Error())
	}
	return ty
}

// accessesOf builds an access tree from paths such as "name", "tags.*"
// and "*.port", where * reads an element.
func accessesOf(paths ...string) *accessTree {
	if len(paths) == 0 {
		return nil
	}
	root := &accessTree{}
	for _, p := range paths {
		node := root
		for _, step := range strings.Split(p, ".") {
			if step == "*" {
				node = node.element()
			} else {
				node = node.attr(step)
			}
		}
	}
	return root
}

func TestInferType(t *testing.T) {
	tests := []struct {
		value    string
		convert  string // a type constraint to convert the value to first, as the loader does
		accesses []string
		want     string // "" when nothing can be inferred
	}{
		{value: `"x"`, want: "string"},
		{value: `3`, want: "number"},
		{value: `["a", "b"]`, want: "list(string)"},
		{value: `["a", 1]`, want: "tuple([string, number])"},
		{value: `["a", 1]`, convert: "list(any)", want: "list(string)"},
		{value: `{ name = "app", tags = { team = "web" } }`, accesses: []string{"name"}, want: "object({ name = string, tags = map(string) })"},
		{value: `{ name = "app", size = 2 }`, want: "object({ name = string, size = number })"},
		{value: `{ a = "x", b = "y" }`, want: "map(string)"},
		{value: `{ a = "x", b = "y" }`, accesses: []string{"a"}, want: "object({ a = string, b = string })"},
		{value: `{ a = "x", b = "y" }`, accesses: []string{"*"}, want: "map(string)"},
		{value: `{ web = { port = 80 }, dns = { port = 53 } }`, accesses: []string{"*.port"}, want: "map(object({ port = number }))"},
		{value: `{ web = { port = 80 }, dns = { port = 53 } }`, want: "map(map(number))"},
		{value: `[{ a = 1 }, { a = 2 }]`, accesses: []string{"*.a"}, want: "list(object({ a = number }))"},
		{value: `{ web = { port = 80 }, dns = { port = 53, proto = "udp" } }`, accesses: []string{"*.port"}, want: ""},
		{value: `{ web = { port = 80 }, dns = { port = 53, proto = "udp" } }`, convert: "map(any)", accesses: []string{"*.port"}, want: "map(map(string))"},
		{value: `[]`, convert: "list(string)", want: "list(string)"},
		{value: `{}`},
		{value: `[]`},
		{value: `null`},
		{value: `{ name = "x", key = null }`},
		{value: `{ name = "x" }`, accesses: []string{"missing"}},
		{value: `"x"`, accesses: []string{"a"}},
		{value: `{ "my key" = 1, b = "x" }`},
		{value: `{ "my-key" = 1, b = "x" }`, want: "object({ b = string, my-key = number })"},
		{value: `{ "my key" = 1, b = 2 }`, want: "map(number)"},
		{value: `["a"]`, accesses: []string{"name"}},
	}
	for _, tt := range tests {
		name := tt.value
		if tt.convert != "" {
			name += " as " + tt.convert
		}
		if len(tt.accesses) > 0 {
			name += " reading " + strings.Join(tt.accesses, ",")
		}
		t.Run(name, func(t *testing.T) {
			v := testValue(t, tt.value)
			if tt.convert != "" {
				var err error
				if v, err = convert.Convert(v, testType(t, tt.convert)); err != nil {
					t.Fatal(err)
				}
			}
			ty, ok := inferType([]cty.Value{v}, accessesOf(tt.accesses...))
			got := ""
			if ok {
				got = typeString(ty)
			}
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			if ok {
				if _, err := convert.Convert(v, ty); err != nil {
					t.Errorf("the value does not convert to the inferred type: %v", err)
				}
			}
		})
	}
}

func TestConversionFailureAndPathRange(t *testing.T) {
	tests := []struct {
		typ, value string
		wantPath   string
		wantMsg    string
		wantText   string // the source of the expression the path leads to
	}{
		{"number", `"http"`, `default`, "a number is required", `"http"`},
		{"map(object({ field = bool }))", `{ mykey = { field = "x" } }`, `default["mykey"].field`, "a bool is required", `"x"`},
		{"map(string)", `{ name = ["Kristy", "Mary Anne"], age = 12 }`, `default["name"]`, "string required, but have tuple", `["Kristy", "Mary Anne"]`},
		{"list(any)", `["a", [], "b"]`, `default[1]`, "all list elements must have the same type, and this tuple has no type in common with the elements before it (string)", `[]`},
		{"set(any)", `[1, "a", { b = 1 }]`, `default[2]`, "all set elements must have the same type, and this object has no type in common with the elements before it (number, string)", `{ b = 1 }`},
		{"map(any)", `{ a = "x", b = [] }`, `default["b"]`, "all map elements must have the same type, and this tuple has no type in common with the elements before it (string)", `[]`},
		{"object({ a = list(string) })", `{ a = [[]] }`, `default.a[0]`, "string required, but have tuple", `[]`},
		{"tuple([string])", `["a", "b"]`, `default`, "a tuple of 1 element is required, but this has 2", `["a", "b"]`},
		{"tuple([string, number, bool])", `["a", 15]`, `default`, "a tuple of 3 elements is required, but this has 2", `["a", 15]`},
		{"set(object({ a = number }))", `[{ a = 1 }, { a = "x" }]`, `default[1].a`, "a number is required", `"x"`},
		{"object({ a = string, b = string })", `{ a = "x" }`, `default`, `attribute "b" is required`, `{ a = "x" }`},
		{"object({ a = number })", `({ a = "x" })`, `default.a`, "a number is required", `"x"`},
		{"list(list(string))", `[["a"], "b"]`, `default[1]`, "list of string required, but have string", `"b"`},
	}
	for _, tt := range tests {
		t.Run(tt.typ+" "+tt.value, func(t *testing.T) {
			expr := parseTestExpr(t, tt.value)
			val, _ := expr.Value(nil)
			path, msg, failed := conversionFailure(val, testType(t, tt.typ))
			if !failed {
				t.Fatal("the value converts")
			}
			if got := valuePath("default", path); got != tt.wantPath {
				t.Errorf("path %s, want %s", got, tt.wantPath)
			}
			if msg != tt.wantMsg {
				t.Errorf("message %q, want %q", msg, tt.wantMsg)
			}
			at, _ := config.ExprAtPath(expr, path)
			r := at.Range()
			if got := tt.value[r.Start.Byte:r.End.Byte]; got != tt.wantText {
				t.Errorf("points at %s, want %s", got, tt.wantText)
			}
		})
	}
	if _, _, failed := conversionFailure(testValue(t, `["a", 15, true]`), testType(t, "list(string)")); failed {
		t.Error("list(string) takes [\"a\", 15, true]")
	}
}

// The path walk follows what the syntax writes and stops where it ends.
func TestExprAtPath(t *testing.T) {
	src := `{ a = { x = [1, { y = 2 }] }, "quoted key" = 3 }`
	expr := parseTestExpr(t, src)
	attr := func(n string) cty.PathStep { return cty.GetAttrStep{Name: n} }
	idx := func(k cty.Value) cty.PathStep { return cty.IndexStep{Key: k} }
	tests := []struct {
		path  cty.Path
		want  string
		steps int
	}{
		{cty.Path{attr("a"), attr("x"), idx(cty.NumberIntVal(1)), attr("y")}, "2", 4},
		{cty.Path{idx(cty.StringVal("a")), attr("x"), idx(cty.NumberIntVal(0))}, "1", 3},
		{cty.Path{idx(cty.StringVal("quoted key"))}, "3", 1},
		{cty.Path{attr("a"), attr("missing")}, "{ x = [1, { y = 2 }] }", 1},
		{cty.Path{attr("a"), attr("x"), idx(cty.NumberIntVal(5))}, "[1, { y = 2 }]", 2},
		{cty.Path{attr("a"), attr("x"), idx(cty.UnknownVal(cty.Number))}, "[1, { y = 2 }]", 2},
		{nil, src, 0},
	}
	for _, tt := range tests {
		got, steps := config.ExprAtPath(expr, tt.path)
		r := got.Range()
		if text := src[r.Start.Byte:r.End.Byte]; text != tt.want || steps != tt.steps {
			t.Errorf("%s: got %s after %d steps, want %s after %d", valuePath("", tt.path), text, steps, tt.want, tt.steps)
		}
	}

	jsrc := `{"mykey": {"field": true, "sizes": [1, "big"]}}`
	f, diags := json.Parse([]byte(jsrc), "test.tf.json")
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	attrs, _ := f.Body.JustAttributes()
	jexpr := attrs["mykey"].Expr
	got, steps := config.ExprAtPath(jexpr, cty.Path{attr("sizes"), idx(cty.NumberIntVal(1))})
	if r := got.Range(); jsrc[r.Start.Byte:r.End.Byte] != `"big"` || steps != 2 {
		t.Errorf("JSON: got %s after %d steps", jsrc[r.Start.Byte:r.End.Byte], steps)
	}
}

func TestTypeString(t *testing.T) {
	for _, src := range []string{
		"string", "any", "list(map(number))", "set(bool)", "object({})",
		"object({ a = string, b = optional(list(any)) })", "tuple([string, number])",
	} {
		if got := typeString(testType(t, src)); got != src {
			t.Errorf("typeString(%s) = %s", src, got)
		}
	}
}

// The loader marks its diagnostics about type constraints and defaults with
// the kinds that the type constraint rules claim, so that they are not
// loading errors; other problems of a type stay loading errors.
func TestTypeConstraintClaims(t *testing.T) {
	src := `variable "a" {
  type    = number
  default = "x"
}
variable "b" {
  type     = string
  nullable = false
  default  = null
}
variable "c" {
  type = set
}
variable "d" {
  type = object({ ids = list, o = optional(string, []), p = optional(), q = optional(string, "a", "b") })
}
variable "e" {
  type = optional(string)
}
variable "f" {
  type = object({ a = string })
  default = { a = "x", b = "y" }
}
variable "g" {
  type    = list(object({ a = string }))
  default = [{ a = "x", extra = 1 }]
}
variable "h" {
  type = object({ a = optional(string, var.a) })
}
variable "i" {
  type = strin
}
`
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	_, diags := config.Load(dir)
	var got []string
	for _, d := range diags {
		kind, _ := config.KindOf(d)
		got = append(got, fmt.Sprintf("%02d:%s:%s", d.Subject.Start.Line, kind, d.Summary))
	}
	want := []string{
		"03:default_type:Invalid default value for variable",
		"08:default_type:Invalid default value for variable",
		"11:legacy_type:Invalid type specification",
		"14:legacy_type:Invalid type specification",
		"14:type_constraint:Invalid default value for optional attribute",
		"14:type_constraint:Invalid type specification",
		"14:type_constraint:Invalid type specification",
		"17:type_constraint:Invalid type specification",
		"21:lossy_default:Object attribute is ignored",
		"25:lossy_default:Object attribute is ignored",
		"28:type_constraint:Variables not allowed",
		"31::Invalid type specification",
	}
	slices.Sort(got)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	errs := LoadErrors(diags)
	if len(errs) != 1 || errs[0].Subject.Start.Line != 31 {
		t.Errorf("load errors: %s", errs.Error())
	}
}

// The type constraint rules run over any module the loader returns, even
// one with loading errors, without panicking.
func FuzzTypeConstraintRules(f *testing.F) {
	for _, seed := range []string{
		"variable \"a\" {\n  type = any\n  default = { a = [1, \"x\"] }\n}\nlocals { b = [for k, v in var.a : v.x[*].y if v] }\n",
		"variable \"a\" {\n  type = map(object({ b = optional(set(string), [\"x\", \"x\"]) }))\n  default = { k = { b = [1, \"1\"], c = 2 } }\n}\n",
		"variable \"a\" {\n  type = object({ b = list, c = optional(number, \"x\", 1) })\n  default = null\n  nullable = false\n}\n",
		"variable \"a\" {\n  type = tuple([list(any), map])\n  default = [[\"a\", []], 1.10]\n}\nresource \"r\" \"s\" {\n  for_each = var.a[0]\n  dynamic \"d\" {\n    for_each = each.value\n    content { x = d.value.y }\n  }\n}\n",
		"variable \"a\" {\n  type = list(any)\n  default = [{ a = 1 }, { b = \"x\" }]\n}\noutput \"o\" { value = lookup(var.a[0], \"a\", var.a).b }\n",
	} {
		f.Add(seed)
	}
	sel, err := Config{Only: []string{"any_type_inspected", "legacy_collection_type", "variable_default_type", "optional_default_type", "lossy_default_conversion", "variable_type_missing"}}.Select()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src string) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		m, diags := config.Load(dir)
		if m == nil {
			return
		}
		runRules(m, diags, sel, nil)
	})
}
