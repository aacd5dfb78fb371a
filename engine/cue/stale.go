package cue

import (
	"maps"
	"slices"

	"cuelang.org/go/cue"
	"github.com/zclconf/go-cty/cty"
)

// The dependency graph comes from tools/flow's analysis, which follows
// the references that evaluation exposes. It misses those that
// evaluation cannot reach yet: the clauses of a comprehension whose
// condition is not known yet (coalesce becomes one), or an inline list
// indexed out of range while its elements wait. A declaration that
// depends on another only that way may be planned or applied first, from
// a value that is wrong rather than unknown (try's fallback, taken while
// its argument is incomplete).
//
// So the plan pass is checked once it is over: every instance's
// configuration, read again from the program at the end of the pass,
// must be the one the instance was planned with. An instance whose
// configuration changed depended on something that came after it, or on
// a value added before it that the plan pass had not evaluated yet (it
// evaluates the values added only where a declaration depends on one):
// the planner learns that it depends on each such declaration (that does
// not depend on it already), and the plan runs again from the beginning.
//
// The apply pass needs no such check where speculation applied the
// instances (verify compares each with the final program), and the
// gradual rounds hold an instance until its configuration is concrete.
// What is left is a try whose argument waits on an instance applied in
// a later round: its fallback is taken, as it is at plan (see convert's
// try).

// replanning is the accelerator of the plan pass's check. In the
// reference, a run whose plan pass is stale goes on to its apply pass,
// and the plan runs again (planValue) with what the check learned, the
// last run's result being the plan; the check reads every instance
// again. Replanning stops a run at its stale plan pass, since its apply
// pass is thrown away, and reads again only the instances planned before
// the last value was added or from a program that lacked one
// (instance.planFills): one planned after it was planned from the final
// program's values, so its configuration cannot have changed. Its check
// is that argument; the test that switches it off compares the results.
type replanning struct{}

// stops tells whether a run whose plan pass is stale stops there: with
// replanning, unless it is the last run.
func (r *replanning) stops(p *planner) bool {
	return r != nil && !p.lastRun
}

// skips tells whether the check need not read the instance in again.
func (r *replanning) skips(p *planner, in *instance) bool {
	return r != nil && in.planFills == p.planFills
}

// maxReplans bounds the runs: each one learns at least one dependency,
// and a module has few that the analysis misses.
const maxReplans = 4

// learned are dependencies found by the checks, by declaration path:
// the declarations at the values' paths come before the one at the key.
type learned map[string][]string

// stalePlanned checks the plan pass: for each instance planned from a
// configuration that the end of the pass contradicts, it learns that its
// declaration depends on those planned after it that added a value to
// the program (data sources read, computed attributes known at plan, the
// shapes of instances expanded by the plan pass), and on those planned
// before it whose values the pass had not evaluated yet (batching's
// missed). It tells whether it learned anything.
func (p *planner) stalePlanned(final cue.Value) bool {
	pos := make([]int, len(p.resources))
	for k, i := range p.order {
		pos[i] = k
	}
	found := false
	learnedFor := map[int]bool{}
	for _, d := range p.staleDecls(final) {
		after := slices.Clone(p.batch.missedBy(d.index))
		for _, i := range p.order[pos[d.index]+1:] {
			if p.planFilled[i] {
				after = append(after, i)
			}
		}
		if p.learn(d, after) {
			found = true
			learnedFor[d.index] = true
		}
	}
	// An instance held at its turn whose configuration decodes at the
	// end, but whose declaration learned nothing to wait for, would
	// not be planned in the next run either: its errors stand.
	for _, in := range p.instances {
		if in.held != nil && !learnedFor[in.d.index] {
			p.report(in.held...)
			in.held = nil
		}
	}
	for _, i := range slices.Sorted(maps.Keys(p.heldDecls)) {
		if !learnedFor[i] {
			p.report(p.heldDecls[i]...)
			delete(p.heldDecls, i)
		}
	}
	return found
}

