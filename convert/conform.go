package convert

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	ctyconvert "github.com/zclconf/go-cty/cty/convert"

	"github.com/tofucue/tofucue/config"
	tofufuncs "github.com/tofucue/tofucue/functions"
)

// unifiedBranches returns the two results of a conditional as OpenTofu
// uses them: converted to one type, the unification of their types, where
// typeOf knows both in full and they differ in their structure (the
// scalar case is expr's, from the kinds). var.flag ? [1, "x"] : ["y"] is a
// list of strings in OpenTofu, ["1", "x"] when the flag is set; CUE would
// keep the number.
func (c *converter) unifiedBranches(e *hclsyntax.ConditionalExpr) (a, b hclsyntax.Expression) {
	a, b = e.TrueResult, e.FalseResult
	ta, tb := c.typeOf(a), c.typeOf(b)
	if ta.Equals(tb) || ta.HasDynamicTypes() || tb.HasDynamicTypes() || ta.IsPrimitiveType() || tb.IsPrimitiveType() {
		return a, b
	}
	u, _ := ctyconvert.UnifyUnsafe([]cty.Type{ta, tb})
	if u == cty.NilType || u.HasDynamicTypes() {
		return a, b
	}
	return conformTo(a, ta, u), conformTo(b, tb, u)
}

// conformTo rewrites e, an expression of type from, into one that gives
// the value OpenTofu's conversion of it to type to gives, as far as the
// values differ in CUE: a number or bool becomes a string (tostring(e)),
// element by element through tuple and object constructors, and through
// a comprehension for a collection of one scalar type. A list and a
// tuple with the same elements are one value in CUE, so only elements
// change. Where it cannot tell, e is returned as it is.
func conformTo(e hclsyntax.Expression, from, to cty.Type) hclsyntax.Expression {
	if from.Equals(to) {
		return e
	}
	switch {
	case to.IsPrimitiveType():
		if from.IsPrimitiveType() {
			return conversionCall(e, to)
		}
	case to.IsListType() || to.IsSetType():
		et := to.ElementType()
		if t, ok := config.UnwrapParens(e).(*hclsyntax.TupleConsExpr); ok && from.IsTupleType() && len(from.TupleElementTypes()) == len(t.Exprs) {
			return sameOr(e, t, func(i int, x hclsyntax.Expression) hclsyntax.Expression {
				return conformTo(x, from.TupleElementTypes()[i], et)
			})
		}
		var fe cty.Type
		switch {
		case from.IsListType() || from.IsSetType():
			fe = from.ElementType()
		case from.IsTupleType():
			fe = sameType(from.TupleElementTypes())
		}
		if fe != cty.NilType && fe.IsPrimitiveType() && et.IsPrimitiveType() && !fe.Equals(et) {
			return eachConverted(e, et)
		}
	case to.IsTupleType():
		if t, ok := config.UnwrapParens(e).(*hclsyntax.TupleConsExpr); ok && from.IsTupleType() && len(from.TupleElementTypes()) == len(t.Exprs) && len(to.TupleElementTypes()) == len(t.Exprs) {
			return sameOr(e, t, func(i int, x hclsyntax.Expression) hclsyntax.Expression {
				return conformTo(x, from.TupleElementTypes()[i], to.TupleElementTypes()[i])
			})
		}
	case to.IsMapType() || to.IsObjectType():
		o, ok := config.UnwrapParens(e).(*hclsyntax.ObjectConsExpr)
		if !ok || !from.IsObjectType() {
			return e
		}
		out := &hclsyntax.ObjectConsExpr{SrcRange: o.SrcRange, OpenRange: o.OpenRange}
		changed := false
		for _, item := range o.Items {
			name, ok := objectKeyName(item.KeyExpr)
			if !ok || !from.HasAttribute(name) {
				return e
			}
			var want cty.Type
			switch {
			case to.IsMapType():
				want = to.ElementType()
			case to.HasAttribute(name):
				want = to.AttributeType(name)
			default:
				return e
			}
			v := conformTo(item.ValueExpr, from.AttributeType(name), want)
			changed = changed || v != item.ValueExpr
			out.Items = append(out.Items, hclsyntax.ObjectConsItem{KeyExpr: item.KeyExpr, ValueExpr: v})
		}
		if !changed {
			return e
		}
		return out
	}
	return e
}

