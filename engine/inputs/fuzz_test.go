package inputs

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// FuzzTfvars reads arbitrary text as a .tfvars file, a .tfvars.json file
// and a --var value for variables of many types: whatever the text, the
// result is diagnostics or values of the declared types, never a panic.
func FuzzTfvars(f *testing.F) {
	m := loadModule(f, map[string]string{"main.tf": `
variable "s" {
  type = string
}
variable "n" {
  type     = number
  nullable = false
  default  = 1
}
variable "l" {
  type = list(string)
}
variable "o" {
  type = object({
    a = optional(string, "x")
    b = optional(list(object({ c = optional(number, 2) })), [])
    t = optional(tuple([string, bool]))
  })
}
variable "any" {
  type = any
}
variable "m" {
  type    = map(set(number))
  default = {}
}
`})
	for _, seed := range []string{
		"s = \"x\"\nn = 2\n",
		"l = [\"a\", 1, true]\no = { b = [{}, { c = \"3\" }] }\n",
		"o = { t = [\"a\", \"true\"] }\nm = { k = [1, 1, \"2\"] }\n",
		"any = { a = [1, \"x\", null] }\nn = null\n",
		`{"s": "x", "l": ["a"], "o": {"a": null}}`,
		"s = <<EOT\nhello\nEOT\n",
		"variable \"s\" {}\n",
		"s = [\n",
		"l = [for x in [1] : x]\n",
		"o = { b = null }\nundeclared = 1\n",
		"\x00\xff = 1",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, name := range []string{"fuzz.tfvars", "fuzz.tfvars.json", "fuzz"} {
			c := &collector{src: &Sources{Synthesize: true, Vars: []string{"o=" + text, "any=" + text, "s=" + text}}, values: map[string]rawValue{}}
			c.diags = append(c.diags, c.readSource(name, []byte(text), fromNamedFile)...)
			c.readArgs()
			out := c.resolve(m)
			for vn, v := range m.Variables {
				in := out[vn]
				if in == nil {
					t.Fatalf("%s: no input for %s", name, vn)
				}
				if ft := finalType(v); !ft.HasDynamicTypes() && in.Value.Type() != cty.DynamicPseudoType && !in.Value.Type().Equals(ft) {
					t.Fatalf("%s: %s has type %#v, want %#v", name, vn, in.Value.Type(), ft)
				}
			}
			for _, d := range c.diags {
				if d.Subject != nil && d.Subject.Filename == "" {
					t.Fatalf("%s: diagnostic %q has a subject without a file", name, d.Summary)
				}
			}
		}
	})
}
