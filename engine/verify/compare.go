package verify

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/engine/plan"
	"github.com/tofucue/tofucue/internal/udiff"
)

// Kind is what differs between the two plans.
type Kind string

// The kinds of difference, in the order a report lists them.
const (
	// MissingInstance is an instance the HCL module plans and the CUE
	// module does not.
	MissingInstance Kind = "missing instance"
	// ExtraInstance is an instance only the CUE module plans.
	ExtraInstance Kind = "extra instance"
	// UnknownVsKnown is a value that one side knows at plan time and the
	// other does not.
	UnknownVsKnown Kind = "unknown vs known"
	// ChangedValue is a planned or applied value that differs.
	ChangedValue Kind = "changed value"
	// MissingOutput and ExtraOutput are root outputs only one side has.
	MissingOutput Kind = "missing output"
	ExtraOutput   Kind = "extra output"
	// ChangedOutput is an output whose planned or applied value differs.
	ChangedOutput Kind = "changed output"
	// ChangedAction is an instance planned with another action (a data
	// source read while planning on one side, during apply on the other).
	ChangedAction Kind = "changed action"
)

// Difference is one way in which the CUE plan differs from the HCL plan.
type Difference struct {
	Kind Kind
	// Subject is the instance address, or output.NAME.
	Subject string
	// Stage is "planned" or "applied" for value differences, and
	// "provisioners" for the provisioner blocks evaluated after apply.
	Stage string
	// Paths are the attribute paths that differ (`tags.Name`,
	// `ingress[1].from_port`), "" for the whole value.
	Paths []string
	// Diff is a unified diff of the two values, HCL's as "hcl", CUE's as
	// "cue"; empty for missing and extra objects.
	Diff string
}

// Compare compares two plans of one module: instance addresses, actions,
// planned values (an unknown equals only an unknown), applied values, the
// provisioner blocks evaluated after apply, and root outputs. Sensitive marks are not compared; both sides mark from the
// same schemas and variables. The differences come in address order.
func Compare(h, c *plan.Plan) []Difference {
	var out []Difference
	hin, cin := byAddr(h), byAddr(c)
	for _, addr := range sortedUnion(hin, cin) {
		hi, ci := hin[addr], cin[addr]
		switch {
		case ci == nil:
			out = append(out, Difference{Kind: MissingInstance, Subject: addr})
		case hi == nil:
			out = append(out, Difference{Kind: ExtraInstance, Subject: addr})
		default:
			if hi.Action != ci.Action {
				out = append(out, Difference{Kind: ChangedAction, Subject: addr, Diff: udiff.Unified("hcl", "cue", string(hi.Action)+"\n", string(ci.Action)+"\n")})
			}
			out = appendValueDiff(out, ChangedValue, addr, "planned", hi.Planned, ci.Planned)
			out = appendValueDiff(out, ChangedValue, addr, "applied", hi.Applied, ci.Applied)
			if hi.Provisioners != cty.NilVal || ci.Provisioners != cty.NilVal {
				out = appendValueDiff(out, ChangedValue, addr, "provisioners", orEmpty(hi.Provisioners), orEmpty(ci.Provisioners))
			}
		}
	}
	for _, name := range sortedUnion(h.Outputs, c.Outputs) {
		ho, co := h.Outputs[name], c.Outputs[name]
		subject := "output." + name
		switch {
		case co == nil:
			out = append(out, Difference{Kind: MissingOutput, Subject: subject})
		case ho == nil:
			out = append(out, Difference{Kind: ExtraOutput, Subject: subject})
		default:
			out = appendValueDiff(out, ChangedOutput, subject, "planned", ho.Planned, co.Planned)
			out = appendValueDiff(out, ChangedOutput, subject, "applied", ho.Applied, co.Applied)
		}
	}
	return out
}

// orEmpty is v, or an empty tuple for no provisioners.
func orEmpty(v cty.Value) cty.Value {
	if v == cty.NilVal {
		return cty.EmptyTupleVal
	}
	return v
}

