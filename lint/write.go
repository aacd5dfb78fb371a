package lint

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/tofucue/tofucue/internal/interrupt"
	"github.com/tofucue/tofucue/internal/source"
)

// Write writes every changed file in place, each atomically where it can:
// the new content goes to a temporary file in the file's directory, with
// the original's owner, group and mode (setuid, setgid and sticky bits
// included), which then replaces the original by a rename, so that a
// reader sees the old file or the new one and never a part.
//
// A symbolic link is followed: its target is fixed and the link stays. A
// file with several hard links, or whose owner or group the temporary
// file cannot be given, is edited in place instead (rewritten and
// truncated through the same inode), which keeps the links and the owner
// but is not atomic; note is told so, with the file's name.
//
// A file that changed on disk since it was linted is left alone: it is
// compared with what was linted before the temporary file is written and
// again, by size, modification time and content, just before the rename.
// A write by another program between that last check and the rename (a
// few system calls) is still lost; nothing short of a lock that every
// editor honors would close that window.
//
// A run killed before its rename leaves its temporary file, named
// .NAME.tofulint-PID-RANDOM after its process; a later Write in the same
// directory removes those of processes that no longer run.
//
// The errors of all files are joined; the files without error are
// written.
func (fx *Fixed) Write(note func(string)) error {
	if note == nil {
		note = func(string) {}
	}
	var errs []error
	swept := map[string]bool{}
	written := map[string][]byte{} // by target, for a file linted under two names
	for _, name := range fx.Names() {
		if fx.Context != nil && fx.Context.Err() != nil {
			errs = append(errs, fmt.Errorf("interrupted: %s and the files after it not fixed", name))
			break
		}
		target, err := filepath.EvalSymlinks(name)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if prev, ok := written[target]; ok {
			if !bytes.Equal(prev, fx.Files[name]) {
				errs = append(errs, fmt.Errorf("%s: the same file as another one fixed under another name, with other fixes; not fixed twice", name))
			}
			continue
		}
		release := interrupt.Hold() // an interrupt waits until the file is whole
		err = writeIfUnchanged(name, target, fx.Original[name], fx.Files[name], swept, note)
		release()
		if err != nil {
			errs = append(errs, err)
			continue
		}
		written[target] = fx.Files[name]
	}
	return errors.Join(errs...)
}

// beforeRename, when set (by tests), runs between the temporary file's
// writing and the last check of the original.
var beforeRename func(target string)

// writeIfUnchanged writes data to target, which is name with its symbolic
// links resolved, if it still holds original.
func writeIfUnchanged(name, target string, original, data []byte, swept map[string]bool, note func(string)) error {
	if dir := filepath.Dir(target); !swept[dir] {
		swept[dir] = true
		removeStaleTemps(dir, note)
	}
	fi, err := os.Stat(target)
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s: not a regular file; not fixed", name)
	}
	current, err := source.ReadFile(target)
	if err != nil {
		return err
	}
	if !bytes.Equal(current, original) {
		return changedError(name)
	}
	if n := links(fi); n > 1 {
		note(fmt.Sprintf("%s has %d hard links: edited in place, not atomically, so that every link sees the fix", name, n))
		return writeInPlace(name, target, original, data)
	}
	err = replace(name, target, fi, original, data)
	if errors.Is(err, errKeepOwner) {
		note(fmt.Sprintf("%s: %v: edited in place, not atomically, to keep its owner and group", name, err))
		return writeInPlace(name, target, original, data)
	}
	return err
}

func changedError(name string) error {
	return fmt.Errorf("%s: changed on disk while tofulint ran; not fixed", name)
}

// errKeepOwner says that a temporary file cannot be given the owner or
// group of the file it would replace.
var errKeepOwner = errors.New("cannot give a new file its owner and group")

// tempPrefix returns the start of the names of the temporary files for
// target; the process id and a random number follow.
func tempPrefix(target string) string {
	return "." + filepath.Base(target) + ".tofulint-"
}

// replace writes data to a temporary file beside target with fi's owner,
// group and mode, checks that target still holds original, and renames
// the temporary file over it.
func replace(name, target string, fi os.FileInfo, original, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(target), tempPrefix(target)+strconv.Itoa(os.Getpid())+"-*")
	if err != nil {
		return err
	}
	fail := func(err error) error {
		_ = tmp.Close()
		_ = os.Remove(tmp.Name())
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		return fail(err)
	}
	if err := keepOwner(tmp, fi); err != nil {
		return fail(err)
	}
	// After the chown, which clears the setuid and setgid bits.
	if err := tmp.Chmod(fi.Mode() & (os.ModePerm | os.ModeSetuid | os.ModeSetgid | os.ModeSticky)); err != nil {
		return fail(err)
	}
	if err := tmp.Sync(); err != nil {
		return fail(err)
	}
	if err := tmp.Close(); err != nil {
		return fail(err)
	}
	if beforeRename != nil {
		beforeRename(target)
	}
	if err := unchangedSince(name, target, fi, original); err != nil {
		_ = os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), target); err != nil {
		_ = os.Remove(tmp.Name())
		return err
	}
	syncDir(filepath.Dir(target))
	return nil
}

// unchangedSince checks that target has fi's size and modification time
// and holds original.
func unchangedSince(name, target string, fi os.FileInfo, original []byte) error {
	now, err := os.Stat(target)
	if err != nil {
		return err
	}
	if now.Size() != fi.Size() || !now.ModTime().Equal(fi.ModTime()) {
		return changedError(name)
	}
	current, err := source.ReadFile(target)
	if err != nil {
		return err
	}
	if !bytes.Equal(current, original) {
		return changedError(name)
	}
	return nil
}

// writeInPlace rewrites target through its own inode, after checking that
// it still holds original.
func writeInPlace(name, target string, original, data []byte) error {
	f, err := os.OpenFile(target, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	current, err := io.ReadAll(f)
	if err == nil && !bytes.Equal(current, original) {
		err = changedError(name)
	}
	if err == nil {
		_, err = f.WriteAt(data, 0)
	}
	if err == nil {
		err = f.Truncate(int64(len(data)))
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// syncDir flushes a directory's entries to disk, so that a rename in it
// survives a crash; where that is not possible it does nothing.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
}

// removeStaleTemps removes the temporary files in dir that a Write of a
// process no longer running left behind, and tells note of each.
func removeStaleTemps(dir string, note func(string)) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		pid, ok := tempOwner(e.Name())
		if !ok || !e.Type().IsRegular() || pid == os.Getpid() || alive(pid) {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if os.Remove(p) == nil {
			note(fmt.Sprintf("removed %s, left by an earlier tofulint --fix (process %d) that did not finish", p, pid))
		}
	}
}

// tempOwner returns the process id in the name of a temporary file of
// replace: .NAME.tofulint-PID-RANDOM.
func tempOwner(base string) (int, bool) {
	i := strings.LastIndex(base, ".tofulint-")
	if !strings.HasPrefix(base, ".") || i < 2 {
		return 0, false
	}
	pidText, random, ok := strings.Cut(base[i+len(".tofulint-"):], "-")
	if !ok || !allDigits(pidText) || !allDigits(random) {
		return 0, false
	}
	pid, err := strconv.Atoi(pidText)
	return pid, err == nil && pid > 0
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