// settleHeld reports, at the end of the plan pass, the errors of each
// declaration and instance held at its turn (see planner.heldDecls and
// instance.held) whose instances cannot be told, or whose configuration
// does not decode, in the final program either; the others are stale.
func (p *planner) settleHeld(final cue.Value) {
	for _, i := range slices.Sorted(maps.Keys(p.heldDecls)) {
		if _, ok := p.expand(p.resources[i], final, false); !ok {
			p.report(p.heldDecls[i]...)
			delete(p.heldDecls, i)
		}
	}
	for _, in := range p.instances {
		if in.held == nil {
			continue
		}
		dec := &decoder{quiet: true}
		dec.block(final.LookupPath(in.path), in.block, in.shape.skip, nil)
		if dec.failed {
			p.report(in.held...)
			in.held = nil
		}
	}
}

// staleDecls lists the declarations with an instance whose configuration
// is not the one it was planned with (or no longer decodes), unknowns
// included: in the plan pass nothing becomes known but what a data
// source read or a computed attribute known at plan gives, so a value
// that became known there was waiting for a declaration planned after
// it. An instance planned after the last such value cannot have missed
// one: replanning does not read it again. The declarations and
// instances still held (settleHeld kept those told or decoded now) are
// stale too.
func (p *planner) staleDecls(final cue.Value) []*decl {
	var out []*decl
	for _, i := range slices.Sorted(maps.Keys(p.heldDecls)) {
		out = append(out, p.resources[i])
	}
	seen := map[int]bool{}
	for _, in := range p.instances {
		if seen[in.d.index] {
			continue
		}
		if in.held != nil {
			seen[in.d.index] = true
			out = append(out, in.d)
			continue
		}
		if in.plannedCfg == cty.NilVal || p.replan.skips(p, in) {
			continue
		}
		dec := &decoder{quiet: true}
		now := dec.block(final.LookupPath(in.path), in.block, in.shape.skip, nil)
		// A configuration that no longer decodes (a conflict) is stale
		// too: a value the provider gave at plan for an attribute the
		// configuration had not set yet, which it sets once what it
		// waited for is there.
		if dec.failed || !sameValue(in.plannedCfg, now) {
			seen[in.d.index] = true
			out = append(out, in.d)
		}
	}
	return out
}

// learn records that d depends on each of the declarations on, but for
// those that depend on d already (directly, transitively, or by what was
// learned): the graph stays free of cycles the program does not have.
func (p *planner) learn(d *decl, on []int) bool {
	found := false
	for _, i := range on {
		if i == d.index || p.dependsOn(i, d.index) || p.dependsOn(d.index, i) {
			continue
		}
		p.deps[d.index] = append(p.deps[d.index], i)
		key := d.path.String()
		p.learned[key] = append(p.learned[key], p.resources[i].path.String())
		found = true
	}
	return found
}

// dependsOn tells whether declaration a depends on b, transitively.
func (p *planner) dependsOn(a, b int) bool {
	seen := map[int]bool{}
	stack := []int{a}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, y := range p.deps[x] {
			if y == b {
				return true
			}
			if !seen[y] {
				seen[y] = true
				stack = append(stack, y)
			}
		}
	}
	return false
}

// addLearned adds the dependencies learned by earlier runs to the graph.
func (p *planner) addLearned(known learned) {
	if len(known) == 0 {
		return
	}
	byPath := map[string]int{}
	for _, d := range p.resources {
		byPath[d.path.String()] = d.index
	}
	for from, ons := range known {
		i, ok := byPath[from]
		if !ok {
			continue
		}
		for _, on := range ons {
			if j, ok := byPath[on]; ok && !p.dependsOn(j, i) && !p.dependsOn(i, j) {
				p.deps[i] = append(p.deps[i], j)
			}
		}
	}
}

// sameValue tells whether two configurations are the same, marks aside.
func sameValue(a, b cty.Value) bool {
	a, _ = a.UnmarkDeep()
	b, _ = b.UnmarkDeep()
	return a.RawEquals(b)
}