func byAddr(p *plan.Plan) map[string]*plan.Instance {
	m := map[string]*plan.Instance{}
	for _, in := range p.Instances {
		m[in.Addr()] = in
	}
	return m
}

func sortedUnion[V any](a, b map[string]V) []string {
	keys := map[string]bool{}
	for k := range a {
		keys[k] = true
	}
	for k := range b {
		keys[k] = true
	}
	return slices.Sorted(maps.Keys(keys))
}

// appendValueDiff compares two values of one subject and stage and adds a
// Difference when they differ: UnknownVsKnown when every differing path is
// known on one side only, kind otherwise.
func appendValueDiff(out []Difference, kind Kind, subject, stage string, a, b cty.Value) []Difference {
	a, b = unmarked(a), unmarked(b)
	var paths []string
	onlyUnknowns := true
	walk(a, b, "", func(path string, unknownVsKnown bool) {
		paths = append(paths, path)
		onlyUnknowns = onlyUnknowns && unknownVsKnown
	})
	if len(paths) == 0 {
		return out
	}
	if onlyUnknowns {
		kind = UnknownVsKnown
	}
	return append(out, Difference{
		Kind:    kind,
		Subject: subject,
		Stage:   stage,
		Paths:   paths,
		Diff:    udiff.Unified("hcl", "cue", plan.FormatValue(a)+"\n", plan.FormatValue(b)+"\n"),
	})
}

func unmarked(v cty.Value) cty.Value {
	if v == cty.NilVal {
		return cty.NullVal(cty.DynamicPseudoType)
	}
	v, _ = v.UnmarkDeep()
	return v
}

// walk calls report for every path where a and b differ, as deep as both
// are collections of the same kind.
func walk(a, b cty.Value, path string, report func(path string, unknownVsKnown bool)) {
	switch {
	case !a.IsKnown() && !b.IsKnown():
		return
	case a.IsKnown() != b.IsKnown():
		report(path, true)
		return
	case a.IsNull() || b.IsNull():
		if a.IsNull() != b.IsNull() {
			report(path, false)
		}
		return
	}
	at, bt := a.Type(), b.Type()
	switch {
	case isMapLike(at) && isMapLike(bt):
		am, bm := a.AsValueMap(), b.AsValueMap()
		for _, k := range sortedUnion(am, bm) {
			av, aok := am[k]
			bv, bok := bm[k]
			p := join(path, k)
			switch {
			case !aok || !bok:
				// An absent attribute equals a null one: the schema
				// decides which attributes appear.
				if aok && !av.IsNull() || bok && !bv.IsNull() {
					report(p, false)
				}
			default:
				walk(av, bv, p, report)
			}
		}
	case isListLike(at) && isListLike(bt):
		al, bl := elems(a), elems(b)
		if len(al) != len(bl) {
			report(path, false)
			return
		}
		for i := range al {
			walk(al[i], bl[i], fmt.Sprintf("%s[%d]", path, i), report)
		}
	default:
		if !primitiveEqual(a, b) {
			report(path, false)
		}
	}
}

func isMapLike(t cty.Type) bool  { return t.IsObjectType() || t.IsMapType() }
func isListLike(t cty.Type) bool { return t.IsListType() || t.IsTupleType() || t.IsSetType() }

func elems(v cty.Value) []cty.Value {
	if v.LengthInt() == 0 {
		return nil
	}
	return v.AsValueSlice()
}

// primitiveEqual compares primitives by value: numbers numerically,
// whatever their representation.
func primitiveEqual(a, b cty.Value) bool {
	if a.Type() != b.Type() || !a.Type().IsPrimitiveType() {
		return a.RawEquals(b)
	}
	return a.Equals(b).True()
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	if strings.ContainsAny(name, ".[]\" ") {
		return fmt.Sprintf("%s[%q]", path, name)
	}
	return path + "." + name
}
