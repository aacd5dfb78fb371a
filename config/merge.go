package config

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// mergeFile applies the declarations of an override file to the module, the
// way OpenTofu merges override files: each override declaration must match
// a primary one, and replaces the arguments and nested block types it gives.
func (l *loader) mergeFile(f *file) {
	m := l.mod
	d := &decoder{path: f.path, override: true, opts: &l.opts}
	defer func() { l.report(d.diags...) }()

	var backend, cloud *Backend
	for _, t := range f.terraform {
		if t.Backend != nil {
			if backend != nil {
				d.errorf(t.Backend.DeclRange, "Duplicate backend configuration", "Each override file may have only one backend configuration. A backend was previously configured at %s.", backend.DeclRange)
				t.Backend = nil
			} else {
				backend = t.Backend
			}
		}
		if t.Cloud != nil {
			if cloud != nil {
				d.errorf(t.Cloud.DeclRange, "Duplicate cloud configurations", "Each override file may have only one 'cloud' block configuring a cloud backend. A cloud backend was previously configured at %s.", cloud.DeclRange)
				t.Cloud = nil
			} else {
				cloud = t.Cloud
			}
		}
		mergeTerraform(m.Terraform, t)
	}
	for _, v := range f.variables {
		base, ok := m.Variables[v.Name]
		if !ok {
			d.errorf(v.Decl, "Missing base variable declaration to override", "There is no variable named %q. An override file can only override a variable that was already declared in a primary configuration file.", v.Name)
			continue
		}
		base.merge(d, v)
	}
	for _, lv := range f.locals {
		base, ok := m.Locals[lv.Name]
		if !ok {
			d.errorf(lv.NameRange, "Missing base local value definition to override", "There is no local value named %q. An override file can only override a local value that was already defined in a primary configuration file.", lv.Name)
			continue
		}
		base.Expr = lv.Expr
	}
	for _, o := range f.outputs {
		base, ok := m.Outputs[o.Name]
		if !ok {
			d.errorf(o.Decl, "Missing base output definition to override", "There is no output named %q. An override file can only override an output that was already defined in a primary configuration file.", o.Name)
			continue
		}
		base.merge(o)
	}
	for _, mc := range f.moduleCalls {
		base, ok := m.ModuleCalls[mc.Name]
		if !ok {
			d.errorf(mc.Decl, "Missing module call to override", "There is no module call named %q. An override file can only override a module call that was defined in a primary configuration file.", mc.Name)
			continue
		}
		base.merge(mc)
	}
	mergeResources(d, m.ManagedResources, f.managed, "Missing resource to override", "resource")
	mergeResources(d, m.DataResources, f.data, "Missing data resource to override", "data resource")
	mergeResources(d, m.EphemeralResources, f.ephemeral, "Missing ephemeral resource to override", "ephemeral resource")
	for _, p := range f.providers {
		base, ok := m.ProviderConfigs[p.Key()]
		if !ok {
			if p.Alias != "" {
				d.errorf(p.Decl, "Missing base provider configuration for override", "There is no %s provider configuration with the alias %q. An override file can only override an aliased provider configuration that was already defined in a primary configuration file.", p.Name, p.Alias)
				continue
			}
			// A default provider configuration may be created by an
			// override: it exists implicitly even without a block.
			m.ProviderConfigs[p.Key()] = p
			continue
		}
		base.Config = overrideBody(base.Config, p.Config)
		if p.ForEach != nil {
			base.ForEach = p.ForEach
		}
		if p.Version != nil {
			base.Version = p.Version
		}
		if p.Middleware != nil {
			base.Middleware = p.Middleware
		}
	}
	for _, mw := range f.middleware {
		base, ok := m.Middleware[mw.Name]
		if !ok {
			d.errorf(mw.Decl, "Missing base middleware block to override", "There is no middleware block named %q. An override file can only override a middleware block that was already defined in a primary configuration file.", mw.Name)
			continue
		}
		if mw.Command != nil {
			base.Command = mw.Command
		}
		if mw.Args != nil {
			base.Args = mw.Args
		}
		if mw.Env != nil {
			base.Env = mw.Env
		}
		if mw.MetadataKey != "" {
			base.MetadataKey = mw.MetadataKey
		}
		base.SendSensitive = base.SendSensitive || mw.SendSensitive
	}
	mergeFeatureBlocks(d, m, f.featureBlocks)
}

