package cli

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/hashicorp/hcl/v2"
	"golang.org/x/tools/txtar"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/convert"
	hclengine "github.com/tofucue/tofucue/engine/hcl"
	"github.com/tofucue/tofucue/engine/inputs"
	"github.com/tofucue/tofucue/engine/verify"
	"github.com/tofucue/tofucue/internal/workers"
	"github.com/tofucue/tofucue/lint"
	"github.com/tofucue/tofucue/report"
)

// convertLong is the help of hcl2cue convert.
const convertLong = `convert converts the OpenTofu module in DIR to a CUE module.

With -o OUT it writes the CUE module into OUT, only when OUT is empty or
an earlier output of hcl2cue, and never leaves it half-written. Into an
earlier output it replaces the files that convert wrote there (listed in
OUT/cue.mod/hcl2cue-files.txt) and keeps every other file; a file of
yours where convert now writes one is an error, and nothing is written.
Without -o it prints the files to stdout as a txtar archive ("-- main.cue
--" before each file).

What cannot be converted is reported on stderr with its source. Such a
module is written only with --allow-partial, with a placeholder
error("hcl2cue: not converted: ...") for each construct not converted.

DIR/... (or --recursive) converts every module directory at or below DIR,
as tofulint finds them, --jobs at a time, each into OUT/PATH where PATH is
its path below DIR, and prints a summary: how many modules were converted
in full, in part and not at all, the most frequent reasons, and a table
of the modules: each one's status, the lines of its own HCL files and of
the CUE files they became (HCL and CUE; not the modules it calls, nor the
tofu library), and, where it was not converted in full, the first
construct not converted and how many more there are. Without -o nothing
is written. --verify then runs hcl2cue verify --synthesize on each module
converted in full and adds its result to the table: equal, differs, or
error (a side does not plan).

Exit status: 0 when everything was converted, 1 when some constructs
were not converted, 2 when a module does not load (its diagnostics are
printed), when the converted module does not load as CUE (an internal
error; or the module's own, when the module does not plan at the
defaults of its variables either, and its errors are printed), and on a
usage or I/O error. A module converted in full that fails only when
evaluated without a plan (a value only the provider knows, read through
try) is planned as verify does, and written with a warning where it plans. With --verify, a module whose plans differ or do not
plan makes the status at least 1.`

// convertFlags are the flags of hcl2cue convert.
type convertFlags struct {
	out          string
	allowPartial bool
	recursive    bool
	jobs         int
	verify       bool
	modules      moduleFlags
}

// convertRun is one hcl2cue convert invocation.
type convertRun struct {
	convertFlags
	ctx            context.Context
	stdout, stderr io.Writer
	sources        *config.Sources
}

// run converts the module directory or the tree of modules that arg
// names.
func (r *convertRun) run(arg string) error {
	sources, err := r.modules.sources(arg)
	if err != nil {
		return &exitError{code: ExitError, err: err}
	}
	r.sources = sources
	if root, ok := cutPattern(arg); ok || r.recursive {
		return r.batch(arg, root)
	}
	if r.verify {
		return &exitError{code: ExitError, err: fmt.Errorf("--verify goes with DIR/... (or --recursive); for one module, run hcl2cue verify %s", arg)}
	}
	return r.single(arg)
}

// cutPattern strips the "/..." of a DIR/... pattern from arg.
func cutPattern(arg string) (root string, ok bool) {
	if arg == "..." {
		return ".", true
	}
	root, ok = strings.CutSuffix(filepath.ToSlash(arg), "/...")
	if ok && root == "" {
		root = "/"
	}
	return filepath.FromSlash(root), ok
}

