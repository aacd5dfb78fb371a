package mock

import (
	"encoding/hex"

	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/config"
)

// BuiltinProvider is the address of OpenTofu's built-in provider, whose
// one resource type is terraform_data.
const BuiltinProvider = "terraform.io/builtin/terraform"

// terraformData is the schema of the built-in terraform_data resource, as
// OpenTofu's own provider gives it: input and triggers_replace are kept as
// written, output and id are computed.
func terraformData() *Block {
	return &Block{
		Attributes: map[string]*Attribute{
			"input":            {Type: cty.DynamicPseudoType, Optional: true},
			"output":           {Type: cty.DynamicPseudoType, Computed: true},
			"triggers_replace": {Type: cty.DynamicPseudoType, Optional: true},
			"id":               {Type: cty.String, Computed: true},
		},
		BlockTypes: map[string]*NestedBlock{},
	}
}

// isTerraformData reports whether r is an instance of the built-in
// terraform_data resource (planned by OpenTofu itself, never by a
// provider, so a schema file cannot describe it otherwise).
func isTerraformData(r *Request) bool {
	return r.Mode == config.ManagedMode && r.Type == "terraform_data"
}

// planTerraformData plans the creation of a terraform_data instance as
// OpenTofu does: output is null where input is null, and otherwise not
// known until apply, with input's type; id is not known.
func planTerraformData(v cty.Value) cty.Value {
	if v.IsNull() || !v.IsKnown() || !v.Type().IsObjectType() {
		return v
	}
	attrs := v.AsValueMap()
	input, marks := attrs["input"].Unmark()
	if input.IsNull() {
		attrs["output"] = cty.NullVal(cty.DynamicPseudoType).WithMarks(marks)
	} else {
		attrs["output"] = cty.UnknownVal(input.Type()).WithMarks(marks)
	}
	attrs["id"] = cty.UnknownVal(cty.String)
	return cty.ObjectVal(attrs)
}

// applyTerraformData completes an applied terraform_data instance as
// OpenTofu does: output is input, and id a UUID, here made from the
// instance's address so that it is the same in every run.
func applyTerraformData(addr string, v cty.Value) cty.Value {
	if v.IsNull() || !v.IsKnown() || !v.Type().IsObjectType() {
		return v
	}
	attrs := v.AsValueMap()
	attrs["output"] = attrs["input"]
	attrs["id"] = cty.StringVal(uuidOf(addr))
	return cty.ObjectVal(attrs)
}

// uuidOf is a version 4 UUID made from the digest of addr.
func uuidOf(addr string) string {
	d := digest(addr, nil)
	b := d[:16]
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b)
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}
