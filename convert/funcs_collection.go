package convert

import (
	"strconv"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/token"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/refs"
)

// collectionFuncs are OpenTofu's functions on lists, sets and maps. A set
// is a CUE list in the order OpenTofu iterates it: strings in lexical
// order, numbers ascending, false before true.
var collectionFuncs = map[string]function{
	"alltrue": {how: byLibrary, note: "`tofu.#alltrue`: every element true (or \"true\"); an empty list is true", conv: libCall("alltrue", 1, 1)},
	"anytrue": {how: byLibrary, note: "`tofu.#anytrue`: some element true (or \"true\")", conv: libCall("anytrue", 1, 1)},
	"chunklist": {how: byLibrary, note: "`tofu.#chunklist`: lists of at most size elements; size 0 is the whole list as one chunk",
		conv: libCall("chunklist", 2, 2)},
	"coalescelist": {how: byLibrary, note: "`tofu.#coalescelist`: the first argument that is neither null nor empty", conv: func(cl *call) ast.Expr {
		if len(cl.args) == 0 {
			return cl.fail("coalescelist takes at least one argument.")
		}
		return cl.c.libList("coalescelist", cl.argList())
	}},
	"compact":  {how: byLibrary, note: "`tofu.#compact`: the elements that are neither null nor \"\", as strings; of a list known to hold strings, `[for x in l if x != null if x != \"\" {x}]`", conv: convCompact},
	"contains": {how: byLibrary, note: "`tofu.#contains`: compares numbers by value (1 equals 1.0); an element not known yet leaves the answer not known unless another equals the value, where `list.Contains` says false", conv: libCall("contains", 2, 2)},
	"distinct": {how: byLibrary, note: "`tofu.#distinct`: each element where it first occurs; not known while an element is not known, as in OpenTofu (`tofu.#distinctstrings` for a list known to hold strings)", conv: convDistinct},
	"element":  {how: byLibrary, note: "`tofu.#element`: `l[mod(i, len(l))]`, so the index wraps around and a negative one counts from the end", conv: libCall("element", 2, 2)},
	"flatten":  {how: byLibrary, note: "`tofu.#flatten`: `list.FlattenN(l, -1)`, not known while an element is a list not known yet (a computed list before apply), as in OpenTofu, where FlattenN keeps it as one element", conv: libCall("flatten", 1, 1)},
	"index":    {how: byLibrary, note: "`tofu.#index`: the index of the first equal element; none is an error", conv: libCall("index", 2, 2)},
	"keys":     {how: byStdlib, note: "`list.SortStrings([for k, _ in m {k}])`: keys in lexical order", conv: convKeys},
	"values":   {how: byLibrary, note: "`tofu.#values`: the values in the lexical order of their keys", conv: libCall("values", 1, 1)},
	"matchkeys": {how: byLibrary, note: "`tofu.#matchkeys`: the values whose key at the same index is in the search list",
		conv: libCall("matchkeys", 3, 3)},
	"one":     {how: byLibrary, note: "`tofu.#one`: the only element, null for an empty list, an error for more", conv: libCall("one", 1, 1)},
	"range":   {how: byLibrary, note: "`tofu.#range`: `list.Range` with OpenTofu's default step (-1 when counting down) and its limit of 1024 elements", conv: convRange},
	"reverse": {how: byStdlib, note: "`list.Reverse(l)`", conv: stdCall("list", "Reverse", 1)},
	"setintersection": {how: byLibrary, note: "`tofu.#setintersection`: a set in OpenTofu's order (see toset)", conv: func(cl *call) ast.Expr {
		if len(cl.args) == 0 {
			return cl.fail("setintersection takes at least one argument.")
		}
		return cl.c.libList("setintersection", cl.argList())
	}},
	"setunion": {how: byLibrary, note: "`tofu.#setunion`: a set in OpenTofu's order (see toset)", conv: func(cl *call) ast.Expr {
		if len(cl.args) == 0 {
			return cl.fail("setunion takes at least one argument.")
		}
		return cl.c.libList("setunion", cl.argList())
	}},
	"setsubtract": {how: byLibrary, note: "`tofu.#setsubtract`: a set in OpenTofu's order (see toset)", conv: libCall("setsubtract", 2, 2)},
	"setproduct":  {how: byExpr, note: "a list comprehension over lists; where an argument may be a set, the comprehension made a set of tuples in OpenTofu's order, where the analysis knows every argument's element type (not converted otherwise)", conv: convSetProduct},
	"slice": {how: byStdlib, note: "`list.Slice(l, start, end)`", conv: func(cl *call) ast.Expr {
		if !cl.arity(3, 3) {
			return cl.fail("slice takes three arguments.")
		}
		return cl.std("list", "Slice", cl.args[0], cl.intArg(1), cl.intArg(2))
	}},
	"sort": {how: byStdlib, note: "`list.SortStrings(l)` for strings; `tofu.#sort` turns numbers into strings first, as OpenTofu does", conv: func(cl *call) ast.Expr {
		if !cl.arity(1, 1) {
			return cl.fail("sort takes one argument.")
		}
		if cl.c.stringList(cl.src[0]) {
			return cl.std("list", "SortStrings", cl.args[0])
		}
		return cl.lib("sort", cl.args[0])
	}},
	"sum":       {how: byLibrary, note: "`tofu.#sum`: `list.Sum`, an error for an empty list", conv: libCall("sum", 1, 1)},
	"transpose": {how: byLibrary, note: "`tofu.#transpose`: each string a key whose list holds, sorted, the keys it appeared under", conv: libCall("transpose", 1, 1)},
	"zipmap":    {how: byLibrary, note: "`tofu.#zipmap`: keys to the values at the same index; a later repeat of a key wins", conv: libCall("zipmap", 2, 2)},
}

