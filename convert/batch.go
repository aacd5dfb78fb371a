package convert

import (
	"cmp"
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"cuelang.org/go/cue"
	cueerrors "cuelang.org/go/cue/errors"
	"cuelang.org/go/cue/token"
	"github.com/hashicorp/hcl/v2"
)

// placeholderPrefix begins the message of every placeholder that stands
// for a construct not converted (see converter.unconverted).
const placeholderPrefix = "hcl2cue: not converted: "

// Status is how far the conversion of a module got.
type Status int

// The statuses of a converted module, from best to worst.
const (
	// Converted: everything was converted.
	Converted Status = iota
	// Partial: some constructs were not converted and are placeholders.
	Partial
	// Failed: the module has loading errors, or its conversion does not
	// load as CUE (an internal error); nothing is written.
	Failed
)

func (s Status) String() string {
	switch s {
	case Converted:
		return "converted"
	case Partial:
		return "partial"
	case Failed:
		return "failed"
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// ModuleResult is the outcome of converting one module directory.
type ModuleResult struct {
	// Dir is the module directory.
	Dir string
	// LoadDiagnostics are the loader's diagnostics. When they hold an
	// error the module was not converted and Result is nil.
	LoadDiagnostics hcl.Diagnostics
	// Result is the converted module.
	Result *Result
	// Err is set when the converted module does not load as CUE for a
	// reason other than its placeholders: a bug of the converter, unless
	// the module fails of its own.
	Err error
	// Own are the module's own errors, where the caller found that it
	// fails of its own (the HCL module does not plan at the defaults of
	// its variables, an index out of range, say): with Err, they are the
	// reason, not a bug of the converter.
	Own hcl.Diagnostics
}

// Status tells whether the module was converted, in part, or not at all.
func (m *ModuleResult) Status() Status {
	switch {
	case m.Result == nil || m.Err != nil:
		return Failed
	case !m.Result.Complete():
		return Partial
	}
	return Converted
}

// FirstReason is why the module is partial or failed, in one line: the
// first error with its file, line and column; "" for a converted module.
func (m *ModuleResult) FirstReason() string {
	switch {
	case m.Result == nil:
		return firstError(m.LoadDiagnostics)
	case m.Err != nil && m.Own.HasErrors():
		return "does not plan at its defaults: " + firstError(m.Own)
	case m.Err != nil:
		line, _, _ := strings.Cut(m.Err.Error(), "\n")
		return "internal error: " + strings.TrimSuffix(line, ":")
	}
	return firstError(m.Result.Diagnostics)
}

// firstError is the first error of diags as "file:line,col: summary".
func firstError(diags hcl.Diagnostics) string {
	for _, d := range diags {
		if d.Severity != hcl.DiagError {
			continue
		}
		if d.Subject == nil {
			return d.Summary
		}
		return fmt.Sprintf("%s:%d,%d: %s", filepath.Base(d.Subject.Filename), d.Subject.Start.Line, d.Subject.Start.Column, d.Summary)
	}
	return ""
}

// Dir loads the module in dir and converts it. It then loads the
// conversion as CUE: a module converted in full must load without
// error, and one converted in part may fail only on its placeholders;
// anything else sets Err.
func Dir(dir string, opts Options) *ModuleResult {
	mr := &ModuleResult{Dir: dir}
	m, diags := opts.Sources.Load(dir)
	mr.LoadDiagnostics = diags
	if m == nil || diags.HasErrors() {
		return mr
	}
	mr.Result = Module(m, opts)
	mr.Err = checkLoads(mr.Result)
	return mr
}

// checkLoads loads r as CUE and returns what is wrong with it other than
// the placeholders of the constructs not converted, whatever the inputs
// and the provider's values (see openValues).
//
// The templates of the modules r calls are compiled with it, so that
// their references are checked, but not evaluated (see openTemplate):
// their errors at their variables' defaults are not the conversion's (see
// templateErrors), and evaluating every call instance costs as much as
// planning the tree, and more than linear time in a chain of calls that
// each pass the previous one's outputs on (cloudposse's null-label
// pattern). The planner evaluates the instances.
func checkLoads(r *Result) error {
	// Each load parses the files again: cue/load takes the syntax trees
	// as its own.
	load := func(openDefaults bool) (cue.Value, error) {
		syntax, err := r.checkSyntax(openDefaults)
		if err != nil {
			return cue.Value{}, fmt.Errorf("building the converted module: %w", err)
		}
		return r.load(nil, nil, syntax, true)
	}
	// An error at the defaults may be one of those defaults: the module
	// is evaluated with them left open first (see openValues), and at
	// them only where that fails, so that a module that fails at its
	// defaults and not open, as fabric's modules/project, is evaluated
	// once.
	v, err := load(true)
	if err != nil {
		if dv, derr := load(false); derr == nil || !v.Exists() {
			v, err = dv, derr
		}
	}
	if err == nil || r.Complete() {
		return err
	}
	if !v.Exists() {
		// Not even the files and imports load: not the placeholders.
		return err
	}
	for _, e := range cueerrors.Errors(v.Validate(cue.All())) {
		if !r.fromPlaceholder(e) && !r.templateErrors(v, e, true) {
			return fmt.Errorf("building the converted module: %s", cueerrors.Details(e, nil))
		}
	}
	return nil
}

// fromPlaceholder reports whether the CUE error e comes from a
// placeholder: its message says so, or it is about a line holding one. A
// placeholder's error reaches the values computed from it in other
// forms: an interpolation of it is an "invalid interpolation" at the
// interpolation, without the placeholder's message.
func (r *Result) fromPlaceholder(e cueerrors.Error) bool {
	if strings.Contains(cueerrors.Details(e, nil), placeholderPrefix) {
		return true
	}
	for _, pos := range append([]token.Pos{e.Position()}, e.InputPositions()...) {
		if !pos.IsValid() {
			continue
		}
		for i := range r.Files {
			f := &r.Files[i]
			if "/"+f.Name != pos.Filename() {
				continue
			}
			if strings.Contains(expressionAt(f.Source, pos.Line()), placeholderPrefix) {
				return true
			}
		}
	}
	return false
}

// expressionAt returns line n (from 1) of src with, when the line leaves
// brackets open, the lines up to where they close: the expression an
// error at the line is about. A placeholder inside it is where the error
// comes from: an argument of a library call, which reports the failure at
// the call ("out: 2 errors in empty disjunction") rather than at the
// argument.
func expressionAt(src []byte, n int) string {
	lines := strings.Split(string(src), "\n")
	if n < 1 || n > len(lines) {
		return ""
	}
	var b strings.Builder
	depth := 0
	for _, line := range lines[n-1:] {
		b.WriteString(line)
		b.WriteByte('\n')
		for _, c := range line {
			switch c {
			case '{', '[', '(':
				depth++
			case '}', ']', ')':
				depth--
			}
		}
		if depth <= 0 {
			break
		}
	}
	return b.String()
}

// BatchOptions control a batch conversion.
type BatchOptions struct {
	// Options are the conversion options of every module; leave Package
	// and ModulePath empty to name each module after its directory.
	Options Options
	// Jobs is the number of modules converted at once; 0 means
	// runtime.GOMAXPROCS(0).
	Jobs int
	// Context ends the batch early (an interrupt) when it is done: the
	// modules not converted by then are nil in the Summary. Nil never
	// ends it.
	Context context.Context
}

// Summary is the outcome of a batch conversion.
type Summary struct {
	// Modules are the results, one per directory, in the order the
	// directories were given.
	Modules []*ModuleResult
}

// Batch converts the modules in dirs, opts.Jobs at a time. The result is
// the same whatever the number of jobs. progress, when not nil, is called
// with 0 before the first module and after each module with the number
// done, always from the goroutine that called Batch.
func Batch(dirs []string, opts BatchOptions, progress func(done, total int)) *Summary {
	s := &Summary{Modules: make([]*ModuleResult, len(dirs))}
	total := len(dirs)
	if progress != nil {
		progress(0, total)
	}
	if total == 0 {
		return s
	}
	// The roots of a batch often call the same modules (a repository's
	// examples call its root): each is read, and converted, once.
	opts.Options.Sources = opts.Options.Sources.Sharing()
	if opts.Options.templates == nil {
		opts.Options.templates = newTemplateCache()
	}
	if opts.Options.comments == nil {
		opts.Options.comments = newCommentCache()
	}
	jobs := opts.Jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	next := make(chan int)
	done := make(chan struct{})
	var wg sync.WaitGroup
	for range min(jobs, total) {
		wg.Go(func() {
			for i := range next {
				if opts.Context == nil || opts.Context.Err() == nil {
					s.Modules[i] = Dir(dirs[i], opts.Options)
				}
				done <- struct{}{}
			}
		})
	}
	go func() {
		for i := range dirs {
			next <- i
		}
		close(next)
	}()
	for n := 1; n <= total; n++ {
		<-done
		if progress != nil {
			progress(n, total)
		}
	}
	wg.Wait()
	return s
}

// Count is the number of modules with status st.
func (s *Summary) Count(st Status) int {
	n := 0
	for _, m := range s.Modules {
		if m.Status() == st {
			n++
		}
	}
	return n
}

// Status is the worst status of the modules: Converted when there is
// none.
func (s *Summary) Status() Status {
	worst := Converted
	for _, m := range s.Modules {
		worst = max(worst, m.Status())
	}
	return worst
}

// ReasonCount is how often a construct was not converted.
type ReasonCount struct {
	Reason string
	Count  int
}

// Reasons aggregates the reasons of the constructs not converted over
// all modules: each reason once with its number of occurrences, the most
// frequent first and equal counts in alphabetical order.
func (s *Summary) Reasons() []ReasonCount {
	counts := map[string]int{}
	for _, m := range s.Modules {
		if m.Result == nil {
			continue
		}
		for _, r := range m.Result.Reasons {
			counts[r]++
		}
	}
	out := make([]ReasonCount, 0, len(counts))
	for r, n := range counts {
		out = append(out, ReasonCount{Reason: r, Count: n})
	}
	slices.SortFunc(out, func(a, b ReasonCount) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Reason, b.Reason))
	})
	return out
}
