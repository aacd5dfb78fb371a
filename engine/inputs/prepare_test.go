package inputs

import (
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

func str(s string) cty.Value { return cty.StringVal(s) }
func num(n int64) cty.Value  { return cty.NumberIntVal(n) }
func strs(s ...string) []cty.Value {
	out := make([]cty.Value, len(s))
	for i, x := range s {
		out[i] = cty.StringVal(x)
	}
	return out
}

type obj = map[string]cty.Value

// TestTypeConstraintsDocument checks every example of the type-constraints
// document, the value written in a terraform.tfvars file and read by
// Collect, as tofu plan reads it.
func TestTypeConstraintsDocument(t *testing.T) {
	withOptional := `object({
    a = string                # a required attribute
    b = optional(string)      # an optional attribute
    c = optional(number, 127) # an optional attribute with default value
  })`
	tests := []struct {
		name    string
		typ     string // the type expression; "" for none
		value   string // the tfvars expression
		want    cty.Value
		wantErr string // a part of the error's detail
	}{
		// Conversion of primitive types.
		{name: "true to string", typ: "string", value: `true`, want: str("true")},
		{name: "false to string", typ: "string", value: `false`, want: str("false")},
		{name: "15 to string", typ: "string", value: `15`, want: str("15")},
		{name: "fraction to string", typ: "string", value: `6.283185`, want: str("6.283185")},
		{name: "string to true", typ: "bool", value: `"true"`, want: cty.True},
		{name: "string to false", typ: "bool", value: `"false"`, want: cty.False},
		{name: "string to 15", typ: "number", value: `"15"`, want: num(15)},
		{name: "not a number", typ: "number", value: `"fifteen"`, wantErr: "a number is required"},
		{name: "not a bool", typ: "bool", value: `"yes"`, wantErr: "a bool is required"},
		{name: "list is not a string", typ: "string", value: `["a"]`, wantErr: "string required"},
		{name: "number is not a bool", typ: "bool", value: `1`, wantErr: "bool required"},

		// Collection types.
		{name: "list(string) from strings", typ: "list(string)", value: `["a", "b"]`, want: cty.ListVal(strs("a", "b"))},
		{name: "list(string) from mixed tuple", typ: "list(string)", value: `["a", 15, true]`, want: cty.ListVal(strs("a", "15", "true"))},
		{name: "list(number) empty", typ: "list(number)", value: `[]`, want: cty.ListValEmpty(cty.Number)},
		{name: "map(string)", typ: "map(string)", value: `{ "foo": "bar", "bar": "baz" }`, want: cty.MapVal(obj{"foo": str("bar"), "bar": str("baz")})},
		{name: "map(string) with equals", typ: "map(string)", value: "{\n  foo = \"bar\"\n  bar = \"baz\"\n}", want: cty.MapVal(obj{"foo": str("bar"), "bar": str("baz")})},
		{name: "map(string) mismatch", typ: "map(string)", value: `{name = ["Kristy", "Claudia", "Mary Anne", "Stacey"], age = 12}`, wantErr: `element "name": string required`},
		{name: "set(string) drops duplicates", typ: "set(string)", value: `["b", "a", "b"]`, want: cty.SetVal(strs("a", "b"))},
		{name: "set(number)", typ: "set(number)", value: `[3, "1", 3]`, want: cty.SetVal([]cty.Value{num(1), num(3)})},

		// Structural types.
		{name: "object", typ: "object({ name=string, age=number })", value: "{\n  name = \"John\"\n  age  = 52\n}",
			want: cty.ObjectVal(obj{"name": str("John"), "age": num(52)})},
		{name: "object drops extra attributes", typ: "object({ id=string, cidr_block=string })", value: `{ id = "vpc-1", cidr_block = "10.0.0.0/16", arn = "arn:x", tags = {} }`,
			want: cty.ObjectVal(obj{"id": str("vpc-1"), "cidr_block": str("10.0.0.0/16")})},
		{name: "object missing attribute", typ: "object({ name=string, age=number })", value: `{ name = "John" }`, wantErr: `attribute "age" is required`},
		{name: "object attribute conversion", typ: "object({ name=string, age=number })", value: `{ name = 7, age = "52" }`,
			want: cty.ObjectVal(obj{"name": str("7"), "age": num(52)})},
		{name: "tuple", typ: "tuple([string, number, bool])", value: `["a", 15, true]`, want: cty.TupleVal([]cty.Value{str("a"), num(15), cty.True})},
		{name: "tuple converts elements", typ: "tuple([string, number, bool])", value: `[1, "15", "true"]`, want: cty.TupleVal([]cty.Value{str("1"), num(15), cty.True})},
		{name: "tuple too short", typ: "tuple([string, number, bool])", value: `["a", 15]`, wantErr: "tuple required"},
		{name: "tuple too long", typ: "tuple([string, number, bool])", value: `["a", 15, true, 1]`, wantErr: "tuple required"},

		// any.
		{name: "any keeps the value", typ: "any", value: `{ a = [1, "x"] }`, want: cty.ObjectVal(obj{"a": cty.TupleVal([]cty.Value{num(1), str("x")})})},
		{name: "list(any) of strings", typ: "list(any)", value: `["a", "b", "c"]`, want: cty.ListVal(strs("a", "b", "c"))},
		{name: "list(any) unifies to string", typ: "list(any)", value: `["a", 1, "b"]`, want: cty.ListVal(strs("a", "1", "b"))},
		{name: "list(any) no common type", typ: "list(any)", value: `["a", [], "b"]`, wantErr: "all list elements must have the same type"},
		{name: "list(string) of a, 1, b", typ: "list(string)", value: `["a", 1, "b"]`, want: cty.ListVal(strs("a", "1", "b"))},
		{name: "list(string) rejects a tuple element", typ: "list(string)", value: `["a", [], "b"]`, wantErr: "element 1: string required"},
		{name: "list(any) of numbers", typ: "list(any)", value: `[1, 2]`, want: cty.ListVal([]cty.Value{num(1), num(2)})},
		{name: "list(any) of objects unify to maps", typ: "list(any)", value: `[{ a = "x" }, { a = 1, b = true }]`,
			want: cty.ListVal([]cty.Value{cty.MapVal(obj{"a": str("x")}), cty.MapVal(obj{"a": str("1"), "b": str("true")})})},
		{name: "map(any) unifies to string", typ: "map(any)", value: `{ a = "x", b = 1 }`, want: cty.MapVal(obj{"a": str("x"), "b": str("1")})},
		{name: "map(any) of numbers", typ: "map(any)", value: `{ a = 1, b = 2 }`, want: cty.MapVal(obj{"a": num(1), "b": num(2)})},
		{name: "map(any) no common type", typ: "map(any)", value: `{ a = "x", b = [] }`, wantErr: "all map elements must have the same type"},
		{name: "set(any) unifies", typ: "set(any)", value: `["a", 1, "a"]`, want: cty.SetVal(strs("1", "a"))},
		{name: "bare list keyword", typ: "list", value: `["a", "b"]`, want: cty.ListVal(strs("a", "b"))},
		{name: "bare map keyword", typ: "map", value: `{ a = 1 }`, want: cty.MapVal(obj{"a": num(1)})},
		{name: "no type keeps the value", typ: "", value: `[1, "x"]`, want: cty.TupleVal([]cty.Value{num(1), str("x")})},

		// Optional object type attributes.
		{name: "optional attributes omitted", typ: withOptional, value: `{ a = "x" }`,
			want: cty.ObjectVal(obj{"a": str("x"), "b": cty.NullVal(cty.String), "c": num(127)})},
		{name: "optional attribute set to null takes its default", typ: withOptional, value: `{ a = "x", b = null, c = null }`,
			want: cty.ObjectVal(obj{"a": str("x"), "b": cty.NullVal(cty.String), "c": num(127)})},
		{name: "optional attributes given", typ: withOptional, value: `{ a = "x", b = "y", c = "1" }`,
			want: cty.ObjectVal(obj{"a": str("x"), "b": str("y"), "c": num(1)})},
		{name: "required attribute still required", typ: withOptional, value: `{ b = "y" }`, wantErr: `attribute "a" is required`},
		{name: "nested optional objects", typ: `object({
    inner = optional(object({
      x = optional(string, "dx")
      y = optional(object({ z = optional(number, 3) }), { })
    }), { x = "top" })
  })`, value: `{}`,
			want: cty.ObjectVal(obj{"inner": cty.ObjectVal(obj{"x": str("top"), "y": cty.ObjectVal(obj{"z": num(3)})})})},
		{name: "nested optional objects partly given", typ: `object({
    inner = optional(object({
      x = optional(string, "dx")
      y = optional(object({ z = optional(number, 3) }), { })
    }), { x = "top" })
  })`, value: `{ inner = { y = {} } }`,
			want: cty.ObjectVal(obj{"inner": cty.ObjectVal(obj{"x": str("dx"), "y": cty.ObjectVal(obj{"z": num(3)})})})},
		{name: "map of optional objects", typ: `map(object({ size = optional(number, 10), name = string }))`, value: `{ a = { name = "x" }, b = { name = "y", size = 2 } }`,
			want: cty.MapVal(obj{
				"a": cty.ObjectVal(obj{"name": str("x"), "size": num(10)}),
				"b": cty.ObjectVal(obj{"name": str("y"), "size": num(2)}),
			})},
		{name: "set of optional objects", typ: `set(object({ size = optional(number, 10), name = string }))`, value: `[{ name = "x" }, { name = "x", size = 10 }]`,
			want: cty.SetVal([]cty.Value{cty.ObjectVal(obj{"name": str("x"), "size": num(10)})})},
		{name: "list of tuples of optional objects", typ: `list(tuple([object({ a = optional(bool, true) })]))`, value: `[[{}], [{ a = false }]]`,
			want: cty.ListVal([]cty.Value{
				cty.TupleVal([]cty.Value{cty.ObjectVal(obj{"a": cty.True})}),
				cty.TupleVal([]cty.Value{cty.ObjectVal(obj{"a": cty.False})}),
			})},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			decl := `variable "v" {}`
			if tc.typ != "" {
				decl = "variable \"v\" {\n  type = " + tc.typ + "\n}\n"
			}
			m := loadModule(t, map[string]string{"main.tf": decl, "terraform.tfvars": "v = " + tc.value + "\n"})
			got, diags := Collect(m, Sources{AutoFiles: true})
			errs := errorsOf(diags)
			if tc.wantErr != "" {
				if len(errs) != 1 || !strings.Contains(errs[0], tc.wantErr) {
					t.Fatalf("errors %q, want one containing %q", errs, tc.wantErr)
				}
				d := diags[0]
				if d.Summary != "Invalid value for input variable" || d.Subject == nil || !strings.HasSuffix(d.Subject.Filename, "terraform.tfvars") || d.Subject.Start.Line != 1 || d.Subject.Start.Column != 5 {
					t.Errorf("diagnostic %q at %v, want an invalid value at terraform.tfvars:1,5", d.Summary, d.Subject)
				}
				if !strings.Contains(d.Detail, "The given value is not suitable for var.v declared at ") {
					t.Errorf("detail %q", d.Detail)
				}
				if !got["v"].Value.Type().Equals(finalType(m.Variables["v"])) || got["v"].Value.IsKnown() {
					t.Errorf("value on error %#v, want unknown of the variable's type", got["v"].Value)
				}
				return
			}
			if len(errs) > 0 {
				t.Fatalf("unexpected errors %q", errs)
			}
			sameValue(t, got["v"].Value, tc.want)
			if src := got["v"].Source; !strings.HasSuffix(src, "terraform.tfvars") {
				t.Errorf("source %q", src)
			}
		})
	}
}