// libCall converts a call of a function with least to most arguments to the
// tofu library's definition name; an expanded last argument is spliced
// into the argument list.
func libCall(name string, least, most int) func(*call) ast.Expr {
	return func(cl *call) ast.Expr {
		n := len(cl.args)
		if cl.expand && n >= 1 && n <= most {
			return cl.c.libList(name, cl.argList())
		}
		if !cl.arity(least, most) {
			return cl.fail(arityDetail(cl.name, least, most))
		}
		return cl.lib(name, cl.args...)
	}
}

// stdCall converts a call of a function with n arguments to the CUE
// standard library's pkg.fn.
func stdCall(pkg, fn string, n int) func(*call) ast.Expr {
	return func(cl *call) ast.Expr {
		if !cl.arity(n, n) {
			return cl.fail(arityDetail(cl.name, n, n))
		}
		return cl.std(pkg, fn, cl.args...)
	}
}

// intArg is argument i as a CUE int: as it is when it is known to be one,
// else through tofu.#toint, which takes a whole float and refuses a
// fraction, as OpenTofu does.
func (cl *call) intArg(i int) ast.Expr {
	if cl.kinds[i] == kindInt {
		return cl.args[i]
	}
	return cl.lib("toint", cl.args[i])
}

// strArg is argument i as a string, converted as OpenTofu converts a
// number or bool where it needs a string.
func (cl *call) strArg(i int) ast.Expr {
	switch cl.kinds[i] {
	case kindString:
		return cl.args[i]
	case kindInt, kindBool:
		return interpolation([]any{cl.args[i]})
	}
	return cl.c.tostring(cl.args[i])
}

// tostring is x, of a kind not known, as a string, as tofu.#tostring
// converts it:
//
//	(tofu.#tostring & {#args: [x]}).out
//
// In a called module's template, where x is a reference, a known string
// is told by a builtin first and interpolated:
//
//	[if strings.MinRunes(x, 0) != _|_ {"\(x)"}, if strings.MinRunes(x, 0) == _|_ {(tofu.#tostring & {#args: [x]}).out}][0]
//
// The library's instance unifies its argument with #args, which evaluates
// x's expression again, and its kind tests unify x again: where x is a
// value a chain of module calls passes on (null-label's context), each
// call would pay for the whole chain. A builtin's argument and an
// interpolation take x's value, and the clause of a false if is not
// evaluated. MinRunes takes only a string: a value not known yet
// (string), null, a number or a bool goes to the library, as before; a
// default is taken (*"a" | string is "a", *null | string null). A root
// module's conversion is evaluated once, where it is written: it keeps
// the library's call alone, which reads as the HCL does.
func (c *converter) tostring(x ast.Expr) ast.Expr {
	if !plainRef(x) || !c.a.called {
		return c.lib("tostring", x)
	}
	isString := func(op token.Token) ast.Expr {
		return binary(op, c.std("strings", "MinRunes", x, intLit(0)), &ast.BottomLit{})
	}
	return index(list(
		&ast.Comprehension{Clauses: []ast.Clause{&ast.IfClause{Condition: isString(token.NEQ)}}, Value: asStruct(interpolation([]any{x}))},
		&ast.Comprehension{Clauses: []ast.Clause{&ast.IfClause{Condition: isString(token.EQL)}}, Value: asStruct(c.lib("tostring", x))},
	), intLit(0))
}

