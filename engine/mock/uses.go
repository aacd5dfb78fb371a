package mock

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/config"
	tofufuncs "github.com/tofucue/tofucue/functions"
	"github.com/tofucue/tofucue/refs"
)

// resolved is what an expression reaches inside a resource: the steps
// after an instance of the type, or the whole resource (all instances).
// alts are the other things it may reach: the branches of a conditional,
// the arguments of try or merge.
type resolved struct {
	key   typeKey
	steps []step
	whole bool
	// items, where set, makes this a collection built by the module (a
	// for expression's result, an object or tuple constructor): an
	// element of it reaches what items picks, and key, steps and whole
	// are unused.
	items *items
	alts  []*resolved
}

// items are the elements of a collection the module builds.
type items struct {
	// any is what any element reaches: a for expression's value, or
	// any of a constructor's values.
	any *resolved
	// byKey are an object constructor's values by their static keys,
	// byIndex a tuple constructor's elements: what a constant key or
	// index picks. An element they do not have reaches nothing.
	byKey   map[string]*resolved
	byIndex []*resolved
}

// pick is what the element that s selects reaches.
func (it *items) pick(s step) *resolved {
	switch {
	case it.byKey != nil && (s.kind == stepAttr || s.kind == stepKey):
		return it.byKey[s.name]
	case it.byIndex != nil && s.kind == stepIndex:
		if s.index < len(it.byIndex) {
			return it.byIndex[s.index]
		}
		return nil
	}
	return it.any
}

// one is r without its alternatives.
func (r *resolved) one() *resolved {
	return &resolved{key: r.key, steps: r.steps, whole: r.whole, items: r.items}
}

// union is what any of rs reaches; nil where none reaches anything.
func union(rs ...*resolved) *resolved {
	var out *resolved
	for _, r := range rs {
		if r == nil {
			continue
		}
		if out == nil {
			out = r.one()
		} else {
			out.alts = append(out.alts, r.one())
		}
		out.alts = append(out.alts, r.alts...)
	}
	return out
}

// each is r and its alternatives, one by one.
func (r *resolved) each(f func(*resolved) *resolved) *resolved {
	if r == nil {
		return nil
	}
	out := f(r.one())
	for _, a := range r.alts {
		out = union(out, f(a))
	}
	return out
}

func (r *resolved) with(steps ...step) *resolved {
	if r == nil || len(steps) == 0 {
		return r
	}
	return r.each(func(r *resolved) *resolved {
		if r.items != nil {
			// The element the first step picks, then the steps after
			// it.
			return r.items.pick(steps[0]).with(steps[1:]...)
		}
		if r.whole {
			// The whole resource followed by more steps: the first
			// index (or splat) picks an instance; an attribute
			// reaches a single instance's.
			steps := steps
			if steps[0].kind != stepAttr {
				steps = steps[1:]
			}
			return &resolved{key: r.key, steps: steps}
		}
		out := make([]step, 0, len(r.steps)+len(steps))
		out = append(append(out, r.steps...), steps...)
		return &resolved{key: r.key, steps: out}
	})
}

// elem is the element of the collection r reaches: an instance for the
// whole resource.
func (r *resolved) elem() *resolved {
	return r.each(func(r *resolved) *resolved {
		if r.whole {
			return &resolved{key: r.key}
		}
		return r.with(step{kind: stepElem})
	})
}

// collection is a collection built by the module whose elements reach
// what elem reaches, and those of byKey and byIndex as they say; nil
// where no element reaches anything.
func collection(elem *resolved, byKey map[string]*resolved, byIndex []*resolved) *resolved {
	if elem == nil {
		return nil
	}
	return &resolved{items: &items{any: elem, byKey: byKey, byIndex: byIndex}}
}

// walker finds the uses of resource attributes in a module's native
// syntax: references, splats, for expressions over resources, dynamic
// block iterators, and the contexts that tell a type (function arguments,
// operators, conditions, for_each and count). The names that for
// expressions and dynamic blocks bind are the refs.Scope's; the walker
// follows a bound name to an element of the collection it ranges over
// through elems.
type walker struct {
	m    *config.Module
	inf  *inference
	anon map[*hclsyntax.AnonSymbolExpr]*resolved
	// elems is what an element of each collection that a for expression
	// or a dynamic block ranges over reaches, keyed by the collection (its
	// refs.Binding's Over). It is set as the walk evaluates the
	// collection, before the names bound to it are read.
	elems map[hcl.Expression]*resolved
	self  *typeKey
	// quiet walks a value only for what it reaches (see follow): the
	// uses inside it are its own module's walk's to record.
	quiet bool
}