// single converts one module directory.
func (r *convertRun) single(dir string) error {
	fi, err := os.Stat(dir)
	if err != nil {
		return &exitError{code: ExitError, err: err}
	}
	if !fi.IsDir() {
		return &exitError{code: ExitError, err: fmt.Errorf("%s: not a directory: convert takes a module directory", dir)}
	}
	if !config.IsModuleDir(dir) {
		return &exitError{code: ExitError, err: fmt.Errorf("%s: not a module directory: no .tf, .tf.json, .tofu or .tofu.json file in it (%s converts the module directories below it)", dir, filepath.Join(dir, "..."))}
	}
	mr := convert.Dir(dir, convert.Options{Sources: r.sources})
	if err := r.ctx.Err(); err != nil {
		return err // interrupted: execute gives the status
	}
	if mr.Result == nil {
		writeDiagnostics(r.stderr, mr.LoadDiagnostics)
		return &exitError{code: ExitError, err: fmt.Errorf("%s: the module does not load; nothing converted", dir)}
	}
	if mr.Err != nil {
		r.settle(dir, mr)
		if mr.Own.HasErrors() {
			writeDiagnostics(r.stderr, mr.Own)
			return &exitError{code: ExitError, err: fmt.Errorf("%s: the module does not plan at the defaults of its variables (above), and its conversion does not load as CUE either; nothing written", dir)}
		}
	}
	if mr.Err != nil {
		if !mr.Result.Complete() {
			// The constructs not converted may be what CUE fails on,
			// in a way that does not name their placeholders.
			writeDiagnostics(r.stderr, mr.Result.Diagnostics)
			return &exitError{code: ExitError, err: fmt.Errorf("internal error: with placeholders for the %s not converted (above), the converted module does not load as CUE; nothing written: %w", plural(len(mr.Result.Reasons), "construct"), mr.Err)}
		}
		return &exitError{code: ExitError, err: fmt.Errorf("internal error: the converted module does not load as CUE; nothing written: %w", mr.Err)}
	}
	res := mr.Result
	writeDiagnostics(r.stderr, res.Diagnostics)
	notConverted := plural(len(res.Reasons), "construct") + " not converted"
	if len(res.Reasons) == 0 {
		notConverted = "the module tree has errors (above)"
	}
	if !res.Complete() && !r.allowPartial {
		return &exitError{code: ExitFindings, err: fmt.Errorf("%s; nothing written (--allow-partial writes the module with placeholders)", notConverted)}
	}
	if r.out != "" {
		err = res.Write(r.out)
	} else {
		err = writeArchive(r.stdout, res)
	}
	if err != nil {
		return &exitError{code: ExitError, err: err}
	}
	if !res.Complete() {
		return &exitError{code: ExitFindings, err: fmt.Errorf("%s; written with placeholders", notConverted)}
	}
	return nil
}

// writeArchive prints the files of res as a txtar archive: the converted
// files in order, then cue.mod and the library.
func writeArchive(w io.Writer, res *convert.Result) error {
	files, err := res.OutputFiles()
	if err != nil {
		return err
	}
	a := &txtar.Archive{}
	for _, f := range res.Files {
		a.Files = append(a.Files, txtar.File{Name: f.Name, Data: f.Source})
		delete(files, f.Name)
	}
	for _, name := range slices.Sorted(maps.Keys(files)) {
		a.Files = append(a.Files, txtar.File{Name: name, Data: files[name]})
	}
	_, err = w.Write(txtar.Format(a))
	return err
}

// writeDiagnostics prints diags as tofulint's text output does, with the
// source lines they are about.
func writeDiagnostics(w io.Writer, diags hcl.Diagnostics) {
	writeDiagnosticsWith(w, diags, nil)
}

// writeDiagnosticsWith is writeDiagnostics with the sources of files that
// are not on disk (a module converted in memory), by file name.
func writeDiagnosticsWith(w io.Writer, diags hcl.Diagnostics, sources map[string][]byte) {
	if len(diags) == 0 {
		return
	}
	diags = slices.Clone(diags)
	report.SortDiagnostics(diags)
	files := sourcesOf(diags)
	for name, b := range sources {
		if files[name] == nil {
			files[name] = &hcl.File{Bytes: b}
		}
	}
	_ = report.WriteDiagnostics(w, files, diags)
}

