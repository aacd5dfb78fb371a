package convert

import (
	"strconv"
	"strings"

	"cuelang.org/go/cue/ast"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/cueform"
	tofufuncs "github.com/tofucue/tofucue/functions"
)

// terraform converts a terraform block to data in _terraform: the
// required versions and providers, backend and the rest, as written.
// Bare keywords (experiments = [x]) become strings; a middleware list
// becomes the names it holds.
func (c *converter) terraform(b *hclsyntax.Block) []ast.Decl {
	s := c.staticBody(b.Body)
	f := field(ident(terraformRoot), s)
	f.Attrs = []*ast.Attribute{attr(cueform.AttrTerraform)}
	return []ast.Decl{f}
}

// staticBody converts a body of settings (terraform, middleware): values
// are constants, keyword lists or references.
func (c *converter) staticBody(b *hclsyntax.Body) *ast.StructLit {
	s := &ast.StructLit{}
	for _, a := range sortedAttrs(b) {
		doc := c.comments.before(a.SrcRange.Start.Byte)
		f := field(c.lbl(a.Name), c.staticExpr(a.Expr))
		c.itemComments(f, doc, a.SrcRange.End)
		s.Elts = append(s.Elts, f)
	}
	for _, blk := range b.Blocks {
		doc := c.comments.before(blk.TypeRange.Start.Byte)
		inner := c.staticBody(blk.Body)
		path := append([]string{blk.Type}, blk.Labels...)
		f := field(c.lbl(path[len(path)-1]), inner)
		for i := len(path) - 2; i >= 0; i-- {
			f = field(c.lbl(path[i]), &ast.StructLit{Elts: []ast.Decl{f}})
		}
		docComment(f, doc)
		s.Elts = append(s.Elts, f)
	}
	return s
}

// itemComments attaches doc, the comments before an argument or an
// object's item, to its field f, and the comment at the end of the line
// where it ends, if any.
func (c *converter) itemComments(f *ast.Field, doc []string, end hcl.Pos) {
	docComment(f, doc)
	if text, ok := c.comments.lineEnd(end.Line, end.Byte); ok {
		lineComment(f, text)
	}
}

func (c *converter) staticExpr(e hclsyntax.Expression) ast.Expr {
	if o, ok := e.(*hclsyntax.ObjectConsExpr); ok {
		// Item by item, for the comments beside them
		// (required_providers' version = "..." # tftest).
		s := &ast.StructLit{}
		seen := map[string]bool{}
		for _, item := range o.Items {
			name, ok := objectKeyName(item.KeyExpr)
			if !ok || seen[name] {
				// A key computed, or given twice (the last one counts).
				return c.staticValue(e)
			}
			seen[name] = true
			doc := c.comments.before(item.KeyExpr.Range().Start.Byte)
			f := field(c.lbl(name), c.staticExpr(item.ValueExpr))
			c.itemComments(f, doc, item.ValueExpr.Range().End)
			s.Elts = append(s.Elts, f)
		}
		return s
	}
	return c.staticValue(e)
}

// staticValue is staticExpr of an expression other than an object.
func (c *converter) staticValue(e hclsyntax.Expression) ast.Expr {
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
		inner.Attrs = []*ast.Attribute{attr(cueform.AttrMoved, "from="+attrString(from), "to="+attrString(to))}
		return []ast.Decl{outer}
	case "import":
		return c.importBlock(b, text)
	case "removed":
		from, _ := text("from")
		s := c.staticBody(b.Body)
		outer, inner := c.nested([]string{refactorRoot, "removed", from}, s)
		inner.Attrs = []*ast.Attribute{attr(cueform.AttrRemoved, "from="+attrString(from))}
		return []ast.Decl{outer}
	}
	return nil
}

// importBlock converts an import block to _refactor: import: TO: {id:
// ...}. With for_each, the value is a struct keyed by instance key, as for
// a resource, each instance holding its id and the address it imports to,
// with the instance keys of the address worked out:
//
//	_refactor: import: "aws_instance.web[each.key]": {
//		for k, v in X {(k): {id: ..., to: "aws_instance.web[\(json.Marshal(k))]"}}
//	} @import(to="aws_instance.web[each.key]", for_each)
func (c *converter) importBlock(b *hclsyntax.Block, text func(string) (string, bool)) []ast.Decl {
	to, _ := text("to")
	args := []string{"to=" + attrString(to)}
	idAttr, hasID := b.Body.Attributes["id"]
	single := func() *ast.StructLit {
		s := &ast.StructLit{}
		if hasID {
			x, _ := c.expr(idAttr.Expr)
			s.Elts = append(s.Elts, field(ident("id"), x))
		}
		return s
	}
	var value ast.Expr
	if fe, ok := b.Body.Attributes["for_each"]; ok {
		value = c.importInstances(b, fe, single)
		args = append(args, "for_each")
	} else {
		value = single()
	}
	outer, inner := c.nested([]string{refactorRoot, "import", to}, value)
	inner.Attrs = []*ast.Attribute{attr(cueform.AttrImport, args...)}
	return []ast.Decl{outer}
}

