package inputs

import (
	"math"
	"math/big"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/config"
	tofufuncs "github.com/tofucue/tofucue/functions"
)

// Bounds of the search for a value that meets a variable's validations.
const (
	maxEvaluations = 4000
	maxPasses      = 12
	maxLength      = 16
	maxStrings     = 64
	maxNumbers     = 48
)

// Synthesize returns a deterministic value for v, generated from its type
// constraint and, where they can be met, its validation rules, so that the
// module can be planned. The value is final: converted, with optional
// attribute defaults applied. ctx holds the functions and any other
// variables the validations refer to (var.<name> itself is set here); nil
// means the functions alone. The same variable always gets the same value.
// See the package documentation for the scheme.
func Synthesize(v *config.Variable, ctx *hcl.EvalContext) cty.Value {
	if v == nil {
		return cty.DynamicVal
	}
	s := &synth{v: v}
	s.hints()
	// An untyped variable takes strings from the command line; it gets
	// a string. An explicit any gets an empty object.
	root := s.build(constraintType(v), v.Name, v.TypeExpr != nil)

	val, ok := s.prepared(root)
	if !ok {
		return cty.UnknownVal(finalType(v))
	}
	if len(v.Validations) == 0 {
		return val
	}
	if ctx == nil {
		ctx = functionContext(filepath.Dir(v.DeclRange().Filename))
	}
	s.ctx = ctx
	s.search(root)
	if val, ok = s.prepared(root); !ok {
		return cty.UnknownVal(finalType(v))
	}
	return val
}

// synth holds the state of one synthesis.
type synth struct {
	v   *config.Variable
	ctx *hcl.EvalContext

	strs    []cty.Value
	nums    []cty.Value
	lengths []int

	evaluations int
}

type nodeKind int

const (
	primNode nodeKind = iota
	listNode          // list or set: a tuple of elements, converted later
	mapNode
	objectNode
	tupleNode
)

// node is one part of the value being built. A primitive holds a choice
// among its options; a collection holds a length and its elements; an
// object its attributes, the optional ones present or not.
type node struct {
	kind nodeKind

	// primitives (and map keys)
	options []cty.Value
	choice  int

	// collections: all holds every element built so far, count how many
	// are used, so that a shorter length can be undone.
	elemType cty.Type
	name     string
	count    int
	lenOpts  []int
	all      []*node
	keys     []*node

	// objects
	attrs []*attrNode
	// tuples
	elems []*node
}

type attrNode struct {
	name     string
	ty       cty.Type
	optional bool
	present  bool
	n        *node
}

// build makes the node for a value of type ty, named name (the variable's
// or attribute's name, which gives strings their base value).
func (s *synth) build(ty cty.Type, name string, top bool) *node {
	switch {
	case ty == cty.String:
		return &node{kind: primNode, options: withBase(cty.StringVal(name), s.strs)}
	case ty == cty.Number:
		return &node{kind: primNode, options: withBase(cty.NumberIntVal(1), s.nums)}
	case ty == cty.Bool:
		return &node{kind: primNode, options: []cty.Value{cty.True, cty.False}}
	case ty == cty.DynamicPseudoType:
		// any: an empty object for a whole variable declared with type =
		// any (what a module that passes it on or looks into it copes
		// with best), a string for a variable without a type and inside a
		// collection or structure.
		opts := []cty.Value{cty.StringVal(name), cty.EmptyObjectVal, cty.NumberIntVal(1), cty.True}
		if top {
			opts[0], opts[1] = opts[1], opts[0]
		}
		return &node{kind: primNode, options: opts}
	case ty.IsListType() || ty.IsSetType() || ty.IsMapType():
		n := &node{kind: listNode, elemType: ty.ElementType(), name: name, lenOpts: append([]int{1}, s.lengths...)}
		if ty.IsMapType() {
			n.kind = mapNode
		}
		n.setLength(1, s)
		return n
	case ty.IsObjectType():
		n := &node{kind: objectNode}
		names := make([]string, 0, len(ty.AttributeTypes()))
		for a := range ty.AttributeTypes() {
			names = append(names, a)
		}
		sort.Strings(names)
		for _, a := range names {
			an := &attrNode{name: a, ty: ty.AttributeType(a), optional: ty.AttributeOptional(a)}
			an.present = !an.optional
			if an.present {
				an.n = s.build(an.ty, a, false)
			}
			n.attrs = append(n.attrs, an)
		}
		return n
	case ty.IsTupleType():
		n := &node{kind: tupleNode}
		for _, et := range ty.TupleElementTypes() {
			n.elems = append(n.elems, s.build(et, name, false))
		}
		return n
	}
	return &node{kind: primNode, options: []cty.Value{cty.NullVal(ty)}}
}

