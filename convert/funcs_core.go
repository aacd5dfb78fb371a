package convert

import (
	"math/big"
	"regexp"
	"slices"
	"strings"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/literal"
	"cuelang.org/go/cue/token"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/cueform"
	"github.com/tofucue/tofucue/refs"
)

// coreFuncs are the functions the corpus calls most: try, lookup, merge,
// coalesce, length and concat, with can.
var coreFuncs = map[string]function{
	"try": {how: byExpr, note: "`*a | b` of two arguments where a is known while planning and b is a literal; `tofu.#tryattr & {#args: [[a, b], [\"x\"], c]}` where each argument but the last reads one attribute, or the same path of two or three (`[\"x\", \"y\"]`), from a variable, local value, each.value, a dynamic block's iterator value or for variable, a string index a step as an attribute is (the wrappers' try(each.value.x, var.defaults.x, c)), known while planning, the values given whole; `[if len(R) > i {R[i].x}, b][0]` in a root module where the argument reads one attribute of one instance of a resource or data source whose count is known while planning; `tofu.#try & {#args: [*a | 'error', b]}` of up to six in a root module where those tested are known while planning (each but the last given as `*a | 'error'`, which holds a's error in), which takes the first that is not the bytes 'error'; otherwise the arguments are checked one by one in place, `[if [(*a | 'error') & tofu.#value] != _|_ {a}, b][0]`, which takes an argument that is a value, known or not: one not known yet leaves the try not known, as in OpenTofu; a list or object that holds a value not known yet is made a value of which nothing is known (`a | {#unknown: true}`, neither by default: OpenTofu's try of it is wholly unknown, and so is an attribute read from it); an argument computed from a value not known yet (coalesce of one, a for over a list not known yet) is an incomplete error in CUE, which the test drops as an error, so the test also asks whether a reference it reads is a string, number, bool or list not known yet, and the try is then not known either; a value computed from one not known yet by another operator or function whose references are not of those kinds counts as an error, where OpenTofu's result is unknown", conv: convTry},
	"can": {how: byExpr, note: "`(*x | 'error') != 'error'`: true when x evaluates, false when it is an error, unknown while x is; where x computes with a reference that is a string, number, bool or list not known yet, `[if R {bool}, C][0]`, not known either, as in OpenTofu (try's test of the references); a value computed from one not known yet of another kind by an operator or a function that is not a string one is false, where OpenTofu's result is unknown (a template or a string function of it is string, see the converter's unknownGuard); `can(regex(p, s))` is `regexp.Match(p, s)`, false for a null s or a pattern that is not valid, and not known while s is not", conv: func(cl *call) ast.Expr {
		if !cl.arity(1, 1) {
			return cl.fail("can takes one argument.")
		}
		if _, _, refused := cl.c.refusal(cl.src[0]); refused {
			return ast.NewBool(false) // it fails whatever it is given
		}
		test := evaluates(cl.args[0], token.NEQ)
		if cl.readsPending == nil {
			return paren(test)
		}
		if reads := cl.readsPending(cl.src[0]); reads != nil {
			// OpenTofu's can is not known where its argument reads a
			// value not known yet, as try's is (see firstOr): a value
			// computed from one is an incomplete error in CUE, which
			// the test takes for an error.
			return index(list(&ast.Comprehension{Clauses: []ast.Clause{&ast.IfClause{Condition: reads}}, Value: embed(ident("bool"))}, test), intLit(0))
		}
		return paren(test)
	}},
	"lookup": {how: byExpr, note: "`m[k]`, and with a default `tofu.#lookup` (`m[k]` or the default itself where an object type fixes whether the key is there), which decides from the map's keys whether to take the default, so that an element not known yet leaves the result unknown; a map not known yet (a computed map attribute) has no keys yet and gives the default, where OpenTofu's result is unknown", conv: func(cl *call) ast.Expr {
		switch {
		case cl.arity(2, 2):
			return index(cl.args[0], cl.args[1])
		case cl.arity(3, 3):
			// An object type fixes whether the key is there: an
			// attribute of a variable's object type always is, set to
			// its default or null where the caller left it out, and
			// lookup gives it as it is, null too.
			if ty := cl.c.typeOf(cl.src[0]); ty.IsObjectType() {
				if k, ok := constValue(cl.src[1]); ok && k.Type() == cty.String && !k.IsNull() {
					if ty.HasAttribute(k.AsString()) {
						return index(cl.args[0], cl.args[1])
					}
					return cl.args[2]
				}
			}
			args := slices.Clone(cl.args)
			// OpenTofu converts the default to the element type of a
			// map of a primitive type: lookup(m, "k", true) is "true"
			// for a map(string), wherever the analysis knows the map's
			// type from (each.value.extra of a for_each over a typed
			// variable, too).
			// A default already of that type is left as it is (a
			// variable's optional string, null by default).
			if t := cl.c.typeOf(cl.src[0]); t.IsMapType() && !cl.c.typeOf(cl.src[2]).Equals(t.ElementType()) {
				switch t.ElementType() {
				case cty.String:
					args[2] = cl.c.lib("tostring", args[2])
				case cty.Number:
					args[2] = cl.c.lib("tonumber", args[2])
				case cty.Bool:
					args[2] = cl.c.lib("tobool", args[2])
				}
			}
			return cl.lib("lookup", args...)
		}
		return cl.fail("lookup takes two or three arguments.")
	}},
	"merge": {how: byLibrary, note: "`tofu.#merge`: later maps win, key by key, not CUE unification; where the keys are known when converting and no two arguments share one, the struct of them all, `{_local_tags, Name: x}`", conv: func(cl *call) ast.Expr {
		if s, ok := disjointMerge(cl); ok {
			return s
		}
		return cl.c.libList("merge", cl.argList())
	}},
	"coalesce": {how: byExpr, note: "`tofu.#coalesce & {#args: [a, b]}` where every argument is a string, number or bool known while planning; otherwise `[for x in [a] if x != null && x != \"\" {x}, [for x in [b] if ... {x}][0]][0]`: the first argument neither null nor \"\" decides, whatever follows", conv: func(cl *call) ast.Expr {
		if len(cl.args) == 0 {
			return cl.fail("coalesce takes at least one argument.")
		}
		for i, k := range cl.kinds {
			cl.kinds[i] = cl.c.scalarKind(cl.src[i], k)
		}
		if _, mixed := unified(cl.kinds...); mixed && !cl.expand {
			// OpenTofu converts the arguments to one type: strings.
			for i, a := range cl.args {
				if cl.kinds[i] != kindNull {
					cl.args[i] = cl.c.asString(a, cl.kinds[i])
				}
			}
		}
		x := ident(cl.c.fresh("x"))
		cond := binary(token.LAND, binary(token.NEQ, x, ast.NewNull()), binary(token.NEQ, x, stringLit("")))
		flat := func() ast.Expr {
			return index(list(&ast.Comprehension{
				Clauses: []ast.Clause{&ast.ForClause{Value: x, Source: cl.argList()}, &ast.IfClause{Condition: cond}},
				Value:   embed(x),
			}), intLit(0))
		}
		if cl.expand {
			return flat()
		}
		scalars := !slices.ContainsFunc(cl.kinds, func(k kind) bool { return !k.isScalar() && k != kindNull })
		if scalars && !slices.ContainsFunc(cl.src, cl.c.mayBeUnknown) {
			// Every argument a string, number or bool known while
			// planning (in a called module, with its known variables,
			// see knownVariables): the library's, which reads as
			// the HCL does, with the literal nulls and "" left out and
			// nothing after an argument that decides; that argument
			// alone where it is the first. Not of a list or object,
			// which the call's #args would copy whole (fabric's project
			// module coalesces its factories' data: 2.4 s and 290 MiB
			// converted alone, 5.5 s and 610 MiB through the library).
			var kept []ast.Expr
			for _, a := range cl.args {
				if lit, ok := a.(*ast.BasicLit); ok && (lit.Kind == token.NULL || lit.Value == `""`) {
					continue
				}
				kept = append(kept, a)
				if decides(a) {
					break
				}
			}
			switch {
			case len(kept) == 0:
				return flat()
			case len(kept) == 1 && decides(kept[0]):
				return kept[0]
			}
			return cl.lib("coalesce", kept...)
		}
		// One argument at a time, as OpenTofu looks at them: the first
		// that is neither null nor "" decides, whatever follows it (an
		// argument not known yet after it leaves the result known), and
		// one not known yet before any such makes the result unknown.
		// [if a != null && a != "" {a}, REST][0], where REST is the same
		// of the arguments after a; a literal null or "" is left out, one
		// that is neither ends it,
		// and so does the last argument's list without REST, an error
		// when every argument is null or "". An argument that is not a
		// reference is bound once: [for x in [f(y)] if ... {x}, REST][0].
		var out ast.Expr
		for i := len(cl.args) - 1; i >= 0; i-- {
			a := cl.args[i]
			if lit, ok := a.(*ast.BasicLit); ok && (lit.Kind == token.NULL || lit.Value == `""`) {
				continue // never taken
			}
			if decides(a) {
				out = a
				continue
			}
			var first ast.Expr
			if isReference(a) {
				first = &ast.Comprehension{
					Clauses: []ast.Clause{&ast.IfClause{Condition: binary(token.LAND, binary(token.NEQ, a, ast.NewNull()), binary(token.NEQ, a, stringLit("")))}},
					Value:   embed(a),
				}
			} else {
				first = &ast.Comprehension{
					Clauses: []ast.Clause{&ast.ForClause{Value: x, Source: list(a)}, &ast.IfClause{Condition: cond}},
					Value:   embed(x),
				}
			}
			elts := []ast.Expr{first}
			if out != nil {
				elts = append(elts, out)
			}
			out = index(list(elts...), intLit(0))
		}
		if out == nil {
			// Every argument is null or "": an error, as in OpenTofu.
			return flat()
		}
		return out
	}},
	"length": {how: byExpr, note: "`len(x)` for lists and maps, `len(strings.Runes(s))` for a string; `tofu.#length` counts a string's characters where the kind is not known", conv: func(cl *call) ast.Expr {
		if !cl.arity(1, 1) {
			return cl.fail("length takes one argument.")
		}
		switch cl.kinds[0] {
		case kindList, kindMap:
			return ast.NewCall(ident("len"), cl.args[0])
		case kindString:
			// Without the library's kind tests, which would evaluate
			// the argument again each time (see typeOf).
			return ast.NewCall(ident("len"), cl.std("strings", "Runes", cl.args[0]))
		}
		return cl.lib("length", cl.args[0])
	}},
	"concat": {how: byStdlib, note: "`list.Concat([a, b])`", conv: func(cl *call) ast.Expr {
		return cl.std("list", "Concat", cl.argList())
	}},
}

