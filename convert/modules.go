package convert

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/token"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	ctyconvert "github.com/zclconf/go-cty/cty/convert"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/cueform"
	"github.com/tofucue/tofucue/refs"
)

// The modules a module calls are converted with it (local sources, the
// modules tofu init installed and those --module-source maps: see
// config.Sources),
// into the same CUE package, so that the whole tree is one program and
// gradual evaluation sees across module boundaries. Each module is
// converted once, whatever the number of calls, into a file of its own
// holding a template:
//
//	_module: "modules/vpc": {
//		_arg: {...}
//		_var: cidr: string @input(cidr)
//		aws_vpc: main: {cidr_block: _arg.cidr} @resource(aws_vpc.main)
//		output: vpc_id: aws_vpc.main.id @output(vpc_id)
//	} @source("modules/vpc")
//
// keyed by the module's directory relative to the root's
// (".terraform/modules/vpc" for an installed one). Each call
// instance unifies the template with its arguments, and reads the
// child's outputs from the instance:
//
//	module: vpc: {
//		let args = {cidr: "10.0.0.0/16"}
//		args
//		_mod: _module["modules/vpc"] & {_arg: {"cidr": args["cidr"]}, _var: _arg}
//		_out: _mod.output
//	} @module(vpc, source="./modules/vpc")
//
// The engine never descends into a template (@source): it finds the
// child's declarations in each call instance's _mod. A module's files
// are one struct, since CUE resolves a name within the struct literal
// that holds it.
//
// Inside a template, a variable whose value is the argument as given
// (see readsArgument) is read from _arg, where each call instance puts
// its arguments, and not from _var, where they meet the variable's
// schema: the instance unifies _var with _arg, so the schema still
// checks each argument. This is for speed: CUE v0.17 does not share a field whose value is a
// choice (the schema's *default | T | null) met with an expression, so
// every reference to it evaluates the argument's expression (its
// conversion to the variable's type, say) again, and a reference from a
// function's arguments or a condition does so again for each reference
// the argument's expression makes. A field holding only the argument is
// shared. On the vpc module of terraform-aws-vpc (examples/simple), one
// evaluation of the program took 1.7 s with every reference to _var and
// 1.1 s with _arg.
//
// An argument is converted to its variable's type as OpenTofu converts
// it (see conform), unless it is known to conform when converting. A
// variable of a called module that is nullable (the default) admits
// null: a null argument is the variable's value, as in OpenTofu. One with
// nullable = false takes its default for a null argument.
const (
	templateRoot = cueform.TemplateRoot
	callArgs     = cueform.CallArgs
	callModule   = cueform.CallModule
	callOutputs  = cueform.CallOutputs
)

// family is what the conversion of a module tree shares: the modules
// converted so far and the files written for them.
type family struct {
	// tree finds each call's module.
	tree    *config.Tree
	rootDir string
	opts    Options
	// modules are the converted modules by key; a nil entry is being
	// converted (a call to it now is a loop).
	modules map[string]*childModule
	// converted are the keys of the modules converted, in order.
	converted []string
	files     []File
	names     map[string]bool
	diags     hcl.Diagnostics
	reasons   []string
	libUsed   bool
	fileUse   *hcl.Range
	// dirFiles are the root module's files (see moduleFiles), read on
	// first use; templates are those converted for templatefile calls
	// whose paths are known only when planning, by path.
	dirFiles  []moduleFile
	dirErr    error
	dirRead   bool
	templates map[string]*tableTemplate
	// reported are the calls whose modules are not available, warned of
	// once.
	reported map[*config.ModuleCall]bool
	// known is what is known while planning of the tree's modules'
	// variables and outputs (knownVariables).
	known *knownFacts
}

// childModule is what a call needs to know of the module it calls.
type childModule struct {
	variables map[string]*config.Variable
	outputs   bool
}

func newFamily(tree *config.Tree, opts Options) *family {
	// The root is being converted: a call to it is a loop.
	return &family{tree: tree, rootDir: tree.Root.Dir, opts: opts, modules: map[string]*childModule{".": nil}, names: map[string]bool{}, reported: map[*config.ModuleCall]bool{}, templates: map[string]*tableTemplate{}, known: knownVariables(tree)}
}

// childKey is the template key of a call's module, its directory
// relative to the root's, and the module, when the tree has it (a local,
// installed or mapped module that loads).
func (c *converter) childKey(mc *config.ModuleCall) (key string, child *config.TreeChild) {
	if c.fam == nil || c.fam.tree == nil {
		return "", nil
	}
	child = c.fam.tree.Child(mc)
	if child == nil || child.Kind == config.NotAvailable {
		return "", child
	}
	rel, err := filepath.Rel(c.fam.rootDir, child.Dir)
	if err != nil {
		rel = child.Dir
	}
	return filepath.ToSlash(rel), child
}

// childTemplate converts the module a call uses, unless it was converted
// before, and returns what the call needs of it; nil, with a warning,
// when it cannot be converted.
func (c *converter) childTemplate(mc *config.ModuleCall) *childModule {
	if r := c.resolved[mc]; r != nil {
		c.diags = append(c.diags, r.diags...)
		return r.found
	}
	return c.findChild(mc)
}

// findChild is childTemplate for a call not resolved before.
func (c *converter) findChild(mc *config.ModuleCall) *childModule {
	rng := mc.DeclRange()
	if mc.Source != nil {
		rng = mc.Source.Range()
	}
	warn := func(summary, detail string) *childModule {
		c.diags = append(c.diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: summary, Detail: detail, Subject: rng.Ptr()})
		return nil
	}
	key, child := c.childKey(mc)
	switch {
	case child == nil:
		return nil
	case child.Kind == config.NotAvailable:
		// Its outputs are open in the CUE form, and the engine plans the
		// call as the HCL planner does: its outputs unknown.
		if !c.fam.reported[mc] {
			c.fam.reported[mc] = true
			c.diags = append(c.diags, child.Diagnostic)
		}
		return nil
	}
	if cm, seen := c.fam.modules[key]; seen {
		if cm == nil {
			return warn("Module calls itself", fmt.Sprintf("Module %q calls a module that calls it (%s); its call is written without the module's declarations.", mc.Name, key))
		}
		return cm
	}
	m := child.Module
	if m == nil || child.Errors.HasErrors() {
		msg := "it does not load"
		if len(child.Errors) > 0 {
			d := child.Errors[0]
			msg = d.Summary
			if d.Subject != nil {
				msg = d.Subject.String() + ": " + msg
			}
		}
		return warn("Module not converted", fmt.Sprintf("The module %q uses, %s, was not converted (%s): its outputs are open in the CUE form, and the engine cannot plan it.", mc.Name, key, msg))
	}
	c.fam.modules[key] = nil
	cm := c.fam.convert(m, key)
	c.fam.modules[key] = cm
	c.fam.converted = append(c.fam.converted, key)
	return cm
}

