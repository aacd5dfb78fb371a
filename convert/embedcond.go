package convert

import (
	"strings"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/ast/astutil"
	"cuelang.org/go/cue/format"
	"cuelang.org/go/cue/token"
	"github.com/hashicorp/hcl/v2"
)

// embedConditionals writes each conditional of file that the writer
// marked embeddable (see pure) and whose two results are guarded by a
// condition and its negation as a struct that embeds them,
//
//	{if C {A}, if !C {B}}
//
// in place of the selection [if C {A}, if !C {B}][0]. The two mean the
// same: exactly one guard holds once C is known, and a struct of nothing
// but an embedded value is that value (a string, a list, null, a struct
// with the closedness it has); while C is not known, or is an error, so
// is the result. A selection whose last result has no guard, [if C {A},
// B][0], is written with C's negation guarding B, where C tests nothing
// against _|_ and holds no 'error' probe (whose negation would be one
// construct more).
//
// Only where every part is complete in every evaluation: CUE v0.17.1
// takes a struct whose embedded value is an incomplete error (a field
// not there yet, as a computed attribute is before the engine's shapes)
// for an empty struct where it is read, so that
// [if {if true {d.missing > 0}} {v: 1}] is [] and
// "\({if true {d.missing}})" is "" where the selection waits (the
// egress-only gateway of terraform-aws-vpc's network-acls example,
// counted by such a condition, was left out).
func embedConditionals(file *ast.File, embeddable map[*ast.IndexExpr]bool) {
	made := map[*ast.StructLit]bool{}
	astutil.Apply(file, nil, func(cur astutil.Cursor) bool {
		ix, ok := cur.Node().(*ast.IndexExpr)
		if !ok || !embeddable[ix] {
			return true
		}
		if s, ok := exhaustiveConditional(ix, made); ok {
			made[s] = true
			cur.Replace(s)
		}
		return true
	})
}

// markIfPure marks every selection in x, the conversion of e,
// embeddable where e is pure.
func (c *converter) markIfPure(e hcl.Expression, x ast.Expr) {
	if c.pure(e) {
		c.markEmbeddable(x)
	}
}

// markEmbeddable marks every selection in x embeddable: x is computed
// from pure values alone (see pure).
func (c *converter) markEmbeddable(x ast.Expr) {
	ast.Walk(x, func(n ast.Node) bool {
		if ix, ok := n.(*ast.IndexExpr); ok {
			c.embeddable[ix] = true
		}
		return true
	}, nil)
}

// exhaustiveConditional is ix, [if C {A}, if !C {B}][0], as the struct
// embedConditionals writes; false where ix is not of that form. made are
// the structs it wrote before, for results that are conditionals too.
func exhaustiveConditional(ix *ast.IndexExpr, made map[*ast.StructLit]bool) (*ast.StructLit, bool) {
	if lit, ok := ix.Index.(*ast.BasicLit); !ok || lit.Kind != token.INT || lit.Value != "0" {
		return nil, false
	}
	l, ok := ix.X.(*ast.ListLit)
	if !ok || len(l.Elts) != 2 {
		return nil, false
	}
	if _, ok := l.Elts[1].(*ast.Comprehension); !ok {
		// [if C {A}, B][0]: B is guarded by !C, where C holds no test
		// against _|_ nor 'error' probe (whose negation would be one
		// more).
		first, ok := l.Elts[0].(*ast.Comprehension)
		if !ok || len(first.Clauses) != 1 {
			return nil, false
		}
		clause, ok := first.Clauses[0].(*ast.IfClause)
		if !ok || holdsProbe(clause.Condition) {
			return nil, false
		}
		l.Elts[1] = &ast.Comprehension{Clauses: []ast.Clause{&ast.IfClause{Condition: not(clause.Condition)}}, Value: asStruct(l.Elts[1])}
	}
	var conds [2]ast.Expr
	for i, el := range l.Elts {
		comp, ok := el.(*ast.Comprehension)
		if !ok || len(comp.Clauses) != 1 {
			return nil, false
		}
		clause, ok := comp.Clauses[0].(*ast.IfClause)
		if !ok {
			return nil, false
		}
		conds[i] = clause.Condition
	}
	if !sameSyntax(not(conds[0]), conds[1]) && !sameSyntax(conds[0], not(conds[1])) {
		return nil, false
	}
	// Laid out as the list was, on one line but where a result breaks
	// it: {if C {A}, if !C {B}}.
	s := &ast.StructLit{Elts: []ast.Decl{l.Elts[0].(*ast.Comprehension), l.Elts[1].(*ast.Comprehension)}}
	for _, el := range l.Elts {
		comp := el.(*ast.Comprehension)
		if inner, ok := embeddedStruct(comp.Value); ok && !made[inner] && !smallStruct(inner) {
			// if C {{a: 1, ...}} is if C {a: 1, ...}, where the struct
			// takes lines of its own anyway; one on a line stays one,
			// and so does a conditional.
			comp.Value = inner
		}
		if inlineComprehension(comp) {
			v := comp.Value.(*ast.StructLit)
			ast.SetRelPos(v.Elts[0], token.NoSpace)
			v.Rbrace = token.NoSpace.Pos()
		}
	}
	ast.SetRelPos(s.Elts[0], token.NoSpace)
	ast.SetRelPos(s.Elts[1], token.Blank)
	s.Rbrace = token.NoSpace.Pos()
	return s, true
}

// embeddedStruct is the struct literal that x, a comprehension's value,
// embeds and holds nothing beside: {{a: 1}}.
func embeddedStruct(x ast.Expr) (*ast.StructLit, bool) {
	if len(ast.Comments(x)) > 0 {
		return nil, false
	}
	v, ok := embeddedValue(x)
	if !ok {
		return nil, false
	}
	inner, ok := v.(*ast.StructLit)
	return inner, ok
}

// holdsProbe reports whether x tests a value against _|_ or holds an
// 'error' probe.
func holdsProbe(x ast.Expr) bool {
	found := false
	ast.Walk(x, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BottomLit:
			found = true
		case *ast.BasicLit:
			found = found || isErrorSentinel(n)
		}
		return !found
	}, nil)
	return found
}

// sameSyntax reports whether a and b are written the same, spaces and
// line breaks aside.
func sameSyntax(a, b ast.Expr) bool {
	if a == nil || b == nil {
		return false
	}
	fa, errA := format.Node(a)
	fb, errB := format.Node(b)
	return errA == nil && errB == nil && strings.Join(strings.Fields(string(fa)), " ") == strings.Join(strings.Fields(string(fb)), " ")
}