// decides reports whether x is a literal that coalesce takes whatever
// follows it: neither null nor "".
func decides(x ast.Expr) bool {
	switch x := x.(type) {
	case *ast.BasicLit:
		switch x.Kind {
		case token.NULL:
			return false
		case token.STRING:
			return x.Value != `""` && x.Value != "''"
		}
		return true
	case *ast.Ident:
		return x.Name == "true" || x.Name == "false"
	}
	return false
}

// isReference reports whether x is a name or a selection from one
// (_var_name, local.x.y): repeating it costs nothing.
func isReference(x ast.Expr) bool {
	for {
		switch e := x.(type) {
		case *ast.Ident:
			return true
		case *ast.SelectorExpr:
			x = e.X
		default:
			return false
		}
	}
}

// convTry writes try(a, b, ...). A CUE default, *a | b, would not do even
// for two arguments: CUE drops an alternative that is not known yet where
// it is an incomplete error (an interpolation of a computed attribute) and
// takes b, where OpenTofu's result is unknown; it drops the default of a
// nested disjunction once its outer default fails; and a comprehension's
// condition a != _|_ takes a value not known yet for an error. So the
// arguments are checked one by one, each with firstOr's test that it is
// a value (see there), the next one looked at only where the one before
// is an error:
//
//	[if [(*a | 'error') & tofu.#value] != _|_ {a}, b][0]
//
// An argument that may be unknown while planning (mayBeUnknown) is
// tested for references not known yet too (see firstOr), and a try of a
// kind other than a scalar one marks it as not known as a whole where it
// is not known in full (see wholly).
func convTry(cl *call) ast.Expr {
	switch {
	case len(cl.args) == 0 || cl.expand:
		return cl.fail("try takes one or more arguments, not an expanded list.")
	case len(cl.args) == 1:
		return cl.args[0]
	}
	last := len(cl.args) - 1
	x := cl.args[last]
	// tested: the arguments before the last that may evaluate (one the
	// type check refuses fails whatever it is given: try goes on), and
	// whether each may be unknown while planning.
	var tested []int
	var unknown []bool
	anyUnknown, soft := false, false
	for i := range last {
		if _, _, refused := cl.c.refusal(cl.src[i]); refused {
			continue
		}
		u := cl.c.mayBeUnknown(cl.src[i])
		tested, unknown = append(tested, i), append(unknown, u)
		anyUnknown = anyUnknown || u
		soft = soft || cl.c.readsSoftNull(cl.src[i])
	}
	reads, path := cl.attrReads()
	// byAttr: every argument but the last reads one path from a value
	// known while planning that is always there (#tryattr), in a called
	// module too: the values are given whole, so no element of #args
	// holds a disjunct that CUE could drop (see #try's case below).
	byAttr := !anyUnknown && len(tested) == last && reads != nil
	switch {
	case len(tested) == 0:
		return x
	case soft && byAttr:
		// #tryattr takes the values whole: the attribute it gives is
		// the value's own, a null by default there kept as the one
		// default it is (net-lb-int's try(var.health_check_config.http,
		// null) == null, where the default's attributes are soft nulls).
		return cl.tryAttr(reads, path)
	case soft:
		// An argument that may be a null by default (*null | _) is
		// tested in place: *a | b, or (*a | 'error') in #args, would
		// make each of a's arms a default (*null | *_), and a test of
		// the result (== null) could not be decided (fabric's
		// cloud-run-v2: try(var.revision.vpc_access.connector, null)
		// under a dynamic block's for_each).
	case last == 1 && !anyUnknown && plainFallback(x):
		// try(var.settings.path, ""): what a person writes.
		return defaulted(cl.args[0], x)
	case byAttr:
		return cl.tryAttr(reads, path)
	case !anyUnknown && len(tested) < maxTry && !cl.c.a.called:
		// The library's #try tests the arguments as firstOr does, and
		// the call reads as the HCL does. Each is given as
		// (*a | 'error'): an argument's error in a call's #args, not
		// held in a disjunction, would be one of the call itself
		// wherever CUE finalizes the call's struct first (an error that
		// the engine's validation of the program reports, a fallback
		// taken where the argument evaluates). Even where #try tests
		// plain arguments with != _|_, and its result is right, CUE
		// v0.17.1 takes that result for an error once it is passed on
		// to another definition: with
		//	#first: {#args: [_, _], out: [if #args[0] != _|_ {#args[0]}, #args[1]][0]}
		//	#id: {#args: [_], let x = #args[0], out: [if (x & number) != _|_ {x}, "not a number"][0]}
		// a for over {d: "s"} with let s = (#first & {#args: [v.size, 1]}).out
		// has s: 1 but (#id & {#args: [s]}).out: "not a number" (the
		// wrappers' items whose attribute is missing failed the
		// module's #tonumber). One that may be unknown
		// is tested in place, below: CUE v0.17.1 finalizes an element
		// of #args as a field, and drops a disjunct that holds a value
		// not known yet where the same disjunction in place waits for it
		// (terraform-aws-s3-bucket's lifecycle rules output took its
		// fallback ""). A called module's tries are tested in place
		// too: its arguments are known where every call passes known
		// values (knownVariables), and through the library the same
		// output took its fallback again, with the rules' id, status
		// and filter tried in #args (#tryattr, which is given the
		// values whole, keeps that output's equality).
		args := make([]ast.Expr, 0, len(tested)+1)
		for _, i := range tested {
			args = append(args, xOrError(cl.args[i]))
		}
		return cl.lib("try", append(args, x)...)
	}
	pending := pendingOf(cl.kinds)
	k := tryKind(cl.kinds)
	for j := len(tested) - 1; j >= 0; j-- {
		a := cl.args[tested[j]]
		value := a
		var reads ast.Expr
		if unknown[j] {
			if cl.readsPending != nil {
				reads = cl.readsPending(cl.src[tested[j]])
			}
			if !k.isScalar() {
				value = wholly(cl, a, k)
			}
		}
		if r, i, ok := cl.countedInstance(cl.src[tested[j]]); ok && reads == nil {
			x = instanceOr(r, i, value, x)
			continue
		}
		x = firstOr(cl, a, value, x, pending, reads)
	}
	return x
}

