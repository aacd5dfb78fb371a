package convert

import (
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/token"
)

// coreFuncs are the functions the corpus calls most: try, lookup, merge,
// coalesce, length and concat, with can.
var coreFuncs = map[string]function{
	"try": {how: byExpr, note: "`*a | b`: the first argument unless it is an error; three or more arguments become `[if a != _|_ {a}, ..., z][0]`", conv: convTry},
	"can": {how: byExpr, note: "`*(x == x) | false`: true when x evaluates, false when it is an error, unknown while x is", result: kindBool, conv: func(cl *call) ast.Expr {
		if !cl.arity(1, 1) {
			return cl.fail("can takes one argument.")
		}
		x := cl.args[0]
		return &ast.ParenExpr{X: &ast.BinaryExpr{X: &ast.UnaryExpr{Op: token.MUL, X: &ast.ParenExpr{X: binary(token.EQL, x, x)}}, Op: token.OR, Y: ast.NewBool(false)}}
	}},
	"lookup": {how: byExpr, note: "`m[k]`, and `*m[k] | default` with a default", conv: func(cl *call) ast.Expr {
		switch {
		case cl.arity(2, 2):
			return index(cl.args[0], cl.args[1])
		case cl.arity(3, 3):
			return &ast.ParenExpr{X: &ast.BinaryExpr{X: &ast.UnaryExpr{Op: token.MUL, X: paren(index(cl.args[0], cl.args[1]))}, Op: token.OR, Y: paren(cl.args[2])}}
		}
		return cl.fail("lookup takes two or three arguments.")
	}},
	"merge": {how: byLibrary, note: "`tofu.#merge`: later maps win, key by key, not CUE unification", result: kindMap, conv: func(cl *call) ast.Expr {
		return cl.c.libList("merge", cl.argList())
	}},
	"coalesce": {how: byExpr, note: "`[for x in [a, b] if x != null && x != \"\" {x}][0]`", conv: func(cl *call) ast.Expr {
		if len(cl.args) == 0 {
			return cl.fail("coalesce takes at least one argument.")
		}
		x := ident(cl.c.fresh("x"))
		cond := binary(token.LAND, binary(token.NEQ, x, ast.NewNull()), binary(token.NEQ, x, stringLit("")))
		return index(list(&ast.Comprehension{
			Clauses: []ast.Clause{&ast.ForClause{Value: x, Source: cl.argList()}, &ast.IfClause{Condition: cond}},
			Value:   embed(x),
		}), intLit(0))
	}},
	"length": {how: byExpr, note: "`len(x)` for lists and maps; `tofu.#length` counts a string's characters", result: kindInt, conv: func(cl *call) ast.Expr {
		if !cl.arity(1, 1) {
			return cl.fail("length takes one argument.")
		}
		switch cl.kinds[0] {
		case kindList, kindMap:
			return ast.NewCall(ident("len"), cl.args[0])
		}
		return cl.lib("length", cl.args[0])
	}},
	"concat": {how: byStdlib, note: "`list.Concat([a, b])`", result: kindList, conv: func(cl *call) ast.Expr {
		return cl.std("list", "Concat", cl.argList())
	}},
}

// convTry writes try(a, b, ...). Two arguments are a CUE default: a, or b
// where a is an error; a value that is not known yet stays unknown, as in
// OpenTofu. CUE drops the default of a nested disjunction once its
// outer default fails, so more arguments are checked one by one instead.
func convTry(cl *call) ast.Expr {
	switch {
	case len(cl.args) == 0 || cl.expand:
		return cl.fail("try takes one or more arguments, not an expanded list.")
	case len(cl.args) == 1:
		return cl.args[0]
	case len(cl.args) == 2:
		return &ast.ParenExpr{X: &ast.BinaryExpr{X: &ast.UnaryExpr{Op: token.MUL, X: paren(cl.args[0])}, Op: token.OR, Y: paren(cl.args[1])}}
	}
	l := &ast.ListLit{}
	last := len(cl.args) - 1
	for _, a := range cl.args[:last] {
		l.Elts = append(l.Elts, &ast.Comprehension{
			Clauses: []ast.Clause{&ast.IfClause{Condition: binary(token.NEQ, a, &ast.BottomLit{})}},
			Value:   embed(a),
		})
	}
	l.Elts = append(l.Elts, cl.args[last])
	return index(l, intLit(0))
}
