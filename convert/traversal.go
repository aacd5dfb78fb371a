package convert

import (
	"fmt"
	"path/filepath"

	"cuelang.org/go/cue/ast"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	ctyconvert "github.com/zclconf/go-cty/cty/convert"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/refs"
)

// traversal converts a reference such as var.x, aws_vpc.main.id or
// each.value.name.
func (c *converter) traversal(t hcl.Traversal, rng hcl.Range) (ast.Expr, kind) {
	root := t.RootName()
	rest := t[1:]

	if b, ok := c.lookup(root); ok {
		if b.templateVars != "" {
			// A template's variable: an attribute of its variables.
			return c.steps(selector(ident(b.templateVars), root), kindUnknown, rest)
		}
		if b.iterator {
			// A dynamic block's iterator: ITER.key and ITER.value.
			var name string
			var ok bool
			if len(rest) > 0 {
				name, ok = stepName(rest[0])
			}
			switch {
			case ok && name == "key":
				return c.steps(ident(b.key), kindUnknown, rest[1:])
			case ok && name == "value":
				return c.steps(ident(b.value), b.kind, rest[1:])
			}
			return c.badIterator(rng, root, b, rest), kindUnknown
		}
		return c.steps(ident(b.cue), b.kind, rest)
	}

	// What the reference names, as OpenTofu reads it (the resource.
	// prefix, opt-in features' symbols): refs is the one reader of
	// references; the bindings above are the converter's own, since they
	// stand for CUE identifiers.
	ref, _ := refs.Parse(t, c.m)
	var subject refs.Subject
	if ref != nil {
		subject = ref.Subject
	}
	switch s := subject.(type) {
	case refs.InputVariable:
		name := s.Name
		v := c.m.Variables[name]
		if v == nil {
			return c.unconverted(rng, "Reference to undeclared input variable",
				fmt.Sprintf("An input variable with the name %q has not been declared; tofu validate reports it.", name)), kindUnknown
		}
		ty := v.Type
		if c.child == "" {
			id, ok := varIdent(name)
			if !ok {
				return c.unconverted(rng, "Reference not converted",
					fmt.Sprintf("The input variable %q has a name that a CUE identifier cannot hold.", name)), kindUnknown
			}
			return c.typedSteps(ident(id), ty, rest[1:])
		}
		root := varRoot
		if readsArgument(v) {
			root = argRoot
		}
		x := selector(ident(root), name)
		return c.typedSteps(x, ty, rest[1:])
	case refs.LocalValue:
		name := s.Name
		l := c.m.Locals[name]
		if l == nil {
			return c.unconverted(rng, "Reference to undeclared local value",
				fmt.Sprintf("A local value with the name %q has not been declared; OpenTofu reports it when it evaluates the expression.", name)), kindUnknown
		}
		if _, native := l.Expr.(hclsyntax.Expression); !native {
			return c.unconverted(rng, "Reference not converted",
				fmt.Sprintf("local.%s is declared in %s, a file in the JSON syntax, which hcl2cue does not convert.", name, filepath.Base(l.Range.Filename))), kindUnknown
		}
		id, ok := localIdent(name)
		if !ok {
			return c.unconverted(rng, "Reference not converted",
				fmt.Sprintf("The local value %q has a name that a CUE identifier cannot hold.", name)), kindUnknown
		}
		return c.steps(ident(id), c.a.localKind(name), rest[1:])
	// count and each are bound in scope inside the instances of a
	// declaration that sets count or for_each (see instances), and are
	// found above; reaching here means the block sets neither.
	case refs.CountAttr:
		if s.Name == "index" {
			summary, detail := refs.OutOfContext(s)
			return c.unconverted(rng, summary, detail), kindUnknown
		}
	case refs.EachAttr:
		if s.Name == "key" || s.Name == "value" {
			summary, detail := refs.OutOfContext(s)
			return c.unconverted(rng, summary, detail), kindUnknown
		}
	case refs.PathAttr:
		if s.Name == "module" || s.Name == "root" || s.Name == "cwd" {
			c.usesPath = true
			return c.steps(selector(ident(pathRoot), s.Name), kindString, rest[1:])
		}
	case refs.TerraformAttr:
		if s.Name == "workspace" {
			c.usesWorkspace = true
			return c.steps(ident(workspaceRoot), kindString, rest[1:])
		}
	case refs.FeatureSymbol:
		return c.unconverted(rng, "Reference not converted",
			fmt.Sprintf("%s is a symbol of the opt-in feature %q, which the CUE form has no counterpart for.", traversalText(t), s.Feature.Name)), kindUnknown
	case refs.Self:
		return c.unconverted(rng, `Reference to "self" not converted`,
			`"self" refers to the resource being configured, which the CUE form has no name for yet.`), kindUnknown
	case refs.ModuleCall:
		return c.moduleRef(s.Name, rest[1:])
	case refs.ModuleCallInstance:
		return c.moduleRef(s.Call.Name, rest[1:])
	case refs.ModuleCallOutput:
		return c.moduleRef(s.Call.Call.Name, rest[1:])
	case refs.Resource, refs.ResourceInstance:
		r, n, _ := resourceNamed(ref)
		if c.m.Resource(r.Mode, r.Type, r.Name) == nil {
			return c.undeclared(rng, t), kindUnknown
		}
		return c.steps(pathExpr(c.resourcePath(r.Mode, r.Type, r.Name)), c.resourceKind(r.Mode, r.Type, r.Name), t[n:])
	}
	return c.unconverted(rng, "Reference not converted",
		fmt.Sprintf("hcl2cue cannot convert the reference %q.", traversalText(t))), kindUnknown
}

