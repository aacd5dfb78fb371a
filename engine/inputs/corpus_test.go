package inputs

import (
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/internal/corpus"
)

// TestCorpus collects the inputs of every corpus module with synthesis:
// every variable gets a known value of its type, and the synthesized values
// pass their validations wherever the search can meet them (the ones it
// cannot are logged, with the rule).
func TestCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus run")
	}
	var modules, synthesized, validated, unmet int
	var slowest time.Duration
	var slowestDir string
	for _, d := range corpus.ModuleDirs(t) {
		if d.NotModule != "" {
			continue
		}
		m, _ := config.Load(d.Path)
		if m == nil {
			continue
		}
		modules++
		start := time.Now()
		in, diags := Collect(m, Sources{AutoFiles: true, Synthesize: true})
		if took := time.Since(start); took > slowest {
			slowest, slowestDir = took, d.Rel
		}
		for _, diag := range diags {
			if diag.Severity == hcl.DiagError {
				t.Logf("%s: %s", d.Rel, diag.Error())
			}
		}
		vars := map[string]cty.Value{}
		for name, x := range in {
			vars[name] = x.Value
		}
		for _, name := range sortedNames(in) {
			x := in[name]
			if !x.Synthesized {
				continue
			}
			synthesized++
			v := m.Variables[name]
			if len(v.Validations) > 0 {
				validated++
			}
			if !x.Value.IsWhollyKnown() {
				t.Errorf("%s: var.%s synthesized as %#v", d.Rel, name, x.Value)
			}
			if ft := finalType(v); !ft.HasDynamicTypes() && !x.Value.Type().Equals(ft) {
				t.Errorf("%s: var.%s has type %#v, want %#v", d.Rel, name, x.Value.Type(), ft)
			}
			ctx := functionContext(m.Dir)
			ctx.Variables["var"] = cty.ObjectVal(vars)
			if vd := Validate(v, ctx); vd.HasErrors() {
				unmet++
				t.Logf("%s: var.%s = %#v does not pass: %s", d.Rel, name, x.Value, vd.Error())
			}
		}
	}
	t.Logf("%d modules, %d variables synthesized, %d of them with validations, %d fail one; slowest module %s (%s)", modules, synthesized, validated, unmet, slowestDir, slowest)
	if slowest > 20*time.Second {
		t.Errorf("collecting the inputs of %s took %s", slowestDir, slowest)
	}
}
