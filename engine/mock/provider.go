package mock

import (
	"errors"
	"fmt"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/tofucue/tofucue/config"
)

// Request names one resource instance and carries its configuration.
type Request struct {
	// Addr is the absolute instance address: aws_s3_bucket.b,
	// module.net[0].aws_subnet.a["x"], data.aws_ami.x.
	Addr string
	Mode config.ResourceMode
	Type string
	// Provider is the key of the provider configuration in the root
	// module: "aws" or "aws.west".
	Provider string
	// Config is the decoded configuration, a value of the type's
	// Block.ImpliedType(); it may contain unknowns and marks. Attributes it
	// leaves out are taken as null.
	Config cty.Value
}

// Provider plans, applies and reads resources against the schemas and the
// mocks. It is safe for concurrent use.
type Provider struct {
	schemas *Schemas
	mocks   *Mocks

	mu     sync.Mutex
	warned map[string]bool
}

// New returns a mock provider; m may be nil.
func New(s *Schemas, m *Mocks) *Provider {
	if s == nil {
		s = &Schemas{}
	}
	return &Provider{schemas: s, mocks: m, warned: map[string]bool{}}
}

// Schemas returns the provider's schemas.
func (p *Provider) Schemas() *Schemas { return p.schemas }

// Mocks returns the provider's mocks, nil when there are none.
func (p *Provider) Mocks() *Mocks { return p.mocks }

// Plan returns the planned new state of a managed resource being created:
// the configuration as given, with every computed attribute that it leaves
// null (at any nesting level) unknown. When the mocks that apply to the
// instance say override_during = plan, those attributes get their mock
// values now instead (see Apply).
func (p *Provider) Plan(r Request) (v cty.Value, diags hcl.Diagnostics) {
	defer p.guard(&r, &v, &diags)
	v, diags = p.run(&r, cty.NilVal, false, false)
	if isTerraformData(&r) {
		v = planTerraformData(v)
	}
	return v, diags
}

// Apply returns the applied state: every unknown in planned replaced. A
// computed attribute that the configuration leaves null gets, in order,
// the value of the override_resource that targets the instance, the
// mock_resource defaults for its type, or the generated value. Any other
// unknown (a configuration value that was not known at plan time) takes
// r.Config's value when the caller has evaluated it by now, and a
// generated value otherwise.
func (p *Provider) Apply(r Request, planned cty.Value) (v cty.Value, diags hcl.Diagnostics) {
	defer p.guard(&r, &v, &diags)
	if planned != cty.NilVal && planned.IsNull() {
		return planned, nil
	}
	v, diags = p.run(&r, planned, true, true)
	if isTerraformData(&r) {
		v = applyTerraformData(r.Addr, v)
	}
	return v, diags
}

// Read returns the state of a data source or an ephemeral resource: its
// configuration with every computed attribute left null filled from the
// override_data for the instance, the mock_data defaults for the type, or
// the generated value. When the configuration is not wholly known (the
// read must wait for apply), the computed attributes are unknown, as Plan
// leaves them.
func (p *Provider) Read(r Request) (v cty.Value, diags hcl.Diagnostics) {
	defer p.guard(&r, &v, &diags)
	if r.Config != cty.NilVal && !r.Config.IsWhollyKnown() {
		return p.run(&r, cty.NilVal, false, false)
	}
	return p.run(&r, cty.NilVal, true, false)
}

// guard turns a panic into an error: bad input must never crash the
// caller.
func (p *Provider) guard(r *Request, v *cty.Value, diags *hcl.Diagnostics) {
	if e := recover(); e != nil {
		*v = cty.DynamicVal
		*diags = append(*diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Mock provider failed",
			Detail:   fmt.Sprintf("The mock provider could not compute a value for %s: %v.", r.Addr, e),
		})
	}
}

