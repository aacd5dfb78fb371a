package convert

import (
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/token"
)

// What a person writes. The writer's faithful forms hold wherever a value
// may not be known while planning; where the analysis proves a simpler
// form means the same, the writer takes that one instead.

// liftFields writes each field of s that is liftable as fieldDecls does,
// where a field of s is left that is not: CUE v0.17.1 takes a struct that
// holds nothing but comprehensions for _ (top) once a reference to it is
// unified into a definition (see structFor), and a library call's
// arguments are one. The comments of a field go to the first of its
// declarations and, at a line's end, to the last.
func (c *converter) liftFields(s *ast.StructLit) {
	lifted := make([][]ast.Decl, len(s.Elts))
	plain := false
	for i, d := range s.Elts {
		f, ok := d.(*ast.Field)
		switch {
		case !ok:
		case c.liftable(f):
			// Empty where every branch is left out: the field stays.
			lifted[i] = c.fieldDecls(f)
		default:
			plain = true
		}
	}
	if !plain {
		return
	}
	var elts []ast.Decl
	for i, d := range s.Elts {
		decls := lifted[i]
		if len(decls) == 0 {
			elts = append(elts, d)
			continue
		}
		for _, cg := range ast.Comments(d) {
			if cg.Line {
				ast.AddComment(decls[len(decls)-1], cg)
			} else {
				ast.AddComment(decls[0], cg)
			}
		}
		elts = append(elts, decls...)
	}
	s.Elts = elts
}

// liftable is whether f's value is a conditional whose condition is known
// while planning (knownConds), none of whose parts refers to f's name,
// which a comprehension's field would bind. A conditional not known while
// planning keeps the selection: a condition not known yet leaves it not
// known, where it would leave every field of the struct holding it so.
func (c *converter) liftable(f *ast.Field) bool {
	name, _, err := ast.LabelName(f.Label)
	if err != nil {
		return false
	}
	if _, _, ok := c.knownConditional(f.Value); !ok {
		return false
	}
	return !namesIdent(f.Value, name)
}

// fieldDecls are the field-level comprehensions a person writes for f,
// which is liftable,
//
//	if C {name: A}
//	if !C {name: B}
//
// in place of name: [if C {A}, if !C {B}][0], and so on into a branch
// that is one such conditional itself, with its guards in one
// comprehension (if !C if D {name: B}). A branch null by default is left
// out.
func (c *converter) fieldDecls(f *ast.Field) []ast.Decl {
	var decls []ast.Decl
	var lift func(clauses []ast.Clause, x ast.Expr)
	lift = func(clauses []ast.Clause, x ast.Expr) {
		cond, branches, ok := c.knownConditional(x)
		switch {
		case ok:
			lift(append(clauses[:len(clauses):len(clauses)], &ast.IfClause{Condition: cond}), branches[0])
			lift(append(clauses[:len(clauses):len(clauses)], &ast.IfClause{Condition: not(cond)}), branches[1])
		case isSoftNull(x):
			// A resource's argument null by default is one the
			// provider decides, as one not given is.
		case isTop(x):
			// A module's argument that is _ takes the variable's
			// default, as one not given does.
		default:
			decls = append(decls, &ast.Comprehension{
				Clauses: clauses,
				Value:   &ast.StructLit{Elts: []ast.Decl{field(f.Label, x)}},
			})
		}
	}
	lift(nil, f.Value)
	return decls
}

// namesIdent reports whether the identifier name occurs in n other than
// as a selector (x.name), which no field binds.
func namesIdent(n ast.Node, name string) bool {
	found := false
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			found = found || n.Name == name
		case *ast.SelectorExpr:
			ast.Walk(n.X, visit, nil)
			return false
		}
		return !found
	}
	ast.Walk(n, visit, nil)
	return found
}

