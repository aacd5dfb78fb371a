package config

import (
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// Variable is an input variable declaration.
type Variable struct {
	declBase
	Name        string
	Description string
	// Type is the type constraint; cty.DynamicPseudoType when none is given.
	Type cty.Type
	// TypeDefaults holds the optional(T, default) defaults of Type; nil when
	// it has none.
	TypeDefaults *typeexpr.Defaults
	// TypeExpr is the type expression as written; nil when there is none.
	TypeExpr hcl.Expression
	// Default is the default value converted to Type, with optional
	// attribute defaults applied; cty.NilVal when there is no default (the
	// variable is required). A default of null is cty.NullVal.
	Default     cty.Value
	DefaultExpr hcl.Expression
	Sensitive   bool
	Ephemeral   bool
	// Const marks a variable whose value must be known before planning, so
	// that static expressions (module sources) can use it.
	Const bool
	// Nullable is true unless nullable = false is given.
	Nullable    bool
	NullableSet bool
	Deprecated  string
	Validations []*CheckRule

	sensitiveSet, ephemeralSet, descriptionSet, constSet bool
}

// Required reports whether the variable has no default value.
func (v *Variable) Required() bool { return v.Default == cty.NilVal }

// CheckRule is a validation, precondition, postcondition or assert block.
type CheckRule struct {
	Condition    hcl.Expression
	ErrorMessage hcl.Expression
	DeclRange    hcl.Range
}

// reservedVariableNames are the names that mean something else in a module
// block, and so cannot name an input variable.
var reservedVariableNames = []string{"source", "version", "providers", "count", "for_each", "depends_on", "lifecycle", "locals", "_"}

var variableSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "description"},
		{Name: "default"},
		{Name: "type"},
		{Name: "sensitive"},
		{Name: "nullable"},
		{Name: "ephemeral"},
		{Name: "deprecated"},
		{Name: "const"},
	},
	Blocks: []hcl.BlockHeaderSchema{{Type: "validation"}},
}

func (d *decoder) decodeVariable(block *hcl.Block) *Variable {
	v := &Variable{declBase: baseOf(block), Name: block.Labels[0], Type: cty.DynamicPseudoType, Nullable: true}
	content := d.content(block.Body, variableSchema)

	if d.checkName(v.Name, block.LabelRanges[0], "Invalid variable name") && slices.Contains(reservedVariableNames, v.Name) {
		d.errorf(block.LabelRanges[0], "Invalid variable name", "The variable name %q is reserved due to its special meaning inside module blocks.", v.Name)
	}
	if attr, ok := content.Attributes["description"]; ok {
		v.descriptionSet = d.decodeValue(attr, &v.Description)
	}
	if attr, ok := content.Attributes["type"]; ok {
		v.TypeExpr = attr.Expr
		v.Type, v.TypeDefaults = d.decodeTypeConstraint(attr.Expr)
	}
	if attr, ok := content.Attributes["sensitive"]; ok {
		v.sensitiveSet = d.decodeValue(attr, &v.Sensitive)
	}
	if attr, ok := content.Attributes["ephemeral"]; ok {
		v.ephemeralSet = d.decodeValue(attr, &v.Ephemeral)
	}
	if attr, ok := content.Attributes["const"]; ok {
		v.constSet = d.decodeValue(attr, &v.Const)
	}
	if attr, ok := content.Attributes["nullable"]; ok {
		v.NullableSet = d.decodeValue(attr, &v.Nullable)
	}
	if attr, ok := content.Attributes["deprecated"]; ok {
		if d.decodeValue(attr, &v.Deprecated) && strings.TrimSpace(v.Deprecated) == "" {
			d.errorf(block.LabelRanges[0], "Invalid `deprecated` value",
				`The "deprecated" argument must not be empty, and should provide instructions on how to migrate away from usage of this deprecated variable.`)
		}
	}
	if attr, ok := content.Attributes["default"]; ok {
		v.DefaultExpr = attr.Expr
		val, diags := attr.Expr.Value(nil)
		d.report(diags...)
		if !diags.HasErrors() {
			v.Default = val
		} else {
			v.Default = cty.DynamicVal
		}
	}
	v.checkDefault(d)

	for _, b := range content.Blocks {
		rule := d.decodeCheckRule(b, "validation")
		if rule == nil {
			continue
		}
		v.Validations = append(v.Validations, rule)
		if rule.Condition != nil && !refersToVariable(rule.Condition, v.Name) {
			d.errorf(rule.Condition.Range(), "Invalid variable validation condition",
				"The condition for variable %q must refer to var.%s in order to test incoming values.", v.Name, v.Name)
		}
	}
	return v
}

