package convert

import (
	"strconv"
	"strings"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/format"
)

// share binds each call of a library function that the struct s computes
// more than once to a let at the top of s, and puts the let's name where
// the call was:
//
//	let element = (tofu.#element & {#args: [_arg.azs, count.index]}).out
//	availability_zone: [if len(...element...) > 0 {element}, ...][0]
//
// Each occurrence of a call in CUE is a unification of its own with the
// library's definition, evaluated apart from every other (and a
// conditional's condition is written twice, a try's argument several
// times); a let is evaluated once for all the references to it. In the
// vpc module's subnets, calls repeated four to eight times per instance
// made one evaluation of the example simple cost 1.6 times as much.
//
// A call is shared only where it means the same thing at the top of s:
// an occurrence that refers to a name bound between s and itself (a
// comprehension's variable, a nested struct's field or let) stays as it
// is. A let is lazy, as the calls it replaces were: it is evaluated where
// a reference to it is, and an error in it is an error there only. (CUE
// rejects a let that nothing refers to; each let made here has two
// references at least.)
func (c *converter) share(s *ast.StructLit) { c.shareIn(s, nil, map[ast.Expr]string{}) }

// shareIn is share for a struct inside the lets of enclosing structs,
// whose names it leaves to them. keys are the keys of the calls found so
// far (see libCalls).
func (c *converter) shareIn(s *ast.StructLit, outer map[string]bool, keys map[ast.Expr]string) {
	occs := libCalls(s, keys)
	if len(occs) == 0 {
		// No call here, nor in the comprehensions' bodies inside, as in
		// most structs: the walks below, and those of each body at
		// every depth of comprehensions, would find nothing to do.
		return
	}
	taken := identNames(s)
	for n := range outer {
		taken[n] = true
	}
	lets := map[string]*ast.LetClause{}
	for ; ; occs = libCalls(s, keys) {
		// The converter may put one node in two places; it is replaced
		// in both, so it is shared only if both may be.
		stays := map[ast.Expr]bool{}
		for _, o := range occs {
			if !o.hoistable {
				stays[o.expr] = true
			}
		}
		byKey := map[string][]ast.Expr{}
		var best string
		for _, o := range occs {
			if stays[o.expr] {
				continue
			}
			byKey[o.key] = append(byKey[o.key], o.expr)
			if len(byKey[o.key]) == 2 && (len(o.key) > len(best) || len(o.key) == len(best) && o.key < best) {
				best = o.key
			}
		}
		if best == "" {
			break
		}
		same := byKey[best]
		name := c.letIdent(libCallName(same[0]), taken)
		taken[name] = true
		replace := map[ast.Node]bool{}
		for _, e := range same {
			replace[e] = true
		}
		replaceNodes(s, func(n ast.Node) bool { return replace[n] }, func(ast.Node) ast.Node { return ident(name) })
		// The calls around those replaced read otherwise now.
		clear(keys)
		lets[name] = &ast.LetClause{Ident: ident(name), Expr: same[0]}
		// Inside s, where a later let's occurrences are looked for too.
		s.Elts = append([]ast.Decl{lets[name]}, s.Elts...)
	}
	if len(lets) > 0 {
		rest := s.Elts[len(lets):]
		s.Elts = append(orderLets(rest, lets), rest...)
	}
	// Then each comprehension's body, for the calls that refer to its
	// variables.
	depth := 0
	var bodies []*ast.StructLit
	ast.Walk(s, func(n ast.Node) bool {
		if cl, ok := n.(*ast.Comprehension); ok {
			if body, ok := cl.Value.(*ast.StructLit); ok && depth == 0 {
				bodies = append(bodies, body)
			}
			depth++
		}
		return true
	}, func(n ast.Node) {
		if _, ok := n.(*ast.Comprehension); ok {
			depth--
		}
	})
	for _, b := range bodies {
		c.shareIn(b, taken, keys)
	}
}

// orderLets is the lets in the order the declarations read them: each
// before the first declaration that refers to it, after the lets it
// refers to.
func orderLets(decls []ast.Decl, lets map[string]*ast.LetClause) []ast.Decl {
	var order []ast.Decl
	done := map[string]bool{}
	var visit func(n ast.Node)
	visit = func(n ast.Node) {
		ast.Walk(n, func(n ast.Node) bool {
			id, ok := n.(*ast.Ident)
			if !ok || done[id.Name] || lets[id.Name] == nil {
				return true
			}
			done[id.Name] = true
			visit(lets[id.Name].Expr)
			order = append(order, lets[id.Name])
			return true
		}, nil)
	}
	for _, d := range decls {
		visit(d)
	}
	return order
}

