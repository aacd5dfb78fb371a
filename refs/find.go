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
// binds itself (the variables of a for expression) are not references; hcl
// leaves them out.
func InExpr(expr hcl.Expression, ctx ParseRefContext) ([]*Reference, hcl.Diagnostics) {
	f := &finder{ctx: ctx}
	f.expr(expr, nil)
	return f.result()
}

// InBody finds the references in a block body and in its nested blocks. The
// iterator of a dynamic block (its label, or its iterator argument) is bound
// inside its labels and content, so each.value-like uses of it are not
// references. Bodies that the loader merged (override files, "_" escape
// blocks) are walked part by part.
//
// JSON bodies are walked through hcl's generic API: a dynamic block written
// as a direct property is understood, but one nested inside another JSON
// block object is read as plain attributes.
func InBody(body hcl.Body, ctx ParseRefContext) ([]*Reference, hcl.Diagnostics) {
	f := &finder{ctx: ctx}
	f.body(body, nil)
	return f.result()
}

type finder struct {
	ctx   ParseRefContext
	refs  []*Reference
	diags hcl.Diagnostics
}

func (f *finder) result() ([]*Reference, hcl.Diagnostics) {
	slices.SortStableFunc(f.refs, func(a, b *Reference) int { return compareRanges(a.Traversal.SourceRange(), b.Traversal.SourceRange()) })
	return f.refs, f.diags
}

func compareRanges(a, b hcl.Range) int {
	return cmp.Or(strings.Compare(a.Filename, b.Filename), cmp.Compare(a.Start.Byte, b.Start.Byte))
}

func (f *finder) expr(e hcl.Expression, bound []string) {
	if e == nil {
		return
	}
	for _, t := range e.Variables() {
		if slices.Contains(bound, t.RootName()) {
			continue
		}
		f.traversal(t)
	}
}

func (f *finder) traversal(t hcl.Traversal) {
	ref, diags := Parse(t, f.ctx)
	f.diags = append(f.diags, diags...)
	if ref != nil {
		f.refs = append(f.refs, ref)
	}
}

func (f *finder) body(b hcl.Body, bound []string) {
	if b == nil {
		return
	}
	if parts := config.BodyParts(b); len(parts) > 1 {
		for _, p := range parts {
			f.body(p, bound)
		}
		return
	}
	// The schema names every block type the syntax has, so that the body's
	// own hidden arguments and blocks (the meta-arguments a decoder already
	// took) stay hidden and everything else is seen.
	schema := &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "dynamic", LabelNames: []string{"type"}}}}
	if sb, ok := b.(*hclsyntax.Body); ok {
		for _, blk := range sb.Blocks {
			if !slices.ContainsFunc(schema.Blocks, func(h hcl.BlockHeaderSchema) bool { return h.Type == blk.Type }) {
				schema.Blocks = append(schema.Blocks, hcl.BlockHeaderSchema{Type: blk.Type, LabelNames: labelNames(len(blk.Labels))})
			}
		}
	}
	content, remain, _ := b.PartialContent(schema)
	attrs, _ := remain.JustAttributes()
	for _, a := range attrs {
		f.expr(a.Expr, bound)
	}
	for _, blk := range content.Blocks {
		if blk.Type == "dynamic" {
			f.dynamic(blk, bound)
		} else {
			f.body(blk.Body, bound)
		}
	}
}

var dynamicSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "for_each"}, {Name: "iterator"}, {Name: "labels"}},
	Blocks:     []hcl.BlockHeaderSchema{{Type: "content"}},
}

func (f *finder) dynamic(blk *hcl.Block, bound []string) {
	content, _, _ := blk.Body.PartialContent(dynamicSchema)
	iterator := blk.Labels[0]
	if a, ok := content.Attributes["iterator"]; ok {
		if kw := hcl.ExprAsKeyword(a.Expr); kw != "" {
			iterator = kw
		}
	}
	if a, ok := content.Attributes["for_each"]; ok {
		f.expr(a.Expr, bound)
	}
	inner := append(slices.Clip(bound), iterator)
	if a, ok := content.Attributes["labels"]; ok {
		f.expr(a.Expr, inner)
	}
	for _, c := range content.Blocks {
		f.body(c.Body, inner)
	}
}