// plainRef reports whether x is a reference, a name followed by
// selectors and constant indexes: an expression cheap to write twice.
func plainRef(x ast.Expr) bool {
	switch x := x.(type) {
	case *ast.Ident:
		return true
	case *ast.SelectorExpr:
		return plainRef(x.X)
	case *ast.IndexExpr:
		switch x.Index.(type) {
		case *ast.BasicLit, *ast.Ident:
			return plainRef(x.X)
		}
	}
	return false
}

// constString is argument i when it is a constant string: a literal, or
// an expression known when converting (local values built from constants,
// see (*converter).constString).
func (cl *call) constString(i int) (string, bool) {
	v, ok := constValue(cl.src[i])
	if !ok {
		s, _, known := cl.c.constString(cl.src[i])
		return s, known
	}
	if v.Type() != cty.String {
		return "", false
	}
	return v.AsString(), true
}

// constValue is the value of an expression that refers to nothing.
func constValue(e hclsyntax.Expression) (cty.Value, bool) {
	if len(e.Variables()) > 0 {
		return cty.NilVal, false
	}
	v, diags := e.Value(nil)
	if diags.HasErrors() || !v.IsWhollyKnown() || v.IsNull() {
		return cty.NilVal, false
	}
	return v, true
}

// stringList reports whether an expression is known to be a list or set
// of strings: a tuple of strings, a variable of such a type, a local
// value or for expression that is one, or the result of a function that
// gives one.
func (a *analysis) stringList(in names, e hcl.Expression, depth int) bool {
	if depth > 8 {
		return false
	}
	switch e := e.(type) {
	case *hclsyntax.ParenthesesExpr:
		return a.stringList(in, e.Expression, depth+1)
	case *hclsyntax.TupleConsExpr:
		for _, x := range e.Exprs {
			if a.kindOf(in, x) != kindString {
				return false
			}
		}
		return true
	case *hclsyntax.ForExpr:
		return e.KeyExpr == nil && a.kindOf(in, e.ValExpr) == kindString
	case *hclsyntax.FunctionCallExpr:
		switch e.Name {
		case "split", "keys", "formatlist", "compact", "sort", "tostrings":
			return true
		case "distinct", "reverse", "toset", "tolist", "slice", "concat", "setunion", "setintersection", "setsubtract", "flatten":
			for _, arg := range e.Args {
				if !a.stringList(in, arg, depth+1) {
					return false
				}
			}
			return len(e.Args) > 0
		}
	case *hclsyntax.ScopeTraversalExpr:
		if len(e.Traversal) != 2 {
			return false
		}
		switch s := subjectOf(e.Traversal, a.m).(type) {
		case refs.InputVariable:
			if v := a.m.Variables[s.Name]; v != nil {
				return isStringsType(v.Type)
			}
		case refs.LocalValue:
			if l := a.m.Locals[s.Name]; l != nil {
				return a.stringList(noNames{}, l.Expr, depth+1)
			}
		}
	}
	return false
}

// isStringsType reports whether t is a list, set or tuple of strings.
func isStringsType(t cty.Type) bool {
	switch {
	case t.IsListType() || t.IsSetType():
		return t.ElementType() == cty.String
	case t.IsTupleType():
		for _, et := range t.TupleElementTypes() {
			if et != cty.String {
				return false
			}
		}
		return true
	}
	return false
}

// convCompact writes compact(l). Of a list known to hold strings it is
// the library's comprehension without the conversion of each element to
// a string, whose kind test evaluates the element again: in a chain of
// module calls that each compact the list the one before gave on, that
// is more work at each call.
func convCompact(cl *call) ast.Expr {
	if cl.expand || !cl.arity(1, 1) || !cl.c.stringList(cl.src[0]) {
		return libCall("compact", 1, 1)(cl)
	}
	x := ident(cl.c.fresh("x"))
	return list(&ast.Comprehension{
		Clauses: []ast.Clause{
			&ast.ForClause{Value: x, Source: cl.args[0]},
			&ast.IfClause{Condition: binary(token.NEQ, x, ast.NewNull())},
			&ast.IfClause{Condition: binary(token.NEQ, x, stringLit(""))},
		},
		Value: embed(x),
	})
}

// convDistinct writes distinct(l): tofu.#distinctstrings, without the
// kind tests of #unify, for a list known to hold strings (see
// convCompact).
func convDistinct(cl *call) ast.Expr {
	if cl.expand || !cl.arity(1, 1) || !cl.c.stringList(cl.src[0]) {
		return libCall("distinct", 1, 1)(cl)
	}
	return cl.lib("distinctstrings", cl.args[0])
}

