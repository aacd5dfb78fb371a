package convert

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/token"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/refs"
)

// A called module's variable may be given a value not known while
// planning by one of its calls, and yet its shape be known: an object
// or tuple its call builds with braces or brackets, whose attributes or
// elements read a resource's (terraform-aws-sns's complete example gives
// topic_policy_statements an object of statements whose principals read
// a data source). Such a value is never null, nor not known as a whole,
// so a test of it against null is decided while planning, as in
// OpenTofu. The same holds where some calls give such a value and the
// others a known one, or leave the variable out (its default), if the
// value is a list, map or object by its type; and an attribute that an
// object built with static keys leaves out is known (null, or its type's
// default), so compared with null as it is.
//
// CUE cannot compare a struct or list that holds a value not known yet
// with null, but it unifies it with null, an error for any value but
// null, whose default 0 is not null:
//
//	(*(x & null) | 0) != null
//
// (== for x == null), where without the shape the test is the three
// clauses of nullTest. While x itself waits (the conversion of its
// call's argument, which tests the argument's own null), so does the
// test. A test of x's length, len(x) != _|_, took such an x for null
// (terraform-aws-eks's eks-capabilities example: the Argo CD capability's
// configuration, and with it its server URL, were left out).
//
// knownVariables works out, for each variable, what every call's
// argument tells of its shape (argumentFacts, meetValues); the writer
// reads it for a variable, a path of attributes and elements through it,
// and a for expression's, dynamic block's or each's element of a
// collection it knows the shape of (shapeOf).

// knownShape is the shape of a value known while planning.
func knownShape() *argShape { return &argShape{known: true, settled: true} }

// meetValues is what a and b both tell, as meetShapes, where a value
// known while planning tells of its elements and attributes that they
// are known too (the shape of a variable that one call leaves out, its
// default, and another gives an object whose attributes read a
// resource's is the latter's, with nothing known), and an object its
// expression builds with static keys (exact) tells of an attribute it
// leaves out that it is known: null, or the default its type gives it.
func meetValues(a, b *argShape) *argShape {
	if a == nil || b == nil {
		return nil
	}
	m := meetTop(a, b)
	if m.known {
		return m // and so is all that is read from it
	}
	children := func(s *argShape) (*argShape, map[string]*argShape) {
		if s.known {
			return knownShape(), nil
		}
		return s.elems, s.attrs
	}
	ae, aa := children(a)
	be, ba := children(b)
	m.elems = meetValues(ae, be)
	// Every attribute either names is in attrs, with field's shape
	// where one leaves it out.
	m.exact = (a.exact || a.known) && (b.exact || b.known)
	keys := map[string]bool{}
	for k := range aa {
		keys[k] = true
	}
	for k := range ba {
		keys[k] = true
	}
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		av, bv := a.field(k), b.field(k)
		if av == nil || bv == nil {
			continue
		}
		if m.attrs == nil {
			m.attrs = map[string]*argShape{}
		}
		m.attrs[k] = meetValues(av, bv)
	}
	return m
}

// field is the shape of s's attribute n: as attr, and known where s is
// known, or an object its expression builds with static keys that leaves
// n out (its value is null, or the default of n's type).
func (s *argShape) field(n string) *argShape {
	switch {
	case s == nil:
		return nil
	case s.known || s.exact && s.attrs[n] == nil:
		return knownShape()
	}
	return s.attrs[n]
}

// key is what the writer reads of s (shapedNullComparison), written
// out, for the cache key of a template whose variables have the shape:
// of a known value nothing more, since all read from it is known.
func (s *argShape) key() string {
	switch {
	case s == nil:
		return "?"
	case s.known:
		return "k"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "{%t%t%t%t%t", s.nonNull, s.null, s.collection, s.settled, s.exact)
	if s.elems != nil {
		b.WriteString(" *" + s.elems.key())
	}
	for _, n := range slices.Sorted(maps.Keys(s.attrs)) {
		fmt.Fprintf(&b, " %q:%s", n, s.attrs[n].key())
	}
	b.WriteString("}")
	return b.String()
}

// shapeOf is what the analysis knows of the shape of e's value where it
// is converted: of a called module's variable, from its calls, and of
// the attributes and elements read through it by static keys; of a local
// value, from its expression; of a for expression's value variable, a
// dynamic block's iterator.value and each.value, the element of the
// collection they range over; of a conditional, what both results tell,
// an empty collection telling nothing of elements; of another
// expression, what shapeOfArg reads from its syntax. nil where nothing
// is known.
func (c *converter) shapeOf(e hclsyntax.Expression) *argShape {
	return c.shapeIn(e, map[string]bool{})
}

