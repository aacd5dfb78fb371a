package hcl

import (
	"maps"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/dynblock"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/engine/mock"
	"github.com/tofucue/tofucue/engine/plan"
)

// evalResource plans (or applies) every instance of a resource, data
// source or ephemeral resource and returns the value references to it
// see.
func (m *module) evalResource(r *config.Resource) cty.Value {
	m.dependOn(r.DependsOn)
	block := m.p.provider.Schemas().Block(r.Mode, r.Type)
	if block == nil {
		m.p.report(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "No schema for resource type", Detail: "The mock provider has no schema for " + r.Mode.BlockType() + " type " + r.Type + ".", Subject: r.DeclRange().Ptr()})
		return cty.DynamicVal
	}
	keys, rep := m.expand(r.Count, r.ForEach, r.Enabled, r.DeclRange())
	if rep == invalid {
		return cty.DynamicVal
	}
	vals := make([]cty.Value, len(keys))
	for i, in := range keys {
		if m.p.interrupted() {
			return cty.DynamicVal
		}
		vals[i] = m.planInstance(r, block, in)
	}
	return assemble(rep, keys, vals, block.ImpliedType())
}

// planInstance evaluates one instance: preconditions, configuration
// (dynamic blocks expanded, decoded with the schema), the mock provider's
// planned or applied value, postconditions; and records it in the plan.
func (m *module) planInstance(r *config.Resource, block *mock.Block, in instance) cty.Value {
	addr := r.Addr() + plan.KeyString(in.key)
	if m.addr != "" {
		addr = m.addr + "." + addr
	}
	for _, rule := range r.Lifecycle.Preconditions {
		m.checkRule(rule, in.scope, "Resource precondition failed", hcl.DiagError)
	}

	cfgVal, ok := m.decodeConfig(r.Config, block, in.scope)
	if !ok {
		return cty.UnknownVal(block.ImpliedType())
	}
	// The mock provider sees unmarked values; the marks go back on after.
	raw, marks := cfgVal.UnmarkDeepWithPaths()
	req := mock.Request{Addr: addr, Mode: r.Mode, Type: r.Type, Provider: m.providerKey(r), Config: raw}

	action := plan.Create
	switch {
	case r.Mode != config.ManagedMode && raw.IsWhollyKnown() && (m.p.phase == applying || !m.dataDeferred(r)):
		action = plan.NoOp
	case r.Mode != config.ManagedMode:
		action = plan.Read
	}
	hooks := m.hooks(r, addr, action, cfgVal)
	if !hooks.pre(cty.NullVal(block.ImpliedType())) {
		return cty.UnknownVal(block.ImpliedType())
	}

	var val cty.Value
	var diags hcl.Diagnostics
	switch {
	case r.Mode == config.ManagedMode:
		val, diags = m.p.provider.Plan(req)
		if m.p.phase == applying && !diags.HasErrors() {
			planned := markSensitive(block, val.MarkWithPaths(marks))
			if !hooks.preApply(planned) {
				return cty.UnknownVal(block.ImpliedType())
			}
			var d hcl.Diagnostics
			val, d = m.p.provider.Apply(req, val)
			diags = append(diags, d...)
		}
	case action == plan.NoOp:
		val, diags = m.p.provider.Read(req)
	default:
		val, diags = m.p.provider.Plan(req)
	}
	for _, d := range diags {
		if d.Subject == nil {
			d.Subject = r.DeclRange().Ptr()
		}
	}
	m.p.report(diags...)
	if diags.HasErrors() {
		return cty.UnknownVal(block.ImpliedType())
	}
	val = markSensitive(block, val.MarkWithPaths(marks))
	hooks.post(val)

	for _, rule := range r.Lifecycle.Postconditions {
		sc := *in.scope
		sc.self = val
		m.checkRule(rule, &sc, "Resource postcondition failed", hcl.DiagError)
	}
	if r.Mode != config.EphemeralMode {
		m.record(r, in.key, addr, action, val, hooks.metadata)
	}
	if m.p.phase == applying && len(r.Provisioners) > 0 {
		if rec := m.p.byAddr[addr]; rec != nil {
			rec.Provisioners = m.provisioners(r, in.scope, val)
		}
	}
	return val
}

// provisioners evaluates the provisioner blocks of an applied instance
// with self its value, as OpenTofu does when it runs them; see
// plan.Instance.Provisioners.
func (m *module) provisioners(r *config.Resource, sc *scope, self cty.Value) cty.Value {
	s := *sc
	s.self = self
	var out []cty.Value
	for _, p := range r.Provisioners {
		conn := cty.NullVal(cty.DynamicPseudoType)
		if c := p.Connection; c != nil {
			conn = m.arguments(c.Config, &s)
		} else if r.Connection != nil {
			conn = m.arguments(r.Connection.Config, &s)
		}
		out = append(out, cty.ObjectVal(map[string]cty.Value{
			"type":       cty.StringVal(p.Type),
			"when":       cty.StringVal(p.When),
			"on_failure": cty.StringVal(p.OnFailure),
			"config":     m.arguments(p.Config, &s),
			"connection": conn,
		}))
	}
	return cty.TupleVal(out)
}

// arguments evaluates the arguments of a body that has no schema here (a
// provisioner's, a connection's) as an object.
func (m *module) arguments(body hcl.Body, sc *scope) cty.Value {
	attrs, diags := config.Arguments(body)
	m.p.report(diags...)
	vals := map[string]cty.Value{}
	for name, a := range attrs {
		v, diags := m.evalExpr(a.Expr, sc)
		m.p.report(diags...)
		vals[name] = v
	}
	return cty.ObjectVal(vals)
}