// withBase puts base first in a pool of options, without repeating it.
func withBase(base cty.Value, pool []cty.Value) []cty.Value {
	out := make([]cty.Value, 0, len(pool)+1)
	out = append(out, base)
	for _, p := range pool {
		if !p.RawEquals(base) {
			out = append(out, p)
		}
	}
	return out
}

// setLength makes a collection n elements long. New elements copy the
// first one, each primitive moved on by the element's index in its
// options, so that elements differ (a set keeps them all, a map's keys are
// distinct) while staying close to what already passed.
func (n *node) setLength(count int, s *synth) {
	for len(n.all) < count {
		i := len(n.all)
		var elem *node
		if i == 0 {
			elem = s.build(n.elemType, n.name, false)
		} else {
			elem = n.all[0].clone(i)
		}
		n.all = append(n.all, elem)
		if n.kind == mapNode {
			var key *node
			if i == 0 {
				key = &node{kind: primNode, options: withBase(cty.StringVal("example"), s.strs)}
			} else {
				key = n.keys[0].clone(i)
			}
			n.keys = append(n.keys, key)
		}
	}
	n.count = count
}

// clone copies a node, moving every primitive choice on by offset.
func (n *node) clone(offset int) *node {
	c := *n
	if n.kind == primNode && len(n.options) > 0 {
		c.choice = (n.choice + offset) % len(n.options)
	}
	c.all = cloneAll(n.all, offset)
	c.keys = cloneAll(n.keys, offset)
	c.elems = cloneAll(n.elems, offset)
	c.lenOpts = slices.Clone(n.lenOpts)
	if n.attrs != nil {
		c.attrs = make([]*attrNode, len(n.attrs))
		for i, a := range n.attrs {
			ac := *a
			if a.n != nil {
				ac.n = a.n.clone(offset)
			}
			c.attrs[i] = &ac
		}
	}
	return &c
}

func cloneAll(nodes []*node, offset int) []*node {
	if nodes == nil {
		return nil
	}
	out := make([]*node, len(nodes))
	for i, x := range nodes {
		out[i] = x.clone(offset)
	}
	return out
}

// value is the raw value a node stands for: tuples and objects, which
// Prepare converts to the type constraint. It is cty.NilVal when a map's
// keys collide.
func (n *node) value() cty.Value {
	switch n.kind {
	case primNode:
		return n.options[n.choice]
	case listNode:
		elems := make([]cty.Value, 0, n.count)
		for _, e := range n.all[:n.count] {
			ev := e.value()
			if ev == cty.NilVal {
				return cty.NilVal
			}
			elems = append(elems, ev)
		}
		return cty.TupleVal(elems)
	case mapNode:
		attrs := make(map[string]cty.Value, n.count)
		for i, e := range n.all[:n.count] {
			k := n.keys[i].value()
			ev := e.value()
			if ev == cty.NilVal || k.Type() != cty.String {
				return cty.NilVal
			}
			if _, dup := attrs[k.AsString()]; dup {
				return cty.NilVal
			}
			attrs[k.AsString()] = ev
		}
		return cty.ObjectVal(attrs)
	case objectNode:
		attrs := make(map[string]cty.Value, len(n.attrs))
		for _, a := range n.attrs {
			if !a.present {
				continue
			}
			av := a.n.value()
			if av == cty.NilVal {
				return cty.NilVal
			}
			attrs[a.name] = av
		}
		return cty.ObjectVal(attrs)
	case tupleNode:
		elems := make([]cty.Value, 0, len(n.elems))
		for _, e := range n.elems {
			ev := e.value()
			if ev == cty.NilVal {
				return cty.NilVal
			}
			elems = append(elems, ev)
		}
		return cty.TupleVal(elems)
	}
	return cty.NilVal
}

