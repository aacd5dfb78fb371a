package cue

import (
	"regexp"
	"strconv"
	"strings"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/engine/plan"
)

// Gradual evaluation applies a chain of n resources, each referring to
// the one before, in n rounds, and each round evaluates the whole program
// again: a chain costs n² in CUE, where engine/hcl evaluates each
// expression once. speculate applies, in one evaluation, every instance
// whose configuration depends on the others only by copying their string
// attributes (ids, names, ARNs; also inside interpolations), which is
// most of them, and repeats that for what is left:
//
//  1. Every computed string attribute of every instance not applied yet
//     gets a marker, a string that names the instance and the attribute
//     ("⟦tofucue:12.0⟧"), unified into the program in one batch with
//     the values applied so far (at first, those of the data sources
//     read while planning: carryReads).
//  2. The program is evaluated once. An instance whose configuration is
//     now concrete depends on exactly the markers found in it: those
//     are its dependencies, read from the program itself. (Not one of a
//     declaration whose instances cannot be listed there, its count
//     waiting for a value that has no marker: its path holds only what
//     the engine added at it.)
//  3. In dependency order, each such instance's markers are replaced by
//     the values the provider gave, and the instance is applied with
//     that configuration.
//  4. What is left (configurations that use a computed number or list,
//     or a function of a computed string, as cidrsubnet of the VPC's
//     IPv6 block) goes round again, the values of this round in the
//     program, until a round applies nothing; the gradual rounds take
//     what is left then (a cycle, a timestamp).
//
// A marker is not the value it stands for: a function of it (upper,
// length, a comparison) gives something that substitution does not
// repair. So the guess is checked: once every instance is applied, the
// final program must give every speculated instance exactly the
// configuration it was applied with (check). When one differs, the
// apply pass starts again from the beginning without speculation, so
// that the result is always that of gradual evaluation.
//
// The program is the plan pass's start with shapes, those of the
// instances that the shape rounds did not find; the result is that
// program with the values applied.
type speculation struct {
	// guessed holds, by instance, the configuration each instance
	// speculation applied (or carried) was applied with, for check.
	guessed map[*instance]cty.Value
	// values are the applied values of the markers, by marker, for all
	// rounds.
	values map[string]string
}

// run carries the reads and speculates, round after round, as above, and
// returns the program with their values, for the gradual rounds.
func (s *speculation) run(p *planner, shapes *fills) cue.Value {
	var f fills
	s.carryReads(p, &f)
	s.values = map[string]string{}
	for {
		var marks fills
		for i, in := range p.instances {
			if in.applied {
				continue
			}
			for j, c := range in.shape.computed {
				if (c.ty == cty.String || c.ty == cty.DynamicPseudoType) && !c.byDefault {
					marks.add(c.path, ast.NewString(marker(i, j)))
				}
			}
		}
		if marks.empty() {
			// Nothing to speculate on.
			break
		}
		spec := p.applyEval(p.start, shapes, &f, &marks)
		p.stats.specRounds++
		if s.round(p, spec, &f) == 0 {
			break
		}
	}
	return p.applyEval(p.start, shapes, &f)
}