func mergeTerraform(base, o *Terraform) {
	base.RequiredVersions = append(base.RequiredVersions, o.RequiredVersions...)
	for name, rp := range o.RequiredProviders {
		base.RequiredProviders[name] = rp
	}
	if o.Backend != nil {
		base.Backend, base.Cloud = o.Backend, nil
	}
	if o.Cloud != nil {
		base.Cloud, base.Backend = o.Cloud, nil
	}
	if o.Encryption != nil {
		base.Encryption = o.Encryption
	}
	if o.Middleware != nil {
		base.Middleware = o.Middleware
	}
	for name, pm := range o.ProviderMetas {
		base.ProviderMetas[name] = pm
	}
}

func (v *Variable) merge(d *decoder, o *Variable) {
	if o.descriptionSet {
		v.Description, v.descriptionSet = o.Description, true
	}
	defaultChanged, typeChanged := o.DefaultExpr != nil, o.TypeExpr != nil
	if defaultChanged {
		v.Default, v.DefaultExpr = o.Default, o.DefaultExpr
	}
	if typeChanged {
		v.Type, v.TypeDefaults, v.TypeExpr = o.Type, o.TypeDefaults, o.TypeExpr
	}
	if o.sensitiveSet {
		v.Sensitive, v.sensitiveSet = o.Sensitive, true
	}
	if o.ephemeralSet {
		v.Ephemeral, v.ephemeralSet = o.Ephemeral, true
	}
	if o.constSet {
		v.Const, v.constSet = o.Const, true
	}
	if o.NullableSet {
		v.Nullable, v.NullableSet = o.Nullable, true
	}
	if o.Deprecated != "" {
		v.Deprecated = o.Deprecated
	}
	if len(o.Validations) > 0 {
		v.Validations = o.Validations
	}
	if v.DefaultExpr == nil || (defaultChanged && typeChanged) || (!defaultChanged && !typeChanged) {
		return // the default was checked against the type beside it already
	}
	// One of type and default comes from the override and the other from
	// the base: the combination must still conform.
	val, diags := v.DefaultExpr.Value(nil)
	if diags.HasErrors() || val.IsNull() {
		return
	}
	if v.TypeDefaults != nil {
		val = v.TypeDefaults.Apply(val)
	}
	converted, err := convert.Convert(val, v.Type)
	if err != nil {
		what := "This variable's default value is not compatible with its overridden type constraint"
		if defaultChanged {
			what = "The overridden default value for this variable is not compatible with the variable's type constraint"
		}
		d.errorf(o.Decl, "Invalid default value for variable", "%s: %s.", what, describeConversionError(err))
		v.Default = cty.DynamicVal
		return
	}
	v.Default = converted
}

func (o *Output) merge(over *Output) {
	if over.descriptionSet {
		o.Description, o.descriptionSet = over.Description, true
	}
	if over.Expr != nil {
		o.Expr = over.Expr
	}
	if over.sensitiveSet {
		o.Sensitive, o.sensitiveSet = over.Sensitive, true
	}
	if over.ephemeralSet {
		o.Ephemeral, o.ephemeralSet = over.Ephemeral, true
	}
	if over.Deprecated != "" {
		o.Deprecated = over.Deprecated
	}
	if over.DependsOn != nil {
		o.DependsOn = over.DependsOn
	}
	if over.Preconditions != nil {
		o.Preconditions = over.Preconditions
	}
}