// coord is one thing the search can change: a primitive's choice, a
// collection's length, whether an optional attribute is present.
type coord struct {
	options    int
	get        func() int
	set        func(int)
	structural bool  // changing it adds or removes coordinates
	prim       *node // the primitive whose choice it is, or nil
	// path is where in the value it is: attribute names, and "*" for an
	// element of a collection or a tuple.
	path []string
}

func (s *synth) coords(n *node, out []coord) []coord { return s.coordsAt(n, nil, out) }

func (s *synth) coordsAt(n *node, path []string, out []coord) []coord {
	elem := append(slices.Clip(path), "*")
	switch n.kind {
	case primNode:
		out = append(out, coord{options: len(n.options), get: func() int { return n.choice }, set: func(i int) { n.choice = i }, prim: n, path: path})
	case listNode, mapNode:
		cur := slices.Index(n.lenOpts, n.count)
		if cur < 0 {
			n.lenOpts = append(n.lenOpts, n.count)
		}
		out = append(out, coord{
			options:    len(n.lenOpts),
			get:        func() int { return slices.Index(n.lenOpts, n.count) },
			set:        func(i int) { n.setLength(n.lenOpts[i], s) },
			structural: true,
			path:       path,
		})
		for i := range n.count {
			if n.kind == mapNode {
				out = s.coordsAt(n.keys[i], elem, out)
			}
			out = s.coordsAt(n.all[i], elem, out)
		}
	case objectNode:
		for _, a := range n.attrs {
			at := append(slices.Clip(path), a.name)
			if a.optional {
				out = append(out, coord{
					options: 2,
					get: func() int {
						if a.present {
							return 1
						}
						return 0
					},
					set: func(i int) {
						a.present = i == 1
						if a.present && a.n == nil {
							a.n = s.build(a.ty, a.name, false)
						}
					},
					structural: true,
					path:       at,
				})
			}
			if a.present {
				out = s.coordsAt(a.n, at, out)
			}
		}
	case tupleNode:
		for _, e := range n.elems {
			out = s.coordsAt(e, elem, out)
		}
	}
	return out
}

// search changes one coordinate at a time, keeping a change only when
// fewer validation conditions fail, until they all pass or the budget is
// spent. When no single change helps, it tries each change of structure
// (a length, an optional attribute) followed by one more change, for rules
// like "exactly one of these attributes, and that one complete". Everything
// is tried in a fixed order, so the result is deterministic.
func (s *synth) search(root *node) {
	best := s.failures(root)
	for pass := 0; pass < maxPasses && !s.done(best); pass++ {
		var improved bool
		if best, improved = s.singleMoves(root, best); improved {
			continue
		}
		if best, improved = s.pairMoves(root, best); !improved {
			return
		}
	}
}

func (s *synth) done(best int) bool { return best == 0 || s.evaluations >= maxEvaluations }

// orderedCoords lists the coordinates, primitives first: an empty
// collection meets "every element" conditions vacuously, and would
// otherwise be a trap that longer collections of not yet fitting elements
// cannot leave.
func (s *synth) orderedCoords(root *node) []coord {
	cs := s.coords(root, nil)
	sort.SliceStable(cs, func(i, j int) bool { return !cs[i].structural && cs[j].structural })
	return cs
}

// singleMoves tries every option of every coordinate in turn, keeping
// improvements. It stops early after a change of structure, whose new
// coordinates the next pass sees.
func (s *synth) singleMoves(root *node, best int) (int, bool) {
	improved := false
	for _, c := range s.orderedCoords(root) {
		cur := c.get()
		restructured := false
		for o := range c.options {
			if o == cur {
				continue
			}
			c.set(o)
			if f := s.failures(root); f < best {
				best, cur, improved = f, o, true
				restructured = c.structural
			}
			if s.done(best) {
				break
			}
		}
		c.set(cur)
		if s.done(best) || restructured {
			break
		}
	}
	return best, improved
}

