package convert

import (
	"fmt"
	"maps"
	"slices"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/token"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/zclconf/go-cty/cty"
)

// Sets. OpenTofu's set has no repeats and an order of its own: strings
// lexical, numbers ascending, false before true, and any other elements
// (objects, lists, maps) by the bytes of go-cty's serialization of each
// (appendSetHashBytes in go-cty's set_internals.go). The library's
// #toset removes the repeats and orders strings, numbers and bools;
// setOf orders the others too where the analysis knows their type in
// full, writing the serialization for that type (setHash), which
// #setorder sorts by. Where the type is not known, the elements keep the
// order of their first occurrence (the function table says so).

// maxSetHashDepth bounds the nesting of the element types setHash writes
// the serialization of: an object of lists of objects is three levels.
const maxSetHashDepth = 4

// setOf is x, a list of values of type elem (after conversion), as a
// set of them: without repeats, in OpenTofu's order. d are the defaults
// of elem's optional attributes (nil where none): an element that leaves
// one out (a module argument, before the variable's schema applies them)
// is ordered by the value the attribute takes.
func (c *converter) setOf(x ast.Expr, elem cty.Type, d *typeexpr.Defaults) ast.Expr {
	set := c.lib("toset", x)
	if elem.IsPrimitiveType() || elem.HasDynamicTypes() {
		return set
	}
	e := c.fresh("e")
	h, ok := c.setHash(elem, ident(e), 0, d)
	if !ok {
		return set
	}
	pair := &ast.StructLit{Elts: []ast.Decl{field(ident("v"), ident(e)), field(ident("k"), h)}}
	pairs := list(&ast.Comprehension{Clauses: []ast.Clause{&ast.ForClause{Value: ident(e), Source: set}}, Value: pair})
	return c.lib("setorder", pairs)
}

// setHash is the CUE expression of go-cty's serialization of v, a value of
// type ty known in full: a string quoted, a number in ten significant
// digits, T or F, ~ for null and ? for a value not known yet (the
// library's #sethash definitions); <a;b;> for an object's attributes in
// the order of their names, and for a tuple's elements; [a;b;] for a list
// or set; {"k":a;} for a map in the order of its keys. An optional
// attribute, which v may leave out, is read with its default where it
// does (tofu.#attror; null where d has none). false where ty has parts
// not known, or nests deeper than maxSetHashDepth.
func (c *converter) setHash(ty cty.Type, v ast.Expr, depth int, d *typeexpr.Defaults) (ast.Expr, bool) {
	switch ty {
	case cty.String:
		return c.lib("sethashstring", v), true
	case cty.Number:
		return c.lib("sethashnumber", v), true
	case cty.Bool:
		return c.lib("sethashbool", v), true
	}
	if depth >= maxSetHashDepth || ty.HasDynamicTypes() {
		return nil, false
	}
	var parts []any
	switch {
	case ty.IsObjectType():
		parts = append(parts, "<")
		for _, n := range slices.Sorted(maps.Keys(ty.AttributeTypes())) {
			av := selector(v, n)
			if ty.AttributeOptional(n) {
				dv, ok := defaultOf(d, n)
				if !ok {
					dv = cty.NullVal(ty.AttributeType(n))
				}
				lit, _ := c.literal(dv, hcl.Range{})
				av = c.lib("attror", v, stringLit(n), lit)
			}
			h, ok := c.setHash(ty.AttributeType(n), av, depth+1, child(d, n))
			if !ok {
				return nil, false
			}
			parts = append(parts, h, ";")
		}
		parts = append(parts, ">")
	case ty.IsTupleType():
		parts = append(parts, "<")
		for i, et := range ty.TupleElementTypes() {
			h, ok := c.setHash(et, index(v, intLit(i)), depth+1, nil)
			if !ok {
				return nil, false
			}
			parts = append(parts, h, ";")
		}
		parts = append(parts, ">")
	case ty.IsListType() || ty.IsSetType():
		e := fmt.Sprintf("e%d", depth+1)
		h, ok := c.setHash(ty.ElementType(), ident(e), depth+1, child(d, ""))
		if !ok {
			return nil, false
		}
		each := list(&ast.Comprehension{Clauses: []ast.Clause{&ast.ForClause{Value: ident(e), Source: v}}, Value: embed(interpolation([]any{h, ";"}))})
		parts = append(parts, "[", c.std("strings", "Join", each, stringLit("")), "]")
	case ty.IsMapType():
		k := fmt.Sprintf("k%d", depth+1)
		h, ok := c.setHash(ty.ElementType(), index(v, ident(k)), depth+1, child(d, ""))
		if !ok {
			return nil, false
		}
		keys := c.std("list", "SortStrings", list(&ast.Comprehension{Clauses: []ast.Clause{&ast.ForClause{Key: ident(k), Value: ident("_"), Source: v}}, Value: embed(ident(k))}))
		each := list(&ast.Comprehension{Clauses: []ast.Clause{&ast.ForClause{Value: ident(k), Source: keys}}, Value: embed(interpolation([]any{c.std("strconv", "Quote", ident(k)), ":", h, ";"}))})
		parts = append(parts, "{", c.std("strings", "Join", each, stringLit("")), "}")
	default:
		return nil, false
	}
	x := interpolation(parts)
	if depth == 0 {
		// A set's element is not null.
		return x, true
	}
	// A nested object or collection may be null.
	null := &ast.Comprehension{Clauses: []ast.Clause{&ast.IfClause{Condition: mayBeNullTest(v)}}, Value: embed(stringLit("~"))}
	return index(list(null, x), intLit(0)), true
}

// mayBeNullTest is (*(v & null) | 0) == null: whether v is null or may
// be, decided also where v is a struct or list not known in full.
func mayBeNullTest(v ast.Expr) ast.Expr {
	// Built directly: binary would put the default mark in parentheses,
	// where CUE does not take it.
	probe := &ast.BinaryExpr{X: &ast.UnaryExpr{Op: token.MUL, X: paren(binary(token.AND, v, ident("null")))}, Op: token.OR, Y: intLit(0)}
	return &ast.BinaryExpr{X: paren(probe), Op: token.EQL, Y: ident("null")}
}