func (p *Provider) run(r *Request, planned cty.Value, fill, final bool) (cty.Value, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	b := p.schemas.Block(r.Mode, r.Type)
	if b == nil {
		what := map[config.ResourceMode]string{config.ManagedMode: "resource type", config.DataMode: "data source", config.EphemeralMode: "ephemeral resource type"}[r.Mode]
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid " + what,
			Detail:   fmt.Sprintf("The mock providers have no schema for %s %q: no schema file describes it and no module given to Infer declares it.", what, r.Type),
		})
		return cty.DynamicVal, diags
	}
	ty := b.ImpliedType()

	cfg := r.Config
	var cfgMarks []cty.PathValueMarks
	if cfg != cty.NilVal {
		cfg, cfgMarks = cfg.UnmarkDeepWithPaths()
		if !cfg.IsNull() && cfg.IsKnown() {
			if errs := cfg.Type().TestConformance(ty); len(errs) > 0 {
				conv, err := convert.Convert(Complete(cfg, ty), ty)
				if err != nil {
					diags = append(diags, &hcl.Diagnostic{
						Severity: hcl.DiagError,
						Summary:  "Invalid configuration value",
						Detail:   fmt.Sprintf("The configuration of %s does not match the schema of %s: %s.", r.Addr, r.Type, convertMessage(err)),
					})
					return cty.UnknownVal(ty), diags
				}
				cfg = conv
			}
		}
		if cfg.IsNull() {
			cfg = cty.NilVal
		}
	}
	var plannedMarks []cty.PathValueMarks
	if planned != cty.NilVal {
		planned, plannedMarks = planned.UnmarkDeepWithPaths()
	}
	if !final && cfg != cty.NilVal && !cfg.IsKnown() {
		return cty.UnknownVal(ty).MarkWithPaths(cfgMarks), diags
	}

	mt := p.mocks.lookup(r)
	c := &composer{p: p, addr: r.Addr, fill: fill || mt.usePlan, final: final}
	v := c.block(b, cfg, planned, mt.layers, nil)
	diags = append(diags, c.diags...)
	return v.MarkWithPaths(cfgMarks).MarkWithPaths(plannedMarks), diags
}

// Complete adds the attributes an object lacks, as nulls, at every level
// where ty expects an object, so that a caller may leave out what is not
// set (an absent attribute is null, as hcldec decodes it). Collections
// come back as tuples and objects, for convert to turn into ty's types.
func Complete(v cty.Value, ty cty.Type) cty.Value {
	if v.IsNull() || !v.IsKnown() || ty == cty.DynamicPseudoType {
		return v
	}
	vt := v.Type()
	switch {
	case ty.IsObjectType() && vt.IsObjectType():
		vals := map[string]cty.Value{}
		for name, aty := range ty.AttributeTypes() {
			if vt.HasAttribute(name) {
				vals[name] = Complete(v.GetAttr(name), aty)
			} else {
				vals[name] = cty.NullVal(aty)
			}
		}
		for name := range vt.AttributeTypes() {
			if _, ok := vals[name]; !ok {
				vals[name] = v.GetAttr(name)
			}
		}
		return cty.ObjectVal(vals)
	case (ty.IsListType() || ty.IsSetType()) && (vt.IsListType() || vt.IsSetType() || vt.IsTupleType()):
		var elems []cty.Value
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			elems = append(elems, Complete(e, ty.ElementType()))
		}
		if len(elems) == 0 {
			return v
		}
		return cty.TupleVal(elems)
	case ty.IsMapType() && (vt.IsMapType() || vt.IsObjectType()):
		elems := map[string]cty.Value{}
		for it := v.ElementIterator(); it.Next(); {
			k, e := it.Element()
			elems[k.AsString()] = Complete(e, ty.ElementType())
		}
		if len(elems) == 0 {
			return v
		}
		return cty.ObjectVal(elems)
	case ty.IsTupleType() && vt.IsTupleType() && len(ty.TupleElementTypes()) == len(vt.TupleElementTypes()):
		etys := ty.TupleElementTypes()
		elems := v.AsValueSlice()
		for i := range elems {
			elems[i] = Complete(elems[i], etys[i])
		}
		return cty.TupleVal(elems)
	}
	return v
}

func convertMessage(err error) string {
	var pe cty.PathError
	if errors.As(err, &pe) && len(pe.Path) > 0 {
		return fmt.Sprintf("at %s: %s", PathString(pe.Path), pe.Error())
	}
	return err.Error()
}

// composer builds a resource value from its schema, configuration, planned
// value and mocks.
type composer struct {
	p    *Provider
	addr string
	// fill gives computed attributes their mock values (apply, read, or
	// plan when override_during = plan); otherwise they are unknown.
	fill bool
	// final (apply) leaves no unknowns: the known parts of the planned
	// value are kept and every unknown is replaced.
	final bool
	diags hcl.Diagnostics
}

// warn reports a problem with a mocks entry once per provider.
func (c *composer) warn(rng hcl.Range, field, detail string) {
	key := fmt.Sprintf("%s\x00%s\x00%s", rng, field, detail)
	c.p.mu.Lock()
	seen := c.p.warned[key]
	c.p.warned[key] = true
	c.p.mu.Unlock()
	if seen {
		return
	}
	c.diags = append(c.diags, &hcl.Diagnostic{
		Severity: hcl.DiagWarning,
		Summary:  fmt.Sprintf("Ignored mock/override field %q", field),
		Detail:   detail,
		Subject:  rng.Ptr(),
	})
}

