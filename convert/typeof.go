package convert

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	ctyconvert "github.com/zclconf/go-cty/cty/convert"

	tofufuncs "github.com/tofucue/tofucue/functions"
	"github.com/tofucue/tofucue/refs"
)

// typeOf works out the type OpenTofu gives an expression before it
// evaluates it, as far as the module says: a variable's type constraint,
// a literal's type, the type a function returns for its arguments' types
// (OpenTofu's own signature of the function, from package functions), the
// elements and attributes of the collections and objects built or read,
// and the variables of for expressions. It is cty.DynamicPseudoType where
// that is not known. The writer takes what it chooses from it: a for over
// a list needs no ordering of keys, lower(v) of a string needs no
// conversion to string. What CUE computes per element where the type is
// not known (a kind test) is what makes a chain of module calls cost
// more with each call, so each type known here is work saved at each
// call of each layer.
func (a *analysis) typeOf(in names, e hcl.Expression) (ty cty.Type) {
	defer func() {
		// A function's type check may panic on arguments it does not
		// expect; the type is then not known.
		if recover() != nil {
			ty = cty.DynamicPseudoType
		}
	}()
	switch e := e.(type) {
	case *hclsyntax.LiteralValueExpr:
		if e.Val.IsNull() {
			return cty.DynamicPseudoType
		}
		return e.Val.Type()
	case *hclsyntax.TemplateExpr, *hclsyntax.TemplateJoinExpr:
		return cty.String
	case *hclsyntax.TemplateWrapExpr:
		return a.typeOf(in, e.Wrapped)
	case *hclsyntax.ParenthesesExpr:
		return a.typeOf(in, e.Expression)
	case *hclsyntax.TupleConsExpr:
		tys := make([]cty.Type, len(e.Exprs))
		for i, x := range e.Exprs {
			tys[i] = a.typeOf(in, x)
		}
		return cty.Tuple(tys)
	case *hclsyntax.ObjectConsExpr:
		attrs := map[string]cty.Type{}
		for _, it := range e.Items {
			name, ok := objectKeyName(it.KeyExpr)
			if !ok {
				return cty.DynamicPseudoType
			}
			attrs[name] = a.typeOf(in, it.ValueExpr)
		}
		return cty.Object(attrs)
	case *hclsyntax.ScopeTraversalExpr:
		return a.traversalType(in, e.Traversal)
	case *hclsyntax.RelativeTraversalExpr:
		return stepType(a.typeOf(in, e.Source), e.Traversal)
	case *hclsyntax.IndexExpr:
		ct := a.typeOf(in, e.Collection)
		key, ok := constValue(e.Key)
		if !ok {
			key = cty.UnknownVal(a.typeOf(in, e.Key))
		}
		return stepType(ct, hcl.Traversal{hcl.TraverseIndex{Key: key}})
	case *hclsyntax.FunctionCallExpr:
		f, ok := signatures[e.Name]
		if !ok || e.ExpandFinal {
			return cty.DynamicPseudoType
		}
		// An argument of a type not known is taken for the parameter's
		// type, which OpenTofu converts it to (or refuses it): compact of
		// anything is a list of strings.
		args := make([]cty.Type, len(e.Args))
		for i, arg := range e.Args {
			args[i] = a.typeOf(in, arg)
			pt, ok := paramType(f, i)
			if !ok {
				continue
			}
			// A type with parts not known that converts to a parameter
			// type known in full is taken for it: a list of anything
			// given to compact is a list of strings.
			if args[i] == cty.DynamicPseudoType || args[i].HasDynamicTypes() && !pt.HasDynamicTypes() && ctyconvert.GetConversionUnsafe(args[i], pt) != nil {
				args[i] = pt
			}
		}
		if e.Name == "try" {
			// try's type is that of the first argument that evaluates,
			// which types alone do not tell: its type check evaluates
			// the arguments, cannot with unknown values and panics,
			// which cty recovers from with a stack trace (4% of the
			// CPU time of converting the corpus). The answer is always
			// "not known" (TestTypeOfTry); the arguments' types are
			// still worked out above, as they fill the locals' cache.
			return cty.DynamicPseudoType
		}
		// The arguments known when converting are given as they are,
		// which a type check may read: lookup(x, "name", null) of an
		// object x has the type of x's attribute name.
		vals := make([]cty.Value, len(e.Args))
		for i, arg := range e.Args {
			if v, ok := constValue(arg); ok {
				vals[i] = v
			} else {
				vals[i] = cty.UnknownVal(args[i])
			}
		}
		rt, err := f.ReturnTypeForValues(vals)
		if err != nil {
			return cty.DynamicPseudoType
		}
		// A conversion to a collection type has the elements' type of
		// the value converted: tolist(["a"]) is a list(string).
		if s, _ := tofufuncs.Lookup(e.Name); s.Converts && len(args) == 1 && rt.HasDynamicTypes() && !args[0].HasDynamicTypes() {
			if v, err := ctyconvert.Convert(cty.UnknownVal(args[0]), rt); err == nil {
				return v.Type()
			}
		}
		return rt
	case *hclsyntax.ConditionalExpr:
		a, b := a.typeOf(in, e.TrueResult), a.typeOf(in, e.FalseResult)
		if a.Equals(b) {
			return a
		}
		if u, _ := ctyconvert.UnifyUnsafe([]cty.Type{a, b}); u != cty.NilType {
			return u
		}
		return cty.DynamicPseudoType
	case *hclsyntax.BinaryOpExpr:
		switch e.Op {
		case hclsyntax.OpAdd, hclsyntax.OpSubtract, hclsyntax.OpMultiply, hclsyntax.OpDivide, hclsyntax.OpModulo:
			return cty.Number
		}
		return cty.Bool
	case *hclsyntax.UnaryOpExpr:
		if e.Op == hclsyntax.OpLogicalNot {
			return cty.Bool
		}
		return cty.Number
	case *hclsyntax.ForExpr:
		if e.Group {
			return cty.DynamicPseudoType
		}
		kt, vt := elementTypes(a.typeOf(in, e.CollExpr))
		bound := map[string]nameFacts{e.ValVar: {ty: vt}}
		if e.KeyVar != "" {
			bound[e.KeyVar] = nameFacts{ty: kt}
		}
		et := a.typeOf(within{in, bound}, e.ValExpr)
		if e.KeyExpr != nil {
			return cty.Map(et)
		}
		return cty.List(et)
	}
	return cty.DynamicPseudoType
}

