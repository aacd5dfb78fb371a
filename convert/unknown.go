package convert

import (
	"strings"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/token"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tofucue/tofucue/config"
	tofufuncs "github.com/tofucue/tofucue/functions"
	"github.com/tofucue/tofucue/refs"
)

// Values not known yet. The engine gives a value that OpenTofu does not
// know while planning as its CUE type (string), and CUE's type is what
// OpenTofu's unknown is: a comparison or a function of it is not known
// either. But CUE's interpolation of a type, or a builtin called with one,
// is an incomplete error, not a type, and CUE has no test that tells an
// incomplete error from any other: a disjunction drops both. So try(x,
// null), where x is "${aws_s3_bucket.b.id}-logs", took its fallback, and a
// block's list attribute unified with a list holding such an error left
// its schema's disjunction undecided, where OpenTofu's value is an unknown
// string.
//
// A template, or a call of a function whose string result is not known
// while an argument is not (upper, replace), that may wait for a value not
// known yet is therefore written with a guard beside it (unknownGuard),
//
//	"\(x)-logs" | (tofu.#unknown & {#args: [x]}).out
//
// over the references the expression reads that may not be known while
// planning (not a root module's input, count.index or a data source read
// while planning: see guardRef): the guard is string while one of
// them is not known yet and every one is a string, number or bool, and an
// error otherwise (a reference that is an error, null, a list or a
// struct, or every one known), which the disjunction drops, leaving the
// template itself. A reference that is a list or a struct (join(",",
// var.names)) keeps the template alone, as before. A reference known while
// planning is not tested: where it is null beside one not known yet (an
// error in OpenTofu's plan), the template's error shows at apply.

// atPlan is whether function name's result is not known until apply: its
// spec's phase says so (timestamp, uuid, bcrypt).
func atPlan(name string) bool {
	s, ok := tofufuncs.Lookup(name)
	return ok && s.Phase == tofufuncs.Apply
}

// mayBeUnknown is whether e may have a value not known while planning: it
// reads a resource, a data source (but for one read while planning, in
// the planning view: see dataKnown), a module output that may be, a
// variable of a called module that a call may pass such a value (the
// root's inputs are known; see knownVariables), a local that may be
// unknown, an iterator over a value that may be, or calls timestamp or
// uuid.
func (a *analysis) mayBeUnknown(in names, e hclsyntax.Expression) bool {
	for _, t := range hclsyntax.Variables(e) {
		if a.traversalMayBeUnknown(in, t) {
			return true
		}
	}
	return len(atPlanCalls(e)) > 0
}

// atPlanCalls are the calls in e of functions whose result is not known
// until apply.
func atPlanCalls(e hclsyntax.Expression) []*hclsyntax.FunctionCallExpr {
	var calls []*hclsyntax.FunctionCallExpr
	_ = hclsyntax.VisitAll(e, func(n hclsyntax.Node) hcl.Diagnostics {
		if f, ok := n.(*hclsyntax.FunctionCallExpr); ok && atPlan(strings.TrimPrefix(f.Name, "core::")) {
			calls = append(calls, f)
		}
		return nil
	})
	return calls
}

// traversalMayBeUnknown is mayBeUnknown for one reference.
func (a *analysis) traversalMayBeUnknown(in names, t hcl.Traversal) bool {
	root := t.RootName()
	if b, ok := in.facts(root); ok {
		if root == "each" && len(t) > 1 {
			if at, isAttr := t[1].(hcl.TraverseAttr); isAttr && at.Name == "key" {
				return false
			}
		}
		return !b.known
	}
	ref, _ := refs.Parse(t, a.m)
	if ref == nil {
		return true // not a reference OpenTofu reads; reported where converted
	}
	switch s := ref.Subject.(type) {
	case refs.InputVariable:
		return !a.knownVars[s.Name] && a.called
	case refs.CountAttr, refs.PathAttr, refs.TerraformAttr:
		return false
	case refs.LocalValue:
		return a.localMayBeUnknown(s.Name)
	case refs.ModuleCall, refs.ModuleCallInstance, refs.ModuleCallOutput:
		return !a.outputKnown(t)
	case refs.Resource:
		return a.resourceMayBeUnknown(s, t)
	case refs.ResourceInstance:
		return a.resourceMayBeUnknown(s.Resource, t)
	}
	return true
}