// subjectOf is what the reference t names, as OpenTofu reads it in module
// m (refs.Parse): nil where t is not a reference. A name bound in scope
// (a for variable, each, count) is the caller's to look up first.
func subjectOf(t hcl.Traversal, m *config.Module) refs.Subject {
	if ref, _ := refs.Parse(t, m); ref != nil {
		return ref.Subject
	}
	return nil
}

// resourceNamed is the resource that ref reads and how many steps of its
// traversal name it: 2 for TYPE.NAME, 3 with a data., ephemeral. or
// resource. prefix; an instance's key after them is a step of its own,
// which the converter reads with the resource's kind. false where ref
// reads no resource.
func resourceNamed(ref *refs.Reference) (refs.Resource, int, bool) {
	n := len(ref.Traversal) - len(ref.Remaining)
	switch s := ref.Subject.(type) {
	case refs.Resource:
		return s, n, true
	case refs.ResourceInstance:
		if s.Key != refs.NoKey {
			n--
		}
		return s.Resource, n, true
	}
	return refs.Resource{}, 0, false
}

// moduleRef converts module.NAME followed by steps: the outputs of the
// call, which are in its hidden _out (of each instance, as a list for
// count and by key for for_each, where no step picks one).
func (c *converter) moduleRef(name string, steps hcl.Traversal) (ast.Expr, kind) {
	x := selector(ident(moduleRoot), name)
	mc := c.m.ModuleCalls[name]
	multi := mc != nil && (mc.Count != nil || mc.ForEach != nil)
	if len(steps) > 0 {
		if ix, ok := steps[0].(hcl.TraverseIndex); ok && multi {
			x = index(x, c.keyLit(ix.Key))
			steps = steps[1:]
			multi = false
		}
	}
	if multi {
		k, v := c.fresh("k"), c.fresh("v")
		out := &ast.SelectorExpr{X: ident(v), Sel: ident(callOutputs)}
		kind := instancesKind(mc.Count, mc.ForEach)
		var all ast.Expr
		if kind == kindList {
			all = list(&ast.Comprehension{Clauses: []ast.Clause{&ast.ForClause{Value: ident(v), Source: x}}, Value: asStruct(out)})
		} else {
			all = structFor([]ast.Clause{&ast.ForClause{Key: ident(k), Value: ident(v), Source: x}}, ident(k), out)
		}
		if len(steps) == 0 {
			return all, kind
		}
		return c.steps(paren(all), kindUnknown, steps)
	}
	return c.steps(&ast.SelectorExpr{X: x, Sel: ident(callOutputs)}, kindUnknown, steps)
}

