package convert

import (
	"cuelang.org/go/cue/ast"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/config"
)

// typeFuncs are OpenTofu's type conversion functions, and its functions on
// sensitive values: CUE has no sensitivity marks, so sensitive and
// nonsensitive are the value itself.
var typeFuncs = map[string]function{
	"tobool": {how: byLibrary, note: "`tofu.#tobool`: a bool, \"true\"/\"1\" and \"false\"/\"0\", null", conv: func(cl *call) ast.Expr {
		if !cl.arity(1, 1) {
			return cl.fail("tobool takes one argument.")
		}
		if cl.kinds[0] == kindBool {
			return cl.args[0]
		}
		return cl.lib("tobool", cl.args[0])
	}},
	"tonumber": {how: byLibrary, note: "`tofu.#tonumber`: a number, a string in decimal notation, null", conv: func(cl *call) ast.Expr {
		if !cl.arity(1, 1) {
			return cl.fail("tonumber takes one argument.")
		}
		if cl.kinds[0].isNumber() {
			return cl.args[0]
		}
		return cl.lib("tonumber", cl.args[0])
	}},
	"tostring": {how: byLibrary, note: "`tofu.#tostring`: a string, a number in plain decimal, a bool, null", conv: func(cl *call) ast.Expr {
		if !cl.arity(1, 1) {
			return cl.fail("tostring takes one argument.")
		}
		if cl.kinds[0] == kindString {
			return cl.args[0]
		}
		return cl.lib("tostring", cl.args[0])
	}},
	"tolist": {how: byLibrary, note: "the list itself; `tofu.#unify` turns mixed strings, numbers and bools into strings as OpenTofu does (nested values of different types are not converted); `null` of null", conv: func(cl *call) ast.Expr {
		if !cl.arity(1, 1) {
			return cl.fail("tolist takes one argument.")
		}
		if cl.c.uniformTuple(cl.src[0]) || isNullLiteral(cl.src[0]) {
			return cl.args[0]
		}
		return cl.lib("unify", cl.args[0])
	}},
	"toset": {how: byLibrary, note: "`tofu.#toset`: without repeats, in OpenTofu's set order: strings lexical, numbers ascending, false before true; lists, maps or objects by the bytes of go-cty's serialization of each (`tofu.#setorder`) where the converter knows their type, else in the order of first occurrence",
		conv: func(cl *call) ast.Expr {
			if cl.expand || !cl.arity(1, 1) {
				return libCall("toset", 1, 1)(cl)
			}
			if isNullLiteral(cl.src[0]) {
				return cl.args[0]
			}
			return cl.c.setOf(cl.args[0], oneElementType(cl.c.typeOf(cl.src[0])), nil)
		}},
	"tomap": {how: byLibrary, note: "the map itself; `tofu.#tomap` turns mixed strings, numbers and bools into strings as OpenTofu does", conv: func(cl *call) ast.Expr {
		if !cl.arity(1, 1) {
			return cl.fail("tomap takes one argument.")
		}
		if isNullLiteral(cl.src[0]) {
			return cl.args[0]
		}
		if o, ok := cl.src[0].(*hclsyntax.ObjectConsExpr); ok {
			vals := make([]hclsyntax.Expression, len(o.Items))
			for i := range o.Items {
				vals[i] = o.Items[i].ValueExpr
			}
			if cl.c.uniformKinds(vals) {
				return cl.args[0]
			}
		}
		return cl.lib("tomap", cl.args[0])
	}},
	"sensitive":       {how: byExpr, note: "the value itself: CUE has no sensitive values", conv: identity},
	"nonsensitive":    {how: byExpr, note: "the value itself: CUE has no sensitive values", conv: identity},
	"ephemeralasnull": {how: byExpr, note: "the value itself: neither side has ephemeral values yet (see package functions)", conv: identity},
	"issensitive":     {how: notConverted, note: "CUE has no sensitive values, so whether one is sensitive cannot be answered"},
	"type": {how: byExpr, note: "refused, as OpenTofu refuses it: it offers type only in tofu console, and a module's call of it is a call of an unknown function (a CUE error with OpenTofu's message)", conv: func(cl *call) ast.Expr {
		return cl.c.refused(cl.rng, "Call to unknown function", `There is no function named "type"; OpenTofu offers it only in tofu console.`)
	}},
}

// isNullLiteral reports whether e is the literal null, which the
// conversion functions give back as it is.
func isNullLiteral(e hclsyntax.Expression) bool {
	l, ok := config.UnwrapParens(e).(*hclsyntax.LiteralValueExpr)
	return ok && l.Val.IsNull()
}

// oneElementType is the type of the elements of a list, set or tuple of
// type ty as toset converts them: a collection's element type, and a
// tuple's unifiedElementType (tuples of different lengths are lists,
// objects of different attributes maps) where each element is that
// type's value as it is in CUE (no number becomes a string);
// cty.DynamicPseudoType otherwise.
func oneElementType(ty cty.Type) cty.Type {
	switch {
	case ty.IsListType() || ty.IsSetType():
		return ty.ElementType()
	case !ty.IsTupleType():
		return cty.DynamicPseudoType
	}
	et := unifiedElementType(ty)
	if et == cty.NilType {
		return cty.DynamicPseudoType
	}
	for _, t := range partTypes(ty) {
		if !convertsAsIs(t, et) {
			return cty.DynamicPseudoType
		}
	}
	return et
}

// identity is a call of a function of one argument that is the argument.
func identity(cl *call) ast.Expr {
	if !cl.arity(1, 1) {
		return cl.fail(cl.name + " takes one argument.")
	}
	return cl.args[0]
}

// uniformTuple reports whether an expression is a tuple whose elements
// are all strings, all numbers or all bools, which tolist leaves as it
// is.
func (c *converter) uniformTuple(e hclsyntax.Expression) bool {
	t, ok := e.(*hclsyntax.TupleConsExpr)
	return ok && c.uniformKinds(t.Exprs)
}

// uniformKinds reports whether expressions are all strings, all numbers
// or all bools.
func (c *converter) uniformKinds(es []hclsyntax.Expression) bool {
	var first kind
	for i, x := range es {
		k := c.kindOf(x)
		if k == kindInt {
			k = kindNumber
		}
		switch {
		case k != kindString && k != kindNumber && k != kindBool:
			return false
		case i == 0:
			first = k
		case k != first:
			return false
		}
	}
	return true
}