func getAttr(v cty.Value, name string) cty.Value {
	if v == cty.NilVal || v.IsNull() || !v.IsKnown() || !v.Type().IsObjectType() || !v.Type().HasAttribute(name) {
		return cty.NilVal
	}
	return v.GetAttr(name)
}

func extend(path cty.Path, step cty.PathStep) cty.Path { return appendPath(path, step) }

// block composes the value of a block from its configuration (cfg) and,
// when applying, its planned value; either may be cty.NilVal.
func (c *composer) block(b *Block, cfg, planned cty.Value, layers []layer, path cty.Path) cty.Value {
	if planned != cty.NilVal && !planned.IsKnown() {
		planned = cty.NilVal
	}
	if cfg != cty.NilVal && !cfg.IsKnown() {
		switch {
		case !c.final:
			return cty.UnknownVal(b.ImpliedType())
		case planned == cty.NilVal:
			return c.generatedBlock(b, layers, path)
		}
		cfg = cty.NilVal
	}
	if cfg != cty.NilVal && cfg.IsNull() {
		cfg = cty.NilVal
	}
	c.checkLayers(b, layers)
	vals := map[string]cty.Value{}
	for _, name := range sortedKeys(b.Attributes) {
		a := b.Attributes[name]
		vals[name] = c.attribute(a, getAttr(cfg, name), getAttr(planned, name), sublayers(layers, name), extend(path, cty.GetAttrStep{Name: name}))
	}
	for _, name := range sortedKeys(b.BlockTypes) {
		nb := b.BlockTypes[name]
		if _, clash := vals[name]; clash || nb == nil {
			continue
		}
		vals[name] = c.nested(nb, getAttr(cfg, name), getAttr(planned, name), c.blockLayers(layers, name), extend(path, cty.GetAttrStep{Name: name}))
	}
	return cty.ObjectVal(vals)
}

// checkLayers warns about mock fields that the block does not have.
func (c *composer) checkLayers(b *Block, layers []layer) {
	for _, l := range layers {
		if !l.values.Type().IsObjectType() {
			continue
		}
		for name := range l.values.Type().AttributeTypes() {
			_, isAttr := b.Attributes[name]
			_, isBlock := b.BlockTypes[name]
			if !isAttr && !isBlock {
				c.warn(l.rng, name, "The resource type has no attribute or block of this name.")
			}
		}
	}
}

// sublayers selects the values the layers give one attribute.
func sublayers(layers []layer, name string) []layer {
	var out []layer
	for _, l := range layers {
		if v := getAttr(l.values, name); v != cty.NilVal {
			out = append(out, layer{v, l.rng})
		}
	}
	return out
}

// blockLayers selects the values the layers give a nested block type:
// objects, applied to every block of the type.
func (c *composer) blockLayers(layers []layer, name string) []layer {
	var out []layer
	for _, l := range sublayers(layers, name) {
		if !l.values.Type().IsObjectType() && !l.values.Type().IsMapType() {
			c.warn(l.rng, name, fmt.Sprintf("Values for a nested block must be an object, applied to each block; got %s.", l.values.Type().FriendlyName()))
			continue
		}
		v := l.values
		if v.Type().IsMapType() {
			v = cty.ObjectVal(v.AsValueMap())
		}
		out = append(out, layer{v, l.rng})
	}
	return out
}

func (c *composer) attribute(a *Attribute, cfg, planned cty.Value, layers []layer, path cty.Path) cty.Value {
	ty := a.impliedType()
	if c.final && planned != cty.NilVal && planned.IsWhollyKnown() {
		return planned
	}
	// At apply, a computed attribute whose value is still wholly unknown
	// is one the provider decides.
	configured := cfg != cty.NilVal && !cfg.IsNull() && (cfg.IsKnown() || !c.final || !a.Computed)
	if configured && len(layers) > 0 {
		c.warn(layers[0].rng, lastName(path), "The attribute is set in the configuration; mocks cannot change configuration values.")
	}
	if !a.Computed && len(layers) > 0 && !configured {
		c.warn(layers[0].rng, lastName(path), "The attribute is not computed; mocks can set only computed attributes.")
	}
	switch {
	case configured && cfg.IsWhollyKnown():
		if a.NestedType != nil {
			return c.nestedAttr(a.NestedType, cfg, planned, layers, path)
		}
		return cfg
	case configured && !c.final:
		if a.NestedType != nil && cfg.IsKnown() {
			return c.nestedAttr(a.NestedType, cfg, planned, layers, path)
		}
		return cfg
	case configured:
		return c.fillUnknowns(cfg, path, a.shape)
	case a.Computed:
		if !c.fill {
			return cty.UnknownVal(unknownType(ty))
		}
		if v, ok := c.fromLayers(layers, ty, path); ok {
			return v
		}
		return generate(c.addr, path, ty, a.shape)
	case c.final && planned != cty.NilVal && !planned.IsNull():
		return c.fillUnknowns(planned, path, a.shape)
	}
	return cty.NullVal(ty)
}

