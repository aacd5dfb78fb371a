package inputs

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

func parseExpr(t *testing.T, src string) hcl.Expression {
	t.Helper()
	e, diags := hclsyntax.ParseExpression([]byte(src), "hint.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	return e
}

// firstN takes up to n candidates.
func firstN(c *Candidates, n int) []cty.Value {
	var out []cty.Value
	for range n {
		v, ok := c.Next()
		if !ok {
			break
		}
		out = append(out, v)
	}
	return out
}

// TestCandidatesNull: a null default is followed by the value of the type,
// then by other values of it.
func TestCandidatesNull(t *testing.T) {
	m := loadModule(t, map[string]string{"main.tf": `
variable "prefix" {
  type    = string
  default = null
}
`})
	v := m.Variables["prefix"]
	c := NewCandidates(v, cty.NullVal(cty.String), nil)
	got := firstN(c, 3)
	if len(got) != 3 || !got[0].RawEquals(str("prefix")) || got[1].IsNull() || got[2].IsNull() {
		t.Fatalf("%#v", got)
	}
	// The current value is never a candidate, nor is any value twice.
	seen := map[string]bool{}
	for _, x := range append(got, firstN(c, 300)...) {
		if x.IsNull() || seen[x.GoString()] {
			t.Fatalf("%#v listed again or null", x)
		}
		seen[x.GoString()] = true
	}
}

// TestCandidatesHint: the values a failing expression suggests come first,
// the latest hint's before earlier ones; a hint seen before adds nothing.
func TestCandidatesHint(t *testing.T) {
	m := loadModule(t, map[string]string{"main.tf": `
variable "tenant_id" {
  type = string
}
`})
	v := m.Variables["tenant_id"]
	current := Synthesize(v, nil)
	c := NewCandidates(v, current, nil)
	if !c.Hint(parseExpr(t, `contains(["blue", "green"], var.tenant_id)`)) {
		t.Fatal("first hint not new")
	}
	if got := firstN(c, 1); len(got) != 1 || !got[0].RawEquals(str("blue")) {
		t.Fatalf("after contains: %#v", got)
	}
	guid := parseExpr(t, `can(regex("^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$", var.tenant_id))`)
	c.Hint(guid)
	if c.Hint(guid) {
		t.Error("the same hint twice")
	}
	if got := firstN(c, 2); len(got) != 2 || !got[0].RawEquals(str("aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa")) || !got[1].RawEquals(str("green")) {
		t.Fatalf("after regex: %#v", got)
	}
}

// TestCandidatesAccept: after Accept, candidates change the accepted value
// one thing at a time, and none fails a validation the accepted one meets.
func TestCandidatesAccept(t *testing.T) {
	m := loadModule(t, map[string]string{"main.tf": `
variable "cfg" {
  type = object({
    name   = string
    region = string
    size   = number
  })
  validation {
    condition     = var.cfg.size < 100
    error_message = "Too big."
  }
}
`})
	v := m.Variables["cfg"]
	c := NewCandidates(v, Synthesize(v, nil), nil)
	c.Hint(parseExpr(t, `regex("^projects/[a-z]+$", var.cfg.name)`))
	first, ok := c.Next()
	if !ok || first.GetAttr("name").AsString() != "projects/a" || first.GetAttr("region").AsString() != "region" {
		t.Fatalf("first: %#v", first)
	}
	c.Accept()
	c.Hint(parseExpr(t, `var.cfg.size > 50`))
	for _, x := range firstN(c, 200) {
		changed := 0
		for _, a := range []string{"name", "region", "size"} {
			if !x.GetAttr(a).RawEquals(first.GetAttr(a)) {
				changed++
			}
		}
		if changed != 1 {
			t.Errorf("%#v changes %d things of the accepted value", x, changed)
		}
		if f, _ := x.GetAttr("size").AsBigFloat().Float64(); f >= 100 {
			t.Errorf("%#v fails the validation", x)
		}
	}
}

// TestCandidatesDeterministic: the same declaration and hints give the same
// candidates.
func TestCandidatesDeterministic(t *testing.T) {
	decl := map[string]string{"main.tf": `
variable "v" {
  type = list(object({ id = string, port = optional(number) }))
}
`}
	run := func() []cty.Value {
		v := loadModule(t, decl).Variables["v"]
		c := NewCandidates(v, Synthesize(v, nil), nil)
		c.Hint(parseExpr(t, `var.v[2].port >= 1024`))
		return firstN(c, 50)
	}
	a, b := run(), run()
	if len(a) != len(b) || len(a) == 0 {
		t.Fatalf("%d and %d candidates", len(a), len(b))
	}
	for i := range a {
		if !a[i].RawEquals(b[i]) {
			t.Fatalf("candidate %d: %#v and %#v", i, a[i], b[i])
		}
	}
}
