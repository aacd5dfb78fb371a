package hcl

import (
	"fmt"
	"maps"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/engine/inputs"
	"github.com/tofucue/tofucue/engine/plan"
)

// evalModuleCall expands a module call into child module instances, after
// its depends_on, and checks its arguments against the child's variables.
// The children's objects are evaluated when they are first used, and all
// of them once the calling module is done (planner.run).
func (m *module) evalModuleCall(c *config.ModuleCall) cty.Value {
	m.dependOn(c.DependsOn)
	cfg := m.childConfig(c)
	if cfg == nil {
		return cty.DynamicVal
	}
	keys, rep := m.expand(c.Count, c.ForEach, c.Enabled, c.DeclRange())
	if rep == invalid {
		return cty.DynamicVal
	}
	attrs, diags := c.Config.JustAttributes()
	m.p.report(diags...)
	for _, name := range slices.Sorted(maps.Keys(attrs)) {
		if cfg.Variables[name] == nil {
			a := attrs[name]
			m.p.report(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unsupported argument", Detail: fmt.Sprintf("An argument named %q is not expected here.", name), Subject: a.NameRange.Ptr()})
		}
	}
	for _, name := range slices.Sorted(maps.Keys(cfg.Variables)) {
		if cfg.Variables[name].Required() && attrs[name] == nil {
			m.p.report(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Missing required argument", Detail: fmt.Sprintf("The argument %q is required, but no definition was found.", name), Subject: c.DeclRange().Ptr()})
		}
	}

	ec := &expandedCall{rep: rep, keys: keys}
	providers := m.childProviders(c)
	for _, in := range keys {
		addr := "module." + c.Name + plan.KeyString(in.key)
		if m.addr != "" {
			addr = m.addr + "." + addr
		}
		site := &callSite{parent: m, call: c, attrs: attrs, scope: in.scope}
		child := m.p.newModule(cfg, addr, site, providers, nil)
		child.deferData = m.deferData || len(c.DependsOn) > 0
		ec.children = append(ec.children, child)
		m.p.modules = append(m.p.modules, child)
	}
	m.calls[c.Name] = ec
	return cty.EmptyObjectVal
}

// evalVariable is an input variable's value: the root's as collected, a
// child's from its call's argument, converted to its type with optional
// defaults applied, or its default; marked when sensitive.
func (m *module) evalVariable(v *config.Variable, vals map[string]cty.Value) cty.Value {
	val, ok := vals[v.Name]
	switch {
	case m.site == nil && !ok:
		val = cty.UnknownVal(v.Type)
	case m.site != nil:
		val = m.argument(v)
	}
	if v.Sensitive {
		val = val.Mark(plan.SensitiveMark)
	}
	return val
}

// argument evaluates a child's variable from its call, in the calling
// module, with the instance's count and each.
func (m *module) argument(v *config.Variable) cty.Value {
	a := m.site.attrs[v.Name]
	if a == nil {
		if v.Required() {
			return cty.UnknownVal(v.Type) // reported with the call
		}
		return v.Default
	}
	raw, diags := m.site.parent.evalExpr(a.Expr, m.site.scope)
	m.p.report(diags...)
	if diags.HasErrors() {
		return cty.UnknownVal(v.Type)
	}
	val, diags := inputs.Prepare(v, raw, a.Expr.Range())
	m.p.report(diags...)
	if diags.HasErrors() {
		return cty.UnknownVal(v.Type)
	}
	return val
}

// childConfig is the loaded module of a call: local, installed or
// mapped (config.Sources). A call whose module is not available is
// reported once, with what to do, and recorded in the plan: its value is
// unknown, as TFLint takes a module it does not call.
func (m *module) childConfig(c *config.ModuleCall) *config.Module {
	child := m.p.tree.Child(c)
	switch {
	case child == nil:
		m.p.report(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Module not loaded", Detail: fmt.Sprintf("The module of call %q was not loaded with the module tree.", c.Name), Subject: c.DeclRange().Ptr()})
		return nil
	case child.Kind == config.NotAvailable:
		if !m.p.unavailable[c] {
			m.p.unavailable[c] = true
			m.p.report(child.Diagnostic)
		}
		addr := "module." + c.Name
		if m.addr != "" {
			addr = m.addr + "." + addr
		}
		m.p.notPlanned = append(m.p.notPlanned, addr)
		return nil
	case child.Module == nil:
		m.p.report(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Module not loaded", Detail: fmt.Sprintf("The module %q at %s could not be loaded.", c.Name, child.Dir), Subject: c.Source.Range().Ptr()})
	}
	return child.Module
}

// childProviders maps the child's provider configurations to the root's:
// the default configurations are inherited by local name, and the call's
// providers argument maps the others.
func (m *module) childProviders(c *config.ModuleCall) map[string]string {
	out := maps.Clone(m.providers)
	if out == nil {
		out = map[string]string{}
	}
	for i := range c.Providers {
		pp := &c.Providers[i]
		parent := pp.InParent.String()
		if root, ok := m.providers[parent]; ok {
			parent = root
		}
		out[pp.InChild.String()] = parent
	}
	return out
}
