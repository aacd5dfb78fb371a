package cue

import (
	"path/filepath"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/convert"
	hclengine "github.com/tofucue/tofucue/engine/hcl"
	"github.com/tofucue/tofucue/engine/inputs"
	"github.com/tofucue/tofucue/engine/mock"
)

// Plan loads a directory that convert wrote, as hcl2cue convert -o
// writes it, and plans it as PlanValue does.
func TestPlanDir(t *testing.T) {
	tree, diags := hclengine.Load("../../examples/vpc")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	hp, diags := hclengine.Plan(tree, hclengine.Options{Inputs: inputs.Sources{AutoFiles: true}})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	r := convert.Module(tree.Root, convert.Options{})
	dir := filepath.Join(t.TempDir(), "cue")
	if err := r.Write(dir); err != nil {
		t.Fatal(err)
	}
	schemas, _ := mock.LoadSchemas()
	schemas.InferTree(tree)
	in := map[string]cty.Value{}
	for name, v := range hp.Variables {
		in[name] = v.Value
	}
	cp, diags := Plan(dir, Options{Inputs: in, Provider: mock.New(schemas, nil), ModuleDir: "../../examples/vpc"})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if d := differences(hp, cp); len(d) > 0 {
		t.Errorf("the plans differ: %v", d)
	}
	if len(cp.Instances) != 3 {
		t.Errorf("%d instances, want 3", len(cp.Instances))
	}

	if _, diags := Plan(t.TempDir(), Options{}); !diags.HasErrors() {
		t.Error("an empty directory planned without error")
	}
}
