package cue

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"cuelang.org/go/cue/cuecontext"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/convert"
	hclengine "github.com/tofucue/tofucue/engine/hcl"
	"github.com/tofucue/tofucue/engine/inputs"
	"github.com/tofucue/tofucue/engine/mock"
	"github.com/tofucue/tofucue/engine/plan"
	"github.com/tofucue/tofucue/internal/testdir"
)

// both is a module planned by both evaluators.
type both struct {
	hcl, cue           *plan.Plan
	hclDiags, cueDiags hcl.Diagnostics
	cueSource          string
	stats              stats
}

// writeFiles writes files into a new directory.
func writeFiles(t testing.TB, files map[string]string) string {
	t.Helper()
	return testdir.Write(t, files)
}

// planBoth plans the HCL module in dir with engine/hcl (variables from
// src), converts it, and plans the conversion with engine/cue given the
// HCL side's final input values and a mock provider with the same
// schemas and mocks.
func planBoth(t testing.TB, dir string, src inputs.Sources, mocks *mock.Mocks) *both {
	t.Helper()
	tree, diags := hclengine.Load(dir)
	if diags.HasErrors() {
		t.Fatalf("loading: %s", diags)
	}
	hs, _ := mock.LoadSchemas()
	hp, hdiags := hclengine.Plan(tree, hclengine.Options{Inputs: src, Schemas: hs, Mocks: mocks})

	schemas, _ := mock.LoadSchemas()
	schemas.InferTree(tree)
	r := convert.Module(tree.Root, convert.Options{})
	if r.Diagnostics.HasErrors() {
		t.Fatalf("converting: %s", r.Diagnostics)
	}
	// An incomplete value (a computed attribute referred to) is the
	// planner's business, not a loading error.
	v, err := r.LoadWith(cuecontext.New(), nil)
	if !v.Exists() {
		t.Fatalf("loading the conversion: %v", err)
	}
	in := map[string]cty.Value{}
	for name, variable := range hp.Variables {
		in[name] = variable.Value
	}
	cp, cdiags := planValue(v, Options{Inputs: in, Provider: mock.New(schemas, mocks), ModuleDir: dir})
	var b strings.Builder
	for _, f := range r.Files {
		fmt.Fprintf(&b, "-- %s --\n%s", f.Name, f.Source)
	}
	return &both{hcl: hp, cue: cp.result, hclDiags: hdiags, cueDiags: cdiags, cueSource: b.String(), stats: cp.stats}
}