// convert converts a called module into one template file, or in a
// batch takes the one converted before for the same calls (see
// templates.go).
func (f *family) convert(m *config.Module, key string) *childModule {
	var t *template
	if f.opts.templates == nil {
		t = f.convertTemplate(m, key, nil)
	} else {
		calls := f.resolveCalls(m, key)
		tk := f.templateKeyOf(m, key)
		if t = f.cached(tk, calls); t == nil {
			t = f.convertTemplate(m, key, calls)
			if !t.usesTable {
				// A template that selects from the templates of the
				// module's files depends on the root's: not shared.
				f.store(tk, t)
			}
		}
	}
	f.files = append(f.files, File{Name: cueFileName(t.name, f.names), Source: t.source, Template: true})
	f.libUsed = f.libUsed || t.libUsed
	f.fileUse = cmp.Or(f.fileUse, t.fileUse)
	f.diags = append(f.diags, t.diags...)
	f.reasons = append(f.reasons, t.reasons...)
	return &childModule{variables: m.Variables, outputs: len(m.Outputs) > 0}
}

// convertTemplate converts a called module into its template, with its
// calls resolved before (see resolveCalls), or not.
func (f *family) convertTemplate(m *config.Module, key string, calls []resolvedCall) *template {
	c := newConverter(m, f.opts, f, key)
	if calls != nil {
		c.resolved = map[*config.ModuleCall]*resolvedCall{}
		for i := range calls {
			c.resolved[calls[i].mc] = &calls[i]
		}
	}
	c.imports = map[string]bool{}
	var decls []ast.Decl
	for _, path := range m.PrimaryPaths {
		if file := m.Files[path]; file != nil {
			decls = append(decls, c.fileDecls(path, file)...)
		}
	}
	c.overrides()
	if c.usesContext() {
		decls = append(decls, c.contextDecls()...)
	}
	if slices.ContainsFunc(slices.Collect(maps.Values(m.Variables)), readsArgument) {
		arg := field(ident(argRoot), &ast.StructLit{Elts: []ast.Decl{&ast.Ellipsis{}}})
		docComment(arg, []string{"The arguments each call instance gives; _var is them with the variables' schemas."})
		decls = append([]ast.Decl{arg}, decls...)
	}
	for i, d := range decls {
		if i > 0 {
			ast.SetRelPos(d, token.NewSection)
		}
	}
	tmpl := field(c.lbl(key), &ast.StructLit{Elts: mergeDecls(decls)})
	tmpl.Attrs = []*ast.Attribute{attr(cueform.AttrSource, attrString(key))}
	docComment(tmpl, []string{"The module in " + key + ", instantiated by the module calls that use it."})
	src := c.format([]ast.Decl{field(ident(templateRoot), &ast.StructLit{Elts: []ast.Decl{tmpl}})})
	return &template{
		name:      "module_" + strings.NewReplacer("/", "_", ".", "_").Replace(key) + ".tf",
		source:    src,
		libUsed:   c.libUsed,
		fileUse:   c.fileUse,
		diags:     c.diags,
		reasons:   c.reasons,
		calls:     calls,
		usesTable: c.usesTable,
	}
}

// defaultArguments gives each variable the call leaves out its default,
// when that is not null: the template's variable is a choice with the
// default marked (*[] | [...string] | null, or *[] | _ for any), which
// CUE resolves where a value is needed but not where the variable is
// unified with something else (passed in a function's #args, tested
// against null), so each instance gets its value itself.
//
// A variable the template reads from _arg (see readsArgument) that the
// call leaves out and whose default is null gets null by default,
// *null | T as in its schema, so that _arg holds it: an argument left out
// that a resource argument reads is one the provider decides.
func (c *converter) defaultArguments(cm *childModule, passed map[string]bool) []ast.Decl {
	var out []ast.Decl
	for _, name := range slices.Sorted(maps.Keys(cm.variables)) {
		v := cm.variables[name]
		if passed[name] || v.Required() || !v.Default.IsWhollyKnown() {
			continue
		}
		if v.Default.IsNull() {
			if readsArgument(v) {
				out = append(out, field(ast.NewString(name), defaulted(ast.NewNull(), c.schema(v.Type, nil))))
			}
			continue
		}
		x, _ := c.literal(v.Default, v.DeclRange())
		out = append(out, field(ast.NewString(name), x))
	}
	return out
}

// readsArgument reports whether a called module's template reads the
// variable from _arg, the value each call instance gives it, rather than
// from _var (see the doc above): where that value is the variable's
// value. It is, for a nullable variable whose type has no object in it
// (an object's optional attributes take their nulls and defaults from
// the schema) and whose default, if any, is known: the call converts
// each argument to the type, and gives the default, or null, for each
// it leaves out (see defaultArguments). A variable with nullable = false
// takes its default for a null argument from the schema.
func readsArgument(v *config.Variable) bool {
	return v.Nullable && !hasObject(v.Type) && (v.Required() || v.Default.IsWhollyKnown())
}

// hasObject reports whether t is or holds an object type.
func hasObject(t cty.Type) bool {
	switch {
	case t.IsObjectType():
		return true
	case t.IsListType() || t.IsSetType() || t.IsMapType():
		return hasObject(t.ElementType())
	case t.IsTupleType():
		return slices.ContainsFunc(t.TupleElementTypes(), hasObject)
	}
	return false
}

