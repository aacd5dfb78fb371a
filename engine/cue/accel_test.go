package cue

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/cuecontext"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/convert"
	hclengine "github.com/tofucue/tofucue/engine/hcl"
	"github.com/tofucue/tofucue/engine/inputs"
	"github.com/tofucue/tofucue/engine/mock"
	"github.com/tofucue/tofucue/engine/plan"
	"github.com/tofucue/tofucue/golden"
	"github.com/tofucue/tofucue/internal/corpus"
)

// accelSettings are what TestAccelerators plans each case with besides
// every accelerator: each switched off alone, then all of them.
var accelSettings = []accel{accelShapes, accelBatch, accelSpeculate, accelReplan, allAccels}

// settingsToCompare are the accelSettings TestAccelerators compares: all
// of them where the corpus-wide tests run (TOFUCUE_CORPUS=1, which .ci/run
// sets), and otherwise the reference planner alone (every accelerator
// off), which keeps go test ./... within its time on 2 cores.
func settingsToCompare() []accel {
	if corpus.Enabled() {
		return accelSettings
	}
	return []accel{allAccels}
}

// TestAccelerators plans the CUE side of every golden plancue and verify
// case (the HCL module converted, with the inputs and mock provider the
// golden test gives it, the verify case's edits made) with every
// accelerator, then with each switched off in turn and with all off (the
// reference planner), and requires the same plan and diagnostics each
// time: an accelerator may skip work, never change a result (each one off
// alone where TOFUCUE_CORPUS=1; see settingsToCompare). It also
// requires that each accelerator did its work in some case, so that a
// switch that no longer switches anything is seen.
func TestAccelerators(t *testing.T) {
	var cases []string
	for _, dir := range []string{"plancue", "verify"} {
		found, err := filepath.Glob(filepath.Join("..", "..", "golden", dir, "*.txtar"))
		if err != nil || len(found) == 0 {
			t.Fatalf("no golden %s cases: %v", dir, err)
		}
		cases = append(cases, found...)
	}
	// exercised counts, over all cases, what each accelerator did with
	// every accelerator on. The cases run in parallel, each with its own
	// CUE context and provider.
	var exercised struct {
		sync.Mutex
		speculated, carried, typed, batched, replanned int
	}
	t.Run("cases", func(t *testing.T) {
		for _, path := range cases {
			c, err := golden.Load(path)
			if err != nil {
				t.Fatal(err)
			}
			name := filepath.Base(filepath.Dir(path)) + "/" + c.Name
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				accelerated(t, c, filepath.Base(filepath.Dir(path)) == "verify", func(all *planner) {
					exercised.Lock()
					defer exercised.Unlock()
					exercised.speculated += all.stats.speculated
					exercised.carried += all.stats.carried
					exercised.typed += len(all.shapes.byPath)
					exercised.batched += len(all.batch.expanded) + len(all.batch.missed)
					exercised.replanned += all.stats.replans
				})
			})
		}
	})
	if t.Failed() {
		return
	}
	for what, n := range map[string]int{
		"speculation applied no instance":      exercised.speculated,
		"speculation carried no read":          exercised.carried,
		"the shape rounds typed no instance":   exercised.typed,
		"batching expanded or skipped nothing": exercised.batched,
		"no run was stale (replanning)":        exercised.replanned,
	} {
		if n == 0 {
			t.Errorf("%s in any case: the test does not exercise it", what)
		}
	}
}

// accelerated plans each program of the golden case c with every
// accelerator (telling count what they did), then with each setting of
// settingsToCompare, and requires the same plan and diagnostics.
func accelerated(t *testing.T, c *golden.Case, verify bool, count func(all *planner)) {
	pcs := accelCases(t, c, verify)
	for i := range pcs {
		pc := &pcs[i]
		t.Run(pc.name, func(t *testing.T) {
			all, allDiags := planValue(pc.v, pc.opts)
			count(all)
			for _, off := range settingsToCompare() {
				opts := pc.opts
				opts.off = off
				p, diags := planValue(pc.v, opts)
				if d := planDifferences(all.result, p.result, allDiags, diags); len(d) > 0 {
					t.Errorf("without %s the plan differs from the one with every accelerator:\n%s", off, strings.Join(d, "\n"))
				}
			}
		})
	}
}

// accelCase is one program to plan, with its options.
type accelCase struct {
	name string
	v    cue.Value
	opts Options
}

