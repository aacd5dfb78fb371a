package convert

import (
	"fmt"
	"math/big"
	"strings"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/token"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/refs"
)

// expr converts an OpenTofu expression to CUE, and says what kind of value
// it has as far as the converter can tell.
func (c *converter) expr(e hcl.Expression) (ast.Expr, kind) {
	if x, ok := e.(hclsyntax.Expression); ok {
		if summary, detail, refused := c.refusal(x); refused {
			return c.refused(x.Range(), summary, detail), kindUnknown
		}
	}
	switch e := e.(type) {
	case nil:
		return ast.NewNull(), kindNull
	case *hclsyntax.LiteralValueExpr:
		return c.literal(e.Val, e.SrcRange)
	case *hclsyntax.ParenthesesExpr:
		x, k := c.expr(e.Expression)
		return paren(x), k
	case *hclsyntax.TemplateWrapExpr:
		// "${x}" is x itself, of whatever type.
		return c.expr(e.Wrapped)
	case *hclsyntax.TemplateExpr:
		return c.template(e), kindString
	case *hclsyntax.TemplateJoinExpr:
		return c.templateJoin(e), kindString
	case *hclsyntax.ScopeTraversalExpr:
		return c.traversal(e.Traversal, e.SrcRange)
	case *hclsyntax.RelativeTraversalExpr:
		src, k := c.expr(e.Source)
		return c.steps(src, k, e.Traversal)
	case *hclsyntax.IndexExpr:
		coll, ck := c.expr(e.Collection)
		key := c.indexKey(ck, e.Key)
		// var.names[count.index]: an element of the variable's type;
		// local.labels[l]: an attribute of an object whose attributes
		// are all of one type (typeOf).
		ty, ok := c.a.variableType(e)
		if !ok {
			ty = c.typeOf(e)
		}
		return index(coll, key), kindOfType(ty)
	case *hclsyntax.FunctionCallExpr:
		if x, k, ok := c.foldEach(e); ok {
			return x, k
		}
		return c.call(e)
	case *hclsyntax.ConditionalExpr:
		cond := c.condition(e.Condition)
		ta, tb := c.unifiedBranches(e)
		a, ak := c.expr(ta)
		b, bk := c.expr(tb)
		k, mixed := unified(ak, bk)
		if mixed {
			// OpenTofu converts both results to strings.
			a, b = c.asString(a, ak), c.asString(b, bk)
		}
		x := conditional(cond, a, b)
		if !c.mayBeUnknown(e.Condition) {
			c.knownConds[x] = true
		}
		if c.pure(e) {
			c.embeddable[x] = true
		}
		return x, k
	case *hclsyntax.BinaryOpExpr:
		return c.binary(e)
	case *hclsyntax.UnaryOpExpr:
		x, k := c.expr(e.Val)
		if e.Op == hclsyntax.OpLogicalNot {
			return not(c.asBool(e.Val, x, k)), kindBool
		}
		if k == kindString {
			// -"2" is -2: OpenTofu converts the operand to a number.
			x, k = c.lib("tonumber", x), kindNumber
		}
		return &ast.UnaryExpr{Op: token.SUB, X: paren(x)}, k
	case *hclsyntax.TupleConsExpr:
		l := &ast.ListLit{}
		for _, el := range e.Exprs {
			x, _ := c.expr(el)
			l.Elts = append(l.Elts, x)
		}
		return l, kindList
	case *hclsyntax.ObjectConsExpr:
		return c.object(e), kindMap
	case *hclsyntax.ForExpr:
		if x, k, ok := c.foldReads(e); ok {
			return x, k
		}
		return c.forExpr(e)
	case *hclsyntax.SplatExpr:
		return c.splat(e)
	case *hclsyntax.AnonSymbolExpr:
		if b, ok := c.anon[e]; ok {
			return ident(b), kindUnknown
		}
	}
	return c.unconverted(e.Range(), "Expression not converted",
		fmt.Sprintf("hcl2cue cannot convert a %T expression.", e)), kindUnknown
}

