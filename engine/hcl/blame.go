package hcl

import (
	"maps"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/refs"
)

// maxBlameSteps bounds the expressions and bodies that blame reads for one
// error: the references of a large module reach most of it, and a few
// thousand steps read every declaration of the corpus' largest trees.
const maxBlameSteps = 4000

// blame returns the root module variables whose values the expressions of
// an error may depend on, by name, and the expressions that say what values
// would do: those same. The expressions are exprs (the false parts of a
// condition), or else the diagnostic's, or else the innermost expression
// around its subject. Its references are followed
// in the module instances that pl evaluated: a local to its expression, a
// child module's variable to the call's argument (and the call's count and
// for_each) in the calling module, a module call's output to the output's
// expression in the child, a resource to the argument or block named (its
// whole body when none is) and its count and for_each; the
// count and for_each of the blocks around the expression are followed too.
// A variable of the root module ends a path.
func blame(pl *planner, d *hcl.Diagnostic, exprs []hcl.Expression) ([]string, []hcl.Expression) {
	if pl == nil || d.Subject == nil {
		return nil, nil
	}
	file := d.Subject.Filename
	b := &blamer{vars: map[string]bool{}, seen: map[blameKey]bool{}}
	var hints []hcl.Expression
	sites := map[*config.ModuleCall]bool{}
	for _, m := range pl.modules {
		f := m.cfg.Files[file]
		if f == nil {
			continue
		}
		// The instances of one call share their configuration and
		// arguments: the first stands for them all.
		var call *config.ModuleCall
		if m.site != nil {
			call = m.site.call
		}
		if sites[call] {
			continue
		}
		sites[call] = true
		body, ok := f.Body.(*hclsyntax.Body)
		if !ok {
			continue
		}
		around := enclosing(body, *d.Subject)
		if len(exprs) == 0 {
			if d.Expression != nil {
				exprs = []hcl.Expression{d.Expression}
			} else if e := innermost(body, *d.Subject); e != nil {
				exprs = []hcl.Expression{e}
			}
		}
		if len(hints) == 0 {
			hints = exprs
		}
		for _, e := range exprs {
			b.expr(m, e)
		}
		for _, blk := range around {
			for _, name := range []string{"for_each", "count"} {
				if a := blk.Body.Attributes[name]; a != nil {
					b.expr(m, a.Expr)
				}
			}
		}
	}
	b.run()
	return slices.Sorted(maps.Keys(b.vars)), hints
}

// blamer follows references from module instance to module instance.
type blamer struct {
	vars  map[string]bool
	seen  map[blameKey]bool
	work  []blameItem
	steps int
}

type blameKey struct {
	m   *module
	rng hcl.Range
}

type blameItem struct {
	m    *module
	expr hcl.Expression
	body hcl.Body
}

func (b *blamer) expr(m *module, e hcl.Expression) {
	if e == nil {
		return
	}
	k := blameKey{m, e.Range()}
	if b.seen[k] {
		return
	}
	b.seen[k] = true
	b.work = append(b.work, blameItem{m: m, expr: e})
}

func (b *blamer) body(m *module, body hcl.Body) {
	if body == nil {
		return
	}
	k := blameKey{m, body.MissingItemRange()}
	if sb, ok := body.(*hclsyntax.Body); ok {
		k.rng = sb.SrcRange
	}
	if b.seen[k] {
		return
	}
	b.seen[k] = true
	b.work = append(b.work, blameItem{m: m, body: body})
}

func (b *blamer) run() {
	for len(b.work) > 0 && b.steps < maxBlameSteps {
		it := b.work[0]
		b.work = b.work[1:]
		b.steps++
		var found []*refs.Reference
		if it.expr != nil {
			found, _ = refs.InExpr(it.expr, it.m.cfg)
		} else {
			found, _ = refs.InBody(it.body, it.m.cfg)
		}
		for _, ref := range found {
			b.follow(it.m, ref)
		}
	}
}

// follow takes one reference of module instance m a step further.
func (b *blamer) follow(m *module, ref *refs.Reference) {
	switch s := ref.Subject.(type) {
	case refs.InputVariable:
		if m.site == nil {
			if m.cfg.Variables[s.Name] != nil {
				b.vars[s.Name] = true
			}
			return
		}
		if a := m.site.attrs[s.Name]; a != nil {
			b.expr(m.site.parent, a.Expr)
			b.expr(m.site.parent, m.site.call.Count)
			b.expr(m.site.parent, m.site.call.ForEach)
		}
	case refs.LocalValue:
		if l := m.cfg.Locals[s.Name]; l != nil {
			b.expr(m, l.Expr)
		}
	case refs.ModuleCall:
		b.outputs(m, s.Name, "")
	case refs.ModuleCallInstance:
		b.outputs(m, s.Call.Name, "")
	case refs.ModuleCallOutput:
		b.outputs(m, s.Call.Call.Name, s.Name)
	case refs.Resource:
		b.resource(m, s, ref.Remaining)
	case refs.ResourceInstance:
		b.resource(m, s.Resource, ref.Remaining)
	}
}

