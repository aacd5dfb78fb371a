package cli

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"

	"github.com/tofucue/tofucue/config"
)

// Tofulint runs the tofulint command line with args (without the program
// name) and returns its exit status: 0 when no module has an error, 1 when
// one has, 2 on a usage or I/O error.
func Tofulint(args []string, stdout, stderr io.Writer) int {
	return execute(newTofulintCommand(), args, stdout, stderr)
}

func newTofulintCommand() *cobra.Command {
	var (
		format    string
		recursive bool
	)
	cmd := &cobra.Command{
		Use:   "tofulint [flags] [PATH ...]",
		Short: "Check OpenTofu modules for mistakes",
		Long: `tofulint loads OpenTofu modules and reports their mistakes.

A PATH is a module directory (the .tf, .tf.json, .tofu and .tofu.json files
directly in it) or one configuration file of a module. DIR/... means every
module directory at or below DIR, skipping hidden directories such as
.terraform. No PATH means the current directory.

Exit status: 0 when there is no error, 1 when a module has errors,
2 on a usage or I/O error.`,
		Version: Version(),
		Args:    cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if !slices.Contains(formats, format) {
				return fmt.Errorf("invalid --format %q: want one of %s", format, strings.Join(formats, ", "))
			}
			targets, err := expandPaths(args, recursive)
			if err != nil {
				return &exitError{code: ExitError, err: err}
			}
			return lint(cmd.OutOrStdout(), targets, format)
		},
	}
	cmd.Flags().StringVar(&format, "format", formatText, "output format: "+strings.Join(formats, "|"))
	cmd.Flags().BoolVarP(&recursive, "recursive", "r", false, "lint every module directory below each directory PATH, as PATH/... does")
	return cmd
}

// lint loads every target and prints the diagnostics in format.
func lint(w io.Writer, targets []target, format string) error {
	var all hcl.Diagnostics
	files := map[string]*hcl.File{}
	for _, t := range targets {
		mod, diags := config.Load(t.dir)
		if t.file != "" {
			diags = onlyFile(diags, t.file)
		}
		sortDiagnostics(diags)
		all = append(all, diags...)
		if mod != nil {
			for name, f := range mod.Files {
				files[name] = f
			}
		}
	}

	var err error
	switch format {
	case formatJSON:
		err = writeJSON(w, all)
	default:
		err = writeText(w, files, all)
	}
	if err != nil {
		return &exitError{code: ExitError, err: err}
	}
	if all.HasErrors() {
		return &exitError{code: ExitFindings}
	}
	return nil
}

// onlyFile keeps the diagnostics about file, and those that are about no
// file in particular.
func onlyFile(diags hcl.Diagnostics, file string) hcl.Diagnostics {
	var kept hcl.Diagnostics
	for _, d := range diags {
		if d.Subject == nil || filepath.Clean(d.Subject.Filename) == file {
			kept = append(kept, d)
		}
	}
	return kept
}
