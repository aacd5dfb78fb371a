package cue

import (
	"errors"
	"fmt"

	"cuelang.org/go/cue"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/tofucue/tofucue/cueform"
	"github.com/tofucue/tofucue/engine/mock"
)

// decoder turns evaluated CUE into cty values. What is not concrete yet
// becomes unknown; what is an error (bottom) becomes unknown too and is
// reported, unless quiet is set.
type decoder struct {
	diags hcl.Diagnostics
	// quiet drops the diagnostics: a speculative evaluation's errors are
	// not the program's.
	quiet bool
	// failed is set when an error was met, reported or not.
	failed bool
}

func (d *decoder) report(diags ...*hcl.Diagnostic) {
	for _, diag := range diags {
		if diag.Severity == hcl.DiagError {
			d.failed = true
		}
	}
	if !d.quiet {
		d.diags = append(d.diags, diags...)
	}
}

// block decodes a resource configuration (or a nested block's) with its
// schema, as hcldec decodes a body on the HCL side: one attribute per
// schema attribute (null when absent), each converted to the attribute's
// type, nested blocks from lists of objects (structs keyed by label for
// map blocks). A field the schema does not know is "Unsupported
// argument". Attributes whose paths (at is the block's) are in skip are
// taken as absent: the computed attributes the engine added to the
// program itself.
func (d *decoder) block(v cue.Value, b *mock.Block, skip map[string]bool, at cty.Path) cty.Value {
	ty := b.ImpliedType()
	it, err := v.Fields()
	if err != nil {
		// A struct that cannot be listed: an error, or a comprehension
		// that waits for something unknown.
		if err := fatal(v); err != nil {
			d.report(errorDiags(err, "Invalid resource configuration", rangeOf(v.Pos()))...)
		}
		return cty.UnknownVal(ty)
	}
	fields := map[string]cue.Value{}
	for it.Next() {
		name := it.Selector().Unquoted()
		if len(skip) > 0 && skip[mock.PathString(appendPath(at, cty.GetAttrStep{Name: name}))] {
			continue
		}
		fields[name] = it.Value()
		_, isAttr := b.Attributes[name]
		_, isBlock := b.BlockTypes[name]
		if !isAttr && !isBlock {
			d.report(&hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Unsupported argument",
				Detail:   fmt.Sprintf("An argument named %q is not expected here.", name),
				Subject:  rangeOf(it.Value().Pos()),
			})
		}
	}
	vals := map[string]cty.Value{}
	for _, name := range sortedKeys(b.Attributes) {
		a := b.Attributes[name]
		aty := attrType(a)
		fv, ok := fields[name]
		if !ok {
			if a.Required {
				d.report(&hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Missing required argument",
					Detail:   fmt.Sprintf("The argument %q is required, but no definition was found.", name),
					Subject:  rangeOf(v.Pos()),
				})
			}
			vals[name] = cty.NullVal(aty)
			continue
		}
		val := d.conform(d.value(fv), aty, fv)
		if a.Computed && !a.Optional && !a.Required && !val.IsNull() {
			d.report(&hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Value for unconfigurable attribute",
				Detail:   fmt.Sprintf("Can't configure a value for %q: its value will be decided automatically based on the result of applying this configuration.", name),
				Subject:  rangeOf(fv.Pos()),
			})
		}
		vals[name] = val
	}
	for _, name := range sortedKeys(b.BlockTypes) {
		nb := b.BlockTypes[name]
		if _, clash := vals[name]; clash || nb == nil {
			continue
		}
		vals[name] = d.nested(fields[name], nb, skip, appendPath(at, cty.GetAttrStep{Name: name}))
	}
	return cty.ObjectVal(vals)
}

// attrType is the type of an attribute's value.
func attrType(a *mock.Attribute) cty.Type {
	switch {
	case a == nil:
		return cty.DynamicPseudoType
	case a.NestedType != nil:
		return a.NestedType.ImpliedType()
	case a.Type == cty.NilType:
		return cty.DynamicPseudoType
	}
	return a.Type
}

