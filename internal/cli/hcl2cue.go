package cli

import (
	"io"

	"github.com/spf13/cobra"
)

// Hcl2cue runs the hcl2cue command line with args (without the program
// name) and returns its exit status.
func Hcl2cue(args []string, stdout, stderr io.Writer) int {
	return execute(newHcl2cueCommand(), args, stdout, stderr)
}

func newHcl2cueCommand() *cobra.Command {
	root := &cobra.Command{
		Use:   "hcl2cue",
		Short: "Convert OpenTofu modules to CUE and check that both plan alike",
		Long: `hcl2cue converts an OpenTofu module written in HCL to CUE, plans a module
in either language against mock providers, and verifies that the HCL module
and its CUE form plan the same changes.`,
		Version: Version(),
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			// A command is required: show what there is and fail.
			cmd.SetOut(cmd.ErrOrStderr())
			_ = cmd.Help()
			return &exitError{code: ExitError}
		},
	}

	var cf convertFlags
	convert := &cobra.Command{
		Use:   "convert [-o OUT] [--allow-partial] [--module-source SOURCE=DIR] DIR | DIR/...",
		Short: "Convert the HCL module in DIR to CUE",
		Long:  convertLong + "\n" + exitStatusHelp,
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			r := &convertRun{convertFlags: cf, ctx: cmd.Context(), stdout: cmd.OutOrStdout(), stderr: cmd.ErrOrStderr()}
			return r.run(args[0])
		},
	}
	cflags := convert.Flags()
	cflags.StringVarP(&cf.out, "out", "o", "", "directory to write the CUE module to (default: print it as a txtar archive; with DIR/..., write nothing)")
	cflags.BoolVar(&cf.allowPartial, "allow-partial", false, "write modules that were converted in part, with placeholders for what was not")
	cflags.BoolVarP(&cf.recursive, "recursive", "r", false, "convert every module directory below DIR, as DIR/... does")
	cflags.IntVarP(&cf.jobs, "jobs", "j", 0, "modules converted at once (default: one per CPU)")
	cflags.BoolVar(&cf.verify, "verify", false, "with DIR/...: verify each module converted in full, as hcl2cue verify --synthesize does, and add the result to the summary")
	cf.modules.register(cflags)

	plan := newPlanCommand()

	verify := newVerifyCommand()

	root.CompletionOptions.HiddenDefaultCmd = true
	root.AddCommand(convert, plan, verify)
	return root
}