// callInstance is one instance of a module call: its arguments, the
// template unified with them, and the child's outputs.
func (c *converter) callInstance(args *ast.StructLit, key string, cm *childModule, body *hclsyntax.Body) ast.Expr {
	argsName := c.letName(callArgs)
	vars := &ast.StructLit{}
	passed := map[string]bool{}
	for _, name := range passedArguments(body) {
		passed[name] = true
		v := cm.variables[name]
		if v == nil {
			// OpenTofu rejects an argument the module does not declare;
			// it stays among the call's fields.
			continue
		}
		arg := selector(ident(argsName), name)
		val := arg
		a := body.Attributes[name]
		var sh *argShape
		if a != nil {
			sh = shapeOfArg(a.Expr, func(e hclsyntax.Expression) bool { return !c.mayBeUnknown(e) })
		}
		// An argument known while planning is known in full: its null
		// tests, and its elements', are CUE's own.
		known := sh.isKnown()
		if a == nil || !c.conforms(a.Expr, v) {
			from, csh := cty.DynamicPseudoType, sh
			if a != nil {
				from = c.typeOf(a.Expr)
			}
			if !v.Nullable {
				// Converted only where it is not null (below).
				csh = sh.notNull()
			}
			val = c.conform(arg, v.Type, from, csh, v.TypeDefaults, 0, known, false)
		}
		if !v.Nullable && !sh.isNonNull() {
			// A null argument takes the variable's default:
			// [if arg != null {arg}, _][0], or where the argument is
			// known while planning, if arg != null {name: arg}.
			if known {
				sel := conditional(nullTestOf(arg, kindOfType(v.Type), known, true), val, ident("_"))
				c.knownConds[sel] = true
				val = sel
			} else {
				val = index(&ast.ListLit{Elts: []ast.Expr{
					&ast.Comprehension{
						Clauses: []ast.Clause{&ast.IfClause{Condition: nullTestOf(arg, kindOfType(v.Type), known, true)}},
						Value:   asStruct(val),
					},
					ident("_"),
				}}, intLit(0))
			}
		}
		if a != nil && c.pure(a.Expr) {
			// Every conditional of the conversion reads the argument
			// and constants alone: complete, so embeddable.
			c.markEmbeddable(val)
		}
		// A quoted label binds no name, so args stays in reach.
		vars.Elts = append(vars.Elts, field(ast.NewString(name), val))
	}
	vars.Elts = append(vars.Elts, c.defaultArguments(cm, passed)...)
	c.liftFields(vars)
	mod := &ast.BinaryExpr{
		X:  index(ident(templateRoot), stringLit(key)),
		Op: token.AND,
		Y:  &ast.StructLit{Elts: []ast.Decl{field(ident(argRoot), vars), field(ident(varRoot), ident(argRoot))}},
	}
	var out ast.Expr = &ast.StructLit{}
	if cm.outputs {
		out = &ast.SelectorExpr{X: ident(callModule), Sel: ident(outputRoot)}
	}
	return &ast.StructLit{Elts: []ast.Decl{
		&ast.LetClause{Ident: ident(argsName), Expr: args},
		&ast.EmbedDecl{Expr: ident(argsName)},
		field(ident(callModule), mod),
		field(ident(callOutputs), out),
	}}
}

// argScalar is x, a module argument given to a variable of a primitive
// type (string, number or bool) or to an element of one, converted to it
// by the library (fn: tostring, tonumber, tobool), which gives x itself
// where it is of that type already:
//
//	(tofu.#tostring & {#args: [x]}).out
//
// That is where x is known while planning. Where it may not be, the
// library's first test is written in place, x itself where it is of the
// type and cannot be null, the library's conversion otherwise (x is a
// reference, the call's args.NAME or a comprehension's variable, which
// costs nothing to repeat):
//
//	[if [x & string] != _|_ if (x & null) == _|_ {x & string}, (tofu.#tostring & {#args: [x]}).out][0]
//
// The conversion, the list's last element, is evaluated only where it is
// taken; while a test is not known, neither is the list nor the result.
// Through the definition alone, with CUE v0.17.1, an argument read from
// another module's output not known yet (terraform-google-network's
// private service connect fixture) was not waited for: its resource was
// applied with a made-up target. And a definition's instance costs more
// than the expression: every reference to the argument inside the module
// evaluates the call again.
func (c *converter) argScalar(x ast.Expr, typ, fn string, known bool) ast.Expr {
	if known {
		return c.lib(fn, x)
	}
	isType := &ast.BinaryExpr{X: list(binary(token.AND, x, ident(typ))), Op: token.NEQ, Y: &ast.BottomLit{}}
	fast := &ast.Comprehension{
		Clauses: []ast.Clause{&ast.IfClause{Condition: isType}, &ast.IfClause{Condition: cannotBeNull(x)}},
		Value:   embed(binary(token.AND, x, ident(typ))),
	}
	return index(list(fast, c.lib(fn, x)), intLit(0))
}

