package cue

import (
	"cmp"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"cuelang.org/go/cue/cuecontext"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/convert"
	hclengine "github.com/tofucue/tofucue/engine/hcl"
	"github.com/tofucue/tofucue/engine/inputs"
	"github.com/tofucue/tofucue/engine/mock"
	"github.com/tofucue/tofucue/internal/corpus"
)

// TestCorpus plans every corpus module on both sides, with synthesized
// inputs, and compares the plans. It logs how many are equal, different
// or fail on the CUE side, with the reasons by frequency (one example
// each; TOFUCUE_CORPUS_ALL=1 logs every module). Modules that the HCL
// side cannot plan (those calling registry modules among them) or that
// are not converted in full are counted apart. TOFUCUE_CORPUS_ONLY=TEXT
// plans only the modules whose path contains TEXT, TOFUCUE_CORPUS_SKIP=TEXT
// all but those. Modules that call
// others are planned only with one of the two set: the whole corpus takes
// half an hour. The CUE planner must never panic.
func TestCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("planning the corpus is not short")
	}
	counts := map[string]int{}
	reasons := map[string][]string{}
	var start time.Time
	note := func(kind, why, rel string) {
		counts[kind]++
		if why != "" {
			reasons[kind+": "+why] = append(reasons[kind+": "+why], rel)
		}
		if os.Getenv("TOFUCUE_CORPUS_ALL") != "" {
			t.Logf("%s %s (%.1fs): %s", kind, rel, time.Since(start).Seconds(), why)
		}
	}
	for _, dir := range corpus.ModuleDirs(t) {
		if dir.NotModule != "" || corpus.Templates[dir.Rel] != "" {
			continue
		}
		if only := os.Getenv("TOFUCUE_CORPUS_ONLY"); only != "" && !strings.Contains(dir.Rel, only) {
			continue
		}
		if skip := os.Getenv("TOFUCUE_CORPUS_SKIP"); skip != "" && strings.Contains(dir.Rel, skip) {
			continue
		}
		start = time.Now()
		tree, diags := hclengine.Load(dir.Path)
		if diags.HasErrors() {
			note("skipped", "does not load", dir.Rel)
			continue
		}
		if len(tree.Modules) > 1 && os.Getenv("TOFUCUE_CORPUS_ALL") == "" && os.Getenv("TOFUCUE_CORPUS_ONLY") == "" {
			// A module tree takes seconds to minutes on the CUE side
			// (terraform-aws-vpc's examples): planned on request only.
			note("skipped", "calls modules (TOFUCUE_CORPUS_ALL=1 plans them)", dir.Rel)
			continue
		}
		r := convert.Module(tree.Root, convert.Options{})
		if !r.Complete() {
			note("skipped", "not converted in full: "+firstError(r.Diagnostics), dir.Rel)
			continue
		}
		hs, _ := mock.LoadSchemas()
		hp, hdiags := hclengine.Plan(tree, hclengine.Options{Inputs: inputs.Sources{Synthesize: true}, Schemas: hs})
		if hdiags.HasErrors() {
			note("skipped", "the HCL plan fails", dir.Rel)
			continue
		}
		v, _ := r.LoadWith(cuecontext.New(), nil)
		if !v.Exists() {
			note("error", "does not load as CUE", dir.Rel)
			continue
		}
		schemas, _ := mock.LoadSchemas()
		schemas.Infer(slices.Collect(maps.Values(tree.Modules))...)
		// As hcl2cue verify --synthesize: the values the HCL side made
		// up for variables without a default are given, and each side
		// takes its own defaults.
		in := map[string]cty.Value{}
		for name, variable := range hp.Variables {
			if variable.Source != "default" {
				in[name] = variable.Value
			}
		}
		cp, cdiags := PlanValue(v, Options{Inputs: in, Provider: mock.New(schemas, nil), ModuleDir: dir.Path})
		for _, d := range cdiags {
			if d.Summary == "CUE planner failed" {
				t.Errorf("%s: %s", dir.Rel, d.Detail)
			}
		}
		if cdiags.HasErrors() {
			note("error", firstErr(cdiags), dir.Rel)
			continue
		}
		if d := differences(hp, cp); len(d) > 0 {
			note("different", d[0], dir.Rel)
			continue
		}
		note("equal", "", dir.Rel)
	}
	t.Logf("corpus: %v", counts)
	for _, why := range slices.SortedFunc(maps.Keys(reasons), func(a, b string) int {
		return cmp.Or(len(reasons[b])-len(reasons[a]), strings.Compare(a, b))
	}) {
		t.Logf("%4d  %s  (e.g. %s)", len(reasons[why]), why, reasons[why][0])
	}
}

func firstErr(diags hcl.Diagnostics) string {
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			s := d.Summary + ": " + d.Detail
			if d.Subject != nil {
				s = fmt.Sprintf("%s (%s:%d)", s, d.Subject.Filename, d.Subject.Start.Line)
			}
			if len(s) > 300 {
				s = s[:300]
			}
			return s
		}
	}
	return ""
}

// firstError is the summary of the first error of diags.
func firstError(diags hcl.Diagnostics) string {
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			return d.Summary
		}
	}
	return ""
}
