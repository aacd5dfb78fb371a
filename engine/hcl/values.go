package hcl

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/engine/inputs"
	"github.com/tofucue/tofucue/engine/plan"
	"github.com/tofucue/tofucue/refs"
)

func (m *module) evalLocal(l *config.Local) cty.Value {
	v, diags := m.evalExpr(l.Expr, nil)
	m.p.report(diags...)
	if diags.HasErrors() {
		return cty.DynamicVal
	}
	return v
}

// evalOutput evaluates an output after its preconditions and depends_on.
// A root output whose value is sensitive must say so, as OpenTofu
// requires; a child's sensitive output is marked sensitive for its
// caller.
func (m *module) evalOutput(o *config.Output) cty.Value {
	m.dependOn(o.DependsOn)
	for _, rule := range o.Preconditions {
		m.checkRule(rule, nil, "Module output value precondition failed", hcl.DiagError)
	}
	v, diags := m.evalExpr(o.Expr, nil)
	m.p.report(diags...)
	if diags.HasErrors() {
		return cty.DynamicVal
	}
	if m.addr == "" && !o.Sensitive && hasSensitive(v) {
		m.p.report(&hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Output refers to sensitive values",
			Detail:   "To reduce the risk of accidentally exporting sensitive data that was intended to be only internal, OpenTofu requires that any root module output containing sensitive data be explicitly marked as sensitive, to confirm your intent.\n\nIf you do intend to export this data, annotate the output value as sensitive by adding the following argument:\n    sensitive = true",
			Subject:  o.Expr.Range().Ptr(),
		})
	}
	if o.Sensitive {
		v = v.Mark(plan.SensitiveMark)
	}
	return v
}

// evalCheck evaluates a check block: its scoped data source, then its
// assertions, whose failures are warnings.
func (m *module) evalCheck(c *config.Check) cty.Value {
	if c.DataSource != nil {
		m.get(c.DataSource.Addr())
	}
	for _, rule := range c.Asserts {
		m.checkRule(rule, nil, "Check block assertion failed", hcl.DiagWarning)
	}
	return cty.EmptyObjectVal
}

// checkRule evaluates a validation, precondition, postcondition or
// assertion. An unknown condition is left for later, as OpenTofu does; a
// false one is reported with its error message.
func (m *module) checkRule(rule *config.CheckRule, sc *scope, summary string, severity hcl.DiagnosticSeverity) {
	cond, diags := m.evalExpr(rule.Condition, sc)
	if diags.HasErrors() {
		m.p.report(diags...)
		return
	}
	cond, _ = cond.UnmarkDeep()
	if !cond.IsWhollyKnown() {
		return
	}
	if cond.IsNull() {
		m.p.report(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid condition result", Detail: "Condition expression must return either true or false, not null.", Subject: rule.Condition.Range().Ptr()})
		return
	}
	b, err := convert.Convert(cond, cty.Bool)
	if err != nil {
		m.p.report(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid condition result", Detail: fmt.Sprintf("Invalid condition result value: %s.", err), Subject: rule.Condition.Range().Ptr()})
		return
	}
	if b.True() {
		return
	}
	d := &hcl.Diagnostic{Severity: severity, Summary: summary, Detail: m.errorMessage(rule, sc), Subject: rule.Condition.Range().Ptr()}
	m.p.report(d)
	// The condition and its context let --synthesize's search see which
	// parts of it fail (planSynthesized).
	found, _ := refs.InExpr(rule.Condition, m.cfg)
	if ctx, _ := m.context(found, sc); ctx != nil {
		if m.p.conditions == nil {
			m.p.conditions = map[*hcl.Diagnostic]condition{}
		}
		m.p.conditions[d] = condition{rule.Condition, ctx}
	}
}

// condition is a failed condition and the context it was evaluated in.
type condition struct {
	expr hcl.Expression
	ctx  *hcl.EvalContext
}

func (m *module) errorMessage(rule *config.CheckRule, sc *scope) string {
	if rule.ErrorMessage == nil {
		return "The condition is false."
	}
	msg, diags := m.evalExpr(rule.ErrorMessage, sc)
	msg, _ = msg.UnmarkDeep()
	if diags.HasErrors() || !msg.IsKnown() || msg.IsNull() {
		return "The error message could not be evaluated."
	}
	s, err := convert.Convert(msg, cty.String)
	if err != nil {
		return "The error message could not be evaluated."
	}
	return s.AsString()
}

// validateVariable runs a variable's validation rules once its value is
// known, in a context that holds what the rules refer to (the variable
// and, as OpenTofu allows, other variables and objects of the module).
func (m *module) validateVariable(v *config.Variable) cty.Value {
	var found []*refs.Reference
	for _, rule := range v.Validations {
		for _, expr := range []hcl.Expression{rule.Condition, rule.ErrorMessage} {
			if expr == nil {
				continue
			}
			r, diags := refs.InExpr(expr, m.cfg)
			m.p.report(diags...)
			found = append(found, r...)
		}
	}
	ctx, diags := m.context(found, nil)
	m.p.report(diags...)
	if !diags.HasErrors() {
		m.p.report(inputs.Validate(v, ctx)...)
	}
	return cty.EmptyObjectVal
}

// dependOn evaluates the objects a depends_on list names, before the
// object that lists them.
func (m *module) dependOn(list []hcl.Traversal) {
	for _, tr := range list {
		found, diags := m.refsOf(tr)
		m.p.report(diags...)
		if found != nil {
			_, diags = m.context(found, nil)
			m.p.report(diags...)
		}
	}
}

// collectOutputs records the root module's outputs in r, for the phase
// just evaluated.
func (m *module) collectOutputs(r *plan.Plan) {
	for name, o := range m.cfg.Outputs {
		v := m.get("output." + name)
		out := r.Outputs[name]
		if out == nil {
			out = &plan.Output{Sensitive: o.Sensitive}
			r.Outputs[name] = out
		}
		if m.p.phase == planning {
			out.Planned = v
		} else {
			out.Applied = v
		}
	}
}

// hasSensitive reports whether any part of v is marked sensitive.
func hasSensitive(v cty.Value) bool {
	_, pvm := v.UnmarkDeepWithPaths()
	for _, pm := range pvm {
		if _, ok := pm.Marks[plan.SensitiveMark]; ok {
			return true
		}
	}
	return false
}