// countedInstance is, where e reads one attribute of one instance of a
// resource or data source with count, R[i].name, the resource's
// instances R as CUE and the index i: R[i].name is an error exactly where
// R has no instance i (an attribute the provider's schema does not have
// is refused when the module is validated, before any try), which the
// length of R tells wherever the count is known while planning. Only in
// a root module: in a called module's template, len(R) made the CUE
// planner's dependency analysis find a cycle through the module's
// resources that the probe on R[i].name does not
// (terraform-aws-s3-bucket's examples/directory-bucket).
func (cl *call) countedInstance(e hclsyntax.Expression) (ast.Expr, int, bool) {
	c := cl.c
	t, ok := e.(*hclsyntax.ScopeTraversalExpr)
	if !ok || len(t.Traversal) < 4 {
		return nil, 0, false
	}
	tr := t.Traversal
	if _, bound := c.lookup(tr.RootName()); bound {
		return nil, 0, false
	}
	n := 2 // the resource's address: TYPE.NAME, or data.TYPE.NAME
	if tr.RootName() == "data" {
		n = 3
	}
	if len(tr) != n+2 {
		return nil, 0, false
	}
	key := make([]string, 0, n)
	for _, step := range tr[1:n] {
		at, ok := step.(hcl.TraverseAttr)
		if !ok {
			return nil, 0, false
		}
		key = append(key, at.Name)
	}
	r := c.m.ManagedResources[tr.RootName()+"."+key[0]]
	if n == 3 {
		r = c.m.DataResources[strings.Join(key, ".")]
	}
	ix, isIndex := tr[n].(hcl.TraverseIndex)
	_, isAttr := tr[n+1].(hcl.TraverseAttr)
	if c.a.called || r == nil || r.Count == nil || r.ForEach != nil || r.Enabled != nil || !isIndex || !isAttr ||
		ix.Key.IsNull() || !ix.Key.IsKnown() || ix.Key.Type() != cty.Number || !c.a.planning.knownIn(noNames{}, r.Count) {
		return nil, 0, false
	}
	i, acc := ix.Key.AsBigFloat().Int64()
	if acc != big.Exact || i < 0 {
		return nil, 0, false
	}
	rs, _ := cl.expr(&hclsyntax.ScopeTraversalExpr{Traversal: tr[:n], SrcRange: tr[:n].SourceRange()})
	return rs, int(i), true
}

