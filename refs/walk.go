package refs

import (
	"fmt"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tofucue/tofucue/config"
)

// BindingKind tells what introduced a bound name.
type BindingKind uint8

const (
	// ForKey is the key (or index) variable of a for expression.
	ForKey BindingKind = iota + 1
	// ForValue is the value variable of a for expression: an element of
	// the collection.
	ForValue
	// Iterator is a dynamic block's iterator: NAME.key and NAME.value, the
	// key and the element of its for_each.
	Iterator
)

func (k BindingKind) String() string {
	switch k {
	case ForKey:
		return "for key"
	case ForValue:
		return "for value"
	case Iterator:
		return "iterator"
	}
	return fmt.Sprintf("BindingKind(%d)", uint8(k))
}

// Binding is a name that an expression or a block binds, where it is not
// a reference to anything the module declares.
type Binding struct {
	Name string
	Kind BindingKind
	// Over is the collection the name ranges over: the for expression's
	// collection, or the dynamic block's for_each (nil when the block has
	// none). A consumer that knows what Over is knows what an element of
	// it is, and so what the name stands for.
	Over hcl.Expression
}

// Scope is what is in force at a place in a module: the names that the
// enclosing for expressions and dynamic blocks bind, and the context
// objects (each, count, self) of the declaration. A Scope is immutable;
// For and Dynamic return a new one inside the old. The nil *Scope is the
// empty scope: nothing bound, no context objects.
type Scope struct {
	outer   *Scope
	binding *Binding // nil only in a declaration's scope, the outermost
	context Context
	forEach hcl.Expression
}

// NewScope returns the outermost scope of a declaration's expressions:
// nothing bound, the context objects ctx. forEach is the for_each
// argument that gives each there (nil where the place has none), so that a
// consumer can follow each.value back to it as it follows a binding to its
// Over.
func NewScope(ctx Context, forEach hcl.Expression) *Scope {
	return &Scope{context: ctx, forEach: forEach}
}

// Context is the context objects in force: those of the declaration, as
// bound names do not change them.
func (s *Scope) Context() Context {
	if s == nil {
		return Context{}
	}
	return s.context
}

// ForEach is the for_each argument that each stands for an element of, or
// nil.
func (s *Scope) ForEach() hcl.Expression {
	if s == nil {
		return nil
	}
	return s.forEach
}

// Lookup returns the innermost binding of name, or nil when nothing binds
// it there.
func (s *Scope) Lookup(name string) *Binding {
	for ; s != nil; s = s.outer {
		if s.binding != nil && s.binding.Name == name {
			return s.binding
		}
	}
	return nil
}

func (s *Scope) bind(b *Binding) *Scope {
	return &Scope{outer: s, binding: b, context: s.Context(), forEach: s.ForEach()}
}

// For returns the scope of a for expression's key, value and condition:
// s with its key variable and then its value variable bound, so that the
// value wins where both have the same name, as in hcl's evaluation. The
// collection is evaluated in s itself.
func (s *Scope) For(e *hclsyntax.ForExpr) *Scope {
	inner := s
	if e.KeyVar != "" {
		inner = inner.bind(&Binding{Name: e.KeyVar, Kind: ForKey, Over: e.CollExpr})
	}
	return inner.bind(&Binding{Name: e.ValVar, Kind: ForValue, Over: e.CollExpr})
}

// Dynamic returns the scope of a dynamic block's labels and content: s
// with its iterator bound. The iterator is named by the iterator argument
// when that is a bare name, and by the block's label otherwise. forEach
// and iterator are the block's arguments (nil when absent); for_each
// itself is evaluated in s.
func (s *Scope) Dynamic(label string, forEach, iterator hcl.Expression) *Scope {
	name := label
	if iterator != nil {
		if kw := hcl.ExprAsKeyword(iterator); kw != "" {
			name = kw
		}
	}
	return s.bind(&Binding{Name: name, Kind: Iterator, Over: forEach})
}

// Root is what a traversal starts from in a scope: a binding, with the
// steps after the bound name in Rest, or else a reference (nil where the
// traversal cannot be one).
type Root struct {
	Binding   *Binding
	Rest      hcl.Traversal
	Reference *Reference
}

// Resolve reads an absolute traversal in s: the innermost binding of its
// root name, or else a reference as Parse reads it, with Parse's
// diagnostics. A bound name shadows every root of the language, so
// [for var in x : var.a] reads no variable.
func (s *Scope) Resolve(t hcl.Traversal, ctx ParseRefContext) (Root, hcl.Diagnostics) {
	if len(t) > 0 && !t.IsRelative() {
		if b := s.Lookup(t.RootName()); b != nil {
			return Root{Binding: b, Rest: t[1:]}, nil
		}
	}
	ref, diags := Parse(t, ctx)
	return Root{Reference: ref}, diags
}

