package convert

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/internal/testtree"
)

// TestTypeOf checks the static types the writer chooses forms by: those
// of OpenTofu's type check, as far as the module says.
func TestTypeOf(t *testing.T) {
	dir := testtree.Write(t, map[string]string{"main.tf": `
variable "context" {
  type = any
}
variable "names" {
  type = list(string)
}
variable "obj" {
  type = object({ a = number, tags = map(string) })
}
locals {
  input = {
    attributes = compact(distinct(concat(var.context.attributes, var.names)))
    n          = var.obj.a
  }
  pairs = { for k, v in var.obj.tags : k => upper(v) }
  id_context = {
    name       = lower(var.context.name)
    attributes = join("-", var.names)
  }
  labels = [for l in var.context.order : local.id_context[l]]
}
`})
	m, diags := config.Load(dir)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	a := newAnalysis(m, false)
	for _, tc := range []struct {
		expr string
		want cty.Type
	}{
		// compact takes a list of strings: what it is given converts to
		// one, whatever var.context is.
		{"local.input.attributes", cty.List(cty.String)},
		{"local.input.n", cty.Number},
		{"var.names[0]", cty.String},
		{"var.obj.tags.x", cty.String},
		{"local.pairs", cty.Map(cty.String)},
		{`[for s in var.names : length(s)]`, cty.List(cty.Number)},
		{`true ? 1 : "x"`, cty.String},
		// A template of one interpolation is its value, unconverted.
		{`"${var.obj.a}"`, cty.Number},
		{`"n=${var.obj.a}"`, cty.String},
		{`[1, "a"]`, cty.Tuple([]cty.Type{cty.Number, cty.String})},
		{"var.context.x", cty.DynamicPseudoType},
		{"concat(var.context.attributes, var.names)", cty.DynamicPseudoType},
		{"local.missing", cty.DynamicPseudoType},
		{"var.names[var.context]", cty.String},
		// A key not known reaches one of the attributes, all strings
		// here; an object of attributes of several types is not known.
		{"local.id_context[var.context]", cty.String},
		{"local.labels", cty.List(cty.String)},
		{"var.obj[var.context]", cty.DynamicPseudoType},
		{`["a", "b"][var.context]`, cty.String},
		{`["a", 1][var.context]`, cty.DynamicPseudoType},
		// A function's type check reads the arguments known when
		// converting: lookup of an attribute an object type has, or the
		// default's type where it has not; with a key not known, not
		// known.
		{`lookup(var.obj, "a", null)`, cty.Number},
		{`lookup(var.obj, "b", "x")`, cty.String},
		{`lookup(var.obj, var.context, null)`, cty.DynamicPseudoType},
		{`coalesce(lookup(var.obj, "a", null), "x")`, cty.String},
	} {
		e, diags := hclsyntax.ParseExpression([]byte(tc.expr), "x.tf", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		if got := a.typeOf(noNames{}, e); !got.Equals(tc.want) {
			t.Errorf("typeOf(%s) = %#v, want %#v", tc.expr, got, tc.want)
		}
	}
}

// TestTypeOfTry checks what typeOf takes for granted of try, which it
// does not type-check: that OpenTofu's signature of try gives no type
// for any arguments' types, typeOf's own or those it puts in for the
// types not known (the parameter's).
func TestTypeOfTry(t *testing.T) {
	try := signatures["try"]
	pt, ok := paramType(try, 0)
	if !ok {
		t.Fatal("try has no parameter type")
	}
	for _, args := range [][]cty.Type{
		nil,
		{pt},
		{pt, pt},
		{cty.String},
		{pt, cty.Number},
		{cty.List(cty.DynamicPseudoType)},
		{cty.DynamicPseudoType},
		{cty.Object(map[string]cty.Type{"a": cty.String}), pt},
	} {
		if rt, err := try.ReturnType(args); err == nil && rt != cty.DynamicPseudoType {
			t.Errorf("try's type for arguments %#v is %#v, not unknown", args, rt)
		}
	}
	a := newAnalysis(&config.Module{}, false)
	e, diags := hclsyntax.ParseExpression([]byte(`try(1, "a")`), "x.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if got := a.typeOf(noNames{}, e); got != cty.DynamicPseudoType {
		t.Errorf("typeOf(try(1, \"a\")) = %#v, want unknown", got)
	}
}

// TestMayBeUnknown checks the analysis's facts of whether a value may be
// unknown while planning, read in the module's top-level scope and in a
// for expression's: the root's inputs are known and a called module's
// are not; a resource's argument set to a known value is known, its
// other attributes are not; a local is what its expression is; each.key
// is known where each.value is not.
func TestMayBeUnknown(t *testing.T) {
	dir := testtree.Write(t, map[string]string{"main.tf": `
variable "names" {
  type = list(string)
}
resource "aws_vpc" "v" {
  cidr_block = "10.0.${length(var.names)}.0/24"
  tags       = { Name = null }
}
resource "aws_subnet" "s" {
  for_each   = toset(var.names)
  cidr_block = each.key
  vpc_id     = aws_vpc.v.id
}
locals {
  known   = upper(var.names[0])
  pending = aws_vpc.v.id
  stamped = timestamp()
}
`})
	m, diags := config.Load(dir)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	for _, tc := range []struct {
		expr         string
		root, called bool // may be unknown in the root, in a called module
	}{
		{"var.names", false, true},
		{"local.known", false, true},
		{"local.pending", true, true},
		{"local.stamped", true, true},
		{"aws_vpc.v.cidr_block", false, true},
		// A null literal in the argument leaves it to the provider.
		{"aws_vpc.v.tags", true, true},
		{"aws_vpc.v.id", true, true},
		// each.key: a for_each's keys are known while planning, or OpenTofu
		// refuses it.
		{"aws_subnet.s[\"a\"].cidr_block", false, false},
		{"aws_subnet.s[\"a\"].vpc_id", true, true},
		{"[for n in var.names : upper(n)]", false, true},
		{"[for s in aws_subnet.s : s.id]", true, true},
		{"count.index", false, false},
		{"path.module", false, false},
	} {
		e, diags := hclsyntax.ParseExpression([]byte(tc.expr), "x.tf", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		for _, called := range []bool{false, true} {
			want := tc.root
			if called {
				want = tc.called
			}
			if got := newAnalysis(m, called).mayBeUnknown(noNames{}, e); got != want {
				t.Errorf("mayBeUnknown(%s) in a module called %v = %v, want %v", tc.expr, called, got, want)
			}
		}
	}
	// Bound names: each.key is known where each.value is not, and a for
	// variable is what the names given say of it.
	each := within{noNames{}, map[string]nameFacts{"each": {known: false}, "v": {known: true}}}
	a := newAnalysis(m, false)
	for expr, want := range map[string]bool{"each.key": false, "each.value": true, "v": false, "upper(v)": false, "[for x in each.value : x]": true} {
		e, diags := hclsyntax.ParseExpression([]byte(expr), "x.tf", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		if got := a.mayBeUnknown(each, e); got != want {
			t.Errorf("mayBeUnknown(%s) with each not known = %v, want %v", expr, got, want)
		}
	}
}
