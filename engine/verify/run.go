package verify

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"cuelang.org/go/cue/cuecontext"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/convert"
	cueengine "github.com/tofucue/tofucue/engine/cue"
	hclengine "github.com/tofucue/tofucue/engine/hcl"
	"github.com/tofucue/tofucue/engine/inputs"
	"github.com/tofucue/tofucue/engine/mock"
)

// Options are what a verification is made with besides the two modules.
type Options struct {
	// Context ends the run early (an interrupt) when it is done: no case
	// starts after that, and both sides' plans stop; nil never ends it.
	Context context.Context
	// Inputs are the input sources every case shares: the environment,
	// the module's auto-loaded tfvars files, --var, --synthesize.
	Inputs inputs.Sources
	// Cases are the cases to check, each its own set of inputs. The case
	// of the shared inputs alone ("defaults") comes first when there are
	// no cases, with Inputs.Synthesize, or when every root variable has a
	// default.
	Cases []Case
	// Schemas and Mocks are the user's provider schemas and mocks; nil
	// for none. Both sides plan against one provider built from them,
	// with schemas inferred from the HCL module tree.
	Schemas *mock.Schemas
	Mocks   *mock.Mocks
	// Sources find the modules of calls that are not local; nil finds
	// those tofu init installed.
	Sources *config.Sources
	// MaxInstances bounds the instances of each plan of the HCL side
	// (hcl.Options.MaxInstances; zero: hcl.MaxInstances), which plans
	// first: a module beyond it is not planned on the CUE side either.
	MaxInstances int
	// MaxValues bounds the collection elements the function calls of each
	// plan of the HCL side produce (hcl.Options.MaxValues; zero:
	// hcl.MaxValues).
	MaxValues int
}

// Case is one set of inputs: a name for the report and the tfvars files
// it adds to the shared inputs.
type Case struct {
	Name     string
	VarFiles []string
}

// CaseResult is the outcome of one case.
type CaseResult struct {
	Case        Case
	Differences []Difference
	// Diagnostics are the errors and warnings of either plan, and of the
	// conversion; with errors the case could not be compared.
	Diagnostics hcl.Diagnostics
	// Sources are the files of the CUE module planned, when Run converted
	// it in memory, by the names the diagnostics give them (see
	// ConvertedName); nil when the CUE module was read from a directory.
	Sources map[string][]byte
	// NotCompared are the module calls whose modules are not available
	// (plan.Plan.NotPlanned): neither side plans their resources.
	NotCompared []string
}

// ConvertedName is the name that diagnostics give a file of a module that
// Run converted in memory: "converted:" and its name in the module, as
// hcl2cue convert -o writes it ("converted:main.cue").
func ConvertedName(name string) string { return "converted:" + name }

// CasesIn lists a --cases directory: one case per .tfvars or .tfvars.json
// file, by file name.
func CasesIn(dir string) ([]Case, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []Case
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".tfvars") && !strings.HasSuffix(name, ".tfvars.json") {
			continue
		}
		out = append(out, Case{Name: name, VarFiles: []string{filepath.Join(dir, name)}})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no .tfvars or .tfvars.json files: each is one case", dir)
	}
	return out, nil
}

// Run plans the HCL module in hclDir and its CUE form, for each case, and
// compares the plans. The CUE form is the converted module in cueDir, or,
// when cueDir is "", a fresh conversion of the HCL module. Both sides get
// the same input values (the HCL side collects them; the CUE side has
// those not taken from a default injected at its @input fields, so that
// CUE's own defaults are checked too) and the same mock provider.
func Run(hclDir, cueDir string, opts Options) ([]CaseResult, hcl.Diagnostics) {
	tree, diags := config.LoadTree(hclDir, opts.Sources)
	if diags.HasErrors() {
		return nil, diags
	}
	schemas := opts.Schemas
	if schemas == nil {
		schemas, _ = mock.LoadSchemas()
	}
	schemas.InferTree(tree)
	provider := mock.New(schemas, opts.Mocks)

	cases := opts.Cases
	if len(cases) == 0 || opts.Inputs.Synthesize || !hasRequired(tree) {
		cases = append([]Case{{Name: "defaults"}}, cases...)
	}
	var results []CaseResult
	for _, c := range cases {
		if opts.Context != nil && opts.Context.Err() != nil {
			break // interrupted
		}
		results = append(results, runCase(tree, hclDir, cueDir, c, opts, schemas, provider))
	}
	return results, diags
}

