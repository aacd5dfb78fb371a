package convert

import (
	"strconv"

	"cuelang.org/go/cue/ast"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// terraform converts a terraform block to data in _terraform: the
// required versions and providers, backend and the rest, as written.
// Bare keywords (experiments = [x]) become strings; a middleware list
// becomes the names it holds.
func (c *converter) terraform(b *hclsyntax.Block) []ast.Decl {
	s := c.staticBody(b.Body)
	f := field(ident(terraformRoot), s)
	f.Attrs = []*ast.Attribute{attr("terraform")}
	return []ast.Decl{f}
}

// staticBody converts a body of settings (terraform, middleware): values
// are constants, keyword lists or references.
func (c *converter) staticBody(b *hclsyntax.Body) *ast.StructLit {
	s := &ast.StructLit{}
	for _, a := range sortedAttrs(b) {
		s.Elts = append(s.Elts, field(c.lbl(a.Name), c.staticExpr(a.Expr)))
	}
	for _, blk := range b.Blocks {
		inner := c.staticBody(blk.Body)
		path := append([]string{blk.Type}, blk.Labels...)
		f := field(c.lbl(path[len(path)-1]), inner)
		for i := len(path) - 2; i >= 0; i-- {
			f = field(c.lbl(path[i]), &ast.StructLit{Elts: []ast.Decl{f}})
		}
		s.Elts = append(s.Elts, f)
	}
	return s
}

func (c *converter) staticExpr(e hclsyntax.Expression) ast.Expr {
	if v, diags := e.Value(nil); !diags.HasErrors() && v.IsWhollyKnown() {
		x, _ := c.literal(v, e.Range())
		return x
	}
	if kw := hcl.ExprAsKeyword(e); kw != "" {
		return stringLit(kw)
	}
	if t, diags := hcl.AbsTraversalForExpr(e); !diags.HasErrors() && (t.RootName() == "middleware") {
		return stringLit(traversalText(t))
	}
	if items, diags := hcl.ExprList(e); !diags.HasErrors() {
		l := &ast.ListLit{}
		for _, it := range items {
			if se, ok := it.(hclsyntax.Expression); ok {
				l.Elts = append(l.Elts, c.staticExpr(se))
			}
		}
		return l
	}
	x, _ := c.expr(e)
	return x
}

// check converts a check block: its assertions warn in OpenTofu, so they
// are kept as values, not constraints.
func (c *converter) check(b *hclsyntax.Block) []ast.Decl {
	if len(b.Labels) != 1 {
		return nil
	}
	ch := c.m.Checks[b.Labels[0]]
	if ch == nil {
		return nil
	}
	if ch.DataSource != nil {
		c.unconverted(ch.DataSource.DeclRange(), "Scoped data source not converted",
			"A data block inside a check block is not converted yet.")
	}
	var decls []ast.Decl
	for i, a := range ch.Asserts {
		decls = append(decls, c.checkRule([]string{checkRoot, ch.Name, strconv.Itoa(i)}, a, false))
	}
	return decls
}

// refactor converts moved, import and removed blocks to entries of
// _refactor, keyed by the address they speak of.
func (c *converter) refactor(b *hclsyntax.Block) []ast.Decl {
	text := func(name string) (string, bool) {
		a, ok := b.Body.Attributes[name]
		if !ok {
			return "", false
		}
		if t, diags := hcl.AbsTraversalForExpr(a.Expr); !diags.HasErrors() {
			return traversalText(t), true
		}
		return c.sourceText(a.Expr.Range()), true
	}
	switch b.Type {
	case "moved":
		from, _ := text("from")
		to, _ := text("to")
		outer, inner := c.nested([]string{refactorRoot, "moved", from}, stringLit(to))
		inner.Attrs = []*ast.Attribute{attr("moved", "from="+attrString(from), "to="+attrString(to))}
		return []ast.Decl{outer}
	case "import":
		to, _ := text("to")
		s := &ast.StructLit{}
		if a, ok := b.Body.Attributes["id"]; ok {
			x, _ := c.expr(a.Expr)
			s.Elts = append(s.Elts, field(ident("id"), x))
		}
		if a, ok := b.Body.Attributes["for_each"]; ok {
			c.unconverted(a.SrcRange, "import for_each not converted", "An import block with for_each is not converted yet.")
		}
		outer, inner := c.nested([]string{refactorRoot, "import", to}, s)
		inner.Attrs = []*ast.Attribute{attr("import", "to="+attrString(to))}
		return []ast.Decl{outer}
	case "removed":
		from, _ := text("from")
		s := c.staticBody(b.Body)
		outer, inner := c.nested([]string{refactorRoot, "removed", from}, s)
		inner.Attrs = []*ast.Attribute{attr("removed", "from="+attrString(from))}
		return []ast.Decl{outer}
	}
	return nil
}

// middleware converts a middleware block to _middleware: NAME, with the
// command, arguments and environment as expressions.
func (c *converter) middleware(b *hclsyntax.Block) []ast.Decl {
	if len(b.Labels) != 1 {
		return nil
	}
	s := &ast.StructLit{}
	for _, a := range sortedAttrs(b.Body) {
		x, _ := c.expr(a.Expr)
		s.Elts = append(s.Elts, field(c.lbl(a.Name), x))
	}
	for _, blk := range b.Body.Blocks {
		c.unconverted(blk.DefRange(), "Block in middleware not converted", "A middleware block has only arguments.")
	}
	outer, inner := c.nested([]string{"_middleware", b.Labels[0]}, s)
	inner.Attrs = []*ast.Attribute{attr("middleware", attrString(b.Labels[0]))}
	return []ast.Decl{outer}
}