// sameOr is e where conforming each element of its tuple constructor t
// changes none, else a constructor of the conformed elements.
func sameOr(e hclsyntax.Expression, t *hclsyntax.TupleConsExpr, conform func(int, hclsyntax.Expression) hclsyntax.Expression) hclsyntax.Expression {
	out := &hclsyntax.TupleConsExpr{SrcRange: t.SrcRange, OpenRange: t.OpenRange}
	changed := false
	for i, x := range t.Exprs {
		y := conform(i, x)
		changed = changed || y != x
		out.Exprs = append(out.Exprs, y)
	}
	if !changed {
		return e
	}
	return out
}

// conversionCall is tostring(e), tonumber(e) or tobool(e); a literal is
// converted here ("1" for 1).
func conversionCall(e hclsyntax.Expression, to cty.Type) hclsyntax.Expression {
	if lit, ok := e.(*hclsyntax.LiteralValueExpr); ok {
		if v, err := ctyconvert.Convert(lit.Val, to); err == nil {
			return &hclsyntax.LiteralValueExpr{Val: v, SrcRange: lit.SrcRange}
		}
	}
	name := map[cty.Type]string{cty.String: "tostring", cty.Number: "tonumber", cty.Bool: "tobool"}[to]
	if name == "" {
		return e
	}
	r := e.Range()
	return &hclsyntax.FunctionCallExpr{Name: name, Args: []hclsyntax.Expression{e}, NameRange: r, OpenParenRange: r, CloseParenRange: r}
}

// eachConverted is [for v in e : tostring(v)] (or tonumber, tobool).
func eachConverted(e hclsyntax.Expression, to cty.Type) hclsyntax.Expression {
	r := e.Range()
	v := &hclsyntax.ScopeTraversalExpr{Traversal: hcl.Traversal{hcl.TraverseRoot{Name: "v", SrcRange: r}}, SrcRange: r}
	return &hclsyntax.ForExpr{ValVar: "v", CollExpr: e, ValExpr: conversionCall(v, to), SrcRange: r, OpenRange: r, CloseRange: r}
}

// typeClass is what OpenTofu's type of an expression says of its
// structure, where the module fixes it.
type typeClass int

const (
	classUnknown typeClass = iota
	// classStructural: a tuple or an object, built by brackets or braces
	// and never null.
	classStructural
	// classCollection: a list, set or map, of a type known in full.
	classCollection
)

// classOf is the typeClass of e: a tuple or object constructor; an input
// variable or a conversion (tolist, toset, tomap, or a function whose
// result is a set) of a list, set or map type known in full.
func (c *converter) classOf(e hclsyntax.Expression) typeClass {
	switch x := config.UnwrapParens(e).(type) {
	case *hclsyntax.TupleConsExpr, *hclsyntax.ObjectConsExpr:
		return classStructural
	case *hclsyntax.ScopeTraversalExpr:
		if x.Traversal.RootName() != "var" || len(x.Traversal) != 2 {
			return classUnknown
		}
	case *hclsyntax.FunctionCallExpr:
		s, _ := tofufuncs.Lookup(x.Name)
		converted := s.Converts && (s.Result == tofufuncs.List || s.Result == tofufuncs.Map)
		if !converted && s.Result != tofufuncs.Set {
			return classUnknown
		}
	default:
		return classUnknown
	}
	ty := c.typeOf(e)
	if !ty.HasDynamicTypes() && (ty.IsListType() || ty.IsSetType() || ty.IsMapType()) {
		return classCollection
	}
	return classUnknown
}

// neverEqual is whether OpenTofu's == always gives false for l and r
// because their types differ: one is a tuple or object constructor, which
// is never null, and the other a list, set or map of a type known in full
// (tolist(["a"]) == ["a"], var.names == [] for a list(string) input). A
// value not known yet of such a type compares false too, as cty decides
// from the types.
func (c *converter) neverEqual(l, r hclsyntax.Expression) bool {
	a, b := c.classOf(l), c.classOf(r)
	return a == classStructural && b == classCollection || a == classCollection && b == classStructural
}
