package cue

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/errors"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/cueform"
	"github.com/tofucue/tofucue/engine/mock"
	"github.com/tofucue/tofucue/engine/plan"
)

// planPass plans every instance, declaration by declaration in
// dependency order. A data source read now, and a managed resource whose
// mocks give computed values at plan time, has its values unified into
// the program before the next declaration is evaluated (with every value
// added so far, into the program the pass started from, as gradual
// does); so is the shape of an instance that the shape rounds did not
// find, which is every instance without them. Batching evaluates them
// only before a declaration that depends on one. The dependencies that
// the analysis missed are found afterwards (see stale.go), among them
// those on values that batching had not evaluated yet.
func (p *planner) planPass() {
	p.planFilled = make([]bool, len(p.resources))
	p.stats.planEvals = 0
	cur := p.start
	var f fills
	applied := 0
	// pending are the declarations that added values cur lacks.
	var pending []int
	for pos, i := range p.order {
		if p.interrupted() {
			return
		}
		d := p.resources[i]
		if pos == p.cyclic && slices.ContainsFunc(p.order[pos:], func(i int) bool { _, done := p.expandedBefore(i); return !done }) {
			cur, applied, pending = p.expandCycle(cur, pos, &f), f.n, nil
		}
		// The instances found before the engine added anything stay
		// the instances: a field the engine adds never makes one.
		insts, expanded := p.expandedBefore(d.index)
		// A declaration expanded by neither the shape rounds nor
		// batching has its instances and their shapes found here, in
		// a program that must hold every value added so far: a shape
		// found where a reference the analysis missed is not there yet
		// takes an argument for one the provider decides.
		partial := !expanded || slices.ContainsFunc(insts, func(in *instance) bool { return in.shape.partial })
		if len(pending) > 0 && (p.batch == nil || partial || slices.ContainsFunc(pending, func(on int) bool { return p.dependsOn(d.index, on) })) {
			cur, applied, pending = f.unifyInto(p.ctx, p.start), f.n, nil
			p.stats.planEvals++
			if partial && p.batch != nil {
				if next, ok := p.batch.expandReady(p, cur, pos, &f); ok {
					cur, applied = next, f.n
					insts, expanded = p.expandedBefore(d.index)
				}
			}
		}
		// Only batching leaves values pending here.
		missed := len(pending) > 0
		if missed {
			p.batch.miss(d.index, pending)
		}
		ok := expanded
		if !expanded {
			n := len(p.diags)
			insts, ok = p.expand(d, cur, true)
			if !ok && !p.lastRun && len(p.diags) > n {
				// Held until the end of the pass, as an instance's
				// configuration is (see planner.heldDecls).
				if p.heldDecls == nil {
					p.heldDecls = map[int]hcl.Diagnostics{}
				}
				p.heldDecls[d.index] = slices.Clone(p.diags[n:])
				p.diags = p.diags[:n]
			}
		}
		if !ok {
			continue
		}
		for _, in := range insts {
			if p.byAddr[in.addr] != nil {
				p.report(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Duplicate resource instance", Detail: fmt.Sprintf("Two declarations make the instance %s.", in.addr), Subject: d.pos})
				continue
			}
			p.byAddr[in.addr] = in
			p.instances = append(p.instances, in)
			if in.shape.partial {
				in.shape = shapeOf(cur.LookupPath(in.path), in.block, in.path)
			}
			before := f.n
			p.planInstance(in, cur, &f)
			if missed {
				// Planned from a program that lacks values added
				// before it: checked at the end of the pass.
				in.planFills = -1
			}
			if f.n > before {
				p.planFilled[d.index] = true
				if !slices.Contains(pending, d.index) {
					pending = append(pending, d.index)
				}
			}
		}
	}
	if f.n > applied {
		cur = f.unifyInto(p.ctx, p.start)
		p.stats.planEvals++
	}
	p.planned = cur
	p.settleHeld(cur)
	p.conditions(cur)
	p.collectOutputs(cur, false)
	p.conflicts(cur)
}

// expandCycle expands, at the first declaration of a cycle (position pos
// of the plan order), every declaration left that is not expanded yet,
// in cur with every value added so far, and adds their shapes to f: the
// declarations of a cycle are planned with what is known, as engine/hcl
// plans them, and what is known of each includes the others' shapes (an
// id of the other that is a string not known yet), which no order can
// put before all of them. It returns the program with f's values.
func (p *planner) expandCycle(cur cue.Value, pos int, f *fills) cue.Value {
	evaluate := func() {
		cur = f.unifyInto(p.ctx, p.start)
		p.stats.planEvals++
	}
	if f.n > 0 {
		evaluate()
	}
	added := f.n
	for _, i := range p.order[pos:] {
		if _, done := p.expandedBefore(i); done {
			continue
		}
		ins, ok := p.expand(p.resources[i], cur, false)
		if !ok || slices.ContainsFunc(ins, func(in *instance) bool { return in.shape.partial }) {
			continue
		}
		if p.cycleExpanded == nil {
			p.cycleExpanded = map[int][]*instance{}
		}
		p.cycleExpanded[i] = ins
		for _, in := range ins {
			if !p.inStart(in.path) {
				in.shape.addTo(f)
				in.shapeAdded = true
			}
		}
	}
	if f.n > added {
		evaluate()
	}
	return cur
}

// planInstance plans one instance as engine/hcl does: the configuration
// decoded with the schema, then the mock provider's plan (managed), or a
// read (a data source whose configuration is known and that does not
// wait for a pending change), or a plan of the read (one that must wait
// for apply).
func (p *planner) planInstance(in *instance, cur cue.Value, f *fills) {
	dec := &decoder{}
	cfg := dec.block(cur.LookupPath(in.path), in.block, in.shape.skip, nil)
	if dec.failed && len(dec.diags) > 0 && !p.lastRun {
		// Held until the end of the pass (see instance.held).
		in.held = dec.diags
		return
	}
	p.report(dec.diags...)
	if dec.failed {
		return
	}
	in.plannedCfg = cfg
	req := p.request(in, cfg)
	action := plan.Create
	switch {
	case in.d.mode != config.ManagedMode && cfg.IsWhollyKnown() && !dataDeferred(in.d):
		action = plan.NoOp
	case in.d.mode != config.ManagedMode:
		action = plan.Read
	}
	var val cty.Value
	var diags hcl.Diagnostics
	if action == plan.NoOp {
		val, diags = p.provider.Read(req)
	} else {
		val, diags = p.provider.Plan(req)
	}
	if p.providerDiags(in, diags) {
		return
	}
	val = markSensitive(in.block, val)
	if in.d.mode != config.EphemeralMode {
		in.rec = &plan.Instance{
			Module:       in.d.module,
			Mode:         in.d.mode,
			Type:         in.d.typ,
			Name:         in.d.rname,
			Key:          in.key,
			ProviderName: p.providerName(in.d),
			Action:       action,
			Planned:      val,
		}
		p.result.Instances = append(p.result.Instances, in.rec)
	}
	if !p.inStart(in.path) && !in.shapeAdded {
		in.shape.addTo(f)
	}
	for _, c := range in.shape.computed {
		av := at(val, c.at)
		switch {
		case av == cty.NilVal:
		case av.IsKnown() && (!av.IsNull() || c.ty == cty.DynamicPseudoType):
			// A value of any type may be planned null, and stays so.
			p.fillComputed(cur, c, av, f)
			p.planFills++
		case !av.IsKnown() && c.ty == cty.DynamicPseudoType && av.Type() != cty.DynamicPseudoType && (av.Type().IsTupleType() || av.Type().IsObjectType() || av.Type().IsPrimitiveType()):
			// The provider plans a value of any type as unknown of a
			// known type (terraform_data's output has input's): what
			// reads it sees that type, as on the HCL side (the length
			// of a tuple, an object's attributes), and not null, which
			// its shape (_) does not say. A tuple or an object is a
			// list or struct, never null, marked as not known
			// (cueform.Unknown): !=null beside it compared a list whose
			// elements are not concrete, an error in CUE, which a try
			// took for one (golden verify try_unknown_tuple).
			f.add(c.path, unknownOfType(av.Type()))
			p.planFills++
		}
	}
	in.planFills = p.planFills
}

// providerDiags reports the mock provider's diagnostics at the
// declaration and tells whether there was an error.
func (p *planner) providerDiags(in *instance, diags hcl.Diagnostics) bool {
	for _, d := range diags {
		if d.Subject == nil {
			d.Subject = in.d.pos
		}
	}
	p.report(diags...)
	return diags.HasErrors()
}

// request is the mock provider's request for an instance.
func (p *planner) request(in *instance, cfg cty.Value) mock.Request {
	return mock.Request{Addr: in.addr, Mode: in.d.mode, Type: in.d.typ, Provider: providerKey(in.d), Config: cfg}
}

// applyPass applies every instance by gradual evaluation. It starts again
// from the program with its inputs and schema types and repeats rounds:
// every instance whose configuration is concrete now (a batch) is planned
// and applied with the mock provider, and the values the provider
// decided (the computed attributes) of the whole batch are unified into
// the program at once; the program is then evaluated again. Only the
// instances whose declaration's dependencies are all applied are looked
// at. When a round finds no concrete instance but some of those
// candidates, their configuration will not be known before apply (a
// timestamp, a uuid): they are applied as they are, as engine/hcl applies
// a configuration that is still unknown. When there is no candidate at
// all, the remaining instances wait on each other: each is reported.
//
// The program starts as the plan pass's start with the shapes of the
// instances that the shape rounds did not find; speculation evaluates it
// with its first markers, and the start alone is evaluated only where
// speculation is off, has nothing to do or guessed wrong.
func (p *planner) applyPass() {
	if p.interrupted() {
		return
	}
	var shapes fills
	for _, in := range p.instances {
		if !p.inStart(in.path) {
			in.shape.addTo(&shapes)
		}
	}
	if p.spec != nil {
		cur := p.gradual(p.spec.run(p, &shapes))
		if p.spec.check(p, cur) {
			p.finish(cur)
			return
		}
		// The speculation guessed wrong somewhere: apply again without
		// it.
		p.stats.fellBack = true
		p.spec.undo(p)
	}
	p.finish(p.gradual(p.applyEval(p.start, &shapes)))
}

// applyEval is unifyAll for the apply pass, which counts the
// evaluations: none where nothing was added.
func (p *planner) applyEval(v cue.Value, fs ...*fills) cue.Value {
	if !slices.ContainsFunc(fs, func(f *fills) bool { return !f.empty() }) {
		return v
	}
	p.stats.applyEvals++
	return unifyAll(p.ctx, v, fs...)
}

// finish records the applied program's outputs and checks its
// conditions.
func (p *planner) finish(cur cue.Value) {
	p.applied = cur
	p.conditions(cur)
	p.provisioners(cur)
	p.collectOutputs(cur, true)
	p.conflicts(cur)
}

// conflicts reports the errors of the program that no declaration's
// evaluation met (a conflict in a field nothing refers to), each at its
// CUE source: those at a position already reported are left out, and so
// are the values that are only incomplete.
func (p *planner) conflicts(cur cue.Value) {
	err := p.validateProgram(cur)
	if err == nil {
		return
	}
	seen := map[string]bool{}
	for _, d := range p.diags {
		if d.Subject != nil {
			seen[d.Subject.Filename+":"+strconv.Itoa(d.Subject.Start.Byte)] = true
		}
	}
	for _, e := range errors.Errors(err) {
		if cue.IsIncomplete(e) {
			continue
		}
		for _, d := range errorDiags(e, "Invalid CUE value", nil) {
			if d.Subject != nil && seen[d.Subject.Filename+":"+strconv.Itoa(d.Subject.Start.Byte)] {
				continue
			}
			p.report(d)
		}
	}
}

// validateProgram validates the program but the templates of the called
// modules (@source): a template is only ever used instantiated, and what
// it reads is not known in it, so its errors (a variable that may be
// null, say) are not the module's. Each instance is validated with the
// field that holds it.
func (p *planner) validateProgram(cur cue.Value) error {
	if len(p.templateHolders) == 0 {
		return cur.Validate()
	}
	it, err := cur.Fields(cue.Hidden(true), cue.Definitions(true), cue.Optional(true))
	if err != nil {
		return err
	}
	var all errors.Error
	for it.Next() {
		if p.templateHolders[it.Selector().String()] {
			continue
		}
		if err := it.Value().Validate(); err != nil {
			all = errors.Append(all, errors.Promote(err, ""))
		}
	}
	if all == nil {
		return nil
	}
	return all
}

// gradual runs the rounds of the apply pass on the instances not applied
// yet. Each round's program is base with every round's values so far,
// not the last round's program with this round's: a value that CUE
// unifies into another keeps that one, and all it evaluated, alive.
//
// A round that can apply nothing but instances whose configuration is
// not known yet first analyzes the dependencies again, on the program
// as it now is: the plan's analysis ran where more of the program was
// an error, and can have made a declaration depend on every other one
// of its module (an implied task), so that one it feeds waits for it
// (terraform-aws-s3-bucket's complete example: a policy document that
// the combined document reads, made to wait for the bucket policy
// that reads the combined one). Only where that finds nothing ready
// either are those instances applied as they are.
func (p *planner) gradual(base cue.Value) cue.Value {
	cur := base
	deps := p.deps
	left := make([]int, len(p.resources))
	for _, in := range p.instances {
		if !in.applied {
			left[in.d.index]++
		}
	}
	// An instance is ready when every instance of the declarations it
	// depends on was applied in an earlier round: the values of this
	// round's are not in the program yet.
	var before []int
	ready := func(d *decl) bool {
		for _, on := range deps[d.index] {
			if before[on] > 0 {
				return false
			}
		}
		return true
	}
	pending := slices.DeleteFunc(slices.Clone(p.instances), func(in *instance) bool { return in.applied })
	var f fills
	applied := 0
	// reanalyzed: the dependencies were analyzed again since the last
	// round that applied something.
	reanalyzed := false
	for len(pending) > 0 && !p.interrupted() {
		before = slices.Clone(left)
		var held []*instance
		var heldCfg []cty.Value
		progressed := false
		for _, in := range pending {
			if !ready(in.d) {
				continue
			}
			dec := &decoder{}
			cfg := dec.block(cur.LookupPath(in.path), in.block, in.shape.skip, nil)
			p.report(dec.diags...)
			if dec.failed {
				// Reported; the instance cannot be applied.
				in.applied = true
				left[in.d.index]--
				progressed = true
				continue
			}
			if !cfg.IsWhollyKnown() {
				held = append(held, in)
				heldCfg = append(heldCfg, cfg)
				continue
			}
			p.applyInstance(cur, in, cfg, &f)
			left[in.d.index]--
			progressed = true
		}
		if !progressed && len(held) > 0 && !reanalyzed {
			reanalyzed = true
			p.stats.reanalyses++
			if again, ok := acyclicDependencies(cur, p.resources); ok {
				deps = again
				continue
			}
		}
		reanalyzed = false
		if !progressed {
			if len(held) == 0 {
				p.stuck(pending)
				break
			}
			for i, in := range held {
				p.applyInstance(cur, in, heldCfg[i], &f)
				left[in.d.index]--
			}
		}
		pending = slices.DeleteFunc(pending, func(in *instance) bool { return in.applied })
		if f.n > applied {
			cur, applied = p.applyEval(base, &f), f.n
		}
		p.stats.rounds++
	}
	return cur
}

// stuck reports the instances that no round could apply.
func (p *planner) stuck(pending []*instance) {
	var names []string
	for _, in := range pending {
		names = append(names, in.addr)
	}
	p.report(&hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Cycle: " + strings.Join(names, ", "),
		Detail:   "These instances wait on each other's values, so none of them can be applied first.",
		Subject:  pending[0].d.pos,
	})
	for _, in := range pending {
		in.applied = true
	}
}

