package convert

import (
	"fmt"
	"strings"

	"cuelang.org/go/cue/ast"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	ctyconvert "github.com/zclconf/go-cty/cty/convert"
	ctyfunction "github.com/zclconf/go-cty/cty/function"

	"github.com/tofucue/tofucue/config"
	tofufuncs "github.com/tofucue/tofucue/functions"
)

// refusal is what OpenTofu's type checking refuses in e, from the types
// typeOf knows in full, where CUE would take it: a set indexed, an
// attribute or key an object type does not have, a conditional whose
// results have no common type (a number and a list), a function whose
// arguments' types it does not take. ok is false when nothing is
// refused, or when a type is not known.
func (a *analysis) refusal(in names, e hclsyntax.Expression) (summary, detail string, ok bool) {
	switch e := e.(type) {
	case *hclsyntax.IndexExpr:
		return refusedStep(a.typeOf(in, e.Collection), constKey(e.Key))
	case *hclsyntax.RelativeTraversalExpr:
		return refusedSteps(a.typeOf(in, e.Source), e.Traversal)
	case *hclsyntax.ScopeTraversalExpr:
		t := e.Traversal
		if t.RootName() != "var" || len(t) < 3 {
			return "", "", false
		}
		at, isAttr := t[1].(hcl.TraverseAttr)
		if !isAttr {
			return "", "", false
		}
		v := a.m.Variables[at.Name]
		if v == nil || v.Type == cty.NilType {
			return "", "", false
		}
		return refusedSteps(v.Type, t[2:])
	case *hclsyntax.ConditionalExpr:
		t, f := a.typeOf(in, e.TrueResult), a.typeOf(in, e.FalseResult)
		if t.HasDynamicTypes() || f.HasDynamicTypes() || shapeOf(t) == shapeOf(f) {
			return "", "", false
		}
		return "Inconsistent conditional result types",
			fmt.Sprintf("The true and false result expressions must have consistent types: the true result is %s and the false result is %s.", t.FriendlyName(), f.FriendlyName()), true
	case *hclsyntax.FunctionCallExpr:
		return a.refusedCall(in, e)
	}
	return "", "", false
}

// shapeOf sorts a type known in full into a primitive, a list-like (list,
// set, tuple) or a map-like (map, object) one: types of different shapes
// have no common type, whatever their elements.
func shapeOf(ty cty.Type) int {
	switch {
	case ty.IsPrimitiveType():
		return 0
	case ty.IsListType(), ty.IsSetType(), ty.IsTupleType():
		return 1
	case ty.IsMapType(), ty.IsObjectType():
		return 2
	}
	return 3
}

// constKey is the value of an index key known when converting, or an
// unknown value.
func constKey(e hclsyntax.Expression) cty.Value {
	if v, ok := constValue(e); ok {
		return v
	}
	return cty.DynamicVal
}

// refusedSteps is refusedStep along a traversal from a value of type ty.
func refusedSteps(ty cty.Type, t hcl.Traversal) (string, string, bool) {
	for _, s := range t {
		var key cty.Value
		switch s := s.(type) {
		case hcl.TraverseAttr:
			if ty.IsObjectType() && !ty.HasAttribute(s.Name) {
				return "Unsupported attribute", fmt.Sprintf("This object does not have an attribute named %q.", s.Name), true
			}
			key = cty.StringVal(s.Name)
		case hcl.TraverseIndex:
			key = s.Key
		default:
			return "", "", false
		}
		if sum, det, ok := refusedStep(ty, key); ok {
			return sum, det, ok
		}
		ty = stepType(ty, hcl.Traversal{hcl.TraverseIndex{Key: key}})
		if ty == cty.DynamicPseudoType {
			return "", "", false
		}
	}
	return "", "", false
}

// refusedStep is what OpenTofu refuses of indexing a value of type ty
// with key: any key of a set, and a key known now that an object type
// does not have.
func refusedStep(ty cty.Type, key cty.Value) (string, string, bool) {
	switch {
	case ty.IsSetType():
		return "Invalid index", "Elements of a set are identified only by their value and don't have any separate index or key to select with, so it is only possible to perform operations across all elements of the set.", true
	case ty.IsObjectType() && key.IsKnown() && !key.IsNull() && key.Type() == cty.String && !ty.HasAttribute(key.AsString()):
		return "Invalid index", fmt.Sprintf("The given key does not identify an element in this collection value: this object has no attribute %q.", key.AsString()), true
	}
	return "", "", false
}

