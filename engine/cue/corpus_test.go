package cue

import (
	"cmp"
	"fmt"
	"maps"
	"os"
	"runtime"
	"runtime/metrics"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"cuelang.org/go/cue/cuecontext"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/convert"
	hclengine "github.com/tofucue/tofucue/engine/hcl"
	"github.com/tofucue/tofucue/engine/inputs"
	"github.com/tofucue/tofucue/engine/mock"
	"github.com/tofucue/tofucue/internal/corpus"
)

// TestCorpus plans every corpus module on both sides, with synthesized
// inputs, and compares the plans, as hcl2cue verify --synthesize does. It
// logs how many are equal, different or an error, with the reasons by
// frequency (one example each; TOFUCUE_CORPUS_ALL=1 logs every module):
// an error is a module that does not load, does not convert in full, or
// does not plan on one side. Calls of registry modules that the corpus
// holds read them from it (corpus.Mappings); others plan with unknown
// outputs. TOFUCUE_CORPUS_ONLY=TEXT plans only the modules whose path
// contains TEXT, TOFUCUE_CORPUS_SKIP=TEXT all but those. The CUE planner
// must never panic, and its reference planner (every accelerator off)
// must plan what the accelerated planner plans.
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
	sources := config.NewSources(config.SourceOptions{Mappings: corpus.Mappings(t), AllowRead: corpus.AllowRead(t)})
	var current atomic.Value
	current.Store("")
	defer watchHeap(func() string { return current.Load().(string) })()
	for _, dir := range corpus.ModuleDirs(t) {
		// The heap watch counts objects not yet swept: after a large
		// plan the collector's next goal is high, and the garbage of one
		// directory would count against the next (kms's examples/complete,
		// 0.4 GiB alone, passed 8 GiB after eks's examples/eks-hybrid-nodes).
		runtime.GC()
		current.Store(dir.Rel)
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
		tree, diags := config.LoadTree(dir.Path, sources)
		if diags.HasErrors() {
			note("error", "does not load: "+firstError(diags), dir.Rel)
			continue
		}
		r := convert.Tree(tree, convert.Options{})
		if !r.Complete() {
			note("error", "not converted in full: "+firstError(r.Diagnostics), dir.Rel)
			continue
		}
		hs, _ := mock.LoadSchemas()
		hp, hdiags := hclengine.Plan(tree, hclengine.Options{Inputs: inputs.Sources{Synthesize: true}, Schemas: hs})
		if hdiags.HasErrors() {
			note("error", "the HCL plan fails: "+firstError(hdiags), dir.Rel)
			continue
		}
		if why, ok := cuePlanCosts[dir.Rel]; ok {
			note("error", "the CUE plan is not run: "+why, dir.Rel)
			continue
		}
		v, _ := r.LoadWith(cuecontext.New(), nil)
		if !v.Exists() {
			note("error", "does not load as CUE", dir.Rel)
			continue
		}
		schemas, _ := mock.LoadSchemas()
		schemas.InferTree(tree)
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
		// The reference planner, every accelerator off, plans the
		// same (see TestAccelerators for the golden cases), but where
		// referenceGaps says why it does not.
		ref, refDiags := PlanValue(v, Options{Inputs: in, Provider: mock.New(schemas, nil), ModuleDir: dir.Path, off: allAccels})
		d := differences(ref, cp)
		gap, known := referenceGaps[dir.Rel]
		switch {
		case (refDiags.HasErrors() || len(d) > 0) && !known:
			why := firstErr(refDiags)
			if len(d) > 0 {
				why = d[0]
			}
			t.Errorf("%s: the reference planner (every accelerator off) does not plan what the accelerated planner plans: %s", dir.Rel, why)
		case !refDiags.HasErrors() && len(d) == 0 && known && !gap.unstable:
			t.Errorf("%s: the reference planner plans it now (%s): remove it from referenceGaps", dir.Rel, gap.why)
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

// referenceGap is why the reference planner does not plan a corpus
// module as the accelerated planner does; unstable where it does in some
// builds of the test and not in others.
type referenceGap struct {
	why      string
	unstable bool
}

// referenceGaps are the corpus modules that the reference planner, every
// accelerator off, does not plan as the accelerated planner (and
// engine/hcl) does, with the reason. TestCorpus fails on any other, and
// on one of these that it plans alike, unless the gap is unstable.
var referenceGaps = map[string]referenceGap{
	// The plan pass failed on the called module's policy (Invalid
	// count argument where the instances read it) before the bucket
	// had its shape; whether it did depended on the build (the same
	// tree failed in every run of one test binary and planned in every
	// run of another). Since the plan pass holds such an error to its
	// end (planner.heldDecls), s3-analytics, which failed the same way,
	// plans; this one stays listed as unstable until runs of several
	// builds show it plans in each.
	"terraform-aws-modules__terraform-aws-s3-bucket/examples/s3-inventory": {why: "Invalid count argument in a called module", unstable: true},
	// Found when these began to plan (the called modules' inputs checked
	// once the computed attributes have their types; templates beside a
	// called module converted): the reference planner leaves an
	// instance unapplied (kms, fargate-profile), or applies the vpc
	// module's public route with a null destination. kms: its first run
	// is stale, and the check learns that each stale declaration waits
	// for every one planned after it that added a value, among them one
	// that reads it (a replica key's policy document learns to wait for
	// the key); the key, stale in the next run, can then not learn to
	// wait for the document, and four runs end with the try of a key not
	// shaped yet. Learning only what an analysis of the final program
	// finds each reads was tried and did not converge either.
	"terraform-aws-modules__terraform-aws-kms/examples/complete":         {why: "aws_iam_role.lambda not applied"},
	"terraform-aws-modules__terraform-aws-eks/tests/eks-fargate-profile": {why: "aws_iam_policy.additional not applied"},
	"terraform-aws-modules__terraform-aws-eks/examples/eks-auto-mode":    {why: "module.vpc.aws_route.public_internet_gateway[0].destination_cidr_block null"},
	"terraform-aws-modules__terraform-aws-eks/examples/eks-capabilities": {why: "module.vpc.aws_route.public_internet_gateway[0].destination_cidr_block null"},
	"terraform-aws-modules__terraform-aws-eks/examples/eks-hybrid-nodes": {why: `aws_instance.hybrid_node["one"] not applied`},
}

// cuePlanCosts are the directories whose CUE plans take more than a test
// may (each plans on the HCL side in under 0.2 s): terraform-aws-eks's
// examples and tests with node groups or user data, which convert since
// templatefile reads the templates beside a called module (the tests'
// HCL plans need the mock to infer through module outputs). The time
// goes to CUE's disjunctions (in a CPU profile, four fifths under adt's
// crossProduct, a quarter in overlayContext's clones): the user data module's cluster_service_cidr
// comes through two module calls and a try in each, and each layer reads
// the one before several times (a null test, a try's probe, an unknown
// guard), each in a disjunction. With that argument a constant, stock
// cue evaluates the eks-al2023 call in 1.9 s rather than 20 s. Measured
// on 2 cores, the plan was stopped at 150 s, past 13 GiB (issue 32).
// examples/karpenter, whose managed node group's plan stopped early on an
// index error until a try of a value not known yet was not known either
// (f3c58e5), now reaches the same node group's cost: past corpusHeapLimit
// in under 110 s.
var cuePlanCosts = map[string]string{
	"terraform-aws-modules__terraform-aws-eks/examples/eks-managed-node-group":  "more than 150 s and 13 GiB",
	"terraform-aws-modules__terraform-aws-eks/examples/karpenter":               "more than 8 GiB in 110 s",
	"terraform-aws-modules__terraform-aws-eks/examples/self-managed-node-group": "more than 150 s and 13 GiB",
	"terraform-aws-modules__terraform-aws-eks/tests/eks-managed-node-group":     "more than 150 s and 14 GiB",
	"terraform-aws-modules__terraform-aws-eks/tests/self-managed-node-group":    "more than 150 s and 12 GiB",
	"terraform-aws-modules__terraform-aws-eks/tests/user-data":                  "more than 120 s and 9 GiB",
}

// corpusHeapLimit is the heap TestCorpus's plans may take: past it, the
// test binary stops with the directory's name (a panic), rather than
// the machine running out of memory.
const corpusHeapLimit = 8 << 30

// watchHeap panics, naming what dir returns, when the heap's objects
// pass corpusHeapLimit; the function it returns stops watching.
func watchHeap(dir func() string) (stop func()) {
	done := make(chan struct{})
	go func() {
		sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		tick := time.NewTicker(200 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				metrics.Read(sample)
				if sample[0].Value.Kind() == metrics.KindUint64 && sample[0].Value.Uint64() > corpusHeapLimit {
					panic(fmt.Sprintf("TestCorpus: planning %s took more than %d GiB of heap; if that is expected, add it to cuePlanCosts", dir(), corpusHeapLimit>>30))
				}
			}
		}
	}()
	return func() { close(done) }
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
