package inputs

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/tofucue/tofucue/config"
)

// origin says where a raw value came from, for the wording of errors.
type origin struct {
	// rng is where the value was written, or the variable's declaration
	// when the value was not written in a file.
	rng hcl.Range
	// nonFile is set for a value that has no source range: "set using
	// --var=...", "set using the TF_VAR_x environment variable", ...
	nonFile string
}

// Prepare converts a raw value given for v (from any source, or a child
// module call argument whose range is rng) to v's type constraint:
// optional attribute defaults are applied top-down first
// (typeexpr.Defaults.Apply, then convert), null is handled per nullable
// (nullable = false turns null into the default, or an error when there is
// none), and conversion errors are OpenTofu's "Invalid value for input
// variable". cty.NilVal means that no value was given at all: the default
// is used, or "Required variable not set" is reported. Unknown raw values
// stay unknown, of the variable's type. A zero rng (no file name) means the
// value was set from outside of the configuration. On error the result is
// an unknown value of the variable's type.
func Prepare(v *config.Variable, raw cty.Value, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	if v == nil {
		return raw, nil
	}
	o := origin{rng: rng}
	if rng.Filename == "" {
		o = origin{rng: v.DeclRange(), nonFile: "set from outside of the configuration"}
	}
	return prepare(v, raw, o)
}

// constraintType is the type to convert to: v's type constraint, with its
// optional attributes.
func constraintType(v *config.Variable) cty.Type {
	if v.Type == cty.NilType {
		return cty.DynamicPseudoType
	}
	return v.Type
}

// finalType is the type of v's values: the constraint without optional
// attribute markers.
func finalType(v *config.Variable) cty.Type {
	return constraintType(v).WithoutOptionalAttributesDeep()
}

func prepare(v *config.Variable, raw cty.Value, o origin) (val cty.Value, diags hcl.Diagnostics) {
	ty := constraintType(v)
	addr := "var." + v.Name
	decl := v.DeclRange()
	defer func() {
		// Conversion and defaults come from libraries; a panic in them on
		// an odd value must not escape.
		if r := recover(); r != nil {
			val = cty.UnknownVal(finalType(v))
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid value for input variable",
				Detail:   fmt.Sprintf("The given value cannot be converted for %s: %v.", addr, r),
				Subject:  o.rng.Ptr(),
			})
		}
	}()

	var defaultVal cty.Value
	if v.Default != cty.NilVal {
		d, err := convert.Convert(v.Default, ty)
		if err != nil {
			// The loader reports a default that does not conform; this is
			// only a safety net.
			return cty.UnknownVal(finalType(v)), hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Invalid default value for module argument",
				Detail:   fmt.Sprintf("The default value for variable %q is incompatible with its type constraint: %s.", v.Name, err),
				Subject:  decl.Ptr(),
			}}
		}
		defaultVal = d
	}

	given := raw
	if given == cty.NilVal {
		if v.Required() {
			return cty.UnknownVal(finalType(v)), hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Required variable not set",
				Detail:   fmt.Sprintf("The variable %q is required, but is not set.", v.Name),
				Subject:  decl.Ptr(),
			}}
		}
		given = defaultVal
	}

	// Defaults of optional attributes are applied before conversion, and
	// not to a null value as a whole, so that a nullable variable can
	// still be set to null.
	if v.TypeDefaults != nil && !given.IsNull() {
		given = v.TypeDefaults.Apply(given)
	}

	given = sequencesToTuples(given, ty)

	val, err := convert.Convert(given, ty)
	if err != nil {
		var detail string
		subject := o.rng
		switch {
		case o.nonFile != "":
			detail = fmt.Sprintf("Unsuitable value for %s %s: %s.", addr, o.nonFile, err)
			subject = decl
		case v.Sensitive:
			// The value may be a secret: the message does not show it, and
			// points at the declaration.
			detail = fmt.Sprintf("The given value is not suitable for %s, which is sensitive: %s. Invalid value defined at %s.", addr, err, o.rng)
			subject = decl
		default:
			detail = fmt.Sprintf("The given value is not suitable for %s declared at %s: %s.", addr, decl, err)
		}
		return cty.UnknownVal(finalType(v)), hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid value for input variable",
			Detail:   detail,
			Subject:  subject.Ptr(),
		}}
	}

	// Only a non-nullable variable turns null into its default; a nullable
	// one is null when it is set to null, whatever its default.
	if val.IsNull() && !v.Nullable {
		if defaultVal != cty.NilVal {
			return defaultVal, nil
		}
		if o.nonFile != "" {
			return cty.UnknownVal(finalType(v)), hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Required variable not set",
				Detail:   fmt.Sprintf("Unsuitable value for %s %s: required variable may not be set to null.", addr, o.nonFile),
				Subject:  decl.Ptr(),
			}}
		}
		return cty.UnknownVal(finalType(v)), hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Required variable not set",
			Detail:   fmt.Sprintf("The given value is not suitable for %s defined at %s: required variable may not be set to null.", addr, decl),
			Subject:  o.rng.Ptr(),
		}}
	}
	return val, nil
}

// sequencesToTuples turns the lists and sets inside val that stand where ty
// wants a tuple, with as many elements as the tuple has, into tuples, which
// the document on type constraints allows ("a list can only be converted to
// a tuple if it has exactly the required number of elements") and go-cty's
// conversion alone does not. Everything else is left for the conversion.
func sequencesToTuples(val cty.Value, ty cty.Type) cty.Value {
	if !hasTuple(ty) || !val.IsKnown() || val.IsNull() {
		return val
	}
	val, marks := val.Unmark()
	vt := val.Type()
	isSeq := vt.IsListType() || vt.IsSetType() || vt.IsTupleType()
	isMapping := vt.IsMapType() || vt.IsObjectType()
	switch {
	case ty.IsTupleType() && isSeq:
		ets := ty.TupleElementTypes()
		if val.LengthInt() != len(ets) {
			break
		}
		elems := val.AsValueSlice()
		for i := range elems {
			elems[i] = sequencesToTuples(elems[i], ets[i])
		}
		val = cty.TupleVal(elems)
	case (ty.IsListType() || ty.IsSetType()) && isSeq:
		elems := val.AsValueSlice()
		for i := range elems {
			elems[i] = sequencesToTuples(elems[i], ty.ElementType())
		}
		val = cty.TupleVal(elems)
	case ty.IsMapType() && isMapping:
		attrs := val.AsValueMap()
		for k, e := range attrs {
			attrs[k] = sequencesToTuples(e, ty.ElementType())
		}
		val = cty.ObjectVal(attrs)
	case ty.IsObjectType() && isMapping:
		attrs := val.AsValueMap()
		for k, e := range attrs {
			if ty.HasAttribute(k) {
				attrs[k] = sequencesToTuples(e, ty.AttributeType(k))
			}
		}
		val = cty.ObjectVal(attrs)
	}
	return val.WithMarks(marks)
}

// hasTuple reports whether a tuple type appears anywhere in ty.
func hasTuple(ty cty.Type) bool {
	switch {
	case ty.IsTupleType():
		return true
	case ty.IsListType() || ty.IsSetType() || ty.IsMapType():
		return hasTuple(ty.ElementType())
	case ty.IsObjectType():
		for _, at := range ty.AttributeTypes() {
			if hasTuple(at) {
				return true
			}
		}
	}
	return false
}
