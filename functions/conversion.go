package functions

import (
	"fmt"
	"reflect"
	"strconv"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
)

// makeToFunc makes one of the to... functions, which convert their argument
// to want with the error messages of an explicit conversion. Marks stay
// where they are, nested ones included.
func makeToFunc(want cty.Type) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{
			Name:             "v",
			Type:             cty.DynamicPseudoType,
			AllowNull:        true,
			AllowMarked:      true,
			AllowDynamicType: true,
		}},
		Type: func(args []cty.Value) (cty.Type, error) {
			got := args[0].Type()
			if got.Equals(want) || convert.GetConversionUnsafe(got, want) != nil {
				return want, nil
			}
			switch {
			case got.IsTupleType() && want.IsTupleType():
				return cty.NilType, function.NewArgErrorf(0, "incompatible tuple type for conversion: %s", convert.MismatchMessage(got, want))
			case got.IsObjectType() && want.IsObjectType():
				return cty.NilType, function.NewArgErrorf(0, "incompatible object type for conversion: %s", convert.MismatchMessage(got, want))
			}
			return cty.NilType, function.NewArgErrorf(0, "cannot convert %s to %s", got.FriendlyName(), want.FriendlyNameForConstraint())
		},
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			ret, err := convert.Convert(args[0], retType)
			if err == nil {
				return ret, nil
			}
			// The conversion was possible for the type but not for this
			// value, like "yes" to bool.
			v, _ := args[0].UnmarkDeep()
			got := v.Type()
			what := "string"
			if got == cty.String && !v.IsNull() {
				what = strconv.Quote(v.AsString())
			}
			switch {
			case args[0].HasMarkDeep(SensitiveMark):
				return cty.NilVal, function.NewArgErrorf(0, "cannot convert this sensitive %s to %s", got.FriendlyName(), want.FriendlyNameForConstraint())
			case got == cty.String && want == cty.Bool:
				return cty.NilVal, function.NewArgErrorf(0, `cannot convert %s to bool; only the strings "true" or "false" are allowed`, what)
			case got == cty.String && want == cty.Number:
				return cty.NilVal, function.NewArgErrorf(0, `cannot convert %s to number; given string must be a decimal representation of a number`, what)
			}
			return cty.NilVal, function.NewArgErrorf(0, "cannot convert %s to %s", got.FriendlyName(), want.FriendlyNameForConstraint())
		},
	})
}

// typeType is the capsule type of the values type() returns: a cty.Type,
// which prints as OpenTofu's type syntax.
var typeType = cty.CapsuleWithOps("type", reflect.TypeFor[cty.Type](), &cty.CapsuleOps{
	GoString: func(v any) string { return fmt.Sprintf("cty.CapsuleVal(type, %#v)", *v.(*cty.Type)) },
	TypeGoString: func(reflect.Type) string {
		return "type"
	},
})

// typeFunc returns the type of its argument. OpenTofu offers it only in
// `tofu console`; here it is in the table like the rest.
var typeFunc = function.New(&function.Spec{
	Params: []function.Parameter{{
		Name:             "value",
		Type:             cty.DynamicPseudoType,
		AllowDynamicType: true,
		AllowUnknown:     true,
		AllowNull:        true,
	}},
	Type: function.StaticReturnType(typeType),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		ty := args[0].Type()
		return cty.CapsuleVal(typeType, &ty), nil
	},
})

// sensitiveFunc marks its argument sensitive.
var sensitiveFunc = function.New(&function.Spec{
	Params: []function.Parameter{markParam},
	Type:   sameType,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		return args[0].Mark(SensitiveMark), nil
	},
})

// nonsensitiveFunc removes the top-level sensitive mark.
var nonsensitiveFunc = function.New(&function.Spec{
	Params: []function.Parameter{markParam},
	Type:   sameType,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		v, marks := args[0].Unmark()
		delete(marks, SensitiveMark)
		return v.WithMarks(marks), nil
	},
})

// isSensitiveFunc tells whether its argument is marked sensitive (at the top
// level: an element's mark does not count).
var isSensitiveFunc = function.New(&function.Spec{
	Params: []function.Parameter{markParam},
	Type:   function.StaticReturnType(cty.Bool),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		return cty.BoolVal(args[0].HasMark(SensitiveMark)), nil
	},
})

// EphemeralMark is the cty mark of an ephemeral value, which
// ephemeralasnull makes null. Nothing in this project makes ephemeral
// values yet: ephemeral resources and variables are planned as ordinary
// ones, so ephemeralasnull gives its argument back.
const EphemeralMark = "ephemeral"

// ephemeralAsNullFunc returns its argument with every ephemeral value in
// it, nested or not, made a null of its type.
var ephemeralAsNullFunc = function.New(&function.Spec{
	Params: []function.Parameter{markParam},
	Type:   sameType,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		return cty.Transform(args[0], func(_ cty.Path, v cty.Value) (cty.Value, error) {
			if v.HasMark(EphemeralMark) {
				_, marks := v.Unmark()
				delete(marks, EphemeralMark)
				return cty.NullVal(v.Type()).WithMarks(marks), nil
			}
			return v, nil
		})
	},
})

// markParam takes any value as it is: unknown, null, marked.
var markParam = function.Parameter{
	Name:             "value",
	Type:             cty.DynamicPseudoType,
	AllowUnknown:     true,
	AllowNull:        true,
	AllowMarked:      true,
	AllowDynamicType: true,
}

func sameType(args []cty.Value) (cty.Type, error) { return args[0].Type(), nil }

// redact quotes a value for an error message, or hides it when it is
// sensitive.
func redact(s string, marks ...cty.ValueMarks) string {
	for _, m := range marks {
		if m.Has(SensitiveMark) {
			return "(sensitive value)"
		}
	}
	return strconv.Quote(s)
}