// unknownType is the type of the unknown value planned for a computed
// attribute: a dynamically typed one is planned as a string, the type its
// generated value has.
func unknownType(ty cty.Type) cty.Type {
	if ty == cty.DynamicPseudoType {
		return cty.String
	}
	return ty
}

// fromLayers takes the first mock value given for an attribute that
// converts to its type.
func (c *composer) fromLayers(layers []layer, ty cty.Type, path cty.Path) (cty.Value, bool) {
	for _, l := range layers {
		v, err := convert.Convert(l.values, ty)
		if err != nil {
			c.warn(l.rng, lastName(path), fmt.Sprintf("The value does not fit the attribute's type %s: %s.", friendly(ty), convertMessage(err)))
			continue
		}
		if !v.IsWhollyKnown() {
			continue
		}
		return v, true
	}
	return cty.NilVal, false
}

// fillUnknowns replaces every unknown inside v with the generated value
// for its path, shaped by the uses of that part of the attribute when the
// schema was inferred.
func (c *composer) fillUnknowns(v cty.Value, path cty.Path, shape *useNode) cty.Value {
	out, err := cty.Transform(v, func(p cty.Path, x cty.Value) (cty.Value, error) {
		if x.IsKnown() {
			return x, nil
		}
		full := append(append(cty.Path{}, path...), p...)
		sub := shape.at(p)
		ty := x.Type()
		if ty == cty.DynamicPseudoType && sub != nil {
			ty = sub.typ()
		}
		return generate(c.addr, full, unknownType(ty), sub), nil
	})
	if err != nil {
		return v
	}
	return out
}

// nestedAttr composes a configured attribute of nested attributes: the
// computed attributes it leaves null are filled (or unknown) as the
// top-level ones are.
func (c *composer) nestedAttr(o *Object, cfg, planned cty.Value, layers []layer, path cty.Path) cty.Value {
	b := &Block{Attributes: o.Attributes}
	one := func(cv, pv cty.Value, p cty.Path) cty.Value {
		if !cv.IsKnown() {
			return cv
		}
		if cv.IsNull() {
			return cv
		}
		return c.block(b, cv, pv, c.objectLayers(layers), p)
	}
	switch o.Nesting {
	case NestingSingle, NestingGroup:
		return one(cfg, planned, path)
	default:
		return c.collection(cfg, planned, path, func(cv, pv cty.Value, p cty.Path) cty.Value { return one(cv, pv, p) })
	}
}

// objectLayers narrows the layers to the object-valued ones.
func (c *composer) objectLayers(layers []layer) []layer {
	var out []layer
	for _, l := range layers {
		if l.values.Type().IsObjectType() {
			out = append(out, l)
		}
	}
	return out
}

// nested composes the value of a nested block type.
func (c *composer) nested(nb *NestedBlock, cfg, planned cty.Value, layers []layer, path cty.Path) cty.Value {
	if c.final && planned != cty.NilVal && planned.IsWhollyKnown() {
		return planned
	}
	src, psrc := cfg, planned
	switch {
	case c.final && (cfg == cty.NilVal || !cfg.IsWhollyKnown()) && planned != cty.NilVal && planned.IsKnown():
		// The configuration is not (yet) known: build on the planned blocks.
		src = planned
	case cfg != cty.NilVal && !cfg.IsKnown():
		if !c.final {
			return cfg
		}
		return c.generateBlocks(nb, layers, path)
	}
	if src == cty.NilVal || src.IsNull() {
		if nb.Nesting == NestingGroup {
			return c.block(nb.Block, cty.NilVal, cty.NilVal, layers, path)
		}
		if nb.Nesting == NestingSingle {
			return cty.NullVal(nb.Block.ImpliedType())
		}
		return nb.emptyValue()
	}
	switch nb.Nesting {
	case NestingSingle, NestingGroup:
		return c.block(nb.Block, src, psrc, layers, path)
	}
	return c.collection(src, psrc, path, func(cv, pv cty.Value, p cty.Path) cty.Value {
		return c.block(nb.Block, cv, pv, layers, p)
	})
}