// pairMoves tries each change of structure together with one further
// change of any coordinate, and keeps the first pair that improves.
func (s *synth) pairMoves(root *node, best int) (int, bool) {
	for _, c := range s.orderedCoords(root) {
		if !c.structural {
			continue
		}
		cur := c.get()
		for o := range c.options {
			if o == cur {
				continue
			}
			c.set(o)
			for _, c2 := range s.orderedCoords(root) {
				cur2 := c2.get()
				for o2 := range c2.options {
					if o2 == cur2 {
						continue
					}
					c2.set(o2)
					if f := s.failures(root); f < best {
						return f, true
					}
					if s.done(best) {
						break
					}
				}
				c2.set(cur2)
				if s.done(best) {
					break
				}
			}
			if s.done(best) {
				break
			}
		}
		c.set(cur)
		if s.done(best) {
			break
		}
	}
	return best, false
}

// prepared converts a node's value to the variable's type.
func (s *synth) prepared(root *node) (cty.Value, bool) {
	raw := root.value()
	if raw == cty.NilVal {
		return cty.NilVal, false
	}
	val, diags := prepare(s.v, raw, origin{rng: s.v.DeclRange()})
	if diags.HasErrors() {
		return cty.NilVal, false
	}
	return val, true
}

// failures counts the validation conditions, and the parts of && chains
// in them, that do not hold for the node's value.
func (s *synth) failures(root *node) int {
	s.evaluations++
	val, ok := s.prepared(root)
	if !ok {
		return math.MaxInt32
	}
	ctx := s.ctx.NewChild()
	ctx.Variables = map[string]cty.Value{"var": withVar(s.ctx, s.v.Name, val)}
	total := 0
	for _, rule := range s.v.Validations {
		if rule == nil || rule.Condition == nil {
			continue
		}
		if _, status := validateRule(&config.CheckRule{Condition: rule.Condition, DeclRange: rule.DeclRange}, ctx); status == rulePass || status == ruleUnknown {
			continue
		}
		failed := 0
		for _, part := range conjuncts(rule.Condition, nil) {
			if _, status := validateRule(&config.CheckRule{Condition: part, DeclRange: rule.DeclRange}, ctx); status != rulePass && status != ruleUnknown {
				failed++
			}
		}
		total += max(failed, 1)
	}
	return total
}

// withVar returns the "var" object of ctx (looked up through its parents)
// with name set to val.
func withVar(ctx *hcl.EvalContext, name string, val cty.Value) cty.Value {
	vars := map[string]cty.Value{}
	for c := ctx; c != nil; c = c.Parent() {
		cur, ok := c.Variables["var"]
		if !ok {
			continue
		}
		if cur.IsKnown() && !cur.IsNull() && (cur.Type().IsObjectType() || cur.Type().IsMapType()) {
			for k, x := range cur.AsValueMap() {
				vars[k] = x
			}
		}
		break
	}
	vars[name] = val
	return cty.ObjectVal(vars)
}

// conjuncts splits a condition at its top-level && operators, and splits
// alltrue([for x in c : a && b]) into alltrue([for x in c : a]) and
// alltrue([for x in c : b]), so that the search sees each part met.
func conjuncts(expr hcl.Expression, out []hcl.Expression) []hcl.Expression {
	switch e := expr.(type) {
	case *hclsyntax.ParenthesesExpr:
		return conjuncts(e.Expression, out)
	case *hclsyntax.BinaryOpExpr:
		if e.Op == hclsyntax.OpLogicalAnd {
			out = conjuncts(e.LHS, out)
			return conjuncts(e.RHS, out)
		}
	case *hclsyntax.FunctionCallExpr:
		if e.Name != "alltrue" || len(e.Args) != 1 || e.ExpandFinal {
			break
		}
		loop, ok := e.Args[0].(*hclsyntax.ForExpr)
		if !ok || loop.KeyExpr != nil {
			break
		}
		parts := conjuncts(loop.ValExpr, nil)
		if len(parts) < 2 {
			break
		}
		for _, p := range parts {
			body, ok := p.(hclsyntax.Expression)
			if !ok {
				return append(out, expr)
			}
			part := *loop
			part.ValExpr = body
			call := *e
			call.Args = []hclsyntax.Expression{&part}
			out = append(out, &call)
		}
		return out
	}
	return append(out, expr)
}