// resourceMayBeUnknown is traversalMayBeUnknown for t, a reference to r:
// a data source's attribute is known where the source is read while
// planning, a managed resource's where the argument it reads is
// configured with a value known then (t written TYPE.NAME..., without the
// resource. prefix, which is taken as not known).
func (a *analysis) resourceMayBeUnknown(r refs.Resource, t hcl.Traversal) bool {
	switch r.Mode {
	case config.DataMode:
		return !a.readsData || !a.dataKnown(t)
	case config.ManagedMode:
		return t.RootName() != r.Type || !a.configuredKnown(t)
	}
	return true
}

// outputKnown is whether t reads an output known while planning
// (callOutputs) of a module call whose instances are known then: one
// without count, for_each or enabled, or with them known, read by an
// instance's key that is a constant (module.net["a"].id).
func (a *analysis) outputKnown(t hcl.Traversal) bool {
	if len(t) < 3 {
		return false
	}
	name, ok := t[1].(hcl.TraverseAttr)
	if !ok {
		return false
	}
	mc := a.m.ModuleCalls[name.Name]
	if mc == nil {
		return false
	}
	step := t[2]
	multi := mc.Count != nil || mc.ForEach != nil
	if _, index := step.(hcl.TraverseIndex); index != multi {
		return false
	}
	if multi {
		if len(t) < 4 {
			return false
		}
		step = t[3]
	}
	for _, meta := range []hcl.Expression{mc.Count, mc.ForEach, mc.Enabled} {
		if meta != nil && !a.knownIn(noNames{}, meta) {
			return false
		}
	}
	out, ok := step.(hcl.TraverseAttr)
	return ok && a.callOutputs[name.Name][out.Name]
}

// dataKnown is whether t reads a data source that is read while planning,
// so that every attribute of it is known then: one of the root module
// (a called module's may wait for its call's depends_on) whose
// configuration is wholly known (its count, for_each, enabled, arguments
// and nested blocks, dynamic ones included) and that depends on nothing
// but data sources, as engine/hcl reads data sources and as OpenTofu does.
//
// Only the unknown guard asks the analysis that takes such an attribute
// as known (analysis.planning, see guardRef): the engine decides the other
// forms chosen for values known while planning (a conditional that makes
// a field, written as the field's if) only once it has read the data
// source, and with every form taking it as known, terraform-aws-vpc's
// examples lost a for_each's instance in the shape rounds (since mended
// there: golden/verify/data_module_argument) and terraform-aws-kms's
// examples/complete planned past 8 GiB.
func (a *analysis) dataKnown(t hcl.Traversal) bool {
	if a.called || len(t) < 3 {
		return false
	}
	typ, ok1 := t[1].(hcl.TraverseAttr)
	name, ok2 := t[2].(hcl.TraverseAttr)
	if !ok1 || !ok2 {
		return false
	}
	key := typ.Name + "." + name.Name
	r := a.m.DataResources[key]
	if r == nil {
		return false
	}
	if known, ok := a.dataRead[key]; ok {
		return known
	}
	// A cycle adds nothing.
	a.dataRead[key] = false
	known := a.dataConfigKnown(r)
	a.dataRead[key] = known
	return known
}

// dataConfigKnown is dataKnown's test of a data source's configuration.
func (a *analysis) dataConfigKnown(r *config.Resource) bool {
	for _, tr := range r.DependsOn {
		if tr.RootName() != "data" {
			return false
		}
	}
	for _, x := range []hcl.Expression{r.Count, r.ForEach, r.Enabled} {
		if x != nil && !a.knownIn(noNames{}, x) {
			return false
		}
	}
	body, ok := r.Config.(*hclsyntax.Body)
	if !ok {
		return false
	}
	each := nameFacts{known: true}
	return a.bodyKnown(within{noNames{}, map[string]nameFacts{"each": each}}, body)
}

// bodyKnown is whether every argument of body, and of its nested and
// dynamic blocks, is known while planning; a dynamic block's iterator is
// known where its for_each is.
func (a *analysis) bodyKnown(in names, body *hclsyntax.Body) bool {
	for _, attr := range body.Attributes {
		if a.mayBeUnknown(in, attr.Expr) {
			return false
		}
	}
	for _, b := range body.Blocks {
		if b.Type != "dynamic" {
			if !a.bodyKnown(in, b.Body) {
				return false
			}
			continue
		}
		if len(b.Labels) != 1 {
			return false
		}
		iter := b.Labels[0]
		var content *hclsyntax.Body
		for name, attr := range b.Body.Attributes {
			switch name {
			case "for_each", "labels":
				if a.mayBeUnknown(in, attr.Expr) {
					return false
				}
			case "iterator":
				if iter = hcl.ExprAsKeyword(attr.Expr); iter == "" {
					return false
				}
			default:
				return false
			}
		}
		for _, inner := range b.Body.Blocks {
			if inner.Type != "content" || content != nil {
				return false
			}
			content = inner.Body
		}
		if content == nil || !a.bodyKnown(within{in, map[string]nameFacts{iter: {known: true}}}, content) {
			return false
		}
	}
	return true
}

