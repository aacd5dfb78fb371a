package convert

import (
	"cmp"
	"slices"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/token"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// body converts the arguments and nested blocks of a block, leaving out
// the names in skip (meta-arguments). Arguments become fields. The blocks
// of one type become one field holding the list of them in source order,
// static and dynamic alike, as OpenTofu's list and set nested blocks are
// lists of objects; a labeled block type becomes a struct keyed by its
// labels. in says whose arguments they are: a resource's, with its nested
// blocks', have their nulls written as nulls by default (nullByDefault).
func (c *converter) body(b *hclsyntax.Body, skip map[string]bool, in argsOf) *ast.StructLit {
	type item struct {
		start int
		attr  *hclsyntax.Attribute
		typ   string
	}
	var items []item
	blocksOf := map[string][]*hclsyntax.Block{}
	for _, a := range b.Attributes {
		if !skip[a.Name] {
			items = append(items, item{start: a.SrcRange.Start.Byte, attr: a})
		}
	}
	for _, blk := range b.Blocks {
		typ := blk.Type
		if typ == "dynamic" && len(blk.Labels) == 1 {
			typ = blk.Labels[0]
		}
		if skip[typ] && blk.Type != "dynamic" || skip[blk.Type] {
			continue
		}
		if _, seen := blocksOf[typ]; !seen {
			items = append(items, item{start: blk.TypeRange.Start.Byte, typ: typ})
		}
		blocksOf[typ] = append(blocksOf[typ], blk)
	}
	slices.SortFunc(items, func(a, b item) int { return cmp.Compare(a.start, b.start) })

	s := &ast.StructLit{}
	for _, it := range items {
		doc := c.comments.before(it.start)
		var f *ast.Field
		var end hcl.Pos
		if it.attr != nil {
			x, _ := c.expr(it.attr.Expr)
			c.markIfPure(it.attr.Expr, x)
			if in == resourceArgs {
				x = nullByDefault(x)
			}
			f = field(c.lbl(it.attr.Name), x)
			end = it.attr.SrcRange.End
		} else {
			blocks := blocksOf[it.typ]
			f = field(c.lbl(it.typ), c.blocks(blocks, in))
			end = blocks[len(blocks)-1].Range().End
		}
		docComment(f, doc)
		if text, ok := c.comments.lineEnd(end.Line, end.Byte); ok {
			lineComment(f, text)
		}
		s.Elts = append(s.Elts, f)
	}
	c.liftFields(s)
	return s
}

// blocks converts the nested blocks of one type, of a body of in.
func (c *converter) blocks(blocks []*hclsyntax.Block, in argsOf) ast.Expr {
	labeled := false
	for _, b := range blocks {
		if b.Type != "dynamic" && len(b.Labels) > 0 {
			labeled = true
		}
	}
	if labeled {
		s := &ast.StructLit{}
		for _, b := range blocks {
			if b.Type == "dynamic" {
				c.unconverted(b.DefRange(), "Dynamic labeled block not converted",
					"A dynamic block that generates labeled blocks is not converted.")
				continue
			}
			path := append(append([]string{}, b.Labels...), "")
			inner := c.blockBody(b, in)
			f := field(c.lbl(path[len(path)-2]), inner)
			for i := len(path) - 3; i >= 0; i-- {
				f = field(c.lbl(path[i]), &ast.StructLit{Elts: []ast.Decl{f}})
			}
			s.Elts = append(s.Elts, f)
		}
		return s
	}
	l := &ast.ListLit{}
	for _, b := range blocks {
		if b.Type == "dynamic" {
			l.Elts = append(l.Elts, c.dynamic(b, in))
			continue
		}
		l.Elts = append(l.Elts, c.blockBody(b, in))
	}
	return l
}

// blockBody converts a nested block's body, with the comments inside it.
func (c *converter) blockBody(b *hclsyntax.Block, in argsOf) ast.Expr {
	s := c.body(b.Body, nil, in)
	if rest := c.comments.within(b.Range()); len(rest) > 0 {
		s.Elts = append(s.Elts, commentDecl(rest))
	}
	return s
}

// dynamic converts a dynamic block to a list comprehension over its
// for_each, with the iterator's key and value bound:
//
//	ingress: [for k, v in _var_rules {from_port: v.port}]
//
// A map or object is iterated in the order of its keys, as OpenTofu does.
func (c *converter) dynamic(b *hclsyntax.Block, in argsOf) ast.Expr {
	if len(b.Labels) != 1 {
		return c.unconverted(b.DefRange(), "Invalid dynamic block", "A dynamic block needs one label: the type of the blocks it makes.")
	}
	var forEach hcl.Expression
	iterName := b.Labels[0]
	var content *hclsyntax.Block
	for name, a := range b.Body.Attributes {
		switch name {
		case "for_each":
			forEach = a.Expr
		case "iterator":
			if kw := hcl.ExprAsKeyword(a.Expr); kw != "" {
				iterName = kw
			}
		case "labels":
			c.unconverted(a.SrcRange, "Dynamic block labels not converted", "A dynamic block with labels is not converted.")
		}
	}
	for _, blk := range b.Body.Blocks {
		if blk.Type == "content" {
			content = blk
		}
	}
	if forEach == nil || content == nil {
		return c.unconverted(b.DefRange(), "Invalid dynamic block", "A dynamic block needs for_each and a content block.")
	}
	src, sk := c.expr(forEach)
	k, v := c.fresh(iterName+"_key"), c.fresh(iterName)
	var clauses []ast.Clause
	switch {
	case sk == kindList && isSyntaxSet(c, forEach):
		// Over a set the iterator's key is the element, as OpenTofu
		// has it, not a position.
		clauses = []ast.Clause{&ast.ForClause{Value: ident(v), Source: src}}
		k = v
	case sk == kindList:
		clauses = []ast.Clause{&ast.ForClause{Key: ident(k), Value: ident(v), Source: src}}
	default:
		clauses = c.sortedFor(src, sk, k, v)
	}
	c.push(map[string]binding{iterName: {iterator: true, key: k, value: v, nameFacts: nameFacts{known: c.knownIn(forEach)}, forEach: forEach}})
	defer c.pop()
	body := c.blockBody(content, in)
	return &ast.Comprehension{Clauses: c.guardedSource(clauses, body), Value: asStruct(body)}
}

// argsOf is whose arguments a body holds, for how they are written.
type argsOf int

const (
	// otherArgs: a module call's, a provider's, a nested block's of
	// either.
	otherArgs argsOf = iota
	// resourceArgs: a resource's, data source's or ephemeral resource's,
	// and those of the blocks nested in it, whose nulls the provider may
	// decide.
	resourceArgs
)

// nullByDefault writes a null that an argument of a resource may take as
// *null | _, a null by default. On the HCL side the provider decides an
// optional computed attribute that the configuration sets to null; in CUE
// a concrete null could not be changed, while a null by default gives way
// to the value the engine unifies in (see package engine/cue: it takes an
// attribute that is null only by default for one the provider decides,
// and any other for null). The nulls rewritten are those the argument's
// value may be: the value itself, and the results of conditionals and of
// try inside it (the guarded elements of [...][0], and the last one,
// try's fallback; the arguments of the library's #try).
func nullByDefault(x ast.Expr) ast.Expr {
	switch x := x.(type) {
	case *ast.BasicLit:
		if x.Kind == token.NULL {
			return softNull()
		}
	case *ast.ParenExpr:
		x.X = nullByDefault(x.X)
	case *ast.SelectorExpr:
		// The library's try: any argument may be its value, those it
		// tests given as *a | 'error'.
		if args, ok := libArgs(x, "try"); ok {
			for i, el := range args.Elts {
				if tested, ok := el.(*ast.BinaryExpr); ok && tested.Op == token.OR {
					if a, ok := tested.X.(*ast.UnaryExpr); ok && a.Op == token.MUL {
						a.X = nullByDefault(a.X)
						continue
					}
				}
				args.Elts[i] = nullByDefault(el)
			}
		}
		// The library's tryattr: its fallback may be its value.
		if args, ok := libArgs(x, "tryattr"); ok && len(args.Elts) == 3 {
			args.Elts[2] = nullByDefault(args.Elts[2])
		}
	case *ast.IndexExpr:
		l, ok := x.X.(*ast.ListLit)
		if !ok {
			break
		}
		for i, el := range l.Elts {
			comp, ok := el.(*ast.Comprehension)
			if !ok {
				if i == len(l.Elts)-1 {
					l.Elts[i] = nullByDefault(el)
				}
				continue
			}
			if !onlyIfs(comp.Clauses) {
				continue
			}
			if s, ok := comp.Value.(*ast.StructLit); ok && len(s.Elts) == 1 {
				if e, ok := s.Elts[0].(*ast.EmbedDecl); ok {
					e.Expr = nullByDefault(e.Expr)
				}
			}
		}
	}
	return x
}

// softNull is *null | _, a null by default (see nullByDefault).
func softNull() ast.Expr { return defaulted(ast.NewNull(), ident("_")) }

// onlyIfs reports whether a comprehension's clauses are all guards, so
// that it yields its value at most once: a branch of a conditional or of
// try.
func onlyIfs(clauses []ast.Clause) bool {
	for _, c := range clauses {
		if _, ok := c.(*ast.IfClause); !ok {
			return false
		}
	}
	return len(clauses) > 0
}

// isSyntaxSet is isSetExpr for an expression that may not be native
// syntax (which is never known to be a set).
func isSyntaxSet(c *converter, e hcl.Expression) bool {
	se, ok := e.(hclsyntax.Expression)
	return ok && c.isSetExpr(se)
}