// checkDefault converts the default value to the type constraint, applying
// optional attribute defaults first, and reports a default that does not
// conform. It is run again when an override changes the type or default.
func (v *Variable) checkDefault(d *decoder) {
	if v.Default == cty.NilVal || v.DefaultExpr == nil || !v.Default.IsWhollyKnown() {
		return
	}
	rng := v.DefaultExpr.Range()
	if v.Default.IsNull() {
		if v.NullableSet && !v.Nullable {
			d.reportKind(KindDefaultType, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid default value for variable",
				Detail: "A null default value is not valid when nullable=false.", Subject: rng.Ptr()})
		}
		return
	}
	if v.Type == cty.NilType {
		return
	}
	d.warnUnusedDefaultAttrs(v.Default, v.DefaultExpr, v.Type, nil)
	val := v.Default
	if v.TypeDefaults != nil {
		val = v.TypeDefaults.Apply(val)
	}
	converted, err := convert.Convert(val, v.Type)
	if err != nil {
		d.reportKind(KindDefaultType, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid default value for variable",
			Detail:  fmt.Sprintf("This default value is not compatible with the variable's type constraint: %s.", describeConversionError(err)),
			Subject: rng.Ptr()})
		v.Default = cty.DynamicVal
		return
	}
	v.Default = converted
}

// describeConversionError names the path of a cty conversion error.
func describeConversionError(err error) string {
	var pe cty.PathError
	if errors.As(err, &pe) && len(pe.Path) > 0 {
		return fmt.Sprintf("%s: %s", formatPath(pe.Path), pe.Error())
	}
	return err.Error()
}

// formatPath writes a cty path the way a user writes the expression.
func formatPath(path cty.Path) string {
	var b strings.Builder
	for _, step := range path {
		switch s := step.(type) {
		case cty.GetAttrStep:
			fmt.Fprintf(&b, ".%s", s.Name)
		case cty.IndexStep:
			switch {
			case s.Key.Type() == cty.String:
				fmt.Fprintf(&b, "[%q]", s.Key.AsString())
			case s.Key.Type() == cty.Number:
				fmt.Fprintf(&b, "[%s]", s.Key.AsBigFloat().Text('f', -1))
			default:
				b.WriteString("[...]")
			}
		}
	}
	return strings.TrimPrefix(b.String(), ".")
}