func (w *walker) record(r *resolved, h hint, f stringForm) {
	if r == nil || w.quiet {
		return
	}
	for _, a := range r.alts {
		w.record(a, h, f)
	}
	if r.whole || r.items != nil || len(r.steps) == 0 {
		return
	}
	w.inf.uses[r.key] = append(w.inf.uses[r.key], rawUse{steps: r.steps, hint: h, form: f})
}

func (w *walker) file(body *hclsyntax.Body) {
	for _, name := range sortedKeys(body.Attributes) {
		w.attr(name, body.Attributes[name].Expr, nil)
	}
	for _, blk := range body.Blocks {
		var self *typeKey
		if len(blk.Labels) == 2 {
			switch blk.Type {
			case "resource":
				self = &typeKey{config.ManagedMode, blk.Labels[0]}
			case "data":
				self = &typeKey{config.DataMode, blk.Labels[0]}
			case "ephemeral":
				self = &typeKey{config.EphemeralMode, blk.Labels[0]}
			}
		}
		// self is the resource everywhere in its block: where tofu
		// does not give it, the module fails validation before any
		// schema matters.
		w.self = self
		w.body(blk.Body, nil)
		w.self = nil
	}
}

func (w *walker) body(body *hclsyntax.Body, sc *refs.Scope) {
	for _, name := range sortedKeys(body.Attributes) {
		w.attr(name, body.Attributes[name].Expr, sc)
	}
	for _, blk := range body.Blocks {
		if blk.Type == "dynamic" && len(blk.Labels) == 1 {
			w.dynamic(blk, sc)
			continue
		}
		w.body(blk.Body, sc)
	}
}

// attr walks an argument's expression; some argument names tell the type
// of a value they take whole.
func (w *walker) attr(name string, expr hclsyntax.Expression, sc *refs.Scope) {
	r := w.expr(expr, sc)
	switch name {
	case "for_each":
		w.record(r, hintMap, formNone)
	case "count":
		w.record(r, hintNumber, formNone)
	case "enabled", "condition":
		w.record(r, hintBool, formNone)
	}
}

func (w *walker) dynamic(blk *hclsyntax.Block, sc *refs.Scope) {
	var forEach, iterator hcl.Expression
	if a, ok := blk.Body.Attributes["for_each"]; ok {
		forEach = a.Expr
		w.elems[forEach] = w.expr(a.Expr, sc).elem()
	}
	if a, ok := blk.Body.Attributes["iterator"]; ok {
		iterator = a.Expr
	}
	inner := sc.Dynamic(blk.Labels[0], forEach, iterator)
	for _, name := range sortedKeys(blk.Body.Attributes) {
		if name != "for_each" {
			w.expr(blk.Body.Attributes[name].Expr, inner)
		}
	}
	for _, c := range blk.Body.Blocks {
		w.body(c.Body, inner)
	}
}