// instanceOr is value, or b where r has no instance i (countedInstance):
//
//	[if len(r) > i {value}, b][0]
func instanceOr(r ast.Expr, i int, value, b ast.Expr) ast.Expr {
	has := binary(token.GTR, ast.NewCall(ident("len"), r), intLit(i))
	return index(list(&ast.Comprehension{Clauses: []ast.Clause{&ast.IfClause{Condition: has}}, Value: embed(value)}, b), intLit(0))
}

// tryAttr is try(a.name, b.name, ..., fallback) as the library's
// #tryattr, where every argument but the last reads the same attribute
// from a value that is there, whatever it holds (attrReads): a variable,
// a local value, each.value, a dynamic block's ITER.value or a for
// expression's variable (the wrappers' try(each.value.tags,
// var.defaults.tags, {})):
//
//	(tofu.#tryattr & {#args: [[v, _var_defaults], ["tags"], {}]}).out
//
// or a path of two or three attributes through it, try(var.a.b.c, d):
//
//	(tofu.#tryattr & {#args: [[_var_a], ["b", "c"], d]}).out
//
// The values are given whole, so that no argument is an error, which
// #try needs each argument held in (*a | 'error') for.
func (cl *call) tryAttr(reads []hcl.Traversal, path []string) ast.Expr {
	from := make([]ast.Expr, len(reads))
	for i, whole := range reads {
		from[i], _ = cl.expr(&hclsyntax.ScopeTraversalExpr{Traversal: whole, SrcRange: whole.SourceRange()})
	}
	names := list()
	for _, n := range path {
		names.Elts = append(names.Elts, stringLit(n))
	}
	return cl.lib("tryattr", list(from...), names, cl.args[len(cl.args)-1])
}

// maxTryPath is the longest path of attributes #tryattr reads.
const maxTryPath = 3

// attrReads are the values the arguments of a try call but the last read
// the same path of one to maxTryPath attribute names from, where each
// reads it from a value that is always there; nil where the call is not
// of that form.
func (cl *call) attrReads() (reads []hcl.Traversal, path []string) {
	for i, e := range cl.src[:len(cl.src)-1] {
		t, ok := e.(*hclsyntax.ScopeTraversalExpr)
		if !ok || len(t.Traversal) < 2 {
			return nil, nil
		}
		// The value read from: a name bound here, or var.X, local.X,
		// each.key, each.value, or a dynamic block's ITER.value.
		n := 2
		if b, bound := cl.c.lookup(t.Traversal.RootName()); bound && t.Traversal.RootName() != "each" && !b.iterator {
			n = 1
		}
		whole, rest := t.Traversal[:min(n, len(t.Traversal))], t.Traversal[min(n, len(t.Traversal)):]
		if len(rest) == 0 || len(rest) > maxTryPath || !cl.c.alwaysThere(whole) {
			return nil, nil
		}
		names := make([]string, len(rest))
		for j, step := range rest {
			name, ok := stepName(step)
			if !ok {
				return nil, nil
			}
			names[j] = name
		}
		if i > 0 && !slices.Equal(names, path) {
			return nil, nil
		}
		path = names
		reads = append(reads, whole)
	}
	return reads, path
}

// alwaysThere is whether t is a value that evaluates without an error
// wherever it may be read: a variable, a local value (one that fails
// fails the module), each.key or each.value, a dynamic block's ITER.key
// or ITER.value, or a name a for expression binds. Not an attribute of
// one, even one its object type has: the value may be null
// (var.zone_config of fabric's dns module is null by default, and
// try(var.zone_config.forwarding.x, null) reads forwarding of it), and
// an attribute of null is an error.
func (c *converter) alwaysThere(t hcl.Traversal) bool {
	switch root := t.RootName(); {
	case len(t) == 1:
		b, bound := c.lookup(root)
		return bound && !b.iterator && b.templateVars == ""
	case len(t) == 2:
		if b, bound := c.lookup(root); bound && root != "each" {
			// A dynamic block's iterator: its element's key and value.
			name, ok := stepName(t[1])
			return b.iterator && ok && (name == "key" || name == "value")
		}
		switch s := subjectOf(t, c.m).(type) {
		case refs.InputVariable:
			_, declared := c.m.Variables[s.Name]
			return declared
		case refs.LocalValue:
			_, declared := c.m.Locals[s.Name]
			return declared
		case refs.EachAttr:
			return s.Name == "key" || s.Name == "value"
		}
	}
	return false
}

// stepName is the name a step of a traversal reads: an attribute's, or a
// string index's (x["name"], which reads an object's attribute or a
// map's element as x.name does).
func stepName(step hcl.Traverser) (string, bool) {
	switch s := step.(type) {
	case hcl.TraverseAttr:
		return s.Name, true
	case hcl.TraverseIndex:
		if s.Key.IsKnown() && !s.Key.IsNull() && s.Key.Type() == cty.String {
			return s.Key.AsString(), true
		}
	}
	return "", false
}