// generateBlocks makes up the blocks of a nested block type whose
// configuration is still unknown at apply (a dynamic block whose for_each
// was never known): one block, at [0] (or ["key"] for a map block), so
// that references to the first block reach a value.
func (c *composer) generateBlocks(nb *NestedBlock, layers []layer, path cty.Path) cty.Value {
	switch nb.Nesting {
	case NestingSingle, NestingGroup:
		return c.generatedBlock(nb.Block, layers, path)
	case NestingMap:
		one := c.generatedBlock(nb.Block, layers, extend(path, cty.IndexStep{Key: cty.StringVal("key")}))
		if nb.Block.ImpliedType().HasDynamicTypes() {
			return cty.ObjectVal(map[string]cty.Value{"key": one})
		}
		return cty.MapVal(map[string]cty.Value{"key": one})
	}
	one := c.generatedBlock(nb.Block, layers, extend(path, cty.IndexStep{Key: cty.NumberIntVal(0)}))
	switch {
	case nb.Nesting == NestingSet:
		return cty.SetVal([]cty.Value{one})
	case nb.Block.ImpliedType().HasDynamicTypes():
		return cty.TupleVal([]cty.Value{one})
	}
	return cty.ListVal([]cty.Value{one})
}

// generatedBlock makes up a block whose configuration is unknown at apply:
// its arguments null, its computed attributes and its nested blocks
// generated.
func (c *composer) generatedBlock(b *Block, layers []layer, path cty.Path) cty.Value {
	vals := map[string]cty.Value{}
	for _, name := range sortedKeys(b.Attributes) {
		vals[name] = c.attribute(b.Attributes[name], cty.NilVal, cty.NilVal, sublayers(layers, name), extend(path, cty.GetAttrStep{Name: name}))
	}
	for _, name := range sortedKeys(b.BlockTypes) {
		if _, clash := vals[name]; clash || b.BlockTypes[name] == nil {
			continue
		}
		vals[name] = c.generateBlocks(b.BlockTypes[name], c.blockLayers(layers, name), extend(path, cty.GetAttrStep{Name: name}))
	}
	return cty.ObjectVal(vals)
}

// collection rebuilds a list, set, map, tuple or object value element by
// element. Elements of lists, tuples and sets are at [i] (sets in their
// iteration order); those of maps and objects at ["key"].
func (c *composer) collection(v, planned cty.Value, path cty.Path, each func(cv, pv cty.Value, p cty.Path) cty.Value) cty.Value {
	if v.IsNull() || !v.IsKnown() {
		return v
	}
	ty := v.Type()
	plannedAt := func(k cty.Value) cty.Value {
		if planned == cty.NilVal || planned.IsNull() || !planned.IsKnown() || planned.Type().IsSetType() || !planned.Type().Equals(ty) {
			return cty.NilVal
		}
		if has := planned.HasIndex(k); !has.IsKnown() || has.False() {
			return cty.NilVal
		}
		return planned.Index(k)
	}
	switch {
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType():
		var elems []cty.Value
		i := 0
		for it := v.ElementIterator(); it.Next(); i++ {
			k, e := it.Element()
			if ty.IsSetType() {
				k = cty.NumberIntVal(int64(i))
			}
			elems = append(elems, each(e, plannedAt(k), extend(path, cty.IndexStep{Key: cty.NumberIntVal(int64(i))})))
		}
		switch {
		case ty.IsTupleType():
			return cty.TupleVal(elems)
		case len(elems) == 0:
			return v
		case !sameTypes(elems):
			return cty.TupleVal(elems)
		case ty.IsSetType():
			return cty.SetVal(elems)
		}
		return cty.ListVal(elems)
	case ty.IsMapType() || ty.IsObjectType():
		elems := map[string]cty.Value{}
		for it := v.ElementIterator(); it.Next(); {
			k, e := it.Element()
			elems[k.AsString()] = each(e, plannedAt(k), extend(path, cty.IndexStep{Key: k}))
		}
		switch {
		case ty.IsObjectType():
			return cty.ObjectVal(elems)
		case len(elems) == 0:
			return v
		case !sameTypes(mapValues(elems)):
			return cty.ObjectVal(elems)
		}
		return cty.MapVal(elems)
	}
	return v
}

func sameTypes(vals []cty.Value) bool {
	for _, v := range vals[1:] {
		if !v.Type().Equals(vals[0].Type()) {
			return false
		}
	}
	return true
}

func mapValues(m map[string]cty.Value) []cty.Value {
	out := make([]cty.Value, 0, len(m))
	for _, k := range sortedKeys(m) {
		out = append(out, m[k])
	}
	return out
}
