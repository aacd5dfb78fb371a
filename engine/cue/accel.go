package cue

import (
	"strings"

	"cuelang.org/go/cue"
)

// accel is a set of the planner's accelerators (see "The reference
// planner and its accelerators" in doc.go). Options.off switches some
// off; the zero Options has them all.
type accel uint8

const (
	// accelShapes: the shape rounds (shapeRounds) find the instances and
	// shapes of every declaration that the inputs alone expand, before
	// the plan pass.
	accelShapes accel = 1 << iota
	// accelBatch: the plan pass evaluates the values it added only
	// before a declaration that depends on one, and expands together
	// the declarations that wait for the same read (batching).
	accelBatch
	// accelSpeculate: the apply pass takes the data sources read while
	// planning as they were, and applies what only copies computed
	// strings with markers (speculation).
	accelSpeculate
	// accelReplan: a run whose plan pass its check finds stale stops
	// there, and the check reads only the instances that may have
	// missed a value (replanning).
	accelReplan

	allAccels = accelShapes | accelBatch | accelSpeculate | accelReplan
)

var accelNames = [...]string{"shapes", "batch", "speculate", "replan"}

func (a accel) String() string {
	if a == 0 {
		return "none"
	}
	var names []string
	for i, name := range accelNames {
		if a&(1<<i) != 0 {
			names = append(names, name)
		}
	}
	return strings.Join(names, "+")
}

// accelerate makes the state of every accelerator that off leaves on.
func (p *planner) accelerate(off accel) {
	on := allAccels &^ off
	if on&accelShapes != 0 {
		p.shapes = &shapeRounds{}
	}
	if on&accelBatch != 0 {
		p.batch = &batching{}
	}
	if on&accelSpeculate != 0 {
		p.spec = &speculation{}
	}
	if on&accelReplan != 0 {
		p.replan = &replanning{}
	}
}

// typedForAnalysis is, for the reference planner (no shape rounds), the
// program the dependency analysis reads: v completed with the shapes of
// the instances that v expands, found in v, one round, and led by the
// flow guard. The passes do not start from it: each finds its shapes at
// its turn, in a program that holds the shapes and values of those
// before it.
func (p *planner) typedForAnalysis(v cue.Value) cue.Value {
	var insts []*instance
	for _, d := range p.resources {
		if ds, ok := p.expand(d, v, false); ok {
			insts = append(insts, ds...)
		}
	}
	return unifyLed(p.ctx, flowGuard(v.Context()), v, shapeFills(insts, nil)) //nolint:staticcheck // as in shapeRounds.run
}

// expandedBefore is the instances of declaration i found before its turn
// in the plan pass, by the shape rounds, by batching or with the others
// of its cycle, if any.
func (p *planner) expandedBefore(i int) ([]*instance, bool) {
	if ins, ok := p.cycleExpanded[i]; ok {
		return ins, true
	}
	if p.shapes != nil {
		if ins, ok := p.shapes.expanded[i]; ok {
			return ins, true
		}
	}
	if p.batch != nil {
		if ins, ok := p.batch.expanded[i]; ok {
			return ins, true
		}
	}
	return nil, false
}

// inStart tells whether the program the passes start from holds the
// shape of the instance at path (the shape rounds found it).
func (p *planner) inStart(path cue.Path) bool {
	if p.shapes == nil {
		return false
	}
	_, ok := p.shapes.byPath[path.String()]
	return ok
}