// importInstances is the value of an import block with for_each. OpenTofu
// takes a map (each.key the key), a set (each.key the element) or a list
// (each.key the index) there; in CUE a set is a list, so the converter
// must tell a set from a list by the expression: a set function (toset,
// setunion, ...) or a variable of a set type.
func (c *converter) importInstances(b *hclsyntax.Block, fe *hclsyntax.Attribute, single func() *ast.StructLit) ast.Expr {
	toAttr, hasTo := b.Body.Attributes["to"]
	if !hasTo {
		return c.unconverted(fe.SrcRange, "import for_each not converted", "An import block needs a to argument.")
	}
	src, sk := c.expr(fe.Expr)
	set := c.isSetExpr(fe.Expr)
	if sk != kindMap && !set && sk != kindList {
		return c.unconverted(fe.SrcRange, "import for_each not converted",
			"import for_each is converted when its value is known to be a map, a set (a set function or a variable of set type) or a list: OpenTofu's instance keys differ between sets and lists, which CUE does not tell apart.")
	}
	k, v := c.fresh("k"), c.fresh("v")
	c.curBody = b.Body
	eachName := c.letName("each")
	var fc *ast.ForClause
	keyExpr := ast.Expr(ident(k))
	switch {
	case sk == kindMap:
		fc = &ast.ForClause{Key: ident(k), Value: ident(v), Source: src}
	case set:
		fc = &ast.ForClause{Value: ident(v), Source: src}
		keyExpr = ident(v)
	default:
		fc = &ast.ForClause{Key: ident(k), Value: ident(v), Source: src}
	}
	c.push(map[string]binding{"each": {cue: eachName, nameFacts: nameFacts{known: c.knownIn(fe.Expr), ty: c.eachType(fe.Expr)}}, "": {cue: k, key: k, value: v}})
	inst := single()
	toX := c.addressString(toAttr.Expr)
	inst.Elts = append(inst.Elts, field(ident("to"), toX))
	inst = inlineEach(inst, eachName, keyExpr, v).(*ast.StructLit)
	c.pop()
	inst = withLet(inst, eachName, &ast.StructLit{Elts: []ast.Decl{field(ident("key"), keyExpr), field(ident("value"), ident(v))}}).(*ast.StructLit)
	label := keyExpr
	if sk != kindMap && !set {
		label = interpolation([]any{keyExpr})
	}
	return structFor([]ast.Clause{fc}, label, inst)
}

// isSetExpr reports whether e is known to be a set: a call of a function
// that returns one, a variable of a set type, or a conditional between
// such values.
func (c *converter) isSetExpr(e hclsyntax.Expression) bool {
	switch e := config.UnwrapParens(e).(type) {
	case *hclsyntax.FunctionCallExpr:
		// setproduct gives a set of sets and a list of lists; it is
		// taken for a set here, as its corpus callers give it sets.
		name := strings.TrimPrefix(e.Name, "core::")
		spec, _ := tofufuncs.Lookup(name)
		return spec.Result == tofufuncs.Set || name == "setproduct"
	case *hclsyntax.ConditionalExpr:
		return c.isSetExpr(e.TrueResult) && c.isSetExpr(e.FalseResult)
	case *hclsyntax.ScopeTraversalExpr:
		if len(e.Traversal) == 2 && e.Traversal.RootName() == "var" {
			if a, ok := e.Traversal[1].(hcl.TraverseAttr); ok {
				if v := c.m.Variables[a.Name]; v != nil && v.Type.IsSetType() {
					return true
				}
			}
		}
	}
	return false
}

// addressString writes the address expression of an import block's to
// argument as a CUE string, its dynamic instance keys worked out as
// OpenTofu writes them: a string key quoted, a number bare. Keys are
// quoted as JSON, which is OpenTofu's quoting for every key without
// control characters, "${" or "%{".
func (c *converter) addressString(e hclsyntax.Expression) ast.Expr {
	var parts []any
	var walk func(e hclsyntax.Expression) bool
	walk = func(e hclsyntax.Expression) bool {
		switch e := e.(type) {
		case *hclsyntax.ScopeTraversalExpr:
			parts = append(parts, traversalText(e.Traversal))
			return true
		case *hclsyntax.RelativeTraversalExpr:
			if !walk(e.Source) {
				return false
			}
			parts = append(parts, traversalText(append(hcl.Traversal{hcl.TraverseRoot{}}, e.Traversal...)))
			return true
		case *hclsyntax.IndexExpr:
			if !walk(e.Collection) {
				return false
			}
			key, _ := c.expr(e.Key)
			parts = append(parts, "[", c.std("json", "Marshal", key), "]")
			return true
		}
		return false
	}
	if !walk(e) {
		return c.unconverted(e.Range(), "import for_each not converted", "The to address of an import block with for_each is not a resource address.")
	}
	return interpolation(parts)
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
	inner.Attrs = []*ast.Attribute{attr(cueform.AttrMiddleware, attrString(b.Labels[0]))}
	return []ast.Decl{outer}
}