func (mc *ModuleCall) merge(o *ModuleCall) {
	if o.Source != nil {
		mc.Source = o.Source
	}
	if o.VersionExpr != nil {
		mc.VersionExpr = o.VersionExpr
	}
	mc.Count, mc.ForEach, mc.Enabled = mergeRepetition(mc.Count, mc.ForEach, mc.Enabled, o.Count, o.ForEach, o.Enabled)
	if o.DependsOn != nil {
		mc.DependsOn = o.DependsOn
	}
	if o.Providers != nil {
		mc.Providers = o.Providers
	}
	mc.Config = overrideBody(mc.Config, o.Config)
}

// mergeRepetition applies an override's count, for_each and enabled: count
// and for_each replace each other, since a block may have only one.
func mergeRepetition(count, forEach, enabled, oCount, oForEach, oEnabled hcl.Expression) (hcl.Expression, hcl.Expression, hcl.Expression) {
	if oCount != nil {
		count, forEach = oCount, nil
	}
	if oForEach != nil {
		forEach, count = oForEach, nil
	}
	if oEnabled != nil {
		enabled = oEnabled
	}
	return count, forEach, enabled
}

func mergeResources(d *decoder, into map[string]*Resource, rs []*Resource, summary, noun string) {
	for _, r := range rs {
		base, ok := into[r.Key()]
		if !ok {
			d.errorf(r.Decl, summary, "There is no %s %s named %q. An override file can only override a %s block defined in a primary configuration file.", r.Type, noun, r.Name, noun)
			continue
		}
		base.merge(r)
	}
}

func (r *Resource) merge(o *Resource) {
	r.Count, r.ForEach, r.Enabled = mergeRepetition(r.Count, r.ForEach, r.Enabled, o.Count, o.ForEach, o.Enabled)
	if o.Provider != nil {
		r.Provider = o.Provider
	}
	if o.DependsOn != nil {
		r.DependsOn = o.DependsOn
	}
	lc, olc := &r.Lifecycle, &o.Lifecycle
	if olc.CreateBeforeDestroy != nil {
		lc.CreateBeforeDestroy = olc.CreateBeforeDestroy
	}
	if olc.PreventDestroy != nil {
		lc.PreventDestroy = olc.PreventDestroy
	}
	if olc.IgnoreAllChanges || olc.IgnoreChanges != nil {
		lc.IgnoreAllChanges, lc.IgnoreChanges = olc.IgnoreAllChanges, olc.IgnoreChanges
	}
	if olc.ReplaceTriggeredBy != nil {
		lc.ReplaceTriggeredBy = olc.ReplaceTriggeredBy
	}
	if olc.Preconditions != nil {
		lc.Preconditions = olc.Preconditions
	}
	if olc.Postconditions != nil {
		lc.Postconditions = olc.Postconditions
	}
	if o.Connection != nil {
		r.Connection = o.Connection
	}
	if len(o.Provisioners) > 0 {
		r.Provisioners = o.Provisioners
	}
	r.Config = overrideBody(r.Config, o.Config)
}

// overrideBody returns a body that reads like base with over laid on top:
// an argument in over replaces the argument of the same name in base, and a
// nested block type that over uses (directly or as a dynamic block) replaces
// every block of that type in base.
func overrideBody(base, over hcl.Body) hcl.Body {
	return &mergedBody{base: base, over: over}
}

type mergedBody struct {
	base, over hcl.Body
}

func (b *mergedBody) Content(schema *hcl.BodySchema) (*hcl.BodyContent, hcl.Diagnostics) {
	relaxed := relaxSchema(schema)
	bc, diags := b.base.Content(relaxed)
	oc, odiags := b.over.Content(relaxed)
	diags = append(diags, odiags...)
	content := mergeContent(bc, oc)
	for _, a := range schema.Attributes {
		if _, ok := content.Attributes[a.Name]; a.Required && !ok {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Missing required argument",
				Detail:   "The argument \"" + a.Name + "\" is required, but no definition was found.",
				Subject:  b.base.MissingItemRange().Ptr(),
			})
		}
	}
	return content, diags
}

