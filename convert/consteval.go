package convert

import (
	"fmt"
	"path/filepath"
	"strings"

	"cuelang.org/go/cue/ast"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	ctyfunction "github.com/zclconf/go-cty/cty/function"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	tofufuncs "github.com/tofucue/tofucue/functions"
	"github.com/tofucue/tofucue/refs"
)

// constEnv evaluates expressions when converting, with OpenTofu's own
// functions, for one spelling of the module directory as path.module.
// Everything the converter cannot know then (input variables, resources,
// path.root, names bound by for expressions and instances) is an unknown
// value, so that a result that is wholly known does not depend on them:
// it is what OpenTofu computes for every input. Local values are
// evaluated the same way, on demand, so that one built from path.module
// and constants is known.
type constEnv struct {
	c          *converter
	pathModule string
	funcs      map[string]ctyfunction.Function
	locals     map[string]cty.Value
	busy       map[string]bool
}

// constEnvs are the two evaluators of constValue, made once per module:
// path.module as the module directory, and as another spelling of the
// same directory, DIR/. (whose base name is "." and whose parent is DIR).
func (c *converter) constEnvs() ([2]*constEnv, bool) {
	if c.consts[0] != nil {
		return c.consts, true
	}
	dir, err := filepath.Abs(c.m.Dir)
	if err != nil {
		return c.consts, false
	}
	funcs := tofufuncs.Table(tofufuncs.Options{BaseDir: dir, PlanTime: true})
	funcs["plantimestamp"] = ctyfunction.New(&ctyfunction.Spec{
		Type: ctyfunction.StaticReturnType(cty.String),
		Impl: func([]cty.Value, cty.Type) (cty.Value, error) { return cty.UnknownVal(cty.String), nil },
	})
	// abspath shows the directory OpenTofu runs in.
	funcs["abspath"] = ctyfunction.New(&ctyfunction.Spec{
		Params: []ctyfunction.Parameter{{Name: "path", Type: cty.String}},
		Type:   ctyfunction.StaticReturnType(cty.String),
		Impl:   func([]cty.Value, cty.Type) (cty.Value, error) { return cty.UnknownVal(cty.String), nil },
	})
	// The same directory spelled otherwise, not cleaned: a result built
	// from the spelling (its length, its base name, its parent) differs.
	other := dir + string(filepath.Separator) + "."
	for i, p := range []string{dir, other} {
		c.consts[i] = &constEnv{c: c, pathModule: p, funcs: funcs, locals: map[string]cty.Value{}, busy: map[string]bool{}}
	}
	return c.consts, true
}

// constValue works e out when converting, where the result is the same
// whatever the module's inputs: a wholly known value that neither shows
// nor depends on how the module directory is spelled (it is evaluated
// with two spellings of path.module, which must agree and must not appear
// in the result). Diagnostics are OpenTofu's errors for e itself, which
// OpenTofu reports for every input too.
func (c *converter) constValue(e hcl.Expression) (cty.Value, hcl.Diagnostics, bool) {
	return c.constValueWith(e, nil)
}

// constValueWith is constValue with names bound to known values: each in
// one instance of a block whose for_each is known (see foldEach).
func (c *converter) constValueWith(e hcl.Expression, bound map[string]cty.Value) (cty.Value, hcl.Diagnostics, bool) {
	envs, ok := c.constEnvs()
	if !ok || e == nil {
		return cty.NilVal, nil, false
	}
	var vals [2]cty.Value
	var errs [2]hcl.Diagnostics
	for i, env := range envs {
		vals[i], errs[i] = env.evalWith(e, false, bound)
	}
	if errs[0].HasErrors() || errs[1].HasErrors() {
		// An error with both spellings is OpenTofu's; with one, it
		// depends on the spelling.
		if errs[0].HasErrors() && errs[1].HasErrors() {
			return cty.NilVal, errs[0], false
		}
		return cty.NilVal, nil, false
	}
	for _, v := range vals {
		if !v.IsWhollyKnown() {
			return cty.NilVal, nil, false
		}
		b, err := ctyjson.Marshal(v, v.Type())
		if err != nil || strings.Contains(string(b), envs[0].pathModule) || strings.Contains(string(b), envs[1].pathModule) {
			return cty.NilVal, nil, false
		}
	}
	if !vals[0].RawEquals(vals[1]) {
		return cty.NilVal, nil, false
	}
	return vals[0], nil, true
}

