package convert

import (
	"fmt"
	"sort"
	"strconv"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/ast/astutil"
	"cuelang.org/go/cue/token"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/cueform"
)

// inputSchema is the CUE schema of an input variable: its type constraint,
// with the default as CUE's default (closed when it is a struct). A root
// module's map whose default is the empty map is its schema alone,
// {[string]: string}, which is the empty map where no value is given, as
// a person writes it (a called module's variables take their defaults
// from the call, and null besides: see variable).
func (c *converter) inputSchema(v *config.Variable) ast.Expr {
	s := c.schema(v.Type, v.TypeDefaults)
	if v.Required() {
		return s
	}
	if c.child == "" && v.Type.IsMapType() && emptyMap(v.Default) {
		return s
	}
	d, _ := c.literal(v.Default, v.DeclRange())
	switch d.(type) {
	case *ast.StructLit:
		// A default map or object is closed: a value given for the
		// variable replaces it rather than adding keys to it.
		d = ast.NewCall(ident("close"), softNulls(d))
	case *ast.ListLit:
		d = softNulls(d)
	}
	return defaulted(d, s)
}

// emptyMap reports whether v, a map variable's default, is the known,
// non-null empty map.
func emptyMap(v cty.Value) bool {
	return v != cty.NilVal && v.IsWhollyKnown() && !v.IsNull() && v.LengthInt() == 0
}

// softNulls writes the nulls inside a default as *null | _, nulls by
// default, as the engine gives the nulls of the input values it injects:
// an attribute left null in a default (optional(string) with no value)
// that a resource argument reads is one the provider decides, as in
// OpenTofu, where a concrete null could not give way to the provider's
// value (net-lb-int: ip_address = each.value.address).
func softNulls(x ast.Expr) ast.Expr {
	return astutil.Apply(x, func(c astutil.Cursor) bool {
		if l, ok := c.Node().(*ast.BasicLit); ok && l.Kind == token.NULL {
			c.Replace(softNull())
		}
		return true
	}, nil).(ast.Expr)
}

// readsSoftNull is whether e reads a root module's variable whose default
// holds a null inside a list, map or object, which softNulls writes as a
// null by default (*null | _).
func (c *converter) readsSoftNull(e hclsyntax.Expression) bool {
	if c.a.called {
		return false // a called module's variables are its caller's values
	}
	for _, t := range hclsyntax.Variables(e) {
		if t.RootName() != "var" || len(t) < 2 {
			continue
		}
		at, ok := t[1].(hcl.TraverseAttr)
		if !ok {
			continue
		}
		if v := c.m.Variables[at.Name]; v != nil && !v.Required() && holdsNullInside(v.Default) {
			return true
		}
	}
	return false
}

// holdsNullInside is whether a known collection v holds a null at any
// depth (v itself being null does not count).
func holdsNullInside(v cty.Value) bool {
	if v == cty.NilVal {
		return false
	}
	v, _ = v.UnmarkDeep()
	if ty := v.Type(); !v.IsWhollyKnown() || v.IsNull() || !ty.IsCollectionType() && !ty.IsObjectType() && !ty.IsTupleType() {
		return false
	}
	for it := v.ElementIterator(); it.Next(); {
		_, e := it.Element()
		if e.IsNull() || holdsNullInside(e) {
			return true
		}
	}
	return false
}

