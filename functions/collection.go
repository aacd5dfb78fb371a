package functions

import (
	"errors"
	"fmt"
	"math/big"
	"slices"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// lengthFunc counts the elements of a collection or structure, or the
// characters (grapheme clusters) of a string. The length of a tuple or an
// object is known from its type alone, even when the value is not.
var lengthFunc = function.New(&function.Spec{
	Params: []function.Parameter{{
		Name:             "value",
		Type:             cty.DynamicPseudoType,
		AllowDynamicType: true,
		AllowUnknown:     true,
		AllowMarked:      true,
	}},
	Type: func(args []cty.Value) (cty.Type, error) {
		ty := args[0].Type()
		if ty == cty.String || ty == cty.DynamicPseudoType || ty.IsCollectionType() || ty.IsTupleType() || ty.IsObjectType() {
			return cty.Number, nil
		}
		return cty.Number, errors.New("argument must be a string, a collection type, or a structural type")
	},
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		v := args[0]
		ty := v.Type()
		marks := v.Marks()
		switch {
		case ty == cty.DynamicPseudoType:
			return cty.UnknownVal(cty.Number).WithMarks(marks), nil
		case ty.IsTupleType():
			return cty.NumberIntVal(int64(len(ty.TupleElementTypes()))).WithMarks(marks), nil
		case ty.IsObjectType():
			return cty.NumberIntVal(int64(len(ty.AttributeTypes()))).WithMarks(marks), nil
		case ty == cty.String:
			return stdlib.Strlen(v)
		default:
			return v.Length(), nil
		}
	},
})

// allTrueFunc is true when every element of a list of bools is true (a null
// element is false); an empty list is true.
var allTrueFunc = function.New(&function.Spec{
	Params:       []function.Parameter{{Name: "list", Type: cty.List(cty.Bool)}},
	Type:         function.StaticReturnType(cty.Bool),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		for _, v := range args[0].Elements() {
			switch {
			case !v.IsKnown():
				return cty.UnknownVal(cty.Bool), nil
			case v.IsNull() || v.False():
				return cty.False, nil
			}
		}
		return cty.True, nil
	},
})

// anyTrueFunc is true when some element of a list of bools is true; an
// empty list is false. A known true element decides it even when others are
// unknown.
var anyTrueFunc = function.New(&function.Spec{
	Params:       []function.Parameter{{Name: "list", Type: cty.List(cty.Bool)}},
	Type:         function.StaticReturnType(cty.Bool),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		unknown := false
		for _, v := range args[0].Elements() {
			switch {
			case !v.IsKnown():
				unknown = true
			case !v.IsNull() && v.True():
				return cty.True, nil
			}
		}
		if unknown {
			return cty.UnknownVal(cty.Bool), nil
		}
		return cty.False, nil
	},
})

// indexFunc finds the first index of a value in a list or tuple.
var indexFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "list", Type: cty.DynamicPseudoType},
		{Name: "value", Type: cty.DynamicPseudoType},
	},
	Type:         function.StaticReturnType(cty.Number),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		list := args[0]
		if ty := list.Type(); !ty.IsListType() && !ty.IsTupleType() {
			return cty.NilVal, errors.New("argument must be a list or tuple")
		}
		if !list.IsKnown() {
			return cty.UnknownVal(cty.Number), nil
		}
		if list.LengthInt() == 0 {
			return cty.NilVal, errors.New("cannot search an empty list")
		}
		for i, v := range list.Elements() {
			eq, err := stdlib.Equal(v, args[1])
			if err != nil {
				return cty.NilVal, err
			}
			if !eq.IsKnown() {
				return cty.UnknownVal(cty.Number), nil
			}
			if eq.True() {
				return i, nil
			}
		}
		return cty.NilVal, errors.New("item not found")
	},
})

