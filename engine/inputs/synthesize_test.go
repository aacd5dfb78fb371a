package inputs

import (
	"regexp"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// TestSynthesizeTypes checks the value made from each kind of type
// constraint alone.
func TestSynthesizeTypes(t *testing.T) {
	tests := []struct {
		typ  string
		want cty.Value
	}{
		{typ: "string", want: str("v")},
		{typ: "number", want: num(1)},
		{typ: "bool", want: cty.True},
		{typ: "any", want: cty.EmptyObjectVal},
		{typ: "", want: str("v")},
		{typ: "list(string)", want: cty.ListVal(strs("v"))},
		{typ: "list", want: cty.ListVal(strs("v"))},
		{typ: "list(any)", want: cty.ListVal(strs("v"))},
		{typ: "set(number)", want: cty.SetVal([]cty.Value{num(1)})},
		{typ: "map(bool)", want: cty.MapVal(obj{"example": cty.True})},
		{typ: "map(any)", want: cty.MapVal(obj{"example": str("v")})},
		{typ: "tuple([string, number, bool])", want: cty.TupleVal([]cty.Value{str("v"), num(1), cty.True})},
		{typ: "object({ name = string, port = number })", want: cty.ObjectVal(obj{"name": str("name"), "port": num(1)})},
		{typ: `object({
    name    = string
    size    = optional(number)
    tier    = optional(string, "basic")
    nested  = optional(object({ a = optional(string, "inner") }), {})
    more    = object({ b = optional(bool, false), c = list(string) })
  })`, want: cty.ObjectVal(obj{
			"name":   str("name"),
			"size":   cty.NullVal(cty.Number),
			"tier":   str("basic"),
			"nested": cty.ObjectVal(obj{"a": str("inner")}),
			"more":   cty.ObjectVal(obj{"b": cty.False, "c": cty.ListVal(strs("c"))}),
		})},
		{typ: "list(object({ id = string, tags = map(string) }))", want: cty.ListVal([]cty.Value{
			cty.ObjectVal(obj{"id": str("id"), "tags": cty.MapVal(obj{"example": str("tags")})}),
		})},
		{typ: "map(list(number))", want: cty.MapVal(obj{"example": cty.ListVal([]cty.Value{num(1)})})},
		{typ: "object({})", want: cty.EmptyObjectVal},
		{typ: "tuple([])", want: cty.EmptyTupleVal},
	}
	for _, tc := range tests {
		t.Run(tc.typ, func(t *testing.T) {
			decl := "variable \"v\" {}\n"
			if tc.typ != "" {
				decl = "variable \"v\" {\n  type = " + tc.typ + "\n}\n"
			}
			m := loadModule(t, map[string]string{"main.tf": decl})
			got := Synthesize(m.Variables["v"], nil)
			sameValue(t, got, tc.want)
			if ft := finalType(m.Variables["v"]); !ft.HasDynamicTypes() && !got.Type().Equals(ft) {
				t.Errorf("type %#v", got.Type())
			}
			// The same declaration, loaded again, gets the same value.
			m2 := loadModule(t, map[string]string{"main.tf": decl})
			sameValue(t, Synthesize(m2.Variables["v"], nil), got)
		})
	}
}

// TestSynthesizeValidations checks that synthesis meets validation rules of
// the usual kinds, and that the value it finds passes Validate.
func TestSynthesizeValidations(t *testing.T) {
	tests := []struct {
		name string
		decl string
		want cty.Value // cty.NilVal: only check that Validate passes
	}{
		{name: "contains", decl: `variable "env" {
  type = string
  validation {
    condition     = contains(["dev", "staging", "prod"], var.env)
    error_message = "Bad env."
  }
}`, want: str("dev")},
		{name: "length range", decl: `variable "id" {
  type = string
  validation {
    condition     = length(var.id) >= 3 && length(var.id) <= 5
    error_message = "Bad length."
  }
}`, want: str("aaa")},
		{name: "regex", decl: `variable "bucket_name" {
  type = string
  validation {
    condition     = can(regex("^[a-z][a-z0-9-]{2,10}$", var.bucket_name))
    error_message = "Bad name."
  }
}`, want: str("aaa")},
		{name: "regex with alternatives and classes", decl: `variable "v" {
  type = string
  validation {
    condition     = can(regex("^(t3|m5)\\.(micro|large)-[0-9]{2}[A-Z]?$", var.v))
    error_message = "Bad."
  }
}`, want: str("t3.micro-00")},
		{name: "regexall", decl: `variable "v" {
  type = string
  validation {
    condition     = length(regexall("^arn:aws:iam::\\d{12}:role/.+$", var.v)) > 0
    error_message = "Bad."
  }
}`, want: str("arn:aws:iam::000000000000:role/a")},
		{name: "number range", decl: `variable "port" {
  type = number
  validation {
    condition     = var.port >= 1024 && var.port <= 65535
    error_message = "Bad port."
  }
}`, want: num(1024)},
		{name: "open number range", decl: `variable "ratio" {
  type = number
  validation {
    condition     = var.ratio > 0 && var.ratio < 1
    error_message = "Bad ratio."
  }
}`, want: cty.NumberFloatVal(0.5)},
		{name: "whole number", decl: `variable "n" {
  type = number
  validation {
    condition     = floor(var.n) == var.n && var.n % 2 == 0 && var.n > 10
    error_message = "Bad."
  }
}`},
		{name: "prefix and suffix", decl: `variable "role" {
  type = string
  validation {
    condition     = startswith(var.role, "arn:") && endswith(var.role, "-role")
    error_message = "Bad."
  }
}`, want: str("arn:example-role")},
		{name: "cidr", decl: `variable "cidr" {
  type = string
  validation {
    condition     = can(cidrhost(var.cidr, 0))
    error_message = "Bad CIDR."
  }
}`, want: str("10.0.0.0/16")},
		{name: "list length and elements", decl: `variable "zones" {
  type = list(string)
  validation {
    condition     = length(var.zones) >= 2
    error_message = "Two at least."
  }
  validation {
    condition     = alltrue([for z in var.zones : contains(["a", "b", "c"], z)])
    error_message = "Bad zone."
  }
}`, want: cty.ListVal(strs("a", "b"))},
		{name: "set of distinct values", decl: `variable "zones" {
  type = set(string)
  validation {
    condition     = length(var.zones) == 3 && alltrue([for z in var.zones : contains(["x", "y", "z", "w"], z)])
    error_message = "Bad zones."
  }
}`, want: cty.SetVal(strs("x", "y", "z"))},
		{name: "empty list", decl: `variable "ids" {
  type = list(string)
  validation {
    condition     = length(var.ids) == 0
    error_message = "Must be empty."
  }
}`, want: cty.ListValEmpty(cty.String)},
		{name: "map keys", decl: `variable "envs" {
  type = map(number)
  validation {
    condition     = alltrue([for k, v in var.envs : startswith(k, "env-") && v > 5])
    error_message = "Bad."
  }
}`, want: cty.MapVal(obj{"env-": num(6)})},
		{name: "object attributes", decl: `variable "cfg" {
  type = object({
    size  = string
    count = number
    name  = optional(string)
  })
  validation {
    condition     = contains(["small", "large"], var.cfg.size)
    error_message = "Bad size."
  }
  validation {
    condition     = var.cfg.count > 2 && var.cfg.name != null
    error_message = "Bad count."
  }
}`, want: cty.ObjectVal(obj{"size": str("small"), "count": num(3), "name": str("name")})},
		{name: "list of objects", decl: `variable "rules" {
  type = list(object({ port = number, protocol = string }))
  validation {
    condition     = alltrue([for r in var.rules : contains(["tcp", "udp"], r.protocol) && r.port > 0 && r.port < 65536])
    error_message = "Bad rule."
  }
}`},
		{name: "bool", decl: `variable "enabled" {
  type = bool
  validation {
    condition     = !var.enabled
    error_message = "Must be off."
  }
}`, want: cty.False},
		{name: "lower case", decl: `variable "Project_Name" {
  type = string
  validation {
    condition     = lower(var.Project_Name) == var.Project_Name && !strcontains(var.Project_Name, "_")
    error_message = "Lower-case kebab."
  }
}`, want: str("project-name")},
		{name: "email", decl: `variable "owner" {
  type = string
  validation {
    condition     = can(regex("^[^@]+@[^@]+\\.[a-z]{2,}$", var.owner))
    error_message = "Bad email."
  }
}`},
		{name: "json", decl: `variable "policy" {
  type = string
  validation {
    condition     = can(jsondecode(var.policy))
    error_message = "Bad JSON."
  }
}`, want: str("{}")},
		{name: "any", decl: `variable "settings" {
  type = any
  validation {
    condition     = can(tostring(var.settings))
    error_message = "A string."
  }
}`, want: str("settings")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := loadModule(t, map[string]string{"main.tf": tc.decl})
			var v = m.Variables[firstName(m.Variables)]
			got := Synthesize(v, nil)
			t.Logf("%s = %#v", v.Name, got)
			if tc.want != cty.NilVal {
				sameValue(t, got, tc.want)
			}
			if diags := Validate(v, ctxFor(v, got)); diags.HasErrors() {
				t.Errorf("value %#v fails validation: %s", got, diags.Error())
			}
			m2 := loadModule(t, map[string]string{"main.tf": tc.decl})
			again := Synthesize(m2.Variables[v.Name], nil)
			sameValue(t, again, got)
		})
	}
}