// applyInstance applies one instance with its configuration: plan and
// apply for a managed resource, a read for a data source (or the plan of
// a read whose configuration is still unknown). The values the provider
// decided are added to f.
func (p *planner) applyInstance(cur cue.Value, in *instance, cfg cty.Value, f *fills) {
	in.applied = true
	req := p.request(in, cfg)
	var val cty.Value
	var diags hcl.Diagnostics
	switch {
	case in.d.mode == config.ManagedMode:
		val, diags = p.provider.Plan(req)
		if !diags.HasErrors() {
			var d hcl.Diagnostics
			val, d = p.provider.Apply(req, val)
			diags = append(diags, d...)
		}
	case cfg.IsWhollyKnown():
		val, diags = p.provider.Read(req)
	default:
		val, diags = p.provider.Plan(req)
	}
	if p.providerDiags(in, diags) {
		return
	}
	in.appliedValue = val
	if in.rec != nil {
		in.rec.Applied = markSensitive(in.block, val)
	}
	p.fillApplied(cur, in, cfg, val, f)
}

// fillApplied adds to f what the provider decided for an instance: its
// computed attributes and, for a configuration that was not wholly known
// when it was applied, the values the provider gave those attributes.
func (p *planner) fillApplied(cur cue.Value, in *instance, cfg, val cty.Value, f *fills) {
	val, _ = val.UnmarkDeep()
	if val.IsNull() || !val.IsKnown() || !val.Type().IsObjectType() {
		return
	}
	for _, c := range in.shape.computed {
		if av := at(val, c.at); av != cty.NilVal && av.IsKnown() && (!av.IsNull() || c.ty == cty.DynamicPseudoType) {
			p.fillComputed(cur, c, av, f)
		}
	}
	if cfg.IsWhollyKnown() || !cfg.Type().IsObjectType() {
		return
	}
	for _, name := range sortedKeys(val.Type().AttributeTypes()) {
		if in.block.Attributes[name] == nil || !cfg.Type().HasAttribute(name) || cfg.GetAttr(name).IsWhollyKnown() || in.shape.skip["."+name] {
			continue
		}
		if av := val.GetAttr(name); av.IsKnown() {
			f.add(join(in.path, cue.Str(name)), encode(av))
		}
	}
}