// round applies the instances whose configuration in spec, the
// program with markers, is concrete but for them, in the order of the
// markers, adding their values to f; it returns how many it applied.
// s.values holds the applied values of the markers, for all rounds. spec
// is also the program that decides which of the provider's values the
// program takes (fillComputed): markers stand only for attributes that
// are not null by default, and fillComputed looks only at those that
// are.
func (s *speculation) round(p *planner, spec cue.Value, f *fills) int {
	n := len(p.instances)
	cfgs := make([]cty.Value, n)
	deps := make([][]int, n)
	ok := make([]bool, n)
	// Where a declaration's instances cannot be listed in spec (its
	// count waits for a value that has no marker), the values the
	// engine added at an instance's path are all that path holds: its
	// configuration is not there to be read.
	listable := map[int]bool{}
	for i, in := range p.instances {
		if in.applied {
			continue
		}
		can, seen := listable[in.d.index]
		if !seen {
			can = true
			if in.d.multi {
				_, can = instancesIn(in.d, spec.LookupPath(in.d.path))
			}
			listable[in.d.index] = can
		}
		if !can {
			continue
		}
		dec := &decoder{quiet: true}
		cfg := dec.block(spec.LookupPath(in.path), in.block, in.shape.skip, nil)
		if dec.failed || !cfg.IsWhollyKnown() {
			continue
		}
		ds, fine := markersIn(cfg, n)
		if !fine {
			continue
		}
		cfgs[i], deps[i], ok[i] = cfg, ds, true
	}

	// Kahn's algorithm over the markers: an instance is applied after the
	// instances whose markers it holds; one that depends on an instance
	// that cannot be applied in this round waits for the next.
	users := make([][]int, n)
	waiting := make([]int, n)
	var ready []int
	for i := range n {
		if !ok[i] {
			continue
		}
		for _, j := range deps[i] {
			users[j] = append(users[j], i)
		}
		waiting[i] = len(deps[i])
		if waiting[i] == 0 {
			ready = append(ready, i)
		}
	}
	applied := 0
	for len(ready) > 0 {
		i := ready[0]
		ready = ready[1:]
		in := p.instances[i]
		cfg, good := substitute(cfgs[i], s.values)
		if !good {
			continue
		}
		p.applyInstance(spec, in, cfg, f)
		s.guess(in, cfg)
		p.stats.speculated++
		applied++
		if in.appliedValue == cty.NilVal {
			// The provider failed (reported): nothing to build on.
			continue
		}
		for _, u := range users[i] {
			waiting[u]--
			if waiting[u] == 0 {
				ready = append(ready, u)
			}
		}
		s.recordMarkers(i, in)
	}
	return applied
}

// recordMarkers keeps the applied values of an instance's computed string
// attributes, by their markers, for the instances that use them.
func (s *speculation) recordMarkers(i int, in *instance) {
	val := in.appliedValue
	if val == cty.NilVal {
		return
	}
	val, _ = val.UnmarkDeep()
	if val.IsNull() || !val.IsKnown() || !val.Type().IsObjectType() {
		return
	}
	for j, c := range in.shape.computed {
		av := at(val, c.at)
		if av != cty.NilVal && av.IsKnown() && !av.IsNull() && av.Type() == cty.String {
			s.values[marker(i, j)] = av.AsString()
		}
	}
}

// check is the speculation's check: in the final program, every
// instance applied by speculation (or carried) has the configuration it
// was applied with.
func (s *speculation) check(p *planner, final cue.Value) bool {
	for _, in := range p.instances {
		guessed, ok := s.guessed[in]
		if !ok {
			continue
		}
		dec := &decoder{quiet: true}
		cfg := dec.block(final.LookupPath(in.path), in.block, in.shape.skip, nil)
		if dec.failed || !cfg.RawEquals(guessed) {
			return false
		}
	}
	return true
}

// guess records that in was applied, by speculation, with cfg.
func (s *speculation) guess(in *instance, cfg cty.Value) {
	if s.guessed == nil {
		s.guessed = map[*instance]cty.Value{}
	}
	s.guessed[in] = cfg
}

// undo forgets what the apply pass did, for the reference to apply
// again from the start.
func (s *speculation) undo(p *planner) {
	s.guessed, s.values = nil, nil
	for _, in := range p.instances {
		in.applied = false
		in.appliedValue = cty.NilVal
		if in.rec != nil {
			in.rec.Applied = cty.NilVal
		}
	}
}

const markerPrefix = "⟦tofucue:"

// marker is the marker string of instance i's computed attribute j.
func marker(i, j int) string {
	return markerPrefix + strconv.Itoa(i) + "." + strconv.Itoa(j) + "⟧"
}

var markerRE = regexp.MustCompile(`⟦tofucue:(\d+)\.(\d+)⟧`)