// expr records the uses inside an expression and returns what the
// expression itself reaches, if it is a path into a resource.
func (w *walker) expr(e hclsyntax.Expression, sc *refs.Scope) *resolved {
	switch e := e.(type) {
	case nil:
		return nil
	case *hclsyntax.ScopeTraversalExpr:
		r := w.traversal(e.Traversal, sc)
		w.record(r, 0, formNone)
		return r
	case *hclsyntax.RelativeTraversalExpr:
		r := w.expr(e.Source, sc).with(stepsOf(e.Traversal)...)
		w.record(r, 0, formNone)
		return r
	case *hclsyntax.IndexExpr:
		coll := w.expr(e.Collection, sc)
		w.expr(e.Key, sc)
		r := coll.with(indexStep(e.Key))
		w.record(r, 0, formNone)
		return r
	case *hclsyntax.SplatExpr:
		src := w.expr(e.Source, sc)
		w.record(src, hintList, formNone)
		w.anon[e.Item] = src.elem()
		w.expr(e.Each, sc)
		delete(w.anon, e.Item)
		if e.Each == e.Item {
			// x[*] is x's elements as they are.
			return src
		}
		return nil
	case *hclsyntax.AnonSymbolExpr:
		return w.anon[e]
	case *hclsyntax.ForExpr:
		coll := w.expr(e.CollExpr, sc)
		w.record(coll, hintList, formNone)
		w.elems[e.CollExpr] = coll.elem()
		inner := sc.For(e)
		w.expr(e.KeyExpr, inner)
		val := w.expr(e.ValExpr, inner)
		w.expr(e.CondExpr, inner)
		if t, ok := e.ValExpr.(*hclsyntax.ScopeTraversalExpr); ok && len(t.Traversal) == 1 && t.Traversal.RootName() == e.ValVar {
			// {for v in x : k => v}: x's elements, keyed otherwise.
			return coll
		}
		// A collection of what the value reaches: [for v in x :
		// merge(v, {...})][0].name reads the name of an element of x.
		return collection(val, nil, nil)
	case *hclsyntax.FunctionCallExpr:
		return w.call(e, sc)
	case *hclsyntax.BinaryOpExpr:
		l, r := w.expr(e.LHS, sc), w.expr(e.RHS, sc)
		switch e.Op {
		case hclsyntax.OpAdd, hclsyntax.OpSubtract, hclsyntax.OpMultiply, hclsyntax.OpDivide, hclsyntax.OpModulo,
			hclsyntax.OpGreaterThan, hclsyntax.OpGreaterThanOrEqual, hclsyntax.OpLessThan, hclsyntax.OpLessThanOrEqual:
			w.record(l, hintNumber, formNone)
			w.record(r, hintNumber, formNone)
		case hclsyntax.OpLogicalAnd, hclsyntax.OpLogicalOr:
			w.record(l, hintBool, formNone)
			w.record(r, hintBool, formNone)
		}
		return nil
	case *hclsyntax.UnaryOpExpr:
		v := w.expr(e.Val, sc)
		switch e.Op {
		case hclsyntax.OpLogicalNot:
			w.record(v, hintBool, formNone)
		case hclsyntax.OpNegate:
			w.record(v, hintNumber, formNone)
		}
		return nil
	case *hclsyntax.ConditionalExpr:
		w.record(w.expr(e.Condition, sc), hintBool, formNone)
		return union(w.expr(e.TrueResult, sc), w.expr(e.FalseResult, sc))
	case *hclsyntax.ParenthesesExpr:
		return w.expr(e.Expression, sc)
	case *hclsyntax.TemplateWrapExpr:
		return w.expr(e.Wrapped, sc)
	case *hclsyntax.TemplateExpr:
		for _, p := range e.Parts {
			w.expr(p, sc)
		}
		return nil
	case *hclsyntax.TemplateJoinExpr:
		w.expr(e.Tuple, sc)
		return nil
	case *hclsyntax.TupleConsExpr:
		// A collection of what its elements reach: [a, b][1].id is
		// b's id, [a, b][i].id either's.
		var elems []*resolved
		for _, x := range e.Exprs {
			elems = append(elems, w.expr(x, sc))
		}
		return collection(union(elems...), nil, elems)
	case *hclsyntax.ObjectConsExpr:
		// Likewise its values: the one a constant key names, any of
		// them for another ({JOB = google_cloud_run_v2_job.job[0],
		// ...}[var.type].uri, fabric's cloud-run-v2).
		var vals []*resolved
		byKey := map[string]*resolved{}
		for _, item := range e.Items {
			w.expr(item.KeyExpr, sc)
			v := w.expr(item.ValueExpr, sc)
			vals = append(vals, v)
			if byKey != nil {
				if k, ok := config.ConstantKey(item.KeyExpr); ok {
					byKey[k] = v
				} else {
					byKey = nil // a key known only when evaluated
				}
			}
		}
		return collection(union(vals...), byKey, nil)
	case *hclsyntax.ObjectConsKeyExpr:
		if !e.ForceNonLiteral && hcl.ExprAsKeyword(e.Wrapped) != "" {
			return nil // a bare name is a literal key
		}
		w.expr(e.Wrapped, sc)
		return nil
	case *hclsyntax.LiteralValueExpr:
		return nil
	}
	// Anything else: its traversals are plain references.
	for _, t := range e.Variables() {
		w.record(w.traversal(t, sc), 0, formNone)
	}
	return nil
}

