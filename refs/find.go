package refs

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tofucue/tofucue/config"
)

// InExpr finds the references in an expression. The names an expression
// binds itself (the variables of a for expression) are not references.
func InExpr(expr hcl.Expression, ctx ParseRefContext) ([]*Reference, hcl.Diagnostics) {
	f := &finder{ctx: ctx}
	f.expr(expr)
	return f.result()
}

// InBody finds the references in a block body and in its nested blocks, as
// WalkBody walks them: the iterator of a dynamic block (its label, or its
// iterator argument) is bound inside its labels and content, so
// each.value-like uses of it are not references.
func InBody(body hcl.Body, ctx ParseRefContext) ([]*Reference, hcl.Diagnostics) {
	f := &finder{ctx: ctx}
	f.body(body)
	return f.result()
}

// finder collects the references of the expressions it walks, in scope,
// the outermost scope of their declaration (nil outside one).
type finder struct {
	ctx   ParseRefContext
	scope *Scope
	uses  []Use
	diags hcl.Diagnostics
}

func (f *finder) result() ([]*Reference, hcl.Diagnostics) {
	refs := make([]*Reference, len(f.uses))
	for i, u := range f.uses {
		refs[i] = u.Reference
	}
	slices.SortStableFunc(refs, func(a, b *Reference) int { return compareRanges(a.Traversal.SourceRange(), b.Traversal.SourceRange()) })
	return refs, f.diags
}

func compareRanges(a, b hcl.Range) int {
	return cmp.Or(strings.Compare(a.Filename, b.Filename), cmp.Compare(a.Start.Byte, b.Start.Byte))
}

func (f *finder) expr(e hcl.Expression) {
	Walk(e, f.scope, f.visit)
}

func (f *finder) body(b hcl.Body) {
	WalkBody(b, f.scope, f.visit)
}

// visit adds the reference that a traversal expression makes, unless its
// root is bound. A JSON expression has no parts to visit: its variables
// are its traversals.
func (f *finder) visit(e hcl.Expression, s *Scope) bool {
	switch e := e.(type) {
	case *hclsyntax.ScopeTraversalExpr:
		f.resolve(e.Traversal, s)
	case hclsyntax.Expression:
	default:
		for _, t := range e.Variables() {
			f.resolve(t, s)
		}
	}
	return true
}

func (f *finder) resolve(t hcl.Traversal, s *Scope) {
	root, diags := s.Resolve(t, f.ctx)
	f.diags = append(f.diags, diags...)
	if root.Reference != nil {
		f.uses = append(f.uses, Use{Reference: root.Reference, Context: s.Context()})
	}
}

// traversal adds the reference of a traversal that is no expression (a
// depends_on entry, a middleware attachment): nothing binds its root.
func (f *finder) traversal(t hcl.Traversal) {
	f.resolve(t, f.scope)
}

// Use is a reference found in a module, with the declaration it is written
// in.
type Use struct {
	*Reference
	// In names the declaration the way OpenTofu's diagnostics do:
	// `resource "aws_instance" "web"`, `locals`, `output "id"`.
	In string
	// Context is what the place of the reference gives besides
	// declarations: each, count.index, self (see CheckContext).
	Context Context
}

// InModule finds every reference in a module's declarations, ordered by
// position, with the diagnostics of the traversals that cannot be
// references. Type constraints, moved and removed addresses, import targets,
// ignore_changes and provider references are addresses rather than
// expressions, and are not visited.
func InModule(m *config.Module) ([]Use, hcl.Diagnostics) {
	w := &moduleWalker{m: m}
	w.walk()
	slices.SortStableFunc(w.uses, func(a, b Use) int {
		return compareRanges(a.Traversal.SourceRange(), b.Traversal.SourceRange())
	})
	return w.uses, w.diags
}

// CheckModule finds every reference in a module and checks each: all the
// problems of its references, ordered by position.
func CheckModule(m *config.Module) hcl.Diagnostics {
	uses, diags := InModule(m)
	for _, u := range uses {
		diags = append(diags, Check(u.Reference, m)...)
	}
	slices.SortStableFunc(diags, func(a, b *hcl.Diagnostic) int {
		return compareRanges(rangeOf(a), rangeOf(b))
	})
	return diags
}

func rangeOf(d *hcl.Diagnostic) hcl.Range {
	if d.Subject != nil {
		return *d.Subject
	}
	return hcl.Range{}
}

type moduleWalker struct {
	m     *config.Module
	uses  []Use
	diags hcl.Diagnostics
}

// collect runs fill on a new finder and adds what it finds to the walker,
// as written in the declaration in, with no context objects.
func (w *moduleWalker) collect(in string, fill func(f *finder)) {
	w.collectIn(in, NewScope(Context{}, nil), fill)
}

// collectIn is collect for a place whose outermost scope is s.
func (w *moduleWalker) collectIn(in string, s *Scope, fill func(f *finder)) {
	f := &finder{ctx: w.m, scope: s}
	fill(f)
	for _, u := range f.uses {
		u.In = in
		w.uses = append(w.uses, u)
	}
	w.diags = append(w.diags, f.diags...)
}