// conform is x, a module argument given to a variable of type t,
// converted to t as OpenTofu converts it: strings, numbers and bools to
// the primitive type wanted (true to "true", "5" to 5), the elements of a
// list or map of any to one type (tofu.#unify: mixed strings, numbers
// and bools become strings), at every level of lists, maps and objects,
// and with the nulls removed where t's optional attributes have defaults
// (d), so that the variable's schema gives them their defaults:
//
//	{for k, v in x if k != "a" || !isNull(v) {(k): v}}
//
// where isNull(v) is null's test that CUE decides also for a struct
// holding a value not known yet. An object's attributes that t does not
// have are dropped, as OpenTofu drops them, unless from, x's type as far
// as the analysis knows it (cty.DynamicPseudoType where it does not),
// has none. A null stays null; a value of type any is left as it is.
// known says that x is known while planning (mayBeUnknown): its null
// tests are CUE's own, and a conversion the library's alone. labeled says
// that the result is the value of a field whose label a comprehension
// computes ((k): ..., in a for over a map's or object's keys).
func (c *converter) conform(x ast.Expr, t, from cty.Type, sh *argShape, d *typeexpr.Defaults, depth int, known, labeled bool) ast.Expr {
	if depth > 8 {
		return x
	}
	known = known || sh.isKnown()
	if sh != nil && sh.value != cty.NilVal && t.IsPrimitiveType() && !sh.value.Type().Equals(t) {
		// A literal: converted now, as OpenTofu will ("22" to 22).
		if v, err := ctyconvert.Convert(sh.value, t); err == nil {
			if lit, _ := c.literal(v, hcl.Range{}); lit != nil {
				return lit
			}
		}
	}
	k, v := fmt.Sprintf("k%d", depth), fmt.Sprintf("v%d", depth)
	same := func(e ast.Expr) bool {
		id, ok := e.(*ast.Ident)
		return ok && id.Name == v
	}
	if et := unifiedElementType(from); t.IsCollectionType() && t.ElementType() == cty.DynamicPseudoType && et != cty.NilType {
		// A collection of any given one whose elements' types the
		// analysis knows: OpenTofu unifies them (objects of different
		// attributes become maps of strings), as a collection of that
		// type converts them.
		var typed cty.Type
		switch {
		case t.IsListType():
			typed = cty.List(et)
		case t.IsSetType():
			typed = cty.Set(et)
		default:
			typed = cty.Map(et)
		}
		return c.conform(x, typed, from, sh, d, depth, known, labeled)
	}
	var mapped ast.Expr
	switch {
	case t.IsPrimitiveType() && from.Equals(t):
		// A string given to a string: null or the string itself.
		return x
	case t == cty.String:
		return c.argScalar(x, "string", "tostring", known)
	case t == cty.Number:
		return c.argScalar(x, "number", "tonumber", known)
	case t == cty.Bool:
		return c.argScalar(x, "bool", "tobool", known)
	case t.IsListType() && t.ElementType() == cty.DynamicPseudoType:
		// OpenTofu converts the elements to one type: mixed strings,
		// numbers and bools become strings.
		mapped = c.lib("unify", x)
	case t.IsSetType() && t.ElementType() == cty.DynamicPseudoType:
		// The same, without repeats and in a set's order.
		mapped = c.setOf(x, convertedElementOf(from), nil)
	case t.IsMapType() && t.ElementType() == cty.DynamicPseudoType:
		mapped = c.lib("tomap", x)
	case t.IsListType() || t.IsSetType():
		elem := c.conform(ident(v), t.ElementType(), convertedElementOf(from), sh.elem(), child(d, ""), depth+1, known, false)
		switch {
		case !same(elem):
			mapped = list(&ast.Comprehension{Clauses: []ast.Clause{&ast.ForClause{Value: ident(v), Source: x}}, Value: asStruct(elem)})
		case t.IsListType() || from.Equals(t):
			return x
		default:
			mapped = x
		}
		if t.IsSetType() && !from.Equals(t) {
			// A set has no repeats, and an order of its own.
			mapped = c.setOf(mapped, t.ElementType(), child(d, ""))
		}
	case t.IsMapType() && sh.exactAttrs():
		// A map written as an object constructor: each attribute is
		// converted to the element type in its own field.
		attrs := map[string]cty.Type{}
		children := map[string]*typeexpr.Defaults{}
		for n := range sh.attrs {
			attrs[n], children[n] = t.ElementType(), child(d, "")
		}
		ot := cty.Object(attrs)
		mapped = c.objectFields(x, ot, from, sh, &typeexpr.Defaults{Type: ot, Children: children}, depth, known)
		if mapped == x {
			return x
		}
	case t.IsMapType():
		elem := c.conform(ident(v), t.ElementType(), convertedElementOf(from), sh.elem(), child(d, ""), depth+1, known, true)
		if same(elem) {
			return x
		}
		mapped = structFor([]ast.Clause{&ast.ForClause{Key: ident(k), Value: ident(v), Source: x}}, ident(k), elem)
	case t.IsObjectType() && sh.exactAttrs():
		// x is written with every attribute it has: each is converted
		// in its own field.
		mapped = c.objectFields(x, t, from, sh, d, depth, known)
		if mapped == x {
			return x
		}
	case t.IsObjectType():
		// keep tells the attributes without a default, which stay as
		// they are, from those with one (defaulted), which are left
		// out where null. An attribute t does not have is dropped, as
		// OpenTofu drops it (with a warning), where x may have one:
		// keep then names the attributes kept.
		var keep, defaulted ast.Expr
		var names []string
		if d != nil {
			for n := range d.DefaultValues {
				if !from.IsObjectType() || from.HasAttribute(n) {
					// One that x may have.
					names = append(names, n)
				}
			}
		}
		slices.Sort(names)
		extra := !attributesWithin(from, t)
		if extra {
			var kept []string
			for _, n := range slices.Sorted(maps.Keys(t.AttributeTypes())) {
				if !slices.Contains(names, n) {
					kept = append(kept, n)
				}
			}
			keep = c.keyIn(ident(k), kept)
		}
		defaulted = keyTests(ident(k), token.EQL, token.LOR, names)
		if !extra {
			keep = keyTests(ident(k), token.NEQ, token.LAND, names)
		}
		// The body of the loop over x's attributes, of those that in
		// tells, each converted to its type: (k): v where none is
		// converted (identity), (k): conv where closed says that the
		// loop reaches one attribute alone, and otherwise a field-level
		// if for each attribute converted and one for those kept as
		// they are:
		//
		//	if k == "port" {(k): (tofu.#tonumber & {#args: [v]}).out}
		//	if k != "port" {(k): v}
		//
		// The attributes kept are named where closed says that the loop
		// reaches those that in tells alone (if k == "a" || k == "b"),
		// and are those not converted otherwise.
		bodyOf := func(in func(string) bool, closed bool) (body []ast.Decl, identity bool) {
			var converted, kept []string
			var only ast.Expr
			for _, n := range slices.Sorted(maps.Keys(t.AttributeTypes())) {
				if !in(n) || (from.IsObjectType() && !from.HasAttribute(n)) {
					// Not one of those in tells, or not one x has.
					continue
				}
				sub := c.conform(ident(v), t.AttributeType(n), attributeOf(from, n), sh.attr(n), child(d, n), depth+1, known, true)
				if same(sub) {
					kept = append(kept, n)
					continue
				}
				only = sub
				converted = append(converted, n)
				body = append(body, &ast.Comprehension{
					Clauses: []ast.Clause{&ast.IfClause{Condition: &ast.BinaryExpr{X: ident(k), Op: token.EQL, Y: stringLit(n)}}},
					Value:   fieldOnOneLine(field(&ast.ParenExpr{X: ident(k)}, sub)),
				})
			}
			keyed := func(x ast.Expr) []ast.Decl { return []ast.Decl{field(&ast.ParenExpr{X: ident(k)}, x)} }
			switch {
			case len(converted) == 0:
				return keyed(ident(v)), true
			case closed && len(converted) == 1 && len(kept) == 0:
				return keyed(only), false
			case closed && len(kept) == 0:
				return body, false
			}
			rest := keyTests(ident(k), token.NEQ, token.LAND, converted)
			if closed {
				rest = keyTests(ident(k), token.EQL, token.LOR, kept)
			}
			return append(body, &ast.Comprehension{
				Clauses: []ast.Clause{&ast.IfClause{Condition: rest}},
				Value:   fieldOnOneLine(keyed(ident(v))[0].(*ast.Field)),
			}), false
		}
		loop := func() ast.Clause { return &ast.ForClause{Key: ident(k), Value: ident(v), Source: x} }
		if defaulted == nil {
			body, identity := bodyOf(func(string) bool { return true }, extra)
			if keep == nil {
				if extra {
					// t has no attribute: every one is dropped.
					mapped = &ast.StructLit{}
					break
				}
				if identity {
					return x
				}
				mapped = structForBody([]ast.Clause{loop()}, body)
				break
			}
			mapped = structForBody([]ast.Clause{loop(), &ast.IfClause{Condition: keep}}, body)
			break
		}
		// Two comprehensions, not one with keep || notNull(v): CUE
		// evaluates both operands of ||, so an attribute not known yet
		// would leave the whole struct unknown, and with it the list it
		// is an element of (a route whose next hop waits for apply made
		// every route's description unknown).
		hasDefault := func(n string) bool { return slices.Contains(names, n) }
		s := &ast.StructLit{Elts: []ast.Decl{&ast.EmbedDecl{Expr: &ast.StructLit{}}}}
		if keep != nil {
			body, _ := bodyOf(func(n string) bool { return !hasDefault(n) }, extra)
			s = structForBody([]ast.Clause{loop(), &ast.IfClause{Condition: keep}}, body)
		}
		body, _ := bodyOf(hasDefault, true)
		s.Elts = append(s.Elts, &ast.Comprehension{
			Clauses: []ast.Clause{loop(), &ast.IfClause{Condition: defaulted}, &ast.IfClause{Condition: nullTestOf(ident(v), kindUnknown, known, true)}},
			Value:   &ast.StructLit{Elts: body},
		})
		mapped = s
	default:
		return x
	}
	// [if isNull(x) {null}, mapped][0]. Where x is known while planning:
	// a conditional that a field lifts (if x == null {name: null} and
	// if x != null {name: mapped}; see liftFields), or within one, where
	// x is an element, the disjunction mapped | (x & null), one of whose
	// arms is an error (a for over null, null unified with a list or
	// struct). Not as the value of a field whose label a comprehension
	// computes: CUE v0.17.1 then loses the disjunction's first arm where
	// the value is unified with a schema's default twice, through a
	// module's variable and a local read by another module's
	// (golden/verify/module_null_attribute_default).
	switch {
	case sh.isNonNull():
		// x is written as a value that is never null: an object or a
		// tuple, a for expression, a template.
		return mapped
	case known && depth > 0 && !labeled:
		return binary(token.OR, mapped, paren(binary(token.AND, x, ident("null"))))
	}
	if known {
		// Both results guarded, x == null and x != null: a conditional
		// that a field lifts, or that the writer embeds where the
		// argument is pure ({if x == null {null}, if x != null {...}};
		// see callInstance).
		sel := conditional(nullTestOf(x, kindOfType(t), known, false), ident("null"), mapped)
		c.knownConds[sel] = true
		return sel
	}
	return index(list(
		&ast.Comprehension{Clauses: []ast.Clause{&ast.IfClause{Condition: nullTestOf(x, kindOfType(t), known, false)}}, Value: asStruct(ident("null"))},
		mapped,
	), intLit(0))
}

