package inputs

import (
	"path/filepath"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/config"
)

// Bounds of a variable's candidates. A plan is far dearer than listing
// them, and a search that plans with them stops long before.
const (
	maxCandidates = 256 // values listed at once
	maxOptions    = 256 // choices of one primitive, hints included
)

// Candidates lists values to try for one variable, in a fixed order, when a
// plan fails because of the value it has: a value it synthesized, or the
// null default of a nullable variable. Each value is final (converted, with
// optional attribute defaults applied), and no value is listed twice, the
// current one included.
//
// The candidates are built as Synthesize builds a value: a tree of choices
// (each primitive's value, each collection's length, whether each optional
// attribute is present) set by the type and met to the validations. The
// first candidate is that tree's value, when it is not the current one (a
// null is followed by a value of its type). Then come the values that
// change one choice of the accepted tree: first the choices in the parts
// of the value that the latest hint names (var.NAME.a.b), then those of the
// hints before, then the rest; in each group, each choice's first
// alternative before any choice's second, primitives before structure. A
// primitive's
// alternatives are first the hinted values (Hint: the expressions of the
// failures the value is blamed for, the latest first: their string and
// number literals, the values listed in contains([...], x), strings that
// match their regex patterns, numbers and lengths around their bounds, the
// shapes their functions want), then those of the validations and general
// ones. A value that fails more of the variable's validations than the
// accepted one is left out. Accept moves the tree to the last candidate, so
// the next ones build on it.
type Candidates struct {
	v     *config.Variable
	s     *synth
	root  *node
	tried []cty.Value
	// first is set while the tree's own value is yet to be tried.
	first bool
	// groups are the hinted values, one group per Hint; focus the parts
	// of the value the hints name (var.NAME.a.b is [a b]).
	groups [][]cty.Value
	focus  [][]string
	seen   map[string]bool
	queue  []candidate
	last   *candidate
	stale  bool
}

type candidate struct {
	val   cty.Value
	apply func() // sets the tree to the candidate; nil for the tree as it is
}

// NewCandidates starts the candidates of v, whose current value is current.
// ctx holds the functions and the other variables' values (var) that the
// validations may use; nil means the functions alone.
func NewCandidates(v *config.Variable, current cty.Value, ctx *hcl.EvalContext) *Candidates {
	c := &Candidates{v: v, tried: []cty.Value{current}, stale: true}
	if v == nil {
		return c
	}
	if ctx == nil {
		ctx = functionContext(filepath.Dir(v.DeclRange().Filename))
	}
	c.s = &synth{v: v, ctx: ctx}
	c.s.hints()
	c.root = c.s.build(constraintType(v), v.Name, v.TypeExpr != nil)
	if len(v.Validations) > 0 {
		c.s.search(c.root)
	}
	val, ok := c.s.prepared(c.root)
	c.first = ok && !val.RawEquals(current)
	return c
}

// Hint adds the values that expr suggests; the next candidates have them
// first. An expression hinted before adds nothing. It returns whether expr
// was new.
func (c *Candidates) Hint(expr hcl.Expression) bool {
	if expr == nil || c.s == nil {
		return false
	}
	key := expr.Range().String()
	if c.seen[key] {
		return false
	}
	if c.seen == nil {
		c.seen = map[string]bool{}
	}
	c.seen[key] = true
	h := gather([]hcl.Expression{expr}, c.v.Name)
	var group []cty.Value
	for _, x := range h.strs {
		group = append(group, cty.StringVal(x))
	}
	for _, n := range h.nums {
		group = append(group, cty.NumberVal(n))
	}
	c.groups = append(c.groups, group)
	c.focus = append(c.focus, pathsIn(expr, c.v.Name)...)
	c.s.strs = appendNew(c.s.strs, group, cty.String)
	c.s.nums = appendNew(c.s.nums, group, cty.Number)
	for _, l := range h.lengths {
		if l >= 0 && l <= maxLength && !slices.Contains(c.s.lengths, l) {
			c.s.lengths = append(c.s.lengths, l)
		}
	}
	c.extend(c.root, group, h.lengths)
	c.stale = true
	return true
}

// appendNew appends the values of type ty in group that pool lacks.
func appendNew(pool, group []cty.Value, ty cty.Type) []cty.Value {
	for _, x := range group {
		if x.Type() == ty && !slices.ContainsFunc(pool, x.RawEquals) {
			pool = append(pool, x)
		}
	}
	return pool
}

