package cue

import (
	"cuelang.org/go/cue"
	"cuelang.org/go/tools/flow"
)

// dependencies finds which resource declarations each one refers to, from
// the CUE program itself: tools/flow's analysis, run on the declarations
// as its tasks but never run, follows every reference of a declaration's
// value (through locals, comprehensions and lets) to the declaration that
// holds its target. The result maps a declaration's index to the indexes
// of the declarations it depends on.
//
// A declaration's references to itself (a postcondition's self) are not
// dependencies. The graph orders the passes and names the declarations of a cycle; it
// never decides a value: an instance is applied only when its
// configuration is concrete, or when nothing else can progress.
func dependencies(v cue.Value, decls []*decl) map[int][]int {
	byPath := map[string]*decl{}
	for _, d := range decls {
		byPath[d.path.String()] = d
	}
	c := flow.New(&flow.Config{FindHiddenTasks: true}, v, func(x cue.Value) (flow.Runner, error) {
		if d := byPath[x.Path().String()]; d != nil {
			return nopRunner{}, nil
		}
		return nil, nil
	})
	deps := map[int][]int{}
	for _, t := range c.Tasks() {
		d := byPath[t.Path().String()]
		if d == nil {
			continue
		}
		seen := map[int]bool{}
		for _, dt := range t.Dependencies() {
			on := byPath[dt.Path().String()]
			if on == nil || on == d || seen[on.index] {
				continue
			}
			seen[on.index] = true
			deps[d.index] = append(deps[d.index], on.index)
		}
	}
	return deps
}

type nopRunner struct{}

func (nopRunner) Run(*flow.Task, error) error { return nil }
