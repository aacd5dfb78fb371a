package convert

import (
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	tofufuncs "github.com/tofucue/tofucue/functions"
	"github.com/tofucue/tofucue/refs"
)

// kind is what the converter knows statically about the type of a value:
// enough to choose between CUE forms where OpenTofu's meaning depends on
// the type (iterating a map in key order, counting a string's characters,
// formatting a number in a template).
type kind int

const (
	kindUnknown kind = iota
	kindString
	kindInt    // a number that is an integer in CUE (int literal, count.index, length)
	kindNumber // a number that may be a CUE float
	kindBool
	kindList // a list, tuple or set: iterated in order, keys are indexes
	kindMap  // a map or object: iterated in key order in OpenTofu
	kindNull
)

func (k kind) isNumber() bool { return k == kindInt || k == kindNumber }

// isScalar is true for a string, number or bool.
func (k kind) isScalar() bool { return k == kindString || k == kindBool || k.isNumber() }

// kindOfType is the kind of values of a cty type.
func kindOfType(t cty.Type) kind { return resultKind(tofufuncs.KindOf(t)) }

// join is the kind of a value that is one of two kinds.
func join(a, b kind) kind {
	switch {
	case a == b:
		return a
	case a == kindNull:
		return b
	case b == kindNull:
		return a
	case a.isNumber() && b.isNumber():
		return kindNumber
	}
	return kindUnknown
}

// unified is the kind of values of kinds ks once OpenTofu has converted
// them to one type, as it does with the two results of a conditional and
// the arguments of coalesce: scalars of one kind keep it, numbers are
// numbers, and scalars of different kinds (a number and a string, a bool
// and a number) all become strings. Nulls take any type. mixed tells
// that values must be converted: they are scalars of different kinds.
// Where a kind is not known or not a scalar, it is join's answer and
// nothing is converted.
func unified(ks ...kind) (k kind, mixed bool) {
	k = kindNull
	for _, x := range ks {
		if x == kindNull {
			continue
		}
		if !x.isScalar() {
			k = kindNull
			for _, y := range ks {
				k = join(k, y)
			}
			return k, false
		}
		if k == kindNull {
			k = x
			continue
		}
		if j := join(k, x); j != kindUnknown {
			k = j
			continue
		}
		k, mixed = kindString, true
	}
	return k, mixed
}

// perLocal is f of the expression of the local value name, cached in
// cache: what the converter knows of a local is what it knows of its
// expression. none is the answer for a local the module does not declare,
// and for one read again while its own answer is worked out (a cycle).
func perLocal[T any](a *analysis, cache map[string]T, name string, none T, f func(hcl.Expression) T) T {
	if v, ok := cache[name]; ok {
		return v
	}
	l := a.m.Locals[name]
	if l == nil {
		return none
	}
	cache[name] = none
	v := f(l.Expr)
	cache[name] = v
	return v
}

// refersTo is whether e, or a local value it reads at any depth, holds a
// reference that match takes. An expression that skip takes (when skip is
// not nil) is not looked into, nor are the local values it reads.
func (a *analysis) refersTo(e hcl.Expression, match func(hcl.Traversal) bool, skip func(hcl.Expression) bool) bool {
	seen := map[string]bool{}
	var walk func(e hcl.Expression) bool
	walk = func(e hcl.Expression) bool {
		if skip != nil && skip(e) {
			return false
		}
		for _, t := range e.Variables() {
			if match(t) {
				return true
			}
			if t.RootName() != "local" || len(t) < 2 {
				continue
			}
			at, ok := t[1].(hcl.TraverseAttr)
			if !ok || seen[at.Name] || a.m.Locals[at.Name] == nil {
				continue
			}
			seen[at.Name] = true
			if walk(a.m.Locals[at.Name].Expr) {
				return true
			}
		}
		return false
	}
	return walk(e)
}

// localKind is the kind of a local value, from its expression.
func (a *analysis) localKind(name string) kind {
	return perLocal(a, a.localKinds, name, kindUnknown, func(e hcl.Expression) kind { return a.kindOf(noNames{}, e) })
}

// kindOf works out the kind of an expression without converting it:
// from its form, else from its static type (typeOf).
func (a *analysis) kindOf(in names, e hcl.Expression) kind {
	if k := a.formKind(in, e); k != kindUnknown {
		return k
	}
	return kindOfType(a.typeOf(in, e))
}