// batch converts every module directory that arg names, below root.
func (r *convertRun) batch(arg, root string) error {
	targets, err := lint.Expand([]string{arg}, r.recursive)
	if err != nil {
		return &exitError{code: ExitError, err: err}
	}
	root = filepath.Clean(root)
	dirs := make([]string, len(targets))
	rels := make([]string, len(targets))
	for i, t := range targets {
		if t.Files != nil {
			return &exitError{code: ExitError, err: fmt.Errorf("%s: not a directory: convert takes a module directory", arg)}
		}
		dirs[i] = t.Dir
		if rels[i], err = filepath.Rel(root, t.Dir); err != nil {
			return &exitError{code: ExitError, err: err}
		}
	}

	var progress func(done, total int)
	if isTerminal(r.stderr) {
		progress = func(done, total int) { writeProgress(r.stderr, done, total) }
	}
	s := convert.Batch(dirs, convert.BatchOptions{Context: r.ctx, Jobs: r.jobs, Options: convert.Options{Sources: r.sources}}, progress)
	if progress != nil {
		fmt.Fprint(r.stderr, "\r\033[K")
	}
	if err := r.ctx.Err(); err != nil {
		return err // interrupted: execute gives the status
	}
	// A conversion that does not load as CUE is a bug of the converter
	// unless the module fails of its own.
	for i, m := range s.Modules {
		if m.Err != nil {
			r.settle(dirs[i], m)
		}
	}

	// Parents come before the modules below them, so that replacing a
	// parent's earlier output does not remove a child's new one.
	written := 0
	var writeErrs []error
	if r.out != "" {
		for i, m := range s.Modules {
			st := m.Status()
			if st == convert.Failed || st == convert.Partial && !r.allowPartial {
				continue
			}
			if r.ctx.Err() != nil {
				break // interrupted: execute gives the status
			}
			if err := m.Result.Write(filepath.Join(r.out, rels[i])); err != nil {
				writeErrs = append(writeErrs, err)
				continue
			}
			written++
		}
	}

	var verified []string
	if r.verify {
		verified = r.verifyAll(s, dirs)
		if err := r.ctx.Err(); err != nil {
			return err
		}
	}
	if err := r.writeSummary(s, rels, verified, written); err != nil {
		return &exitError{code: ExitError, err: err}
	}
	if len(writeErrs) > 0 {
		return &exitError{code: ExitError, err: errors.Join(writeErrs...)}
	}
	switch s.Status() {
	case convert.Failed:
		return &exitError{code: ExitError}
	case convert.Partial:
		return &exitError{code: ExitFindings}
	}
	for _, v := range verified {
		if v != "" && v != verifyEqual {
			return &exitError{code: ExitFindings}
		}
	}
	return nil
}

// The results of --verify in the batch summary.
const (
	verifyEqual   = "equal"
	verifyDiffers = "differs"
	verifyError   = "error"
)

// verifyAll verifies each module of s converted in full, --jobs at a
// time, as hcl2cue verify --synthesize does: its result by module, ""
// for a module not verified.
func (r *convertRun) verifyAll(s *convert.Summary, dirs []string) []string {
	out := make([]string, len(dirs))
	workers.Each(len(dirs), r.jobs, func(i int) {
		if s.Modules[i].Status() == convert.Converted && r.ctx.Err() == nil {
			out[i] = r.verifyOne(dirs[i])
		}
	})
	return out
}

// verifyOne verifies the module in dir: equal, differs or error.
func (r *convertRun) verifyOne(dir string) string {
	results, diags := verify.Run(dir, "", verify.Options{Context: r.ctx, Sources: r.sources, Inputs: inputs.Sources{Synthesize: true}})
	if diags.HasErrors() || len(results) == 0 {
		return verifyError
	}
	res := verifyEqual
	for _, c := range results {
		switch {
		case c.Diagnostics.HasErrors():
			return verifyError
		case len(c.Differences) > 0:
			res = verifyDiffers
		}
	}
	return res
}

// topReasons is how many reasons the batch summary lists.
const topReasons = 10

