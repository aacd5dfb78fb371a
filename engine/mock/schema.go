package mock

import (
	"fmt"
	"sort"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"
)

// Attribute is the schema of one attribute of a resource type, as in the
// "attributes" of a `tofu providers schema -json` block.
type Attribute struct {
	// Type is the attribute's type. For an attribute with NestedType it is
	// the type the nested attributes imply.
	Type cty.Type
	// NestedType, when not nil, describes an attribute made of nested
	// attributes (the "nested_type" of plugin protocol 6).
	NestedType *Object

	Required, Optional, Computed, Sensitive bool

	// shape is how an inferred computed attribute is used; nil otherwise.
	shape *useNode
}

// Object is the nested type of an attribute: its own attributes, and how
// the objects nest (NestingSingle, NestingList, NestingSet or NestingMap).
type Object struct {
	Attributes         map[string]*Attribute
	Nesting            Nesting
	MinItems, MaxItems int
}

// Nesting tells how a nested block type (or nested attribute type) repeats.
type Nesting int

// The nesting modes of the schema JSON.
const (
	NestingSingle Nesting = iota
	NestingGroup
	NestingList
	NestingSet
	NestingMap
)

var nestingNames = [...]string{"single", "group", "list", "set", "map"}

func (n Nesting) String() string {
	if n < 0 || int(n) >= len(nestingNames) {
		return fmt.Sprintf("Nesting(%d)", int(n))
	}
	return nestingNames[n]
}

func parseNesting(s string) (Nesting, bool) {
	for i, name := range nestingNames {
		if name == s {
			return Nesting(i), true
		}
	}
	return 0, false
}

// NestedBlock is a nested block type of a Block.
type NestedBlock struct {
	Nesting            Nesting
	Block              *Block
	MinItems, MaxItems int
}

// Block is the schema of a resource type's body, or of a nested block's.
// A Block is treated as immutable once DecoderSpec or ImpliedType has been
// called: both are computed once and kept.
type Block struct {
	Attributes map[string]*Attribute
	BlockTypes map[string]*NestedBlock

	once sync.Once
	spec hcldec.ObjectSpec
	ty   cty.Type
}

// DecoderSpec returns the hcldec spec that decodes a resource body (after
// dynblock.Expand) into a value of ImpliedType, as OpenTofu's configschema
// does: an absent attribute is null, a Required one must be present, nested
// blocks decode by their nesting (list blocks with dynamically typed
// contents as tuples, map blocks with such contents as objects), an absent
// group block is its empty value. The body may have no other arguments or
// blocks ("Unsupported argument"), values must convert to the attribute's
// type ("Incorrect attribute value type"), and setting a computed-only
// attribute is an error ("Value for unconfigurable attribute").
func (b *Block) DecoderSpec() hcldec.Spec {
	if b == nil {
		return hcldec.ObjectSpec{}
	}
	b.build()
	return b.spec
}

// ImpliedType is the type of the value DecoderSpec decodes: an object with
// one attribute per attribute and nested block type.
func (b *Block) ImpliedType() cty.Type {
	if b == nil {
		return cty.EmptyObject
	}
	b.build()
	return b.ty
}

func (b *Block) build() {
	b.once.Do(func() {
		spec := hcldec.ObjectSpec{}
		for _, name := range sortedKeys(b.Attributes) {
			spec[name] = b.Attributes[name].decoderSpec(name)
		}
		for _, name := range sortedKeys(b.BlockTypes) {
			if _, clash := spec[name]; clash {
				continue
			}
			if s := b.BlockTypes[name].decoderSpec(name); s != nil {
				spec[name] = s
			}
		}
		b.spec = spec
		b.ty = hcldec.ImpliedType(spec).WithoutOptionalAttributesDeep()
	})
}

func (a *Attribute) decoderSpec(name string) hcldec.Spec {
	if a == nil {
		return &hcldec.AttrSpec{Name: name, Type: cty.DynamicPseudoType}
	}
	ty := a.Type
	if a.NestedType != nil {
		ty = a.NestedType.specType()
	}
	if ty == cty.NilType {
		ty = cty.DynamicPseudoType
	}
	var spec hcldec.Spec = &hcldec.AttrSpec{Name: name, Type: ty, Required: a.Required}
	if a.Computed && !a.Optional && !a.Required {
		spec = &hcldec.ValidateSpec{Wrapped: spec, Func: func(v cty.Value) hcl.Diagnostics {
			if v.IsNull() {
				return nil
			}
			return hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Value for unconfigurable attribute",
				Detail:   fmt.Sprintf("Can't configure a value for %q: its value will be decided automatically based on the result of applying this configuration.", name),
			}}
		}}
	}
	return spec
}