// objectFields is x, an object whose attributes sh names all (an object
// constructor), converted to the object type t one field at a time, as a
// person writes it: an attribute t does not have is dropped, as OpenTofu
// drops it; one whose type has a default in d is left out where it is
// null, so that the variable's schema gives the default:
//
//	{name: (tofu.#tostring & {#args: [x.name]}).out, if x.port != null {port: x.port}}
//
// It is x itself where that leaves every attribute as it is.
func (c *converter) objectFields(x ast.Expr, t, from cty.Type, sh *argShape, d *typeexpr.Defaults, depth int, known bool) ast.Expr {
	type attr struct {
		name      string
		value     ast.Expr
		defaulted ast.Expr // the test that it is not null, where it has a default
	}
	var attrs []attr
	same := true
	for _, n := range slices.Sorted(maps.Keys(sh.attrs)) {
		if !t.HasAttribute(n) {
			same = false
			continue
		}
		sel, sa := selector(x, n), sh.attr(n)
		hasDefault := false
		if d != nil {
			_, hasDefault = d.DefaultValues[n]
		}
		if hasDefault && sa.isNull() {
			// null takes the default: as if it were not given.
			same = false
			continue
		}
		a := attr{name: n, value: c.conform(sel, t.AttributeType(n), attributeOf(from, n), sa, child(d, n), depth+1, known, false)}
		if hasDefault && !sa.isNonNull() {
			a.defaulted = nullTestOf(selector(x, n), kindUnknown, known || sa.isKnown(), true)
		}
		same = same && a.value == sel && a.defaulted == nil
		attrs = append(attrs, a)
	}
	if same {
		return x
	}
	// A field named as a name its struct's values refer to would hide
	// that name from them.
	named := map[string]bool{}
	for _, a := range attrs {
		maps.Copy(named, refNames(a.value))
		if a.defaulted != nil {
			maps.Copy(named, refNames(a.defaulted))
		}
	}
	bound := func(n string) bool { return c.bound(n) || named[n] }
	s := &ast.StructLit{}
	for _, a := range attrs {
		f := field(label(a.name, bound), a.value)
		if a.defaulted == nil {
			s.Elts = append(s.Elts, f)
			continue
		}
		s.Elts = append(s.Elts, &ast.Comprehension{
			Clauses: []ast.Clause{&ast.IfClause{Condition: a.defaulted}},
			Value:   &ast.StructLit{Elts: []ast.Decl{f}},
		})
	}
	return s
}

// argShape is what a module argument's expression tells of its value
// whatever the values it reads: that it is never null (an object or tuple
// constructor, a for expression, a template, a literal other than null),
// and the same of its elements (of all of them) and of its attributes (an
// object constructor's, by static key). exact says that attrs names
// every attribute the value has: an object constructor whose keys are
// all static, or elements that are all such with the same keys. null
// says that it is the literal null, and value the string, number or bool
// it is where that is known when converting. known
// says that the value is known while planning (of an attribute whose
// expression is a literal, in an argument that reads a resource), and
// collection that it is a list, tuple, map or object that its expression
// builds (so never a value not known yet as a whole), settled that it is
// never a value not known as a whole (known, null, or a collection). A
// nil *argShape tells nothing.
type argShape struct {
	nonNull    bool
	collection bool
	settled    bool
	null       bool
	known      bool
	value      cty.Value // a string, number or bool known when converting; cty.NilVal otherwise
	exact      bool
	elems      *argShape
	attrs      map[string]*argShape
}

func (s *argShape) isNonNull() bool { return s != nil && s.nonNull }

// isKnown is whether s is of a value known while planning.
func (s *argShape) isKnown() bool { return s != nil && s.known }

// isNull is whether s is of the literal null.
func (s *argShape) isNull() bool { return s != nil && s.null }

// exactAttrs is whether s names every attribute of a value that is an
// object, never null.
func (s *argShape) exactAttrs() bool { return s != nil && s.nonNull && s.exact }

// notNull is s for a value known not to be null where it is converted
// (a variable's with nullable = false, converted where the argument is
// not null): its elements and attributes as s tells them.
func (s *argShape) notNull() *argShape {
	n := &argShape{nonNull: true}
	if s != nil {
		n.known, n.collection, n.settled, n.value, n.exact, n.elems, n.attrs = s.known, s.collection, s.settled, s.value, s.exact, s.elems, s.attrs
	}
	return n
}

func (s *argShape) elem() *argShape {
	if s == nil {
		return nil
	}
	return s.elems
}

func (s *argShape) attr(n string) *argShape {
	if s == nil {
		return nil
	}
	return s.attrs[n]
}

// shapeOfArg is the argShape of e; known says whether an expression is
// known while planning (the converter's mayBeUnknown).
func shapeOfArg(e hclsyntax.Expression, known func(hclsyntax.Expression) bool) *argShape {
	return shapeWith(e, known, meetShapes)
}