func labelNames(n int) []string {
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("label%d", i)
	}
	return names
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
	w.collectIn(in, Context{}, fill)
}

// collectIn is collect for a place with the context objects ctx.
func (w *moduleWalker) collectIn(in string, ctx Context, fill func(f *finder)) {
	f := &finder{ctx: w.m}
	fill(f)
	for _, r := range f.refs {
		w.uses = append(w.uses, Use{Reference: r, In: in, Context: ctx})
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
		w.collect("locals", func(f *finder) { f.expr(l.Expr, nil) })
	}
	for _, o := range config.InOrder(m.Outputs) {
		w.collect(fmt.Sprintf("output %q", o.Name), func(f *finder) {
			f.expr(o.Expr, nil)
			traversals(f, o.DependsOn)
			checkRules(f, o.Preconditions)
		})
	}
	for _, mc := range config.InOrder(m.ModuleCalls) {
		w.collectIn(fmt.Sprintf("module %q", mc.Name), Context{Each: mc.ForEach != nil, Count: mc.Count != nil}, func(f *finder) {
			for _, e := range []hcl.Expression{mc.Source, mc.VersionExpr, mc.Count, mc.ForEach, mc.Enabled} {
				f.expr(e, nil)
			}
			traversals(f, mc.DependsOn)
			f.body(mc.Config, nil)
		})
	}
	for _, rs := range []map[string]*config.Resource{m.ManagedResources, m.DataResources, m.EphemeralResources} {
		for _, r := range config.InOrder(rs) {
			w.resource(r, fmt.Sprintf("%s %q %q", r.Mode.BlockType(), r.Type, r.Name))
		}
	}
	for _, p := range config.InOrder(m.ProviderConfigs) {
		w.collectIn(fmt.Sprintf("provider %q", p.Name), Context{Each: p.ForEach != nil}, func(f *finder) {
			f.expr(p.ForEach, nil)
			f.body(p.Config, nil)
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
		w.collectIn("import", Context{Each: im.ForEach != nil}, func(f *finder) {
			f.expr(im.ID, nil)
			f.expr(im.ForEach, nil)
		})
	}
	for _, rm := range m.Removed {
		w.collectIn("removed", Context{Self: true}, func(f *finder) { provisioners(f, rm.Provisioners, rm.Connection) })
	}
	for _, mw := range config.InOrder(m.Middleware) {
		w.collect(fmt.Sprintf("middleware %q", mw.Name), func(f *finder) {
			for _, e := range []hcl.Expression{mw.Command, mw.Args, mw.Env} {
				f.expr(e, nil)
			}
		})
	}
	for blockType, blocks := range m.FeatureBlocks {
		if blockType == "middleware" {
			continue // decoded above
		}
		for _, fb := range config.InOrder(blocks) {
			w.collect(fmt.Sprintf("%s %q", blockType, fb.Name), func(f *finder) { f.body(fb.Body, nil) })
		}
	}
}

func (w *moduleWalker) resource(r *config.Resource, in string) {
	ctx := Context{Each: r.ForEach != nil, Count: r.Count != nil}
	w.collectIn(in, ctx, func(f *finder) {
		for _, e := range []hcl.Expression{r.Count, r.ForEach, r.Enabled} {
			f.expr(e, nil)
		}
		traversals(f, r.DependsOn)
		f.body(r.Config, nil)
		for _, e := range r.Lifecycle.ReplaceTriggeredBy {
			f.expr(e, nil)
		}
		checkRules(f, r.Lifecycle.Preconditions)
	})
	// self is the instance in its postconditions, provisioners and
	// connection blocks.
	ctx.Self = true
	w.collectIn(in, ctx, func(f *finder) {
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
		f.expr(r.Condition, nil)
		f.expr(r.ErrorMessage, nil)
	}
}

func provisioners(f *finder, ps []*config.Provisioner, conn *config.Connection) {
	if conn != nil {
		f.body(conn.Config, nil)
	}
	for _, p := range ps {
		f.body(p.Config, nil)
		if p.Connection != nil {
			f.body(p.Connection.Config, nil)
		}
	}
}