// formKind is the kind an expression's form tells.
func (a *analysis) formKind(in names, e hcl.Expression) kind {
	switch e := e.(type) {
	case *hclsyntax.LiteralValueExpr:
		if e.Val.IsNull() {
			return kindNull
		}
		if e.Val.Type() == cty.Number {
			if e.Val.AsBigFloat().IsInt() {
				return kindInt
			}
			return kindNumber
		}
		return kindOfType(e.Val.Type())
	case *hclsyntax.TemplateExpr, *hclsyntax.TemplateJoinExpr:
		return kindString
	case *hclsyntax.TemplateWrapExpr:
		return a.kindOf(in, e.Wrapped)
	case *hclsyntax.ParenthesesExpr:
		return a.kindOf(in, e.Expression)
	case *hclsyntax.TupleConsExpr, *hclsyntax.SplatExpr:
		return kindList
	case *hclsyntax.ObjectConsExpr:
		return kindMap
	case *hclsyntax.ForExpr:
		if e.KeyExpr != nil {
			return kindMap
		}
		return kindList
	case *hclsyntax.ConditionalExpr:
		k, _ := unified(a.kindOf(in, e.TrueResult), a.kindOf(in, e.FalseResult))
		return k
	case *hclsyntax.FunctionCallExpr:
		if s, ok := tofufuncs.Lookup(e.Name); ok {
			return resultKind(s.Result)
		}
	case *hclsyntax.BinaryOpExpr:
		switch e.Op {
		case hclsyntax.OpAdd, hclsyntax.OpSubtract, hclsyntax.OpMultiply, hclsyntax.OpModulo:
			if a.kindOf(in, e.LHS) == kindInt && a.kindOf(in, e.RHS) == kindInt {
				return kindInt
			}
			return kindNumber
		case hclsyntax.OpDivide:
			return kindNumber
		}
		return kindBool
	case *hclsyntax.UnaryOpExpr:
		if e.Op == hclsyntax.OpLogicalNot {
			return kindBool
		}
		return a.kindOf(in, e.Val)
	case *hclsyntax.ScopeTraversalExpr:
		t := e.Traversal
		switch s := subjectOf(t, a.m).(type) {
		case refs.InputVariable:
			if v := a.m.Variables[s.Name]; v != nil && len(t) == 2 {
				return kindOfType(v.Type)
			}
		case refs.LocalValue:
			if len(t) == 2 {
				return a.localKind(s.Name)
			}
		case refs.CountAttr:
			return kindInt
		case refs.PathAttr, refs.TerraformAttr:
			if len(t) == 2 {
				return kindString
			}
		}
	}
	return kindUnknown
}

// refinedNotNull tells whether an expression may take a value that
// OpenTofu, while it is not known, knows is not null: a template, an
// operator's result, a call of one of notNullResults, a conditional with
// such a branch, or a local set to one. "${aws_vpc.main.id}-x" != null is
// true while planning, where CUE's value of the template is string (see
// unknown.go) and that of an operator an error, which only the test of
// refinedNullComparison takes for not null.
// A literal is known, and a reference (var.x, a resource's attribute)
// is not refined.
func (a *analysis) refinedNotNull(e hcl.Expression) bool {
	switch e := e.(type) {
	case *hclsyntax.TemplateExpr, *hclsyntax.TemplateJoinExpr, *hclsyntax.BinaryOpExpr, *hclsyntax.UnaryOpExpr:
		return true
	case *hclsyntax.TemplateWrapExpr:
		return a.refinedNotNull(e.Wrapped)
	case *hclsyntax.ParenthesesExpr:
		return a.refinedNotNull(e.Expression)
	case *hclsyntax.ConditionalExpr:
		return a.refinedNotNull(e.TrueResult) || a.refinedNotNull(e.FalseResult)
	case *hclsyntax.FunctionCallExpr:
		return notNullResult(strings.TrimPrefix(e.Name, "core::"))
	case *hclsyntax.ScopeTraversalExpr:
		t := e.Traversal
		if t.RootName() != "local" || len(t) != 2 {
			return false
		}
		at, ok := t[1].(hcl.TraverseAttr)
		if !ok {
			return false
		}
		return perLocal(a, a.localsRefined, at.Name, false, a.refinedNotNull)
	}
	return false
}

// notNullResult is whether OpenTofu knows a call of function name is not
// null while its arguments are not known yet, for a function of scalar
// result: its spec says so. The others either pass a null through
// (tostring, lookup, element, try) or return a list or map, whose null
// test needs no such knowledge.
func notNullResult(name string) bool {
	s, ok := tofufuncs.Lookup(name)
	return ok && resultKind(s.Result).isScalar() && s.NotNull()
}
