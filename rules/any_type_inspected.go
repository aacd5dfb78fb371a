package rules

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/functions"
	"github.com/tofucue/tofucue/refs"
)

// AnyTypeInspected is the rule any_type_inspected.
var AnyTypeInspected = &Rule{
	Name: "any_type_inspected",
	Doc: `Reports a variable whose type is or contains any while the module looks
inside the part that any stands for, in a way that fails when the value
has another shape. any suits a value that the module passes on whole: to
jsonencode or yamlencode, as a resource argument, a module input or an
output, through tostring-like conversions, try, coalesce or a template.
Looking inside depends on a shape that the type does not state, and a
caller's mistake then fails far from the variable: an attribute or index
access (var.x.name, var.x["k"]), a condition or a comparison (a test
against null is fine), arithmetic, and functions that look inside or
expect one kind of value (length, keys, values, lookup, merge, contains,
element, flatten, concat, upper, split, ...). Reads that tolerate a
missing part are not inspections: inside try (every argument but the
last) or can, lookup with a default, a read that the condition of the
enclosing conditional, count, for_each or for filter made first (can(P) ?
P : d, try(P, null) != null ? P : d), the last argument of a fallback
chain (try(each.value.name, var.defaults.name)), the result of a read with
a fallback used as an operand, a test for emptiness (length(var.x) > 0,
the != null of a {} default), and the variable's own validation blocks.
coalesce only skips nulls: coalesce(var.x.a, d) still fails when a is
missing. A for_each, for expression or splat over any is listed only
beside another place: the wrapper modules' for_each = var.items with every
each.value read in try is not a finding. For list(any), set(any),
map(any) and any nested in an object, what counts is inspection of the
any part itself: var.m["k"], length(var.m) and for_each = var.m only use
the collection, while var.m["k"].port, each.value.port or v.port in a for
expression over it (and functions such as flatten, sort or join that
look at the elements) inspect an element. The finding lists each place
(FILE:LINE and the expression) and, when the default value gives the
type of every part and of every attribute the module reads, proposes an
exact type: an object where the module reads attributes by name or where
attribute types differ, a map where it only iterates or indexes. It
proposes nothing rather than guess. Values that flow through locals or
module outputs are not followed, and .tf.json files are not read.

Bad:

    variable "settings" {
      type    = any
      default = { name = "app", tags = { team = "web" } }
    }
    output "name" { value = var.settings.name }

Good:

    variable "settings" {
      type    = object({ name = string, tags = map(string) })
      default = { name = "app", tags = { team = "web" } }
    }
    output "name" { value = var.settings.name }`,
	Severity: Warning,
	Enabled:  true,
	Check:    checkAnyTypeInspected,
}

// anyVar is a variable whose type constraint contains any.
type anyVar struct {
	v      *config.Variable
	ty     cty.Type
	acc    *accessTree
	places []anyInspection
	seen   map[hcl.Pos]int // index in places
}

// anyInspection is one place where the module inspects the any part of a
// variable.
type anyInspection struct {
	rng  hcl.Range
	text string
	// iteration is set for for_each, a for expression or a splat over the
	// any part: they need a collection, but fail where they are with an
	// error that names the argument, and the elements may differ in shape
	// (the wrapper modules' items). Such a place is listed only when the
	// variable has another place, one that is not an iteration.
	iteration bool
}

// strict tells whether the variable has a place that is not an iteration.
func (av *anyVar) strict() bool {
	for _, pl := range av.places {
		if !pl.iteration {
			return true
		}
	}
	return false
}

// tracked is what the classifier knows about the value of an expression
// that is all or part of an anyVar: the type constraint there, where the
// value lies in the variable (acc), and whether the expression chain has
// already been reported as inspecting it (a tolerant read does not count:
// what reads its result outside the try may still fail).
type tracked struct {
	v         *anyVar
	ty        cty.Type
	acc       *accessTree
	inspected bool
	// fallback is set on the result of a read with a fallback (try with
	// more than one argument, lookup with a default): the module takes
	// whatever is there, or the fallback. Using it as an operand converts
	// it, as a resource argument would; looking inside it still inspects.
	fallback bool
}

func (t *tracked) dynamic() bool { return t != nil && t.ty == cty.DynamicPseudoType }

// operand tells whether using t as an operand (of an operator, as a
// condition or an object key) inspects it.
func (t *tracked) operand() bool { return t.dynamic() && !t.fallback }

