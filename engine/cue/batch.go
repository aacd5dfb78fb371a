package cue

import (
	"slices"

	"cuelang.org/go/cue"
)

// batching is the plan pass's accelerator. The reference evaluates the
// program with every value added so far (a data source read, a shape
// found at its turn) before each declaration that comes after one was
// added; batching evaluates them only before a declaration that depends
// on one of the declarations that added them (or that must be expanded
// there), and expands together the declarations that wait for the same
// read (expandReady), where the reference expands each at its turn, one
// evaluation each.
//
// What it may miss is a dependency the analysis did not see on a value
// added but not evaluated yet: missed records, by declaration, those
// whose values the program it was planned from lacked, and the check of
// the plan pass (stale.go) reads each such instance again in the final
// program; one that changed learns the dependency and the plan runs again,
// so that the result is the reference's. expandReady checks the
// instances it found as the shape rounds do (the same instances once all
// shapes are added) and leaves a declaration that fails to its turn.
type batching struct {
	// expanded holds the instances of the declarations expandReady
	// expanded, by declaration index; their shapes are in the plan
	// pass's values (instance.shapeAdded).
	expanded map[int][]*instance
	// missed maps a declaration to the declarations whose values the
	// program it was planned from lacked.
	missed map[int][]int
}

// miss records that declaration i was planned from a program that
// lacked the values of the declarations pending.
func (b *batching) miss(i int, pending []int) {
	if b.missed == nil {
		b.missed = map[int][]int{}
	}
	b.missed[i] = slices.Clone(pending)
}

// missedBy is the declarations whose values declaration i was planned
// without; none without batching.
func (b *batching) missedBy(i int) []int {
	if b == nil {
		return nil
	}
	return b.missed[i]
}

// expandReady expands, in cur, the declaration at position pos of the
// plan order, which the shape rounds could not expand, together with every
// later one that they could not expand either and whose dependencies are all
// planned, and adds their shapes to f. Each of them would otherwise be
// expanded at its turn in a program holding the shapes of those before
// it, one evaluation each (terraform-aws-vpc's complete example: the
// subnets of six kinds, each waiting for the zones read, then their route
// tables and associations); none of them depends on another, so none has
// a reference to another's shape to miss. The shapes are checked as
// the shape rounds check them, in cur with all of them: a declaration whose
// instances change once all are added is left to its turn. When it
// expanded any it returns the program with f's values and reports true:
// the one the check evaluated when it kept them all. It does nothing
// where fewer than two can be expanded.
func (b *batching) expandReady(p *planner, cur cue.Value, pos int, f *fills) (cue.Value, bool) {
	planned := make([]bool, len(p.resources))
	for _, i := range p.order[:pos] {
		planned[i] = true
	}
	var decls []int
	var insts []*instance
	byDecl := map[int][]*instance{}
	for n, i := range p.order[pos:] {
		if _, done := p.expandedBefore(i); done {
			continue
		}
		if n > 0 && slices.ContainsFunc(p.deps[i], func(on int) bool { return !planned[on] }) {
			continue
		}
		ins, ok := p.expand(p.resources[i], cur, false)
		if !ok || slices.ContainsFunc(ins, func(in *instance) bool { return in.shape.partial }) {
			continue
		}
		decls = append(decls, i)
		insts = append(insts, ins...)
		byDecl[i] = ins
	}
	if len(decls) < 2 {
		return cue.Value{}, false
	}
	typed := shapeFills(insts, nil).apply(p.ctx, cur)
	p.stats.planEvals++
	kept := 0
	for _, i := range decls {
		d, ins := p.resources[i], byDecl[i]
		if d.multi {
			if ls, ok := instancesIn(d, typed.LookupPath(d.path)); !ok || !sameInstances(ls, ins) {
				continue
			}
		}
		if b.expanded == nil {
			b.expanded = map[int][]*instance{}
		}
		b.expanded[i] = ins
		for _, in := range ins {
			in.shape.addTo(f)
			in.shapeAdded = true
		}
		kept++
	}
	switch kept {
	case 0:
		return cue.Value{}, false
	case len(decls):
		return typed, true
	}
	p.stats.planEvals++
	return f.unifyInto(p.ctx, p.start), true
}