// literal writes a constant value.
func (c *converter) literal(v cty.Value, rng hcl.Range) (ast.Expr, kind) {
	switch {
	case v.IsNull():
		return ast.NewNull(), kindNull
	case !v.IsKnown():
		return c.unconverted(rng, "Unknown value", "An unknown value cannot be written as CUE."), kindUnknown
	}
	t := v.Type()
	switch {
	case t == cty.String:
		return stringLit(v.AsString()), kindString
	case t == cty.Bool:
		return ast.NewBool(v.True()), kindBool
	case t == cty.Number:
		f := v.AsBigFloat()
		if n := significantDigits(f); n > cueDigits {
			return c.unconverted(rng, "Number not converted",
				fmt.Sprintf("%s has %d significant digits; CUE's numbers hold %d, so CUE's value would differ from OpenTofu's.", f.Text('g', 12)+"…", n, cueDigits)), kindNumber
		}
		return numberLit(f)
	case t.IsListType() || t.IsSetType() || t.IsTupleType():
		l := &ast.ListLit{}
		for it := v.ElementIterator(); it.Next(); {
			_, ev := it.Element()
			x, _ := c.literal(ev, rng)
			l.Elts = append(l.Elts, x)
		}
		return l, kindList
	case t.IsMapType() || t.IsObjectType():
		s := &ast.StructLit{}
		for it := v.ElementIterator(); it.Next(); {
			k, ev := it.Element()
			x, _ := c.literal(ev, rng)
			s.Elts = append(s.Elts, field(c.lbl(k.AsString()), x))
		}
		return s, kindMap
	}
	return c.unconverted(rng, "Value not converted", "A value of type "+t.FriendlyName()+" cannot be written as CUE."), kindUnknown
}

// cueDigits is the number of significant digits of CUE's decimal
// numbers that are not integers (its integers have no limit).
const cueDigits = 34

// significantDigits is the number of significant decimal digits of the
// shortest decimal that is f, where f is not whole (0 otherwise): 1 for
// 0.5, 155 for OpenTofu's 1/3.
func significantDigits(f *big.Float) int {
	if f.IsInt() {
		return 0
	}
	mant, _, _ := strings.Cut(f.Text('e', -1), "e")
	mant = strings.TrimLeft(strings.Replace(strings.TrimPrefix(mant, "-"), ".", "", 1), "0")
	return len(mant)
}

// numberLit writes an OpenTofu number: an integer literal when the number
// is whole, so that CUE keeps it an int, and a decimal literal otherwise.
func numberLit(f *big.Float) (ast.Expr, kind) {
	if f.IsInt() {
		i, _ := f.Int(nil)
		return ast.NewLit(token.INT, i.String()), kindInt
	}
	s := f.Text('g', -1)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return ast.NewLit(token.FLOAT, s), kindNumber
}

var binaryOps = map[*hclsyntax.Operation]token.Token{
	hclsyntax.OpAdd:                token.ADD,
	hclsyntax.OpSubtract:           token.SUB,
	hclsyntax.OpMultiply:           token.MUL,
	hclsyntax.OpDivide:             token.QUO,
	hclsyntax.OpEqual:              token.EQL,
	hclsyntax.OpNotEqual:           token.NEQ,
	hclsyntax.OpGreaterThan:        token.GTR,
	hclsyntax.OpGreaterThanOrEqual: token.GEQ,
	hclsyntax.OpLessThan:           token.LSS,
	hclsyntax.OpLessThanOrEqual:    token.LEQ,
	hclsyntax.OpLogicalAnd:         token.LAND,
	hclsyntax.OpLogicalOr:          token.LOR,
}

// condition converts an expression used as a condition (of a
// conditional, of count = COND ? 1 : 0, of a for expression's if): a
// string condition ("true") becomes a bool, as OpenTofu converts it.
func (c *converter) condition(e hclsyntax.Expression) ast.Expr {
	x, k := c.expr(e)
	return c.asBool(e, x, k)
}