// convKeys writes keys(m): the keys of a struct, sorted.
func convKeys(cl *call) ast.Expr {
	if !cl.arity(1, 1) {
		return cl.fail("keys takes one argument.")
	}
	k := ident(cl.c.fresh("k"))
	return cl.std("list", "SortStrings", list(&ast.Comprehension{
		Clauses: []ast.Clause{&ast.ForClause{Key: k, Value: ident("_"), Source: cl.args[0]}},
		Value:   embed(k),
	}))
}

// convRange writes range(limit), range(start, limit) and range(start,
// limit, step). Without a step, OpenTofu counts down when limit is below
// start; the comparison is made here when both are constants.
func convRange(cl *call) ast.Expr {
	if cl.expand {
		return cl.fail("range takes one to three arguments, not an expanded list.")
	}
	switch len(cl.args) {
	case 1:
		return cl.lib("range", intLit(0), cl.args[0], cl.rangeStep(nil))
	case 2:
		return cl.lib("range", cl.args[0], cl.args[1], cl.rangeStep(cl.args[0]))
	case 3:
		return cl.lib("range", cl.args...)
	}
	return cl.fail("range takes one to three arguments.")
}

// rangeStep is the default step of range: -1 when the limit (the last
// argument) is below start (nil for 0), else 1.
func (cl *call) rangeStep(start ast.Expr) ast.Expr {
	last := len(cl.args) - 1
	lv, lok := constValue(cl.src[last])
	sv, sok := cty.Zero, true
	if len(cl.args) == 2 {
		sv, sok = constValue(cl.src[0])
	}
	if lok && sok && lv.Type() == cty.Number && sv.Type() == cty.Number {
		if lv.LessThan(sv).True() {
			return intLit(-1)
		}
		return intLit(1)
	}
	if start == nil {
		start = intLit(0)
	}
	return conditional(binary(token.LSS, cl.args[last], start), intLit(-1), intLit(1))
}

// convSetProduct writes setproduct of lists as a comprehension: every
// combination of their elements, the first argument's varying slowest.
// Where an argument may be a set, OpenTofu's product is a set of tuples
// (go-cty's SetProductFunc): the comprehension made a set (setOf), which
// needs the element type of every argument (a set's or list's element
// type, or the one type of a tuple's elements) known in full.
func convSetProduct(cl *call) ast.Expr {
	if cl.expand || len(cl.args) < 2 {
		return cl.fail("setproduct takes at least two arguments, not an expanded list.")
	}
	lists := true
	for _, a := range cl.src {
		lists = lists && cl.c.sequence(a)
	}
	var elemTys []cty.Type
	if !lists {
		for _, a := range cl.src {
			et, ok := productElementType(cl.c.typeOf(a))
			if !ok {
				return cl.fail("An argument may be a set whose element type is not known: the product of sets is a set of lists, which OpenTofu orders by the serialization of their elements' type.")
			}
			elemTys = append(elemTys, et)
		}
	}
	var clauses []ast.Clause
	var elems []ast.Expr
	for i, a := range cl.args {
		x := ident(cl.c.fresh("x" + strconv.Itoa(i)))
		clauses = append(clauses, &ast.ForClause{Value: x, Source: a})
		elems = append(elems, x)
	}
	product := list(&ast.Comprehension{Clauses: clauses, Value: embed(list(elems...))})
	if lists {
		return product
	}
	return cl.c.setOf(product, cty.Tuple(elemTys), nil)
}

// productElementType is the element type setproduct takes from an
// argument of type ty: a set's or a list's, or the one type of a tuple's
// elements; false where it is not known in full, or where a tuple's
// elements differ in type (their conversion is not written).
func productElementType(ty cty.Type) (cty.Type, bool) {
	var et cty.Type
	switch {
	case ty.IsSetType() || ty.IsListType():
		et = ty.ElementType()
	case ty.IsTupleType() && len(ty.TupleElementTypes()) > 0:
		ets := ty.TupleElementTypes()
		for _, t := range ets[1:] {
			if !t.Equals(ets[0]) {
				return cty.NilType, false
			}
		}
		et = ets[0]
	default:
		return cty.NilType, false
	}
	return et, et != cty.NilType && !et.HasDynamicTypes()
}

// sequence reports whether an expression is known to be a list or tuple,
// not a set: of the type the analysis gives it.
func (c *converter) sequence(e hcl.Expression) bool {
	ty := c.typeOf(e)
	return ty.IsListType() || ty.IsTupleType()
}