// traversal resolves an absolute traversal in sc: a bound name (an
// element of what its collection reaches: a for value, an iterator's
// .value), self, or a reference to a resource.
func (w *walker) traversal(t hcl.Traversal, sc *refs.Scope) *resolved {
	root, _ := sc.Resolve(t, w.m)
	if b := root.Binding; b != nil {
		rest := stepsOf(root.Rest)
		switch b.Kind {
		case refs.ForValue:
			return w.elems[b.Over].with(rest...)
		case refs.Iterator:
			if len(rest) == 0 || rest[0].kind != stepAttr || rest[0].name != "value" {
				return nil
			}
			return w.elems[b.Over].with(rest[1:]...)
		}
		return nil // a key reaches no attribute
	}
	if root.Reference == nil {
		return nil
	}
	if _, ok := root.Reference.Subject.(refs.Self); ok {
		if w.self == nil {
			return nil
		}
		return &resolved{key: *w.self, steps: stepsOf(root.Reference.Remaining)}
	}
	return w.fromRef(root.Reference)
}

// fromRef is what ref reaches: a resource, or what the value of a local
// value, of a called module's output or of the module's callers'
// arguments reaches (local.subnets = aws_subnet.this, then
// local.subnets[0].arn).
func (w *walker) fromRef(ref *refs.Reference) *resolved {
	switch s := ref.Subject.(type) {
	case refs.LocalValue:
		if l := w.m.Locals[s.Name]; l != nil {
			return w.follow(w.m, l.Expr).with(stepsOf(ref.Remaining)...)
		}
		return nil
	case refs.ModuleCallOutput:
		if child := w.inf.child(w.m, s.Call.Call.Name); child != nil && child.Outputs[s.Name] != nil {
			return w.follow(child, child.Outputs[s.Name].Expr).with(stepsOf(ref.Remaining)...)
		}
		return nil
	case refs.InputVariable:
		// What each call of the module gives the variable reaches
		// (terraform-aws-acm's route53_records_only example: a
		// variable given another call's output, the certificate's
		// domain_validation_options, whose elements the module reads
		// resource_record_name of).
		var out *resolved
		for _, c := range w.inf.callersOf(w.m) {
			if b, ok := c.call.Config.(*hclsyntax.Body); ok && b.Attributes[s.Name] != nil {
				out = union(out, w.follow(c.in, b.Attributes[s.Name].Expr))
			}
		}
		return out.with(stepsOf(ref.Remaining)...)
	}
	return fromRef(ref)
}

// follow is what the value e, of a local value or an output of m,
// reaches, walked quietly at m's top level; a value that is being
// followed (a cycle, which OpenTofu refuses) reaches nothing. Each value
// is followed once.
func (w *walker) follow(m *config.Module, e hcl.Expression) *resolved {
	x, ok := e.(hclsyntax.Expression)
	if !ok || w.inf.following[e] {
		return nil
	}
	if r, ok := w.inf.followed[e]; ok {
		return r
	}
	w.inf.following[e] = true
	q := &walker{m: m, inf: w.inf, anon: map[*hclsyntax.AnonSymbolExpr]*resolved{}, elems: map[hcl.Expression]*resolved{}, quiet: true}
	r := q.expr(x, nil)
	delete(w.inf.following, e)
	w.inf.followed[e] = r
	return r
}

func fromRef(ref *refs.Reference) *resolved {
	if ref == nil {
		return nil
	}
	switch s := ref.Subject.(type) {
	case refs.Resource:
		return &resolved{key: typeKey{s.Mode, s.Type}, whole: true}
	case refs.ResourceInstance:
		return &resolved{key: typeKey{s.Resource.Mode, s.Resource.Type}, steps: stepsOf(ref.Remaining)}
	}
	return nil
}

func stepsOf(t hcl.Traversal) []step {
	var out []step
	for _, tr := range t {
		switch s := tr.(type) {
		case hcl.TraverseAttr:
			out = append(out, step{kind: stepAttr, name: s.Name})
		case hcl.TraverseIndex:
			out = append(out, keyStep(s.Key))
		case hcl.TraverseSplat:
			out = append(out, step{kind: stepElem})
			out = append(out, stepsOf(s.Each)...)
		}
	}
	return out
}

