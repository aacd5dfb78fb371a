package hcl

import (
	"fmt"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
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
			if ty := v.Type(); (ty.IsCollectionType() || ty.IsTupleType()) && v.IsKnown() && !v.IsNull() {
				p.produced += v.LengthInt()
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