func (w *moduleWalker) walk() {
	m := w.m
	w.collect("terraform", func(f *finder) {
		for _, r := range m.Terraform.Middleware {
			f.traversal(r.Traversal)
		}
	})
	for _, v := range config.InOrder(m.Variables) {
		w.collect(fmt.Sprintf("variable %q", v.Name), func(f *finder) { checkRules(f, v.Validations) })
	}
	for _, l := range config.InOrder(m.Locals) {
		w.collect("locals", func(f *finder) { f.expr(l.Expr) })
	}
	for _, o := range config.InOrder(m.Outputs) {
		w.collect(fmt.Sprintf("output %q", o.Name), func(f *finder) {
			f.expr(o.Expr)
			traversals(f, o.DependsOn)
			checkRules(f, o.Preconditions)
		})
	}
	for _, mc := range config.InOrder(m.ModuleCalls) {
		w.collectIn(fmt.Sprintf("module %q", mc.Name), NewScope(Context{Each: mc.ForEach != nil, Count: mc.Count != nil}, mc.ForEach), func(f *finder) {
			for _, e := range []hcl.Expression{mc.Source, mc.VersionExpr, mc.Count, mc.ForEach, mc.Enabled} {
				f.expr(e)
			}
			traversals(f, mc.DependsOn)
			f.body(mc.Config)
		})
	}
	for _, rs := range []map[string]*config.Resource{m.ManagedResources, m.DataResources, m.EphemeralResources} {
		for _, r := range config.InOrder(rs) {
			w.resource(r, fmt.Sprintf("%s %q %q", r.Mode.BlockType(), r.Type, r.Name))
		}
	}
	for _, p := range config.InOrder(m.ProviderConfigs) {
		w.collectIn(fmt.Sprintf("provider %q", p.Name), NewScope(Context{Each: p.ForEach != nil}, p.ForEach), func(f *finder) {
			f.expr(p.ForEach)
			f.body(p.Config)
			for _, r := range p.Middleware {
				f.traversal(r.Traversal)
			}
		})
	}
	for _, c := range config.InOrder(m.Checks) {
		in := fmt.Sprintf("check %q", c.Name)
		w.collect(in, func(f *finder) { checkRules(f, c.Asserts) })
		if c.DataSource != nil {
			w.resource(c.DataSource, in)
		}
	}
	for _, im := range m.Imports {
		w.collectIn("import", NewScope(Context{Each: im.ForEach != nil}, im.ForEach), func(f *finder) {
			f.expr(im.ID)
			f.expr(im.ForEach)
		})
	}
	for _, rm := range m.Removed {
		w.collectIn("removed", NewScope(Context{Self: true}, nil), func(f *finder) { provisioners(f, rm.Provisioners, rm.Connection) })
	}
	for _, mw := range config.InOrder(m.Middleware) {
		w.collect(fmt.Sprintf("middleware %q", mw.Name), func(f *finder) {
			for _, e := range []hcl.Expression{mw.Command, mw.Args, mw.Env} {
				f.expr(e)
			}
		})
	}
	for blockType, blocks := range m.FeatureBlocks {
		if blockType == "middleware" {
			continue // decoded above
		}
		for _, fb := range config.InOrder(blocks) {
			w.collect(fmt.Sprintf("%s %q", blockType, fb.Name), func(f *finder) { f.body(fb.Body) })
		}
	}
}

func (w *moduleWalker) resource(r *config.Resource, in string) {
	ctx := Context{Each: r.ForEach != nil, Count: r.Count != nil}
	w.collectIn(in, NewScope(ctx, r.ForEach), func(f *finder) {
		for _, e := range []hcl.Expression{r.Count, r.ForEach, r.Enabled} {
			f.expr(e)
		}
		traversals(f, r.DependsOn)
		f.body(r.Config)
		for _, e := range r.Lifecycle.ReplaceTriggeredBy {
			f.expr(e)
		}
		checkRules(f, r.Lifecycle.Preconditions)
	})
	// self is the instance in its postconditions, provisioners and
	// connection blocks.
	ctx.Self = true
	w.collectIn(in, NewScope(ctx, r.ForEach), func(f *finder) {
		checkRules(f, r.Lifecycle.Postconditions)
		provisioners(f, r.Provisioners, r.Connection)
	})
}

func traversals(f *finder, ts []hcl.Traversal) {
	for _, t := range ts {
		f.traversal(t)
	}
}

func checkRules(f *finder, rules []*config.CheckRule) {
	for _, r := range rules {
		f.expr(r.Condition)
		f.expr(r.ErrorMessage)
	}
}

func provisioners(f *finder, ps []*config.Provisioner, conn *config.Connection) {
	if conn != nil {
		f.body(conn.Config)
	}
	for _, p := range ps {
		f.body(p.Config)
		if p.Connection != nil {
			f.body(p.Connection.Config)
		}
	}
}