// badIterator converts a reference to a dynamic block's iterator other
// than ITER.key and ITER.value: the iterator object itself, which is
// valid, or an attribute it does not have (ITER.name, ITER[0]). OpenTofu evaluates a dynamic block's content only for the blocks
// it generates, so such a reference is an error only when the for_each
// value has elements: the CUE is the same object, {key, value}, with the
// same step applied, which fails in the same place and only when the
// comprehension yields. It is converted, with a warning, since the source
// fails as soon as the block is generated.
func (c *converter) badIterator(rng hcl.Range, root string, b binding, rest hcl.Traversal) ast.Expr {
	obj := &ast.StructLit{Elts: []ast.Decl{field(ident("key"), ident(b.key)), field(ident("value"), ident(b.value))}}
	if len(rest) == 0 {
		// The iterator object itself, which is valid.
		return obj
	}
	c.diags = append(c.diags, &hcl.Diagnostic{
		Severity: hcl.DiagWarning,
		Summary:  "Invalid iterator reference",
		Detail: fmt.Sprintf("The iterator %q has only the attributes key and value: OpenTofu reports an error here for every block the dynamic block generates, and so does the CUE.",
			root),
		Subject: rng.Ptr(),
	})
	x, _ := c.steps(obj, kindMap, rest)
	return x
}

// steps applies the remaining steps of a traversal: attributes and indexes.
func (c *converter) steps(x ast.Expr, k kind, t hcl.Traversal) (ast.Expr, kind) {
	for _, s := range t {
		switch s := s.(type) {
		case hcl.TraverseAttr:
			x = selector(x, s.Name)
		case hcl.TraverseIndex:
			x = index(x, c.keyLit(convertedKey(k, s.Key)))
		case hcl.TraverseSplat:
			return c.unconverted(s.SrcRange, "Splat not converted", "A splat inside a traversal is not converted."), kindUnknown
		}
		k = kindUnknown
	}
	return x, k
}

// typedSteps is steps for a value of a known type, following the type so
// that the result's kind is known where the type says it.
func (c *converter) typedSteps(x ast.Expr, ty cty.Type, t hcl.Traversal) (ast.Expr, kind) {
	for _, s := range t {
		switch s := s.(type) {
		case hcl.TraverseAttr:
			x = selector(x, s.Name)
			switch {
			case ty == cty.NilType:
			case ty.IsObjectType() && ty.HasAttribute(s.Name):
				ty = ty.AttributeType(s.Name)
			case ty.IsMapType():
				ty = ty.ElementType()
			default:
				ty = cty.NilType
			}
		case hcl.TraverseIndex:
			x = index(x, c.keyLit(convertedKey(kindOfType(ty), s.Key)))
			switch {
			case ty == cty.NilType:
			case ty.IsListType() || ty.IsMapType():
				ty = ty.ElementType()
			case ty.IsObjectType() && s.Key.Type() == cty.String && ty.HasAttribute(s.Key.AsString()):
				ty = ty.AttributeType(s.Key.AsString())
			default:
				ty = cty.NilType
			}
		default:
			return c.steps(x, kindUnknown, hcl.Traversal{s})
		}
	}
	if ty == cty.NilType {
		return x, kindUnknown
	}
	return x, kindOfType(ty)
}

// convertedKey is an index key known when converting as OpenTofu takes
// it for a collection of kind k: a string that is a number, as a number,
// for a list or tuple (["a", "b"]["1"] is "b"), and a number, as a
// string, for a map or object; any other key as it is.
func convertedKey(k kind, key cty.Value) cty.Value {
	if key.IsNull() || !key.IsKnown() {
		return key
	}
	var to cty.Type
	switch {
	case k == kindList && key.Type() == cty.String:
		to = cty.Number
	case k == kindMap && key.Type() == cty.Number:
		to = cty.String
	default:
		return key
	}
	if v, err := ctyconvert.Convert(key, to); err == nil {
		return v
	}
	return key
}