// shapeWith is shapeOfArg, with meet telling what two elements' shapes
// both tell.
func shapeWith(e hclsyntax.Expression, known func(hclsyntax.Expression) bool, meet func(a, b *argShape) *argShape) *argShape {
	if p, ok := e.(*hclsyntax.ParenthesesExpr); ok {
		return shapeWith(p.Expression, known, meet)
	}
	s := &argShape{known: known(e)}
	switch e := e.(type) {
	case *hclsyntax.LiteralValueExpr:
		s.nonNull, s.null = !e.Val.IsNull(), e.Val.IsNull()
		if e.Val.Type().IsPrimitiveType() && !e.Val.IsNull() {
			s.value = e.Val
		}
	case *hclsyntax.TemplateExpr:
		s.nonNull = true
		if v, ok := constValue(e); ok {
			s.value = v
		}
	case *hclsyntax.ForExpr:
		// Its elements are its value expression's, whose knowledge
		// depends on the for's variables: they are not taken for known.
		// A for over a value not known yet is not known as a whole.
		s.nonNull, s.collection = true, known(e.CollExpr)
		if !e.Group {
			s.elems = shapeWith(e.ValExpr, func(hclsyntax.Expression) bool { return false }, meet)
		}
	case *hclsyntax.TupleConsExpr:
		elems := make([]*argShape, len(e.Exprs))
		for i, x := range e.Exprs {
			elems[i] = shapeWith(x, known, meet)
		}
		s.nonNull, s.collection, s.elems = true, true, meetAll(elems, meet)
	case *hclsyntax.ObjectConsExpr:
		s.nonNull, s.collection, s.exact, s.attrs = true, true, true, map[string]*argShape{}
		elems := make([]*argShape, len(e.Items))
		for i, it := range e.Items {
			elems[i] = shapeWith(it.ValueExpr, known, meet)
			k, ok := objectKeyName(it.KeyExpr)
			if _, twice := s.attrs[k]; !ok || twice {
				s.exact = false
				continue
			}
			s.attrs[k] = elems[i]
		}
		s.elems = meetAll(elems, meet)
	default:
		if !s.known {
			return nil
		}
	}
	s.settled = s.known || s.null || s.collection
	return s
}

// meetAll is what all of shapes tell, by meet; nil for none.
func meetAll(shapes []*argShape, meet func(a, b *argShape) *argShape) *argShape {
	if len(shapes) == 0 {
		return nil
	}
	m := shapes[0]
	for _, s := range shapes[1:] {
		m = meet(m, s)
	}
	return m
}

// meetShapes is what a and b both tell.
func meetShapes(a, b *argShape) *argShape {
	if a == nil || b == nil {
		return nil
	}
	m := meetTop(a, b)
	m.elems = meetShapes(a.elems, b.elems)
	m.exact = a.exact && b.exact && len(a.attrs) == len(b.attrs)
	for k, av := range a.attrs {
		bv, ok := b.attrs[k]
		if !ok {
			m.exact = false
			continue
		}
		if m.attrs == nil {
			m.attrs = map[string]*argShape{}
		}
		m.attrs[k] = meetShapes(av, bv)
	}
	return m
}

// meetTop is what a and b, neither nil, both tell of the value itself,
// not of its elements and attributes.
func meetTop(a, b *argShape) *argShape {
	m := &argShape{nonNull: a.nonNull && b.nonNull, collection: a.collection && b.collection, settled: a.settled && b.settled, null: a.null && b.null, known: a.known && b.known}
	if a.value != cty.NilVal && b.value != cty.NilVal && a.value.RawEquals(b.value) {
		m.value = a.value
	}
	return m
}

// attributesWithin reports whether a value of type from has no attribute
// that the object type t does not: whether from is an object type whose
// attributes t has. A map's keys, and those of a value whose type is not
// known, are not known when converting.
func attributesWithin(from, t cty.Type) bool {
	if !from.IsObjectType() {
		return false
	}
	for n := range from.AttributeTypes() {
		if !t.HasAttribute(n) {
			return false
		}
	}
	return true
}

// elementOf is the type of an element of a value of type from, where it
// has one type, or where every element is an object, the object type of
// every attribute any of them has, of the type they all give it
// (cty.DynamicPseudoType where two differ): a list of policy statements
// that each set some of actions, resources and sid. It is
// cty.DynamicPseudoType otherwise.
func elementOf(from cty.Type) cty.Type { return foldElements(from, unionType) }

// convertedElementOf is the type that conform converts every element of
// a value of type from as: elementOf's, where the objects' attributes
// merge the same way at every level, and where tuples or lists of
// different lengths whose elements all have one such type are a list of
// it (policy statements whose condition lists differ in length). It is
// for conversions alone: a list and a tuple convert alike, but OpenTofu
// does not take them for equal.
func convertedElementOf(from cty.Type) cty.Type { return foldElements(from, convertedType) }

// partTypes are the types of the parts of a value of type from: a
// collection's element type, a tuple's elements', an object's
// attributes'; none for any other type.
func partTypes(from cty.Type) []cty.Type {
	switch {
	case from.IsCollectionType():
		return []cty.Type{from.ElementType()}
	case from.IsTupleType():
		return from.TupleElementTypes()
	case from.IsObjectType():
		return attributeTypes(from)
	}
	return nil
}

// foldElements merges the types of the elements of a value of type from
// with merge: a collection's element type, or the merge of a tuple's or
// object's; cty.DynamicPseudoType for none.
func foldElements(from cty.Type, merge func(a, b cty.Type) cty.Type) cty.Type {
	ts := partTypes(from)
	if len(ts) == 0 {
		return cty.DynamicPseudoType
	}
	t := ts[0]
	for _, u := range ts[1:] {
		t = merge(t, u)
	}
	return t
}

// unionType merges a and b for elementOf: a where they are the same
// type, the object of both's attributes where both are objects (an
// attribute they type differently is cty.DynamicPseudoType), and
// cty.DynamicPseudoType otherwise.
func unionType(a, b cty.Type) cty.Type {
	return mergeType(a, b, func(x, y cty.Type) cty.Type {
		if x.Equals(y) {
			return x
		}
		return cty.DynamicPseudoType
	})
}

// convertedType merges a and b for convertedElementOf: as unionType, the
// attributes merged the same way, and two tuples or lists whose elements
// all merge to one type a list of it.
func convertedType(a, b cty.Type) cty.Type {
	if !a.Equals(b) && isSequence(a) && isSequence(b) {
		e := foldElements(cty.Tuple(append(sequenceTypes(a), sequenceTypes(b)...)), convertedType)
		if e == cty.DynamicPseudoType {
			return e
		}
		return cty.List(e)
	}
	return mergeType(a, b, convertedType)
}

// mergeType is a where a and b are the same type, the object of both's
// attributes, those they share merged with attr, where both are objects,
// and cty.DynamicPseudoType otherwise.
func mergeType(a, b cty.Type, attr func(x, y cty.Type) cty.Type) cty.Type {
	switch {
	case a.Equals(b):
		return a
	case a.IsObjectType() && b.IsObjectType():
		attrs := maps.Clone(a.AttributeTypes())
		for n, bt := range b.AttributeTypes() {
			if at, ok := attrs[n]; ok {
				bt = attr(at, bt)
			}
			attrs[n] = bt
		}
		return cty.Object(attrs)
	}
	return cty.DynamicPseudoType
}