// fillComputed adds a computed attribute's value to f, unless the
// program cannot take it: an attribute null by default whose CUE type
// does not admit the provider's value keeps its null.
func (p *planner) fillComputed(cur cue.Value, c computedAttr, v cty.Value, f *fills) {
	x := encode(v)
	if c.byDefault {
		if fatal(cur.LookupPath(c.path).Unify(p.ctx.BuildExpr(x))) != nil {
			return
		}
	}
	f.add(c.path, x)
}

// dataDeferred tells whether a data source waits for apply because it
// depends (depends_on) on something other than data sources: a pending
// change.
func dataDeferred(d *decl) bool {
	if d.deferData {
		return true
	}
	for _, on := range d.dependsOn {
		if !strings.HasPrefix(on, "data.") {
			return true
		}
	}
	return false
}

// expand returns the instances of a resource declaration in v: one for a
// single declaration, one per list element (count) or struct field
// (for_each) for a [*] one. When the instances cannot be told yet (count
// or for_each depends on something unknown) it reports that, with
// engine/hcl's messages, if report is set.
func (p *planner) expand(d *decl, v cue.Value, report bool) ([]*instance, bool) {
	block := p.provider.Schemas().Block(d.mode, d.typ)
	if block == nil {
		if report {
			what := map[config.ResourceMode]string{config.ManagedMode: "resource", config.DataMode: "data", config.EphemeralMode: "ephemeral"}[d.mode]
			p.report(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "No schema for resource type", Detail: "The mock provider has no schema for " + what + " type " + d.typ + ".", Subject: d.pos})
		}
		return nil, false
	}
	dv := v.LookupPath(d.path)
	if !dv.Exists() {
		if report {
			p.report(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Declaration not evaluated", Detail: fmt.Sprintf("The field of %s cannot be evaluated.", d.attr), Subject: d.pos})
		}
		return nil, false
	}
	if !d.multi {
		return []*instance{p.newInstance(d, cty.NilVal, d.path, dv, block)}, true
	}
	if x, ok := dv.Default(); ok {
		dv = x
	}
	bad := func(summary, detail string) ([]*instance, bool) {
		if report {
			if err := fatal(dv); err != nil {
				p.report(errorDiags(err, summary, d.pos)...)
			} else {
				p.report(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: d.pos})
			}
		}
		return nil, false
	}
	ls, ok := instancesIn(d, dv)
	if !ok {
		switch d.shape {
		case cue.ListKind:
			return bad("Invalid count argument", `The "count" value depends on resource attributes that cannot be determined until apply, so OpenTofu cannot predict how many instances will be created. To work around this, use the -target argument to first apply only the resources that the count depends on.`)
		case cue.StructKind:
			return bad("Invalid for_each argument", `The "for_each" map includes keys derived from resource attributes that cannot be determined until apply, and so OpenTofu cannot determine the full set of keys that will identify the instances of this resource.`)
		}
		return bad("Invalid instances", fmt.Sprintf("%s marks a declaration with several instances: its value must be a list (count) or a struct keyed by instance key (for_each).", d.attr))
	}
	out := make([]*instance, len(ls))
	for i, l := range ls {
		out[i] = p.newInstance(d, l.key, l.path, l.value, block)
	}
	return out, true
}

