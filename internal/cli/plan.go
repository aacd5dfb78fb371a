package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/config"
	cueengine "github.com/tofucue/tofucue/engine/cue"
	hclengine "github.com/tofucue/tofucue/engine/hcl"
	"github.com/tofucue/tofucue/engine/inputs"
	"github.com/tofucue/tofucue/engine/middleware"
	"github.com/tofucue/tofucue/engine/mock"
	"github.com/tofucue/tofucue/engine/plan"
)

const planLong = `plan evaluates the module in DIR as tofu plan and tofu apply would, against
mock providers, and prints the plan: each resource instance to be created
(unknown values shown as "(known after apply)"), the output changes, and
then the values after a simulated apply, in which the mock providers fill in
every computed attribute. Nothing is downloaded and nothing is run.

Variables come from their defaults, TF_VAR_name, terraform.tfvars,
*.auto.tfvars, --var-file and --var, in OpenTofu's order of precedence.
With --synthesize, a variable that has no value gets one made up from its
type and validation rules (printed with the plan); when the plan fails
because of a value made up, or of a null default, other values are tried
for the variables the errors involve, within a bound (with --lang cue, the
HCL module given by --source chooses them, as verify does).

Provider schemas come from --schema files (tofu providers schema -json);
resource types they lack get a schema inferred from the configuration.
--mocks files set computed values with OpenTofu's test syntax (mock_provider,
mock_resource, mock_data, override_resource, override_data).

Middleware that the module declares (middleware blocks, attached in the
terraform and provider blocks) runs only with --middleware or
--middleware-only NAME: each is started once, called over JSON-RPC at its
hooks (pre-plan, post-plan, pre-apply, post-apply, plan-stage-*,
apply-stage-*) and stopped at the end. A fail fails the plan; the metadata
middleware returns is printed with the plan and stored in its JSON under
__middleware_metadata__.

With --lang cue, DIR is a module that hcl2cue convert wrote, and --source
names the HCL module it was converted from (for the variables' types and
the inferred schemas); the plan has the same shape.

Exit status: 0 planned, 1 the module has errors (printed with their source),
2 usage or I/O error.`

// planFlags are the options of hcl2cue plan.
type planFlags struct {
	lang       string
	source     string
	inputs     inputs.Sources
	mocks      []string
	schemas    []string
	synthesize bool
	json       bool
	middleware middleware.Options
	modules    moduleFlags
	// maxInstances bounds the plan's instances (hclengine.MaxInstances).
	maxInstances int
	// maxValues bounds the elements function calls produce (hclengine.MaxValues).
	maxValues int
}