// outputs follows a module call's output (every output when name is "")
// into the call's first instance.
func (b *blamer) outputs(m *module, call, name string) {
	ec := m.calls[call]
	if ec == nil || len(ec.children) == 0 {
		return
	}
	child := ec.children[0]
	for _, out := range slices.Sorted(maps.Keys(child.cfg.Outputs)) {
		if name == "" || out == name {
			b.expr(child, child.cfg.Outputs[out].Expr)
		}
	}
}

// resource follows a reference to a resource into its configuration: to
// the argument or nested block it names, or its whole body, and its count
// and for_each. An attribute that the configuration does not set is the
// provider's to compute, and goes no further.
func (b *blamer) resource(m *module, r refs.Resource, rest hcl.Traversal) {
	res := m.cfg.Resource(r.Mode, r.Type, r.Name)
	if res == nil {
		return
	}
	b.expr(m, res.Count)
	b.expr(m, res.ForEach)
	if len(rest) > 0 {
		if _, ok := rest[0].(hcl.TraverseIndex); ok {
			rest = rest[1:]
		}
	}
	body, ok := res.Config.(*hclsyntax.Body)
	if !ok || len(rest) == 0 {
		b.body(m, res.Config)
		return
	}
	step, ok := rest[0].(hcl.TraverseAttr)
	if !ok {
		b.body(m, res.Config)
		return
	}
	if a := body.Attributes[step.Name]; a != nil {
		b.expr(m, a.Expr)
	}
	for _, blk := range body.Blocks {
		if blk.Type == step.Name || blk.Type == "dynamic" && len(blk.Labels) == 1 && blk.Labels[0] == step.Name {
			b.body(m, blk.Body)
		}
	}
}

// wider are expressions around an error's subject to blame when its own
// expression reaches no variable that can change (the literal 2 of
// slice(split("-", local.zone), 0, 2), whose list is too short): the
// innermost function call around it, then the whole expression of the
// argument it is in.
func wider(pl *planner, d *hcl.Diagnostic) []hcl.Expression {
	if pl == nil || d.Subject == nil {
		return nil
	}
	for _, m := range pl.modules {
		f := m.cfg.Files[d.Subject.Filename]
		if f == nil {
			continue
		}
		body, ok := f.Body.(*hclsyntax.Body)
		if !ok {
			return nil
		}
		var call, outer hclsyntax.Expression
		_ = hclsyntax.VisitAll(body, func(n hclsyntax.Node) hcl.Diagnostics {
			e, ok := n.(hclsyntax.Expression)
			if !ok || !holds(e.Range(), *d.Subject) {
				return nil
			}
			if _, isCall := e.(*hclsyntax.FunctionCallExpr); isCall && (call == nil || size(e.Range()) < size(call.Range())) {
				call = e
			}
			if outer == nil || size(e.Range()) > size(outer.Range()) {
				outer = e
			}
			return nil
		})
		var out []hcl.Expression
		for _, e := range []hclsyntax.Expression{call, outer} {
			if e != nil && (len(out) == 0 || out[len(out)-1].Range() != e.Range()) {
				out = append(out, e)
			}
		}
		return out
	}
	return nil
}

// innermost is the smallest expression of body whose range holds rng.
func innermost(body *hclsyntax.Body, rng hcl.Range) hcl.Expression {
	var best hclsyntax.Expression
	_ = hclsyntax.VisitAll(body, func(n hclsyntax.Node) hcl.Diagnostics {
		e, ok := n.(hclsyntax.Expression)
		if !ok || !holds(e.Range(), rng) {
			return nil
		}
		if best == nil || size(e.Range()) < size(best.Range()) {
			best = e
		}
		return nil
	})
	if best == nil {
		return nil
	}
	return best
}

// enclosing lists the blocks of body around rng, outermost first.
func enclosing(body *hclsyntax.Body, rng hcl.Range) []*hclsyntax.Block {
	var out []*hclsyntax.Block
	for {
		var inner *hclsyntax.Block
		for _, blk := range body.Blocks {
			if holds(blk.Range(), rng) {
				inner = blk
				break
			}
		}
		if inner == nil {
			return out
		}
		out = append(out, inner)
		body = inner.Body
	}
}

func holds(outer, inner hcl.Range) bool {
	return outer.Filename == inner.Filename && outer.Start.Byte <= inner.Start.Byte && inner.End.Byte <= outer.End.Byte
}

func size(r hcl.Range) int { return r.End.Byte - r.Start.Byte }