func (nb *NestedBlock) decoderSpec(name string) hcldec.Spec {
	if nb == nil {
		return nil
	}
	child := nb.Block.DecoderSpec()
	dynamic := nb.Block.ImpliedType().HasDynamicTypes()
	switch nb.Nesting {
	case NestingSingle:
		return &hcldec.BlockSpec{TypeName: name, Nested: child, Required: nb.MinItems == 1}
	case NestingGroup:
		return &hcldec.DefaultSpec{
			Primary: &hcldec.BlockSpec{TypeName: name, Nested: child, Required: nb.MinItems == 1},
			Default: &hcldec.LiteralSpec{Value: nb.Block.emptyValue()},
		}
	case NestingList:
		if dynamic {
			return &hcldec.BlockTupleSpec{TypeName: name, Nested: child, MinItems: nb.MinItems, MaxItems: nb.MaxItems}
		}
		return &hcldec.BlockListSpec{TypeName: name, Nested: child, MinItems: nb.MinItems, MaxItems: nb.MaxItems}
	case NestingSet:
		return &hcldec.BlockSetSpec{TypeName: name, Nested: child, MinItems: nb.MinItems, MaxItems: nb.MaxItems}
	case NestingMap:
		if dynamic {
			return &hcldec.BlockObjectSpec{TypeName: name, Nested: child, LabelNames: []string{"key"}}
		}
		return &hcldec.BlockMapSpec{TypeName: name, Nested: child, LabelNames: []string{"key"}}
	}
	return nil
}

// emptyValue is the value of a block with nothing set: null attributes,
// empty collections of nested blocks, null single blocks and empty group
// blocks.
func (b *Block) emptyValue() cty.Value {
	if b == nil {
		return cty.EmptyObjectVal
	}
	vals := map[string]cty.Value{}
	for name, a := range b.Attributes {
		vals[name] = cty.NullVal(a.impliedType())
	}
	for name, nb := range b.BlockTypes {
		if _, clash := vals[name]; clash || nb == nil {
			continue
		}
		vals[name] = nb.emptyValue()
	}
	return cty.ObjectVal(vals)
}

func (nb *NestedBlock) emptyValue() cty.Value {
	ety := nb.Block.ImpliedType()
	switch nb.Nesting {
	case NestingGroup:
		return nb.Block.emptyValue()
	case NestingList:
		if ety.HasDynamicTypes() {
			return cty.EmptyTupleVal
		}
		return cty.ListValEmpty(ety)
	case NestingSet:
		return cty.SetValEmpty(ety)
	case NestingMap:
		if ety.HasDynamicTypes() {
			return cty.EmptyObjectVal
		}
		return cty.MapValEmpty(ety)
	}
	return cty.NullVal(ety)
}

// impliedType is the type of the attribute's value.
func (a *Attribute) impliedType() cty.Type {
	if a == nil {
		return cty.DynamicPseudoType
	}
	if a.NestedType != nil {
		return a.NestedType.ImpliedType()
	}
	if a.Type == cty.NilType {
		return cty.DynamicPseudoType
	}
	return a.Type
}

// ImpliedType is the type of an attribute of this nested type: an object
// of its attributes, or a list, set or map of such objects.
func (o *Object) ImpliedType() cty.Type {
	return o.typeWith(false)
}

// specType is ImpliedType with the Optional and Computed nested attributes
// marked optional, so that configuration may leave them out.
func (o *Object) specType() cty.Type {
	return o.typeWith(true)
}

func (o *Object) typeWith(optional bool) cty.Type {
	if o == nil {
		return cty.EmptyObject
	}
	atys := map[string]cty.Type{}
	var opts []string
	for name, a := range o.Attributes {
		ty := a.impliedType()
		if optional && a.NestedType != nil {
			ty = a.NestedType.specType()
		}
		atys[name] = ty
		if optional && a != nil && (a.Optional || a.Computed) {
			opts = append(opts, name)
		}
	}
	sort.Strings(opts)
	var ety cty.Type
	if len(opts) > 0 {
		ety = cty.ObjectWithOptionalAttrs(atys, opts)
	} else {
		ety = cty.Object(atys)
	}
	switch o.Nesting {
	case NestingList:
		return cty.List(ety)
	case NestingSet:
		return cty.Set(ety)
	case NestingMap:
		return cty.Map(ety)
	}
	return ety
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
