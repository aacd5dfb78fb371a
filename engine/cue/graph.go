package cue

import (
	"slices"
	"strings"

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
// tools/flow analyses nothing under a root that is an error, and a
// permanent error anywhere in a struct makes the struct one: a value not
// known yet used in an interpolation, or a called module's template
// evaluated with its defaults. So where the program is an error, the
// analysis runs on each part of it that is not, down to the
// declarations, with the declarations outside the part found as tasks
// too (tools/flow's implied tasks), each analyzed once. A declaration
// that is an error itself gets no dependencies, and neither does one that
// reads it (an error too, since the error reaches it through the
// reference): the plan reports that error where it meets it.
//
// A declaration's references to itself (a postcondition's self) are not
// dependencies. The graph orders the passes and names the declarations of a cycle; it
// never decides a value: an instance is applied only when its
// configuration is concrete, or when nothing else can progress.
func dependencies(v cue.Value, decls []*decl) map[int][]int {
	g := newGraph(v, decls)
	g.analyze(nil)
	return g.deps
}

// acyclicDependencies are the dependencies of decls in v analyzed with
// the flow guard first (as the program stands, with nothing unified in
// but the guard), and false where they make a cycle.
func acyclicDependencies(v cue.Value, decls []*decl) (map[int][]int, bool) {
	deps := dependencies(flowGuard(v.Context()).Unify(v), decls) //nolint:staticcheck // as in shapeRounds.run
	return deps, acyclic(deps, len(decls))
}

// newGraph is the state of an analysis of v whose tasks are decls.
func newGraph(v cue.Value, decls []*decl) *graph {
	g := &graph{v: v, byPath: map[string]*decl{}, deps: map[int][]int{}, done: map[int]bool{}}
	for _, d := range decls {
		g.byPath[d.path.String()] = d
		g.paths = append(g.paths, d.path.Selectors())
	}
	return g
}

// graph is the state of one dependency analysis.
type graph struct {
	v      cue.Value
	byPath map[string]*decl
	paths  [][]cue.Selector
	deps   map[int][]int
	// done holds the declarations whose dependencies are recorded.
	done map[int]bool
}

// analyze runs tools/flow under root, or under each of its parts that
// holds a declaration where root is an error.
func (g *graph) analyze(root []cue.Selector) {
	rp := cue.MakePath(root...)
	if g.v.LookupPath(rp).Err() == nil {
		g.record(flow.New(&flow.Config{Root: rp, FindHiddenTasks: true, InferTasks: len(root) > 0}, g.v, g.task))
		return
	}
	if g.byPath[rp.String()] != nil {
		return
	}
	var next []cue.Selector
	for _, p := range g.paths {
		if len(p) > len(root) && slices.Equal(p[:len(root)], root) && !slices.Contains(next, p[len(root)]) {
			next = append(next, p[len(root)])
		}
	}
	for _, sel := range next {
		g.analyze(append(slices.Clip(root), sel))
	}
}

// task makes the declarations tools/flow's tasks, and the two fields of
// the flow guard; and every list outside a declaration (a local's or an
// output's value) with an element that is or may be a list or struct,
// which holds no declaration, so that flow does not look for tasks in
// it: its search (findRootTasks, cuelang.org/go v0.17.1) takes twice as
// long for each level of nested lists, 4 s at 20 levels. Such a task
// passes its dependencies on (see record).
//
// A list of scalars is searched in time linear in its length, so it is
// not a task: tools/flow finds the dependencies of every task, whether a
// declaration reads it or not, and that evaluates again each library call
// the list's value makes (dep's evaluateInner). A label module's lists of
// strings, as tasks, took more than half the time of a chain of calls
// that pass its context on (BenchmarkModuleChain).
func (g *graph) task(x cue.Value) (flow.Runner, error) {
	path := x.Path()
	key := path.String()
	if g.byPath[key] != nil || strings.HasPrefix(key, flowGuardField+".") && isFlowGuard(path) {
		return nopRunner{}, nil
	}
	if x.IncompleteKind() == cue.ListKind && !scalars(x) {
		return nopRunner{}, nil
	}
	return nil, nil
}

// scalars tells whether every element of the list x is a scalar (nor
// list nor struct, not even as one of a disjunction's values).
func scalars(x cue.Value) bool {
	it, err := x.List()
	if err != nil {
		return false
	}
	for it.Next() {
		if it.Value().IncompleteKind()&(cue.ListKind|cue.StructKind) != 0 {
			return false
		}
	}
	return true
}

// flowGuardField is the field of the flow guard (see flowGuard).
const flowGuardField = "_tofucueFlowGuard"

// flowGuard is a struct whose two fields refer to each other, in a
// package of its own (hidden labels belong to the package they are
// compiled in, so it never meets a field of the program). The planner
// puts it first in the program it analyzes (unifyLed): the first tasks
// tools/flow finds are then its fields, a cycle.
//
// tools/flow checks the tasks it found for a cycle before it returns
// (cuelang.org/go v0.17.1, tools/flow/cycle.go), task by task in the order
// found, and stops at the first cycle. The check forgets which tasks it
// has seen once it leaves them, so it walks every path of the
// dependency graph from every task again: a chain of n declarations takes
// n*n/2 steps, and declarations in layers that each refer to the whole
// layer before (a diamond on a diamond) take twice as long with each
// layer. With the guard's cycle found first, the check ends there; the
// dependencies are all recorded before it runs, and the planner finds
// the module's cycles itself (topoOrder). Without the guard, 24 layers of
// two took 0.4 s and 40 would take hours (BenchmarkDiamonds).
//
// An analysis that runs under a part of the program (where the whole
// program is an error, see graph.analyze) finds the part's tasks first
// and is not guarded.
func flowGuard(ctx *cue.Context) cue.Value {
	return ctx.CompileString(flowGuardField + ": {a: b, b: a}")
}

// isFlowGuard reports whether path is a field of the flow guard.
func isFlowGuard(path cue.Path) bool {
	sels := path.Selectors()
	return len(sels) == 2 && sels[0].String() == flowGuardField && sels[0].PkgPath() == "_"
}

// record adds the dependencies of the tasks c found, for the
// declarations not analyzed yet.
func (g *graph) record(c *flow.Controller) {
	for _, t := range c.Tasks() {
		d := g.byPath[t.Path().String()]
		if d == nil || g.done[d.index] {
			continue
		}
		g.done[d.index] = true
		seen := map[int]bool{}
		passed := map[*flow.Task]bool{}
		var depend func(t *flow.Task)
		depend = func(t *flow.Task) {
			for _, dt := range t.Dependencies() {
				on := g.byPath[dt.Path().String()]
				if on == nil {
					// A list outside the declarations (see task): what
					// it depends on.
					if !passed[dt] {
						passed[dt] = true
						depend(dt)
					}
					continue
				}
				if on == d || seen[on.index] {
					continue
				}
				seen[on.index] = true
				g.deps[d.index] = append(g.deps[d.index], on.index)
			}
		}
		depend(t)
	}
}

// acyclic tells whether the graph deps of n declarations has no cycle.
func acyclic(deps map[int][]int, n int) bool {
	order, _ := topoOrder(deps, n)
	return len(order) == n
}

// topoOrder orders the n declarations of the graph deps after those they
// depend on, in source order where the graph leaves it open. The
// declarations of a cycle, and those that depend on one, are left out;
// indeg tells, for each declaration, how many of its dependencies were
// left out too (0 for those ordered).
func topoOrder(deps map[int][]int, n int) (order, indeg []int) {
	indeg = make([]int, n)
	users := make([][]int, n)
	for i, ds := range deps {
		indeg[i] = len(ds)
		for _, d := range ds {
			users[d] = append(users[d], i)
		}
	}
	var ready []int
	for i := range n {
		if indeg[i] == 0 {
			ready = append(ready, i)
		}
	}
	for len(ready) > 0 {
		slices.Sort(ready)
		i := ready[0]
		ready = ready[1:]
		order = append(order, i)
		for _, u := range users[i] {
			indeg[u]--
			if indeg[u] == 0 {
				ready = append(ready, u)
			}
		}
	}
	return order, indeg
}

type nopRunner struct{}

func (nopRunner) Run(*flow.Task, error) error { return nil }