// warnUnusedDefaultAttrs reports object attributes in a default value that
// the type constraint does not have: conversion drops them silently. The
// warning points at the attribute's name where the syntax can be followed
// to it, through object and tuple constructors at any depth.
func (d *decoder) warnUnusedDefaultAttrs(val cty.Value, expr hcl.Expression, ty cty.Type, path cty.Path) {
	if val.IsNull() || !val.IsKnown() {
		return
	}
	switch {
	case ty.IsObjectType() && (val.Type().IsObjectType() || val.Type().IsMapType()):
		items := ItemsOf(expr).Keys
		for name, attr := range val.AsValueMap() {
			item, found := items[name]
			if !ty.HasAttribute(name) {
				noun := "The object type for this variable"
				if len(path) > 0 {
					noun = "The object type for " + formatPath(path)
				}
				rng := exprRange(expr)
				if found {
					rng = item.Key.Range()
				}
				d.reportKind(KindLossyDefault, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Object attribute is ignored",
					Detail:  fmt.Sprintf("%s does not include an attribute named %q, so this definition is unused.", noun, name),
					Subject: rng.Ptr()})
				continue
			}
			sub := expr
			if found {
				sub = item.Value
			}
			d.warnUnusedDefaultAttrs(attr, sub, ty.AttributeType(name), append(path, cty.GetAttrStep{Name: name}))
		}
	case (ty.IsMapType() || ty.IsListType() || ty.IsSetType()) && val.CanIterateElements():
		et := ty.ElementType()
		items := ItemsOf(expr)
		for it := val.ElementIterator(); it.Next(); {
			k, ev := it.Element()
			// Where the syntax cannot be followed (a set's elements, a
			// non-literal expression), the warning points at expr.
			sub := items.Step(cty.IndexStep{Key: k})
			if sub == nil {
				sub = expr
			}
			d.warnUnusedDefaultAttrs(ev, sub, et, append(path, cty.IndexStep{Key: k}))
		}
	}
}

func exprRange(expr hcl.Expression) hcl.Range {
	if expr == nil {
		return hcl.Range{}
	}
	return expr.Range()
}

// ConsItems are the parts of a tuple or object constructor: elements by
// position, attributes by key. Both are empty for any other expression.
type ConsItems struct {
	Elems []hcl.Expression
	Keys  map[string]hcl.KeyValuePair
}

// ItemsOf reads a tuple or object constructor, native or JSON, with hcl's
// static analysis functions.
func ItemsOf(expr hcl.Expression) ConsItems {
	var out ConsItems
	if expr == nil {
		return out
	}
	if _, isObj := expr.(*hclsyntax.ObjectConsExpr); !isObj {
		if list, diags := hcl.ExprList(expr); !diags.HasErrors() {
			out.Elems = list
			return out
		}
	}
	if _, isTuple := expr.(*hclsyntax.TupleConsExpr); isTuple {
		return out
	}
	pairs, diags := hcl.ExprMap(expr)
	if diags.HasErrors() {
		return out
	}
	out.Keys = make(map[string]hcl.KeyValuePair, len(pairs))
	for _, pair := range pairs {
		if k := hcl.ExprAsKeyword(pair.Key); k != "" {
			out.Keys[k] = pair
			continue
		}
		if v, diags := pair.Key.Value(nil); !diags.HasErrors() && v.IsKnown() && !v.IsNull() && v.Type() == cty.String {
			out.Keys[v.AsString()] = pair
		}
	}
	return out
}

// Step returns the expression of one path step inside the constructor, or
// nil when the syntax does not say (a set element, an attribute added by
// an optional() default, a computed key).
func (it ConsItems) Step(s cty.PathStep) hcl.Expression {
	switch s := s.(type) {
	case cty.GetAttrStep:
		if pair, ok := it.Keys[s.Name]; ok {
			return pair.Value
		}
	case cty.IndexStep:
		k := s.Key
		if !k.IsKnown() || k.IsNull() {
			return nil
		}
		switch k.Type() {
		case cty.String:
			if pair, ok := it.Keys[k.AsString()]; ok {
				return pair.Value
			}
		case cty.Number:
			if i, acc := k.AsBigFloat().Int64(); acc == big.Exact && i >= 0 && i < int64(len(it.Elems)) {
				return it.Elems[i]
			}
		}
	}
	return nil
}

// ExprAtPath follows path from the expression that wrote a value to the
// expression that wrote the part of the value at path, as deep as the
// syntax allows. It returns that expression and how many steps it
// followed.
func ExprAtPath(expr hcl.Expression, path cty.Path) (hcl.Expression, int) {
	for i, s := range path {
		next := ItemsOf(UnwrapParens(expr)).Step(s)
		if next == nil {
			return expr, i
		}
		expr = next
	}
	return expr, len(path)
}