// isSequence is whether t is a tuple or list type.
func isSequence(t cty.Type) bool { return t.IsTupleType() || t.IsListType() }

// sequenceTypes are the types of the elements of a tuple type, or the
// one element type of a list type.
func sequenceTypes(t cty.Type) []cty.Type {
	if t.IsListType() {
		return []cty.Type{t.ElementType()}
	}
	return t.TupleElementTypes()
}

// attributeOf is the type of the attribute n of a value of type from,
// where from is an object type that has it; cty.DynamicPseudoType
// otherwise.
func attributeOf(from cty.Type, n string) cty.Type {
	if from.IsObjectType() && from.HasAttribute(n) {
		return from.AttributeType(n)
	}
	return cty.DynamicPseudoType
}

// keyIn is the test that the key k is one of names: k == "a", the tests
// of two or three joined by ||, or list.Contains(["a", ...], k).
func (c *converter) keyIn(k ast.Expr, names []string) ast.Expr {
	if len(names) == 0 {
		return nil
	}
	if len(names) > 3 {
		l := &ast.ListLit{}
		for _, n := range names {
			l.Elts = append(l.Elts, stringLit(n))
		}
		return c.std("list", "Contains", l, k)
	}
	return keyTests(k, token.EQL, token.LOR, names)
}

// keyTests is k compared (op) with each of names, the comparisons joined
// by join: k == "a" || k == "b", k != "a" && k != "b"; nil for no names.
func keyTests(k ast.Expr, op, join token.Token, names []string) ast.Expr {
	var x ast.Expr
	for _, n := range names {
		t := &ast.BinaryExpr{X: k, Op: op, Y: stringLit(n)}
		if x == nil {
			x = t
		} else {
			x = &ast.BinaryExpr{X: x, Op: join, Y: t}
		}
	}
	return x
}

// conforms reports whether an argument's value needs no conversion to
// the variable's type: a reference to a root variable of that type
// without defaults, or a value known when converting that converting
// (and the defaults) leave as it is.
func (c *converter) conforms(e hcl.Expression, v *config.Variable) bool {
	if t, ok := e.(*hclsyntax.ScopeTraversalExpr); ok && len(t.Traversal) == 2 && c.child == "" {
		if in, ok := subjectOf(t.Traversal, c.m).(refs.InputVariable); ok {
			if rv := c.m.Variables[in.Name]; rv != nil && rv.Type.Equals(v.Type) && v.TypeDefaults == nil {
				return true
			}
		}
	}
	if t, ok := c.staticType(e); ok && v.Type.Equals(t) && v.TypeDefaults == nil {
		return true
	}
	if v.TypeDefaults == nil && convertsAsIs(c.typeOf(e), v.Type) {
		return true
	}
	val, _, ok := c.constValue(e)
	if !ok {
		return false
	}
	got, err := ctyconvert.Convert(val, v.Type)
	if err != nil {
		return false
	}
	if v.TypeDefaults != nil {
		got = v.TypeDefaults.Apply(got)
	}
	// The values as JSON, without their types.
	a, err1 := ctyjson.Marshal(val, val.Type())
	b, err2 := ctyjson.Marshal(got, got.Type())
	if err1 != nil || err2 != nil {
		return false
	}
	var ja, jb any
	return json.Unmarshal(a, &ja) == nil && json.Unmarshal(b, &jb) == nil && reflect.DeepEqual(ja, jb)
}

// unifiedElementType is the one type OpenTofu converts the elements of a
// value of type from to when it converts it to a collection of any: the
// unification of a tuple's elements or an object's attributes (objects
// of different attributes are maps of strings), a collection's element
// type; cty.NilType where a part is not known or they do not unify.
func unifiedElementType(from cty.Type) cty.Type {
	tys := partTypes(from)
	if len(tys) == 0 {
		return cty.NilType
	}
	for _, t := range tys {
		if t.HasDynamicTypes() {
			// One not known could be of any type: a string among
			// numbers makes them all strings.
			return cty.NilType
		}
	}
	et, _ := ctyconvert.UnifyUnsafe(tys)
	if et == cty.NilType || et.HasDynamicTypes() {
		return cty.NilType
	}
	return et
}

// convertsAsIs reports whether OpenTofu's conversion of a value of type
// from (typeOf, known in full) to type to leaves it as it is, as conform
// writes it: a type to itself, an object whose attributes all convert as
// they are to a map's element type, a tuple or list whose elements do to
// a list's, a set whose elements do to a set's (and a tuple of one, which
// has no repeats and no order to change), and a map whose values do to a
// map's. A null converts to null. A string does not
// convert as it is to a number or bool, nor a number or bool to a string.
func convertsAsIs(from, to cty.Type) bool {
	switch {
	case from == cty.NilType || from.HasDynamicTypes() || to.HasDynamicTypes():
		return false
	case from.Equals(to):
		return true
	case to.IsMapType() && from.IsObjectType():
		for _, at := range from.AttributeTypes() {
			if !convertsAsIs(at, to.ElementType()) {
				return false
			}
		}
		return true
	case to.IsMapType() && from.IsMapType():
		return convertsAsIs(from.ElementType(), to.ElementType())
	case to.IsListType() && from.IsTupleType(), to.IsSetType() && from.IsTupleType() && from.Length() <= 1:
		for _, et := range from.TupleElementTypes() {
			if !convertsAsIs(et, to.ElementType()) {
				return false
			}
		}
		return true
	case to.IsListType() && from.IsListType(), to.IsSetType() && from.IsSetType():
		// A list or tuple given to a set is not: a set has no repeats,
		// and an order of its own (setOf).
		return convertsAsIs(from.ElementType(), to.ElementType())
	case to.IsObjectType() && from.IsObjectType():
		// Every attribute of to, and no other: an attribute missing is
		// null, which conform writes; one more is dropped.
		if len(from.AttributeTypes()) != len(to.AttributeTypes()) {
			return false
		}
		for name, at := range to.AttributeTypes() {
			if !from.HasAttribute(name) || !convertsAsIs(from.AttributeType(name), at) {
				return false
			}
		}
		return true
	}
	return false
}