// listed is one instance of a multi-instance declaration as its value
// lists it.
type listed struct {
	key   cty.Value
	path  cue.Path
	value cue.Value
}

// instancesIn lists the instances of the multi-instance declaration d
// whose value is dv, its default taken: ok is false where dv is not (yet)
// a list (count) or a struct keyed by instance key (for_each) that can
// be listed.
func instancesIn(d *decl, dv cue.Value) (ls []listed, ok bool) {
	if x, ok := dv.Default(); ok {
		dv = x
	}
	if !dv.Exists() || ownError(dv, d.path) {
		return nil, false
	}
	switch d.shape {
	case cue.ListKind:
		it, err := dv.List()
		if err != nil {
			return nil, false
		}
		for i := 0; it.Next(); i++ {
			ls = append(ls, listed{cty.NumberIntVal(int64(i)), join(d.path, cue.Index(i)), it.Value()})
		}
		return ls, true
	case cue.StructKind:
		it, err := dv.Fields()
		if err != nil {
			return nil, false
		}
		for it.Next() {
			key := it.Selector().Unquoted()
			ls = append(ls, listed{cty.StringVal(key), join(d.path, cue.Str(key)), it.Value()})
		}
		return ls, true
	}
	return nil, false
}

// ownError reports whether v, at path, is itself an error, rather than
// holding one in a field (an instance's value not known yet): a list or
// struct whose elements cannot be told.
func ownError(v cue.Value, path cue.Path) bool {
	own := path.String()
	return errorAt(v, func(at string) bool { return at == own || at == "" })
}