// lookupFunc reads one key of a map or attribute of an object, with an
// optional default for a missing key. The result keeps the marks of the
// collection and of the key.
var lookupFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "inputMap", Type: cty.DynamicPseudoType, AllowMarked: true},
		{Name: "key", Type: cty.String, AllowMarked: true},
	},
	VarParam: &function.Parameter{
		Name:             "default",
		Type:             cty.DynamicPseudoType,
		AllowUnknown:     true,
		AllowDynamicType: true,
		AllowNull:        true,
		AllowMarked:      true,
	},
	Type: func(args []cty.Value) (cty.Type, error) {
		if len(args) > 3 {
			return cty.NilType, fmt.Errorf("lookup() takes two or three arguments, got %d", len(args))
		}
		ty := args[0].Type()
		switch {
		case ty.IsObjectType():
			if !args[1].IsKnown() {
				return cty.DynamicPseudoType, nil
			}
			key, _ := args[1].Unmark()
			name := key.AsString()
			switch {
			case ty.HasAttribute(name):
				return ty.AttributeType(name), nil
			case len(args) == 3:
				return args[2].Type(), nil
			}
			return cty.DynamicPseudoType, function.NewArgErrorf(0, "the given object has no attribute %q", name)
		case ty.IsMapType():
			if len(args) == 3 {
				if _, err := convert.Convert(args[2], ty.ElementType()); err != nil {
					return cty.NilType, function.NewArgErrorf(2, "the default value must have the same type as the map elements")
				}
			}
			return ty.ElementType(), nil
		}
		return cty.NilType, function.NewArgErrorf(0, "lookup() requires a map as the first argument")
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		coll, collMarks := args[0].Unmark()
		keyVal, keyMarks := args[1].Unmark()
		marks := []cty.ValueMarks{collMarks, keyMarks}
		key := keyVal.AsString()
		if !coll.IsKnown() {
			return cty.UnknownVal(retType).WithMarks(marks...), nil
		}
		if coll.Type().IsObjectType() {
			if coll.Type().HasAttribute(key) {
				return coll.GetAttr(key).WithMarks(marks...), nil
			}
		} else if coll.HasIndex(cty.StringVal(key)) == cty.True {
			return coll.Index(cty.StringVal(key)).WithMarks(marks...), nil
		}
		if len(args) == 3 {
			def, err := convert.Convert(args[2], retType)
			if err != nil {
				return cty.NilVal, err
			}
			return def.WithMarks(marks...), nil
		}
		return cty.DynamicVal, fmt.Errorf("lookup failed to find key %s", redact(key, keyMarks))
	},
})

// matchkeysFunc keeps the elements of values whose corresponding element of
// keys is in searchset.
var matchkeysFunc = function.New(&function.Spec{
	Params: []function.Parameter{
		{Name: "values", Type: cty.List(cty.DynamicPseudoType)},
		{Name: "keys", Type: cty.List(cty.DynamicPseudoType)},
		{Name: "searchset", Type: cty.List(cty.DynamicPseudoType)},
	},
	Type: func(args []cty.Value) (cty.Type, error) {
		if ty, _ := convert.UnifyUnsafe([]cty.Type{args[1].Type(), args[2].Type()}); ty == cty.NilType {
			return cty.NilType, errors.New("keys and searchset must be of the same type")
		}
		return args[0].Type(), nil
	},
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		elemTy := retType.ElementType()
		values := args[0]
		if !values.IsKnown() {
			return cty.UnknownVal(retType), nil
		}
		if values.LengthInt() != args[1].LengthInt() {
			return cty.ListValEmpty(elemTy), errors.New("length of keys and values should be equal")
		}
		ty, _ := convert.UnifyUnsafe([]cty.Type{args[1].Type(), args[2].Type()})
		keys, _ := convert.Convert(args[1], ty)
		search, _ := convert.Convert(args[2], ty)
		if search.LengthInt() == 0 {
			return cty.ListValEmpty(elemTy), nil
		}
		if !values.IsWhollyKnown() || !keys.IsWhollyKnown() {
			return cty.UnknownVal(retType), nil
		}
		var out []cty.Value
		for i, key := range keys.Elements() {
			for _, s := range search.Elements() {
				eq, err := stdlib.Equal(key, s)
				if err != nil {
					return cty.NilVal, err
				}
				if !eq.IsKnown() {
					return cty.ListValEmpty(elemTy), nil
				}
				if eq.True() {
					out = append(out, values.Index(i))
					break
				}
			}
		}
		if len(out) == 0 {
			return cty.ListValEmpty(elemTy), nil
		}
		return cty.ListVal(out), nil
	},
})

var errOneElement = function.NewArgErrorf(0, "must be a list, set, or tuple value with either zero or one elements")

