package cue

import (
	"slices"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/token"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/cueform"
)

// typeSchema writes a cty type as CUE schema: string, number, bool,
// [...T] for lists and sets, {[string]: T} for maps, a struct of the
// attributes for objects, a list of the elements for tuples, _ for a
// dynamic type. A value not known yet has this schema in the program, as
// the article's computed attributes do (id: string).
func typeSchema(ty cty.Type) ast.Expr {
	switch {
	case ty == cty.String:
		return ast.NewIdent("string")
	case ty == cty.Number:
		return ast.NewIdent("number")
	case ty == cty.Bool:
		return ast.NewIdent("bool")
	case ty.IsListType() || ty.IsSetType():
		return &ast.ListLit{Elts: []ast.Expr{&ast.Ellipsis{Type: typeSchema(ty.ElementType())}}}
	case ty.IsMapType():
		return &ast.StructLit{Elts: []ast.Decl{&ast.Field{
			Label: ast.NewList(ast.NewIdent("string")),
			Value: typeSchema(ty.ElementType()),
		}}}
	case ty.IsObjectType():
		s := &ast.StructLit{}
		atys := ty.AttributeTypes()
		names := make([]string, 0, len(atys))
		for name := range atys {
			names = append(names, name)
		}
		slices.Sort(names)
		for _, name := range names {
			s.Elts = append(s.Elts, &ast.Field{Label: ast.NewString(name), Value: nullable(typeSchema(atys[name]))})
		}
		return s
	case ty.IsTupleType():
		l := &ast.ListLit{}
		for _, ety := range ty.TupleElementTypes() {
			l.Elts = append(l.Elts, nullable(typeSchema(ety)))
		}
		return l
	}
	return ast.NewIdent("_")
}

// nullable is x | null: an attribute inside an object may be null.
func nullable(x ast.Expr) ast.Expr {
	if id, ok := x.(*ast.Ident); ok && id.Name == "_" {
		return x
	}
	return &ast.BinaryExpr{X: x, Op: token.OR, Y: ast.NewNull()}
}

// unknownOfType is a value not known yet of type ty, a primitive, tuple
// or object type: the type and not null for a primitive; the tuple or
// object's type, with cueform.Unknown in it, which decoding reads.
func unknownOfType(ty cty.Type) ast.Expr {
	x := typeSchema(ty)
	if ty.IsPrimitiveType() {
		return &ast.BinaryExpr{X: x, Op: token.AND, Y: &ast.UnaryExpr{Op: token.NEQ, X: ast.NewNull()}}
	}
	marker := &ast.Field{Label: ast.NewIdent(cueform.Unknown), Value: ast.NewBool(true)}
	if s, ok := x.(*ast.StructLit); ok {
		s.Elts = append([]ast.Decl{marker}, s.Elts...)
		return s
	}
	return &ast.StructLit{Elts: []ast.Decl{marker, &ast.EmbedDecl{Expr: x}}}
}
