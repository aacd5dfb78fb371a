package cue

import (
	"cmp"
	"maps"
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
// A hidden field belongs to its package: a path through one (a module
// instance's _mod) is written in a struct compiled as part of that
// package (cue.ImportPath), so that its label is the program's. A path
// through a definition or a pattern, and a value built already, is filled
// into a value of its own. All of these are unified with each other
// before they go into the program (see apply).
type fills struct {
	// roots are the structs built, by the package of the hidden fields
	// they hold ("" for none).
	roots map[string]*node
	other []otherFill
	n     int
}

// otherFill is one value filled at a path that a struct cannot name, or
// one built already (val, where x is nil).
type otherFill struct {
	path cue.Path
	x    ast.Expr
	val  cue.Value
}

// node is a struct (keys, hidden keys) or a list (indexes) under
// construction, or a leaf value.
type node struct {
	leaf    ast.Expr
	fields  map[string]*node
	hidden  map[string]*node
	indexes map[int]*node
}

// add records x to be unified at path.
func (f *fills) add(path cue.Path, x ast.Expr) {
	f.n++
	sels := path.Selectors()
	pkg := ""
	for _, s := range sels {
		switch {
		case s.IsConstraint() || s.Type()&(cue.StringLabel|cue.IndexLabel|cue.HiddenLabel) == 0:
			f.other = append(f.other, otherFill{path: path, x: x})
			return
		case s.Type() == cue.HiddenLabel:
			if pkg != "" && s.PkgPath() != pkg {
				f.other = append(f.other, otherFill{path: path, x: x})
				return
			}
			pkg = s.PkgPath()
		}
	}
	if f.roots == nil {
		f.roots = map[string]*node{}
	}
	n := f.roots[pkg]
	if n == nil {
		n = &node{}
		f.roots[pkg] = n
	}
	for _, s := range sels {
		n = n.child(s)
	}
	if n.leaf == nil {
		n.leaf = x
	} else {
		n.leaf = &ast.BinaryExpr{X: n.leaf, Op: token.AND, Y: x}
	}
}

// addValue records val, a value built already, to be unified at path.
func (f *fills) addValue(path cue.Path, val cue.Value) {
	f.n++
	f.other = append(f.other, otherFill{path: path, val: val})
}

// child is the node at selector s below n, made when missing.
func (n *node) child(s cue.Selector) *node {
	var m *map[string]*node
	key := s.String()
	switch s.Type() {
	case cue.IndexLabel:
		if n.indexes == nil {
			n.indexes = map[int]*node{}
		}
		next := n.indexes[s.Index()]
		if next == nil {
			next = &node{}
			n.indexes[s.Index()] = next
		}
		return next
	case cue.HiddenLabel:
		m = &n.hidden
	default:
		m = &n.fields
		key = s.Unquoted()
	}
	if *m == nil {
		*m = map[string]*node{}
	}
	next := (*m)[key]
	if next == nil {
		next = &node{}
		(*m)[key] = next
	}
	return next
}

// empty reports whether nothing was added.
func (f *fills) empty() bool { return f.n == 0 }

// apply unifies everything added into v and resets f.
//
// Unify and FillPath evaluate their result in full, and v is the whole
// program: everything added is first put together in one small value
// (each package's struct is built apart, since a hidden label belongs to
// the package it is built in, and the other paths are filled into it),
// which is then unified into v once.
func (f *fills) apply(ctx *cue.Context, v cue.Value) cue.Value {
	v = f.unifyInto(ctx, v)
	*f = fills{}
	return v
}

// unifyInto unifies everything added into v, and keeps it: a pass that
// adds values round after round unifies all of them into the program it
// started from, rather than each round's into the last round's program,
// which the result would keep alive (with all that its evaluation made).
func (f *fills) unifyInto(ctx *cue.Context, v cue.Value) cue.Value {
	return unifyAll(ctx, v, f)
}

// unifyAll unifies everything added to each of fs into v, in one
// unification, and keeps them.
func unifyAll(ctx *cue.Context, v cue.Value, fs ...*fills) cue.Value {
	return unifyLed(ctx, cue.Value{}, v, fs...)
}

// unifyLed is unifyAll with lead, where it exists, put before the
// values added and v, still in one unification of v: the result's
// fields are in the order of their first conjuncts, so lead's come
// first (see flowGuard). The first value of a unification resolves the
// program's imports, so lead must be built in v's context.
func unifyLed(ctx *cue.Context, lead, v cue.Value, fs ...*fills) cue.Value {
	all := lead
	with := func(x cue.Value) {
		if all.Exists() {
			x = all.Unify(x)
		}
		all = x
	}
	for _, f := range fs {
		for _, pkg := range slices.Sorted(maps.Keys(f.roots)) {
			var opts []cue.BuildOption
			if pkg != "" {
				opts = append(opts, cue.ImportPath(pkg))
			}
			with(ctx.BuildExpr(f.roots[pkg].expr(), opts...))
		}
		for _, o := range f.other {
			x := o.val
			if o.x != nil {
				x = ctx.BuildExpr(o.x)
			}
			with(ctx.CompileString("_").FillPath(o.path, x))
		}
	}
	switch {
	case lead.Exists():
		return all.Unify(v)
	case all.Exists():
		return v.Unify(all)
	}
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
	if len(n.hidden) > 0 {
		s := &ast.StructLit{}
		for _, k := range slices.Sorted(maps.Keys(n.hidden)) {
			s.Elts = append(s.Elts, &ast.Field{Label: ast.NewIdent(k), Value: n.hidden[k].expr()})
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