// configuredKnown is whether t reads an argument of a managed resource
// of the module (TYPE.NAME.ATTR, or an instance's, TYPE.NAME[i].ATTR)
// that its configuration sets to a value known while planning, with no
// null literal in it: in CUE, the attribute is then the argument's
// value, concrete, which the engine does not change (it unifies the
// provider's value only into an attribute not given or null by default,
// see nullByDefault, which a null literal may become). An attribute the
// configuration does not set is the provider's; a nested block's is not
// looked for. The argument's expression is read in its resource's scope,
// where count.index is known, and each.key and each.value are where the
// for_each is.
func (a *analysis) configuredKnown(t hcl.Traversal) bool {
	if len(t) < 3 {
		return false
	}
	name, ok := t[1].(hcl.TraverseAttr)
	if !ok {
		return false
	}
	r := a.m.ManagedResources[t.RootName()+"."+name.Name]
	if r == nil {
		return false
	}
	step := t[2]
	if _, index := step.(hcl.TraverseIndex); index && len(t) > 3 {
		step = t[3]
	}
	attr, ok := step.(hcl.TraverseAttr)
	if !ok {
		return false
	}
	body, ok := r.Config.(*hclsyntax.Body)
	if !ok {
		return false
	}
	arg := body.Attributes[attr.Name]
	if arg == nil || holdsNull(arg.Expr) {
		return false
	}
	key := r.Type + "." + r.Name + "." + attr.Name
	if known, ok := a.argumentsKnown[key]; ok {
		return known
	}
	// A cycle adds nothing.
	a.argumentsKnown[key] = false
	eachKnown := r.ForEach == nil || a.knownIn(noNames{}, r.ForEach)
	known := !a.mayBeUnknown(within{noNames{}, map[string]nameFacts{"each": {known: eachKnown}}}, arg.Expr)
	a.argumentsKnown[key] = known
	return known
}

// localMayBeUnknown is mayBeUnknown for a local value's expression, which
// is read in no scope of the declaration being converted. A cycle adds
// nothing; an undeclared local is reported where it is read.
func (a *analysis) localMayBeUnknown(name string) bool {
	return perLocal(a, a.localsUnknown, name, false, func(x hcl.Expression) bool {
		e, ok := x.(hclsyntax.Expression)
		if !ok {
			return true
		}
		return a.mayBeUnknown(noNames{}, e)
	})
}

// knownIn is the known flag of the bindings of an iteration over src: its
// keys and values are known where src is.
func (a *analysis) knownIn(in names, src hcl.Expression) bool {
	e, ok := src.(hclsyntax.Expression)
	return ok && !a.mayBeUnknown(in, e)
}

// unknownScope is called before the template or call e is converted; the
// function it returns takes the conversion x and gives x, or the string
// not known yet where e waits for values not known yet (see above); the
// caller gives it each conversion it returns. A template or call inside
// one that gets the test needs none of its own: the outer test reads the
// same references, and the outer value is not known where the inner one
// is not (see guard).
func (c *converter) unknownScope(e hclsyntax.Expression) func(ast.Expr) ast.Expr {
	read := c.unknownRefs(e)
	if read == nil {
		return func(x ast.Expr) ast.Expr { return x }
	}
	c.guard(e)
	return func(x ast.Expr) ast.Expr {
		if _, lit := x.(*ast.BasicLit); lit {
			return x
		}
		return binary(token.OR, x, c.unknownGuard(read))
	}
}

// guard records that the expressions inside e, which unknownScope
// guards, need no guard of their own: the guard of e reads the same
// references, and e is not known where they are not.
func (c *converter) guard(e hclsyntax.Expression) {
	if c.guarded == nil {
		c.guarded = map[hclsyntax.Expression]bool{}
	}
	_ = hclsyntax.VisitAll(e, func(n hclsyntax.Node) hcl.Diagnostics {
		if x, ok := n.(hclsyntax.Expression); ok && x != e {
			c.guarded[x] = true
		}
		return nil
	})
}