// TestBucketsExample is the document's nested example: the terraform.tfvars
// file it shows must give exactly the value it prints.
func TestBucketsExample(t *testing.T) {
	m := loadModule(t, map[string]string{
		"variables.tf": `variable "buckets" {
  type = list(object({
    name    = string
    enabled = optional(bool, true)
    website = optional(object({
      index_document = optional(string, "index.html")
      error_document = optional(string, "error.html")
      routing_rules  = optional(string)
    }), {})
  }))
}
`,
		"terraform.tfvars": `buckets = [
  {
    name = "production"
    website = {
      routing_rules = <<-EOT
      [
        {
          "Condition" = { "KeyPrefixEquals": "img/" },
          "Redirect"  = { "ReplaceKeyPrefixWith": "images/" }
        }
      ]
      EOT
    }
  },
  {
    name = "archived"
    enabled = false
  },
  {
    name = "docs"
    website = {
      index_document = "index.txt"
      error_document = "error.txt"
    }
  },
]
`,
	})
	got, diags := Collect(m, Sources{AutoFiles: true})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}

	// What the document prints, as it prints it.
	const printed = `tolist([
  {
    "enabled" = true
    "name" = "production"
    "website" = {
      "error_document" = "error.html"
      "index_document" = "index.html"
      "routing_rules" = <<-EOT
      [
        {
          "Condition" = { "KeyPrefixEquals": "img/" },
          "Redirect"  = { "ReplaceKeyPrefixWith": "images/" }
        }
      ]
 
      EOT
    }
  },
  {
    "enabled" = false
    "name" = "archived"
    "website" = {
      "error_document" = "error.html"
      "index_document" = "index.html"
      "routing_rules" = tostring(null)
    }
  },
  {
    "enabled" = true
    "name" = "docs"
    "website" = {
      "error_document" = "error.txt"
      "index_document" = "index.txt"
      "routing_rules" = tostring(null)
    }
  },
])`
	if g := consoleFormat(got["buckets"].Value, 0); trimLines(g) != trimLines(printed) {
		t.Errorf("buckets prints as\n%s\nwant\n%s", g, printed)
	}

	// The same value written out.
	website := func(idx, errDoc string, rules cty.Value) cty.Value {
		return cty.ObjectVal(obj{"index_document": str(idx), "error_document": str(errDoc), "routing_rules": rules})
	}
	rules := "[\n  {\n    \"Condition\" = { \"KeyPrefixEquals\": \"img/\" },\n    \"Redirect\"  = { \"ReplaceKeyPrefixWith\": \"images/\" }\n  }\n]\n"
	want := cty.ListVal([]cty.Value{
		cty.ObjectVal(obj{"name": str("production"), "enabled": cty.True, "website": website("index.html", "error.html", str(rules))}),
		cty.ObjectVal(obj{"name": str("archived"), "enabled": cty.False, "website": website("index.html", "error.html", cty.NullVal(cty.String))}),
		cty.ObjectVal(obj{"name": str("docs"), "enabled": cty.True, "website": website("index.txt", "error.txt", cty.NullVal(cty.String))}),
	})
	sameValue(t, got["buckets"].Value, want)
}