// Walk calls visit for expr and then, depth first in source order, for
// each expression inside it, with the scope in force there: s, and inside
// a for expression's key, value and condition the scope For gives. When
// visit returns false, Walk skips the children of that expression. An
// expression that is not native syntax (JSON) is visited alone: its parts
// are not expressions hcl exposes, and its Variables are in its scope.
func Walk(expr hcl.Expression, s *Scope, visit func(e hcl.Expression, s *Scope) bool) {
	if expr == nil {
		return
	}
	syn, ok := expr.(hclsyntax.Expression)
	if !ok {
		visit(expr, s)
		return
	}
	w := &walker{visit: visit, frames: []frame{{scope: s}}}
	_ = hclsyntax.Walk(syn, w) // the walker reports nothing
}

// walker follows hclsyntax.Walk's enter and exit calls with a stack of
// the nodes it is inside, each with its scope.
type walker struct {
	visit  func(hcl.Expression, *Scope) bool
	frames []frame
}

type frame struct {
	node  hclsyntax.Node
	scope *Scope
	// inner is the scope of a for expression's parts, made once for all
	// three so that they share their bindings.
	inner *Scope
	// skip: visit declined this node's children (or an ancestor's).
	skip bool
}

func (w *walker) Enter(n hclsyntax.Node) hcl.Diagnostics {
	parent := &w.frames[len(w.frames)-1]
	f := frame{node: n, scope: parent.scope, skip: parent.skip}
	switch n := n.(type) {
	case hclsyntax.ChildScope:
		// hclsyntax wraps the key, value and condition of a for
		// expression in a ChildScope, and nothing else.
		if fe, ok := parent.node.(*hclsyntax.ForExpr); ok {
			if parent.inner == nil {
				parent.inner = parent.scope.For(fe)
			}
			f.scope = parent.inner
		}
	case hclsyntax.Expression:
		if !f.skip {
			f.skip = !w.visit(n, f.scope)
		}
	}
	w.frames = append(w.frames, f)
	return nil
}

func (w *walker) Exit(hclsyntax.Node) hcl.Diagnostics {
	w.frames = w.frames[:len(w.frames)-1]
	return nil
}

// WalkBody walks the expressions of a block body and of its nested
// blocks, as Walk does, in s. A dynamic block's for_each is in s, its
// labels and content in the scope Dynamic gives. Bodies that the loader
// merged (override files, "_" escape blocks) are walked part by part.
// The body's own hidden arguments and blocks (the meta-arguments a
// decoder already took) stay hidden.
//
// JSON bodies are walked through hcl's generic API: a dynamic block written
// as a direct property is understood, but one nested inside another JSON
// block object is read as plain attributes.
func WalkBody(b hcl.Body, s *Scope, visit func(e hcl.Expression, s *Scope) bool) {
	if b == nil {
		return
	}
	if parts := config.BodyParts(b); len(parts) > 1 {
		for _, p := range parts {
			WalkBody(p, s, visit)
		}
		return
	}
	// The schema names every block type the syntax has, so that the
	// generic API hides what PartialContent already took and shows the
	// rest.
	schema := &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "dynamic", LabelNames: []string{"type"}}}}
	if sb, ok := b.(*hclsyntax.Body); ok {
		for _, blk := range sb.Blocks {
			if !slices.ContainsFunc(schema.Blocks, func(h hcl.BlockHeaderSchema) bool { return h.Type == blk.Type }) {
				schema.Blocks = append(schema.Blocks, hcl.BlockHeaderSchema{Type: blk.Type, LabelNames: labelNames(len(blk.Labels))})
			}
		}
	}
	content, remain, _ := b.PartialContent(schema)
	attrs, _ := remain.JustAttributes()
	for _, a := range attrs {
		Walk(a.Expr, s, visit)
	}
	for _, blk := range content.Blocks {
		if blk.Type == "dynamic" {
			walkDynamic(blk, s, visit)
		} else {
			WalkBody(blk.Body, s, visit)
		}
	}
}

var dynamicSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "for_each"}, {Name: "iterator"}, {Name: "labels"}},
	Blocks:     []hcl.BlockHeaderSchema{{Type: "content"}},
}

func walkDynamic(blk *hcl.Block, s *Scope, visit func(hcl.Expression, *Scope) bool) {
	content, _, _ := blk.Body.PartialContent(dynamicSchema)
	var forEach, iterator hcl.Expression
	if a, ok := content.Attributes["for_each"]; ok {
		forEach = a.Expr
		Walk(forEach, s, visit)
	}
	if a, ok := content.Attributes["iterator"]; ok {
		iterator = a.Expr
	}
	inner := s.Dynamic(blk.Labels[0], forEach, iterator)
	if a, ok := content.Attributes["labels"]; ok {
		Walk(a.Expr, inner, visit)
	}
	for _, c := range content.Blocks {
		WalkBody(c.Body, inner, visit)
	}
}

func labelNames(n int) []string {
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("label%d", i)
	}
	return names
}