// knownConditional takes apart x, a conditional the writer made whose
// condition is known while planning: its condition and its two results.
// The second result is guarded by the condition's negation or, where the
// first is taken whenever it is there, by nothing ([if C {A}, B][0]):
// with C known the two mean the same.
func (c *converter) knownConditional(x ast.Expr) (cond ast.Expr, branches [2]ast.Expr, ok bool) {
	ix, isIndex := x.(*ast.IndexExpr)
	if !isIndex || !c.knownConds[ix] {
		return nil, branches, false
	}
	l, isList := ix.X.(*ast.ListLit)
	if !isList || len(l.Elts) != 2 {
		return nil, branches, false
	}
	for i, el := range l.Elts {
		comp, isComp := el.(*ast.Comprehension)
		if !isComp && i == 1 {
			branches[1] = el
			continue
		}
		if !isComp || len(comp.Clauses) != 1 {
			return nil, branches, false
		}
		guard, isIf := comp.Clauses[0].(*ast.IfClause)
		s, isStruct := comp.Value.(*ast.StructLit)
		if !isIf || !isStruct {
			return nil, branches, false
		}
		if i == 0 {
			cond = guard.Condition
		}
		// The result is what the struct embeds alone, or the struct.
		branches[i] = s
		if len(s.Elts) == 1 {
			if e, isEmbed := s.Elts[0].(*ast.EmbedDecl); isEmbed {
				branches[i] = e.Expr
			}
		}
	}
	return cond, branches, true
}

// isSoftNull reports whether x is *null | _ (softNull).
func isSoftNull(x ast.Expr) bool {
	b, ok := x.(*ast.BinaryExpr)
	if !ok || b.Op != token.OR {
		return false
	}
	u, ok := b.X.(*ast.UnaryExpr)
	top, isIdent := b.Y.(*ast.Ident)
	return ok && u.Op == token.MUL && isNullLit(u.X) && isIdent && top.Name == "_"
}

// guardOf takes apart x, a conditional known while planning one of whose
// results is an empty list or struct: the condition under which the
// other is taken, and the other.
func (c *converter) guardOf(x ast.Expr) (guard, src ast.Expr, ok bool) {
	cond, branches, ok := c.knownConditional(x)
	switch {
	case !ok:
		return nil, nil, false
	case isEmptyCollection(branches[0]):
		return not(cond), branches[1], true
	case isEmptyCollection(branches[1]):
		return cond, branches[0], true
	}
	return nil, nil, false
}

// guardedSource rewrites clauses, whose first is a for over a conditional
// known while planning one of whose results is an empty list or struct
// (dynamic "x" { for_each = c ? [] : [v] }, for_each = c ? m : {}), as a
// person writes the comprehension: guarded by the condition, over the
// other result,
//
//	if !c for k, v in m
//
// and, where that result is a list of one element and the key is not
// read (by the rest of the clauses or by value), with the element bound
// where it is read,
//
//	if !c let v = e
//
// The for's source is then not evaluated where the condition skips it,
// as OpenTofu's conditional does not evaluate the result it does not take.
func (c *converter) guardedSource(clauses []ast.Clause, value ast.Node) []ast.Clause {
	if len(clauses) == 0 {
		return clauses
	}
	fc, ok := clauses[0].(*ast.ForClause)
	if !ok {
		return clauses
	}
	guard, src, ok := c.guardOf(fc.Source)
	if !ok {
		return clauses
	}
	rest := clauses[1:]
	out := []ast.Clause{&ast.IfClause{Condition: guard}}
	if l, one := src.(*ast.ListLit); one && len(l.Elts) == 1 && !isComprehension(l.Elts[0]) && !read(fc.Key, rest, value) {
		if read(fc.Value, rest, value) {
			out = append(out, &ast.LetClause{Ident: fc.Value, Expr: l.Elts[0]})
		}
		return append(out, rest...)
	}
	return append(append(out, &ast.ForClause{Key: fc.Key, Value: fc.Value, Source: src}), rest...)
}

// isEmptyCollection reports whether x is [] or {}.
func isEmptyCollection(x ast.Expr) bool {
	switch x := x.(type) {
	case *ast.ListLit:
		return len(x.Elts) == 0
	case *ast.StructLit:
		return len(x.Elts) == 0
	}
	return false
}

// isComprehension reports whether x is a comprehension, which yields any
// number of elements.
func isComprehension(x ast.Expr) bool {
	_, ok := x.(*ast.Comprehension)
	return ok
}

// read reports whether the name id binds is read by clauses or by value.
func read(id *ast.Ident, clauses []ast.Clause, value ast.Node) bool {
	if id == nil {
		return false
	}
	if namesIdent(value, id.Name) {
		return true
	}
	for _, cl := range clauses {
		if namesIdent(cl, id.Name) {
			return true
		}
	}
	return false
}
