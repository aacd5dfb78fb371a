package cue

import (
	"regexp"
	"strconv"
	"strings"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	"github.com/zclconf/go-cty/cty"
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
// configuration it was applied with (verify). When one differs, the
// apply pass starts again from the beginning without speculation, so
// that the result is always that of gradual evaluation.
//
// The program is the typed one with shapes, the types of the instances
// that schemas did not type; the result is that program with the values
// applied.
func (p *planner) speculate(shapes *fills) cue.Value {
	var f fills
	p.carryReads(&f)
	values := map[string]string{}
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
		spec := p.applyEval(p.typed, shapes, &f, &marks)
		p.stats.specRounds++
		if p.speculateRound(spec, &f, values) == 0 {
			break
		}
	}
	return p.applyEval(p.typed, shapes, &f)
}

// speculateRound applies the instances whose configuration in spec, the
// program with markers, is concrete but for them, in the order of the
// markers, adding their values to f; it returns how many it applied.
// values holds the applied values of the markers, for all rounds. spec
// is also the program that decides which of the provider's values the
// program takes (fillComputed): markers stand only for attributes that
// are not null by default, and fillComputed looks only at those that
// are.
func (p *planner) speculateRound(spec cue.Value, f *fills, values map[string]string) int {
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
		cfg, good := substitute(cfgs[i], values)
		if !good {
			continue
		}
		p.applyInstance(spec, in, cfg, f)
		in.speculative = cfg
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
		p.recordMarkers(i, in, values)
	}
	return applied
}

// recordMarkers keeps the applied values of an instance's computed string
// attributes, by their markers, for the instances that use them.
func (p *planner) recordMarkers(i int, in *instance, values map[string]string) {
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
			values[marker(i, j)] = av.AsString()
		}
	}
}

// verify checks the speculation: in the final program, every instance
// applied by speculation has the configuration it was applied with.
func (p *planner) verify(final cue.Value) bool {
	for _, in := range p.instances {
		if in.speculative == cty.NilVal {
			continue
		}
		dec := &decoder{quiet: true}
		cfg := dec.block(final.LookupPath(in.path), in.block, in.shape.skip, nil)
		if dec.failed || !cfg.RawEquals(in.speculative) {
			return false
		}
	}
	return true
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