// markersIn finds the instances whose markers v holds, in strings and
// object keys. A marker of an instance out of range means a mangled one:
// not fine.
func markersIn(v cty.Value, n int) (deps []int, fine bool) {
	seen := map[int]bool{}
	fine = true
	note := func(s string) {
		if !strings.Contains(s, markerPrefix) {
			return
		}
		for _, m := range markerRE.FindAllStringSubmatch(s, -1) {
			i, err := strconv.Atoi(m[1])
			if err != nil || i >= n {
				fine = false
				continue
			}
			if !seen[i] {
				seen[i] = true
				deps = append(deps, i)
			}
		}
		if strings.Count(s, markerPrefix) != len(markerRE.FindAllStringIndex(s, -1)) {
			fine = false
		}
	}
	_ = cty.Walk(v, func(_ cty.Path, x cty.Value) (bool, error) {
		if x.IsNull() || !x.IsKnown() {
			return true, nil
		}
		switch ty := x.Type(); {
		case ty == cty.String:
			note(x.AsString())
		case ty.IsObjectType():
			for name := range ty.AttributeTypes() {
				note(name)
			}
		case ty.IsMapType():
			for it := x.ElementIterator(); it.Next(); {
				k, _ := it.Element()
				note(k.AsString())
			}
		}
		return true, nil
	})
	return deps, fine
}

// substitute replaces the markers in v's strings and keys by the values
// they stand for; it fails when one has no value.
func substitute(v cty.Value, values map[string]string) (cty.Value, bool) {
	good := true
	repl := func(s string) string {
		if !strings.Contains(s, markerPrefix) {
			return s
		}
		return markerRE.ReplaceAllStringFunc(s, func(m string) string {
			r, ok := values[m]
			if !ok {
				good = false
			}
			return r
		})
	}
	out := substituteValue(v, repl)
	return out, good
}

func substituteValue(v cty.Value, repl func(string) string) cty.Value {
	if v.IsNull() || !v.IsKnown() {
		return v
	}
	ty := v.Type()
	switch {
	case ty == cty.String:
		return cty.StringVal(repl(v.AsString()))
	case ty.IsObjectType():
		attrs := map[string]cty.Value{}
		for name, av := range v.AsValueMap() {
			attrs[repl(name)] = substituteValue(av, repl)
		}
		return cty.ObjectVal(attrs)
	case ty.IsMapType():
		if v.LengthInt() == 0 {
			return v
		}
		elems := map[string]cty.Value{}
		for k, e := range v.AsValueMap() {
			elems[repl(k)] = substituteValue(e, repl)
		}
		return cty.MapVal(elems)
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType():
		if v.LengthInt() == 0 {
			return v
		}
		elems := v.AsValueSlice()
		for i, e := range elems {
			elems[i] = substituteValue(e, repl)
		}
		switch {
		case ty.IsListType():
			return cty.ListVal(elems)
		case ty.IsSetType():
			return cty.SetVal(elems)
		}
		return cty.TupleVal(elems)
	}
	return v
}

// carryReads gives the apply pass the data sources read while planning.
// Their configuration was wholly known then, so it is the same at apply
// and so is what the provider reads: each is applied with the value it
// was planned with, its values added to f before anything else is
// applied, so that a declaration whose count waits for one of them (the
// zones' names) can be listed in the speculation's first program. As a
// speculated instance, each is checked against the final program. The
// program planned is where their values were added while planning, so
// it decides again which of them the program takes (fillComputed).
func (s *speculation) carryReads(p *planner, f *fills) {
	for _, in := range p.instances {
		if in.d.mode != config.DataMode || in.rec == nil || in.rec.Action != plan.NoOp {
			continue
		}
		val, _ := in.rec.Planned.UnmarkDeep()
		in.applied = true
		in.appliedValue = val
		in.rec.Applied = in.rec.Planned
		s.guess(in, in.plannedCfg)
		p.stats.carried++
		p.fillApplied(p.planned, in, in.plannedCfg, val, f)
	}
}
