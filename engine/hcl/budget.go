package hcl

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/tofucue/tofucue/refs"
)

// MaxValues is how many collection elements the function calls of one
// plan pass may produce in all (a list of 1,000 from range counts 1,000)
// unless Options.MaxValues says otherwise. Real modules produce a few
// thousand; nested for expressions over ranges (range(1000) inside two
// others calls it a million times) would otherwise build values until
// memory runs out.
const MaxValues = 1_000_000

// budgeted wraps every function of table so that the elements of the
// collections they return count against the pass's budget; a call that
// exceeds it fails, which reports the call's expression. The wrapper lets
// every argument through (unknown, null, marked, dynamic) so that the
// function itself decides, with its own refinements, as without it.
func (p *planner) budgeted(table map[string]function.Function) map[string]function.Function {
	out := make(map[string]function.Function, len(table))
	for name, f := range table {
		out[name] = p.budgetedFunc(f)
	}
	return out
}

func (p *planner) budgetedFunc(f function.Function) function.Function {
	open := func(param function.Parameter) function.Parameter {
		param.AllowUnknown, param.AllowNull, param.AllowMarked, param.AllowDynamicType = true, true, true, true
		return param
	}
	params := f.Params()
	spec := &function.Spec{
		Description: f.Description(),
		Params:      make([]function.Parameter, len(params)),
		Type:        f.ReturnTypeForValues,
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			v, err := f.Call(args)
			if err != nil {
				return v, err
			}
			// A marked (sensitive) result counts as its value does.
			if u, _ := v.Unmark(); (u.Type().IsCollectionType() || u.Type().IsTupleType()) && u.IsKnown() && !u.IsNull() {
				p.produced += u.LengthInt()
				if p.produced > p.maxValues {
					return cty.DynamicVal, fmt.Errorf("the function calls of this plan have produced more than %d collection elements (the limit, which --max-values raises); the planner stops here", p.maxValues)
				}
			}
			return v, nil
		},
	}
	for i, param := range params {
		spec.Params[i] = open(param)
	}
	if vp := f.VarParam(); vp != nil {
		o := open(*vp)
		spec.VarParam = &o
	}
	return function.New(spec)
}

// forBudget checks, before e (an expression or a body in the native
// syntax) is evaluated in ctx, that its for
// expressions would not iterate more than maxValues times in all: a for
// nested in others runs once per iteration of each, and for expressions
// over variables call no function, which the values budget counts, so
// three nested ones over a list of 1,000 would build a billion values.
// The length of a for's collection is known here when the collection is
// a reference that ctx holds; one that depends on an enclosing for's
// variables or a dynamic block's iterator (refs' scope: a bound name
// shadows every root, so [for local in x : [for y in local : y]] reads
// no local values), or is computed, counts as one. The error is at the
// for expression that passes the limit.
func forBudget(e any, ctx *hcl.EvalContext, maxValues int) *hcl.Diagnostic {
	w := &forWalker{ctx: ctx, max: maxValues}
	switch e := e.(type) {
	case hclsyntax.Expression:
		w.walk(e, nil, 1)
	case *hclsyntax.Body:
		refs.WalkBody(e, nil, func(x hcl.Expression, s *refs.Scope) bool { return w.visit(x, s, 1) })
	}
	return w.diag
}

// forWalker is forBudget's walk, which reports the first for expression
// past the limit in diag.
type forWalker struct {
	ctx  *hcl.EvalContext
	max  int
	diag *hcl.Diagnostic
}

// walk visits e in scope s, inside for expressions that run outer times
// in all.
func (w *forWalker) walk(e hcl.Expression, s *refs.Scope, outer int) {
	refs.Walk(e, s, func(x hcl.Expression, s *refs.Scope) bool { return w.visit(x, s, outer) })
}

// visit counts a for expression's iterations, outer times its
// collection's length, and walks its parts itself: the collection in s,
// the key, value and condition in the for's own scope, as many times
// over as it iterates.
func (w *forWalker) visit(x hcl.Expression, s *refs.Scope, outer int) bool {
	f, ok := x.(*hclsyntax.ForExpr)
	if !ok {
		return true
	}
	iters := 1
	if t, ok := f.CollExpr.(*hclsyntax.ScopeTraversalExpr); ok && s.Lookup(t.Traversal.RootName()) == nil {
		if v, diags := t.Value(w.ctx); !diags.HasErrors() && v.IsKnown() && !v.IsNull() && v.CanIterateElements() {
			iters = max(v.LengthInt(), 1)
		}
	}
	// outer is at most max+1 and iters the length of a value in memory:
	// the product does not overflow.
	total := min(outer*iters, w.max+1)
	if total > w.max && w.diag == nil {
		w.diag = &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Too many values",
			Detail:   fmt.Sprintf("This for expression would make more than %d elements in all: %d each of the %d times the for expressions around it run it. The limit, which --max-values raises, keeps a plan from building values until memory runs out.", w.max, iters, outer),
			Subject:  f.Range().Ptr(),
		}
	}
	w.walk(f.CollExpr, s, outer)
	inner := s.For(f)
	for _, part := range []hclsyntax.Expression{f.KeyExpr, f.ValExpr, f.CondExpr} {
		if part != nil {
			w.walk(part, inner, total)
		}
	}
	return false
}