// differences lists how two plans differ: instances (address, action,
// provider, planned and applied values) and outputs.
func differences(a, b *plan.Plan) []string {
	var out []string
	ai, bi := map[string]*plan.Instance{}, map[string]*plan.Instance{}
	for _, in := range a.Instances {
		ai[in.Addr()] = in
	}
	for _, in := range b.Instances {
		bi[in.Addr()] = in
	}
	for _, addr := range slices.Sorted(maps.Keys(ai)) {
		x, y := ai[addr], bi[addr]
		if y == nil {
			out = append(out, addr+": missing on the CUE side")
			continue
		}
		if x.Action != y.Action {
			out = append(out, fmt.Sprintf("%s: action %s, CUE %s", addr, x.Action, y.Action))
		}
		if x.ProviderName != y.ProviderName {
			out = append(out, fmt.Sprintf("%s: provider %s, CUE %s", addr, x.ProviderName, y.ProviderName))
		}
		if d := valueDiff(x.Planned, y.Planned, ""); d != "" {
			out = append(out, fmt.Sprintf("%s: planned %s", addr, d))
		}
		if d := valueDiff(x.Applied, y.Applied, ""); d != "" {
			out = append(out, fmt.Sprintf("%s: applied %s", addr, d))
		}
	}
	for _, addr := range slices.Sorted(maps.Keys(bi)) {
		if ai[addr] == nil {
			out = append(out, addr+": extra on the CUE side")
		}
	}
	for _, name := range slices.Sorted(maps.Keys(a.Outputs)) {
		x, y := a.Outputs[name], b.Outputs[name]
		if y == nil {
			out = append(out, "output "+name+": missing on the CUE side")
			continue
		}
		if d := valueDiff(x.Planned, y.Planned, ""); d != "" {
			out = append(out, fmt.Sprintf("output %s: planned %s", name, d))
		}
		if d := valueDiff(x.Applied, y.Applied, ""); d != "" {
			out = append(out, fmt.Sprintf("output %s: applied %s", name, d))
		}
		if x.Sensitive != y.Sensitive {
			out = append(out, fmt.Sprintf("output %s: sensitive %t, CUE %t", name, x.Sensitive, y.Sensitive))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(b.Outputs)) {
		if a.Outputs[name] == nil {
			out = append(out, "output "+name+": extra on the CUE side")
		}
	}
	return out
}

// valueDiff compares two values as the plans mean them: marks aside, an
// unknown equals any unknown, a null any null, objects and maps compare
// by their attributes, lists, sets and tuples element by element (CUE
// has structs and lists, not cty's several collection types). It
// returns where they first differ, or "".
func valueDiff(a, b cty.Value, path string) string {
	if a == cty.NilVal || b == cty.NilVal {
		if a == cty.NilVal && b == cty.NilVal {
			return ""
		}
		return fmt.Sprintf("at %s: %s, CUE %s", path, show(a), show(b))
	}
	a, _ = a.UnmarkDeep()
	b, _ = b.UnmarkDeep()
	at, bt := a.Type(), b.Type()
	switch {
	case !a.IsKnown() || !b.IsKnown():
		if a.IsKnown() != b.IsKnown() {
			return fmt.Sprintf("at %s: %s, CUE %s", path, show(a), show(b))
		}
		return ""
	case a.IsNull() || b.IsNull():
		if a.IsNull() != b.IsNull() {
			return fmt.Sprintf("at %s: %s, CUE %s", path, show(a), show(b))
		}
		return ""
	case (at.IsObjectType() || at.IsMapType()) && (bt.IsObjectType() || bt.IsMapType()):
		am, bm := a.AsValueMap(), b.AsValueMap()
		for _, k := range slices.Sorted(maps.Keys(am)) {
			bv, ok := bm[k]
			if !ok {
				return fmt.Sprintf("at %s.%s: %s, CUE absent", path, k, show(am[k]))
			}
			if d := valueDiff(am[k], bv, path+"."+k); d != "" {
				return d
			}
		}
		for _, k := range slices.Sorted(maps.Keys(bm)) {
			if _, ok := am[k]; !ok {
				return fmt.Sprintf("at %s.%s: absent, CUE %s", path, k, show(bm[k]))
			}
		}
		return ""
	case (at.IsListType() || at.IsSetType() || at.IsTupleType()) && (bt.IsListType() || bt.IsSetType() || bt.IsTupleType()):
		as, bs := a.AsValueSlice(), b.AsValueSlice()
		if len(as) != len(bs) {
			return fmt.Sprintf("at %s: %d elements, CUE %d: %s, CUE %s", path, len(as), len(bs), show(a), show(b))
		}
		for i := range as {
			if d := valueDiff(as[i], bs[i], fmt.Sprintf("%s[%d]", path, i)); d != "" {
				return d
			}
		}
		return ""
	case at.IsPrimitiveType() && at.Equals(bt):
		if a.Equals(b).True() {
			return ""
		}
	}
	return fmt.Sprintf("at %s: %s, CUE %s", path, show(a), show(b))
}

func show(v cty.Value) string {
	if v == cty.NilVal {
		return "(none)"
	}
	return fmt.Sprintf("%#v", v)
}

// requireEqual fails the test when the two sides differ or either has
// errors.
func requireEqual(t *testing.T, b *both) {
	t.Helper()
	if b.hclDiags.HasErrors() {
		t.Fatalf("HCL side: %s", b.hclDiags)
	}
	if b.cueDiags.HasErrors() {
		t.Fatalf("CUE side: %s\n%s", b.cueDiags, b.cueSource)
	}
	if d := differences(b.hcl, b.cue); len(d) > 0 {
		t.Errorf("the plans differ:\n%s\n%s", strings.Join(d, "\n"), b.cueSource)
	}
	if len(b.hcl.Instances) == 0 && len(b.hcl.Outputs) == 0 {
		t.Error("nothing was planned: the test compares nothing")
	}
	for _, in := range b.cue.Instances {
		if in.Planned == cty.NilVal || in.Applied == cty.NilVal {
			t.Errorf("%s: planned %s, applied %s", in.Addr(), show(in.Planned), show(in.Applied))
		}
	}
	if testing.Verbose() {
		var w strings.Builder
		_ = b.cue.WriteText(&w)
		t.Logf("CUE plan:\n%s", w.String())
	}
}

func TestExampleVPC(t *testing.T) {
	b := planBoth(t, "../../examples/vpc", inputs.Sources{AutoFiles: true}, nil)
	requireEqual(t, b)
	t.Logf("%d instances, %d outputs", len(b.cue.Instances), len(b.cue.Outputs))
}