// unknownGuard is string while one of the references read is not known
// yet and each is a string, number or bool (of a type or a value), an
// error otherwise: the library's #unknown of them,
//
//	(tofu.#unknown & {#args: [x, y]}).out
//
// (see there). A ref that is a type itself (timestamp() is string) is
// not known yet by its form; the guard of such reads alone is string.
//
// The test was written in place for a while, [if x == _|_ if [(*x |
// 'error') & tofu.#scalar] != _|_ {string}][0], four machine constructs
// per template (more than a tenth of all those the corpus's CUE held),
// which CUE evaluates without building a definition's instance: at 5000
// resources, the templated chain of engine/cue's BenchmarkPlan plans in
// 6.0 times the HCL side's time that way and 7.6 times through the
// library; the corpus's slowest examples (terraform-aws-s3-bucket's
// complete and directory-bucket, eks's fargate profile test, vpc's
// complete) verify within 5% of the same time either way.
func (c *converter) unknownGuard(read []ast.Expr) ast.Expr {
	for _, r := range read {
		if !typeRead(r) {
			return c.lib("unknown", read...)
		}
	}
	return ident("string")
}

// unknownRefs is what unknownGuard reads for e: the references e reads
// that may not be known while planning, and its calls of timestamp or
// uuid (string); nil where e needs no guard:
// inside another that has one, where it reads no value that may be
// unknown, and where one of its references is known to be a list or a
// map, for which the guard would be an error.
func (c *converter) unknownRefs(e hclsyntax.Expression) []ast.Expr {
	if c.guarded[e] || !c.a.planning.mayBeUnknown(c, e) {
		return nil
	}
	read, kinds, ts := c.readRefs(e, nil)
	for _, k := range kinds {
		if k == kindList || k == kindMap {
			return nil
		}
	}
	var tested []ast.Expr
	for i, r := range read {
		if ts[i] == nil || c.guardRef(ts[i]) {
			tested = append(tested, r)
		}
	}
	return tested
}

// guardRef is whether the unknown guard tests reference t: one that may
// not be known while planning, a data source read while planning and
// what is computed from one being known (see dataKnown).
func (c *converter) guardRef(t hcl.Traversal) bool {
	return c.a.planning.traversalMayBeUnknown(c, t)
}

// pendingRef is whether reference t may not be known while planning.
func (c *converter) pendingRef(t hcl.Traversal) bool {
	return c.a.traversalMayBeUnknown(c, t)
}

// readRefs is the references e reads, converted, with their kinds and
// traversals, and its calls of timestamp or uuid (string, with no
// traversal): those keep takes, or all where keep is nil (pendingRef
// keeps only the references that may not be known while planning, not
// count.index, each.key, path.module, ...).
func (c *converter) readRefs(e hclsyntax.Expression, keep func(hcl.Traversal) bool) ([]ast.Expr, []kind, []hcl.Traversal) {
	var read []ast.Expr
	var kinds []kind
	var ts []hcl.Traversal
	seen := map[string]bool{}
	diags, reasons := len(c.diags), len(c.reasons)
	for _, t := range hclsyntax.Variables(e) {
		text := traversalText(t)
		if seen[text] || keep != nil && !keep(t) {
			continue
		}
		seen[text] = true
		ref, k := c.expr(&hclsyntax.ScopeTraversalExpr{Traversal: t, SrcRange: t.SourceRange()})
		read, kinds, ts = append(read, ref), append(kinds, k), append(ts, t)
	}
	for _, f := range atPlanCalls(e) {
		ref, _ := c.expr(f)
		read, kinds, ts = append(read, ref), append(kinds, kindString), append(ts, nil)
	}
	// The references are converted with e too, which reports whatever
	// they have to report.
	c.diags, c.reasons = c.diags[:diags], c.reasons[:reasons]
	return read, kinds, ts
}

// holdsNull reports whether a null literal occurs in e.
func holdsNull(e hclsyntax.Expression) bool {
	found := false
	_ = hclsyntax.VisitAll(e, func(n hclsyntax.Node) hcl.Diagnostics {
		if l, ok := n.(*hclsyntax.LiteralValueExpr); ok && l.Val.IsNull() {
			found = true
		}
		return nil
	})
	return found
}
