package rules

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/tofucue/tofucue/config"
)

// LossyDefaultConversion is the rule lossy_default_conversion.
var LossyDefaultConversion = &Rule{
	Name: "lossy_default_conversion",
	Doc: `Reports a default value that loses information when OpenTofu converts it
to the type constraint, so that the module never sees what the default
says: an object attribute that the object type does not declare, at any
depth (conversion discards it; a map converted to an object loses its
other keys the same way); an element of a set default that equals an
earlier one once converted (the set keeps one, so ["a", "a"] or
[1, "1"] in a set(string) lose an element); and a number written where
a string is expected whose digits change (1.10 becomes "1.1", 007
becomes "7"). The defaults of optional(T, default) are checked the same
way. Other conversions keep the value: a number or bool becomes a string
and back, list(any) picks one element type that every element converts
to, and numbers never lose precision (cty numbers are arbitrary-precision
decimals), so none of those is reported.

Bad:

    variable "python" {
      type    = object({ version = string })
      default = { version = 3.10, arch = "x86_64" }
    }

Good:

    variable "python" {
      type    = object({ version = string, arch = string })
      default = { version = "3.10", arch = "x86_64" }
    }`,
	Severity: Warning,
	Enabled:  true,
	Claims:   ClaimsKind(config.KindLossyDefault),
	Check: func(p *Pass) {
		var own []hcl.Range
		report := func(f Finding) {
			own = append(own, f.Range)
			p.Report(f)
		}
		for _, v := range config.InOrder(p.Module.Variables) {
			checkLossyDefault(p.Module, v, report)
			if v.TypeExpr != nil {
				for _, c := range config.TypeExprParts(v.TypeExpr, nil) {
					checkLossyOptionalDefault(p.Module, c, report)
				}
			}
		}
		for _, d := range claimedDiagnostics(p, config.KindLossyDefault) {
			covered := false
			for _, r := range own {
				if d.Subject != nil && rangeContains(*d.Subject, r) {
					covered = true
					break
				}
			}
			if !covered {
				p.ReportDiagnostic(d, nil)
			}
		}
	},
}

func checkLossyDefault(m *config.Module, v *config.Variable, report func(Finding)) {
	if v.DefaultExpr == nil || v.TypeExpr == nil || v.Type == cty.NilType {
		return
	}
	val, diags := v.DefaultExpr.Value(nil)
	if diags.HasErrors() || val.IsNull() || !val.IsWhollyKnown() {
		return
	}
	if v.TypeDefaults != nil {
		val = v.TypeDefaults.Apply(val)
	}
	converted, err := convert.Convert(val, v.Type)
	if err != nil {
		return // variable_default_type's business
	}
	w := &lossyWalker{m: m, root: "default", report: report}
	w.walk(val, v.DefaultExpr, converted.Type(), nil)
}

func checkLossyOptionalDefault(m *config.Module, c config.OptionalCall, report func(Finding)) {
	if len(c.Call.Arguments) != 2 || c.Attr == "" {
		return
	}
	ty, defaults, diags := typeexpr.TypeConstraintWithDefaults(c.Call.Arguments[0])
	if diags.HasErrors() {
		return
	}
	expr := c.Call.Arguments[1]
	val, diags := expr.Value(nil)
	if diags.HasErrors() || val.IsNull() || !val.IsWhollyKnown() {
		return
	}
	if defaults != nil {
		val = defaults.Apply(val)
	}
	converted, err := convert.Convert(val, ty)
	if err != nil {
		return // optional_default_type's business
	}
	w := &lossyWalker{m: m, root: "default", in: fmt.Sprintf(" (in the default of optional attribute %q)", c.Attr), report: report}
	w.walk(val, expr, converted.Type(), nil)
}

// lossyWalker walks a value (with optional() defaults applied) together
// with the expression that wrote it and the type it converts to, and
// reports what the conversion loses.
type lossyWalker struct {
	m      *config.Module
	root   string
	in     string
	report func(Finding)
}

