package lint

import (
	"bytes"
	"errors"
	"fmt"
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
func (fx *Fixed) Diff() string {
	var b strings.Builder
	for _, name := range fx.Names() {
		slashed := filepath.ToSlash(name)
		b.WriteString(udiff.Unified("a/"+slashed, "b/"+slashed, string(fx.Original[name]), string(fx.Files[name])))
	}
	return b.String()
}

// Write writes every changed file in place, each atomically: the new
// content goes to a temporary file in the same directory, with the
// original's permissions, which then replaces the original by a rename, so
// that a reader sees the old file or the new one and never a part. A file
// that changed on disk since it was linted is left alone. The errors of
// all files are joined; the files without error are written.
func (fx *Fixed) Write() error {
	var errs []error
	for _, name := range fx.Names() {
		if err := writeIfUnchanged(name, fx.Original[name], fx.Files[name]); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func writeIfUnchanged(name string, original, data []byte) error {
	fi, err := os.Stat(name)
	if err != nil {
		return err
	}
	current, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	if !bytes.Equal(current, original) {
		return fmt.Errorf("%s: changed on disk while tofulint ran; not fixed", name)
	}
	return WriteFileAtomic(name, data, fi.Mode().Perm())
}

// WriteFileAtomic writes data to name through a temporary file in the same
// directory and a rename, with permissions perm. On error the temporary
// file is removed and name is unchanged.
func WriteFileAtomic(name string, data []byte, perm os.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".tofulint-*")
	if err != nil {
		return err
	}
	if err := writeAndClose(tmp, data, perm); err != nil {
		_ = os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), name); err != nil {
		_ = os.Remove(tmp.Name())
		return err
	}
	return nil
}

// writeAndClose writes data to f, sets its permissions, flushes it to disk
// and closes it.
func writeAndClose(f *os.File, data []byte, perm os.FileMode) error {
	_, err := f.Write(data)
	if err == nil {
		err = f.Chmod(perm)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