// constString is constValue for a string.
func (c *converter) constString(e hcl.Expression) (string, hcl.Diagnostics, bool) {
	v, diags, ok := c.constValue(e)
	if !ok || v.IsNull() || v.Type() != cty.String {
		return "", diags, false
	}
	return v.AsString(), nil, true
}

// constPath is constValue for a file path, which may show the module
// directory: the path, relative to the module directory, when it is known
// when converting and names the same file with both spellings of
// path.module. A path outside the module directory is returned as it is
// (the file functions refuse it).
func (c *converter) constPath(e hcl.Expression) (string, hcl.Diagnostics, bool) {
	envs, ok := c.constEnvs()
	if !ok || e == nil {
		return "", nil, false
	}
	dir := envs[0].pathModule
	var paths [2]string
	var errs [2]hcl.Diagnostics
	for i, env := range envs {
		var v cty.Value
		v, errs[i] = env.eval(e, false)
		if errs[i].HasErrors() {
			continue
		}
		if !v.IsKnown() || v.IsNull() || v.Type() != cty.String {
			return "", nil, false
		}
		p := v.AsString()
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		paths[i] = filepath.Clean(p)
	}
	if errs[0].HasErrors() && errs[1].HasErrors() {
		return "", errs[0], false
	}
	if errs[0].HasErrors() || errs[1].HasErrors() || paths[0] != paths[1] {
		return "", nil, false
	}
	rel, err := filepath.Rel(dir, paths[0])
	if err != nil || !filepath.IsLocal(rel) {
		return paths[0], nil, true
	}
	return rel, nil, true
}

// eval evaluates e. A reference to a name bound by the converter (a for
// variable, each, count, a template's variables) is unknown, unless e is
// a local value's definition (topLevel), where none of them is in scope.
func (env *constEnv) eval(e hcl.Expression, topLevel bool) (cty.Value, hcl.Diagnostics) {
	return env.evalWith(e, topLevel, nil)
}

// evalWith is eval with the names of bound known.
func (env *constEnv) evalWith(e hcl.Expression, topLevel bool, bound map[string]cty.Value) (cty.Value, hcl.Diagnostics) {
	ctx := &hcl.EvalContext{Functions: env.funcs, Variables: map[string]cty.Value{}}
	locals := map[string]cty.Value{}
	for _, t := range e.Variables() {
		root := t.RootName()
		if v, ok := bound[root]; ok {
			ctx.Variables[root] = v
			continue
		}
		if !topLevel {
			if _, bound := env.c.lookup(root); bound {
				ctx.Variables[root] = cty.DynamicVal
				continue
			}
		}
		switch root {
		case "path":
			ctx.Variables[root] = cty.ObjectVal(map[string]cty.Value{
				"module": cty.StringVal(env.pathModule),
				"root":   cty.UnknownVal(cty.String),
				"cwd":    cty.UnknownVal(cty.String),
			})
		case "local":
			if len(t) > 1 {
				if a, ok := t[1].(hcl.TraverseAttr); ok {
					locals[a.Name] = env.local(a.Name)
				}
			}
		default:
			ctx.Variables[root] = cty.DynamicVal
		}
	}
	if len(locals) > 0 {
		ctx.Variables["local"] = cty.ObjectVal(locals)
	}
	v, diags := e.Value(ctx)
	v, _ = v.UnmarkDeep()
	return v, diags
}

// local is the value of a local value, unknown where it depends on
// anything unknown, fails, or refers to itself.
func (env *constEnv) local(name string) cty.Value {
	if v, ok := env.locals[name]; ok {
		return v
	}
	l := env.c.m.Locals[name]
	if l == nil || env.busy[name] {
		return cty.DynamicVal
	}
	env.busy[name] = true
	v, diags := env.eval(l.Expr, true)
	delete(env.busy, name)
	if diags.HasErrors() {
		v = cty.DynamicVal
	}
	env.locals[name] = v
	return v
}