// extend adds hinted values to the choices of every primitive of the tree
// that holds values of their type, and hinted lengths to every
// collection's, after the choices it has, so that no choice moves.
func (c *Candidates) extend(n *node, group []cty.Value, lengths []int) {
	if n == nil {
		return
	}
	switch n.kind {
	case primNode:
		if len(n.options) > 0 && len(n.options) < maxOptions {
			ty := n.options[0].Type()
			if ty == cty.String || ty == cty.Number {
				n.options = appendNew(n.options, group, ty)
			}
		}
	case listNode, mapNode:
		for _, l := range lengths {
			if l >= 0 && l <= maxLength && !slices.Contains(n.lenOpts, l) {
				n.lenOpts = append(n.lenOpts, l)
			}
		}
		for _, e := range n.all {
			c.extend(e, group, lengths)
		}
		for _, k := range n.keys {
			c.extend(k, group, lengths)
		}
	case objectNode:
		for _, a := range n.attrs {
			c.extend(a.n, group, lengths)
		}
	case tupleNode:
		for _, e := range n.elems {
			c.extend(e, group, lengths)
		}
	}
}

// Next returns the next value to try, and false when there is none left.
func (c *Candidates) Next() (cty.Value, bool) {
	if c.s == nil {
		return cty.NilVal, false
	}
	if c.stale {
		c.list()
	}
	for len(c.queue) > 0 {
		cand := c.queue[0]
		c.queue = c.queue[1:]
		if c.triedBefore(cand.val) {
			continue
		}
		c.tried = append(c.tried, cand.val)
		c.last = &cand
		return cand.val, true
	}
	return cty.NilVal, false
}

// Accept makes the value Next returned last the one that later candidates
// change.
func (c *Candidates) Accept() {
	if c.last == nil {
		return
	}
	if c.last.apply != nil {
		c.last.apply()
	}
	c.first = false
	c.last = nil
	c.stale = true
}

func (c *Candidates) triedBefore(val cty.Value) bool {
	return slices.ContainsFunc(c.tried, val.RawEquals)
}

// list makes the queue anew: the tree's value while it is untried, then
// the tree with one choice changed.
func (c *Candidates) list() {
	c.stale = false
	c.queue = nil
	s, root := c.s, c.root
	add := func(apply func()) {
		val, ok := s.prepared(root)
		if !ok || c.triedBefore(val) || slices.ContainsFunc(c.queue, func(q candidate) bool { return q.val.RawEquals(val) }) {
			return
		}
		c.queue = append(c.queue, candidate{val: val, apply: apply})
	}
	if c.first {
		add(nil)
	}
	base := s.failures(root)
	budget := s.evaluations + maxEvaluations
	for _, coords := range c.focused(s.orderedCoords(root)) {
		alts := make([][]int, len(coords))
		for i, co := range coords {
			alts[i] = c.alternatives(co)
		}
		for rank := 0; len(c.queue) < maxCandidates && s.evaluations < budget; rank++ {
			more := false
			for i, co := range coords {
				if rank >= len(alts[i]) || len(c.queue) >= maxCandidates || s.evaluations >= budget {
					continue
				}
				more = true
				cur, o := co.get(), alts[i][rank]
				co.set(o)
				if s.failures(root) <= base {
					add(func() { co.set(o) })
				}
				co.set(cur)
			}
			if !more {
				break
			}
		}
	}
}

// focused groups the coordinates: first those in the parts of the value
// that the latest hint names, then those of the hint before, ..., then the
// rest; the order is otherwise kept.
func (c *Candidates) focused(coords []coord) [][]coord {
	groups := make([][]coord, len(c.focus)+1)
	for _, co := range coords {
		g := len(c.focus)
		for i := len(c.focus) - 1; i >= 0; i-- {
			f := c.focus[i]
			n := min(len(f), len(co.path))
			if n > 0 && slices.Equal(f[:n], co.path[:n]) {
				g = len(c.focus) - 1 - i
				break
			}
		}
		groups[g] = append(groups[g], co)
	}
	return groups
}

// pathsIn lists the parts of var.name that expr names: the steps after
// var.name of each traversal, an index as "*".
func pathsIn(expr hcl.Expression, name string) [][]string {
	var out [][]string
	for _, tr := range expr.Variables() {
		if len(tr) < 3 || tr.RootName() != "var" {
			continue
		}
		if a, ok := tr[1].(hcl.TraverseAttr); !ok || a.Name != name {
			continue
		}
		var path []string
		for _, step := range tr[2:] {
			switch st := step.(type) {
			case hcl.TraverseAttr:
				path = append(path, st.Name)
			case hcl.TraverseIndex:
				path = append(path, "*")
			}
		}
		out = append(out, path)
	}
	return out
}

// alternatives are the other choices of a coordinate, in the order to try
// them: for a primitive, the values of the latest hint first, then of the
// hints before, then the rest in their order.
func (c *Candidates) alternatives(co coord) []int {
	cur := co.get()
	var out []int
	used := map[int]bool{cur: true}
	if co.prim != nil {
		for g := len(c.groups) - 1; g >= 0; g-- {
			for _, x := range c.groups[g] {
				if i := slices.IndexFunc(co.prim.options, x.RawEquals); i >= 0 && !used[i] {
					used[i] = true
					out = append(out, i)
				}
			}
		}
	}
	for i := range co.options {
		if !used[i] {
			out = append(out, i)
		}
	}
	return out
}
