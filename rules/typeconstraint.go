package rules

// Helpers of the type constraint rules (any_type_inspected,
// legacy_collection_type, variable_default_type, optional_default_type,
// lossy_default_conversion, variable_type_missing): following a path of a
// value through the syntax that wrote it, finding where a value fails to
// convert to a type, writing types and paths the way a user writes them,
// and inferring a type from values.

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/tofucue/tofucue/config"
)

// valuePath writes a cty path after root the way a user writes the
// expression: default["mykey"].field. With an empty root, a leading
// attribute step has no dot.
func valuePath(root string, path cty.Path) string {
	var b strings.Builder
	b.WriteString(root)
	for _, step := range path {
		switch s := step.(type) {
		case cty.GetAttrStep:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s.Name)
		case cty.IndexStep:
			switch {
			case !s.Key.IsKnown() || s.Key.IsNull():
				b.WriteString("[...]")
			case s.Key.Type() == cty.String:
				fmt.Fprintf(&b, "[%q]", s.Key.AsString())
			case s.Key.Type() == cty.Number:
				fmt.Fprintf(&b, "[%s]", s.Key.AsBigFloat().Text('f', -1))
			default:
				b.WriteString("[...]")
			}
		}
	}
	return b.String()
}

// conversionFailure tells where val fails to convert to ty: the path of
// the deepest part that does not conform and what is wrong with it there.
// cty reports a path for some failures only, and for a failure to find a
// common element type (list(any) of a string and a tuple) it names no
// element; this descends the value itself, converting each part, so that
// the answer always names the part. ok is false when val converts.
func conversionFailure(val cty.Value, ty cty.Type) (path cty.Path, msg string, ok bool) {
	_, err := convert.Convert(val, ty)
	if err == nil {
		return nil, "", false
	}
	path, msg = descendFailure(val, ty, nil, err)
	return path, msg, true
}

func descendFailure(val cty.Value, ty cty.Type, path cty.Path, err error) (cty.Path, string) {
	// cty's error may carry a path, but only for some failures: descend
	// anyway, so that the message is the one of the innermost conversion.
	msg := err.Error()
	if val.IsNull() || !val.IsKnown() || val.IsMarked() {
		return path, msg
	}
	vt := val.Type()
	switch {
	case ty.IsObjectType() && (vt.IsObjectType() || vt.IsMapType()):
		for _, name := range sortedAttrNames(ty) {
			av, has := attrOf(val, name)
			if !has {
				continue
			}
			if _, err := convert.Convert(av, ty.AttributeType(name)); err != nil {
				return descendFailure(av, ty.AttributeType(name), appendPath(path, cty.GetAttrStep{Name: name}), err)
			}
		}
	case (ty.IsListType() || ty.IsSetType()) && (vt.IsTupleType() || vt.IsListType() || vt.IsSetType()):
		elems := val.AsValueSlice()
		ety := ty.ElementType()
		converted := make([]cty.Type, 0, len(elems))
		for i, ev := range elems {
			cv, err := convert.Convert(ev, ety)
			if err != nil {
				return descendFailure(ev, ety, appendPath(path, cty.IndexStep{Key: cty.NumberIntVal(int64(i))}), err)
			}
			converted = append(converted, cv.Type())
			if i > 0 && ety.HasDynamicTypes() {
				if u, _ := convert.UnifyUnsafe(converted); u == cty.NilType {
					return appendPath(path, cty.IndexStep{Key: cty.NumberIntVal(int64(i))}),
						fmt.Sprintf("all %s elements must have the same type, and this %s has no type in common with the elements before it (%s)",
							collectionNoun(ty), friendlyType(cv.Type()), friendlyTypes(converted[:i]))
				}
			}
		}
	case ty.IsMapType() && (vt.IsObjectType() || vt.IsMapType()):
		ety := ty.ElementType()
		var converted []cty.Type
		for _, k := range sortedKeys(val) {
			ev, _ := attrOf(val, k)
			cv, err := convert.Convert(ev, ety)
			if err != nil {
				return descendFailure(ev, ety, appendPath(path, cty.IndexStep{Key: cty.StringVal(k)}), err)
			}
			converted = append(converted, cv.Type())
			if len(converted) > 1 && ety.HasDynamicTypes() {
				if u, _ := convert.UnifyUnsafe(converted); u == cty.NilType {
					return appendPath(path, cty.IndexStep{Key: cty.StringVal(k)}),
						fmt.Sprintf("all map elements must have the same type, and this %s has no type in common with the elements before it (%s)",
							friendlyType(cv.Type()), friendlyTypes(converted[:len(converted)-1]))
				}
			}
		}
	case ty.IsTupleType() && (vt.IsTupleType() || vt.IsListType()):
		etys := ty.TupleElementTypes()
		n := val.LengthInt()
		if n != len(etys) {
			return path, fmt.Sprintf("a tuple of %s is required, but this has %d", countNoun(len(etys), "element"), n)
		}
		for i, ev := range val.AsValueSlice() {
			if _, err := convert.Convert(ev, etys[i]); err != nil {
				return descendFailure(ev, etys[i], appendPath(path, cty.IndexStep{Key: cty.NumberIntVal(int64(i))}), err)
			}
		}
	}
	return path, msg
}