// wholly is a value a where it is known in full, and where it holds a
// value not known yet, a value not known as a whole, of a's kind:
//
//	[if json.Marshal(a) == _|_ {a | {#unknown: true}}, a][0]
//
// OpenTofu's try is wholly unknown where its argument reads a value not
// known yet: try(aws_instance.web[0], null) while the instance's id is
// not known, and so is every attribute read from it, its ami too; in CUE
// the struct would be known but for its id. A disjunction of a and a
// struct marked cueform.Unknown, neither by default, is a value (a try
// around it takes it, a reference to it waits) of which nothing is
// known: an attribute, its length or a comparison is not known either,
// and the engine decodes it as not known. For a list the other
// alternative is the empty list, marked. A scalar not known yet is
// already not known: the try of a scalar kind needs none of this, and
// where the analysis does not know the kind, only a list or struct is
// marked.
func wholly(cl *call, a ast.Expr, k kind) ast.Expr {
	other := []ast.Decl{&ast.Field{Label: ast.NewIdent(cueform.Unknown), Value: ast.NewBool(true)}}
	if k == kindList {
		other = append(other, &ast.EmbedDecl{Expr: ast.NewList()})
	}
	notKnown := binary(token.OR, a, &ast.StructLit{Elts: other})
	clauses := []ast.Clause{&ast.IfClause{Condition: binary(token.EQL, cl.std("json", "Marshal", a), &ast.BottomLit{})}}
	if k == kindUnknown {
		// Only a list or a struct: a scalar not known yet is already
		// not known, and of its own type.
		collection := paren(binary(token.OR, list(&ast.Ellipsis{}), &ast.StructLit{Elts: []ast.Decl{&ast.Ellipsis{}}}))
		clauses = append(clauses, &ast.IfClause{Condition: binary(token.NEQ, list(binary(token.AND, orError(a), collection)), &ast.BottomLit{})})
	}
	return index(list(
		&ast.Comprehension{Clauses: clauses, Value: embed(notKnown)},
		a,
	), intLit(0))
}

// tryKind is the kind of a try's result: its arguments' kinds joined,
// those the analysis does not know left out.
func tryKind(kinds []kind) kind {
	k := kinds[len(kinds)-1]
	for _, other := range kinds {
		if other != kindUnknown {
			k = join(k, other)
		}
	}
	return k
}

// outputTry is x, the conversion of try(a, b) that is a root module
// output's value, as CUE's default, *a | b, where b is a literal
// (plainFallback, or null) and x tests a alone: x the library's #try of
// a known a, its #tryattr of one value (a is v.x or v.x.y), or the test in place of one that may not be known yet,
// [if [(*a | 'error') & tofu.#value] != _|_ {a}, b][0]. The two mean the
// same: CUE drops a's arm exactly where the test takes a for an error,
// and a value not known yet (a type) is a's default and not known. Only
// for an output of the root module, which nothing in the module reads:
// elsewhere a null arm would be seen by a module argument's conversion,
// which tests its value by unifying it with null (see plainFallback).
// A try that also asks whether a's references are pending ([if ... {a},
// if R {T}, b][0]) is left as it is: there b is not what a's error gives.
func outputTry(x ast.Expr) ast.Expr {
	if args, ok := libArgs(x, "tryattr"); ok && len(args.Elts) == 3 {
		// #tryattr of one value: its path read in place, v.x.y.
		from, ok := args.Elts[0].(*ast.ListLit)
		path, isList := args.Elts[1].(*ast.ListLit)
		if !ok || !isList || len(from.Elts) != 1 || !outputFallback(args.Elts[2]) {
			return x
		}
		a := from.Elts[0]
		for _, n := range path.Elts {
			lit, ok := n.(*ast.BasicLit)
			if !ok {
				return x
			}
			name, err := literal.Unquote(lit.Value)
			if err != nil {
				return x
			}
			a = selector(a, name)
		}
		return defaulted(a, args.Elts[2])
	}
	if args, ok := libArgs(x, "try"); ok && len(args.Elts) == 2 {
		tested, ok := args.Elts[0].(*ast.BinaryExpr)
		if !ok || tested.Op != token.OR || !outputFallback(args.Elts[1]) {
			return x
		}
		if a, ok := tested.X.(*ast.UnaryExpr); ok && a.Op == token.MUL && isErrorSentinel(tested.Y) {
			return defaulted(a.X, args.Elts[1])
		}
		return x
	}
	ix, ok := x.(*ast.IndexExpr)
	if !ok {
		return x
	}
	l, ok := ix.X.(*ast.ListLit)
	if !ok || len(l.Elts) != 2 || !outputFallback(l.Elts[1]) {
		return x
	}
	comp, ok := l.Elts[0].(*ast.Comprehension)
	if !ok {
		return x
	}
	value, ok := embeddedValue(comp.Value)
	if !ok || len(comp.Clauses) != 1 {
		return x
	}
	// The value must be the one tested: one made wholly unknown
	// ([if json.Marshal(a) == _|_ {a | {#unknown: true}}, a][0]) is not
	// an error where a is.
	if cond, ok := comp.Clauses[0].(*ast.IfClause); !ok || !sameSyntax(valueTested(cond.Condition), value) {
		return x
	}
	return defaulted(value, l.Elts[1])
}

// outputFallback is whether b may be the other arm of an output's
// *a | b: a literal without a default of its own, or null.
func outputFallback(b ast.Expr) bool {
	if _, ok := b.(*ast.Comprehension); ok {
		return false
	}
	return isNullLit(b) || plainFallback(b)
}

// valueTested is a where x is valueTest's [(*a | 'error') & tofu.#value]
// != _|_; nil otherwise.
func valueTested(x ast.Expr) ast.Expr {
	b, ok := x.(*ast.BinaryExpr)
	if !ok || b.Op != token.NEQ || !isBottom(b.Y) {
		return nil
	}
	l, ok := b.X.(*ast.ListLit)
	if !ok || len(l.Elts) != 1 {
		return nil
	}
	and, ok := l.Elts[0].(*ast.BinaryExpr)
	if !ok || and.Op != token.AND {
		return nil
	}
	if sel, ok := and.Y.(*ast.SelectorExpr); !ok || identName(sel.Sel) != "#value" {
		return nil
	}
	p, ok := and.X.(*ast.ParenExpr)
	if !ok {
		return nil
	}
	or, ok := p.X.(*ast.BinaryExpr)
	if !ok || or.Op != token.OR || !isErrorSentinel(or.Y) {
		return nil
	}
	if a, ok := or.X.(*ast.UnaryExpr); ok && a.Op == token.MUL {
		return a.X
	}
	return nil
}

// isErrorSentinel is whether x is 'error' (errorSentinel).
func isErrorSentinel(x ast.Expr) bool {
	lit, ok := x.(*ast.BasicLit)
	return ok && lit.Kind == token.STRING && lit.Value == "'error'"
}

// embeddedValue is the value a comprehension's {x} embeds; false where
// it holds anything else, or a comment.
func embeddedValue(v ast.Expr) (ast.Expr, bool) {
	s, ok := v.(*ast.StructLit)
	if !ok || len(s.Elts) != 1 {
		return nil, false
	}
	e, ok := s.Elts[0].(*ast.EmbedDecl)
	if !ok || len(ast.Comments(e)) > 0 {
		return nil, false
	}
	return e.Expr, true
}