// staticType is the type of an expression whose value, whatever it is,
// is never null and always of that type: count.index and each.key, a
// string template, a function whose result is always a string, number
// or bool (but the conversion functions, which keep a null), a list
// built by a for expression or a tuple whose elements all have one such
// type, and a concat of such lists of one type.
func (c *converter) staticType(e hcl.Expression) (cty.Type, bool) {
	switch e := e.(type) {
	case *hclsyntax.ScopeTraversalExpr:
		if len(e.Traversal) != 2 {
			break
		}
		a, ok := e.Traversal[1].(hcl.TraverseAttr)
		switch {
		case !ok:
		case e.Traversal.RootName() == "count" && a.Name == "index":
			return cty.Number, true
		case e.Traversal.RootName() == "each" && a.Name == "key":
			return cty.String, true
		}
	case *hclsyntax.TemplateExpr:
		return cty.String, true
	case *hclsyntax.ParenthesesExpr:
		return c.staticType(e.Expression)
	case *hclsyntax.FunctionCallExpr:
		if strings.TrimPrefix(e.Name, "core::") == "concat" && !e.ExpandFinal {
			// Lists of one primitive type make a list of it.
			return c.oneStaticType(e.Args, cty.Type.IsListType)
		}
		f, ok := functions[e.Name]
		if !ok || strings.HasPrefix(e.Name, "to") {
			break
		}
		switch f.result {
		case kindString:
			return cty.String, true
		case kindInt, kindNumber:
			return cty.Number, true
		case kindBool:
			return cty.Bool, true
		}
	case *hclsyntax.ForExpr:
		if e.KeyExpr != nil {
			break
		}
		if t, ok := c.staticType(e.ValExpr); ok && t.IsPrimitiveType() {
			return cty.List(t), true
		}
	case *hclsyntax.TupleConsExpr:
		if t, ok := c.oneStaticType(e.Exprs, cty.Type.IsPrimitiveType); ok {
			return cty.List(t), true
		}
	}
	return cty.NilType, false
}

// oneStaticType is the static type that every one of es has, where there
// is one and it is a type of the kind that is tells; false for none.
func (c *converter) oneStaticType(es []hclsyntax.Expression, is func(cty.Type) bool) (cty.Type, bool) {
	var one cty.Type
	for i, e := range es {
		t, ok := c.staticType(e)
		if !ok || !is(t) || i > 0 && !t.Equals(one) {
			return cty.NilType, false
		}
		one = t
	}
	return one, len(es) > 0
}

// nullTestOf is x == null (x != null with negate): CUE's own comparison
// where x is known in full while planning (known), isNull's or notNull's
// test otherwise.
func nullTestOf(x ast.Expr, k kind, known, negate bool) ast.Expr {
	if known {
		op := token.EQL
		if negate {
			op = token.NEQ
		}
		return binary(op, x, ident("null"))
	}
	return nullTest(x, k, negate)
}

// isNull is true for null and false for any other value, also a struct
// or list holding a value not known yet, which CUE cannot compare with
// null; for a string, number or bool not known yet it is not known
// either, as in OpenTofu. k is what the converter knows of x's kind. For
// a list or a map:
//
//	[if (*(x & null) | 0) != null {false}, x == null][0]
//
// and for a value that may be a scalar:
//
//	[if (*(x & (bool | number | string | bytes | null)) | 0) == 0 {false}, x == null][0]
//
// The guard is true where x is of no scalar kind and cannot be null (a
// struct, a list, or an error, such as an interpolation of a value not
// known yet, which OpenTofu knows is not null); false for null and for a
// known scalar other than 0 (for 0 it is true, and false is right); and
// for a scalar not known yet it is not known either, and neither is the
// result, where the first guard took it for not null (net-lb-proxy-int:
// health_check == null ? null : [health_check] was a list where
// OpenTofu's value is not known). Past the guard, a value with a default
// that admits null (a variable's *[] | [...] | null, before its default
// is taken) is compared with null.
//
// Where x is a reference, a test that does not unify x comes first: a
// value len takes (a known string, list or struct) is not null,
//
//	[if len(x) != _|_ {false}, if len(x) == _|_ if GUARD {false}, x == null][0]
//
// and the guard is made for the others only (the clauses after a false
// if are not evaluated). Unifying x evaluates its expression again, which
// for a value that a chain of module calls passes on costs the whole
// chain at each call (see tostring).
func isNull(x ast.Expr, k kind) ast.Expr {
	return nullTest(x, k, false)
}

// notNull is isNull negated.
func notNull(x ast.Expr, k kind) ast.Expr {
	return nullTest(x, k, true)
}

func nullTest(x ast.Expr, k kind, negate bool) ast.Expr {
	var notNullKind ast.Expr
	if k == kindList || k == kindMap {
		notNullKind = &ast.BinaryExpr{X: nullOrZero(x, ident("null")), Op: token.NEQ, Y: ident("null")}
	} else {
		var scalarKinds ast.Expr = ident("bool")
		for _, name := range []string{"number", "string", "bytes", "null"} {
			scalarKinds = &ast.BinaryExpr{X: scalarKinds, Op: token.OR, Y: ident(name)}
		}
		notNullKind = &ast.BinaryExpr{X: nullOrZero(x, &ast.ParenExpr{X: scalarKinds}), Op: token.EQL, Y: intLit(0)}
	}
	if plainRef(x) {
		// A value len takes (a known string, list or struct) is not
		// null: told without unifying x, which would evaluate x's
		// expression again (see tostring); the clauses after a false if
		// are not evaluated.
		hasLen := func(op token.Token) ast.Expr {
			return binary(op, ast.NewCall(ident("len"), x), &ast.BottomLit{})
		}
		other := ident("false")
		if negate {
			other = ident("true")
		}
		op := token.EQL
		if negate {
			op = token.NEQ
		}
		return index(list(
			&ast.Comprehension{Clauses: []ast.Clause{&ast.IfClause{Condition: hasLen(token.NEQ)}}, Value: asStruct(other)},
			&ast.Comprehension{Clauses: []ast.Clause{&ast.IfClause{Condition: hasLen(token.EQL)}, &ast.IfClause{Condition: notNullKind}}, Value: asStruct(other)},
			&ast.BinaryExpr{X: x, Op: op, Y: ident("null")},
		), intLit(0))
	}
	return guardedNullTest(notNullKind, x, negate)
}

// guardedNullTest is x == null (x != null with negate) where guard, true
// for a value that cannot be null, does not decide it first:
//
//	[if guard {false}, x == null][0]
func guardedNullTest(guard, x ast.Expr, negate bool) ast.Expr {
	op, other := token.EQL, ident("false")
	if negate {
		op, other = token.NEQ, ident("true")
	}
	return index(list(
		&ast.Comprehension{Clauses: []ast.Clause{&ast.IfClause{Condition: guard}}, Value: asStruct(other)},
		&ast.BinaryExpr{X: x, Op: op, Y: ident("null")},
	), intLit(0))
}

// nullOrZero is (*(x & kinds) | 0).
func nullOrZero(x, kinds ast.Expr) ast.Expr {
	return &ast.ParenExpr{X: defaulted(&ast.BinaryExpr{X: x, Op: token.AND, Y: kinds}, intLit(0))}
}
