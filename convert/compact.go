package convert

import (
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/ast/astutil"
	"cuelang.org/go/cue/token"
)

// compactStructs writes on one line each small struct literal in file
// that a person writes on one line: in an expression (a list's element,
// an operand, an argument), or a field's value of two or three fields,
// {_tags, Name: s.tag_name}; and the value of a list comprehension that
// inline takes, [for x in l {x.id}]. Small is at most three fields or
// embeddings, each of an atom (see atomSize), with no comment or
// attribute, and at most maxCompact bytes as the formatter would write
// them (smallStruct). The formatter
// breaks a struct whose elements have no position of their own; a
// field's position relative to the one before it keeps it on the line.
// A declaration (a field with attributes, @resource) keeps its lines,
// and so does a struct of one field that is a field's value: the
// formatter folds it into the label (a: b: c).
func compactStructs(file *ast.File) {
	astutil.Apply(file, func(cur astutil.Cursor) bool {
		if comp, ok := cur.Node().(*ast.Comprehension); ok {
			if _, inList := cur.Parent().Node().(*ast.ListLit); inList && inlineComprehension(comp) {
				// [for x in l {x.id}]
				v := comp.Value.(*ast.StructLit)
				ast.SetRelPos(v.Elts[0], token.NoSpace)
				v.Rbrace = token.NoSpace.Pos()
			}
			return true
		}
		s, ok := cur.Node().(*ast.StructLit)
		if !ok {
			return true
		}
		if f, isField := cur.Parent().Node().(*ast.Field); isField && f.Value == s && (len(s.Elts) < 2 || len(f.Attrs) > 0) {
			return true
		}
		if _, isComp := cur.Parent().Node().(*ast.Comprehension); isComp || !smallStruct(s) {
			return true
		}
		for i, d := range s.Elts {
			if i == 0 {
				ast.SetRelPos(d, token.NoSpace)
			} else {
				ast.SetRelPos(d, token.Blank)
			}
		}
		s.Rbrace = token.NoSpace.Pos()
		return false
	}, nil)
}

// maxCompact is the longest struct literal compactStructs writes on one
// line.
const maxCompact = 60

// smallStruct reports whether s is small: at most three fields or
// embeddings of atoms (smallDecl), within maxCompact bytes.
func smallStruct(s *ast.StructLit) bool {
	if len(s.Elts) > 3 {
		return false
	}
	size := 2
	for _, d := range s.Elts {
		n, ok := smallDecl(d)
		if !ok {
			return false
		}
		size += n + 2
	}
	return size <= maxCompact
}

// smallDecl reports whether d is a field with a plain label, or an
// embedding, of an atom, without comments or attributes, and its length.
func smallDecl(d ast.Decl) (int, bool) {
	if len(ast.Comments(d)) > 0 {
		return 0, false
	}
	switch d := d.(type) {
	case *ast.EmbedDecl:
		return atomSize(d.Expr)
	case *ast.Field:
		if len(d.Attrs) > 0 || d.Constraint != token.ILLEGAL {
			return 0, false
		}
		name, _, err := ast.LabelName(d.Label)
		if err != nil {
			return 0, false
		}
		n, ok := atomSize(d.Value)
		return len(name) + 2 + n, ok
	}
	return 0, false
}

// atomSize reports whether x is an atom, a value a person writes inline
// (an identifier, a literal, a selection or an index of atoms, a list of
// at most three atoms), and its length.
func atomSize(x ast.Expr) (int, bool) {
	if len(ast.Comments(x)) > 0 {
		return 0, false
	}
	switch x := x.(type) {
	case *ast.Ident:
		return len(x.Name), true
	case *ast.BasicLit:
		return len(x.Value), true
	case *ast.SelectorExpr:
		n, ok := atomSize(x.X)
		name, _, err := ast.LabelName(x.Sel)
		return n + 1 + len(name), ok && err == nil
	case *ast.IndexExpr:
		a, okA := atomSize(x.X)
		b, okB := atomSize(x.Index)
		return a + b + 2, okA && okB
	case *ast.ListLit:
		if len(x.Elts) > 3 {
			return 0, false
		}
		size := 2
		for _, e := range x.Elts {
			n, ok := atomSize(e)
			if !ok {
				return 0, false
			}
			size += n + 2
		}
		return size, true
	}
	return 0, false
}

// inline reports whether x is written on one line: an atom, a small
// struct (see compactStructs), an operation, a call, a library call or a
// string interpolation of such, or a list comprehension of such
// (inlineComprehension). A struct comprehension or a larger struct takes
// lines of its own.
func inline(x ast.Expr) bool {
	if _, ok := atomSize(x); ok {
		return true
	}
	switch x := x.(type) {
	case *ast.ParenExpr:
		return inline(x.X)
	case *ast.UnaryExpr:
		return inline(x.X)
	case *ast.BinaryExpr:
		return inline(x.X) && inline(x.Y)
	case *ast.SelectorExpr:
		return inline(x.X)
	case *ast.IndexExpr:
		return inline(x.X) && inline(x.Index)
	case *ast.CallExpr:
		return inline(x.Fun) && allInline(x.Args)
	case *ast.Interpolation:
		return allInline(x.Elts)
	case *ast.ListLit:
		return allInline(x.Elts)
	case *ast.StructLit:
		// What compactStructs writes on one line.
		return smallStruct(x)
	case *ast.Comprehension:
		return inlineComprehension(x)
	}
	return false
}

// inlineComprehension reports whether a list comprehension goes on one
// line: its clauses' sources, conditions and bindings inline, and its
// value one inline expression.
func inlineComprehension(c *ast.Comprehension) bool {
	for _, cl := range c.Clauses {
		var x ast.Expr
		switch cl := cl.(type) {
		case *ast.ForClause:
			x = cl.Source
		case *ast.IfClause:
			x = cl.Condition
		case *ast.LetClause:
			x = cl.Expr
		default:
			return false
		}
		if !inline(x) {
			return false
		}
	}
	v, ok := c.Value.(*ast.StructLit)
	if !ok || len(v.Elts) != 1 || len(ast.Comments(v)) > 0 {
		return false
	}
	e, ok := v.Elts[0].(*ast.EmbedDecl)
	return ok && len(ast.Comments(e)) == 0 && inline(e.Expr)
}

func allInline(xs []ast.Expr) bool {
	for _, x := range xs {
		if !inline(x) {
			return false
		}
	}
	return true
}
