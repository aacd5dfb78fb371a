package convert

import (
	"cuelang.org/go/cue/ast"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// template converts a string template, quoted or heredoc, into a CUE
// string interpolation. The parser has already applied strip markers (~)
// and heredoc indentation. A %{if} directive is a conditional part and a
// %{for} directive a join part; both become expressions inside the string.
func (c *converter) template(e *hclsyntax.TemplateExpr) ast.Expr {
	outer := c.unknownScope(e)
	var parts []any
	for _, p := range e.Parts {
		if lit, ok := p.(*hclsyntax.LiteralValueExpr); ok && lit.Val.Type() == cty.String && lit.Val.IsKnown() && !lit.Val.IsNull() {
			parts = append(parts, lit.Val.AsString())
			continue
		}
		x, k := c.expr(p)
		parts = append(parts, c.interpolated(x, k))
	}
	if len(parts) == 0 {
		return outer(stringLit(""))
	}
	return outer(interpolation(parts))
}

// interpolated is the expression to interpolate for a value of kind k: the
// value itself when CUE prints it as OpenTofu does, its string form when
// not.
func (c *converter) interpolated(x ast.Expr, k kind) ast.Expr {
	if k == kindNumber {
		return c.lib("tostring", x)
	}
	return x
}

// templateJoin converts a %{for} directive: the strings the loop yields,
// joined with nothing between them.
func (c *converter) templateJoin(e *hclsyntax.TemplateJoinExpr) ast.Expr {
	x, _ := c.expr(e.Tuple)
	return c.std("strings", "Join", x, stringLit(""))
}

// forExpr converts a for expression to a list or struct comprehension.
// The key of a set's element is the element. OpenTofu iterates a map or object in the lexical order of its keys, CUE
// a struct in the order of its fields; where the order shows (a list
// result) and the source is not known to be a list, the keys are sorted.
func (c *converter) forExpr(e *hclsyntax.ForExpr) (ast.Expr, kind) {
	src, sk := c.expr(e.CollExpr)
	ct := c.typeOf(e.CollExpr)
	if sk == kindUnknown && (ct.IsListType() || ct.IsTupleType()) {
		// A list is iterated in order: no keys to sort.
		sk = kindList
	}

	names := map[string]binding{}
	known := c.knownIn(e.CollExpr)
	keyVar, valVar := "", c.fresh(e.ValVar)
	// for p in var.prefixes: an element of the collection's type.
	kt, vt := elementTypes(ct)
	vk := kindOfType(vt)
	if t, ok := e.CollExpr.(*hclsyntax.TupleConsExpr); ok && len(t.Exprs) > 0 {
		// The elements' forms tell more: [1, 2] holds whole numbers.
		vk = kindNull
		for _, x := range t.Exprs {
			vk = join(vk, c.kindOf(x))
		}
	}
	names[e.ValVar] = binding{cue: valVar, kind: vk, nameFacts: nameFacts{ty: vt, known: known}, over: e.CollExpr, element: true}
	// Over a set, OpenTofu's key is the element itself; CUE's set is a
	// list, whose key would be the index.
	set := e.KeyVar != "" && c.isSetExpr(e.CollExpr)
	if set {
		names[e.KeyVar] = names[e.ValVar]
	} else if e.KeyVar != "" {
		keyVar = c.fresh(e.KeyVar)
		kk := kindUnknown
		switch sk {
		case kindList:
			kk = kindInt
		case kindMap:
			kk = kindString
		}
		names[e.KeyVar] = binding{cue: keyVar, kind: kk, nameFacts: nameFacts{ty: kt, known: known}, over: e.CollExpr}
	}
	c.push(names)
	defer c.pop()

	var clauses []ast.Clause
	sorted := e.KeyExpr == nil && sk != kindList
	if sorted {
		clauses = c.sortedFor(src, sk, keyVar, valVar)
	} else {
		fc := &ast.ForClause{Value: ident(valVar), Source: src}
		if keyVar != "" {
			fc.Key = ident(keyVar)
		}
		clauses = []ast.Clause{fc}
	}
	if e.CondExpr != nil {
		clauses = append(clauses, &ast.IfClause{Condition: c.condition(e.CondExpr)})
	}
	val, _ := c.expr(e.ValExpr)

	if e.KeyExpr == nil {
		return &ast.ListLit{Elts: []ast.Expr{&ast.Comprehension{Clauses: c.guardedSource(clauses, val), Value: embed(val)}}}, kindList
	}
	key, kk := c.expr(e.KeyExpr)
	key = c.asString(key, kk)
	if e.Group {
		// key => value...: each key maps to the list of the values of the
		// items with that key, in order. Every item with the key writes the
		// same list, and equal values unify.
		inner := c.fresh(e.ValVar + "_")
		innerKey := ""
		c.push(map[string]binding{e.ValVar: {cue: inner, nameFacts: nameFacts{known: known}}})
		if e.KeyVar != "" {
			innerKey = c.fresh(e.KeyVar + "_")
			c.scopes[len(c.scopes)-1].names[e.KeyVar] = binding{cue: innerKey, nameFacts: nameFacts{known: known}}
		}
		innerClause := &ast.ForClause{Value: ident(inner), Source: src}
		if innerKey != "" {
			innerClause.Key = ident(innerKey)
		}
		innerClauses := []ast.Clause{innerClause}
		ik, ikk := c.expr(e.KeyExpr)
		innerCond := binary(tokenEQL, c.asString(ik, ikk), key)
		if e.CondExpr != nil {
			cond, _ := c.expr(e.CondExpr)
			innerCond = binary(tokenLAND, cond, innerCond)
		}
		innerClauses = append(innerClauses, &ast.IfClause{Condition: innerCond})
		iv, _ := c.expr(e.ValExpr)
		c.pop()
		val = &ast.ListLit{Elts: []ast.Expr{&ast.Comprehension{Clauses: innerClauses, Value: embed(iv)}}}
	} else {
		clauses = c.guardedSource(clauses, &ast.StructLit{Elts: []ast.Decl{field(&ast.ParenExpr{X: key}, val)}})
	}
	return structFor(clauses, key, val), kindMap
}

// sortedFor is the clauses that iterate src in OpenTofu's order: a list in
// its order, a map or object in the order of its keys. Where src is a
// conditional known while planning with an empty result, the clauses are
// guarded by its condition and iterate the other (see guardedSource):
//
//	if _var_rules != null for k in list.SortStrings([for k, _ in _var_rules {k}]) let v = _var_rules[k]
func (c *converter) sortedFor(src ast.Expr, sk kind, keyVar, valVar string) []ast.Clause {
	if guard, inner, ok := c.guardOf(src); ok {
		return append([]ast.Clause{&ast.IfClause{Condition: guard}}, c.sortedFor(inner, sk, keyVar, valVar)...)
	}
	if sk == kindMap {
		k := keyVar
		if k == "" {
			k = c.fresh("k")
		}
		clauses := []ast.Clause{
			&ast.ForClause{Value: ident(k), Source: c.std("list", "SortStrings", list(&ast.Comprehension{
				Clauses: []ast.Clause{&ast.ForClause{Key: ident(k), Value: ident("_"), Source: src}},
				Value:   embed(ident(k)),
			}))},
			&ast.LetClause{Ident: ident(valVar), Expr: index(src, ident(k))},
		}
		return clauses
	}
	// Not known to be a list or a map: the library orders either.
	fc := &ast.ForClause{Value: ident(valVar), Source: c.lib("ordered", src)}
	if keyVar != "" {
		fc.Key = ident(keyVar)
	}
	return []ast.Clause{fc}
}

// splat converts xs[*].attr: the attribute of every element. OpenTofu
// treats a value that is not a list as a list of itself, and null as an
// empty list.
func (c *converter) splat(e *hclsyntax.SplatExpr) (ast.Expr, kind) {
	src, sk := c.expr(e.Source)
	v := c.fresh("x")
	if c.anon == nil {
		c.anon = map[*hclsyntax.AnonSymbolExpr]string{}
	}
	c.anon[e.Item] = v
	each, _ := c.expr(e.Each)
	delete(c.anon, e.Item)
	if st := c.typeOf(e.Source); sk == kindMap || sk.isScalar() || st.IsObjectType() || st.IsMapType() || st.IsPrimitiveType() {
		// A splat of one value that is not a list (an object, a string)
		// is a list of that one value, or an empty one for null.
		return list(&ast.Comprehension{
			Clauses: []ast.Clause{&ast.IfClause{Condition: binary(tokenNEQ, src, ast.NewNull())}},
			Value:   &ast.StructLit{Elts: []ast.Decl{&ast.LetClause{Ident: ident(v), Expr: src}, &ast.EmbedDecl{Expr: each}}},
		}), kindList
	}
	return list(&ast.Comprehension{
		Clauses: []ast.Clause{&ast.ForClause{Value: ident(v), Source: src}},
		Value:   embed(each),
	}), kindList
}