func (c *converter) shapeIn(e hclsyntax.Expression, locals map[string]bool) *argShape {
	switch x := config.UnwrapParens(e).(type) {
	case *hclsyntax.ScopeTraversalExpr:
		return c.traversalShape(x.Traversal, locals)
	case *hclsyntax.ConditionalExpr:
		t, f := c.shapeIn(x.TrueResult, locals), c.shapeIn(x.FalseResult, locals)
		switch {
		case isEmptyCons(x.TrueResult) && f != nil:
			t = &argShape{nonNull: true, collection: true, settled: true, known: t.isKnown(), elems: f.elems}
		case isEmptyCons(x.FalseResult) && t != nil:
			f = &argShape{nonNull: true, collection: true, settled: true, known: f.isKnown(), elems: t.elems}
		}
		s := meetValues(t, f)
		if s != nil && !c.knownIn(x.Condition) {
			s.known = false
		}
		return s
	}
	return shapeWith(e, func(e hclsyntax.Expression) bool { return !c.mayBeUnknown(e) }, meetValues)
}

// isEmptyCons reports whether e is [] or {}.
func isEmptyCons(e hclsyntax.Expression) bool {
	switch x := config.UnwrapParens(e).(type) {
	case *hclsyntax.TupleConsExpr:
		return len(x.Exprs) == 0
	case *hclsyntax.ObjectConsExpr:
		return len(x.Items) == 0
	}
	return false
}

// traversalShape is shapeOf a reference.
func (c *converter) traversalShape(t hcl.Traversal, locals map[string]bool) *argShape {
	var s *argShape
	rest := t[1:]
	if b, ok := c.lookup(t.RootName()); ok {
		attr := ""
		if len(rest) > 0 {
			if at, ok := rest[0].(hcl.TraverseAttr); ok {
				attr = at.Name
			}
		}
		switch {
		case b.element && b.over != nil:
			over, ok := b.over.(hclsyntax.Expression)
			if !ok {
				return nil
			}
			s = c.shapeIn(over, locals).elem()
		case (b.iterator || t.RootName() == "each") && b.forEach != nil && attr == "value":
			fe, ok := b.forEach.(hclsyntax.Expression)
			if !ok {
				return nil
			}
			s, rest = c.shapeIn(fe, locals).elem(), rest[1:]
		default:
			return nil
		}
	} else {
		ref, _ := refs.Parse(t, c.m)
		if ref == nil {
			return nil
		}
		rest = ref.Remaining
		switch sub := ref.Subject.(type) {
		case refs.InputVariable:
			if !c.a.called {
				return knownShape() // a root module's input
			}
			s = c.a.varShapes[sub.Name]
		case refs.LocalValue:
			l := c.m.Locals[sub.Name]
			if l == nil || locals[sub.Name] {
				return nil
			}
			le, ok := l.Expr.(hclsyntax.Expression)
			if !ok {
				return nil
			}
			locals[sub.Name] = true
			s = c.shapeIn(le, locals)
			delete(locals, sub.Name)
		default:
			return nil
		}
	}
	for _, step := range rest {
		if s.isKnown() {
			return s // all of it known: so is what is read from it
		}
		switch st := step.(type) {
		case hcl.TraverseAttr:
			s = s.field(st.Name)
		case hcl.TraverseIndex:
			if k := st.Key; k.IsKnown() && !k.IsNull() && k.Type() == cty.String {
				s = s.field(k.AsString())
			} else {
				s = s.elem()
			}
		default:
			return nil
		}
	}
	return s
}

// shapedNullComparison converts X == null and X != null (negate) where
// the shape of X tells that it is known while planning (CUE's own
// comparison), or that it is never a value not known as a whole and is
// null or a collection (one its expression builds, or of a list or map
// kind): its unification with null (see the comment at the top of this
// file). false where its shape tells neither.
func (c *converter) shapedNullComparison(e *hclsyntax.BinaryOpExpr, x ast.Expr, xk kind, y ast.Expr, yk kind, negate bool) (ast.Expr, bool) {
	side, sx, sk := e.LHS, x, xk
	switch {
	case isNullExpr(e.RHS):
	case isNullExpr(e.LHS):
		side, sx, sk = e.RHS, y, yk
	default:
		return nil, false
	}
	s := c.shapeOf(side)
	op := map[bool]token.Token{false: token.EQL, true: token.NEQ}[negate]
	switch {
	case s.isKnown():
		return binary(op, x, y), true
	case s == nil || !s.settled:
		return nil, false
	}
	collection := func(k kind) bool { return k == kindList || k == kindMap }
	if s.nonNull && s.collection || collection(sk) || collection(kindOfType(c.typeOf(side))) {
		return binary(op, nullOrZero(sx, ident("null")), ident("null")), true
	}
	return nil, false
}
