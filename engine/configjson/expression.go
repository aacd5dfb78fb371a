package configjson

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/tofucue/tofucue/engine/mock"
	"github.com/tofucue/tofucue/refs"
)

// Expression is one expression of the configuration: its value when it
// is a constant (it refers to nothing and calls no function), or the
// references it makes. An expression that calls a function on constants
// has neither, and is written {}.
type Expression struct {
	ConstantValue json.RawMessage `json:"constant_value,omitempty"`
	// References lists, for each reference in the expression in source
	// order, the reference and every shorter prefix of it down to the
	// object it names, then that object without its instance key:
	// aws_vpc.main[0].id gives aws_vpc.main[0].id, aws_vpc.main[0] and
	// aws_vpc.main. Duplicates are kept, as OpenTofu keeps them.
	References []string `json:"references,omitempty"`
}

// empty reports an expression that has neither a constant value nor
// references: an absent argument, or a function of constants.
func (e *Expression) empty() bool {
	return e.ConstantValue == nil && e.References == nil
}

// expression describes expr, reading its references in the module ctx
// (which decides what an opt-in feature's symbol means); an absent
// expression is empty.
func expression(expr hcl.Expression, ctx refs.ParseRefContext) *Expression {
	e := &Expression{}
	if expr == nil {
		return e
	}
	// Evaluated with no scope, an expression succeeds only when it is a
	// constant: a reference or a function call fails.
	if v, diags := expr.Value(nil); v != cty.NilVal && !diags.HasErrors() && v.IsWhollyKnown() {
		if b, err := ctyjson.Marshal(v, v.Type()); err == nil {
			e.ConstantValue = b
		}
	}
	for _, tr := range expr.Variables() {
		ref, diags := refs.Parse(tr, ctx)
		if ref == nil || diags.HasErrors() {
			continue
		}
		e.References = append(e.References, referenceList(ref)...)
	}
	return e
}

// referenceList is what one reference adds to an expression's references.
func referenceList(ref *refs.Reference) []string {
	subject := subjectString(ref.Subject)
	var out []string
	for rest := ref.Remaining; len(rest) > 0; rest = rest[:len(rest)-1] {
		out = append(out, subject+remainderString(rest))
	}
	out = append(out, subject)
	switch s := ref.Subject.(type) {
	case refs.ResourceInstance:
		if s.Key != refs.NoKey {
			out = append(out, s.Resource.String())
		}
	case refs.ModuleCallInstance:
		if s.Key != refs.NoKey {
			out = append(out, s.Call.String())
		}
	case refs.ModuleCallOutput:
		out = append(out, subjectString(s.Call))
	}
	return out
}

// subjectString is a reference's subject as OpenTofu writes an address:
// instance keys quoted as HCL quotes a string.
func subjectString(s refs.Subject) string {
	switch s := s.(type) {
	case refs.ResourceInstance:
		return s.Resource.String() + keyString(s.Key)
	case refs.ModuleCallInstance:
		return s.Call.String() + keyString(s.Key)
	case refs.ModuleCallOutput:
		return subjectString(s.Call) + "." + s.Name
	}
	return s.String()
}

func keyString(k refs.InstanceKey) string {
	if s, ok := k.(refs.StringKey); ok {
		return "[" + hclQuote(string(s)) + "]"
	}
	return k.String()
}

