package cue

import (
	"cmp"
	"slices"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/token"
	"github.com/zclconf/go-cty/cty"
)

// encode writes a cty value as a CUE expression: objects and maps as
// structs, lists, sets and tuples as lists, numbers as exact literals
// (whole numbers as ints), null as null. An unknown value is top (_):
// it adds nothing. Marks are dropped.
func encode(v cty.Value) ast.Expr {
	return encodeWith(v, func() ast.Expr { return ast.NewNull() })
}

// encodeInput is encode for an input value: a null is *null | _, null
// by default, so that a field whose type admits null keeps its default
// null as a disjunction (*null | string): the provider may still decide
// an attribute set from it, as it decides one that HCL sets to null.
func encodeInput(v cty.Value) ast.Expr {
	return encodeWith(v, func() ast.Expr {
		return &ast.BinaryExpr{X: &ast.UnaryExpr{Op: token.MUL, X: ast.NewNull()}, Op: token.OR, Y: ast.NewIdent("_")}
	})
}

func encodeWith(v cty.Value, null func() ast.Expr) ast.Expr {
	v, _ = v.UnmarkDeep()
	switch {
	case !v.IsKnown():
		return ast.NewIdent("_")
	case v.IsNull():
		return null()
	}
	ty := v.Type()
	switch {
	case ty == cty.String:
		return ast.NewString(v.AsString())
	case ty == cty.Bool:
		return ast.NewBool(v.True())
	case ty == cty.Number:
		f := v.AsBigFloat()
		if f.IsInt() {
			return &ast.BasicLit{Kind: token.INT, Value: f.Text('f', -1)}
		}
		text := f.Text('g', -1)
		if !hasFloatMark(text) {
			text += ".0"
		}
		return &ast.BasicLit{Kind: token.FLOAT, Value: text}
	case ty.IsObjectType() || ty.IsMapType():
		s := &ast.StructLit{}
		keys := []string{}
		m := v.AsValueMap()
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			s.Elts = append(s.Elts, &ast.Field{Label: ast.NewString(k), Value: encodeWith(m[k], null)})
		}
		return s
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType():
		l := &ast.ListLit{}
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			l.Elts = append(l.Elts, encodeWith(e, null))
		}
		return l
	}
	return ast.NewIdent("_")
}

func hasFloatMark(s string) bool {
	for _, r := range s {
		switch r {
		case '.', 'e', 'E', 'n', 'N', 'i', 'I':
			return true
		}
	}
	return false
}

// fills collects values to unify into the program at paths, so that a
// round of the evaluation adds all of them with one unification: one
// struct (lists for index steps) built from every path, compiled once.
// Paths through hidden fields cannot be written in a struct literal of
// another package: what goes below a hidden field (a module instance's
// _mod) is one struct, filled there with one FillPath.
type fills struct {
	root   *node
	hidden []*hiddenFill
	n      int
}

// hiddenFill is what goes below a path that ends in a hidden field (a
// module instance's _mod): unified there with one FillPath.
type hiddenFill struct {
	key  string
	path cue.Path
	node *node
}

// node is a struct (keys) or a list (indexes) under construction, or a
// leaf value.
type node struct {
	leaf    ast.Expr
	fields  map[string]*node
	indexes map[int]*node
}

// add records x to be unified at path.
func (f *fills) add(path cue.Path, x ast.Expr) {
	f.n++
	sels := path.Selectors()
	// What is below the last hidden field (or definition, or pattern) is
	// built as one expression with the other fills below that field: a
	// hidden label in an expression built apart would belong to another
	// package than the program's.
	cut := 0
	for i, s := range sels {
		if s.Type()&(cue.StringLabel|cue.IndexLabel) == 0 || s.IsConstraint() {
			cut = i + 1
		}
	}
	var n *node
	if cut == 0 {
		if f.root == nil {
			f.root = &node{}
		}
		n = f.root
	} else {
		prefix := cue.MakePath(sels[:cut]...)
		key := prefix.String()
		for _, h := range f.hidden {
			if h.key == key {
				n = h.node
				break
			}
		}
		if n == nil {
			n = &node{}
			f.hidden = append(f.hidden, &hiddenFill{key: key, path: prefix, node: n})
		}
	}
	for _, s := range sels[cut:] {
		var next *node
		if s.Type() == cue.IndexLabel {
			if n.indexes == nil {
				n.indexes = map[int]*node{}
			}
			next = n.indexes[s.Index()]
			if next == nil {
				next = &node{}
				n.indexes[s.Index()] = next
			}
		} else {
			if n.fields == nil {
				n.fields = map[string]*node{}
			}
			next = n.fields[s.Unquoted()]
			if next == nil {
				next = &node{}
				n.fields[s.Unquoted()] = next
			}
		}
		n = next
	}
	if n.leaf == nil {
		n.leaf = x
	} else {
		n.leaf = &ast.BinaryExpr{X: n.leaf, Op: token.AND, Y: x}
	}
}

// empty reports whether nothing was added.
func (f *fills) empty() bool { return f.n == 0 }

// apply unifies everything added into v and resets f.
func (f *fills) apply(ctx *cue.Context, v cue.Value) cue.Value {
	if f.root != nil {
		v = v.Unify(ctx.BuildExpr(f.root.expr()))
	}
	for _, h := range f.hidden {
		v = v.FillPath(h.path, ctx.BuildExpr(h.node.expr()))
	}
	*f = fills{}
	return v
}

func (n *node) expr() ast.Expr {
	var parts []ast.Expr
	if n.leaf != nil {
		parts = append(parts, n.leaf)
	}
	if len(n.fields) > 0 {
		s := &ast.StructLit{}
		keys := make([]string, 0, len(n.fields))
		for k := range n.fields {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			s.Elts = append(s.Elts, &ast.Field{Label: ast.NewString(k), Value: n.fields[k].expr()})
		}
		parts = append(parts, s)
	}
	if len(n.indexes) > 0 {
		idx := make([]int, 0, len(n.indexes))
		for i := range n.indexes {
			idx = append(idx, i)
		}
		slices.SortFunc(idx, cmp.Compare)
		l := &ast.ListLit{}
		for i := 0; i <= idx[len(idx)-1]; i++ {
			if c := n.indexes[i]; c != nil {
				l.Elts = append(l.Elts, c.expr())
			} else {
				l.Elts = append(l.Elts, ast.NewIdent("_"))
			}
		}
		l.Elts = append(l.Elts, &ast.Ellipsis{})
		parts = append(parts, l)
	}
	if len(parts) == 0 {
		return ast.NewIdent("_")
	}
	x := parts[0]
	for _, p := range parts[1:] {
		x = &ast.BinaryExpr{X: x, Op: token.AND, Y: p}
	}
	return x
}