// readsFile is whether function name reads the module's files, as its
// spec says.
func readsFile(name string) bool {
	s, ok := tofufuncs.Lookup(name)
	return ok && s.ReadsFiles
}

// foldReads works out, when converting, an expression that reads the
// module's files through names it binds itself, such as
//
//	{for f in fileset(path.module, "conf/*.yaml") : f => yamldecode(file("${path.module}/conf/${f}"))}
//
// where no single call is known on its own. It applies only to
// expressions that call a function reading files, and only where the
// whole value is known (see constValue): it becomes a literal.
func (c *converter) foldReads(e hclsyntax.Expression) (ast.Expr, kind, bool) {
	if !readsFiles(e) {
		return nil, kindUnknown, false
	}
	v, _, ok := c.constValue(e)
	if !ok {
		return nil, kindUnknown, false
	}
	x, k := c.literal(v, e.Range())
	return x, k, true
}

// maxFoldedInstances bounds the instances foldEach works an expression
// out for: past it, the table would be larger than the module.
const maxFoldedInstances = 1000

// foldEach works out, when converting, an expression in a block whose
// for_each is known then that reads the module's files through each, such
// as
//
//	resource "x" "y" {
//	  for_each = fileset(path.module, "conf/*.yaml")
//	  config   = yamldecode(file("${path.module}/${each.key}"))
//	}
//
// or in the content of a dynamic block whose for_each is known, through
// its iterator; where no call is known on its own but every instance's
// value is: it becomes a table of the instances' values, selected by the
// instance's key. The
// files are read then, with OpenTofu's own functions, as constValue
// reads them.
func (c *converter) foldEach(e hclsyntax.Expression) (ast.Expr, kind, bool) {
	if !readsFiles(e) {
		return nil, kindUnknown, false
	}
	// The one name e uses that a for_each binds: each, or a dynamic
	// block's iterator.
	var name string
	var b binding
	for _, t := range e.Variables() {
		root := t.RootName()
		if bb, ok := c.lookup(root); ok && bb.forEach != nil {
			if name != "" && name != root {
				return nil, kindUnknown, false
			}
			name, b = root, bb
		}
	}
	if name == "" {
		return nil, kindUnknown, false
	}
	fe, _, ok := c.constValue(b.forEach)
	if !ok || fe.IsNull() || !fe.CanIterateElements() || fe.LengthInt() > maxFoldedInstances {
		return nil, kindUnknown, false
	}
	ty := fe.Type()
	stringSet := ty.IsSetType() && ty.ElementType() == cty.String
	if !ty.IsMapType() && !ty.IsObjectType() && !stringSet {
		return nil, kindUnknown, false
	}
	table := &ast.StructLit{}
	k := kindUnknown
	for it := fe.ElementIterator(); it.Next(); {
		key, val := it.Element()
		if ty.IsSetType() {
			key = val
		}
		each := cty.ObjectVal(map[string]cty.Value{"key": key, "value": val})
		v, _, ok := c.constValueWith(e, map[string]cty.Value{name: each})
		if !ok {
			return nil, kindUnknown, false
		}
		x, vk := c.literal(v, e.Range())
		if len(table.Elts) == 0 {
			k = vk
		} else if vk != k {
			k = kindUnknown
		}
		table.Elts = append(table.Elts, field(stringLit(key.AsString()), x))
	}
	key := ast.Expr(selector(ident(b.cue), "key"))
	switch {
	case b.iterator && ty.IsSetType():
		// The iterator's key is the element, which CUE's for over the
		// set as a list binds to the value.
		key = ident(b.value)
	case b.iterator:
		key = ident(b.key)
	}
	return index(paren(table), key), k, true
}

