package mock

import (
	"regexp"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/config"
)

// TestTerraformData plans and applies terraform_data as OpenTofu's own
// provider does: output null for a null input and unknown of input's type
// otherwise, then input after apply; id a UUID.
func TestTerraformData(t *testing.T) {
	s := &Schemas{}
	s.put(config.ManagedMode, "terraform_data", &entry{block: terraformData(), provider: BuiltinProvider})
	p := New(s, nil)
	uuid := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	obj := cty.ObjectVal(map[string]cty.Value{"a": cty.NumberIntVal(1)})
	for _, c := range []struct {
		name        string
		input       cty.Value
		planned     cty.Value // the planned output
		applyConfig cty.Value // the input as evaluated at apply
	}{
		{"object", obj, cty.UnknownVal(obj.Type()), obj},
		{"null", cty.NullVal(cty.DynamicPseudoType), cty.NullVal(cty.DynamicPseudoType), cty.NullVal(cty.DynamicPseudoType)},
		{"unknown until apply", cty.UnknownVal(cty.String), cty.UnknownVal(cty.String), cty.StringVal("late")},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := func(input cty.Value) cty.Value {
				return cty.ObjectVal(map[string]cty.Value{
					"input": input, "output": cty.NullVal(cty.DynamicPseudoType),
					"triggers_replace": cty.NullVal(cty.DynamicPseudoType), "id": cty.NullVal(cty.String),
				})
			}
			r := Request{Addr: "terraform_data.x", Mode: config.ManagedMode, Type: "terraform_data", Config: cfg(c.input)}
			planned, diags := p.Plan(r)
			mustNoErrors(t, "plan", diags)
			if got := planned.GetAttr("output"); !got.RawEquals(c.planned) {
				t.Errorf("planned output %#v, want %#v", got, c.planned)
			}
			if id := planned.GetAttr("id"); id.IsKnown() {
				t.Errorf("planned id %#v, want unknown", id)
			}
			r.Config = cfg(c.applyConfig)
			applied, diags := p.Apply(r, planned)
			mustNoErrors(t, "apply", diags)
			if got, want := applied.GetAttr("output"), applied.GetAttr("input"); !got.RawEquals(want) || !want.RawEquals(c.applyConfig) {
				t.Errorf("applied output %#v, input %#v; want both %#v", got, want, c.applyConfig)
			}
			if id := applied.GetAttr("id"); !id.IsKnown() || !uuid.MatchString(id.AsString()) {
				t.Errorf("applied id %#v, want a UUID", id)
			}
		})
	}
}
