package hcl

import (
	"fmt"
	"maps"
	"math/big"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// repetition is how a resource or module call is repeated.
type repetition int

const (
	single  repetition = iota
	counted            // count = N: a tuple of instances
	keyed              // for_each: an object of instances by key
	toggled            // lifecycle { enabled }: the instance or null
	invalid            // the repetition argument could not be evaluated
)

// instance is one key of a repeated object and the names its expressions
// see.
type instance struct {
	key   cty.Value // cty.NilVal for single and toggled objects
	scope *scope
}

// MaxInstances is the most resource and module instances that one plan
// makes unless Options.MaxInstances says otherwise (hcl2cue plan and
// verify --max-instances): far more than real modules have, few enough that
// a module cannot keep the planner busy for more than a few seconds or take
// more than a few hundred MB.
const MaxInstances = 20_000

// tooManyDetail is the detail of the error for a plan that would make
// more than the limit's instances.
const tooManyDetail = "This plan would make more than %d resource and module instances (the limit, which --max-instances raises); the planner stops here."

// reserve counts n more instances for the plan, and reports an error at
// expr (or, for a declaration without count or for_each, at decl) when
// that exceeds the limit. The error is reported once per plan phase.
func (m *module) reserve(n int, expr hcl.Expression, decl hcl.Range) bool {
	over := m.p.instances > m.p.maxInstances
	m.p.instances += n
	if m.p.instances <= m.p.maxInstances {
		return true
	}
	if over {
		return false // said already
	}
	if expr != nil {
		m.argError(expr, "Too many instances", tooManyDetail, m.p.maxInstances)
	} else {
		m.p.report(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Too many instances", Detail: fmt.Sprintf(tooManyDetail, m.p.maxInstances), Subject: decl.Ptr()})
	}
	return false
}

// expand evaluates count, for_each or enabled (at most one is set; the
// loader reports more) and returns the instances they make; decl is the
// declaration's range.
func (m *module) expand(count, forEach, enabled hcl.Expression, decl hcl.Range) ([]instance, repetition) {
	switch {
	case count != nil:
		n, ok := m.countValue(count)
		if !ok || !m.reserve(n, count, decl) {
			return nil, invalid
		}
		out := make([]instance, n)
		for i := range n {
			k := cty.NumberIntVal(int64(i))
			out[i] = instance{key: k, scope: &scope{countIndex: k}}
		}
		return out, counted
	case forEach != nil:
		elems, ok := m.forEachValue(forEach)
		if !ok || !m.reserve(len(elems), forEach, decl) {
			return nil, invalid
		}
		var out []instance
		for _, k := range slices.Sorted(maps.Keys(elems)) {
			key := cty.StringVal(k)
			out = append(out, instance{key: key, scope: &scope{eachKey: key, eachValue: elems[k]}})
		}
		return out, keyed
	case enabled != nil:
		on, ok := m.enabledValue(enabled)
		if !ok {
			return nil, invalid
		}
		if !on {
			return nil, toggled
		}
		if !m.reserve(1, nil, decl) {
			return nil, invalid
		}
		return []instance{{scope: &scope{}}}, toggled
	}
	if !m.reserve(1, nil, decl) {
		return nil, invalid
	}
	return []instance{{scope: &scope{}}}, single
}

// assemble is the value that references to a repeated object see.
func assemble(rep repetition, keys []instance, vals []cty.Value, nullType cty.Type) cty.Value {
	switch rep {
	case counted:
		if len(vals) == 0 {
			return cty.EmptyTupleVal
		}
		return cty.TupleVal(vals)
	case keyed:
		attrs := map[string]cty.Value{}
		for i, in := range keys {
			attrs[in.key.AsString()] = vals[i]
		}
		return cty.ObjectVal(attrs)
	case toggled:
		if len(vals) == 0 {
			return cty.NullVal(nullType)
		}
		return vals[0]
	case single:
		return vals[0]
	}
	return cty.DynamicVal
}

func (m *module) argError(expr hcl.Expression, summary, detail string, args ...any) {
	m.p.report(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: fmt.Sprintf(detail, args...), Subject: expr.Range().Ptr(), Expression: expr})
}

// countValue evaluates count with OpenTofu's rules and messages.
func (m *module) countValue(expr hcl.Expression) (int, bool) {
	v, diags := m.evalExpr(expr, nil)
	m.p.report(diags...)
	if diags.HasErrors() {
		return 0, false
	}
	v, _ = v.UnmarkDeep()
	const summary = "Invalid count argument"
	switch {
	case !v.IsKnown():
		m.argError(expr, summary, `The "count" value depends on resource attributes that cannot be determined until apply, so OpenTofu cannot predict how many instances will be created. To work around this, use the -target argument to first apply only the resources that the count depends on.`)
		return 0, false
	case v.IsNull():
		m.argError(expr, summary, `The given "count" argument value is null. An integer is required.`)
		return 0, false
	}
	n, err := convert.Convert(v, cty.Number)
	if err != nil {
		m.argError(expr, summary, `The given "count" argument value is unsuitable: %s.`, err)
		return 0, false
	}
	f := n.AsBigFloat()
	if !f.IsInt() {
		m.argError(expr, summary, `The given "count" argument value is unsuitable: value must be a whole number.`)
		return 0, false
	}
	i, acc := f.Int64()
	if acc != big.Exact || i > int64(m.p.maxInstances) {
		m.argError(expr, summary, `The given "count" argument value is unsuitable: value is too large: more than the %d instances a plan may make (the limit, which --max-instances raises).`, m.p.maxInstances)
		return 0, false
	}
	if i < 0 {
		m.argError(expr, summary, `The given "count" argument value is unsuitable: must be greater than or equal to zero.`)
		return 0, false
	}
	return int(i), true
}

// forEachValue evaluates for_each with OpenTofu's rules and messages: a
// map or object (its values may be unknown, its keys may not), or a set of
// known strings; nothing sensitive.
func (m *module) forEachValue(expr hcl.Expression) (map[string]cty.Value, bool) {
	v, diags := m.evalExpr(expr, nil)
	m.p.report(diags...)
	if diags.HasErrors() {
		return nil, false
	}
	const summary = "Invalid for_each argument"
	if v.HasMark("sensitive") {
		m.argError(expr, summary, `Sensitive values, or values derived from sensitive values, cannot be used as for_each arguments. If used, the sensitive value could be exposed as a resource instance key.`)
		return nil, false
	}
	ty := v.Type()
	switch {
	case v.IsKnown() && v.IsNull():
		m.argError(expr, summary, `The given "for_each" argument value is unsuitable: the given "for_each" argument value is null. A map, or set of strings is allowed.`)
		return nil, false
	case ty.IsMapType() || ty.IsObjectType():
		if !v.IsKnown() {
			m.argError(expr, summary, `The "for_each" map includes keys derived from resource attributes that cannot be determined until apply, and so OpenTofu cannot determine the full set of keys that will identify the instances of this resource.`)
			return nil, false
		}
		return v.AsValueMap(), true
	case ty.IsSetType():
		if !ty.ElementType().Equals(cty.String) && ty.ElementType() != cty.DynamicPseudoType {
			m.argError(expr, summary, `The given "for_each" argument value is unsuitable: "for_each" supports maps and sets of strings, but you have provided a set containing type %s.`, ty.ElementType().FriendlyName())
			return nil, false
		}
		if !v.IsWhollyKnown() {
			m.argError(expr, summary, `The "for_each" set includes values derived from resource attributes that cannot be determined until apply, and so OpenTofu cannot determine the full set of keys that will identify the instances of this resource.`)
			return nil, false
		}
		out := map[string]cty.Value{}
		for _, e := range v.AsValueSlice() {
			e, _ = e.Unmark()
			if e.IsNull() {
				m.argError(expr, summary, `The given "for_each" argument value is unsuitable: "for_each" sets must not contain null values.`)
				return nil, false
			}
			s, err := convert.Convert(e, cty.String)
			if err != nil {
				m.argError(expr, summary, `The given "for_each" argument value is unsuitable: "for_each" supports maps and sets of strings, but you have provided a set containing type %s.`, e.Type().FriendlyName())
				return nil, false
			}
			out[s.AsString()] = e
		}
		return out, true
	case !v.IsKnown() && ty == cty.DynamicPseudoType:
		m.argError(expr, summary, `The "for_each" value depends on resource attributes that cannot be determined until apply, so OpenTofu cannot predict how many instances will be created.`)
		return nil, false
	}
	m.argError(expr, summary, `The given "for_each" argument value is unsuitable: the "for_each" argument must be a map, or set of strings, and you have provided a value of type %s.`, ty.FriendlyName())
	return nil, false
}

// enabledValue evaluates lifecycle { enabled }: a known bool.
func (m *module) enabledValue(expr hcl.Expression) (bool, bool) {
	v, diags := m.evalExpr(expr, nil)
	m.p.report(diags...)
	if diags.HasErrors() {
		return false, false
	}
	v, _ = v.UnmarkDeep()
	const summary = "Invalid enabled argument"
	switch {
	case !v.IsKnown():
		m.argError(expr, summary, `The "enabled" value depends on resource attributes that cannot be determined until apply, so OpenTofu cannot predict whether the object will be created.`)
		return false, false
	case v.IsNull():
		m.argError(expr, summary, `The given "enabled" argument value is null. A boolean is required.`)
		return false, false
	}
	b, err := convert.Convert(v, cty.Bool)
	if err != nil {
		m.argError(expr, summary, `The given "enabled" argument value is unsuitable: %s.`, err)
		return false, false
	}
	return b.True(), true
}