// errorAt reports whether v is an error one of whose parts is at a path
// (its selectors joined with dots, "" for none) for which is holds.
func errorAt(v cue.Value, is func(at string) bool) bool {
	err := v.Err()
	if err == nil {
		return false
	}
	for _, e := range errors.Errors(err) {
		if is(strings.Join(e.Path(), ".")) {
			return true
		}
	}
	return false
}

// instancesKind tells a list (count) from a struct (for_each), also when
// the value cannot be evaluated yet, from its source.
func instancesKind(v cue.Value) cue.Kind {
	switch k := v.IncompleteKind(); k {
	case cue.ListKind, cue.StructKind:
		return k
	}
	x := v.Source()
	if f, ok := x.(*ast.Field); ok {
		x = f.Value
	}
	switch x.(type) {
	case *ast.ListLit:
		return cue.ListKind
	case *ast.StructLit:
		return cue.StructKind
	}
	return cue.BottomKind
}

// newInstance makes an instance and finds its shape. An instance met
// before (the same path) keeps the shape found then, before the engine
// added its own fields.
func (p *planner) newInstance(d *decl, key cty.Value, path cue.Path, cfg cue.Value, block *mock.Block) *instance {
	in := &instance{d: d, key: key, path: path, addr: d.addr() + plan.KeyString(key), block: block}
	if p.shapes != nil {
		if s, ok := p.shapes.byPath[path.String()]; ok {
			in.shape = s
			return in
		}
	}
	in.shape = shapeOf(cfg, block, path)
	return in
}