// hints fills the pools that primitives choose from: the values that the
// validation conditions suggest (gather), then general ones.
func (s *synth) hints() {
	var exprs []hcl.Expression
	for _, rule := range s.v.Validations {
		if rule != nil && rule.Condition != nil {
			exprs = append(exprs, rule.Condition)
		}
	}
	h := gather(exprs, s.v.Name)

	base := s.v.Name
	kebab := strings.ReplaceAll(strings.ToLower(base), "_", "-")
	strs := slices.Concat(h.strs, []string{strings.ToLower(base), kebab, strings.ToUpper(base), "example", "a", "abc", "Example1", "example-1", "1", "true",
		"10.0.0.0/16", "10.0.0.1", "2024-01-01T00:00:00Z", "example@example.com", "https://example.com"})
	for _, x := range dedupe(strs) {
		if len(s.strs) == maxStrings {
			break
		}
		s.strs = append(s.strs, cty.StringVal(x))
	}

	nums := slices.Clone(h.nums)
	for _, x := range []float64{0, 2, 3, 10, 100, 1000, -1, 0.5} {
		nums = append(nums, big.NewFloat(x))
	}
	seen := map[string]bool{}
	for _, n := range nums {
		key := n.Text('g', 40)
		if seen[key] || len(s.nums) == maxNumbers {
			continue
		}
		seen[key] = true
		s.nums = append(s.nums, cty.NumberVal(n))
	}

	// Lengths: two, three, around the literals, and last none (an empty
	// collection meets "every element" conditions without saying much).
	lens := append([]int{2, 3}, h.lengths...)
	lens = append(lens, 0)
	for _, l := range lens {
		if l >= 0 && l <= maxLength && l != 1 && !slices.Contains(s.lengths, l) {
			s.lengths = append(s.lengths, l)
		}
	}
}

// hinted is what some expressions suggest as values.
type hinted struct {
	strs    []string
	nums    []*big.Float
	lengths []int
}