// maxTry is the most arguments the library's #try takes, the last one
// among them.
const maxTry = 6

// plainFallback is whether try(a, b), a known while planning, may be
// written as CUE's default, *a | b: b is a literal without a default of
// its own, which a disjunction whose default fails would drop (a
// variable's *"x" | string), and holds no null. CUE takes a where it
// evaluates, and b where a is an error, as try does; a value not known
// yet would be dropped as an error, but a is never one. A null is never
// taken: in a resource's argument the null is null by default (see
// nullByDefault), and elsewhere *"s" | null is a value that may be null
// wherever a module's argument is given it: the argument's conversion
// tests it by unifying with null, and the null arm left the conversion
// undecided (terraform-aws-iam's iam-group example, where iam-user's
// output name is try(aws_iam_user.this[0].name, null); golden verify
// module_known_arguments and try_null_argument).
func plainFallback(b ast.Expr) bool {
	switch b := b.(type) {
	case *ast.BasicLit:
		return b.Kind != token.NULL
	case *ast.UnaryExpr:
		_, lit := b.X.(*ast.BasicLit)
		return lit && b.Op == token.SUB
	case *ast.ListLit:
		for _, el := range b.Elts {
			if !plainFallback(el) {
				return false
			}
		}
		return true
	case *ast.StructLit:
		for _, d := range b.Elts {
			f, ok := d.(*ast.Field)
			if !ok || f.Constraint != token.ILLEGAL || !plainFallback(f.Value) {
				return false
			}
			if _, computed := f.Label.(*ast.ParenExpr); computed {
				return false
			}
		}
		return true
	}
	return false
}

// pendingOf is the value of a try not known yet (see convTry): the type
// of the scalar kind that the last argument has and no other argument
// contradicts (try(r[0].arn, "")), string, number or bool; a list not
// known yet; _ for a map or object and where the kind is not known.
func pendingOf(kinds []kind) ast.Expr {
	switch tryKind(kinds) {
	case kindString:
		return ident("string")
	case kindInt, kindNumber:
		return ident("number")
	case kindBool:
		return ident("bool")
	case kindList:
		// A list not known yet, as the engine gives one the provider
		// decides: one of two, neither by default, so that its length
		// and what is computed from it wait (an open list would be an
		// empty one).
		some := &ast.ListLit{Elts: []ast.Expr{ident("_"), &ast.Ellipsis{Type: ident("_")}}}
		return binary(token.OR, ast.NewList(), some)
	}
	// Of a map or object, or of a kind the analysis does not know
	// (try(r[0].block[0].data, null)): a value of which nothing is known,
	// which a read from waits for and the engine decodes as not known, as
	// OpenTofu's try of a value not known yet is of no type.
	return ident("_")
}

// firstOr is a, or b where a is an error:
//
//	[if [(*a | 'error') & tofu.#value] != _|_ {a}, b][0]
//
// The test, V, is true where a is a value, known or not (a type such as
// string, a list the provider decides, [] | [string, ...string], a
// struct holding such values): the disjunction keeps it and drops an
// error, and the bytes 'error' are no OpenTofu value. So an argument not
// known yet is the try's value, not known either, as in OpenTofu. (A
// comparison, (*a | 'error') != 'error', is not known while a struct
// holds a value not known yet, and left the try an error.) b, the list's
// last element, is evaluated only where it is taken.
//
// A value not known yet inside a is not always a value itself: where a
// computes with one (coalesce's test of a string not known yet, a for
// over a list not known yet), CUE's result is an incomplete error, which
// the disjunction drops as it drops an error. OpenTofu's try is not known
// where the argument reads a value not known yet, whether it fails or
// not; reads, where it is not nil, is true while a reference a reads is
// one (readsPending), and the result is then pending, the try's type
// (pendingOf) where a is an error:
//
//	[if V {a}, if R {string}, b][0]
//
// (terraform-aws-ec2-instance's try(coalesce(var.security_group_name,
// var.name), "") in a module called with a name not known yet; eks's
// try(flatten(aws_eks_node_group.this[0].resources[*]...), [])).
//
// value is what the try gives where a is a value: a, or a marked as not
// known as a whole while it is not known in full (see wholly).
//
// A list or object a builds with brackets or braces is tested element by
// element too: an element that is an incomplete error (an attribute an
// object does not have, next to one not known yet) does not make the
// list one in CUE, where it makes the try's argument fail in OpenTofu
// (terraform-aws-vpc's vpc-endpoints: try([each.value.dns_options], [])).
func firstOr(cl *call, a, value, b, pending, reads ast.Expr) ast.Expr {
	clauses := []ast.Clause{&ast.IfClause{Condition: cl.c.valueTest(a, token.NEQ)}}
	for _, e := range builtElements(a) {
		clauses = append(clauses, &ast.IfClause{Condition: cl.c.valueTest(e, token.NEQ)})
	}
	elts := []ast.Expr{&ast.Comprehension{Clauses: clauses, Value: embed(value)}}
	if reads != nil {
		elts = append(elts, &ast.Comprehension{Clauses: []ast.Clause{&ast.IfClause{Condition: reads}}, Value: embed(pending)})
	}
	return index(list(append(elts, b)...), intLit(0))
}

// builtElements is the elements of a list or struct literal x, those
// that are expressions of their own (not comprehensions).
func builtElements(x ast.Expr) []ast.Expr {
	var out []ast.Expr
	switch x := x.(type) {
	case *ast.ListLit:
		for _, e := range x.Elts {
			switch e.(type) {
			case *ast.Comprehension, *ast.Ellipsis:
			default:
				out = append(out, e)
			}
		}
	case *ast.StructLit:
		for _, d := range x.Elts {
			if f, ok := d.(*ast.Field); ok {
				out = append(out, f.Value)
			}
		}
	}
	return out
}