// appendPath appends a step to a copy of path, so that paths that share a
// prefix do not share a backing array.
func appendPath(path cty.Path, s cty.PathStep) cty.Path {
	return append(slices.Clip(path), s)
}

func attrOf(val cty.Value, name string) (cty.Value, bool) {
	if val.Type().IsObjectType() {
		if !val.Type().HasAttribute(name) {
			return cty.NilVal, false
		}
		return val.GetAttr(name), true
	}
	k := cty.StringVal(name)
	if val.HasIndex(k).True() {
		return val.Index(k), true
	}
	return cty.NilVal, false
}

func sortedAttrNames(ty cty.Type) []string {
	names := make([]string, 0, len(ty.AttributeTypes()))
	for name := range ty.AttributeTypes() {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

func sortedKeys(val cty.Value) []string {
	var keys []string
	for k := range val.AsValueMap() {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// countNoun writes "1 element", "2 elements".
func countNoun(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func collectionNoun(ty cty.Type) string {
	switch {
	case ty.IsSetType():
		return "set"
	case ty.IsMapType():
		return "map"
	}
	return "list"
}

// friendlyType names a type the way cty's conversion errors do: "string",
// "tuple", "object".
func friendlyType(ty cty.Type) string {
	switch {
	case ty.IsObjectType():
		return "object"
	case ty.IsTupleType():
		return "tuple"
	}
	return ty.FriendlyName()
}

func friendlyTypes(tys []cty.Type) string {
	var names []string
	for _, ty := range tys {
		if n := friendlyType(ty); !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	return strings.Join(names, ", ")
}

// typeString writes a type as a type constraint, with spaces the way
// tofu fmt lays out a one-line constraint: object({ name = string, tags =
// map(string) }). Optional attributes are written optional(T); defaults
// are not part of a cty.Type.
func typeString(ty cty.Type) string {
	switch {
	case ty == cty.DynamicPseudoType:
		return "any"
	case ty.IsPrimitiveType():
		return ty.FriendlyName()
	case ty.IsListType():
		return "list(" + typeString(ty.ElementType()) + ")"
	case ty.IsSetType():
		return "set(" + typeString(ty.ElementType()) + ")"
	case ty.IsMapType():
		return "map(" + typeString(ty.ElementType()) + ")"
	case ty.IsObjectType():
		names := sortedAttrNames(ty)
		if len(names) == 0 {
			return "object({})"
		}
		parts := make([]string, len(names))
		for i, name := range names {
			at := typeString(ty.AttributeType(name))
			if ty.AttributeOptional(name) {
				at = "optional(" + at + ")"
			}
			parts[i] = name + " = " + at
		}
		return "object({ " + strings.Join(parts, ", ") + " })"
	case ty.IsTupleType():
		parts := make([]string, 0, len(ty.TupleElementTypes()))
		for _, et := range ty.TupleElementTypes() {
			parts = append(parts, typeString(et))
		}
		return "tuple([" + strings.Join(parts, ", ") + "])"
	}
	return ty.FriendlyName()
}

// accessTree records how a module reads a value: the attributes it reads
// by name, and the elements it reads by position or key or by iterating.
// Type inference uses it to choose between an object and a map.
type accessTree struct {
	attrs map[string]*accessTree
	elem  *accessTree
}

func (a *accessTree) attr(name string) *accessTree {
	if a.attrs == nil {
		a.attrs = map[string]*accessTree{}
	}
	c, ok := a.attrs[name]
	if !ok {
		c = &accessTree{}
		a.attrs[name] = c
	}
	return c
}

func (a *accessTree) element() *accessTree {
	if a.elem == nil {
		a.elem = &accessTree{}
	}
	return a.elem
}

// elements is the access of every element of a value read as a map: the
// element accesses and the by-name ones alike (m.key reads an element of
// a map). The result may be nil.
func (a *accessTree) elements() *accessTree {
	if a == nil || len(a.attrs) == 0 {
		if a == nil {
			return nil
		}
		return a.elem
	}
	merged := &accessTree{}
	for _, c := range a.attrs {
		merged.merge(c)
	}
	merged.merge(a.elem)
	return merged
}

func (a *accessTree) merge(b *accessTree) {
	if b == nil {
		return
	}
	for name, c := range b.attrs {
		a.attr(name).merge(c)
	}
	if b.elem != nil {
		a.element().merge(b.elem)
	}
}

func (a *accessTree) readsInside() bool { return a != nil && (len(a.attrs) > 0 || a.elem != nil) }

// inferType infers one exact type for all of vals, read as acc says. An
// object value becomes an object type when the module reads attributes
// of it by name, or when its attributes have different types; a map type
// when the module reads it only as a collection, or when all its
// attributes have one type. A tuple becomes a list when its elements have
// one type. Anything unknown (a null, an empty collection of no known
// element type, an attribute the module reads and the values lack) makes
// the inference fail: the rules then propose no type rather than guess.
func inferType(vals []cty.Value, acc *accessTree) (cty.Type, bool) {
	if len(vals) == 0 {
		return cty.NilType, false
	}
	var out cty.Type
	for _, v := range vals {
		t, ok := inferValueType(v, acc)
		if !ok {
			return cty.NilType, false
		}
		if out == cty.NilType {
			out = t
			continue
		}
		if !out.Equals(t) {
			return cty.NilType, false
		}
	}
	return out, true
}

func inferValueType(v cty.Value, acc *accessTree) (cty.Type, bool) {
	if v.IsNull() || !v.IsWhollyKnown() || v.IsMarked() {
		return cty.NilType, false
	}
	ty := v.Type()
	switch {
	case ty.IsPrimitiveType():
		return ty, !acc.readsInside()
	case ty.IsObjectType():
		return inferObjectValue(v, acc)
	case ty.IsTupleType():
		elems := v.AsValueSlice()
		if len(elems) == 0 {
			return cty.NilType, false
		}
		var ea *accessTree
		if acc != nil {
			if len(acc.attrs) > 0 {
				return cty.NilType, false
			}
			ea = acc.elem
		}
		types := make([]cty.Type, len(elems))
		same := true
		for i, e := range elems {
			t, ok := inferValueType(e, ea)
			if !ok {
				return cty.NilType, false
			}
			types[i] = t
			same = same && t.Equals(types[0])
		}
		if same {
			return cty.List(types[0]), true
		}
		return cty.Tuple(types), true
	case ty.IsListType(), ty.IsSetType(), ty.IsMapType():
		var ea *accessTree
		if ty.IsMapType() {
			ea = acc.elements()
		} else if acc != nil {
			if len(acc.attrs) > 0 {
				return cty.NilType, false
			}
			ea = acc.elem
		}
		var et cty.Type
		if v.LengthInt() == 0 {
			et = ty.ElementType()
			if et.HasDynamicTypes() {
				return cty.NilType, false
			}
		} else {
			var elems []cty.Value
			for it := v.ElementIterator(); it.Next(); {
				_, e := it.Element()
				elems = append(elems, e)
			}
			var ok bool
			if et, ok = inferType(elems, ea); !ok {
				return cty.NilType, false
			}
		}
		switch {
		case ty.IsListType():
			return cty.List(et), true
		case ty.IsSetType():
			return cty.Set(et), true
		}
		return cty.Map(et), true
	}
	return cty.NilType, false
}

func inferObjectValue(v cty.Value, acc *accessTree) (cty.Type, bool) {
	attrs := v.AsValueMap()
	if len(attrs) == 0 {
		return cty.NilType, false // {} tells neither the attributes nor an element type
	}
	names := make([]string, 0, len(attrs))
	for name := range attrs {
		names = append(names, name)
	}
	slices.Sort(names)
	byName := acc != nil && len(acc.attrs) > 0
	asCollection := acc != nil && acc.elem != nil && !byName
	if byName {
		for name := range acc.attrs {
			if _, ok := attrs[name]; !ok {
				return cty.NilType, false
			}
		}
	}
	types := make(map[string]cty.Type, len(attrs))
	same := len(names) > 0
	var first cty.Type
	for _, name := range names {
		var sub *accessTree
		switch {
		case byName:
			sub = acc.attrs[name]
		case asCollection:
			sub = acc.elem
		}
		t, ok := inferValueType(attrs[name], sub)
		if !ok {
			return cty.NilType, false
		}
		types[name] = t
		if first == cty.NilType {
			first = t
		}
		same = same && t.Equals(first)
	}
	if asCollection || (!byName && same) {
		if !same {
			return cty.NilType, false
		}
		return cty.Map(first), true
	}
	for _, name := range names {
		if !hclsyntax.ValidIdentifier(name) {
			return cty.NilType, false
		}
	}
	return cty.Object(types), true
}

// sourceText is the source of rng in the module's files with runs of
// white space made one space, cut to at most limit bytes (with "..." when
// cut; 0 means no limit), or "" when the file is not in the module.
func sourceText(m *config.Module, rng hcl.Range, limit int) string {
	f, ok := m.Files[rng.Filename]
	if !ok || rng.Start.Byte < 0 || rng.End.Byte > len(f.Bytes) || rng.Start.Byte > rng.End.Byte {
		return ""
	}
	text := strings.Join(strings.Fields(string(f.Bytes[rng.Start.Byte:rng.End.Byte])), " ")
	if limit > 0 && len(text) > limit {
		cut := limit - 3
		for cut > 0 && !isRuneStart(text[cut]) {
			cut--
		}
		text = text[:cut] + "..."
	}
	return text
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// position writes where rng starts as FILE:LINE, with the file relative to
// the module directory.
func position(m *config.Module, rng hcl.Range) string {
	name := rng.Filename
	if rel, err := filepath.Rel(m.Dir, name); err == nil && !strings.HasPrefix(rel, "..") {
		name = filepath.ToSlash(rel)
	}
	return fmt.Sprintf("%s:%d", name, rng.Start.Line)
}

// rangeContains reports whether inner lies inside outer.
func rangeContains(outer, inner hcl.Range) bool {
	return outer.Filename == inner.Filename && outer.Start.Byte <= inner.Start.Byte && inner.End.Byte <= outer.End.Byte
}

// compareRange orders ranges by file and start.
func compareRange(a, b hcl.Range) int {
	return cmp.Or(strings.Compare(a.Filename, b.Filename), cmp.Compare(a.Start.Byte, b.Start.Byte))
}

// claimedDiagnostics returns the load diagnostics of the pass with one of
// the kinds.
func claimedDiagnostics(p *Pass, kinds ...config.Kind) []*hcl.Diagnostic {
	var out []*hcl.Diagnostic
	claims := ClaimsKind(kinds...)
	for _, d := range p.LoadDiagnostics {
		if claims(d) {
			out = append(out, d)
		}
	}
	return out
}