// readsFiles reports whether e calls a function that reads the module's
// files.
func readsFiles(e hclsyntax.Expression) bool {
	reads := false
	_ = hclsyntax.VisitAll(e, func(n hclsyntax.Node) hcl.Diagnostics {
		if call, ok := n.(*hclsyntax.FunctionCallExpr); ok && readsFile(strings.TrimPrefix(call.Name, "core::")) {
			reads = true
		}
		return nil
	})
	return reads
}

// runtimeValues names what e depends on that is known only when the module
// is planned: input variables, resources, data sources, module outputs,
// path.root and path.cwd, and the names a block or expression binds over
// such values (each, count, for variables), following local values to
// their definitions. At most limit names are given, in order of first use.
func (c *converter) runtimeValues(e hcl.Expression, limit int) []string {
	var names []string
	seen := map[string]bool{}
	busy := map[string]bool{}
	walked := map[hcl.Expression]bool{}
	var walk func(e hcl.Expression)
	add := func(name string) {
		if !seen[name] && len(names) < limit {
			seen[name] = true
			names = append(names, name)
		}
	}
	walk = func(e hcl.Expression) {
		if e == nil {
			return
		}
		for _, t := range e.Variables() {
			root, attr := rootAttr(t)
			if b, ok := c.lookup(root); ok {
				// A name's collection is walked once: in the scope of
				// the walk, a collection that names its own variable
				// ([for v in v.list : ...] inside another for over v)
				// finds that variable's binding again.
				switch {
				case b.forEach != nil:
					if !walked[b.forEach] {
						walked[b.forEach] = true
						walk(b.forEach)
					}
				case b.over != nil:
					if !walked[b.over] {
						walked[b.over] = true
						walk(b.over)
					}
				case root == "each" || root == "count":
					add(root + "." + attr)
				default:
					add(root)
				}
				continue
			}
			switch s := subjectOf(t, c.m).(type) {
			case refs.LocalValue:
				if l := c.m.Locals[s.Name]; l != nil && !busy[s.Name] {
					busy[s.Name] = true
					walk(l.Expr)
				}
			case refs.PathAttr:
				if s.Name != "module" {
					add("path." + s.Name)
				}
			case refs.TerraformAttr, refs.Self:
			default:
				add(root + "." + attr)
			}
		}
	}
	walk(e)
	return names
}

// pure is whether e depends on nothing but pure values (see pureVar):
// a root module's inputs, a called module's variables that every call
// leaves out or passes a pure value, path and terraform values and
// count.index, following local values to their definitions and the
// names a block or expression binds to the collections they range over
// (as runtimeValues does).
func (c *converter) pure(e hcl.Expression) bool {
	return c.pureIn(e, map[hcl.Expression]bool{})
}

// pureIn is pure of e, with walked the collections of bound names
// being walked (in the scope of the walk, a collection that names its
// own variable finds that variable's binding again).
func (c *converter) pureIn(e hcl.Expression, walked map[hcl.Expression]bool) bool {
	for _, t := range e.Variables() {
		root, attr := rootAttr(t)
		if b, ok := c.lookup(root); ok {
			over := b.forEach
			if over == nil {
				over = b.over
			}
			switch {
			case over != nil:
				if !walked[over] {
					walked[over] = true
					if !c.pureIn(over, walked) {
						return false
					}
				}
			case root == "count" && attr == "index":
			default:
				return false
			}
			continue
		}
		if !c.a.pureRef(t) {
			return false
		}
	}
	return true
}

// rootAttr is t's root name and the attribute its second step names ("" for
// none): var and x of var.x.
func rootAttr(t hcl.Traversal) (root, attr string) {
	if len(t) > 1 {
		if a, ok := t[1].(hcl.TraverseAttr); ok {
			attr = a.Name
		}
	}
	return t.RootName(), attr
}

// runtimeReason says why e is not known when converting, naming the
// values it depends on, or "" when it names none.
func (c *converter) runtimeReason(e hcl.Expression) string {
	names := c.runtimeValues(e, 4)
	switch len(names) {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf(" Here it depends on %s, known only when the module is planned.", names[0])
	}
	return fmt.Sprintf(" Here it depends on %s and %s, known only when the module is planned.", strings.Join(names[:len(names)-1], ", "), names[len(names)-1])
}