// letIdent is a name for a let in a struct whose identifiers are taken:
// the function's name, numbered when it is taken, bound outside or a
// keyword.
func (c *converter) letIdent(fn string, taken map[string]bool) string {
	n := fn
	for i := 1; taken[n] || c.bound(n) || !isPlainLabel(n); i++ {
		n = fn + "_" + strconv.Itoa(i)
	}
	return n
}

// callOcc is one call of a library function inside a struct.
type callOcc struct {
	expr ast.Expr
	// key is the call's CUE source: two calls with the same key at the
	// top of the struct compute the same value.
	key string
	// hoistable is set when no name the call refers to is bound between
	// the struct and the call.
	hoistable bool
}

// libCalls finds the calls of library functions in s, at any depth, in
// source order. keys holds the key of each call formatted before, which
// stays its key until a call inside it is replaced: the struct of a
// comprehension's body is looked into again at each depth, and
// formatting was most of the cost of sharing.
func libCalls(s *ast.StructLit, keys map[ast.Expr]string) []callOcc {
	var occs []callOcc
	var scopes [][]string
	shadowed := func(refs map[string]bool) bool {
		for _, sc := range scopes {
			for _, n := range sc {
				if refs[n] {
					return true
				}
			}
		}
		return false
	}
	pushed := map[ast.Node]bool{}
	ast.Walk(s, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.StructLit:
			if n != s {
				scopes = append(scopes, declNames(n.Elts))
				pushed[n] = true
			}
		case *ast.Comprehension:
			scopes = append(scopes, clauseNames(n.Clauses))
			pushed[n] = true
		case ast.Expr:
			if libCallName(n) != "" {
				key, ok := keys[n]
				if !ok {
					if b, err := format.Node(n); err == nil {
						key, ok = string(b), true
						keys[n] = key
					}
				}
				if ok {
					occs = append(occs, callOcc{expr: n, key: key, hoistable: !shadowed(refNames(n))})
				}
			}
		}
		return true
	}, func(n ast.Node) {
		if pushed[n] {
			scopes = scopes[:len(scopes)-1]
		}
	})
	return occs
}

// libCallName is the name of the library function that e calls, as
// funcs.go writes a call, (tofu.#name & {#args: [...]}).out, or "".
func libCallName(e ast.Node) string {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok || identName(sel.Sel) != "out" {
		return ""
	}
	p, ok := sel.X.(*ast.ParenExpr)
	if !ok {
		return ""
	}
	b, ok := p.X.(*ast.BinaryExpr)
	if !ok {
		return ""
	}
	def, ok := b.X.(*ast.SelectorExpr)
	if !ok || identName(def.X) != libImport {
		return ""
	}
	name, ok := strings.CutPrefix(identName(def.Sel), "#")
	if !ok {
		return ""
	}
	return name
}

func identName(n ast.Node) string {
	if id, ok := n.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// declNames are the names a struct's declarations bind: its fields'
// labels, quoted or not, and its lets.
func declNames(elts []ast.Decl) []string {
	var names []string
	for _, d := range elts {
		switch d := d.(type) {
		case *ast.Field:
			if name, _, err := ast.LabelName(d.Label); err == nil {
				names = append(names, name)
			}
		case *ast.LetClause:
			names = append(names, d.Ident.Name)
		}
	}
	return names
}

// clauseNames are the names a comprehension's clauses bind.
func clauseNames(cls []ast.Clause) []string {
	var names []string
	for _, cl := range cls {
		switch cl := cl.(type) {
		case *ast.ForClause:
			if cl.Key != nil {
				names = append(names, cl.Key.Name)
			}
			names = append(names, cl.Value.Name)
		case *ast.LetClause:
			names = append(names, cl.Ident.Name)
		}
	}
	return names
}

// refNames are the identifiers that n refers to by name: not the
// selected names of selectors, not labels. Names bound inside n are among
// them, which only makes n shared less often.
func refNames(n ast.Node) map[string]bool {
	refs := map[string]bool{}
	var walk func(n ast.Node)
	walk = func(n ast.Node) {
		ast.Walk(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Ident:
				refs[n.Name] = true
			case *ast.SelectorExpr:
				walk(n.X)
				return false
			case *ast.Field:
				if _, isIdent := n.Label.(*ast.Ident); !isIdent {
					if _, isLit := n.Label.(*ast.BasicLit); !isLit {
						walk(n.Label)
					}
				}
				walk(n.Value)
				return false
			case *ast.LetClause:
				walk(n.Expr)
				return false
			}
			return true
		}, nil)
	}
	walk(n)
	return refs
}

// identNames are all the identifiers in n, referred to or bound, and its
// labels: a let named otherwise shadows nothing inside n.
func identNames(n ast.Node) map[string]bool {
	names := map[string]bool{}
	ast.Walk(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			names[n.Name] = true
		case *ast.BasicLit:
			if name, _, err := ast.LabelName(n); err == nil {
				names[name] = true
			}
		}
		return true
	}, nil)
	return names
}