func firstName[V any](m map[string]V) string { return sortedNames(m)[0] }

// TestSynthesizeUnmeetable returns a value without panicking when the rules
// cannot be met, and the caller's Validate reports it.
func TestSynthesizeUnmeetable(t *testing.T) {
	m := loadModule(t, map[string]string{"main.tf": `variable "x" {
  type = string
  validation {
    condition     = var.x == "a" && var.x == "b"
    error_message = "Impossible."
  }
  validation {
    condition     = can(regex("[", var.x)) || var.x == "x"
    error_message = "A bad pattern."
  }
}`})
	v := m.Variables["x"]
	got := Synthesize(v, nil)
	if !got.IsKnown() || got.Type() != cty.String {
		t.Fatalf("value %#v", got)
	}
	if diags := Validate(v, ctxFor(v, got)); !diags.HasErrors() {
		t.Errorf("value %#v passes an impossible rule", got)
	}
	sameValue(t, Synthesize(v, nil), got)
}

// TestSynthesizeOtherVariables uses the other variables of the caller's
// context in validations that refer to them.
func TestSynthesizeOtherVariables(t *testing.T) {
	m := loadModule(t, map[string]string{"main.tf": `
variable "min" {
  type = number
}
variable "max" {
  type = number
  validation {
    condition     = var.max > var.min
    error_message = "max must be above min."
  }
}`})
	ctx := functionContext(m.Dir)
	ctx.Variables["var"] = cty.ObjectVal(obj{"min": num(10)})
	got := Synthesize(m.Variables["max"], ctx)
	if got.Type() != cty.Number || got.LessThanOrEqualTo(num(10)).True() {
		t.Errorf("max %#v", got)
	}
	// The caller's context is left alone.
	if ctx.Variables["var"].Type().HasAttribute("max") {
		t.Error("the context was changed")
	}

	// Through Collect, with min given.
	in, diags := Collect(m, Sources{Vars: []string{"min=100"}, Synthesize: true})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if mx := in["max"].Value; !in["max"].Synthesized || mx.LessThanOrEqualTo(num(100)).True() {
		t.Errorf("max %#v", mx)
	}
}