// asBool is x, the conversion of e of kind k, as an operand that must be
// a bool (a condition, an operand of &&, || and !): a string ("true",
// "false") becomes a bool, as OpenTofu converts it, and any other string
// is an error where it is evaluated.
func (c *converter) asBool(e hcl.Expression, x ast.Expr, k kind) ast.Expr {
	if c.scalarKind(e, k) == kindString {
		return c.lib("tobool", x)
	}
	return x
}

// scalarKind is k, the kind of e's conversion, or where that is not known,
// the kind of the primitive type the analysis gives e (typeOf): a lookup
// in an object of a typed variable, coalesce of such.
func (c *converter) scalarKind(e hcl.Expression, k kind) kind {
	if k != kindUnknown {
		return k
	}
	if t := c.typeOf(e); t.IsPrimitiveType() {
		return kindOfType(t)
	}
	return k
}

// numericOperators take numbers: OpenTofu converts their operands to
// numbers.
var numericOperators = map[*hclsyntax.Operation]bool{
	hclsyntax.OpAdd: true, hclsyntax.OpSubtract: true, hclsyntax.OpMultiply: true,
	hclsyntax.OpDivide: true, hclsyntax.OpModulo: true,
	hclsyntax.OpGreaterThan: true, hclsyntax.OpGreaterThanOrEqual: true,
	hclsyntax.OpLessThan: true, hclsyntax.OpLessThanOrEqual: true,
}

// binary converts an operation of two operands.
func (c *converter) binary(e *hclsyntax.BinaryOpExpr) (ast.Expr, kind) {
	x, xk := c.expr(e.LHS)
	y, yk := c.expr(e.RHS)
	if numericOperators[e.Op] {
		// OpenTofu converts a string operand of arithmetic or of an
		// ordering comparison to a number ("12" + 1 is 13); CUE would
		// refuse it, or repeat a string multiplied by a number.
		if xk == kindString {
			x, xk = c.lib("tonumber", x), kindNumber
		}
		if yk == kindString {
			y, yk = c.lib("tonumber", y), kindNumber
		}
	}
	if e.Op == hclsyntax.OpModulo {
		// OpenTofu's % keeps the sign of the dividend, as CUE's rem does
		// for integers; a fractional operand needs the library's form.
		if xk == kindInt && yk == kindInt {
			return ast.NewCall(ident("rem"), x, y), kindInt
		}
		return c.lib("modulo", x, y), kindNumber
	}
	if e.Op == hclsyntax.OpLogicalOr || e.Op == hclsyntax.OpLogicalAnd {
		x, y = c.asBool(e.LHS, x, xk), c.asBool(e.RHS, y, yk)
		if x, ok := c.logical(e, x, y); ok {
			return x, kindBool
		}
	}
	op, ok := binaryOps[e.Op]
	if !ok {
		return c.unconverted(e.SrcRange, "Operator not converted", "hcl2cue cannot convert this operator."), kindUnknown
	}
	switch op {
	case token.ADD, token.SUB, token.MUL:
		if xk == kindInt && yk == kindInt {
			return binary(op, x, y), kindInt
		}
		return binary(op, x, y), kindNumber
	case token.QUO:
		return binary(op, x, y), kindNumber
	case token.EQL, token.NEQ:
		if c.neverEqual(e.LHS, e.RHS) {
			// OpenTofu compares types first; CUE would compare the
			// elements.
			c.diags = append(c.diags, &hcl.Diagnostic{
				Severity: hcl.DiagWarning,
				Summary:  "Comparison of values of different types",
				Detail:   "OpenTofu compares a tuple or object built with brackets or braces with a list, set or map as values of different types, never equal, so this comparison is always " + map[bool]string{true: "true", false: "false"}[op == token.NEQ] + "; the converted module writes that value. To compare the elements, convert one side (tolist, tomap) or compare lengths.",
				Subject:  e.SrcRange.Ptr(),
			})
			return ast.NewBool(op == token.NEQ), kindBool
		}
		if c.knownNullComparison(e) {
			// A value known while planning compares with null as it is.
			return binary(op, x, y), kindBool
		}
		if cmp, ok := c.shapedNullComparison(e, x, xk, y, yk, op == token.NEQ); ok {
			return cmp, kindBool
		}
		if cmp, ok := c.refinedNullComparison(op, e, x, y); ok {
			return cmp, kindBool
		}
		if cmp, ok := nullComparison(op, x, xk, y, yk); ok {
			side, sx := e.LHS, x
			if isNullLit(x) {
				side, sx = e.RHS, y
			}
			return c.pendingNullTest(side, sx, cmp), kindBool
		}
	}
	return binary(op, x, y), kindBool
}