// anyClassifier walks a module's expressions bottom-up: each expression's
// value is evaluated to a *tracked, and each expression decides, from
// how it uses the tracked values of its operands, whether it inspects
// them. Every expression is visited once.
type anyClassifier struct {
	m    *config.Module
	vars map[string]*anyVar
	anon map[*hclsyntax.AnonSymbolExpr]anonItem
	// elems is the element of each collection that names range over: a
	// for expression's collection, the for_each of a block (each.value) or
	// of a dynamic block (the iterator's value), keyed by the expression,
	// as refs.Binding.Over and refs.Scope.ForEach name it. It is set when
	// the collection is evaluated, before the names are read; nil where
	// the collection is not tracked.
	elems map[hcl.Expression]*tracked
	// tolerant is above zero while the walk is inside a tolerant read: an
	// argument of try but the last, of can, the map of a lookup with a
	// default. A shape that the read does not find gives the fallback
	// there instead of an error, so it is not an inspection.
	tolerant int
	// guards are the parts of variables that the condition of the
	// enclosing conditional, count or for expression filter reads: a read
	// of one of them in the guarded expressions fails there first, or is
	// known to succeed (can(P) ? P : d, try(P, null) != null ? P : d).
	guards map[*accessTree]guard
	// reads, when set, collects the parts that reads reach, to make guards.
	reads map[*accessTree]guard
	// validating is the variable whose validation blocks the walk is in.
	validating *anyVar
}

func newAnyClassifier(m *config.Module, vars map[string]*anyVar) *anyClassifier {
	return &anyClassifier{m: m, vars: vars, anon: map[*hclsyntax.AnonSymbolExpr]anonItem{}, elems: map[hcl.Expression]*tracked{}}
}

// anonItem is the element that a splat's item symbol stands for, with the
// range of the whole splat expression (where an inspection of it is).
type anonItem struct {
	t   *tracked
	rng hcl.Range
}

func checkAnyTypeInspected(p *Pass) {
	vars := anyTypedVariables(p.Module)
	if len(vars) == 0 {
		return
	}
	// Only the files that refer to one of the variables can inspect it:
	// each, iterators and for variables get their values there too.
	files := map[string]bool{}
	for _, u := range p.References {
		if iv, ok := u.Subject.(refs.InputVariable); ok && vars[iv.Name] != nil {
			files[u.Range.Filename] = true
		}
	}
	if len(files) == 0 {
		return
	}
	c := newAnyClassifier(p.Module, vars)
	c.module(files)
	for _, v := range config.InOrder(p.Module.Variables) {
		av := vars[v.Name]
		if av == nil || !av.strict() {
			continue
		}
		p.Report(anyFinding(p.Module, av))
	}
}

// anyTypedVariables returns the variables whose type constraint contains
// any, by name. A type that does not parse is left out.
func anyTypedVariables(m *config.Module) map[string]*anyVar {
	out := map[string]*anyVar{}
	for name, v := range m.Variables {
		if v.TypeExpr == nil {
			continue
		}
		var ty cty.Type
		switch hcl.ExprAsKeyword(v.TypeExpr) {
		case "list":
			ty = cty.List(cty.DynamicPseudoType)
		case "map":
			ty = cty.Map(cty.DynamicPseudoType)
		default:
			t, _, diags := typeexpr.TypeConstraintWithDefaults(v.TypeExpr)
			if diags.HasErrors() {
				continue
			}
			ty = t
		}
		if !ty.HasDynamicTypes() {
			continue
		}
		out[name] = &anyVar{v: v, ty: ty, acc: &accessTree{}, seen: map[hcl.Pos]int{}}
	}
	return out
}

