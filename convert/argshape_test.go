package convert

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// TestShapeOfArg checks what an argument's expression tells of its value
// whatever it reads: never null, and the same of all its elements and of
// its attributes by static key; whether its attributes are all named
// (exact); and whether it is known while planning, here where it reads no
// variable.
func TestShapeOfArg(t *testing.T) {
	known := func(e hclsyntax.Expression) bool { return len(e.Variables()) == 0 }
	for _, tc := range []struct {
		src                  string
		nonNull, elem, attrA bool
		exact, known, knownA bool
	}{
		{`var.x`, false, false, false, false, false, false},
		{`null`, false, false, false, false, true, false},
		{`"s"`, true, false, false, false, true, false},
		{`"${var.x}-a"`, true, false, false, false, false, false},
		{`[for x in var.l : x]`, true, false, false, false, false, false},
		{`[for x in var.l : { a = x }]`, true, true, false, false, false, false},
		{`{ for k, x in var.m : k => [x]... }`, true, false, false, false, false, false},
		{`[{ a = 1 }, { a = var.x }]`, true, true, false, false, false, false},
		{`[{ a = 1 }, { a = "b" }]`, true, true, false, false, true, false},
		{`[{ a = 1 }, null]`, true, false, false, false, true, false},
		{`[var.x, { a = 1 }]`, true, false, false, false, false, false},
		{`{ a = [1], b = var.x }`, true, false, true, true, false, true},
		{`{ "a" = { c = 1 }, b = {} }`, true, true, true, true, true, true},
		{`({ a = 1 })`, true, true, true, true, true, true},
		{`{ a = 1, (var.k) = 2 }`, true, true, true, false, false, true},
		{`{ a = 1, a = 2 }`, true, true, true, false, true, true},
	} {
		e, diags := hclsyntax.ParseExpression([]byte(tc.src), "arg.tf", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatalf("%s: %s", tc.src, diags.Error())
		}
		sh := shapeOfArg(e, known)
		if got := [3]bool{sh.isNonNull(), sh.elem().isNonNull(), sh.attr("a").isNonNull()}; got != [3]bool{tc.nonNull, tc.elem, tc.attrA} {
			t.Errorf("%s: non-null itself, all elements, attribute a = %v, want %v", tc.src, got, [3]bool{tc.nonNull, tc.elem, tc.attrA})
		}
		if got := [3]bool{sh.exactAttrs(), sh.isKnown(), sh.attr("a").isKnown()}; got != [3]bool{tc.exact, tc.known, tc.knownA} {
			t.Errorf("%s: exact attributes, known, attribute a known = %v, want %v", tc.src, got, [3]bool{tc.exact, tc.known, tc.knownA})
		}
	}
	// The elements of a tuple of objects with the same keys name every
	// attribute; with different keys, not.
	for src, exact := range map[string]bool{
		`[{ a = 1, b = 2 }, { b = 3, a = var.x }]`:  true,
		`[{ a = 1 }, { a = 1, b = 2 }]`:             false,
		`[for x in var.l : { a = x, b = 1 }]`:       true,
		`{ for k, x in var.m : k => { a = x } }`:    true,
		`{ for k, x in var.m : k => { a = x }... }`: false,
	} {
		e, _ := hclsyntax.ParseExpression([]byte(src), "arg.tf", hcl.InitialPos)
		if got := shapeOfArg(e, known).elem().exactAttrs(); got != exact {
			t.Errorf("%s: elements' attributes exact = %v, want %v", src, got, exact)
		}
	}
}

// TestShapeOfArgValue checks the literals a shape carries: an element's
// only where every element has the same.
func TestShapeOfArgValue(t *testing.T) {
	known := func(e hclsyntax.Expression) bool { return len(e.Variables()) == 0 }
	for src, want := range map[string]cty.Value{
		`[{ a = "1" }, { a = "1" }]`: cty.StringVal("1"),
		`[{ a = "1" }, { a = "2" }]`: cty.NilVal,
		`[{ a = "1" }, { a = 1 }]`:   cty.NilVal,
		`[{ a = "x-${1}" }]`:         cty.StringVal("x-1"),
		`[{ a = "x-${var.v}" }]`:     cty.NilVal,
		`[{ a = null }]`:             cty.NilVal,
	} {
		e, _ := hclsyntax.ParseExpression([]byte(src), "arg.tf", hcl.InitialPos)
		got := cty.NilVal
		if a := shapeOfArg(e, known).elem().attr("a"); a != nil {
			got = a.value
		}
		same := got == want || got != cty.NilVal && want != cty.NilVal && got.RawEquals(want)
		if !same {
			t.Errorf("%s: element's a is %#v, want %#v", src, got, want)
		}
	}
}

