// Package lint is what the tofulint command does between reading its flags
// and writing its report: it finds the modules that the paths name, finds
// each module's configuration file, loads and lints the modules in
// parallel, and applies fixes to files: linearly in their number, and
// atomically where a file allows it (see Fixed.Write).
package lint

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/hashicorp/hcl/v2"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/internal/workers"
	"github.com/tofucue/tofucue/report"
	"github.com/tofucue/tofucue/rules"
)

// Options say how to lint.
type Options struct {
	// Context ends the run early (an interrupt) when it is done: no module
	// is linted after that, and the report is not complete. Nil never
	// ends it.
	Context context.Context
	// ConfigFile, when set, is the configuration of every module
	// (--config). Otherwise each module uses the nearest
	// rules.ConfigFileName in its directory or above, if any.
	ConfigFile string
	// Overrides are the command line's settings (--enable-rule,
	// --disable-rule, --only, ...), applied over every configuration file.
	Overrides rules.Config
	// Jobs is the number of modules linted at once; 0 means one per CPU.
	Jobs int
	// KeepSyntax keeps the syntax trees of the files that the report is
	// about, which the text format needs for its "in resource ..." context
	// lines; without it the report keeps only their sources.
	KeepSyntax bool
	// Overlay is read instead of the files on disk where it has a file
	// (see config.Options.Overlay): an editor's unsaved buffers.
	Overlay map[string][]byte
}

// setup is a configuration as it applies to modules: the merged settings
// and the rules they select.
type setup struct {
	cfg      rules.Config
	selected []rules.Selected
}

// Run lints the targets and returns what they hold, in a deterministic
// order whatever the parallelism: the targets' findings in order of file
// and position, and the loading diagnostics that no rule claims (see
// rules.Run for a module that has loading errors). The
// diagnostics returned on their own are the configuration files' errors;
// when they have an error, nothing was linted.
func Run(targets []Target, opts Options) (*report.Report, hcl.Diagnostics) {
	if opts.Overrides.Sources == nil {
		// One for the run: each manifest is read once.
		opts.Overrides.Sources = config.NewSources(config.SourceOptions{})
	}
	setups, diags := resolveConfigs(targets, opts)
	if diags.HasErrors() {
		return nil, diags
	}

	type result struct {
		findings []rules.Finding
		diags    hcl.Diagnostics
		files    map[string]*hcl.File
	}
	results := make([]result, len(targets))
	workers.Each(len(targets), opts.Jobs, func(i int) {
		if opts.Context != nil && opts.Context.Err() != nil {
			return // interrupted: let the rest go by
		}
		f, d, files := lintOne(targets[i], setups[i], opts)
		results[i] = result{f, d, files}
	})

	rep := &report.Report{Files: map[string]*hcl.File{}}
	ran := map[*rules.Rule]bool{}
	for i, r := range results {
		rep.Findings = append(rep.Findings, r.findings...)
		rep.Diagnostics = append(rep.Diagnostics, r.diags...)
		for name, f := range r.files {
			rep.Files[name] = f
		}
		for _, s := range setups[i].selected {
			ran[s.Rule] = true
		}
	}
	for _, r := range rules.All() {
		if ran[r] {
			rep.Rules = append(rep.Rules, r)
		}
	}
	return rep, diags
}

// lintOne loads one module and runs the rules over it.
func lintOne(t Target, s *setup, opts Options) ([]rules.Finding, hcl.Diagnostics, map[string]*hcl.File) {
	mod, diags := config.LoadWith(t.Dir, config.Options{Overlay: opts.Overlay})
	if opts.Context != nil && opts.Context.Err() != nil {
		return nil, nil, nil // interrupted or superseded: the rules need not run
	}
	if mod != nil {
		rules.NoteModule(mod, diags)
	}
	own := rules.LoadErrors(diags)
	var found []rules.Finding
	if mod != nil {
		found = rules.Run(mod, diags, s.selected, s.cfg)
	}
	own = slices.DeleteFunc(own, func(d *hcl.Diagnostic) bool {
		return d.Subject != nil && s.cfg.Excluded(d.Subject.Filename)
	})
	if t.Files != nil {
		own = slices.DeleteFunc(own, func(d *hcl.Diagnostic) bool {
			return d.Subject != nil && !slices.Contains(t.Files, filepath.Clean(d.Subject.Filename))
		})
		found = slices.DeleteFunc(found, func(f rules.Finding) bool { return !slices.Contains(t.Files, filepath.Clean(f.Range.Filename)) })
	}
	report.SortDiagnostics(own)
	return found, own, reportFiles(mod, t, found, own, opts.KeepSyntax)
}

// reportFiles returns the files of mod that the report lists: those of the
// target. The report keeps a file's source and syntax tree (for snippets,
// context lines and fixes) only when a finding or diagnostic is about it;
// the others are empty files that only name themselves, so that the syntax
// trees of a large tree of modules do not all stay in memory at once.
// Without keepSyntax, a file keeps its source alone.
func reportFiles(mod *config.Module, t Target, found []rules.Finding, diags hcl.Diagnostics, keepSyntax bool) map[string]*hcl.File {
	files := map[string]*hcl.File{}
	if mod == nil {
		return files
	}
	needed := map[string]bool{}
	for i := range found {
		needed[found[i].Range.Filename] = true
	}
	for _, d := range diags {
		if d.Subject != nil {
			needed[d.Subject.Filename] = true
		}
	}
	for name, f := range mod.Files {
		if t.Files != nil && !slices.Contains(t.Files, filepath.Clean(name)) {
			continue
		}
		switch {
		case !needed[name]:
			f = &hcl.File{}
		case !keepSyntax:
			f = &hcl.File{Bytes: f.Bytes}
		}
		files[name] = f
	}
	return files
}

// resolveConfigs finds, reads and merges the configuration of each target,
// reading each configuration file once.
func resolveConfigs(targets []Target, opts Options) ([]*setup, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	byFile := map[string]*setup{}
	load := func(path string) *setup {
		if s, ok := byFile[path]; ok {
			return s
		}
		var cfg rules.Config
		if path != "" {
			var cdiags hcl.Diagnostics
			cfg, cdiags = rules.LoadConfigFile(path)
			for _, d := range cdiags {
				if d.Subject == nil {
					d.Detail = fmt.Sprintf("%s: %s", path, d.Detail)
				}
			}
			diags = append(diags, cdiags...)
		}
		cfg = cfg.Merge(opts.Overrides)
		s := &setup{cfg: cfg}
		sel, err := cfg.Select()
		if err != nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid rule selection", Detail: err.Error()})
		}
		s.selected = sel
		byFile[path] = s
		return s
	}
	out := make([]*setup, len(targets))
	byDir := map[string]string{}
	for i, t := range targets {
		path := opts.ConfigFile
		if path == "" {
			p, ok := byDir[t.Dir]
			if !ok {
				var err error
				p, err = rules.FindConfig(t.Dir)
				if err != nil {
					diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Cannot look for a configuration file", Detail: err.Error()})
				}
				byDir[t.Dir] = p
			}
			path = p
		}
		out[i] = load(path)
	}
	return out, diags
}