// keyStep reads an index key: a whole non-negative number is an index, a
// string a key, anything else an element of a list.
func keyStep(k cty.Value) step {
	if k.IsNull() || !k.IsKnown() {
		return step{kind: stepElem}
	}
	switch k.Type() {
	case cty.String:
		return step{kind: stepKey, name: k.AsString()}
	case cty.Number:
		i, acc := k.AsBigFloat().Int64()
		if acc == big.Exact && i >= 0 && i < 1<<16 {
			return step{kind: stepIndex, index: int(i)}
		}
	}
	return step{kind: stepElem}
}

// indexStep reads the key of an index expression: a constant key as
// keyStep does, any other an element.
func indexStep(key hclsyntax.Expression) step {
	if key == nil || len(key.Variables()) > 0 {
		return step{kind: stepElem}
	}
	v, diags := key.Value(nil)
	if diags.HasErrors() {
		return step{kind: stepElem}
	}
	return keyStep(v)
}

// argHint is what a function's spec says of its argument: the kind of
// value it needs, as a hint, and the form of a string.
func argHint(a tofufuncs.Arg) (hint, stringForm) {
	var h hint
	switch a.Kind {
	case tofufuncs.List:
		h = hintList
	case tofufuncs.Map:
		h = hintMap
	case tofufuncs.Number:
		h = hintNumber
	case tofufuncs.Bool:
		h = hintBool
	}
	f := formNone
	switch a.Form {
	case tofufuncs.CIDR:
		f = formCIDR
	case tofufuncs.Document:
		f = formJSON
	case tofufuncs.Base64:
		f = formBase64
	case tofufuncs.Timestamp:
		f = formTime
	}
	return h, f
}

func (w *walker) call(e *hclsyntax.FunctionCallExpr, sc *refs.Scope) *resolved {
	args := make([]*resolved, len(e.Args))
	for i, a := range e.Args {
		args[i] = w.expr(a, sc)
	}
	name := strings.TrimPrefix(e.Name, "core::")
	spec, _ := tofufuncs.Lookup(name)
	for i := range args {
		if h, f := argHint(spec.Arg(i)); h != 0 || f != formNone {
			w.record(args[i], h, f)
		}
	}
	// slice(list, start, END) and element(list, INDEX) with a constant
	// bound need a list that long, as an index does.
	bound := map[string]int{"slice": 2, "element": 1}
	if i, ok := bound[name]; ok && len(args) > i && args[0] != nil {
		if s := indexStep(e.Args[i]); s.kind == stepIndex {
			if name == "slice" {
				s.index--
			}
			if s.index >= 0 {
				w.record(args[0].with(s), 0, formNone)
			}
		}
	}
	return reached(spec, args)
}

// reached is what a call reaches of a resource, where it passes a value of
// its argument through: an element of its list (one, element), the
// argument as it is (sensitive, nonsensitive), any of its arguments (try,
// coalesce), or their elements (merge, concat: a collection whose
// elements are any of theirs). one(data.x.y).id reads the id of an
// instance of data.x.y, as data.x.y[0].id does.
func reached(spec tofufuncs.Spec, args []*resolved) *resolved {
	if len(args) == 0 {
		return nil
	}
	switch spec.Passes {
	case tofufuncs.PassesElement:
		return args[0].elem()
	case tofufuncs.PassesArg:
		return args[0]
	case tofufuncs.PassesAnyArg, tofufuncs.PassesElements:
		return union(args...)
	}
	return nil
}

// otherFiles reads the uses in files that are not native syntax (JSON),
// through the references the refs package finds in them.
func (w *walker) otherFiles() {
	selfOf := map[string]typeKey{}
	for _, rs := range []map[string]*config.Resource{w.m.ManagedResources, w.m.DataResources, w.m.EphemeralResources} {
		for _, r := range rs {
			selfOf[fmt.Sprintf("%s %q %q", r.Mode.BlockType(), r.Type, r.Name)] = typeKey{r.Mode, r.Type}
		}
	}
	uses, _ := refs.InModule(w.m)
	for _, u := range uses {
		f := w.m.Files[u.Traversal.SourceRange().Filename]
		if f == nil {
			continue
		}
		if _, native := f.Body.(*hclsyntax.Body); native {
			continue
		}
		if _, ok := u.Subject.(refs.Self); ok {
			if key, ok := selfOf[u.In]; ok {
				w.record(&resolved{key: key, steps: stepsOf(u.Remaining)}, 0, formNone)
			}
			continue
		}
		w.record(fromRef(u.Reference), 0, formNone)
	}
}