// refusedCall is what OpenTofu refuses of a function call from its
// arguments' types alone, each known in full: the function's own type
// check (setunion of elements with no common type, keys of a string),
// and lookup without a default of a key an object type does not have.
func (a *analysis) refusedCall(in names, e *hclsyntax.FunctionCallExpr) (string, string, bool) {
	name := strings.TrimPrefix(e.Name, "core::")
	spec, ok := tofufuncs.Lookup(name)
	if !ok || e.ExpandFinal || spec.ReadsFiles {
		return "", "", false
	}
	sig := signatures[name]
	for i := range e.Args {
		// try and can take expressions, not values.
		if pt, ok := paramType(sig, i); ok && pt.IsCapsuleType() {
			return "", "", false
		}
	}
	args := make([]cty.Type, len(e.Args))
	for i, arg := range e.Args {
		args[i] = a.typeOf(in, arg)
		if args[i].HasDynamicTypes() {
			return "", "", false
		}
	}
	if name == "lookup" && len(args) == 2 && args[0].IsObjectType() {
		if k, ok := constValue(e.Args[1]); ok && k.Type() == cty.String && !k.IsNull() && !args[0].HasAttribute(k.AsString()) {
			return "Invalid function argument", fmt.Sprintf("Invalid value for \"inputMap\" parameter: the given object has no attribute %q.", k.AsString()), true
		}
	}
	// A call with values not known of those types is checked as HCL
	// checks a call: each argument converted to its parameter's type,
	// then the function's own type check.
	if spec.TypeFromValues {
		// Only the arguments' conversions are checked below.
		sig = untyped(sig)
	}
	if len(args) < len(sig.Params()) || sig.VarParam() == nil && len(args) > len(sig.Params()) {
		return "", "", false // the call's conversion reports the arity
	}
	vals := make([]cty.Value, len(args))
	for i, ty := range args {
		pt, _ := paramType(sig, i)
		v, err := ctyconvert.Convert(cty.UnknownVal(ty), pt)
		if err != nil {
			return "Invalid function argument", fmt.Sprintf("Invalid value for argument %d of %s: %s.", i+1, name, strings.TrimSuffix(err.Error(), ".")), true
		}
		vals[i] = v
	}
	if _, err := sig.Call(vals); err != nil {
		return "Invalid function argument", fmt.Sprintf("Call to function %q failed: %s.", name, strings.TrimSuffix(err.Error(), ".")), true
	}
	return "", "", false
}

// untyped is f with its parameters and no type check of its own: a call
// of it fails only where an argument does not convert to its parameter's
// type.
func untyped(f ctyfunction.Function) ctyfunction.Function {
	return ctyfunction.New(&ctyfunction.Spec{
		Params:   f.Params(),
		VarParam: f.VarParam(),
		Type:     ctyfunction.StaticReturnType(cty.DynamicPseudoType),
		Impl: func([]cty.Value, cty.Type) (cty.Value, error) {
			return cty.DynamicVal, nil
		},
	})
}

// refused writes what OpenTofu refuses as a CUE error with OpenTofu's
// message, which fails where it is evaluated as OpenTofu does, and warns
// of it.
func (c *converter) refused(rng hcl.Range, summary, detail string) ast.Expr {
	if !c.a.tolerated(rng) {
		c.diags = append(c.diags, &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  summary,
			Detail:   detail + " OpenTofu fails where it evaluates this expression, and so does the CUE form.",
			Subject:  rng.Ptr(),
		})
	}
	return ast.NewCall(ident("error"), stringLit(summary+": "+detail))
}

// tolerated is whether rng lies in an argument of try (but its last) or
// of can, which take an error for an answer: there the CUE error is that
// answer, and nothing is worth a warning.
func (a *analysis) tolerated(rng hcl.Range) bool {
	if a.tolerant == nil {
		a.tolerant = []hcl.Range{}
		for _, f := range a.m.Files {
			body, ok := f.Body.(*hclsyntax.Body)
			if !ok {
				continue
			}
			_ = hclsyntax.VisitAll(body, func(n hclsyntax.Node) hcl.Diagnostics {
				call, ok := n.(*hclsyntax.FunctionCallExpr)
				if !ok {
					return nil
				}
				args := call.Args
				switch strings.TrimPrefix(call.Name, "core::") {
				case "try":
					if len(args) > 0 {
						args = args[:len(args)-1]
					}
				case "can":
				default:
					return nil
				}
				for _, arg := range args {
					a.tolerant = append(a.tolerant, arg.Range())
				}
				return nil
			})
		}
	}
	for _, r := range a.tolerant {
		if r.Filename == rng.Filename && r.Start.Byte <= rng.Start.Byte && rng.End.Byte <= r.End.Byte {
			return true
		}
	}
	return false
}

// sensitiveOutput is, for an output of the root module not declared
// sensitive, the sensitive input variable its value is computed from
// (directly or through local values), which OpenTofu refuses: "Output
// refers to sensitive values". An expression that calls nonsensitive,
// issensitive or a function that looks at a value without giving it
// (can, try, type, length), or holds a conditional (whose result not
// taken leaves no mark), is not followed.
func (a *analysis) sensitiveOutput(o *config.Output) (string, bool) {
	if a.called || o.Sensitive {
		return "", false
	}
	// What removes the mark, or may: a call that gives the value
	// unmarked or only looks at it, and a conditional, whose result not
	// taken leaves no mark.
	unmarks := func(e hcl.Expression) bool {
		x, ok := e.(hclsyntax.Expression)
		if !ok {
			return true
		}
		found := false
		_ = hclsyntax.VisitAll(x, func(n hclsyntax.Node) hcl.Diagnostics {
			switch n := n.(type) {
			case *hclsyntax.FunctionCallExpr:
				switch strings.TrimPrefix(n.Name, "core::") {
				case "nonsensitive", "issensitive", "can", "try", "type", "length":
					found = true
				}
			case *hclsyntax.ConditionalExpr:
				found = true
			}
			return nil
		})
		return found
	}
	var name string
	sensitive := func(t hcl.Traversal) bool {
		if t.RootName() != "var" || len(t) < 2 {
			return false
		}
		at, ok := t[1].(hcl.TraverseAttr)
		if v := a.m.Variables[at.Name]; ok && v != nil && v.Sensitive {
			name = at.Name
			return true
		}
		return false
	}
	found := a.refersTo(o.Expr, sensitive, unmarks)
	return name, found
}