// schema writes a type constraint as CUE:
//
//	string, number, bool    string, number, bool
//	any                     _
//	list(T), set(T)         [...T]
//	map(T)                  {[string]: T}
//	tuple([A, B])           [A, B]
//	object({a = T})         close({a!: T | null})
//	optional(T)             a: *null | T
//	optional(T, d)          a: *d | T, or *(d & T) | T where T has defaults inside
//
// A set is a list in CUE: the engine makes the elements unique and orders
// them as OpenTofu does before it unifies a value.
func (c *converter) schema(t cty.Type, d *typeexpr.Defaults) ast.Expr {
	switch {
	case t == cty.DynamicPseudoType:
		return ident("_")
	case t == cty.String:
		return ident("string")
	case t == cty.Number:
		return ident("number")
	case t == cty.Bool:
		return ident("bool")
	case t.IsListType() || t.IsSetType():
		return &ast.ListLit{Elts: []ast.Expr{&ast.Ellipsis{Type: c.schema(t.ElementType(), child(d, ""))}}}
	case t.IsMapType():
		return &ast.StructLit{Elts: []ast.Decl{&ast.Field{
			Label: &ast.ListLit{Elts: []ast.Expr{ident("string")}},
			Value: c.schema(t.ElementType(), child(d, "")),
		}}}
	case t.IsTupleType():
		l := &ast.ListLit{}
		for i, et := range t.TupleElementTypes() {
			l.Elts = append(l.Elts, c.schema(et, child(d, fmt.Sprint(i))))
		}
		return l
	case t.IsObjectType():
		names := make([]string, 0, len(t.AttributeTypes()))
		for n := range t.AttributeTypes() {
			names = append(names, n)
		}
		sort.Strings(names)
		s := &ast.StructLit{}
		for _, n := range names {
			at := t.AttributeType(n)
			sub := c.schema(at, child(d, n))
			f := field(c.lbl(n), sub)
			if !t.AttributeOptional(n) {
				// Required is present, not set: OpenTofu takes a null
				// for any attribute (ranges = null in a rule).
				f.Constraint = token.NOT
				if at != cty.DynamicPseudoType {
					f.Value = binary(token.OR, sub, ast.NewNull())
				}
			} else if dv, ok := defaultOf(d, n); ok && !dv.IsNull() {
				if hasDefaults(child(d, n)) {
					dv = withoutNulls(dv)
				}
				lit, _ := c.literal(dv, hcl.Range{})
				if hasDefaults(child(d, n)) {
					// The default's own optional attributes take their
					// defaults too: OpenTofu applies them top-down.
					lit = &ast.ParenExpr{X: binary(tokenAND, lit, sub)}
				}
				f.Value = defaulted(lit, sub)
			} else {
				f.Value = defaulted(ast.NewNull(), sub)
			}
			s.Elts = append(s.Elts, f)
		}
		return ast.NewCall(ident("close"), s)
	}
	return ident("_")
}

func child(d *typeexpr.Defaults, key string) *typeexpr.Defaults {
	if d == nil {
		return nil
	}
	return d.Children[key]
}

func defaultOf(d *typeexpr.Defaults, name string) (cty.Value, bool) {
	if d == nil {
		return cty.NilVal, false
	}
	v, ok := d.DefaultValues[name]
	return v, ok
}

func hasDefaults(d *typeexpr.Defaults) bool {
	return d != nil && (len(d.DefaultValues) > 0 || len(d.Children) > 0)
}

// validations converts a variable's validation blocks. A condition that
// CUE states exactly as a constraint on the value (an enumeration, a
// regular expression, a range, a length) narrows the input's schema. Any
// other is kept as a value under _validation with the rule's message, for
// the engine to check once the input is known, and is reported: CUE
// cannot say "when the value is given" in a constraint, and a condition
// unified with true would fail on the schema alone.
func (c *converter) validations(v *config.Variable, schema ast.Expr) (ast.Expr, []ast.Decl) {
	var decls []ast.Decl
	for i, r := range v.Validations {
		if x, ok := c.constraint(v, r.Condition); ok {
			schema = binary(tokenAND, schema, x)
			continue
		}
		cond, _ := c.expr(r.Condition)
		s := &ast.StructLit{Elts: []ast.Decl{field(ident("condition"), cond)}}
		if r.ErrorMessage != nil {
			msg, _ := c.expr(r.ErrorMessage)
			s.Elts = append(s.Elts, field(ident("error_message"), msg))
		}
		outer, inner := c.nested([]string{validateRoot, v.Name, strconv.Itoa(i)}, s)
		inner.Attrs = []*ast.Attribute{attr(cueform.AttrValidation, attrString("var."+v.Name))}
		decls = append(decls, outer)
		c.diags = append(c.diags, &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  "Validation kept for the engine",
			Detail:   fmt.Sprintf("This condition is not a CUE constraint on var.%s: it is kept in _validation.%s with its message, and the engine checks it.", v.Name, v.Name),
			Subject:  r.Condition.Range().Ptr(),
		})
	}
	return schema, decls
}

