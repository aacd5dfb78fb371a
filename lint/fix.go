package lint

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tofucue/tofucue/internal/udiff"
	"github.com/tofucue/tofucue/report"
	"github.com/tofucue/tofucue/rules"
)

// Fixed is the result of applying a report's fixes.
type Fixed struct {
	// Files are the new contents of the files that change, by name.
	Files map[string][]byte
	// Original are those files' contents as they were linted.
	Original map[string][]byte
	// Skipped are the fixes left out, each with its reason: an overlap with
	// another fix, or a result that would not parse.
	Skipped []error
	// Context ends Write early (an interrupt) when it is done: no file is
	// written after that, and the file being written is written whole
	// (package interrupt's Hold). Nil never ends it.
	Context context.Context
}

// Fix applies the fixes of rep's findings to the sources of their files,
// in memory.
func Fix(rep *report.Report) *Fixed {
	sources := map[string][]byte{}
	for name, f := range rep.Files {
		sources[name] = f.Bytes
	}
	changed, skipped := rules.ApplyFixes(sources, rep.Findings)
	fx := &Fixed{Files: changed, Original: map[string][]byte{}, Skipped: skipped}
	for name := range changed {
		fx.Original[name] = sources[name]
	}
	slices.SortFunc(fx.Skipped, func(a, b error) int { return strings.Compare(a.Error(), b.Error()) })
	return fx
}

// Names returns the names of the changed files, sorted.
func (fx *Fixed) Names() []string {
	names := make([]string, 0, len(fx.Files))
	for n := range fx.Files {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Diff returns the unified diff of every changed file, in name order, with
// git's a/ and b/ prefixes so that `git apply` and `patch -p1` take it.
// The paths are relative to the current directory, where the patch then
// applies; a file outside it is named by its absolute path without the
// leading separator, as `git diff --no-index` does, and the patch applies
// from the root directory (git apply refuses "..").
func (fx *Fixed) Diff() string {
	cwd, err := os.Getwd()
	if err != nil {
		cwd = ""
	}
	var b strings.Builder
	for _, name := range fx.Names() {
		p := diffPath(cwd, name)
		b.WriteString(udiff.Unified("a/"+p, "b/"+p, string(fx.Original[name]), string(fx.Files[name])))
	}
	return b.String()
}

// diffPath returns the slash-separated path that a diff made in cwd gives
// the file name.
func diffPath(cwd, name string) string {
	abs := name
	if !filepath.IsAbs(abs) && cwd != "" {
		abs = filepath.Join(cwd, name)
	}
	abs = filepath.Clean(abs)
	if cwd != "" {
		if rel, err := filepath.Rel(cwd, abs); err == nil && filepath.IsLocal(rel) {
			return filepath.ToSlash(rel)
		}
	}
	if !filepath.IsAbs(abs) {
		// No current directory to resolve against: the name as given.
		return filepath.ToSlash(abs)
	}
	// Drop the volume and the leading separator.
	return strings.TrimLeft(filepath.ToSlash(abs[len(filepath.VolumeName(abs)):]), "/")
}
