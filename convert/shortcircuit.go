package convert

import (
	"cuelang.org/go/cue/ast"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/refs"
)

// logical converts a || b and a && b (e), whose operands are x and y, or
// says to keep CUE's operator. HCL evaluates both operands, but a known
// true left of || (false left of &&) decides the result and the right
// operand's errors are dropped: var.x == null || length(var.x) == 0 is
// true where var.x is null. CUE evaluates both and fails with the right.
// Where the right operand could fail, the form is therefore CUE's
// conditional, which looks at the right only where the left does not
// decide:
//
//	a || b    [if a {true}, if !a {b}][0]
//	a && b    [if a {b}, if !a {false}][0]
//
// (written {if a {true}, if !a {b}} where e is pure: embedConditionals).
//
// HCL also lets a known right operand decide where the left is unknown or
// an error; this form waits for the left, and fails with it.
func (c *converter) logical(e *hclsyntax.BinaryOpExpr, x, y ast.Expr) (ast.Expr, bool) {
	if !c.mayFail(e.RHS) {
		return nil, false
	}
	var sel *ast.IndexExpr
	if e.Op == hclsyntax.OpLogicalOr {
		sel = conditional(x, ast.NewBool(true), y)
	} else {
		sel = conditional(x, y, ast.NewBool(false))
	}
	if c.pure(e) {
		c.embeddable[sel] = true
	}
	return sel, true
}

// mayFail reports whether evaluating e could fail for some value of what
// it refers to. Literals, references to a whole variable, local,
// iterator or resource, == and != (which never fail in HCL), and ! and
// the logical operators on such comparisons do not fail; an attribute or
// index step, a call, an interpolation and arithmetic may (a null, a
// missing attribute, a value of another type), unless every operand is a
// number that is never null.
func (c *converter) mayFail(e hcl.Expression) bool {
	switch e := e.(type) {
	case *hclsyntax.LiteralValueExpr:
		return false
	case *hclsyntax.ParenthesesExpr:
		return c.mayFail(e.Expression)
	case *hclsyntax.TemplateWrapExpr:
		return c.mayFail(e.Wrapped)
	case *hclsyntax.TemplateExpr:
		return !e.IsStringLiteral()
	case *hclsyntax.ScopeTraversalExpr:
		return !wholeReference(e.Traversal)
	case *hclsyntax.UnaryOpExpr:
		if e.Op == hclsyntax.OpLogicalNot {
			return !c.isBool(e.Val) || c.mayFail(e.Val)
		}
		return !c.isNumber(e.Val) || c.mayFail(e.Val)
	case *hclsyntax.BinaryOpExpr:
		if c.mayFail(e.LHS) || c.mayFail(e.RHS) {
			return true
		}
		switch e.Op {
		case hclsyntax.OpEqual, hclsyntax.OpNotEqual:
			return false
		case hclsyntax.OpLogicalAnd, hclsyntax.OpLogicalOr:
			return !c.isBool(e.LHS) || !c.isBool(e.RHS)
		case hclsyntax.OpDivide, hclsyntax.OpModulo:
			return true // by zero
		}
		return !c.isNumber(e.LHS) || !c.isNumber(e.RHS)
	case *hclsyntax.TupleConsExpr:
		for _, x := range e.Exprs {
			if c.mayFail(x) {
				return true
			}
		}
		return false
	}
	return true
}

// isBool reports whether e is a bool that is never null: a comparison,
// a logical operation or a bool literal.
func (c *converter) isBool(e hcl.Expression) bool {
	switch e := e.(type) {
	case *hclsyntax.ParenthesesExpr:
		return c.isBool(e.Expression)
	case *hclsyntax.LiteralValueExpr:
		return e.Val.Type() == cty.Bool && !e.Val.IsNull()
	case *hclsyntax.UnaryOpExpr:
		return e.Op == hclsyntax.OpLogicalNot
	case *hclsyntax.BinaryOpExpr:
		switch e.Op {
		case hclsyntax.OpEqual, hclsyntax.OpNotEqual, hclsyntax.OpLogicalAnd, hclsyntax.OpLogicalOr,
			hclsyntax.OpGreaterThan, hclsyntax.OpGreaterThanOrEqual, hclsyntax.OpLessThan, hclsyntax.OpLessThanOrEqual:
			return true
		}
	}
	return false
}

// isNumber reports whether e is a number that is never null: a number
// literal, count.index, a local whose expression is a number literal, or
// sums, differences and products of such.
func (c *converter) isNumber(e hcl.Expression) bool {
	switch e := e.(type) {
	case *hclsyntax.ParenthesesExpr:
		return c.isNumber(e.Expression)
	case *hclsyntax.LiteralValueExpr:
		return e.Val.Type() == cty.Number && !e.Val.IsNull()
	case *hclsyntax.ScopeTraversalExpr:
		if len(e.Traversal) != 2 {
			return false
		}
		switch s := subjectOf(e.Traversal, c.m).(type) {
		case refs.CountAttr:
			return s.Name == "index"
		case refs.LocalValue:
			l := c.m.Locals[s.Name]
			if l == nil {
				return false
			}
			lit, ok := l.Expr.(*hclsyntax.LiteralValueExpr)
			return ok && c.isNumber(lit)
		}
	case *hclsyntax.UnaryOpExpr:
		return e.Op == hclsyntax.OpNegate && c.isNumber(e.Val)
	case *hclsyntax.BinaryOpExpr:
		switch e.Op {
		case hclsyntax.OpAdd, hclsyntax.OpSubtract, hclsyntax.OpMultiply:
			return c.isNumber(e.LHS) && c.isNumber(e.RHS)
		}
	}
	return false
}

// wholeReference reports whether t names a whole object that always
// exists: var.NAME, local.NAME, each.key, each.value, count.index,
// path.NAME, terraform.NAME or a resource TYPE.NAME (data.TYPE.NAME).
func wholeReference(t hcl.Traversal) bool {
	n := 2
	switch t.RootName() {
	case "data", "ephemeral":
		n = 3
	}
	if len(t) != n {
		return false
	}
	for _, s := range t[1:] {
		if _, ok := s.(hcl.TraverseAttr); !ok {
			return false
		}
	}
	return true
}