// pendingNullTest is cmp, a null comparison of x (the conversion of e),
// except where x is an error while a reference it reads is not known
// yet: then the comparison is not known either (bool), as in OpenTofu,
// where cmp's guard takes an error for a value that cannot be null (an
// interpolation of a value not known yet):
//
//	[if [(*x | 'error') & tofu.#value] == _|_ if R {bool}, cmp][0]
//
// R is readsPending of e, or of the expression of the local value e
// reads (fabric's agent-engine: local._effective_identity ==
// null, the local a coalesce of tries of computed attributes, an
// incomplete error in CUE while they are not known).
func (c *converter) pendingNullTest(e hclsyntax.Expression, x, cmp ast.Expr) ast.Expr {
	if c.guarded[e] {
		return cmp // inside a template or call that has the guard
	}
	if st, ok := e.(*hclsyntax.ScopeTraversalExpr); ok && len(st.Traversal) == 2 {
		if local, ok := subjectOf(st.Traversal, c.m).(refs.LocalValue); ok {
			if l := c.m.Locals[local.Name]; l != nil {
				if le, ok := l.Expr.(hclsyntax.Expression); ok {
					e = le
				}
			}
		}
	}
	reads := c.readsPending(e)
	if reads == nil {
		return cmp
	}
	return index(list(
		&ast.Comprehension{Clauses: []ast.Clause{&ast.IfClause{Condition: c.valueTest(x, token.EQL)}, &ast.IfClause{Condition: reads}}, Value: embed(ident("bool"))},
		cmp,
	), intLit(0))
}

// knownNullComparison is whether e compares with null a value that is
// known in full while planning: no struct or list of it holds a value not
// known yet, which CUE could not compare.
func (c *converter) knownNullComparison(e *hclsyntax.BinaryOpExpr) bool {
	switch {
	case isNullExpr(e.RHS):
		return !c.mayBeUnknown(e.LHS)
	case isNullExpr(e.LHS):
		return !c.mayBeUnknown(e.RHS)
	}
	return false
}

// isNullExpr reports whether e is the literal null.
func isNullExpr(e hclsyntax.Expression) bool {
	l, ok := config.UnwrapParens(e).(*hclsyntax.LiteralValueExpr)
	return ok && l.Val.IsNull()
}

// refinedNullComparison converts X == null and X != null where X is a
// value OpenTofu knows is not null while it is not known yet
// (refinedNotNull: a template, an operator's result, upper(...)). Such a
// value not known yet is a type (string, see unknown.go) or an error (an
// operator's result), which CUE does not compare with null; X & null is
// an error for both, and for any value but null:
//
//	[if (X & null) == _|_ {false}, X == null][0]
//
// A null, and a value whose default is null (an input's *null | string),
// are compared.
func (c *converter) refinedNullComparison(op token.Token, e *hclsyntax.BinaryOpExpr, x, y ast.Expr) (ast.Expr, bool) {
	switch {
	case isNullLit(y) && c.a.refinedNotNull(e.LHS):
	case isNullLit(x) && c.a.refinedNotNull(e.RHS):
		x = y
	default:
		return nil, false
	}
	return guardedNullTest(cannotBeNull(x), x, op == token.NEQ), true
}

// nullComparison converts X == null and X != null where X may be a map,
// object or list: CUE cannot compare a struct holding a value not known
// yet (a computed attribute before apply) with null, where OpenTofu tells
// that such an object is not null. (*(X & null) | 0) == null decides it
// from X's kind. A string, number or bool not known yet stays unknown
// either way, as in OpenTofu.
func nullComparison(op token.Token, x ast.Expr, xk kind, y ast.Expr, yk kind) (ast.Expr, bool) {
	switch {
	case isNullLit(y) && !xk.isScalar():
	case isNullLit(x) && !yk.isScalar():
		x, xk = y, yk
	default:
		return nil, false
	}
	if op == token.EQL {
		return isNull(x, xk), true
	}
	return notNull(x, xk), true
}