// UnwrapParens returns the expression inside any parentheses around expr.
func UnwrapParens(expr hcl.Expression) hcl.Expression {
	for {
		p, ok := expr.(*hclsyntax.ParenthesesExpr)
		if !ok {
			return expr
		}
		expr = p.Expression
	}
}

// ConstantKey is an object constructor's key as the string OpenTofu makes
// of it, where it is known without evaluation: a bare name, or a
// constant (1 = "x" has the key "1").
func ConstantKey(e hclsyntax.Expression) (string, bool) {
	if k, ok := e.(*hclsyntax.ObjectConsKeyExpr); ok {
		if !k.ForceNonLiteral {
			if name := hcl.ExprAsKeyword(k.Wrapped); name != "" {
				return name, true
			}
		}
		e = k.Wrapped
	}
	v, diags := e.Value(nil)
	if diags.HasErrors() || !v.IsWhollyKnown() || v.IsNull() {
		return "", false
	}
	s, err := convert.Convert(v, cty.String)
	if err != nil {
		return "", false
	}
	return s.AsString(), true
}

// decodeTypeConstraint reads a variable's type expression, with optional()
// attributes and their defaults. The bare keywords list and map mean list(any)
// and map(any), as in OpenTofu; a quoted type is the OpenTofu 0.11 form,
// which is an error now.
func (d *decoder) decodeTypeConstraint(expr hcl.Expression) (cty.Type, *typeexpr.Defaults) {
	if isStringLiteral(expr) {
		val, _ := expr.Value(nil)
		s := val.AsString()
		switch s {
		case "string":
			d.errorf(expr.Range(), "Invalid quoted type constraints", "OpenTofu 0.11 and earlier required type constraints to be given in quotes, but that form is now deprecated and will be removed in a future version of OpenTofu. Remove the quotes around \"string\".")
		case "list", "map":
			d.errorf(expr.Range(), "Invalid quoted type constraints", "OpenTofu 0.11 and earlier required type constraints to be given in quotes, but that form is now deprecated and will be removed in a future version of OpenTofu. Remove the quotes around %q and write %s(string) instead to explicitly indicate that the %s elements are strings.", s, s, s)
		default:
			d.errorf(expr.Range(), "Invalid legacy variable type hint", "To provide a full type expression, remove the surrounding quotes and give the type expression directly.")
		}
		return cty.DynamicPseudoType, nil
	}
	switch hcl.ExprAsKeyword(expr) {
	case "list":
		return cty.List(cty.DynamicPseudoType), nil
	case "map":
		return cty.Map(cty.DynamicPseudoType), nil
	}
	ty, defaults, diags := typeexpr.TypeConstraintWithDefaults(expr)
	markTypeDiagnostics(expr, diags)
	d.report(diags...)
	if diags.HasErrors() {
		return cty.DynamicPseudoType, nil
	}
	if defaults != nil && len(defaults.DefaultValues) == 0 && len(defaults.Children) == 0 {
		defaults = nil
	}
	return ty, defaults
}

// markTypeDiagnostics gives typeexpr's diagnostics about a type expression
// the Kind of the rule that reports them: a bare list, map or set where a
// type is expected (KindLegacyType), and a misused optional() modifier or
// its default (KindTypeConstraint). Other problems of the type stay plain
// loading errors.
func markTypeDiagnostics(expr hcl.Expression, diags hcl.Diagnostics) {
	if !diags.HasErrors() {
		return
	}
	var bare []hcl.Range
	optionals := TypeExprParts(expr, func(kw hcl.Expression, name string, _ bool) {
		if name == "list" || name == "map" || name == "set" {
			bare = append(bare, kw.Range())
		}
	})
	for _, diag := range diags {
		if diag.Subject == nil || diag.Extra != nil {
			continue
		}
		s := *diag.Subject
		if slices.Contains(bare, s) {
			diag.Extra = KindLegacyType
			continue
		}
		for _, opt := range optionals {
			call := opt.Call
			if s == call.NameRange || s == call.ArgsRange || (len(call.Arguments) > 1 && rangeWithin(call.Arguments[1].Range(), s)) {
				diag.Extra = KindTypeConstraint
				break
			}
		}
	}
}