func (b *mergedBody) PartialContent(schema *hcl.BodySchema) (*hcl.BodyContent, hcl.Body, hcl.Diagnostics) {
	relaxed := relaxSchema(schema)
	bc, bremain, diags := b.base.PartialContent(relaxed)
	oc, oremain, odiags := b.over.PartialContent(relaxed)
	diags = append(diags, odiags...)
	return mergeContent(bc, oc), &mergedBody{base: bremain, over: oremain}, diags
}

func (b *mergedBody) JustAttributes() (hcl.Attributes, hcl.Diagnostics) {
	attrs, diags := b.base.JustAttributes()
	oattrs, odiags := b.over.JustAttributes()
	diags = append(diags, odiags...)
	out := hcl.Attributes{}
	for k, v := range attrs {
		out[k] = v
	}
	for k, v := range oattrs {
		out[k] = v
	}
	return out, diags
}

func (b *mergedBody) MissingItemRange() hcl.Range { return b.base.MissingItemRange() }

func relaxSchema(s *hcl.BodySchema) *hcl.BodySchema {
	out := &hcl.BodySchema{Blocks: s.Blocks}
	for _, a := range s.Attributes {
		a.Required = false
		out.Attributes = append(out.Attributes, a)
	}
	return out
}

func mergeContent(base, over *hcl.BodyContent) *hcl.BodyContent {
	out := &hcl.BodyContent{Attributes: hcl.Attributes{}, MissingItemRange: base.MissingItemRange}
	for k, v := range base.Attributes {
		out.Attributes[k] = v
	}
	for k, v := range over.Attributes {
		out.Attributes[k] = v
	}
	replaced := map[string]bool{}
	for _, blk := range over.Blocks {
		if blk.Type == "dynamic" && len(blk.Labels) > 0 {
			replaced[blk.Labels[0]] = true
		} else {
			replaced[blk.Type] = true
		}
	}
	for _, blk := range base.Blocks {
		t := blk.Type
		if t == "dynamic" && len(blk.Labels) > 0 {
			t = blk.Labels[0]
		}
		if !replaced[t] {
			out.Blocks = append(out.Blocks, blk)
		}
	}
	out.Blocks = append(out.Blocks, over.Blocks...)
	return out
}

// joinedBody is the body of a block with "_" escape blocks: their arguments
// join the block's own. It keeps its parts, for tools that walk the syntax.
type joinedBody struct {
	hcl.Body
	parts []hcl.Body
}

// joinEscape returns config with the arguments of a "_" escaping block
// joined in, or reports the block and returns config as it was when the
// block already had one (*seen). what says how its arguments are read;
// owner is the block type that holds it.
func (d *decoder) joinEscape(seen **hcl.Block, b *hcl.Block, config hcl.Body, what, owner string) hcl.Body {
	if *seen != nil {
		d.errorf(b.DefRange, "Duplicate escaping block", "The special block type \"_\" can be used to force particular arguments to be interpreted as %s rather than as meta-arguments, but each %s block can have only one such block. The first escaping block was at %s.", what, owner, (*seen).DefRange)
		return config
	}
	*seen = b
	return joinBodies(config, b.Body)
}

func joinBodies(parts ...hcl.Body) hcl.Body {
	return &joinedBody{Body: hcl.MergeBodies(parts), parts: parts}
}

// BodyParts returns the bodies that a body the loader built is made of: for
// a block that an override file changes, the base body and then the
// override's; for a block with "_" escape blocks, the block's own body and
// then theirs. Any other body is returned alone. The parts may themselves be
// made of parts.
func BodyParts(b hcl.Body) []hcl.Body {
	switch b := b.(type) {
	case *mergedBody:
		return []hcl.Body{b.base, b.over}
	case *joinedBody:
		return b.parts
	}
	return []hcl.Body{b}
}