// gather collects candidate values from expressions: the strings and
// numbers written in them, strings that match the patterns given to regex
// and regexall, strings with the prefixes and suffixes given to startswith
// and endswith (around name), strings of three and five parts joined
// with the separator given to split, strings of the lengths that their numbers
// give, each number with one either side and the midpoints between them
// (for bounds like 0 < x < 1), lengths around the numbers, and a few common
// shapes (a CIDR block, an address, a timestamp, ...) for the functions
// that want them.
func gather(exprs []hcl.Expression, base string) hinted {
	var strs []string
	var nums []*big.Float
	var prefixes, suffixes []string
	special := map[string]bool{}
	for _, e := range exprs {
		expr, ok := e.(hclsyntax.Expression)
		if !ok {
			continue
		}
		// A pattern is no value to try: the strings it matches are.
		patterns := map[hcl.Range]bool{}
		_ = hclsyntax.VisitAll(expr, func(n hclsyntax.Node) hcl.Diagnostics {
			if call, ok := n.(*hclsyntax.FunctionCallExpr); ok && (call.Name == "regex" || call.Name == "regexall") && len(call.Args) > 0 {
				patterns[call.Args[0].Range()] = true
			}
			return nil
		})
		_ = hclsyntax.VisitAll(expr, func(n hclsyntax.Node) hcl.Diagnostics {
			if e, ok := n.(hclsyntax.Expression); ok {
				for p := range patterns {
					if r := e.Range(); p.Filename == r.Filename && p.Start.Byte <= r.Start.Byte && r.End.Byte <= p.End.Byte {
						return nil
					}
				}
			}
			switch e := n.(type) {
			case *hclsyntax.LiteralValueExpr:
				switch {
				case e.Val.IsNull() || !e.Val.IsKnown():
				case e.Val.Type() == cty.String:
					strs = append(strs, e.Val.AsString())
				case e.Val.Type() == cty.Number:
					nums = append(nums, e.Val.AsBigFloat())
				}
			case *hclsyntax.TemplateExpr:
				if e.IsStringLiteral() {
					if sv, diags := e.Value(nil); !diags.HasErrors() && sv.Type() == cty.String && sv.IsKnown() && !sv.IsNull() {
						strs = append(strs, sv.AsString())
					}
				}
			case *hclsyntax.FunctionCallExpr:
				name := e.Name
				if i := strings.LastIndex(name, "::"); i >= 0 {
					name = name[i+2:]
				}
				switch name {
				case "regex", "regexall":
					if p, ok := literalArg(e, 0); ok {
						strs = append(strs, stringsMatching(p)...)
					}
				case "startswith":
					if p, ok := literalArg(e, 1); ok {
						prefixes = append(prefixes, p)
					}
				case "endswith":
					if p, ok := literalArg(e, 1); ok {
						suffixes = append(suffixes, p)
					}
				case "split":
					// Strings of three and five parts, for the
					// elements looked up after the split.
					if sep, ok := literalArg(e, 0); ok && sep != "" {
						strs = append(strs, strings.Join([]string{"a", "b", "c"}, sep), strings.Join([]string{"a", "b", "c", "d", "e"}, sep))
					}
				default:
					special[name] = true
				}
			}
			return nil
		})
	}

	for _, p := range prefixes {
		strs = append(strs, p+base, p+"example")
		for _, x := range suffixes {
			strs = append(strs, p+"example"+x)
		}
	}
	for _, x := range suffixes {
		strs = append(strs, base+x, "example"+x)
	}
	for _, n := range nums {
		if i, acc := n.Int64(); acc == big.Exact && i >= 1 && i <= 256 {
			strs = append(strs, strings.Repeat("a", int(i)))
		}
	}
	// Strings of the forms the functions called want (a CIDR block, a
	// timestamp, a document), as their specs say.
	var forms []tofufuncs.Form
	for name := range special {
		if spec, ok := tofufuncs.Lookup(name); ok {
			for _, f := range spec.Forms() {
				if !slices.Contains(forms, f) {
					forms = append(forms, f)
				}
			}
		}
	}
	slices.Sort(forms)
	for _, f := range forms {
		strs = append(strs, f.Examples()...)
	}
	h := hinted{strs: dedupe(strs)}

	// Numbers: each literal, one either side, and the midpoints between
	// neighbors (for bounds like 0 < x < 1).
	var cands []*big.Float
	one := big.NewFloat(1)
	for _, n := range nums {
		cands = append(cands, n, new(big.Float).Add(n, one), new(big.Float).Sub(n, one))
	}
	sorted := slices.Clone(nums)
	slices.SortFunc(sorted, func(a, b *big.Float) int { return a.Cmp(b) })
	for i := 0; i+1 < len(sorted); i++ {
		if sorted[i].Cmp(sorted[i+1]) != 0 {
			mid := new(big.Float).Add(sorted[i], sorted[i+1])
			cands = append(cands, mid.Quo(mid, big.NewFloat(2)))
		}
	}
	seen := map[string]bool{}
	for _, n := range cands {
		key := n.Text('g', 40)
		if !seen[key] {
			seen[key] = true
			h.nums = append(h.nums, n)
		}
	}

	for _, n := range nums {
		if i, acc := n.Int64(); acc == big.Exact && i >= -1 && i <= maxLength {
			h.lengths = append(h.lengths, int(i), int(i)+1, int(i)-1)
		}
	}
	return h
}

// literalArg returns the i-th argument of a call when it is a literal
// string.
func literalArg(call *hclsyntax.FunctionCallExpr, i int) (string, bool) {
	if i >= len(call.Args) {
		return "", false
	}
	v, diags := call.Args[i].Value(nil)
	if diags.HasErrors() || !v.IsKnown() || v.IsNull() || v.Type() != cty.String {
		return "", false
	}
	return v.AsString(), true
}

func dedupe(list []string) []string {
	seen := map[string]bool{}
	out := list[:0:0]
	for _, x := range list {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
