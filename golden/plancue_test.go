package golden_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/convert"
	cueengine "github.com/tofucue/tofucue/engine/cue"
	hclengine "github.com/tofucue/tofucue/engine/hcl"
	"github.com/tofucue/tofucue/engine/inputs"
	"github.com/tofucue/tofucue/engine/mock"
	"github.com/tofucue/tofucue/engine/plan"
	"github.com/tofucue/tofucue/golden"
)

// TestPlanCUE plans the module of each case in plancue/ twice: the HCL
// module with engine/hcl (variables from terraform.tfvars, the others
// synthesized), and its conversion, written to the directory cue/ beside
// it, with engine/cue given the HCL side's final input values and a mock
// provider with the schemas inferred from the HCL module. want/plan is the
// CUE side's plan as text, want/diagnostics its diagnostics, and
// want/compare "(equal)" when both plans read the same as text, else the
// difference from the HCL plan to the CUE plan. The text leaves the
// variables out: the HCL side marks synthesized ones.
func TestPlanCUE(t *testing.T) {
	golden.Run(t, "plancue", func(t *testing.T, c *golden.Case) map[string]string {
		dir := c.Materialize(t)
		tree, diags := hclengine.Load(dir)
		if diags.HasErrors() {
			t.Fatalf("loading: %s", golden.Diagnostics(dir, diags))
		}
		hp, _ := hclengine.Plan(tree, hclengine.Options{Inputs: inputs.Sources{AutoFiles: true, Synthesize: true}})

		r := convert.Module(tree.Root, convert.Options{})
		cueDir := filepath.Join(dir, "cue")
		if err := r.Write(cueDir); err != nil {
			t.Fatal(err)
		}
		schemas, _ := mock.LoadSchemas()
		schemas.InferTree(tree)
		in := map[string]cty.Value{}
		for name, v := range hp.Variables {
			in[name] = v.Value
		}
		cp, cdiags := cueengine.Plan(cueDir, cueengine.Options{Inputs: in, Provider: mock.New(schemas, nil), ModuleDir: dir})

		cueText, hclText := planText(t, cp), planText(t, hp)
		out := map[string]string{
			"plan":        cueText,
			"diagnostics": golden.Diagnostics(dir, cdiags),
			"compare":     "(equal)",
		}
		if hclText != cueText {
			out["compare"] = golden.Diff(hclText, cueText)
		}
		return out
	})
}

// planText is a plan as text without its variables.
func planText(t *testing.T, p *plan.Plan) string {
	t.Helper()
	q := *p
	q.Variables = nil
	var b strings.Builder
	if err := q.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