// constraint recognizes a validation condition that is exactly a CUE
// constraint on the variable's value x:
//
//	contains(["a", "b"], var.x)        "a" | "b"
//	can(regex("^re$", var.x))          =~"^re$"
//	var.x >= 1 (>, <, <=)              >=1
//	length(var.x) >= 1 (and <=)        strings.MinRunes(1) / list.MinItems(1)
//	A && B                             both
func (c *converter) constraint(v *config.Variable, cond hcl.Expression) (ast.Expr, bool) {
	isVar := func(e hcl.Expression) bool {
		t, diags := hcl.AbsTraversalForExpr(config.UnwrapParens(e))
		if diags.HasErrors() || len(t) != 2 || t.RootName() != "var" {
			return false
		}
		a, ok := t[1].(hcl.TraverseAttr)
		return ok && a.Name == v.Name
	}
	constant := func(e hcl.Expression) (cty.Value, bool) {
		if len(e.Variables()) > 0 {
			return cty.NilVal, false
		}
		val, diags := e.Value(nil)
		return val, !diags.HasErrors() && val.IsWhollyKnown() && !val.IsNull()
	}
	switch e := config.UnwrapParens(cond).(type) {
	case *hclsyntax.BinaryOpExpr:
		if e.Op == hclsyntax.OpLogicalAnd {
			a, ok1 := c.constraint(v, e.LHS)
			b, ok2 := c.constraint(v, e.RHS)
			if ok1 && ok2 {
				return binary(tokenAND, a, b), true
			}
			return nil, false
		}
		ops := map[*hclsyntax.Operation]token.Token{
			hclsyntax.OpGreaterThan: token.GTR, hclsyntax.OpGreaterThanOrEqual: token.GEQ,
			hclsyntax.OpLessThan: token.LSS, hclsyntax.OpLessThanOrEqual: token.LEQ,
		}
		op, ok := ops[e.Op]
		if !ok {
			return nil, false
		}
		n, ok := constant(e.RHS)
		if !ok || n.Type() != cty.Number {
			return nil, false
		}
		lit, _ := c.literal(n, e.RHS.Range())
		if isVar(e.LHS) && v.Type == cty.Number {
			return &ast.UnaryExpr{Op: op, X: lit}, true
		}
		if call, ok := e.LHS.(*hclsyntax.FunctionCallExpr); ok && call.Name == "length" && len(call.Args) == 1 && isVar(call.Args[0]) && n.AsBigFloat().IsInt() {
			i, _ := n.AsBigFloat().Int64()
			switch op {
			case token.GTR:
				i++
				op = token.GEQ
			case token.LSS:
				i--
				op = token.LEQ
			}
			switch {
			case v.Type == cty.String:
				return c.std("strings", map[token.Token]string{token.GEQ: "MinRunes", token.LEQ: "MaxRunes"}[op], intLit(int(i))), true
			case v.Type.IsListType() || v.Type.IsSetType():
				return c.std("list", map[token.Token]string{token.GEQ: "MinItems", token.LEQ: "MaxItems"}[op], intLit(int(i))), true
			}
		}
	case *hclsyntax.FunctionCallExpr:
		switch {
		case e.Name == "contains" && len(e.Args) == 2 && isVar(e.Args[1]) && v.Type.IsPrimitiveType():
			l, ok := constant(e.Args[0])
			if !ok || !l.Type().IsTupleType() && !l.Type().IsListType() || l.LengthInt() == 0 {
				return nil, false
			}
			var alts ast.Expr
			for it := l.ElementIterator(); it.Next(); {
				_, ev := it.Element()
				if !ev.Type().Equals(v.Type) || ev.IsNull() {
					return nil, false
				}
				x, _ := c.literal(ev, e.Range())
				if alts == nil {
					alts = x
				} else {
					alts = &ast.BinaryExpr{X: alts, Op: token.OR, Y: x}
				}
			}
			return paren(alts), true
		case e.Name == "can" && len(e.Args) == 1 && v.Type == cty.String:
			inner, ok := e.Args[0].(*hclsyntax.FunctionCallExpr)
			if !ok || inner.Name != "regex" || len(inner.Args) != 2 || !isVar(inner.Args[1]) {
				return nil, false
			}
			p, ok := constant(inner.Args[0])
			if !ok || p.Type() != cty.String {
				return nil, false
			}
			return &ast.UnaryExpr{Op: token.MAT, X: stringLit(p.AsString())}, true
		}
	}
	return nil, false
}

// withoutNulls drops the null attributes of an object default, the
// optional attributes it leaves out, so that their own defaults apply.
func withoutNulls(v cty.Value) cty.Value {
	if v.IsNull() || !v.IsKnown() || !v.Type().IsObjectType() {
		return v
	}
	attrs := map[string]cty.Value{}
	for k, av := range v.AsValueMap() {
		if !av.IsNull() {
			attrs[k] = withoutNulls(av)
		}
	}
	return cty.ObjectVal(attrs)
}
