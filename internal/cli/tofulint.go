package cli

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/internal/source"
	"github.com/tofucue/tofucue/lint"
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
		format, minSeverity, configFile      string
		recursive, listRules, reportUnused   bool
		fix, diff, force, initConfig         bool
		langServer                           bool
		chdir                                string
		verbose, noColor, forceColor         bool
		filters                              []string
		jobs                                 int
		enableRules, disableRules, onlyRules []string
		modules                              moduleFlags
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

Each module is linted with the nearest .tofulint.hcl in its directory or
above (or the --config file): it enables and disables rules, sets their
severities and options, and excludes files. Flags override it.

A finding is silenced by "# tofulint-ignore: RULE" on the line above it or
at the end of its line, and "# tofulint-ignore-file: RULE" at the top of a
file silences RULE in the whole file. TFLint's rule names and its
tflint-ignore comments work too.

--fix applies the fixes of the findings in place and then reports what is
left; --diff prints the fixes as a unified diff and writes nothing.

--langserver serves the Language Server Protocol on stdin and stdout:
editors get the findings of each module they open as diagnostics, and
fixes and ignore comments as quick fixes (see the README for Neovim,
VS Code and Helix).

Exit status: 0 when no module has a loading error and no finding is at or
above --minimum-failure-severity (with --force: no loading error), 1 otherwise, 2 on a usage, configuration
or I/O error. With --diff: 1 when a file would change, 0 when none would.
With --langserver: 0 when the editor asked for shutdown before exit, 1
otherwise.
` + exitStatusHelp,
		Version: Version(),
		Args:    cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if listRules {
				return writeRuleList(cmd.OutOrStdout())
			}
			if initConfig {
				return writeInitConfig(cmd.ErrOrStderr(), cmp.Or(chdir, "."))
			}
			if !slices.Contains(report.Formats, format) {
				return fmt.Errorf("invalid --format %q: want one of %s", format, strings.Join(report.Formats, ", "))
			}
			failAt, err := rules.ParseSeverity(minSeverity)
			if err != nil {
				return fmt.Errorf("invalid --minimum-failure-severity: %w", err)
			}
			if fix && diff {
				return errors.New("--fix and --diff cannot be used together: --diff shows what --fix would write")
			}
			over := rules.Config{Rules: map[string]rules.RuleConfig{}, Only: onlyRules, ReportUnusedIgnores: reportUnused}
			for _, list := range []struct {
				names []string
				on    bool
			}{{enableRules, true}, {disableRules, false}} {
				for _, name := range list.names {
					on := list.on
					canonical, err := rules.Resolve(name)
					if err != nil {
						return err
					}
					over.Rules[canonical] = rules.RuleConfig{Enabled: &on}
				}
			}
			if _, err := over.Select(); err != nil {
				return err
			}
			named := args
			if chdir != "" {
				named = inDir(chdir, args)
			}
			if over.Sources, err = modules.sources(named...); err != nil {
				return &exitError{code: ExitError, err: err}
			}
			if chdir != "" {
				args, configFile = inDir(chdir, args), inDir(chdir, []string{configFile})[0]
			}
			if configFile != "" {
				if _, err := os.Stat(configFile); err != nil {
					return &exitError{code: ExitError, err: fmt.Errorf("--config: %w", err)}
				}
			}
			if langServer {
				if len(args) > 0 || fix || diff {
					return errors.New("--langserver takes no PATH, --fix or --diff: the editor names the files")
				}
				return serveLanguage(cmd, lint.Options{ConfigFile: configFile, Overrides: over})
			}
			targets, err := lint.Expand(args, recursive)
			if err == nil {
				targets, err = lint.Filter(targets, filters, chdir)
			}
			if err != nil {
				return &exitError{code: ExitError, err: err}
			}
			if noColor && forceColor {
				return errors.New("--color and --no-color cannot be used together")
			}
			r := &lintRun{
				stdout: cmd.OutOrStdout(), stderr: cmd.ErrOrStderr(),
				targets: targets, format: format, failAt: failAt, force: force,
				text: report.TextOptions{Verbose: verbose, Color: forceColor || !noColor && colorTerminal(cmd.OutOrStdout())},
				opts: lint.Options{Context: cmd.Context(), ConfigFile: configFile, Overrides: over, Jobs: jobs, KeepSyntax: format == report.Text},
			}
			switch {
			case diff:
				return r.diff()
			case fix:
				return r.fix()
			}
			return r.lint()
		},
	}
	flags := cmd.Flags()
	flags.StringVar(&format, "format", report.Text, "output format: "+strings.Join(report.Formats, "|"))
	flags.StringVarP(&configFile, "config", "c", "", "configuration file for every module (default: the nearest "+rules.ConfigFileName+" from each module upward)")
	flags.BoolVarP(&recursive, "recursive", "r", false, "lint every module directory below each directory PATH, as PATH/... does")
	flags.BoolVar(&fix, "fix", false, "apply the fixes of the findings to the files in place")
	flags.BoolVar(&diff, "diff", false, "print the fixes as a unified diff and write nothing")
	flags.BoolVar(&langServer, "langserver", false, "serve the Language Server Protocol on stdin and stdout, for editors")
	flags.BoolVar(&listRules, "list-rules", false, "list every rule with its severity, default state and whether it fixes, and exit")
	flags.StringSliceVar(&enableRules, "enable-rule", nil, "run these rules as well (repeatable, or comma-separated)")
	flags.StringSliceVar(&disableRules, "disable-rule", nil, "do not run these rules")
	flags.StringSliceVar(&onlyRules, "only", nil, "run only these rules")
	flags.StringVar(&minSeverity, "minimum-failure-severity", rules.Notice.String(), "the least severe finding that makes the exit status 1: error|warning|notice")
	flags.BoolVar(&reportUnused, "report-unused-ignores", false, "report tofulint-ignore comments that silence nothing")
	flags.BoolVar(&initConfig, "init", false, "write the "+rules.ConfigFileName+" equivalent to the "+rules.TFLintConfigFileName+" of the current (or --chdir) directory, and exit")
	flags.BoolVarP(&verbose, "verbose", "v", false, "text: give every finding's explanation, not only the first of each rule's")
	flags.BoolVar(&noColor, "no-color", false, "text: no color, even on a terminal (so does a NO_COLOR environment variable)")
	flags.BoolVar(&forceColor, "color", false, "text: color, even when the output is not a terminal")
	flags.BoolVar(&force, "force", false, "exit 0 even when there are findings (loading errors still exit 1), as TFLint's --force")
	flags.StringVar(&chdir, "chdir", "", "take PATHs, --config and --filter relative to this directory, as TFLint's --chdir")
	flags.StringArrayVar(&filters, "filter", nil, "show only the findings in the files that match this glob (repeatable), as TFLint's --filter")
	modules.registerMappings(flags)
	modules.registerCalls(flags)
	flags.IntVarP(&jobs, "jobs", "j", 0, "modules linted at once (default: one per CPU)")
	return cmd
}

// lintRun is one tofulint invocation after its flags are read.
type lintRun struct {
	stdout, stderr io.Writer
	targets        []lint.Target
	format         string
	failAt         rules.Severity
	force          bool // findings do not fail
	text           report.TextOptions
	opts           lint.Options
}

// run lints the targets; configuration errors end the command with
// status 2.
func (r *lintRun) run() (*report.Report, error) {
	rep, diags := lint.Run(r.targets, r.opts)
	if ctx := r.opts.Context; ctx != nil && ctx.Err() != nil {
		return nil, ctx.Err() // interrupted: execute gives the status
	}
	if diags.HasErrors() {
		report.SortDiagnostics(diags)
		_ = report.WriteDiagnostics(r.stderr, sourcesOf(diags), diags)
		return nil, &exitError{code: ExitError, err: errors.New("invalid configuration")}
	}
	if len(diags) > 0 { // warnings about the configuration, such as TFLint's
		_ = report.WriteDiagnostics(r.stderr, sourcesOf(diags), diags)
	}
	rep.Version = Version()
	root, err := config.RepositoryRoot(".")
	if err != nil {
		return nil, &exitError{code: ExitError, err: err}
	}
	rep.Root = root
	rep.Text = r.text
	return rep, nil
}

// lint prints the loading diagnostics and the findings in the chosen
// format.
func (r *lintRun) lint() error {
	rep, err := r.run()
	if err != nil {
		return err
	}
	return r.write(rep)
}

func (r *lintRun) write(rep *report.Report) error {
	if err := report.Write(r.stdout, r.format, rep); err != nil {
		return &exitError{code: ExitError, err: err}
	}
	failed := rep.Diagnostics.HasErrors() || !r.force && slices.ContainsFunc(rep.Findings, func(f rules.Finding) bool { return f.Severity <= r.failAt })
	if failed {
		return &exitError{code: ExitFindings}
	}
	return nil
}

// fix applies the fixes, writes the files, and reports what the modules
// hold afterwards: a second lint, so that the report is exact.
func (r *lintRun) fix() error {
	rep, err := r.run()
	if err != nil {
		return err
	}
	fx := lint.Fix(rep)
	fx.Context = r.opts.Context
	for _, e := range fx.Skipped {
		fmt.Fprintf(r.stderr, "tofulint: fix not applied: %v\n", e)
	}
	if len(fx.Files) > 0 {
		if err := fx.Write(func(msg string) { fmt.Fprintf(r.stderr, "tofulint: %s\n", msg) }); err != nil {
			return &exitError{code: ExitError, err: err}
		}
		fmt.Fprintf(r.stderr, "tofulint: fixed %s\n", plural(len(fx.Files), "file"))
		if rep, err = r.run(); err != nil {
			return err
		}
	}
	return r.write(rep)
}

// diff prints the unified diff of the fixes and writes nothing.
func (r *lintRun) diff() error {
	rep, err := r.run()
	if err != nil {
		return err
	}
	fx := lint.Fix(rep)
	fx.Context = r.opts.Context
	for _, e := range fx.Skipped {
		fmt.Fprintf(r.stderr, "tofulint: fix not applied: %v\n", e)
	}
	if _, err := io.WriteString(r.stdout, fx.Diff()); err != nil {
		return &exitError{code: ExitError, err: err}
	}
	if len(fx.Files) > 0 {
		return &exitError{code: ExitFindings}
	}
	return nil
}

// sourcesOf reads the files that diags are about, so that their source
// lines can be shown; a file that cannot be read is shown without.
func sourcesOf(diags hcl.Diagnostics) map[string]*hcl.File {
	files := map[string]*hcl.File{}
	for _, d := range diags {
		if d.Subject == nil || files[d.Subject.Filename] != nil {
			continue
		}
		if src, err := source.ReadFile(d.Subject.Filename); err == nil {
			files[d.Subject.Filename] = &hcl.File{Bytes: src}
		}
	}
	return files
}

// writeInitConfig writes dir's .tofulint.hcl from its .tflint.hcl, with
// the notices about what it does not carry over on stderr; it refuses to
// replace a .tofulint.hcl.
func writeInitConfig(stderr io.Writer, dir string) error {
	from, to := filepath.Join(dir, rules.TFLintConfigFileName), filepath.Join(dir, rules.ConfigFileName)
	if _, err := os.Stat(to); err == nil {
		return &exitError{code: ExitError, err: fmt.Errorf("--init: %s exists; remove it to write it again", to)}
	}
	src, err := source.ReadFile(from)
	if err != nil {
		return &exitError{code: ExitError, err: fmt.Errorf("--init: nothing to convert: %w", err)}
	}
	cfg, diags := rules.ParseTFLintConfig(src, from)
	diags = diags[1:] // not "reading TFLint's configuration": that is the point
	if len(diags) > 0 {
		_ = report.WriteDiagnostics(stderr, map[string]*hcl.File{from: {Bytes: src}}, diags)
	}
	if diags.HasErrors() {
		return &exitError{code: ExitError, err: fmt.Errorf("--init: %s is not valid", from)}
	}
	out := append([]byte("# Written by tofulint --init from "+rules.TFLintConfigFileName+".\n"), cfg.HCL()...)
	if err := os.WriteFile(to, out, 0o644); err != nil {
		return &exitError{code: ExitError, err: fmt.Errorf("--init: %w", err)}
	}
	fmt.Fprintf(stderr, "tofulint: wrote %s\n", to)
	return nil
}

// colorTerminal reports whether w is a terminal and the NO_COLOR
// convention (no-color.org) does not turn color off.
func colorTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && os.Getenv("NO_COLOR") == "" && term.IsTerminal(int(f.Fd()))
}

// inDir returns paths with the relative ones under dir ("" stays "";
// no path means dir itself).
func inDir(dir string, paths []string) []string {
	if len(paths) == 0 {
		return []string{dir}
	}
	out := make([]string, len(paths))
	for i, p := range paths {
		if p != "" && !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		out[i] = p
	}
	return out
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// writeRuleList prints every rule: name, default severity, default state,
// whether it fixes, and the options its block in .tofulint.hcl may set.
func writeRuleList(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "RULE\tSEVERITY\tDEFAULT\tFIXES\tOPTIONS")
	for _, r := range rules.All() {
		state, fixes := "disabled", "no"
		if r.Enabled {
			state = "enabled"
		}
		if r.Fixes {
			fixes = "yes"
		}
		opts := make([]string, len(r.Options))
		for i, o := range r.Options {
			opts[i] = o.Name
		}
		if len(opts) == 0 {
			opts = []string{"-"}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.Name, r.Severity, state, fixes, strings.Join(opts, ", "))
	}
	return tw.Flush()
}
