package hcl

import (
	"maps"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/engine/middleware"
	"github.com/tofucue/tofucue/engine/plan"
)

// instanceHooks calls the middleware hooks of one resource instance in
// one pass: pre-plan and post-plan while planning, pre-apply and
// post-apply while applying. Ephemeral resources are not sent. Returned
// metadata is kept by metadata_key, a later hook's overwriting an
// earlier one's.
type instanceHooks struct {
	m        *module
	r        middleware.Resource
	provider string
	skip     bool
	metadata map[string]cty.Value
}

func (m *module) hooks(r *config.Resource, addr string, action plan.Action, cfgVal cty.Value) *instanceHooks {
	h := &instanceHooks{m: m, provider: m.providerKey(r)}
	h.skip = m.p.chain == nil || r.Mode == config.EphemeralMode
	h.r = middleware.Resource{
		Provider: m.providerName(r),
		Type:     r.Type,
		Name:     r.Name,
		Mode:     middleware.Mode(r.Mode),
		Address:  addr,
		Action:   string(action),
		Config:   cfgVal,
	}
	return h
}

// call runs hook and reports its diagnostics; false when it failed.
func (h *instanceHooks) call(hook string, after cty.Value) bool {
	if h.skip {
		return true
	}
	h.r.Before = cty.NullVal(after.Type())
	h.r.After = after
	md, diags := h.m.p.chain.ResourceHook(h.m.p.ctx, hook, h.provider, h.r)
	h.m.p.report(diags...)
	if len(md) > 0 {
		if h.metadata == nil {
			h.metadata = map[string]cty.Value{}
		}
		maps.Copy(h.metadata, md)
	}
	return !diags.HasErrors()
}

// pre runs pre-plan while planning, with the configuration as after (the
// planned value is not known yet); nothing while applying, where
// preApply runs once the planned value is there.
func (h *instanceHooks) pre(empty cty.Value) bool {
	if h.m.p.phase != planning {
		return true
	}
	after := h.r.Config
	if after == cty.NilVal {
		after = empty
	}
	return h.call(middleware.PrePlan, after)
}

// preApply runs pre-apply with the planned value.
func (h *instanceHooks) preApply(planned cty.Value) bool {
	return h.call(middleware.PreApply, planned)
}

// post runs post-plan with the planned value, or post-apply with the
// applied one.
func (h *instanceHooks) post(val cty.Value) {
	if h.m.p.phase == planning {
		h.call(middleware.PostPlan, val)
	} else {
		h.call(middleware.PostApply, val)
	}
}

// stageHook runs plan-stage-start/-complete or apply-stage-start/-complete.
// The complete hooks get the instances planned or applied.
func (p *planner) stageHook(ph phase, when string) {
	if p.chain == nil {
		return
	}
	hook := map[phase]map[string]string{
		planning: {"start": middleware.PlanStageStart, "complete": middleware.PlanStageComplete},
		applying: {"start": middleware.ApplyStageStart, "complete": middleware.ApplyStageComplete},
	}[ph][when]
	params := map[string]any{}
	if when == "complete" {
		params["resource_count"] = len(p.result.Instances)
	}
	md, diags := p.chain.StageHook(p.ctx, hook, params)
	p.report(diags...)
	if len(md) > 0 {
		if p.result.Metadata == nil {
			p.result.Metadata = map[string]cty.Value{}
		}
		maps.Copy(p.result.Metadata, md)
	}
}

// startMiddleware starts the middleware the options select, with the
// root module's variables, path and functions available to their
// command, args and env.
func (p *planner) startMiddleware(vars map[string]cty.Value, opts middleware.Options) (*middleware.Chain, hcl.Diagnostics) {
	root := &module{p: p, cfg: p.tree.Root}
	paths := map[string]cty.Value{}
	for _, name := range []string{"module", "root", "cwd"} {
		paths[name], _ = root.pathAttr(name)
	}
	marked := map[string]cty.Value{}
	for name, v := range vars {
		if dv := p.tree.Root.Variables[name]; dv != nil && dv.Sensitive {
			v = v.Mark(plan.SensitiveMark)
		}
		marked[name] = v
	}
	opts.EvalContext = &hcl.EvalContext{
		Variables: map[string]cty.Value{"var": cty.ObjectVal(marked), "path": cty.ObjectVal(paths)},
		Functions: p.functionTable(),
	}
	return middleware.Start(p.ctx, p.tree.Root, opts)
}