func newPlanCommand() *cobra.Command {
	var f planFlags
	cmd := &cobra.Command{
		Use:   "plan [--lang hcl|cue] [--var k=v] [--var-file F] [--mocks F] [--schema F] [--synthesize] [--json] [--module-source SOURCE=DIR] DIR",
		Short: "Plan the module in DIR against mock providers",
		Long:  planLong + "\n" + exitStatusHelp,
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return f.run(cmd.Context(), args[0], cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.lang, "lang", "hcl", "language of the module: hcl or cue")
	fl.StringVar(&f.source, "source", "", "with --lang cue: the HCL module the CUE module was converted from, whose variable types and inferred schemas are used")
	fl.Var(f.inputs.VarFlag(), "var", "set an input variable, as name=value (repeatable)")
	fl.Var(f.inputs.VarFileFlag(), "var-file", "read input variables from a .tfvars or .tfvars.json file (repeatable)")
	fl.StringArrayVar(&f.mocks, "mocks", nil, "mock values in OpenTofu's test syntax (repeatable)")
	fl.StringArrayVar(&f.schemas, "schema", nil, "provider schemas from tofu providers schema -json (repeatable)")
	fl.BoolVar(&f.synthesize, "synthesize", false, "make up values for variables that have none, from their types and validations, and try others when the plan fails because of them")
	fl.BoolVar(&f.json, "json", false, "print the plan as JSON, in OpenTofu's plan format")
	fl.BoolVar(&f.middleware.Enabled, "middleware", false, "run the middleware that the module declares, at its hook points")
	fl.StringArrayVar(&f.middleware.Only, "middleware-only", nil, "run only this middleware (repeatable; implies --middleware)")
	fl.IntVar(&f.maxInstances, "max-instances", hclengine.MaxInstances, "the most resource and module instances a plan may make")
	fl.IntVar(&f.maxValues, "max-values", hclengine.MaxValues, "the most collection elements the function calls of a plan may produce")
	fl.DurationVar(&f.middleware.Timeout, "middleware-timeout", middleware.DefaultTimeout, "how long a middleware may take to answer one call")
	f.modules.register(fl)
	return cmd
}

func (f *planFlags) run(ctx context.Context, dir string, stdout, stderr io.Writer) error {
	switch f.lang {
	case "hcl":
	case "cue":
		return f.runCUE(ctx, dir, stdout, stderr)
	default:
		return &exitError{code: ExitError, err: fmt.Errorf("--lang %q: must be hcl or cue", f.lang)}
	}
	if fi, err := os.Stat(dir); err != nil {
		return &exitError{code: ExitError, err: err}
	} else if !fi.IsDir() || !config.IsModuleDir(dir) {
		return &exitError{code: ExitError, err: fmt.Errorf("%s: not a module directory", dir)}
	}
	opts, diags := f.options()
	opts.Middleware.Stderr = stderr
	opts.Context = ctx
	if diags.HasErrors() {
		writeDiagnostics(stderr, diags)
		return &exitError{code: ExitError}
	}
	sources, err := f.modules.sources()
	if err != nil {
		return &exitError{code: ExitError, err: err}
	}
	tree, diags := config.LoadTree(dir, sources)
	if diags.HasErrors() {
		writeDiagnostics(stderr, diags)
		return &exitError{code: ExitFindings, err: fmt.Errorf("%s: the module does not load", dir)}
	}
	p, diags := hclengine.Plan(tree, opts)
	writeDiagnostics(stderr, diags)
	if diags.HasErrors() {
		return &exitError{code: ExitFindings, err: fmt.Errorf("%s: planning failed", dir)}
	}
	return writePlan(stdout, p, f.json)
}

// runCUE plans a converted module. The HCL module it came from (--source)
// gives the variables' types and the inferred provider schemas: its inputs
// are collected as for --lang hcl, and those not taken from a default are
// injected at the @input fields.
func (f *planFlags) runCUE(ctx context.Context, dir string, stdout, stderr io.Writer) error {
	if f.source == "" {
		return &exitError{code: ExitError, err: fmt.Errorf("plan --lang cue needs --source HCL_DIR, the module it was converted from: its variable types and resource schemas")}
	}
	opts, diags := f.options()
	if diags.HasErrors() {
		writeDiagnostics(stderr, diags)
		return &exitError{code: ExitError}
	}
	sources, err := f.modules.sources()
	if err != nil {
		return &exitError{code: ExitError, err: err}
	}
	tree, diags := config.LoadTree(f.source, sources)
	if diags.HasErrors() {
		writeDiagnostics(stderr, diags)
		return &exitError{code: ExitFindings, err: fmt.Errorf("%s: the module does not load", f.source)}
	}
	given, diags := inputs.Collect(tree.Root, opts.Inputs)
	writeDiagnostics(stderr, diags)
	if diags.HasErrors() {
		return &exitError{code: ExitFindings, err: fmt.Errorf("%s: the inputs are not valid", f.source)}
	}
	if f.synthesize {
		// The inputs that verify gives the CUE side: those the HCL side
		// chose, when the first synthesized values do not plan.
		hopts := opts
		hopts.Middleware = middleware.Options{}
		hp, _ := hclengine.Plan(tree, hopts)
		for name, v := range hp.Variables {
			given[name] = &inputs.Input{Name: name, Value: v.Value, Source: v.Source, Synthesized: v.Synthesized}
		}
	}
	vals := map[string]cty.Value{}
	for name, in := range given {
		if in.Source != "default" {
			vals[name] = in.Value
		}
	}
	opts.Schemas.InferTree(tree)
	p, diags := cueengine.Plan(dir, cueengine.Options{Context: ctx, Inputs: vals, Provider: mock.New(opts.Schemas, opts.Mocks), ModuleDir: f.source})
	writeDiagnostics(stderr, diags)
	if diags.HasErrors() {
		return &exitError{code: ExitFindings, err: fmt.Errorf("%s: planning failed", dir)}
	}
	for name, in := range given {
		p.Variables[name] = &plan.Variable{Value: in.Value, Source: in.Source, Synthesized: in.Synthesized}
	}
	// The CUE module's configuration is that of the HCL module it was
	// converted from, which the JSON plan describes as written; the plan
	// time is the fixed one that both sides give plantimestamp.
	p.Configuration = hclengine.Configuration(tree, opts.Schemas)
	p.RelevantAttributes = hclengine.RelevantAttributes(tree, p, opts.Schemas)
	p.Timestamp = plan.DefaultNow
	return writePlan(stdout, p, f.json)
}

// options reads the schema and mock files and gathers the inputs.
func (f *planFlags) options() (hclengine.Options, hcl.Diagnostics) {
	schemas, diags := mock.LoadSchemas(f.schemas...)
	var mocks *mock.Mocks
	if len(f.mocks) > 0 {
		var d hcl.Diagnostics
		mocks, d = mock.LoadMocks(f.mocks...)
		diags = append(diags, d...)
	}
	in := f.inputs
	in.Environ = os.Environ()
	in.AutoFiles = true
	in.Synthesize = f.synthesize
	if f.maxInstances < 1 {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid --max-instances", Detail: fmt.Sprintf("--max-instances %d: the limit must be at least 1.", f.maxInstances)})
	}
	return hclengine.Options{
		MaxInstances: f.maxInstances,
		MaxValues:    f.maxValues,
		Inputs:       in,
		Schemas:      schemas,
		Mocks:        mocks,
		Middleware:   f.middleware,
	}, diags
}

func writePlan(w io.Writer, p *plan.Plan, asJSON bool) error {
	if !asJSON {
		if err := p.WriteText(w); err != nil {
			return &exitError{code: ExitError, err: err}
		}
		return nil
	}
	b, err := json.MarshalIndent(p, "", "  ")
	if err == nil {
		_, err = w.Write(append(b, '\n'))
	}
	if err != nil {
		return &exitError{code: ExitError, err: err}
	}
	return nil
}