// providerKey is the provider configuration a resource uses: its
// provider argument, or the provider its type name implies.
func providerKey(d *decl) string {
	key := d.provider
	if key == "" {
		key, _, _ = strings.Cut(d.typ, "_")
	}
	if root, ok := d.providers[key]; ok {
		// In a called module: the root's configuration it was given.
		return root
	}
	return key
}

// providerName is the provider's address, as engine/hcl names it: from
// the schema file, else from required_providers, else the provider the
// name implies (config.ImpliedProvider).
func (p *planner) providerName(d *decl) string {
	if addr := p.provider.Schemas().ProviderAddr(d.mode, d.typ); addr != "" {
		return addr
	}
	name, _, _ := strings.Cut(providerKey(d), ".")
	if addr := p.requiredProviders[name]; addr != "" {
		return addr
	}
	return config.ImpliedProvider(name).String()
}

// collectOutputs records the outputs' values in the program.
func (p *planner) collectOutputs(cur cue.Value, applied bool) {
	for _, d := range p.outputs {
		dec := &decoder{}
		val := dec.value(cur.LookupPath(d.path))
		p.report(dec.diags...)
		if d.sensitive {
			val = val.Mark(plan.SensitiveMark)
		}
		out := p.result.Outputs[d.name]
		if out == nil {
			out = &plan.Output{Sensitive: d.sensitive}
			p.result.Outputs[d.name] = out
		}
		if applied {
			out.Applied = val
		} else {
			out.Planned = val
		}
	}
}

