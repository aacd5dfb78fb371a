package cli

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/report"
	"github.com/tofucue/tofucue/rules"
)

// Tofulint runs the tofulint command line with args (without the program
// name) and returns its exit status: 0 when no module has an error, 1 when
// one has, 2 on a usage or I/O error.
func Tofulint(args []string, stdout, stderr io.Writer) int {
	return execute(newTofulintCommand(), args, stdout, stderr)
}

func newTofulintCommand() *cobra.Command {
	var (
		format, minSeverity                  string
		recursive, listRules, reportUnused   bool
		enableRules, disableRules, onlyRules []string
	)
	cmd := &cobra.Command{
		Use:   "tofulint [flags] [PATH ...]",
		Short: "Check OpenTofu modules for mistakes",
		Long: `tofulint loads OpenTofu modules, runs its rules over them and reports
their mistakes.

A PATH is a module directory (the .tf, .tf.json, .tofu and .tofu.json files
directly in it) or one configuration file of a module. DIR/... means every
module directory at or below DIR, skipping hidden directories such as
.terraform. No PATH means the current directory.

A finding is silenced by "# tofulint-ignore: RULE" on the line above it or
at the end of its line, and "# tofulint-ignore-file: RULE" at the top of a
file silences RULE in the whole file.

Exit status: 0 when no module has a loading error and no finding is at or
above --minimum-failure-severity, 1 otherwise, 2 on a usage or I/O error.`,
		Version: Version(),
		Args:    cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if listRules {
				return writeRuleList(cmd.OutOrStdout())
			}
			if !slices.Contains(report.Formats, format) {
				return fmt.Errorf("invalid --format %q: want one of %s", format, strings.Join(report.Formats, ", "))
			}
			failAt, err := rules.ParseSeverity(minSeverity)
			if err != nil {
				return fmt.Errorf("invalid --minimum-failure-severity: %w", err)
			}
			cfg := rules.Config{Rules: map[string]rules.RuleConfig{}, Only: onlyRules, ReportUnusedIgnores: reportUnused}
			for _, list := range []struct {
				names []string
				on    bool
			}{{enableRules, true}, {disableRules, false}} {
				for _, name := range list.names {
					on := list.on
					cfg.Rules[name] = rules.RuleConfig{Enabled: &on}
				}
			}
			selected, err := cfg.Select()
			if err != nil {
				return err
			}
			targets, err := expandPaths(args, recursive)
			if err != nil {
				return &exitError{code: ExitError, err: err}
			}
			return lint(cmd.OutOrStdout(), targets, format, selected, cfg, failAt)
		},
	}
	flags := cmd.Flags()
	flags.StringVar(&format, "format", report.Text, "output format: "+strings.Join(report.Formats, "|"))
	flags.BoolVarP(&recursive, "recursive", "r", false, "lint every module directory below each directory PATH, as PATH/... does")
	flags.BoolVar(&listRules, "list-rules", false, "list every rule with its severity, default state and whether it fixes, and exit")
	flags.StringSliceVar(&enableRules, "enable-rule", nil, "run these rules as well (repeatable, or comma-separated)")
	flags.StringSliceVar(&disableRules, "disable-rule", nil, "do not run these rules")
	flags.StringSliceVar(&onlyRules, "only", nil, "run only these rules")
	flags.StringVar(&minSeverity, "minimum-failure-severity", rules.Notice.String(), "the least severe finding that makes the exit status 1: error|warning|notice")
	flags.BoolVar(&reportUnused, "report-unused-ignores", false, "report tofulint-ignore comments that silence nothing")
	return cmd
}

// lint loads every target, runs the selected rules and prints the loading
// diagnostics and the findings in format.
func lint(w io.Writer, targets []target, format string, selected []rules.Selected, cfg rules.Config, failAt rules.Severity) error {
	var loadDiags hcl.Diagnostics
	var findings []rules.Finding
	files := map[string]*hcl.File{}
	for _, t := range targets {
		mod, diags := config.Load(t.dir)
		// The diagnostics that rules claim (feature opt-in mistakes, default
		// values that do not conform, ...) are findings, configured like any
		// other.
		own := rules.LoadErrors(diags)
		var found []rules.Finding
		if mod != nil && !own.HasErrors() {
			found = rules.Run(mod, diags, selected, cfg)
		}
		if t.file != "" {
			own = onlyFile(own, t.file)
			found = slices.DeleteFunc(found, func(f rules.Finding) bool { return filepath.Clean(f.Range.Filename) != t.file })
		}
		report.SortDiagnostics(own)
		loadDiags = append(loadDiags, own...)
		findings = append(findings, found...)
		if mod != nil {
			for name, f := range mod.Files {
				files[name] = f
			}
		}
	}

	ruleList := make([]*rules.Rule, len(selected))
	for i, s := range selected {
		ruleList[i] = s.Rule
	}
	rep := &report.Report{Findings: findings, Diagnostics: loadDiags, Files: files, Rules: ruleList}
	if err := report.Write(w, format, rep); err != nil {
		return &exitError{code: ExitError, err: err}
	}
	failed := loadDiags.HasErrors() || slices.ContainsFunc(findings, func(f rules.Finding) bool { return f.Severity <= failAt })
	if failed {
		return &exitError{code: ExitFindings}
	}
	return nil
}

// writeRuleList prints every rule: name, default severity, default state,
// whether it fixes.
func writeRuleList(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "RULE\tSEVERITY\tDEFAULT\tFIXES")
	for _, r := range rules.All() {
		state, fixes := "disabled", "no"
		if r.Enabled {
			state = "enabled"
		}
		if r.Fixes {
			fixes = "yes"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.Name, r.Severity, state, fixes)
	}
	return tw.Flush()
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