// TestCollectSynthesizedValidates plans a module with every variable
// synthesized and checks every value against its rules.
func TestCollectSynthesizedValidates(t *testing.T) {
	m := loadModule(t, map[string]string{"main.tf": `
variable "name" {
  type = string
  validation {
    condition     = can(regex("^[a-z0-9-]{3,20}$", var.name))
    error_message = "Bad name."
  }
}
variable "instance_count" {
  type = number
  validation {
    condition     = var.instance_count >= 2 && var.instance_count <= 4
    error_message = "Bad count."
  }
}
variable "subnets" {
  type = map(object({ cidr = string, public = optional(bool, false) }))
  validation {
    condition     = alltrue([for s in values(var.subnets) : can(cidrnetmask(s.cidr))])
    error_message = "Bad subnets."
  }
}
variable "with_default" {
  type    = string
  default = "kept"
}
`})
	in, diags := Collect(m, Sources{Synthesize: true})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	for _, name := range sortedNames(m.Variables) {
		v := m.Variables[name]
		ctx := functionContext(m.Dir)
		vars := map[string]cty.Value{}
		for n, x := range in {
			vars[n] = x.Value
		}
		ctx.Variables["var"] = cty.ObjectVal(vars)
		if d := Validate(v, ctx); d.HasErrors() {
			t.Errorf("%s = %#v: %s", name, in[name].Value, d.Error())
		}
	}
	if in["with_default"].Synthesized || in["with_default"].Value.AsString() != "kept" {
		t.Errorf("with_default %#v", in["with_default"])
	}
	if !in["name"].Synthesized || !in["subnets"].Synthesized {
		t.Error("not synthesized")
	}
}

func TestStringsMatching(t *testing.T) {
	for _, p := range []string{
		`^[a-z]+$`, `^\d{3}-\d{4}$`, `(?i)^hello$`, `^(a|b)c*d+e?$`, `^[^a-z]{2}$`, `\bword\b`, `^[\p{L}]+$`,
		`^(?:[0-9]{1,3}\.){3}[0-9]{1,3}$`, `x{0}y`, `^$`, `.`, `[\x{1F600}-\x{1F64F}]`,
	} {
		got := stringsMatching(p)
		if len(got) == 0 {
			t.Errorf("%s: nothing generated", p)
		}
		re := regexp.MustCompile(p)
		for _, s := range got {
			if !re.MatchString(s) {
				t.Errorf("%s: %q does not match", p, s)
			}
		}
	}
	if got := stringsMatching(`[`); got != nil {
		t.Errorf("bad pattern gave %q", got)
	}
	if got := stringsMatching(`a{1000}{1000}`); len(got) != 0 {
		t.Errorf("huge pattern gave %d strings", len(got))
	}
}

// TestSynthesizeNil never panics on a missing declaration.
func TestSynthesizeNil(t *testing.T) {
	if v := Synthesize(nil, nil); v.IsKnown() {
		t.Errorf("%#v", v)
	}
	if d := Validate(nil, &hcl.EvalContext{}); d != nil {
		t.Errorf("%v", d)
	}
	if v, d := Prepare(nil, str("x"), hcl.Range{}); d != nil || !v.RawEquals(str("x")) {
		t.Errorf("%#v %v", v, d)
	}
}