// object converts an object constructor. A key written as a bare name is
// that string, as in OpenTofu; any other key is computed.
func (c *converter) object(e *hclsyntax.ObjectConsExpr) ast.Expr {
	s := &ast.StructLit{}
	// A constant key given twice takes its last value, as in OpenTofu;
	// CUE would unify the two.
	last := map[string]int{}
	for i, item := range e.Items {
		if name, ok := objectKeyName(item.KeyExpr); ok {
			last[name] = i
		}
	}
	for i, item := range e.Items {
		if name, ok := objectKeyName(item.KeyExpr); ok && last[name] != i {
			continue
		}
		// The comments before an item, and at the end of its line, are
		// its own, as an argument's are (see body).
		doc := c.comments.before(item.KeyExpr.Range().Start.Byte)
		v, _ := c.expr(item.ValueExpr)
		var l ast.Label
		if name, ok := objectKeyName(item.KeyExpr); ok {
			l = c.lbl(name)
		} else {
			key := item.KeyExpr
			if k, ok := key.(*hclsyntax.ObjectConsKeyExpr); ok {
				key = k.Wrapped
			}
			kx, kk := c.expr(key)
			l = &ast.ParenExpr{X: c.asString(kx, kk)}
		}
		f := field(l, v)
		c.itemComments(f, doc, item.ValueExpr.Range().End)
		s.Elts = append(s.Elts, f)
	}
	c.liftFields(s)
	return s
}

// objectKeyName is the constant name of an object key: a bare name or a
// string without interpolations.
func objectKeyName(key hcl.Expression) (string, bool) {
	if k, ok := key.(*hclsyntax.ObjectConsKeyExpr); ok {
		if !k.ForceNonLiteral {
			if name := hcl.ExprAsKeyword(k.Wrapped); name != "" {
				return name, true
			}
		}
		key = k.Wrapped
	}
	if t, ok := key.(*hclsyntax.TemplateExpr); ok && t.IsStringLiteral() {
		v, diags := t.Value(nil)
		if !diags.HasErrors() {
			return v.AsString(), true
		}
	}
	if l, ok := key.(*hclsyntax.LiteralValueExpr); ok && l.Val.Type() == cty.String {
		return l.Val.AsString(), true
	}
	return "", false
}

// asString converts a value to a string as OpenTofu does where a string is
// required (object keys, templates). Strings and integers print the same
// in both languages; a number that may be fractional goes through
// OpenTofu's number formatting.
func (c *converter) asString(x ast.Expr, k kind) ast.Expr {
	switch k {
	case kindString, kindInt, kindBool:
		if k == kindString {
			return x
		}
		if lit, ok := x.(*ast.BasicLit); ok && (lit.Kind == token.INT || lit.Kind == token.TRUE || lit.Kind == token.FALSE) {
			// A literal prints as it is written: 5, true.
			return stringLit(lit.Value)
		}
		return interpolation([]any{x})
	case kindNumber:
		return c.lib("tostring", x)
	}
	return interpolation([]any{x})
}

// unconverted records that a construct was not converted and returns the
// placeholder written in its place: a CUE error that names it, so that
// evaluation stops there and never uses a made-up value.
func (c *converter) unconverted(rng hcl.Range, summary, detail string) ast.Expr {
	c.diags = append(c.diags, &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  summary,
		Detail:   detail,
		Subject:  rng.Ptr(),
	})
	c.reasons = append(c.reasons, summary)
	src := strings.TrimSpace(string(rng.SliceBytes(c.src(rng.Filename))))
	if len(src) > 60 {
		src = src[:57] + "..."
	}
	return ast.NewCall(ident("error"), stringLit(fmt.Sprintf("hcl2cue: not converted: %s: %s", summary, src)))
}