// traversalType is the type of var.X..., local.X... or a for variable's
// value and the steps after it.
func (a *analysis) traversalType(in names, t hcl.Traversal) cty.Type {
	root := t.RootName()
	if b, ok := in.facts(root); ok {
		if b.ty == cty.NilType {
			return cty.DynamicPseudoType
		}
		return stepType(b.ty, t[1:])
	}
	switch s := subjectOf(t, a.m).(type) {
	case refs.InputVariable:
		if v := a.m.Variables[s.Name]; v != nil && v.Type != cty.NilType {
			return stepType(v.Type, t[2:])
		}
	case refs.LocalValue:
		return stepType(a.localType(s.Name), t[2:])
	}
	return cty.DynamicPseudoType
}

// localType is typeOf a local value's expression.
func (a *analysis) localType(name string) cty.Type {
	return perLocal(a, a.localTypes, name, cty.DynamicPseudoType, func(e hcl.Expression) cty.Type { return a.typeOf(noNames{}, e) })
}

// stepType is the type of what the steps t reach in a value of type ty.
func stepType(ty cty.Type, t hcl.Traversal) cty.Type {
	for _, s := range t {
		if ty == cty.DynamicPseudoType {
			return ty
		}
		var key cty.Value
		switch s := s.(type) {
		case hcl.TraverseAttr:
			key = cty.StringVal(s.Name)
		case hcl.TraverseIndex:
			key = s.Key
		default:
			return cty.DynamicPseudoType
		}
		switch {
		case ty.IsListType() || ty.IsSetType() || ty.IsMapType():
			ty = ty.ElementType()
		case ty.IsObjectType() && key.IsKnown() && key.Type() == cty.String && ty.HasAttribute(key.AsString()):
			ty = ty.AttributeType(key.AsString())
		case ty.IsObjectType() && !key.IsKnown():
			// A key not known reaches one of the attributes: their type
			// where they all have one.
			ty = sameType(attributeTypes(ty))
		case ty.IsTupleType() && !key.IsKnown():
			ty = sameType(ty.TupleElementTypes())
		case ty.IsTupleType() && key.IsKnown() && key.Type() == cty.Number:
			i, acc := key.AsBigFloat().Int64()
			elems := ty.TupleElementTypes()
			if acc != 0 || i < 0 || int(i) >= len(elems) {
				return cty.DynamicPseudoType
			}
			ty = elems[i]
		default:
			return cty.DynamicPseudoType
		}
	}
	return ty
}

// elementTypes are the types of the keys and values a for expression
// iterates in a collection of type ty (cty.DynamicPseudoType where not
// known): a tuple's or an object's elements must be of one type.
func elementTypes(ty cty.Type) (key, val cty.Type) {
	switch {
	case ty.IsListType():
		return cty.Number, ty.ElementType()
	case ty.IsSetType():
		return ty.ElementType(), ty.ElementType()
	case ty.IsMapType():
		return cty.String, ty.ElementType()
	case ty.IsTupleType():
		return cty.Number, sameType(ty.TupleElementTypes())
	case ty.IsObjectType():
		return cty.String, sameType(attributeTypes(ty))
	}
	return cty.DynamicPseudoType, cty.DynamicPseudoType
}

// sameType is the one type of all of tys, or cty.DynamicPseudoType.
func sameType(tys []cty.Type) cty.Type {
	if len(tys) == 0 {
		return cty.DynamicPseudoType
	}
	for _, t := range tys[1:] {
		if !t.Equals(tys[0]) {
			return cty.DynamicPseudoType
		}
	}
	return tys[0]
}

// attributeTypes are the types of an object type's attributes.
func attributeTypes(ty cty.Type) []cty.Type {
	var tys []cty.Type
	for _, t := range ty.AttributeTypes() {
		tys = append(tys, t)
	}
	return tys
}

// eachType is the type of each in the instances of a block whose
// for_each is forEach: its key is a string, and its value an element of
// forEach as elementOf gives it.
func (a *analysis) eachType(in names, forEach hcl.Expression) cty.Type {
	return cty.Object(map[string]cty.Type{"key": cty.String, "value": elementOf(a.typeOf(in, forEach))})
}