// OptionalCall is an optional() modifier in a type expression, with the
// name of the object attribute it modifies ("" when it is misplaced).
type OptionalCall struct {
	Call *hcl.StaticCall
	Attr string
}

// TypeExprParts walks a type expression the way typeexpr reads it. It
// calls keyword, when set, for every keyword in a type position (with top
// set for the whole expression) and returns the optional() modifiers.
func TypeExprParts(expr hcl.Expression, keyword func(expr hcl.Expression, name string, top bool)) []OptionalCall {
	var optionals []OptionalCall
	var walk func(expr hcl.Expression, top bool)
	walk = func(expr hcl.Expression, top bool) {
		if kw := hcl.ExprAsKeyword(expr); kw != "" {
			if keyword != nil {
				keyword(expr, kw, top)
			}
			return
		}
		call, diags := hcl.ExprCall(expr)
		if diags.HasErrors() {
			return
		}
		switch call.Name {
		case "list", "map", "set":
			if len(call.Arguments) == 1 {
				walk(call.Arguments[0], false)
			}
		case "object":
			if len(call.Arguments) != 1 {
				return
			}
			pairs, diags := hcl.ExprMap(call.Arguments[0])
			if diags.HasErrors() {
				return
			}
			for _, pair := range pairs {
				if opt, diags := hcl.ExprCall(pair.Value); !diags.HasErrors() && opt.Name == "optional" {
					optionals = append(optionals, OptionalCall{Call: opt, Attr: hcl.ExprAsKeyword(pair.Key)})
					if len(opt.Arguments) > 0 {
						walk(opt.Arguments[0], false)
					}
					continue
				}
				walk(pair.Value, false)
			}
		case "tuple":
			if len(call.Arguments) != 1 {
				return
			}
			elems, diags := hcl.ExprList(call.Arguments[0])
			if diags.HasErrors() {
				return
			}
			for _, e := range elems {
				walk(e, false)
			}
		case "optional":
			optionals = append(optionals, OptionalCall{Call: call})
		}
	}
	walk(expr, true)
	return optionals
}

// rangeWithin reports whether inner lies inside outer.
func rangeWithin(outer, inner hcl.Range) bool {
	return outer.Filename == inner.Filename && outer.Start.Byte <= inner.Start.Byte && inner.End.Byte <= outer.End.Byte
}

// refersToVariable reports whether expr refers to var.name.
func refersToVariable(expr hcl.Expression, name string) bool {
	for _, tr := range expr.Variables() {
		if tr.RootName() != "var" || len(tr) < 2 {
			continue
		}
		if a, ok := tr[1].(hcl.TraverseAttr); ok && a.Name == name {
			return true
		}
	}
	return false
}

var checkRuleSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "condition", Required: true},
		{Name: "error_message", Required: true},
	},
}

// decodeCheckRule reads a validation, precondition, postcondition or assert
// block.
func (d *decoder) decodeCheckRule(block *hcl.Block, kind string) *CheckRule {
	content := d.content(block.Body, checkRuleSchema)
	r := &CheckRule{DeclRange: block.DefRange}
	if attr, ok := content.Attributes["condition"]; ok {
		r.Condition = attr.Expr
	}
	if attr, ok := content.Attributes["error_message"]; ok {
		r.ErrorMessage = attr.Expr
	}
	if (kind == "precondition" || kind == "postcondition") && r.Condition != nil && len(r.Condition.Variables()) == 0 {
		d.errorf(r.Condition.Range(), fmt.Sprintf("Invalid %s expression", kind),
			"The condition expression must refer to at least one object from elsewhere in the configuration, or else its result would not be checking anything.")
	}
	return r
}