// readsPending is the condition that one of the references e reads is a
// value not known yet (a type, string; a list the provider decides,
// [] | [string, ...string]), or nil where e reads none that may be
// unknown. Where e is a reference itself, what a try tests as it is (see
// firstOr), the condition is that the value it reads from is not known as
// a whole (parentPending). Otherwise:
//
//	x == _|_ && [(*x | 'error') & tofu.#scalar] != _|_ || len(l) == _|_ && [(*l | 'error') & ([...] | {...})] != _|_ || ...
//
// x == _|_ holds for a type and for an error, and the probe keeps the
// type and makes an error of an error, null, a list or a struct (see
// unknownGuard, which asks instead that every reference be a scalar). A
// list known to be one (l) is tested by its length, which is not known
// while the list is one of two, and its probe keeps a list; a reference
// of a kind the analysis does not know is tested both ways, each with its
// own probe. References that are known while planning (count.index,
// each.key, a root module's variables) are not tested.
func (c *converter) readsPending(e hclsyntax.Expression) ast.Expr {
	if c.guarded[e] || !c.mayBeUnknown(e) {
		return nil
	}
	if t, ref := e.(*hclsyntax.ScopeTraversalExpr); ref {
		return c.parentPending(t.Traversal)
	}
	var cond ast.Expr
	read, kinds, _ := c.readRefs(e, c.pendingRef)
	for i, r := range read {
		if typeRead(r) {
			continue // a call of timestamp or uuid: a is not known yet itself
		}
		var one ast.Expr
		switch kinds[i] {
		case kindMap:
			continue
		case kindList:
			one = collectionPending(r)
		case kindUnknown:
			// Either, each with its own probe: len of a known number or
			// bool is an error too.
			one = binary(token.LOR, probed(r, isType(r), c.libDef("scalar")), collectionPending(r))
		default:
			one = probed(r, isType(r), c.libDef("scalar"))
		}
		cond = or(cond, one)
	}
	// And the values they read from that may not be known as a whole.
	seen := map[string]bool{}
	for _, t := range hclsyntax.Variables(e) {
		text := traversalText(t)
		if seen[text] || !c.a.traversalMayBeUnknown(c, t) {
			continue
		}
		seen[text] = true
		if p := c.parentPending(t); p != nil {
			cond = or(cond, p)
		}
	}
	return cond
}

// or is x || y, or y where x is nil.
func or(x, y ast.Expr) ast.Expr {
	if x == nil {
		return y
	}
	return binary(token.LOR, x, y)
}

// parentPending is readsPending of a reference t that reads an attribute
// or element of a value that may not be known as a whole: of a local value
// that is a try's result (see wholly: local.config.cidr, where local.config
// is try(aws_eks_cluster.this[0].kubernetes_network_config[0], {})), or of
// a resource's or data source's attribute, which may be a nested block the
// provider decides (aws_eks_cluster.this[0].identity[0].oidc[0].issuer
// reads identity and identity[0].oidc). A read from such a value is an
// incomplete error in CUE, where OpenTofu's is not known: the condition
// is that one of those values is a list or object not known yet. nil for
// any other reference, which the try's value test sees as it is.
func (c *converter) parentPending(t hcl.Traversal) ast.Expr {
	var cond ast.Expr
	for _, p := range c.wholeValues(t) {
		diags, reasons := len(c.diags), len(c.reasons)
		x, _ := c.expr(&hclsyntax.ScopeTraversalExpr{Traversal: p, SrcRange: p.SourceRange()})
		c.diags, c.reasons = c.diags[:diags], c.reasons[:reasons]
		cond = or(cond, collectionPending(x))
	}
	return cond
}

// wholeValues are the values t reads from, before its last step, that may
// be lists or objects not known as a whole while planning: a local value
// whose expression is a call of try (local.x); the attributes of a
// resource or data source instance that t reads further (aws_instance.
// web[0] is 3 steps, data.aws_region.current 3; then each prefix that ends
// with an attribute).
func (c *converter) wholeValues(t hcl.Traversal) []hcl.Traversal {
	if len(t) < 2 {
		return nil
	}
	root := t.RootName()
	if _, bound := c.facts(root); bound {
		return nil
	}
	ref, _ := refs.Parse(t, c.m)
	if ref == nil {
		return nil
	}
	if _, local := ref.Subject.(refs.LocalValue); local {
		if len(t) < 3 || !c.localIsTry(t[1]) {
			return nil
		}
		return []hcl.Traversal{t[:2]}
	}
	_, n, ok := resourceNamed(ref)
	if !ok {
		return nil // var, each, count, self, path, terraform, module
	}
	if len(t) > n {
		if _, index := t[n].(hcl.TraverseIndex); index {
			n++
		}
	}
	var out []hcl.Traversal
	for i := n + 1; i < len(t); i++ {
		if _, attr := t[i-1].(hcl.TraverseAttr); attr {
			out = append(out, t[:i])
		}
	}
	return out
}

// localIsTry is whether step names a local value whose expression is a
// call of try.
func (c *converter) localIsTry(step hcl.Traverser) bool {
	at, ok := step.(hcl.TraverseAttr)
	if !ok {
		return false
	}
	l := c.m.Locals[at.Name]
	if l == nil {
		return false
	}
	_, ok = tryCall(l.Expr)
	return ok
}

// tryCall is e, parentheses aside, where it is a call of try.
func tryCall(e hcl.Expression) (*hclsyntax.FunctionCallExpr, bool) {
	call, ok := config.UnwrapParens(e).(*hclsyntax.FunctionCallExpr)
	return call, ok && strings.TrimPrefix(call.Name, "core::") == "try"
}

// isType is x == _|_, which holds for a type (a value not known yet) and
// for an error.
func isType(x ast.Expr) ast.Expr { return binary(token.EQL, x, &ast.BottomLit{}) }

// typeRead is whether r, one of readRefs' reads, is a type itself: the
// conversion of a call whose result is not known until apply (timestamp()
// is string).
func typeRead(r ast.Expr) bool {
	id, ok := r.(*ast.Ident)
	return ok && (id.Name == "string" || id.Name == "number" || id.Name == "bool")
}

// probed is test && [(*x | 'error') & probe] != _|_: the probe keeps what
// x may be and makes an error of an error and of anything else.
func probed(x, test, probe ast.Expr) ast.Expr {
	return binary(token.LAND, test, binary(token.NEQ, list(binary(token.AND, orError(x), probe)), &ast.BottomLit{}))
}