// accelCases makes the CUE programs of a golden case as its golden test
// plans them: a plancue case's HCL module with its terraform.tfvars and
// synthesized inputs, every variable given; a verify case once with the
// defaults and once per --var-file, the variables not taken from a
// default given, its --module-source mappings and --allow-read
// directories used, its edits made, from its root directory (see
// golden's TestVerify).
func accelCases(t *testing.T, c *golden.Case, verify bool) []accelCase {
	dir := c.Materialize(t)
	dir = c.RootDir(dir)
	var varFiles []string
	synthesize := !verify
	sources := config.SourceOptions{Mappings: map[string]string{}}
	if s, ok := c.Input("args"); ok {
		for line := range strings.Lines(s) {
			line = strings.TrimSpace(line)
			switch {
			case strings.HasPrefix(line, "--var-file="):
				varFiles = append(varFiles, filepath.Join(dir, strings.TrimPrefix(line, "--var-file=")))
			case strings.HasPrefix(line, "--module-source="):
				src, to, err := config.ParseSourceMapping(strings.TrimPrefix(line, "--module-source="))
				if err != nil {
					t.Fatal(err)
				}
				sources.Mappings[src] = filepath.Join(dir, to)
			case strings.HasPrefix(line, "--allow-read="):
				sources.AllowRead = append(sources.AllowRead, filepath.Join(dir, strings.TrimPrefix(line, "--allow-read=")))
			case line == "--synthesize":
				synthesize = true
			case line != "":
				t.Fatalf("args: %q is not handled here", line)
			}
		}
	}
	tree, diags := config.LoadTree(dir, config.NewSources(sources))
	if diags.HasErrors() {
		t.Fatalf("loading: %s", diags)
	}
	schemas, _ := mock.LoadSchemas()
	schemas.InferTree(tree)
	provider := mock.New(schemas, nil)
	r := convert.Tree(tree, convert.Options{})
	if !verify {
		r = convert.Module(tree.Root, convert.Options{})
	}
	edited := map[string][]byte{}
	if s, ok := c.Input("edits"); ok {
		files, err := r.OutputFiles()
		if err != nil {
			t.Fatal(err)
		}
		for line := range strings.Lines(s) {
			if line = strings.TrimRight(line, "\n"); line == "" {
				continue
			}
			parts := strings.SplitN(line, "|", 3)
			b := edited[parts[0]]
			if b == nil {
				b = files[parts[0]]
			}
			edited[parts[0]] = []byte(strings.Replace(string(b), parts[1], parts[2], 1))
		}
	}
	v, err := r.LoadWith(cuecontext.New(), edited)
	if !v.Exists() {
		t.Fatalf("loading the conversion: %v", err)
	}

	var out []accelCase
	sets := [][]string{nil}
	if verify {
		for _, f := range varFiles {
			sets = append(sets, []string{f})
		}
	}
	for _, files := range sets {
		src := inputs.Sources{AutoFiles: true, Synthesize: synthesize, VarFiles: files}
		hp, diags := hclengine.Plan(tree, hclengine.Options{Inputs: src, Schemas: schemas})
		if verify && diags.HasErrors() {
			// verify plans no CUE side for this case either.
			continue
		}
		in := map[string]cty.Value{}
		for name, variable := range hp.Variables {
			if !verify || variable.Source != "default" || variable.Synthesized {
				in[name] = variable.Value
			}
		}
		name := "defaults"
		if len(files) > 0 {
			name = filepath.Base(files[0])
		}
		out = append(out, accelCase{name: name, v: v, opts: Options{Inputs: in, Provider: provider, ModuleDir: dir}})
	}
	return out
}

// planDifferences lists how two CUE plans of one module, and their
// diagnostics, differ: the comparison of the tests (differences), and
// then exactly, values with their marks, since both come from the same
// program.
func planDifferences(a, b *plan.Plan, ad, bd hcl.Diagnostics) []string {
	out := differences(a, b)
	addrs := func(p *plan.Plan) []string {
		var s []string
		for _, in := range p.Instances {
			s = append(s, in.Addr())
		}
		return s
	}
	if x, y := addrs(a), addrs(b); !slices.Equal(x, y) {
		out = append(out, fmt.Sprintf("instances %v, then %v", x, y))
	} else {
		for i, x := range a.Instances {
			y := b.Instances[i]
			if x.Action != y.Action || !rawEqual(x.Planned, y.Planned) || !rawEqual(x.Applied, y.Applied) {
				out = append(out, fmt.Sprintf("%s: %s %#v %#v, then %s %#v %#v", x.Addr(), x.Action, x.Planned, x.Applied, y.Action, y.Planned, y.Applied))
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(a.Outputs)) {
		x, y := a.Outputs[name], b.Outputs[name]
		if y == nil || !rawEqual(x.Planned, y.Planned) || !rawEqual(x.Applied, y.Applied) {
			out = append(out, fmt.Sprintf("output %s differs", name))
		}
	}
	if !slices.Equal(a.NotPlanned, b.NotPlanned) {
		out = append(out, fmt.Sprintf("not planned %v, then %v", a.NotPlanned, b.NotPlanned))
	}
	if x, y := diagLines(ad), diagLines(bd); x != y {
		out = append(out, "diagnostics:\n"+x+"then:\n"+y)
	}
	return out
}

func rawEqual(a, b cty.Value) bool {
	if a == cty.NilVal || b == cty.NilVal {
		return a == b
	}
	return a.RawEquals(b)
}

func diagLines(diags hcl.Diagnostics) string {
	var b strings.Builder
	for _, d := range diags {
		fmt.Fprintf(&b, "%v %d: %s; %s\n", d.Subject, d.Severity, d.Summary, d.Detail)
	}
	return b.String()
}