// module walks the native syntax files of the module that files names,
// or all of them when files is nil.
func (c *anyClassifier) module(files map[string]bool) {
	names := make([]string, 0, len(c.m.Files))
	for name := range c.m.Files {
		if files == nil || files[name] {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		if body, ok := c.m.Files[name].Body.(*hclsyntax.Body); ok {
			c.body(body, nil, true)
		}
	}
}

func (c *anyClassifier) body(b *hclsyntax.Body, sc *refs.Scope, top bool) {
	for _, attr := range b.Attributes {
		c.eval(attr.Expr, sc)
	}
	for _, blk := range b.Blocks {
		c.block(blk, sc, top)
	}
}

func (c *anyClassifier) block(blk *hclsyntax.Block, sc *refs.Scope, top bool) {
	b := blk.Body
	switch {
	case top && blk.Type == "variable":
		for name, attr := range b.Attributes {
			if name != "type" && name != "default" {
				c.eval(attr.Expr, sc)
			}
		}
		// A validation block of the variable is where a caller's mistake
		// should fail: its reads of the variable are the check itself.
		outer := c.validating
		if len(blk.Labels) == 1 {
			c.validating = c.vars[blk.Labels[0]]
		}
		for _, nested := range b.Blocks {
			c.block(nested, sc, false)
		}
		c.validating = outer
	case top && (blk.Type == "resource" || blk.Type == "data" || blk.Type == "ephemeral" || blk.Type == "module" || blk.Type == "import"):
		// count and for_each are evaluated first: what they read guards
		// the rest of the block.
		var forEach hcl.Expression
		guards := map[*accessTree]guard{}
		if attr, ok := b.Attributes["for_each"]; ok {
			t, reads := c.evalReads(attr.Expr, sc)
			if t.dynamic() {
				c.iterate(t, attr.Expr.Range(), "for_each = %s")
			}
			forEach = attr.Expr
			c.elems[forEach] = c.elementOf(t)
			maps.Copy(guards, reads)
		}
		if attr, ok := b.Attributes["count"]; ok {
			t, reads := c.evalReads(attr.Expr, sc)
			if t.dynamic() {
				c.inspect(t, attr.Expr.Range(), "count = %s")
			}
			maps.Copy(guards, reads)
		}
		// The block's other expressions are in the declaration's scope,
		// where each.value is an element of the for_each.
		_, count := b.Attributes["count"]
		inner := refs.NewScope(refs.Context{Each: forEach != nil, Count: count}, forEach)
		c.guarded(guards, func() {
			for name, attr := range b.Attributes {
				if name != "for_each" && name != "count" {
					c.eval(attr.Expr, inner)
				}
			}
			for _, nested := range b.Blocks {
				c.block(nested, inner, false)
			}
		})
	case !top && blk.Type == "dynamic" && len(blk.Labels) == 1:
		var forEach, iterator hcl.Expression
		if attr, ok := b.Attributes["iterator"]; ok {
			iterator = attr.Expr
		}
		var guards map[*accessTree]guard
		if attr, ok := b.Attributes["for_each"]; ok {
			t, reads := c.evalReads(attr.Expr, sc)
			if t.dynamic() {
				c.iterate(t, attr.Expr.Range(), "for_each = %s")
			}
			forEach = attr.Expr
			c.elems[forEach] = c.elementOf(t)
			guards = reads
		}
		inner := sc.Dynamic(blk.Labels[0], forEach, iterator)
		c.guarded(guards, func() {
			for name, attr := range b.Attributes {
				if name != "for_each" && name != "iterator" {
					c.eval(attr.Expr, inner)
				}
			}
			for _, nested := range b.Blocks {
				c.block(nested, inner, false)
			}
		})
	default:
		c.body(b, sc, false)
	}
}

// elementOf is an element of a tracked collection, as for_each and for
// expressions see it.
func (c *anyClassifier) elementOf(t *tracked) *tracked {
	if t == nil {
		return nil
	}
	switch {
	case t.dynamic():
		return &tracked{v: t.v, ty: cty.DynamicPseudoType, acc: t.acc.element(), inspected: t.inspected}
	case t.ty.IsListType(), t.ty.IsSetType(), t.ty.IsMapType():
		return &tracked{v: t.v, ty: t.ty.ElementType(), acc: t.acc.element(), inspected: t.inspected}
	}
	return nil
}

// inspect records that the expression at rng inspects the any part that
// t holds, unless the chain of t has been recorded already or the walk is
// inside a tolerant read. The place is described by format with the
// source text of rng for its %s. It tells whether the inspection counts:
// whether what reads on from here is already covered.
func (c *anyClassifier) inspect(t *tracked, rng hcl.Range, format string) bool {
	if t == nil || c.tolerant > 0 || t.v == c.validating {
		return false
	}
	c.record(t, rng, format, false)
	return true
}

// iterate records a for_each, for expression or splat over the any part
// that t holds (see anyInspection.iteration).
func (c *anyClassifier) iterate(t *tracked, rng hcl.Range, format string) {
	if t == nil || c.tolerant > 0 || t.v == c.validating {
		return
	}
	c.record(t, rng, format, true)
}

func (c *anyClassifier) record(t *tracked, rng hcl.Range, format string, iteration bool) {
	if t.inspected {
		return
	}
	if i, ok := t.v.seen[rng.Start]; ok {
		// A splat and the access of its items share the start: the
		// access makes the place more than an iteration.
		t.v.places[i].iteration = t.v.places[i].iteration && iteration
		return
	}
	t.v.seen[rng.Start] = len(t.v.places)
	t.v.places = append(t.v.places, anyInspection{rng: rng, text: strings.Replace(format, "%s", sourceText(c.m, rng, 60), 1), iteration: iteration})
}

// guard is what a condition tells of a part of a variable.
type guard uint8

const (
	// guardRead: the condition reads the part.
	guardRead guard = 1 << iota
	// guardKind: the condition tests the part's kind with
	// can(tostring(P)) and the like: the module takes values of several
	// kinds there (strings and objects in one list), which only any
	// holds, and the reads it guards are of one of them.
	guardKind
)

// evalReads evaluates e and returns, with its value, the parts of
// variables that e reads.
func (c *anyClassifier) evalReads(e hclsyntax.Expression, sc *refs.Scope) (*tracked, map[*accessTree]guard) {
	outer := c.reads
	c.reads = map[*accessTree]guard{}
	t := c.eval(e, sc)
	reads := c.reads
	c.reads = outer
	if outer != nil {
		maps.Copy(outer, reads)
	}
	return t, reads
}

// guarded runs walk with the parts in guards added to c.guards.
func (c *anyClassifier) guarded(guards map[*accessTree]guard, walk func()) {
	if len(guards) == 0 {
		walk()
		return
	}
	outer := c.guards
	c.guards = maps.Clone(guards)
	maps.Copy(c.guards, outer)
	walk()
	c.guards = outer
}

// tolerate runs walk as a tolerant read.
func (c *anyClassifier) tolerate(walk func()) {
	c.tolerant++
	walk()
	c.tolerant--
}

// reached notes that a read reaches the part acc, and tells whether a
// guard covers it.
func (c *anyClassifier) reached(acc *accessTree) bool {
	if c.reads != nil {
		c.reads[acc] |= guardRead
	}
	return c.guards[acc] != 0
}

// anyStep is one access: an attribute or constant string key (named), a
// constant number index, or any other index.
type anyStep struct {
	name  string
	named bool
	index int
	isIdx bool
}

func stepOfKey(key cty.Value) anyStep {
	if key == cty.NilVal || !key.IsKnown() || key.IsNull() {
		return anyStep{}
	}
	switch key.Type() {
	case cty.String:
		return anyStep{name: key.AsString(), named: true}
	case cty.Number:
		if i, acc := key.AsBigFloat().Int64(); acc == 0 && i >= 0 && i < 1<<31 {
			return anyStep{index: int(i), isIdx: true}
		}
	}
	return anyStep{}
}

// apply takes one access step into t. An access into the any part is an
// inspection, recorded with the text of the whole access expression.
func (c *anyClassifier) apply(t *tracked, s anyStep, rng hcl.Range) *tracked {
	if t == nil {
		return nil
	}
	if t.dynamic() {
		acc := t.acc.element()
		if s.named {
			acc = t.acc.attr(s.name)
		}
		inspected := t.inspected
		if !c.reached(acc) && c.guards[t.acc]&guardKind == 0 {
			inspected = c.inspect(t, rng, "%s") || inspected
		}
		return &tracked{v: t.v, ty: cty.DynamicPseudoType, acc: acc, inspected: inspected}
	}
	ty := t.ty
	next := &tracked{v: t.v, inspected: t.inspected}
	switch {
	case ty.IsObjectType():
		if !s.named || !ty.HasAttribute(s.name) {
			return nil
		}
		next.ty, next.acc = ty.AttributeType(s.name), t.acc.attr(s.name)
	case ty.IsMapType():
		next.ty, next.acc = ty.ElementType(), t.acc.element()
	case ty.IsListType(), ty.IsSetType():
		if s.named {
			return nil
		}
		next.ty, next.acc = ty.ElementType(), t.acc.element()
	case ty.IsTupleType():
		if !s.isIdx || s.index >= len(ty.TupleElementTypes()) {
			return nil
		}
		next.ty, next.acc = ty.TupleElementType(s.index), t.acc.element()
	default:
		return nil
	}
	if !next.ty.HasDynamicTypes() {
		return nil // fully typed from here on: nothing left to inspect
	}
	c.reached(next.acc)
	return next
}

func (c *anyClassifier) traversal(t *tracked, tr hcl.Traversal, rng hcl.Range) *tracked {
	for _, step := range tr {
		if t == nil {
			return nil
		}
		switch s := step.(type) {
		case hcl.TraverseAttr:
			t = c.apply(t, anyStep{name: s.Name, named: true}, rng)
		case hcl.TraverseIndex:
			t = c.apply(t, stepOfKey(s.Key), rng)
		default:
			t = c.apply(t, anyStep{}, rng)
		}
	}
	return t
}

// root resolves the start of a scope traversal in sc: a for variable's
// value, an iterator's or each's .value (elements of what their
// collection holds), or var.NAME of an any-typed variable. It returns the
// tracked value and the steps left; nil for anything else, a for
// expression's key included.
func (c *anyClassifier) root(tr hcl.Traversal, sc *refs.Scope) (*tracked, hcl.Traversal) {
	root, _ := sc.Resolve(tr, c.m)
	if b := root.Binding; b != nil {
		switch b.Kind {
		case refs.ForValue:
			return c.elems[b.Over], root.Rest
		case refs.Iterator:
			if len(root.Rest) > 0 {
				if a, ok := root.Rest[0].(hcl.TraverseAttr); ok && a.Name == "value" {
					return c.elems[b.Over], root.Rest[1:]
				}
			}
		}
		return nil, nil
	}
	if root.Reference == nil {
		return nil, nil
	}
	switch s := root.Reference.Subject.(type) {
	case refs.EachAttr:
		if s.Name == "value" && sc.ForEach() != nil {
			return c.elems[sc.ForEach()], root.Reference.Remaining
		}
	case refs.InputVariable:
		if v := c.vars[s.Name]; v != nil {
			return &tracked{v: v, ty: v.ty, acc: v.acc}, root.Reference.Remaining
		}
	}
	return nil, nil
}

// eval walks e and returns what is known of its value.
func (c *anyClassifier) eval(e hclsyntax.Expression, sc *refs.Scope) *tracked {
	switch e := e.(type) {
	case nil:
		return nil
	case *hclsyntax.ScopeTraversalExpr:
		t, rest := c.root(e.Traversal, sc)
		return c.traversal(t, rest, e.Range())
	case *hclsyntax.RelativeTraversalExpr:
		t := c.eval(e.Source, sc)
		rng := e.Range()
		if a, ok := e.Source.(*hclsyntax.AnonSymbolExpr); ok {
			if item, ok := c.anon[a]; ok {
				rng = item.rng // the splat's each part: name the whole splat
			}
		}
		return c.traversal(t, e.Traversal, rng)
	case *hclsyntax.IndexExpr:
		coll := c.eval(e.Collection, sc)
		key := c.eval(e.Key, sc)
		if key.dynamic() {
			c.inspect(key, e.Range(), "%s")
		}
		if coll == nil {
			return nil
		}
		var k cty.Value
		if len(e.Key.Variables()) == 0 {
			if v, diags := e.Key.Value(nil); !diags.HasErrors() {
				k = v
			}
		}
		return c.apply(coll, stepOfKey(k), e.Range())
	case *hclsyntax.SplatExpr:
		src := c.eval(e.Source, sc)
		var item *tracked
		switch {
		case src == nil:
		case src.dynamic():
			c.iterate(src, e.Range(), "%s")
			item = c.elementOf(src)
		case src.ty.IsListType(), src.ty.IsSetType():
			item = c.elementOf(src)
		case src.ty.IsObjectType(), src.ty.IsMapType():
			item = src // a splat over a single value
		}
		if e.Item != nil {
			c.anon[e.Item] = anonItem{t: item, rng: e.Range()}
		}
		c.eval(e.Each, sc)
		return nil
	case *hclsyntax.AnonSymbolExpr:
		return c.anon[e].t
	case *hclsyntax.FunctionCallExpr:
		return c.call(e, sc)
	case *hclsyntax.ConditionalExpr:
		cond, guards := c.evalReads(e.Condition, sc)
		if cond.operand() {
			c.inspect(cond, e.Condition.Range(), "%s (as a condition)")
		}
		var t, f *tracked
		c.guarded(guards, func() {
			t = c.eval(e.TrueResult, sc)
			f = c.eval(e.FalseResult, sc)
		})
		if t != nil {
			return t
		}
		return f
	case *hclsyntax.BinaryOpExpr:
		if x := emptinessTest(e); x != nil {
			// length(var.x) > 0 asks whether the caller set a value whose
			// default is empty, as var.x != null does for a null default.
			c.eval(x, sc)
			return nil
		}
		l := c.eval(e.LHS, sc)
		r := c.eval(e.RHS, sc)
		nullTest := e.Op == hclsyntax.OpEqual || e.Op == hclsyntax.OpNotEqual
		if l.operand() && (!nullTest || !isNullLiteral(e.RHS)) {
			c.inspect(l, e.Range(), "%s")
		}
		if r.operand() && (!nullTest || !isNullLiteral(e.LHS)) {
			c.inspect(r, e.Range(), "%s")
		}
		return nil
	case *hclsyntax.UnaryOpExpr:
		if t := c.eval(e.Val, sc); t.operand() {
			c.inspect(t, e.Range(), "%s")
		}
		return nil
	case *hclsyntax.ForExpr:
		coll := c.eval(e.CollExpr, sc)
		if coll.dynamic() {
			c.iterate(coll, e.CollExpr.Range(), "for over %s")
		}
		c.elems[e.CollExpr] = c.elementOf(coll)
		inner := sc.For(e)
		// The filter runs first: what it reads guards the key and value.
		var guards map[*accessTree]guard
		if e.CondExpr != nil {
			_, guards = c.evalReads(e.CondExpr, inner)
		}
		c.guarded(guards, func() {
			c.eval(e.KeyExpr, inner)
			c.eval(e.ValExpr, inner)
		})
		return nil
	case *hclsyntax.TupleConsExpr:
		for _, x := range e.Exprs {
			c.eval(x, sc)
		}
		return nil
	case *hclsyntax.ObjectConsExpr:
		for _, item := range e.Items {
			c.eval(item.KeyExpr, sc)
			c.eval(item.ValueExpr, sc)
		}
		return nil
	case *hclsyntax.ObjectConsKeyExpr:
		if !e.ForceNonLiteral && hcl.ExprAsKeyword(e.Wrapped) != "" {
			return nil // a bare attribute name, not a reference
		}
		if t := c.eval(e.Wrapped, sc); t.operand() {
			c.inspect(t, e.Range(), "%s (as a key)")
		}
		return nil
	case *hclsyntax.TemplateExpr:
		for _, part := range e.Parts {
			c.eval(part, sc) // interpolation converts like tostring
		}
		return nil
	case *hclsyntax.TemplateWrapExpr:
		return c.eval(e.Wrapped, sc)
	case *hclsyntax.TemplateJoinExpr:
		c.eval(e.Tuple, sc)
		return nil
	case *hclsyntax.ParenthesesExpr:
		return c.eval(e.Expression, sc)
	case *hclsyntax.LiteralValueExpr:
		return nil
	}
	// Any other node: visit its children for references.
	refs.Walk(e, sc, func(n hcl.Expression, s *refs.Scope) bool {
		if st, ok := n.(*hclsyntax.ScopeTraversalExpr); ok {
			t, rest := c.root(st.Traversal, s)
			c.traversal(t, rest, st.Range())
		}
		return true
	})
	return nil
}

// emptinessTest returns X when e compares length(X) or length(keys(X))
// with the number 0, either way round.
func emptinessTest(e *hclsyntax.BinaryOpExpr) hclsyntax.Expression {
	switch e.Op {
	case hclsyntax.OpEqual, hclsyntax.OpNotEqual, hclsyntax.OpGreaterThan, hclsyntax.OpLessThan,
		hclsyntax.OpGreaterThanOrEqual, hclsyntax.OpLessThanOrEqual:
	default:
		return nil
	}
	measured, zero := e.LHS, e.RHS
	if isZeroLiteral(measured) {
		measured, zero = zero, measured
	}
	if !isZeroLiteral(zero) {
		return nil
	}
	call, ok := unparen(measured).(*hclsyntax.FunctionCallExpr)
	if !ok || strings.TrimPrefix(call.Name, "core::") != "length" || len(call.Args) != 1 || call.ExpandFinal {
		return nil
	}
	x := unparen(call.Args[0])
	if k, ok := x.(*hclsyntax.FunctionCallExpr); ok && strings.TrimPrefix(k.Name, "core::") == "keys" && len(k.Args) == 1 && !k.ExpandFinal {
		x = k.Args[0]
	}
	return x
}

func unparen(e hclsyntax.Expression) hclsyntax.Expression {
	for {
		p, ok := e.(*hclsyntax.ParenthesesExpr)
		if !ok {
			return e
		}
		e = p.Expression
	}
}

func isZeroLiteral(e hclsyntax.Expression) bool {
	lit, ok := unparen(e).(*hclsyntax.LiteralValueExpr)
	return ok && lit.Val.Type() == cty.Number && lit.Val.IsKnown() && !lit.Val.IsNull() && lit.Val.Equals(cty.Zero).True()
}

// converts is whether function name is a conversion function (tostring,
// tolist, ...).
func converts(name string) bool {
	s, ok := functions.Lookup(strings.TrimPrefix(name, "core::"))
	return ok && s.Converts
}

func isNullLiteral(e hclsyntax.Expression) bool {
	for {
		p, ok := e.(*hclsyntax.ParenthesesExpr)
		if !ok {
			break
		}
		e = p.Expression
	}
	lit, ok := e.(*hclsyntax.LiteralValueExpr)
	return ok && lit.Val.IsNull()
}

func (c *anyClassifier) call(e *hclsyntax.FunctionCallExpr, sc *refs.Scope) *tracked {
	name := strings.TrimPrefix(e.Name, "core::")
	// What the function looks inside of, argument by argument, is its
	// spec's: a conversion function (tostring) looks at nothing, but
	// can(tostring(x)) tests the kind of x.
	spec, _ := functions.Lookup(name)
	args := make([]*tracked, len(e.Args))
	for i, a := range e.Args {
		// Every argument of can, and every one of try but the last, is a
		// tolerant read: a shape it does not find gives false or the next
		// argument, not an error.
		if name == "can" || name == "try" && (i < len(e.Args)-1 || fallbackChain(e.Args)) {
			c.tolerate(func() { args[i] = c.eval(a, sc) })
		} else {
			args[i] = c.eval(a, sc)
		}
	}
	if name == "can" && len(e.Args) == 1 && c.reads != nil {
		if conv, ok := unparen(e.Args[0]).(*hclsyntax.FunctionCallExpr); ok && converts(conv.Name) && len(conv.Args) == 1 {
			var t *tracked
			c.tolerate(func() { t = c.eval(conv.Args[0], sc) })
			if t != nil {
				c.reads[t.acc] |= guardKind
			}
		}
	}
	rng := e.Range()
	// lookup with a default tolerates a missing key or attribute.
	lookupDefault := name == "lookup" && len(args) == 3
	inspected := false
	for i, t := range args {
		switch {
		case t == nil:
		case lookupDefault && i == 0 && t.dynamic():
			acc := t.acc.element()
			if s := lookupKey(e); s.named {
				acc = t.acc.attr(s.name)
			}
			c.reached(acc)
		case t.dynamic() && spec.Inspects(i):
			inspected = c.inspect(t, rng, "%s") || inspected
			if name == "keys" || name == "values" {
				t.acc.element() // read as a collection
			}
		case !t.dynamic() && spec.Arg(i).Elements && (t.ty.IsListType() || t.ty.IsSetType() || t.ty.IsMapType()) && t.ty.ElementType() == cty.DynamicPseudoType:
			c.inspect(t, rng, "%s")
			t.acc.element()
		}
	}
	first := func() *tracked {
		for _, t := range args {
			if t != nil {
				return t
			}
		}
		return nil
	}
	switch name {
	case "try", "coalesce", "tolist", "toset", "tomap", "sensitive", "nonsensitive", "merge", "concat":
		t := first()
		if t != nil && (name == "merge" || name == "concat") && t.dynamic() {
			return nil
		}
		if t != nil && name == "try" && len(args) > 1 {
			r := *t
			r.fallback = true
			return &r
		}
		return t
	case "lookup", "element", "one":
		if len(args) == 0 {
			return nil
		}
		if args[0] == nil {
			if name == "lookup" && len(args) == 3 {
				return args[2] // the result may be the default
			}
			return nil
		}
		t := args[0]
		s := anyStep{}
		if name == "lookup" {
			s = lookupKey(e)
		}
		if t.dynamic() {
			acc := t.acc.element()
			if s.named {
				acc = t.acc.attr(s.name)
			}
			return &tracked{v: t.v, ty: cty.DynamicPseudoType, acc: acc, inspected: t.inspected || inspected, fallback: lookupDefault}
		}
		return c.apply(t, s, rng)
	case "values":
		if len(args) == 1 && args[0] != nil && args[0].ty.IsMapType() {
			t := args[0]
			return &tracked{v: t.v, ty: cty.List(t.ty.ElementType()), acc: t.acc, inspected: t.inspected}
		}
	}
	return nil
}

// fallbackChain tells whether the arguments of a try read the same
// attribute from different values, try(each.value.name,
// var.defaults.name): the value may come from any of them, so no one
// variable's type can require it, and the error when none has it is the
// module's way of saying that it is required.
func fallbackChain(args []hclsyntax.Expression) bool {
	if len(args) < 2 {
		return false
	}
	last, ok := lastAttrName(args[len(args)-1])
	if !ok {
		return false
	}
	for _, a := range args[:len(args)-1] {
		if n, ok := lastAttrName(a); ok && n == last && sourceKey(a) != sourceKey(args[len(args)-1]) {
			return true
		}
	}
	return false
}

// lastAttrName is the attribute or constant key that the traversal e
// ends with.
func lastAttrName(e hclsyntax.Expression) (string, bool) {
	var tr hcl.Traversal
	switch e := unparen(e).(type) {
	case *hclsyntax.ScopeTraversalExpr:
		tr = e.Traversal
	case *hclsyntax.RelativeTraversalExpr:
		tr = e.Traversal
	case *hclsyntax.IndexExpr:
		if len(e.Key.Variables()) == 0 {
			if v, diags := e.Key.Value(nil); !diags.HasErrors() && v.Type() == cty.String && v.IsKnown() && !v.IsNull() {
				return v.AsString(), true
			}
		}
		return "", false
	}
	if len(tr) < 2 {
		return "", false
	}
	switch s := tr[len(tr)-1].(type) {
	case hcl.TraverseAttr:
		return s.Name, true
	case hcl.TraverseIndex:
		if s.Key.Type() == cty.String && s.Key.IsKnown() && !s.Key.IsNull() {
			return s.Key.AsString(), true
		}
	}
	return "", false
}

// sourceKey tells traversals apart by their root: var.defaults.name and
// each.value.name differ, two reads of var.x.name do not.
func sourceKey(e hclsyntax.Expression) string {
	e = unparen(e)
	if st, ok := e.(*hclsyntax.ScopeTraversalExpr); ok {
		if len(st.Traversal) > 1 {
			if a, ok := st.Traversal[1].(hcl.TraverseAttr); ok {
				return st.Traversal.RootName() + "." + a.Name
			}
		}
		return st.Traversal.RootName()
	}
	return fmt.Sprintf("%T@%d", e, e.Range().Start.Byte)
}

// lookupKey is the step that lookup(m, KEY, ...) takes, when KEY is a
// constant.
func lookupKey(e *hclsyntax.FunctionCallExpr) anyStep {
	var key cty.Value
	if len(e.Args) > 1 && len(e.Args[1].Variables()) == 0 {
		if v, diags := e.Args[1].Value(nil); !diags.HasErrors() {
			key = v
		}
	}
	return stepOfKey(key)
}

// anyFinding writes the finding for a variable with its places and, when
// it can be inferred, the exact type to write.
func anyFinding(m *config.Module, av *anyVar) Finding {
	places := slices.Clone(av.places)
	slices.SortFunc(places, func(a, b anyInspection) int { return compareRange(a.rng, b.rng) })
	const most = 8
	var list []string
	for i, pl := range places {
		if i == most {
			list = append(list, fmt.Sprintf("and %d more", len(places)-most))
			break
		}
		list = append(list, fmt.Sprintf("%s at %s", pl.text, position(m, pl.rng)))
	}
	typeText := typeConstraintText(m, av.v)
	what := "the any part of its value"
	if av.ty == cty.DynamicPseudoType {
		what = "its value"
	}
	detail := "A type constraint with any accepts any value; it suits a value the module passes on whole without looking inside. The places listed look inside, so the module depends on a shape that the type does not state, and a caller's mistake fails there instead of at the variable."
	if proposal, ok := proposeExactType(m, av); ok {
		detail += " Write the exact type: " + proposal + "."
	} else {
		detail += " Write the exact type that the module expects."
	}
	return Finding{
		Message: fmt.Sprintf("var.%s has type %s, but the module inspects %s: %s", av.v.Name, typeText, what, strings.Join(list, ", ")),
		Detail:  detail,
		Range:   av.v.TypeExpr.Range(),
	}
}

// proposeExactType infers, from the variable's default and the accesses
// the module makes, the type for each any in the constraint, and writes
// the constraint with them. It fails when any part of the type is not
// known.
func proposeExactType(m *config.Module, av *anyVar) (string, bool) {
	v := av.v
	if v.Default == cty.NilVal || v.Default.IsNull() || !v.Default.IsWhollyKnown() {
		return "", false
	}
	if _, native := v.TypeExpr.(hclsyntax.Expression); !native {
		return "", false
	}
	p := &typeProposal{}
	if !p.walk(v.TypeExpr, []cty.Value{v.Default}, av.acc, true) || len(p.edits) == 0 {
		return "", false
	}
	rng := v.TypeExpr.Range()
	src := m.Files[rng.Filename]
	if src == nil || rng.End.Byte > len(src.Bytes) || rng.Start.Byte > rng.End.Byte {
		return "", false
	}
	text := string(applyEdits(src.Bytes[:rng.End.Byte], p.edits)[rng.Start.Byte:])
	// The proposal must be a type without any that the default converts to.
	expr, diags := hclsyntax.ParseExpression([]byte(text), "proposal", hcl.InitialPos)
	if diags.HasErrors() {
		return "", false
	}
	ty, defaults, diags := typeexpr.TypeConstraintWithDefaults(expr)
	if diags.HasErrors() || ty.HasDynamicTypes() {
		return "", false
	}
	raw, diags := v.DefaultExpr.Value(nil)
	if diags.HasErrors() {
		return "", false
	}
	if defaults != nil {
		raw = defaults.Apply(raw)
	}
	if _, err := convert.Convert(raw, ty); err != nil {
		return "", false
	}
	if strings.Contains(text, "\n") {
		// Several lines: name each replacement instead of re-flowing the
		// type, whose newlines separate attributes.
		var parts []string
		for _, e := range p.edits {
			parts = append(parts, fmt.Sprintf("replace the any at %s with %s", position(m, e.Range), e.NewText))
		}
		return strings.Join(parts, "; "), true
	}
	return "type = " + text, true
}

// typeProposal walks a type expression with the values found at each of
// its positions and the module's accesses there, and replaces each any
// (and a bare legacy list or map) with the type inferred for it.
type typeProposal struct {
	edits []Edit
}

func (p *typeProposal) walk(expr hcl.Expression, vals []cty.Value, acc *accessTree, top bool) bool {
	switch kw := hcl.ExprAsKeyword(expr); kw {
	case "any":
		t, ok := inferType(vals, acc)
		if !ok {
			return false
		}
		p.edits = append(p.edits, Edit{Range: expr.Range(), NewText: typeString(t)})
		return true
	case "list", "map":
		if !top {
			return false
		}
		ea := accElem(acc)
		if kw == "map" {
			ea = acc.elements()
		}
		t, ok := inferType(elementValues(vals), ea)
		if !ok {
			return false
		}
		p.edits = append(p.edits, Edit{Range: expr.Range(), NewText: kw + "(" + typeString(t) + ")"})
		return true
	case "string", "number", "bool":
		return true
	case "":
	default:
		return false
	}
	call, diags := hcl.ExprCall(expr)
	if diags.HasErrors() || len(call.Arguments) == 0 {
		return false
	}
	switch call.Name {
	case "list", "set":
		return p.walk(call.Arguments[0], elementValues(vals), accElem(acc), false)
	case "map":
		return p.walk(call.Arguments[0], elementValues(vals), acc.elements(), false)
	case "object":
		pairs, diags := hcl.ExprMap(call.Arguments[0])
		if diags.HasErrors() {
			return false
		}
		for _, pair := range pairs {
			name := hcl.ExprAsKeyword(pair.Key)
			texpr := pair.Value
			var sub []cty.Value
			if opt, diags := hcl.ExprCall(texpr); !diags.HasErrors() && opt.Name == "optional" && len(opt.Arguments) > 0 {
				texpr = opt.Arguments[0]
				if len(opt.Arguments) == 2 {
					if d, diags := opt.Arguments[1].Value(nil); !diags.HasErrors() && !d.IsNull() {
						sub = append(sub, d)
					}
				}
			}
			for _, v := range vals {
				if av, ok := attrOf(v, name); ok && !av.IsNull() {
					sub = append(sub, av)
				}
			}
			var sa *accessTree
			if acc != nil {
				sa = acc.attrs[name]
			}
			if !p.walk(texpr, sub, sa, false) {
				return false
			}
		}
		return true
	case "tuple":
		elems, diags := hcl.ExprList(call.Arguments[0])
		if diags.HasErrors() {
			return false
		}
		for i, e := range elems {
			var sub []cty.Value
			for _, v := range vals {
				if (v.Type().IsTupleType() || v.Type().IsListType()) && v.LengthInt() > i {
					sub = append(sub, v.Index(cty.NumberIntVal(int64(i))))
				}
			}
			if !p.walk(e, sub, accElem(acc), false) {
				return false
			}
		}
		return true
	}
	return false
}

func accElem(acc *accessTree) *accessTree {
	if acc == nil {
		return nil
	}
	return acc.elem
}

// elementValues returns the elements of every collection value in vals.
func elementValues(vals []cty.Value) []cty.Value {
	var out []cty.Value
	for _, v := range vals {
		if v.IsNull() || !v.IsKnown() || !v.CanIterateElements() {
			continue
		}
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			out = append(out, e)
		}
	}
	return out
}