// TestConditionalOptionalAttribute is the document's last example: a
// module call passes null for optional attributes, which then take their
// defaults.
func TestConditionalOptionalAttribute(t *testing.T) {
	m := loadModule(t, map[string]string{"variables.tf": `variable "buckets" {
  type = list(object({
    name    = string
    enabled = optional(bool, true)
    website = optional(object({
      index_document = optional(string, "index.html")
      error_document = optional(string, "error.html")
      routing_rules  = optional(string)
    }), {})
  }))
}
`})
	v := m.Variables["buckets"]
	call := hcl.Range{Filename: "main.tf", Start: hcl.Pos{Line: 10, Column: 13, Byte: 100}, End: hcl.Pos{Line: 18, Column: 4, Byte: 300}}
	for _, legacy := range []bool{false, true} {
		doc := func(s string) cty.Value {
			if legacy {
				return str(s)
			}
			return cty.NullVal(cty.String)
		}
		raw := cty.TupleVal([]cty.Value{cty.ObjectVal(obj{
			"name":    str("maybe_legacy"),
			"website": cty.ObjectVal(obj{"error_document": doc("ERROR.HTM"), "index_document": doc("INDEX.HTM")}),
		})})
		got, diags := Prepare(v, raw, call)
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		errDoc, idxDoc := "error.html", "index.html"
		if legacy {
			errDoc, idxDoc = "ERROR.HTM", "INDEX.HTM"
		}
		want := cty.ListVal([]cty.Value{cty.ObjectVal(obj{
			"name":    str("maybe_legacy"),
			"enabled": cty.True,
			"website": cty.ObjectVal(obj{"error_document": str(errDoc), "index_document": str(idxDoc), "routing_rules": cty.NullVal(cty.String)}),
		})})
		sameValue(t, got, want)
	}
}