// nested decodes the blocks of one nested block type.
func (d *decoder) nested(v cue.Value, nb *mock.NestedBlock, skip map[string]bool, at cty.Path) cty.Value {
	ety := nb.Block.ImpliedType()
	dynamic := ety.HasDynamicTypes()
	if !v.Exists() {
		return emptyBlocks(nb)
	}
	if dv, ok := v.Default(); ok {
		v = dv
	}
	if err := fatal(v); err != nil {
		d.report(errorDiags(err, "Invalid nested block", rangeOf(v.Pos()))...)
		return cty.UnknownVal(blocksType(nb))
	}
	if v.IncompleteKind() == cue.NullKind {
		return emptyBlocks(nb)
	}
	var elems []cty.Value
	keys := []string{}
	switch nb.Nesting {
	case mock.NestingMap:
		it, err := v.Fields()
		if err != nil {
			return cty.UnknownVal(blocksType(nb))
		}
		for it.Next() {
			key := it.Selector().Unquoted()
			keys = append(keys, key)
			elems = append(elems, d.block(it.Value(), nb.Block, skip, appendPath(at, cty.IndexStep{Key: cty.StringVal(key)})))
		}
	default:
		single := nb.Nesting == mock.NestingSingle || nb.Nesting == mock.NestingGroup
		it, err := v.List()
		if err != nil {
			if v.IncompleteKind() == cue.StructKind && single {
				return d.block(v, nb.Block, skip, at)
			}
			return cty.UnknownVal(blocksType(nb))
		}
		for i := 0; it.Next(); i++ {
			eat := at
			if !single {
				eat = appendPath(at, cty.IndexStep{Key: cty.NumberIntVal(int64(i))})
			}
			elems = append(elems, d.block(it.Value(), nb.Block, skip, eat))
		}
	}
	if len(elems) == 0 {
		return emptyBlocks(nb)
	}
	switch nb.Nesting {
	case mock.NestingSingle, mock.NestingGroup:
		if len(elems) > 1 {
			d.report(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Too many blocks", Detail: "No more than 1 block is allowed here.", Subject: rangeOf(v.Pos())})
		}
		return elems[0]
	case mock.NestingMap:
		m := map[string]cty.Value{}
		for i, k := range keys {
			m[k] = elems[i]
		}
		if dynamic {
			return cty.ObjectVal(m)
		}
		return cty.MapVal(m)
	case mock.NestingSet:
		return cty.SetVal(elems)
	}
	if dynamic {
		return cty.TupleVal(elems)
	}
	return cty.ListVal(elems)
}

// emptyBlocks is the value of a nested block type with no blocks, as
// hcldec decodes it: an empty collection, a null single block, an empty
// group block.
func emptyBlocks(nb *mock.NestedBlock) cty.Value {
	ety := nb.Block.ImpliedType()
	switch nb.Nesting {
	case mock.NestingSingle:
		return cty.NullVal(ety)
	case mock.NestingGroup:
		return emptyBlock(nb.Block)
	case mock.NestingList:
		if ety.HasDynamicTypes() {
			return cty.EmptyTupleVal
		}
		return cty.ListValEmpty(ety)
	case mock.NestingSet:
		return cty.SetValEmpty(ety)
	case mock.NestingMap:
		if ety.HasDynamicTypes() {
			return cty.EmptyObjectVal
		}
		return cty.MapValEmpty(ety)
	}
	return cty.NullVal(ety)
}

// emptyBlock is a block with nothing set.
func emptyBlock(b *mock.Block) cty.Value {
	vals := map[string]cty.Value{}
	for name, a := range b.Attributes {
		vals[name] = cty.NullVal(attrType(a))
	}
	for name, nb := range b.BlockTypes {
		if _, clash := vals[name]; clash || nb == nil {
			continue
		}
		vals[name] = emptyBlocks(nb)
	}
	return cty.ObjectVal(vals)
}

// blocksType is the type of a nested block type's value.
func blocksType(nb *mock.NestedBlock) cty.Type {
	ety := nb.Block.ImpliedType()
	switch nb.Nesting {
	case mock.NestingSingle, mock.NestingGroup:
		return ety
	case mock.NestingSet:
		return cty.Set(ety)
	case mock.NestingMap:
		if ety.HasDynamicTypes() {
			return cty.DynamicPseudoType
		}
		return cty.Map(ety)
	}
	if ety.HasDynamicTypes() {
		return cty.DynamicPseudoType
	}
	return cty.List(ety)
}

// value decodes any value with the types CUE gives it: structs are
// objects, lists tuples, numbers exact. What is not concrete is unknown,
// typed by the kind CUE knows it will have; defaults apply.
func (d *decoder) value(v cue.Value) cty.Value {
	if !v.Exists() {
		return cty.NullVal(cty.DynamicPseudoType)
	}
	if dv, ok := v.Default(); ok {
		v = dv
	}
	if err := v.Err(); err != nil {
		if !cue.IsIncomplete(err) {
			d.report(errorDiags(err, "Invalid value", rangeOf(v.Pos()))...)
		}
		return cty.DynamicVal
	}
	if k := v.Kind(); (k == cue.StructKind || k == cue.ListKind) && v.LookupPath(unknownPath).Exists() {
		// The provider planned it not known yet (cueform.Unknown):
		// what it holds is its type.
		return cty.UnknownVal(d.known(v).Type())
	}
	return d.known(v)
}

// unknownPath is where a value the provider planned as not known yet
// holds cueform.Unknown.
var unknownPath = cue.MakePath(cue.Def(cueform.Unknown))

// known is value for a v that is not an error and not marked unknown.
func (d *decoder) known(v cue.Value) cty.Value {
	switch v.Kind() {
	case cue.NullKind:
		return cty.NullVal(cty.DynamicPseudoType)
	case cue.BoolKind:
		b, _ := v.Bool()
		return cty.BoolVal(b)
	case cue.StringKind:
		s, _ := v.String()
		return cty.StringVal(s)
	case cue.BytesKind:
		b, _ := v.Bytes()
		return cty.StringVal(string(b))
	case cue.IntKind, cue.FloatKind, cue.NumberKind:
		text, err := v.MarshalJSON()
		if err != nil {
			return cty.UnknownVal(cty.Number)
		}
		n, err := cty.ParseNumberVal(string(text))
		if err != nil {
			return cty.UnknownVal(cty.Number)
		}
		return n
	case cue.StructKind:
		it, err := v.Fields()
		if err != nil {
			return cty.DynamicVal
		}
		attrs := map[string]cty.Value{}
		for it.Next() {
			attrs[it.Selector().Unquoted()] = d.value(it.Value())
		}
		return cty.ObjectVal(attrs)
	case cue.ListKind:
		it, err := v.List()
		if err != nil {
			return cty.DynamicVal
		}
		var elems []cty.Value
		for it.Next() {
			elems = append(elems, d.value(it.Value()))
		}
		return cty.TupleVal(elems)
	}
	return cty.UnknownVal(kindType(v.IncompleteKind()))
}

// kindType is the cty type of a value of kind k not known yet.
func kindType(k cue.Kind) cty.Type {
	switch k {
	case cue.StringKind:
		return cty.String
	case cue.IntKind, cue.FloatKind, cue.NumberKind:
		return cty.Number
	case cue.BoolKind:
		return cty.Bool
	}
	return cty.DynamicPseudoType
}

// conform converts a decoded value to an attribute's type, as the HCL
// side's decoder spec does: missing object attributes are null, and the
// value converts as go-cty converts (15 to "15", a tuple to a list or
// set, an object to a map). A value that does not convert is "Incorrect
// attribute value type" at src.
func (d *decoder) conform(v cty.Value, ty cty.Type, src cue.Value) cty.Value {
	if ty == cty.DynamicPseudoType {
		return v
	}
	out, err := convert.Convert(mock.Complete(v, ty), ty)
	if err != nil {
		d.report(&hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Incorrect attribute value type",
			Detail:   fmt.Sprintf("Inappropriate value for attribute: %s.", convertError(err)),
			Subject:  rangeOf(src.Pos()),
		})
		return cty.UnknownVal(ty)
	}
	return out
}

func convertError(err error) string {
	var pe cty.PathError
	if errors.As(err, &pe) && len(pe.Path) > 0 {
		return mock.PathString(pe.Path) + ": " + pe.Error()
	}
	return err.Error()
}
