package inputs

import (
	"path/filepath"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/config"
)

// maxCandidates bounds the values that one listing of a variable's
// candidates holds. A plan is far dearer than listing, and a search that
// plans with them stops long before.
const maxCandidates = 256

// Candidates lists values to try for one variable, in a fixed order, when a
// plan fails because of the value it has: a value it synthesized, or the
// null default of a nullable variable. Each value is final (converted, with
// optional attribute defaults applied) and no value is listed twice, the
// current one included.
//
// The order: first the value Synthesize makes, from the type and the
// validations, with the hints added so far (so a null is followed by a value
// of the type), then that value with one thing changed (a primitive's
// choice, a collection's length, whether an optional attribute is present),
// each thing's first alternative before any thing's second, primitives
// before structure. The alternatives come from the hints first (the
// expressions of the failures the value is blamed for: their string and
// number literals, the values listed in contains([...], x), strings that
// match their regex patterns, lengths and bounds around their numbers, the
// shapes their functions want), then the validations', then general ones. A
// value that fails more of the variable's validations than the first does
// is left out.
type Candidates struct {
	v     *config.Variable
	tried []cty.Value
	hints []hcl.Expression
	seen  map[string]bool
	queue []cty.Value
	stale bool
}

// NewCandidates starts the candidates of v, whose current value is current.
func NewCandidates(v *config.Variable, current cty.Value) *Candidates {
	return &Candidates{v: v, tried: []cty.Value{current}, stale: true}
}

// Hint adds the values that expr suggests; the next listing has them
// first. An expression hinted before adds nothing. It returns whether expr
// was new.
func (c *Candidates) Hint(expr hcl.Expression) bool {
	if expr == nil {
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
	c.hints = append(c.hints, expr)
	c.stale = true
	return true
}

// Next returns the next value to try, and false when there is none left.
// ctx holds the functions and the other variables' values (var) that the
// validations may use; nil means the functions alone.
func (c *Candidates) Next(ctx *hcl.EvalContext) (cty.Value, bool) {
	if c.v == nil {
		return cty.NilVal, false
	}
	if c.stale {
		c.list(ctx)
	}
	for len(c.queue) > 0 {
		val := c.queue[0]
		c.queue = c.queue[1:]
		if c.triedBefore(val) {
			continue
		}
		c.tried = append(c.tried, val)
		return val, true
	}
	return cty.NilVal, false
}

// Tried is every value returned so far, the current one first.
func (c *Candidates) Tried() []cty.Value { return c.tried }

func (c *Candidates) triedBefore(val cty.Value) bool {
	for _, t := range c.tried {
		if t.RawEquals(val) {
			return true
		}
	}
	return false
}

// list makes the queue anew from the hints.
func (c *Candidates) list(ctx *hcl.EvalContext) {
	c.stale = false
	c.queue = nil
	v := c.v
	if ctx == nil {
		ctx = functionContext(filepath.Dir(v.DeclRange().Filename))
	}
	s := &synth{v: v, ctx: ctx}
	s.hints(c.hints)
	root := s.build(constraintType(v), v.Name, v.TypeExpr != nil)
	if len(v.Validations) > 0 {
		s.search(root)
	}
	base := s.failures(root)
	add := func() {
		if val, ok := s.prepared(root); ok && !c.triedBefore(val) {
			for _, q := range c.queue {
				if q.RawEquals(val) {
					return
				}
			}
			c.queue = append(c.queue, val)
		}
	}
	add()
	coords := s.orderedCoords(root)
	most := 0
	for _, co := range coords {
		most = max(most, co.options)
	}
	budget := s.evaluations + maxEvaluations
	for rank := 1; rank < most && len(c.queue) < maxCandidates && s.evaluations < budget; rank++ {
		for _, co := range coords {
			if rank >= co.options || len(c.queue) >= maxCandidates || s.evaluations >= budget {
				continue
			}
			cur := co.get()
			co.set((cur + rank) % co.options)
			if s.failures(root) <= base {
				add()
			}
			co.set(cur)
		}
	}
}