// collectionPending is len(l) == _|_ && [(*l | 'error') & ([...] | {...})]
// != _|_: l is a list or struct not known yet, whose length is not known
// while it is one of two. The probe is a disjunction: CUE v0.17.1 keeps an
// incomplete error (an attribute an open struct does not have) unified
// with [...] alone, and drops it with a disjunction.
func collectionPending(l ast.Expr) ast.Expr {
	collection := paren(binary(token.OR, list(&ast.Ellipsis{}), &ast.StructLit{Elts: []ast.Decl{&ast.Ellipsis{}}}))
	return probed(l, binary(token.EQL, ast.NewCall(ident("len"), l), &ast.BottomLit{}), collection)
}

// evaluates is (*x | 'error') != 'error' (op NEQ), or its negation with
// op EQL: whether x evaluates without an error. No OpenTofu value is CUE
// bytes, so the default 'error' is taken exactly where x is an error (a
// struct or list with an error inside is one too); while x is not known
// yet the comparison is not either, and neither is the result, as in
// OpenTofu, where CUE's x != _|_ would take it for an error.
func evaluates(x ast.Expr, op token.Token) ast.Expr {
	return binary(op, orError(x), errorSentinel())
}

// orError is (*x | 'error'): x, or the bytes 'error' where x is an error.
func orError(x ast.Expr) ast.Expr { return &ast.ParenExpr{X: xOrError(x)} }

// xOrError is orError without its parentheses, for a list's element.
func xOrError(x ast.Expr) ast.Expr {
	return &ast.BinaryExpr{X: &ast.UnaryExpr{Op: token.MUL, X: paren(x)}, Op: token.OR, Y: errorSentinel()}
}

// errorSentinel is 'error', which no OpenTofu value is.
func errorSentinel() ast.Expr { return &ast.BasicLit{Kind: token.STRING, Value: "'error'"} }

// canMatch converts can(regex(p, s)): regex's result takes a form that
// depends on the pattern's groups (and a group that may take no part in a
// match has no CUE form), but can asks only whether it evaluates, which
// it does when p matches s:
//
//	[if s == null {false}, regexp.Match(p, s)][0]
//
// false for a null s, as can is there, and not known while s is not, as
// in OpenTofu. A pattern not known when converting (a for over a list of
// patterns) may also not be valid, which can takes for false: it is
// tried on "" first, so that the test does not wait for s,
//
//	[if (*regexp.Match(p, "") | 'error') == 'error' {false}, if s == null {false}, regexp.Match(p, s)][0]
//
// A literal pattern that is not valid takes the general way, which
// reports it.
func (c *converter) canMatch(name string, e *hclsyntax.FunctionCallExpr) (ast.Expr, bool) {
	if name != "can" || len(e.Args) != 1 || e.ExpandFinal {
		return nil, false
	}
	re, ok := e.Args[0].(*hclsyntax.FunctionCallExpr)
	if !ok || strings.TrimPrefix(re.Name, "core::") != "regex" || len(re.Args) != 2 || re.ExpandFinal {
		return nil, false
	}
	cl := &call{c: c, name: "regex", src: re.Args, rng: re.Range()}
	lit, known := cl.constString(0)
	if known {
		if _, err := regexp.Compile(lit); err != nil {
			return nil, false
		}
	}
	for _, a := range re.Args {
		x, k := c.expr(a)
		cl.args = append(cl.args, x)
		cl.kinds = append(cl.kinds, k)
	}
	pat, str := cl.strArg(0), cl.strArg(1)
	if known {
		pat = stringLit(lit)
	}
	falseIf := func(cond ast.Expr) ast.Expr {
		return &ast.Comprehension{Clauses: []ast.Clause{&ast.IfClause{Condition: cond}}, Value: asStruct(ident("false"))}
	}
	var elems []ast.Expr
	if !known {
		elems = append(elems, falseIf(evaluates(cl.std("regexp", "Match", pat, stringLit("")), token.EQL)))
	}
	elems = append(elems, falseIf(&ast.BinaryExpr{X: str, Op: token.EQL, Y: ident("null")}), cl.std("regexp", "Match", pat, str))
	return index(list(elems...), intLit(0)), true
}

// disjointMerge writes merge(a, b, ...) as a person writes it, the struct
// that embeds each argument, where each is an object constructor or a
// local value set to one (never null, its keys known when converting) and
// no key is in two of them: OpenTofu's merge then has every attribute of
// every argument, as CUE's struct of them does,
//
//	{_local_tags, Name: x}
//
// An object constructor's fields go in as they are; the struct holds one
// field at least (see liftFields).
func disjointMerge(cl *call) (ast.Expr, bool) {
	if cl.expand || len(cl.args) == 0 {
		return nil, false
	}
	seen := map[string]bool{}
	out := &ast.StructLit{}
	fields := false
	for i, src := range cl.src {
		keys, ok := cl.c.objectKeys(src, map[string]bool{})
		if !ok {
			return nil, false
		}
		for _, k := range keys {
			if seen[k] {
				return nil, false
			}
			seen[k] = true
		}
		if lit, isObject := cl.args[i].(*ast.StructLit); isObject {
			if _, cons := config.UnwrapParens(src).(*hclsyntax.ObjectConsExpr); cons {
				out.Elts = append(out.Elts, lit.Elts...)
				fields = fields || len(keys) > 0
				continue
			}
		}
		out.Elts = append(out.Elts, &ast.EmbedDecl{Expr: cl.args[i]})
	}
	return out, fields
}

// objectKeys are the keys of e where e is an object constructor whose keys
// are all constant and distinct, or a local value set to one: never null,
// its keys known when converting.
func (c *converter) objectKeys(e hclsyntax.Expression, locals map[string]bool) ([]string, bool) {
	switch e := config.UnwrapParens(e).(type) {
	case *hclsyntax.ObjectConsExpr:
		var keys []string
		seen := map[string]bool{}
		for _, item := range e.Items {
			k, ok := objectKeyName(item.KeyExpr)
			if !ok || seen[k] {
				return nil, false
			}
			seen[k] = true
			keys = append(keys, k)
		}
		return keys, true
	case *hclsyntax.ScopeTraversalExpr:
		name, ok := localName(e.Traversal)
		if !ok || locals[name] || c.m.Locals[name] == nil {
			return nil, false
		}
		x, ok := c.m.Locals[name].Expr.(hclsyntax.Expression)
		if !ok {
			return nil, false
		}
		locals[name] = true
		return c.objectKeys(x, locals)
	}
	return nil, false
}