func hasRequired(t *hclengine.Tree) bool {
	for _, v := range t.Root.Variables {
		if v.Required() {
			return true
		}
	}
	return false
}

func runCase(tree *hclengine.Tree, hclDir, cueDir string, c Case, opts Options, schemas *mock.Schemas, provider *mock.Provider) CaseResult {
	res := CaseResult{Case: c}
	in := opts.Inputs
	in.VarFiles = append(slices.Clone(in.VarFiles), c.VarFiles...)
	if in.Args != nil {
		in.Args = slices.Clone(in.Args)
		for _, f := range c.VarFiles {
			in.Args = append(in.Args, inputs.Arg{File: true, Value: f})
		}
	}
	hplan, diags := hclengine.Plan(tree, hclengine.Options{Context: opts.Context, MaxInstances: opts.MaxInstances, MaxValues: opts.MaxValues, Inputs: in, Schemas: schemas, Mocks: opts.Mocks})
	res.Diagnostics = append(res.Diagnostics, diags...)
	if diags.HasErrors() {
		return res
	}
	res.NotCompared = hplan.NotPlanned

	given := map[string]cty.Value{}
	for name, v := range hplan.Variables {
		if v.Source != "default" {
			given[name] = v.Value
		}
	}
	if opts.Context != nil && opts.Context.Err() != nil {
		return res // interrupted
	}
	copts := cueengine.Options{Context: opts.Context, Inputs: given, Provider: provider, ModuleDir: hclDir}
	if cueDir != "" {
		cplan, d := cueengine.Plan(cueDir, copts)
		res.Diagnostics = append(res.Diagnostics, withoutNotAvailable(d)...)
		if !d.HasErrors() {
			res.Differences = Compare(hplan, cplan)
		}
		return res
	}
	conv := convert.Tree(tree, convert.Options{})
	if !conv.Complete() {
		res.Diagnostics = append(res.Diagnostics, conv.Diagnostics...)
		return res
	}
	// Load reports what is not concrete yet (a computed attribute an
	// output uses) as an error; the value is still the program to plan.
	v, err := conv.Load(cuecontext.New())
	if err != nil && !v.Exists() {
		res.Diagnostics = append(res.Diagnostics, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Converted module does not load", Detail: err.Error()})
		return res
	}
	cplan, d := cueengine.PlanValue(v, copts)
	res.Diagnostics = append(res.Diagnostics, withoutNotAvailable(d)...)
	if !d.HasErrors() {
		res.Differences = Compare(hplan, cplan)
	}
	res.Sources = nameConverted(conv, d)
	return res
}

// withoutNotAvailable drops the CUE side's warnings of module calls not
// available: the HCL side's name the same calls and say what to do.
func withoutNotAvailable(diags hcl.Diagnostics) hcl.Diagnostics {
	return slices.DeleteFunc(slices.Clone(diags), func(d *hcl.Diagnostic) bool {
		return d.Severity == hcl.DiagWarning && d.Summary == cueengine.NotAvailable
	})
}

// nameConverted gives the diagnostics of a module converted in memory,
// which the CUE loader names /main.cue, the names of ConvertedName, and
// returns the files by those names, so that a diagnostic shows its line.
func nameConverted(conv *convert.Result, diags hcl.Diagnostics) map[string][]byte {
	files, err := conv.OutputFiles()
	if err != nil {
		return nil
	}
	sources := map[string][]byte{}
	for name, b := range files {
		sources[ConvertedName(name)] = b
	}
	rename := func(r *hcl.Range) {
		if r == nil {
			return
		}
		if name, ok := strings.CutPrefix(r.Filename, "/"); ok && files[name] != nil {
			r.Filename = ConvertedName(name)
		}
	}
	// The other positions of an error are in its detail: " (also at
	// /main.cue:30:4)".
	var pairs []string
	for name := range files {
		pairs = append(pairs, " /"+name+":", " "+ConvertedName(name)+":")
	}
	also := strings.NewReplacer(pairs...)
	for _, d := range diags {
		rename(d.Subject)
		rename(d.Context)
		d.Detail = also.Replace(d.Detail)
	}
	return sources
}