// TestPrepare covers what only a caller with cty values can give: unknown
// values from a module call, sets and lists of the collection conversion
// rules, and the wording of errors for each kind of source.
func TestPrepare(t *testing.T) {
	m := loadModule(t, map[string]string{"main.tf": `
variable "list" {
  type = list(string)
}
variable "tuple" {
  type = tuple([string, string])
}
variable "tuples" {
  type = list(tuple([string, string]))
}
variable "obj" {
  type = object({ a = string, b = optional(number, 2) })
}
variable "secret" {
  type      = number
  sensitive = true
}
variable "plain" {
  type    = string
  default = "d"
}
variable "strict" {
  type     = string
  default  = "d"
  nullable = false
}
variable "strict_required" {
  type     = string
  nullable = false
}
variable "nullable_default" {
  type    = string
  default = "d"
}
`})
	rng := hcl.Range{Filename: "caller.tf", Start: hcl.Pos{Line: 3, Column: 9, Byte: 30}, End: hcl.Pos{Line: 3, Column: 20, Byte: 41}}
	tests := []struct {
		name    string
		v       string
		raw     cty.Value
		rng     hcl.Range
		want    cty.Value
		wantErr string // the whole "summary: detail", with DECL for the declaration's range
	}{
		{name: "unknown stays unknown of the type", v: "list", raw: cty.DynamicVal, rng: rng, want: cty.UnknownVal(cty.List(cty.String))},
		{name: "unknown object without optional markers", v: "obj", raw: cty.DynamicVal, rng: rng,
			want: cty.UnknownVal(cty.Object(map[string]cty.Type{"a": cty.String, "b": cty.Number}))},
		{name: "partly unknown object gets its defaults", v: "obj", raw: cty.ObjectVal(obj{"a": cty.UnknownVal(cty.String)}), rng: rng,
			want: cty.ObjectVal(obj{"a": cty.UnknownVal(cty.String), "b": num(2)})},
		{name: "unknown element", v: "list", raw: cty.TupleVal([]cty.Value{str("a"), cty.UnknownVal(cty.Number)}), rng: rng,
			want: cty.ListVal([]cty.Value{str("a"), cty.UnknownVal(cty.String)})},
		{name: "set to list in lexical order", v: "list", raw: cty.SetVal(strs("b", "c", "a")), rng: rng, want: cty.ListVal(strs("a", "b", "c"))},
		{name: "list to tuple of the same length", v: "tuple", raw: cty.ListVal(strs("a", "b")), rng: rng, want: cty.TupleVal(strs("a", "b"))},
		{name: "list to tuple of another length", v: "tuple", raw: cty.ListVal(strs("a", "b", "c")), rng: rng,
			wantErr: "Invalid value for input variable: The given value is not suitable for var.tuple declared at DECL: tuple required."},
		{name: "set to tuple in lexical order", v: "tuple", raw: cty.SetVal(strs("b", "a")), rng: rng, want: cty.TupleVal(strs("a", "b"))},
		{name: "list of lists to list of tuples", v: "tuples", raw: cty.ListVal([]cty.Value{cty.ListVal(strs("a", "b"))}), rng: rng,
			want: cty.ListVal([]cty.Value{cty.TupleVal(strs("a", "b"))})},
		{name: "map to object drops extra keys", v: "obj", raw: cty.MapVal(obj{"a": str("x"), "z": str("y")}), rng: rng,
			want: cty.ObjectVal(obj{"a": str("x"), "b": num(2)})},
		{name: "from outside the configuration", v: "list", raw: str("x"), rng: hcl.Range{},
			wantErr: "Invalid value for input variable: Unsuitable value for var.list set from outside of the configuration: list of string required, but have string."},
		{name: "sensitive value is not shown", v: "secret", raw: str("hunter2"), rng: rng,
			wantErr: "Invalid value for input variable: The given value is not suitable for var.secret, which is sensitive: a number is required. Invalid value defined at caller.tf:3,9-20."},
		{name: "sensitive value is not marked", v: "secret", raw: str("42"), rng: rng, want: num(42)},
		{name: "not given takes the default", v: "plain", raw: cty.NilVal, rng: rng, want: str("d")},
		{name: "not given and required", v: "list", raw: cty.NilVal, rng: rng,
			wantErr: `Required variable not set: The variable "list" is required, but is not set.`},
		{name: "null for a nullable variable stays null", v: "nullable_default", raw: cty.NullVal(cty.DynamicPseudoType), rng: rng, want: cty.NullVal(cty.String)},
		{name: "null for a non-nullable variable takes the default", v: "strict", raw: cty.NullVal(cty.String), rng: rng, want: str("d")},
		{name: "null for a non-nullable required variable", v: "strict_required", raw: cty.NullVal(cty.String), rng: rng,
			wantErr: "Required variable not set: The given value is not suitable for var.strict_required defined at DECL: required variable may not be set to null."},
		{name: "null object is not completed by defaults", v: "obj", raw: cty.NullVal(cty.DynamicPseudoType), rng: rng,
			want: cty.NullVal(cty.Object(map[string]cty.Type{"a": cty.String, "b": cty.Number}))},
		{name: "marked value keeps its marks", v: "list", raw: cty.TupleVal([]cty.Value{str("a").Mark("sensitive")}), rng: rng,
			want: cty.ListVal([]cty.Value{str("a").Mark("sensitive")})},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := m.Variables[tc.v]
			got, diags := Prepare(v, tc.raw, tc.rng)
			if tc.wantErr != "" {
				want := strings.ReplaceAll(tc.wantErr, "DECL", v.DeclRange().String())
				if errs := errorsOf(diags); len(errs) != 1 || errs[0] != want {
					t.Fatalf("errors %q\nwant   %q", errs, want)
				}
				if got.IsKnown() || !got.Type().Equals(finalType(v)) {
					t.Errorf("value on error %#v", got)
				}
				return
			}
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			sameValue(t, got, tc.want)
		})
	}
}