// indexKey converts the key of an index expression into a collection of
// kind k as OpenTofu converts it: a string to a number for a list or
// tuple, a number to a string for a map or object (its attribute names).
// A key known when converting is written converted (convertedKey).
func (c *converter) indexKey(k kind, e hcl.Expression) ast.Expr {
	if x, ok := e.(hclsyntax.Expression); ok {
		if v, ok := constValue(x); ok {
			if cv := convertedKey(k, v); !cv.RawEquals(v) {
				return c.keyLit(cv)
			}
		}
	}
	x, kk := c.expr(e)
	switch {
	case k == kindList && kk == kindString:
		return c.lib("tonumber", x)
	case k == kindMap && kk.isNumber():
		return c.lib("tostring", x)
	}
	return x
}

// keyLit writes an index key of a traversal.
func (c *converter) keyLit(v cty.Value) ast.Expr {
	x, _ := c.literal(v, hcl.Range{})
	return x
}

// traversalText writes a traversal as OpenTofu source.
func traversalText(t hcl.Traversal) string {
	s := ""
	for _, step := range t {
		switch step := step.(type) {
		case hcl.TraverseRoot:
			s += step.Name
		case hcl.TraverseAttr:
			s += "." + step.Name
		case hcl.TraverseIndex:
			switch {
			case step.Key.IsNull() || !step.Key.IsKnown():
				s += "[...]"
			case step.Key.Type() == cty.String:
				s += fmt.Sprintf("[%q]", step.Key.AsString())
			case step.Key.Type() == cty.Number:
				s += "[" + step.Key.AsBigFloat().Text('f', -1) + "]"
			default:
				s += "[...]"
			}
		case hcl.TraverseSplat:
			s += "[*]"
		}
	}
	return s
}

// resourceKind is the kind of a reference to a whole resource: a struct
// keyed by instance key with for_each, a list with count.
func (c *converter) resourceKind(mode config.ResourceMode, typeName, name string) kind {
	if r := c.m.Resource(mode, typeName, name); r != nil {
		return instancesKind(r.Count, r.ForEach)
	}
	return kindUnknown
}

func instancesKind(count, forEach hcl.Expression) kind {
	switch {
	case forEach != nil:
		return kindMap
	case count != nil:
		return kindList
	}
	return kindUnknown
}

// undeclared reports a reference to a resource the module does not
// declare: the CUE would refer to nothing.
func (c *converter) undeclared(rng hcl.Range, t hcl.Traversal) ast.Expr {
	return c.unconverted(rng, "Reference to undeclared resource",
		fmt.Sprintf("%s is not declared in this module; OpenTofu reports it when it evaluates the expression.", traversalText(t)))
}

// variableType is the type of an expression that reads an input variable
// of the module, var.NAME followed by attribute and index steps, as its
// type constraint gives it; false for any other expression, or where the
// steps leave the constraint.
func (a *analysis) variableType(e hclsyntax.Expression) (cty.Type, bool) {
	var t hcl.Traversal
	switch e := e.(type) {
	case *hclsyntax.ScopeTraversalExpr:
		t = e.Traversal
	case *hclsyntax.IndexExpr:
		ct, ok := a.variableType(e.Collection)
		if !ok {
			return cty.NilType, false
		}
		if ct.IsListType() || ct.IsMapType() || ct.IsSetType() {
			return ct.ElementType(), true
		}
		return cty.NilType, false
	default:
		return cty.NilType, false
	}
	if len(t) < 2 || t.RootName() != "var" {
		return cty.NilType, false
	}
	at, ok := t[1].(hcl.TraverseAttr)
	if !ok {
		return cty.NilType, false
	}
	v := a.m.Variables[at.Name]
	if v == nil {
		return cty.NilType, false
	}
	ty := v.Type
	for _, s := range t[2:] {
		switch s := s.(type) {
		case hcl.TraverseAttr:
			switch {
			case ty.IsObjectType() && ty.HasAttribute(s.Name):
				ty = ty.AttributeType(s.Name)
			case ty.IsMapType():
				ty = ty.ElementType()
			default:
				return cty.NilType, false
			}
		case hcl.TraverseIndex:
			if ty.IsListType() || ty.IsMapType() {
				ty = ty.ElementType()
			} else {
				return cty.NilType, false
			}
		default:
			return cty.NilType, false
		}
	}
	return ty, ty != cty.DynamicPseudoType
}