// hclQuote writes s as an HCL quoted string: the escapes of the native
// syntax, and template sequences doubled so that they stay literal.
func hclQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i, r := range s {
		switch {
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case (r == '$' || r == '%') && strings.HasPrefix(s[i+1:], "{"):
			b.WriteRune(r)
			b.WriteRune(r)
		case !unicode.IsPrint(r):
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// remainderString writes the steps after a reference's subject: .name,
// ["key"] (quoted as Go quotes), [1]; other steps write nothing.
func remainderString(tr hcl.Traversal) string {
	var b strings.Builder
	for _, step := range tr {
		switch s := step.(type) {
		case hcl.TraverseAttr:
			b.WriteString("." + s.Name)
		case hcl.TraverseIndex:
			b.WriteByte('[')
			switch {
			case s.Key.Type() == cty.String && s.Key.IsKnown() && !s.Key.IsNull():
				fmt.Fprintf(&b, "%q", s.Key.AsString())
			case s.Key.Type() == cty.Number && s.Key.IsKnown() && !s.Key.IsNull():
				b.WriteString(s.Key.AsBigFloat().Text('g', 10))
			default:
				b.WriteString("...")
			}
			b.WriteByte(']')
		}
	}
	return b.String()
}

// Expressions describes a body: each argument as an [*Expression], each
// nested block as OpenTofu nests it by the schema's nesting mode (an
// object for a single block, a list of objects for a list or set, an
// object of objects by label for a map). Dynamic blocks and anything the
// schema does not name are left out.
type Expressions map[string]any

// expressions describes body with the schema; with no schema every
// argument is described and every block is taken as a list.
func expressions(body hcl.Body, schema *mock.Block, ctx refs.ParseRefContext) Expressions {
	if body == nil {
		return nil
	}
	if schema == nil {
		schema = impliedSchema(body)
	}
	content, _, _ := body.PartialContent(bodySchema(schema))
	if content == nil {
		return nil
	}
	out := Expressions{}
	for name, attr := range content.Attributes {
		out[name] = expression(attr.Expr, ctx)
	}
	for _, blk := range content.Blocks {
		nb := schema.BlockTypes[blk.Type]
		if nb == nil {
			continue
		}
		inner := expressions(blk.Body, nb.Block, ctx)
		if inner == nil {
			inner = Expressions{}
		}
		switch nb.Nesting {
		case mock.NestingSingle, mock.NestingGroup:
			out[blk.Type] = inner
		case mock.NestingMap:
			m, _ := out[blk.Type].(map[string]Expressions)
			if m == nil {
				m = map[string]Expressions{}
				out[blk.Type] = m
			}
			if len(blk.Labels) > 0 {
				m[blk.Labels[0]] = inner
			}
		default:
			l, _ := out[blk.Type].([]Expressions)
			out[blk.Type] = append(l, inner)
		}
	}
	return out
}

// bodySchema is the HCL schema of a block's arguments and nested blocks;
// a map's blocks take one label, the key.
func bodySchema(b *mock.Block) *hcl.BodySchema {
	s := &hcl.BodySchema{}
	for _, name := range sortedKeys(b.Attributes) {
		s.Attributes = append(s.Attributes, hcl.AttributeSchema{Name: name})
	}
	for _, name := range sortedKeys(b.BlockTypes) {
		h := hcl.BlockHeaderSchema{Type: name}
		if b.BlockTypes[name].Nesting == mock.NestingMap {
			h.LabelNames = []string{"key"}
		}
		s.Blocks = append(s.Blocks, h)
	}
	return s
}

// impliedSchema is the schema a body implies when none is known: its
// arguments, and its blocks (dynamic ones aside) as lists of blocks of
// their own implied schema.
func impliedSchema(body hcl.Body) *mock.Block {
	b := &mock.Block{Attributes: map[string]*mock.Attribute{}, BlockTypes: map[string]*mock.NestedBlock{}}
	syn, ok := body.(*hclsyntax.Body)
	if !ok {
		attrs, _ := body.JustAttributes()
		for name := range attrs {
			b.Attributes[name] = &mock.Attribute{Type: cty.DynamicPseudoType, Optional: true}
		}
		return b
	}
	for name := range syn.Attributes {
		b.Attributes[name] = &mock.Attribute{Type: cty.DynamicPseudoType, Optional: true}
	}
	for _, blk := range syn.Blocks {
		if blk.Type == "dynamic" {
			continue
		}
		inner := impliedSchema(blk.Body)
		if prev := b.BlockTypes[blk.Type]; prev != nil {
			// Blocks of one type share a schema: the union of theirs.
			maps.Copy(prev.Block.Attributes, inner.Attributes)
			maps.Copy(prev.Block.BlockTypes, inner.BlockTypes)
			continue
		}
		b.BlockTypes[blk.Type] = &mock.NestedBlock{Nesting: mock.NestingList, Block: inner}
	}
	return b
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