// writeSummary prints the tables of a batch conversion: the modules by
// status, the most frequent reasons for constructs not converted, and
// every module with its status, its lines of HCL and of CUE, its verify
// result (verified, from --verify; nil without) and its first reason.
func (r *convertRun) writeSummary(s *convert.Summary, rels, verified []string, written int) error {
	var table bytes.Buffer
	tw := tabwriter.NewWriter(&table, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "STATUS\tMODULES")
	for _, st := range []convert.Status{convert.Converted, convert.Partial, convert.Failed} {
		fmt.Fprintf(tw, "%s\t%d\n", st, s.Count(st))
	}
	fmt.Fprintf(tw, "total\t%d\n", len(s.Modules))

	if reasons := s.Reasons(); len(reasons) > 0 {
		fmt.Fprintln(tw, "\nREASON\tCONSTRUCTS")
		for _, rc := range reasons[:min(topReasons, len(reasons))] {
			fmt.Fprintf(tw, "%s\t%d\n", rc.Reason, rc.Count)
		}
		if n := len(reasons) - topReasons; n > 0 {
			fmt.Fprintf(tw, "(%s)\t\n", plural(n, "more reason"))
		}
	}

	fmt.Fprint(tw, "\nMODULE\tSTATUS\tHCL\tCUE\t")
	if verified != nil {
		fmt.Fprint(tw, "VERIFY\t")
	}
	fmt.Fprintln(tw, "NOT CONVERTED")
	for i, m := range s.Modules {
		st := m.Status()
		hclLines, cueLines := "-", "-"
		if m.Result != nil && m.Err == nil {
			hclLines, cueLines = strconv.Itoa(m.Result.HCLLines), strconv.Itoa(m.Result.CUELines())
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t", filepath.ToSlash(rels[i]), st, hclLines, cueLines)
		if verified != nil {
			fmt.Fprintf(tw, "%s\t", cmp.Or(verified[i], "-"))
		}
		why := m.FirstReason()
		if n := notConverted(m) - 1; n > 0 {
			why += fmt.Sprintf(" (and %d more)", n)
		}
		fmt.Fprintln(tw, why)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	// A last column left empty leaves the padding of the one before.
	for line := range strings.Lines(table.String()) {
		if _, err := fmt.Fprintln(r.stdout, strings.TrimRight(line, " \n")); err != nil {
			return err
		}
	}
	if r.out == "" {
		return nil
	}
	_, err := fmt.Fprintf(r.stdout, "\nwrote %s to %s\n", plural(written, "module"), r.out)
	if err == nil && s.Count(convert.Partial) > 0 && !r.allowPartial {
		_, err = fmt.Fprintln(r.stdout, "(modules converted in part are written only with --allow-partial)")
	}
	return err
}

// notConverted is the number of constructs of m not converted.
func notConverted(m *convert.ModuleResult) int {
	if m.Result == nil || m.Err != nil {
		return 0
	}
	n := 0
	for _, d := range m.Result.Diagnostics {
		if d.Severity == hcl.DiagError {
			n++
		}
	}
	return n
}

// progressWidth is the width of the progress bar between its brackets.
const progressWidth = 30

// writeProgress redraws the progress line: "converting 37/477 [==>   ]".
func writeProgress(w io.Writer, done, total int) {
	filled := 0
	if total > 0 {
		filled = done * progressWidth / total
	}
	bar := strings.Repeat("=", filled)
	if filled < progressWidth {
		bar += ">" + strings.Repeat(" ", progressWidth-filled-1)
	}
	fmt.Fprintf(w, "\rconverting %d/%d [%s]", done, total, bar)
}

// isTerminal reports whether w is a terminal, where a progress line can be
// redrawn in place.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// settle decides a conversion that does not load as CUE at the defaults
// of its variables (m.Err): where the HCL module does not plan there
// either, its own errors are the reason (m.Own). Where it plans, a module
// converted in full is planned on the CUE side too, as verify does: the
// check evaluates the module without a plan, where an attribute that only
// the provider knows is missing (an error that try turns into its
// fallback) rather than unknown, so a conversion that plans is not a bug
// of the converter. It is written, with a warning that says so.
func (r *convertRun) settle(dir string, m *convert.ModuleResult) {
	if m.Own = planErrors(dir, r.sources); m.Own.HasErrors() || !m.Result.Complete() {
		return
	}
	results, diags := verify.Run(dir, "", verify.Options{Context: r.ctx, Sources: r.sources, Inputs: inputs.Sources{Synthesize: true}})
	if diags.HasErrors() || len(results) == 0 || results[0].Diagnostics.HasErrors() {
		return
	}
	line, _, _ := strings.Cut(m.Err.Error(), "\n")
	m.Result.Diagnostics = append(m.Result.Diagnostics, &hcl.Diagnostic{
		Severity: hcl.DiagWarning,
		Summary:  "Converted module checked by planning it",
		Detail:   fmt.Sprintf("Evaluated at the defaults of its variables without a plan, the converted module fails (%s); planned against the mock provider, with inputs made up where there are none, it plans (hcl2cue verify compares its plans with the HCL module's).", strings.TrimSuffix(line, ":")),
	})
	m.Err = nil
}

// planErrors are the errors of planning the HCL module in dir with the
// defaults of its variables (made up where there are none) and the mock
// provider: where the converted module does not load as CUE, they tell a
// module that fails of its own (an index out of range at its defaults)
// from a bug of the converter.
func planErrors(dir string, sources *config.Sources) hcl.Diagnostics {
	tree, diags := config.LoadTree(dir, sources)
	if diags.HasErrors() {
		return diags
	}
	_, diags = hclengine.Plan(tree, hclengine.Options{Inputs: inputs.Sources{Synthesize: true}})
	if !diags.HasErrors() {
		return nil
	}
	return diags
}