// decodeConfig evaluates a resource body against its schema, after
// expanding its dynamic blocks.
func (m *module) decodeConfig(body hcl.Body, block *mock.Block, sc *scope) (cty.Value, bool) {
	ctx, diags := m.bodyContext(body, sc)
	m.p.report(diags...)
	if diags.HasErrors() {
		return cty.NilVal, false
	}
	if d := forBudget(body, ctx, m.p.maxValues); d != nil {
		m.p.report(d)
		return cty.NilVal, false
	}
	expanded := dynblock.Expand(body, ctx)
	val, diags := hcldec.Decode(expanded, block.DecoderSpec(), ctx)
	m.p.report(diags...)
	if diags.HasErrors() {
		return cty.NilVal, false
	}
	return val, true
}

// dataDeferred tells whether a data source must wait for apply because it
// depends (through depends_on, its own or its module call's) on a pending
// change: any managed resource or module call, all of which are being
// created.
func (m *module) dataDeferred(r *config.Resource) bool {
	if m.deferData {
		return true
	}
	for _, tr := range r.DependsOn {
		if root := tr.RootName(); root != "data" {
			return true
		}
	}
	return false
}

// record puts an instance's value into the plan: a new instance while
// planning, its applied value while applying.
func (m *module) record(r *config.Resource, key cty.Value, addr string, action plan.Action, val cty.Value, metadata map[string]cty.Value) {
	if m.p.phase == applying {
		if in := m.p.byAddr[addr]; in != nil {
			in.Applied = val
			in.AppliedMetadata = maps.Clone(in.Metadata)
			if in.AppliedMetadata == nil && len(metadata) > 0 {
				in.AppliedMetadata = map[string]cty.Value{}
			}
			maps.Copy(in.AppliedMetadata, metadata)
		}
		return
	}
	in := &plan.Instance{
		Module:       m.addr,
		Mode:         r.Mode,
		Type:         r.Type,
		Name:         r.Name,
		Key:          key,
		ProviderName: m.providerName(r),
		Action:       action,
		Planned:      val,
		Metadata:     metadata,
	}
	m.p.result.Instances = append(m.p.result.Instances, in)
	m.p.byAddr[addr] = in
}

// providerLocal is the provider configuration a resource uses in its own
// module: its provider argument, or the provider its type name implies.
func providerLocal(r *config.Resource) (name, key string) {
	if r.Provider != nil {
		return r.Provider.Name, r.Provider.String()
	}
	name, _, _ = strings.Cut(r.Type, "_")
	return name, name
}

// providerKey is the root module's provider configuration that a
// resource's provider stands for.
func (m *module) providerKey(r *config.Resource) string {
	_, key := providerLocal(r)
	if root, ok := m.providers[key]; ok {
		return root
	}
	return key
}

// providerName is the provider's address, as a plan names it: from the
// schema file, else from the module's required_providers, else the
// provider the name implies (config.ImpliedProvider).
func (m *module) providerName(r *config.Resource) string {
	if addr := m.p.provider.Schemas().ProviderAddr(r.Mode, r.Type); addr != "" {
		return addr
	}
	name, _ := providerLocal(r)
	if m.cfg.Terraform != nil {
		if rp := m.cfg.Terraform.RequiredProviders[name]; rp != nil && rp.Addr.Type != "" {
			return rp.Addr.String()
		}
	}
	return config.ImpliedProvider(name).String()
}

// markSensitive marks the attributes that the schema says are sensitive,
// at every nesting level.
func markSensitive(b *mock.Block, v cty.Value) cty.Value {
	if b == nil || v.IsNull() || !v.IsKnown() || !v.Type().IsObjectType() {
		return v
	}
	v, marks := v.Unmark()
	attrs := v.AsValueMap()
	changed := false
	for name, a := range b.Attributes {
		if av, ok := attrs[name]; ok && a.Sensitive {
			attrs[name] = av.Mark(plan.SensitiveMark)
			changed = true
		}
	}
	for name, nb := range b.BlockTypes {
		av, ok := attrs[name]
		if !ok {
			continue
		}
		if nv := markNested(nb, av); !nv.RawEquals(av) {
			attrs[name] = nv
			changed = true
		}
	}
	if !changed {
		return v.WithMarks(marks)
	}
	return cty.ObjectVal(attrs).WithMarks(marks)
}

func markNested(nb *mock.NestedBlock, v cty.Value) cty.Value {
	if v.IsNull() || !v.IsKnown() {
		return v
	}
	v, marks := v.Unmark()
	ty := v.Type()
	switch {
	case nb.Nesting == mock.NestingSingle || nb.Nesting == mock.NestingGroup || ty.IsObjectType() && nb.Nesting != mock.NestingMap:
		return markSensitive(nb.Block, v).WithMarks(marks)
	case v.LengthInt() == 0:
		return v.WithMarks(marks)
	case ty.IsMapType() || ty.IsObjectType():
		m := v.AsValueMap()
		for k, e := range m {
			m[k] = markSensitive(nb.Block, e)
		}
		if ty.IsMapType() {
			return cty.MapVal(m).WithMarks(marks)
		}
		return cty.ObjectVal(m).WithMarks(marks)
	}
	elems := v.AsValueSlice()
	for i, e := range elems {
		elems[i] = markSensitive(nb.Block, e)
	}
	switch {
	case ty.IsListType():
		return cty.ListVal(elems).WithMarks(marks)
	case ty.IsSetType():
		return cty.SetVal(elems).WithMarks(marks)
	}
	return cty.TupleVal(elems).WithMarks(marks)
}