// oneFunc returns the only element of a list, set or tuple, or null when it
// is empty; more elements are an error.
var oneFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "list", Type: cty.DynamicPseudoType}},
	Type: func(args []cty.Value) (cty.Type, error) {
		ty := args[0].Type()
		switch {
		case ty.IsListType() || ty.IsSetType():
			return ty.ElementType(), nil
		case ty.IsTupleType():
			switch elems := ty.TupleElementTypes(); len(elems) {
			case 0:
				return cty.DynamicPseudoType, nil
			case 1:
				return elems[0], nil
			}
		}
		return cty.NilType, errOneElement
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		v := args[0]
		if v.Type().IsTupleType() {
			if v.LengthInt() == 0 {
				return cty.NullVal(retType), nil
			}
			return v.Index(cty.NumberIntVal(0)), nil
		}
		n := v.Length()
		if !n.IsKnown() {
			return cty.UnknownVal(retType), nil
		}
		switch v.LengthInt() {
		case 0:
			return cty.NullVal(retType), nil
		case 1:
			for _, e := range v.Elements() {
				return e, nil
			}
		}
		return cty.NilVal, errOneElement
	},
})

var errSumNumbers = function.NewArgErrorf(0, "argument must be list, set, or tuple of number values")

// sumFunc adds the numbers of a list, set or tuple.
var sumFunc = function.New(&function.Spec{
	Params:       []function.Parameter{{Name: "list", Type: cty.DynamicPseudoType}},
	Type:         function.StaticReturnType(cty.Number),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (ret cty.Value, err error) {
		list := args[0]
		if !list.CanIterateElements() {
			return cty.NilVal, function.NewArgErrorf(0, "cannot sum noniterable")
		}
		if list.LengthInt() == 0 {
			return cty.NilVal, function.NewArgErrorf(0, "cannot sum an empty list")
		}
		if ty := list.Type(); !ty.IsListType() && !ty.IsSetType() && !ty.IsTupleType() {
			return cty.NilVal, function.NewArgErrorf(0, "argument must be list, set, or tuple. Received %s", ty.FriendlyName())
		}
		if !list.IsWhollyKnown() {
			return cty.UnknownVal(cty.Number), nil
		}
		// Adding opposite infinities panics inside big.Float.
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(big.ErrNaN); !ok {
					panic(r)
				}
				ret, err = cty.NilVal, errors.New("can't compute sum of opposing infinities")
			}
		}()
		var total cty.Value
		for _, v := range list.AsValueSlice() {
			if v.IsNull() {
				return cty.NilVal, errSumNumbers
			}
			n, err := convert.Convert(v, cty.Number)
			if err != nil {
				return cty.NilVal, errSumNumbers
			}
			if total == cty.NilVal {
				total = n
			} else {
				total = total.Add(n)
			}
		}
		return total, nil
	},
})

// transposeFunc turns a map of lists of strings inside out: each string
// becomes a key whose list holds the keys it appeared under, sorted.
var transposeFunc = function.New(&function.Spec{
	Params:       []function.Parameter{{Name: "values", Type: cty.Map(cty.List(cty.String))}},
	Type:         function.StaticReturnType(cty.Map(cty.List(cty.String))),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		in := args[0]
		if !in.IsWhollyKnown() {
			return cty.UnknownVal(retType), nil
		}
		inverted := map[string][]string{}
		for k, list := range in.Elements() {
			key := k.AsString()
			if list.IsNull() {
				return cty.DynamicVal, function.NewArgErrorf(0, "cannot use null list for [%q]", key)
			}
			for i, s := range list.Elements() {
				if s.IsNull() {
					idx, _ := i.AsBigFloat().Int64()
					return cty.DynamicVal, function.NewArgErrorf(0, "cannot use null string for [%q][%d]", key, idx)
				}
				inverted[s.AsString()] = append(inverted[s.AsString()], key)
			}
		}
		if len(inverted) == 0 {
			return cty.MapValEmpty(cty.List(cty.String)), nil
		}
		out := make(map[string]cty.Value, len(inverted))
		for s, keys := range inverted {
			slices.Sort(keys)
			vals := make([]cty.Value, len(keys))
			for i, k := range keys {
				vals[i] = cty.StringVal(k)
			}
			out[s] = cty.ListVal(vals)
		}
		return cty.MapVal(out), nil
	},
})
