package cli

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"

	"github.com/tofucue/tofucue/config"
	hclengine "github.com/tofucue/tofucue/engine/hcl"
	"github.com/tofucue/tofucue/engine/inputs"
	"github.com/tofucue/tofucue/engine/mock"
	"github.com/tofucue/tofucue/engine/verify"
)

const verifyLong = `verify plans the HCL module in DIR and its CUE form (the converted module in
CUE_DIR, or a fresh conversion) with the same inputs and the same mock
providers, and compares the plans: resource instance addresses, planned
values (an unknown equals only an unknown), applied values and outputs.

Each --var-file is one case, and --cases DIR adds one case per .tfvars file
in DIR; the case of the defaults alone comes first when there are no cases,
with --synthesize, or when every variable has a default. --var values and
TF_VAR_ variables apply to every case.

Exit status: 0 when the plans are equal in every case, 1 when they differ
(each difference is printed with a diff that names the instance and the
attributes), 2 on error (a module that does not load, convert or plan).`

type verifyFlags struct {
	vars       inputs.Sources
	varFiles   []string
	casesDir   string
	mocks      []string
	schemas    []string
	synthesize bool
	modules    moduleFlags
	// maxInstances bounds each plan's instances (hclengine.MaxInstances).
	maxInstances int
	// maxValues bounds the elements function calls produce (hclengine.MaxValues).
	maxValues int
}

func newVerifyCommand() *cobra.Command {
	var f verifyFlags
	cmd := &cobra.Command{
		Use:   "verify [--var-file F] [--cases DIR] [--mocks F] [--schema F] [--synthesize] [--module-source SOURCE=DIR] DIR [CUE_DIR]",
		Short: "Check that the HCL module in DIR and its CUE form plan the same changes",
		Long:  verifyLong + "\n" + exitStatusHelp,
		Args:  cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			cueDir := ""
			if len(args) == 2 {
				cueDir = args[1]
			}
			return f.run(cmd.Context(), args[0], cueDir, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	fl := cmd.Flags()
	fl.Var(f.vars.VarFlag(), "var", "set an input variable in every case, as name=value (repeatable)")
	fl.StringArrayVar(&f.varFiles, "var-file", nil, "a .tfvars file: one case (repeatable)")
	fl.StringVar(&f.casesDir, "cases", "", "a directory of .tfvars files, one case each")
	fl.StringArrayVar(&f.mocks, "mocks", nil, "mock values in OpenTofu's test syntax (repeatable)")
	fl.StringArrayVar(&f.schemas, "schema", nil, "provider schemas from tofu providers schema -json (repeatable)")
	fl.BoolVar(&f.synthesize, "synthesize", false, "make up values for variables that have none, identically on both sides")
	fl.IntVar(&f.maxInstances, "max-instances", hclengine.MaxInstances, "the most resource and module instances a plan may make")
	fl.IntVar(&f.maxValues, "max-values", hclengine.MaxValues, "the most collection elements the function calls of a plan may produce")
	f.modules.register(fl)
	return cmd
}

func (f *verifyFlags) run(ctx context.Context, dir, cueDir string, stdout, stderr io.Writer) error {
	if fi, err := os.Stat(dir); err != nil {
		return &exitError{code: ExitError, err: err}
	} else if !fi.IsDir() || !config.IsModuleDir(dir) {
		return &exitError{code: ExitError, err: fmt.Errorf("%s: not a module directory", dir)}
	}
	sources, err := f.modules.sources()
	if err != nil {
		return &exitError{code: ExitError, err: err}
	}
	if f.maxValues < 1 {
		return &exitError{code: ExitError, err: fmt.Errorf("--max-values %d: the limit must be at least 1", f.maxValues)}
	}
	if f.maxInstances < 1 {
		return &exitError{code: ExitError, err: fmt.Errorf("--max-instances %d: the limit must be at least 1", f.maxInstances)}
	}
	opts := verify.Options{Context: ctx, Inputs: f.vars, Sources: sources, MaxInstances: f.maxInstances, MaxValues: f.maxValues}
	opts.Inputs.Environ = os.Environ()
	opts.Inputs.AutoFiles = true
	opts.Inputs.Synthesize = f.synthesize
	for _, vf := range f.varFiles {
		opts.Cases = append(opts.Cases, verify.Case{Name: vf, VarFiles: []string{vf}})
	}
	if f.casesDir != "" {
		cases, err := verify.CasesIn(f.casesDir)
		if err != nil {
			return &exitError{code: ExitError, err: err}
		}
		opts.Cases = append(opts.Cases, cases...)
	}
	var diags hcl.Diagnostics
	opts.Schemas, diags = mock.LoadSchemas(f.schemas...)
	if len(f.mocks) > 0 {
		var d hcl.Diagnostics
		opts.Mocks, d = mock.LoadMocks(f.mocks...)
		diags = append(diags, d...)
	}
	if diags.HasErrors() {
		writeDiagnostics(stderr, diags)
		return &exitError{code: ExitError}
	}

	results, diags := verify.Run(dir, cueDir, opts)
	writeDiagnostics(stderr, diags)
	if diags.HasErrors() {
		return &exitError{code: ExitError, err: fmt.Errorf("%s: the module does not load", dir)}
	}
	failed, differ := 0, 0
	for _, r := range results {
		writeDiagnosticsWith(stderr, r.Diagnostics, r.Sources)
		switch {
		case r.Diagnostics.HasErrors():
			failed++
			fmt.Fprintf(stdout, "case %s: error: could not plan both sides\n", r.Case.Name)
		case len(r.Differences) > 0:
			differ++
			fmt.Fprintf(stdout, "case %s: %s\n", r.Case.Name, plural(len(r.Differences), "difference"))
			if err := verify.Write(stdout, r.Differences); err != nil {
				return &exitError{code: ExitError, err: err}
			}
		default:
			fmt.Fprintf(stdout, "case %s: equal\n", r.Case.Name)
		}
		for _, addr := range r.NotCompared {
			fmt.Fprintf(stdout, "case %s: %s not compared: its module is not available\n", r.Case.Name, addr)
		}
	}
	switch {
	case failed > 0:
		return &exitError{code: ExitError, err: fmt.Errorf("%s of %d could not be verified", plural(failed, "case"), len(results))}
	case differ > 0:
		return &exitError{code: ExitFindings, err: fmt.Errorf("the plans differ in %s of %d", plural(differ, "case"), len(results))}
	}
	return nil
}