func (w *lossyWalker) walk(val cty.Value, expr hcl.Expression, ty cty.Type, path cty.Path) {
	if expr == nil || val.IsNull() || !val.IsKnown() || val.IsMarked() {
		return
	}
	vt := val.Type()
	items := config.ItemsOf(config.UnwrapParens(expr))
	switch {
	case ty.IsObjectType() && (vt.IsObjectType() || vt.IsMapType()):
		for _, name := range sortedKeys(val) {
			sub := appendPath(path, cty.GetAttrStep{Name: name})
			av, _ := attrOf(val, name)
			if ty.HasAttribute(name) {
				w.walk(av, items.Step(cty.GetAttrStep{Name: name}), ty.AttributeType(name), sub)
				continue
			}
			rng := expr.Range()
			if pair, ok := items.Keys[name]; ok {
				rng = pair.Key.Range()
			}
			w.report(Finding{
				Message: fmt.Sprintf("%s is discarded: the object type has no attribute %q%s", valuePath(w.root, sub), name, w.in),
				Detail: fmt.Sprintf("Converting the default to the type constraint keeps only the attributes that the object type declares, so this definition has no effect. Remove it, or declare %s in the type.",
					name),
				Range: rng,
			})
		}
	case (ty.IsListType() || ty.IsSetType()) && (vt.IsTupleType() || vt.IsListType() || vt.IsSetType()):
		ety := ty.ElementType()
		seen := map[string]int{}
		for i, ev := range val.AsValueSlice() {
			step := cty.IndexStep{Key: cty.NumberIntVal(int64(i))}
			sub := appendPath(path, step)
			eexpr := items.Step(step)
			w.walk(ev, eexpr, ety, sub)
			if !ty.IsSetType() || !vt.IsTupleType() || eexpr == nil {
				continue
			}
			key, ok := setElementKey(ev, ety)
			if !ok {
				continue
			}
			if first, dup := seen[key]; dup {
				how := "compared after conversion"
				switch {
				case ety == cty.String:
					how += ` (1 and "1" are the same string)`
				case ety.IsObjectType():
					how += ", with the defaults of optional() attributes filled in"
				}
				w.report(Finding{
					Message: fmt.Sprintf("%s is dropped: it equals %s in the set%s", valuePath(w.root, sub),
						valuePath(w.root, appendPath(path, cty.IndexStep{Key: cty.NumberIntVal(int64(first))})), w.in),
					Detail: fmt.Sprintf("A set holds each value once: converting the default to %s keeps one of the equal elements, %s. Remove the duplicate.",
						typeString(ty), how),
					Range: eexpr.Range(),
				})
				continue
			}
			seen[key] = i
		}
	case ty.IsMapType() && (vt.IsObjectType() || vt.IsMapType()):
		for _, k := range sortedKeys(val) {
			step := cty.IndexStep{Key: cty.StringVal(k)}
			ev, _ := attrOf(val, k)
			w.walk(ev, items.Step(step), ty.ElementType(), appendPath(path, step))
		}
	case ty.IsTupleType() && (vt.IsTupleType() || vt.IsListType()):
		etys := ty.TupleElementTypes()
		for i, ev := range val.AsValueSlice() {
			if i >= len(etys) {
				break
			}
			step := cty.IndexStep{Key: cty.NumberIntVal(int64(i))}
			w.walk(ev, items.Step(step), etys[i], appendPath(path, step))
		}
	case ty == cty.String && vt == cty.Number:
		text := sourceText(w.m, expr.Range(), 0)
		if _, ok := new(big.Float).SetString(text); !ok {
			return
		}
		s, err := convert.Convert(val, cty.String)
		if err != nil || s.AsString() == text {
			return
		}
		where := valuePath(w.root, path)
		w.report(Finding{
			Message: fmt.Sprintf("%s: the number %s becomes the string %q%s", where, text, s.AsString(), w.in),
			Detail: fmt.Sprintf("The type wants a string here, and OpenTofu writes a number as a string in its shortest form, so the digits as written (trailing or leading zeros, an exponent) are lost. Quote the value to keep them: %q.",
				strings.TrimPrefix(text, "+")),
			Range: expr.Range(),
		})
	}
}

// setElementKey is a canonical text of an element converted to a set's
// element type, so that equal elements have equal keys.
func setElementKey(ev cty.Value, ety cty.Type) (string, bool) {
	cv, err := convert.Convert(ev, ety)
	if err != nil || !cv.IsWhollyKnown() {
		return "", false
	}
	b, err := ctyjson.Marshal(cv, cv.Type())
	if err != nil {
		return "", false
	}
	return cv.Type().GoString() + string(b), true
}