// conditions checks the preconditions and postconditions of every
// instance (errors) and the assertions of check blocks (warnings) in the
// program. The instances of a declaration share its body: when the first
// one has no conditions, none has.
func (p *planner) conditions(cur cue.Value) {
	without := map[*decl]bool{}
	for _, in := range p.instances {
		if without[in.d] {
			continue
		}
		iv := cur.LookupPath(in.path)
		found := false
		for _, c := range [...]struct{ field, summary string }{
			{cueform.Preconditions, "Resource precondition failed"},
			{cueform.Postconditions, "Resource postcondition failed"},
		} {
			cv, _ := hiddenField(iv, c.field, p.pkg)
			if !cv.Exists() {
				continue
			}
			found = true
			for _, r := range ruleList(cv) {
				p.checkRule(r, c.summary, hcl.DiagError, in.d.pos)
			}
		}
		if !found {
			without[in.d] = true
		}
	}
	for _, c := range p.checks {
		for _, r := range ruleList(cur.LookupPath(c.path)) {
			p.checkRule(r, "Check block assertion failed", hcl.DiagWarning, nil)
		}
	}
}

// provisioners records the provisioner blocks of every applied instance,
// which the converter keeps in its hidden _provisioner list, evaluated in
// the applied program (see plan.Instance.Provisioners). The instances of
// a declaration share its body: when the first one has none, none has.
func (p *planner) provisioners(cur cue.Value) {
	without := map[*decl]bool{}
	for _, in := range p.instances {
		if without[in.d] || in.rec == nil {
			continue
		}
		pv, _ := hiddenField(cur.LookupPath(in.path), cueform.Provisioners, p.pkg)
		if !pv.Exists() {
			without[in.d] = true
			continue
		}
		dec := &decoder{}
		v := dec.value(pv)
		p.report(dec.diags...)
		if v.Type().IsListType() {
			// A list of objects of one type: the HCL side's is a tuple.
			v = cty.TupleVal(v.AsValueSlice())
		}
		in.rec.Provisioners = v
	}
}

// markSensitive marks the attributes the schema says are sensitive, at
// every nesting level of blocks.
func markSensitive(b *mock.Block, v cty.Value) cty.Value {
	if b == nil || v.IsNull() || !v.IsKnown() || !v.Type().IsObjectType() {
		return v
	}
	v, marks := v.Unmark()
	attrs := v.AsValueMap()
	for name, a := range b.Attributes {
		if av, ok := attrs[name]; ok && a.Sensitive {
			attrs[name] = av.Mark(plan.SensitiveMark)
		}
	}
	for name, nb := range b.BlockTypes {
		av, ok := attrs[name]
		if !ok || nb == nil || av.IsNull() || !av.IsKnown() {
			continue
		}
		attrs[name] = markBlocks(nb, av)
	}
	return cty.ObjectVal(attrs).WithMarks(marks)
}

func markBlocks(nb *mock.NestedBlock, v cty.Value) cty.Value {
	ty := v.Type()
	switch {
	case ty.IsObjectType() && (nb.Nesting == mock.NestingSingle || nb.Nesting == mock.NestingGroup):
		return markSensitive(nb.Block, v)
	case v.LengthInt() == 0:
		return v
	case ty.IsMapType() || ty.IsObjectType():
		m := v.AsValueMap()
		for k, e := range m {
			m[k] = markSensitive(nb.Block, e)
		}
		if ty.IsMapType() {
			return cty.MapVal(m)
		}
		return cty.ObjectVal(m)
	}
	elems := v.AsValueSlice()
	for i, e := range elems {
		elems[i] = markSensitive(nb.Block, e)
	}
	switch {
	case ty.IsListType():
		return cty.ListVal(elems)
	case ty.IsSetType():
		return cty.SetVal(elems)
	}
	return cty.TupleVal(elems)
}