// TestConvertedElementOf checks the element types conform converts by:
// tuples or lists of different lengths are a list where all their
// elements merge, objects merge their attributes at every level, and
// anything else that differs is of no known type. elementOf, which the
// type of each.value takes, keeps a tuple a tuple.
func TestConvertedElementOf(t *testing.T) {
	obj := cty.Object
	cond := func(values cty.Type) cty.Type {
		return obj(map[string]cty.Type{"test": cty.String, "values": values})
	}
	for _, c := range []struct {
		name      string
		from      cty.Type
		want      cty.Type
		elementOf cty.Type
	}{
		{"list", cty.List(cty.Number), cty.Number, cty.Number},
		{"one tuple type", cty.Tuple([]cty.Type{cty.String, cty.String}), cty.String, cty.String},
		{
			"tuples of different lengths",
			cty.Tuple([]cty.Type{cty.Tuple([]cty.Type{cty.String}), cty.Tuple([]cty.Type{cty.String, cty.String}), cty.EmptyTuple}),
			cty.List(cty.String),
			cty.DynamicPseudoType,
		},
		{
			"a tuple of mixed elements stays itself where all are alike",
			cty.Tuple([]cty.Type{cty.Tuple([]cty.Type{cty.String, cty.Number}), cty.Tuple([]cty.Type{cty.String, cty.Number})}),
			cty.Tuple([]cty.Type{cty.String, cty.Number}),
			cty.Tuple([]cty.Type{cty.String, cty.Number}),
		},
		{
			"tuples whose elements differ",
			cty.Tuple([]cty.Type{cty.Tuple([]cty.Type{cty.String}), cty.Tuple([]cty.Type{cty.Number})}),
			cty.DynamicPseudoType,
			cty.DynamicPseudoType,
		},
		{
			"statements whose conditions differ in length",
			cty.Tuple([]cty.Type{
				obj(map[string]cty.Type{"sid": cty.String, "condition": cty.Tuple([]cty.Type{cond(cty.Tuple([]cty.Type{cty.String})), cond(cty.Tuple([]cty.Type{cty.String, cty.String}))})}),
				obj(map[string]cty.Type{"effect": cty.String, "condition": cty.Tuple([]cty.Type{cond(cty.Tuple([]cty.Type{cty.String}))})}),
			}),
			obj(map[string]cty.Type{"sid": cty.String, "effect": cty.String, "condition": cty.List(cond(cty.List(cty.String)))}),
			obj(map[string]cty.Type{"sid": cty.String, "effect": cty.String, "condition": cty.DynamicPseudoType}),
		},
		{
			"values that are strings in one condition and numbers in another",
			cty.Tuple([]cty.Type{cond(cty.Tuple([]cty.Type{cty.String})), cond(cty.Tuple([]cty.Type{cty.Number}))}),
			obj(map[string]cty.Type{"test": cty.String, "values": cty.DynamicPseudoType}),
			obj(map[string]cty.Type{"test": cty.String, "values": cty.DynamicPseudoType}),
		},
		{"a string and an object", cty.Tuple([]cty.Type{cty.String, cond(cty.String)}), cty.DynamicPseudoType, cty.DynamicPseudoType},
		{"nothing", cty.EmptyTuple, cty.DynamicPseudoType, cty.DynamicPseudoType},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := convertedElementOf(c.from); !got.Equals(c.want) {
				t.Errorf("convertedElementOf(%s) = %s, want %s", c.from.FriendlyName(), got.FriendlyName(), c.want.FriendlyName())
			}
			if got := elementOf(c.from); !got.Equals(c.elementOf) {
				t.Errorf("elementOf(%s) = %s, want %s", c.from.FriendlyName(), got.FriendlyName(), c.elementOf.FriendlyName())
			}
		})
	}
}
