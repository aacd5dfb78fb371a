package convert

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tofucue/tofucue/convert/lib"
	"github.com/tofucue/tofucue/internal/interrupt"
)

// cueLanguageVersion is the CUE language version the output is written
// for.
const cueLanguageVersion = "v0.17.0"

// Marker is the first line of every file hcl2cue writes into a module's
// cue.mod, so that it can tell its own output from a directory it must not
// replace.
const Marker = "// Written by hcl2cue convert."

// OutputFiles are all files of a converted module, by slash-separated path
// relative to the output directory: the converted files, cue.mod/module.cue
// and, when used, the tofu library.
func (r *Result) OutputFiles() (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, f := range r.Files {
		out[f.Name] = f.Source
	}
	out["cue.mod/module.cue"] = []byte(fmt.Sprintf("%s\nmodule: %q\nlanguage: version: %q\n", Marker, r.ModulePath+"@v0", cueLanguageVersion))
	for name, b := range r.embeds {
		out[name] = b
	}
	if r.Library {
		files, err := lib.Select(r.libraryUses())
		if err != nil {
			return nil, err
		}
		for name, b := range files {
			out[libImport+"/"+name] = b
		}
	}
	return out, nil
}

// libraryUses names the library's definitions that r's files use, in
// the order of their first use. It reads the text for "tofu.#NAME" after
// a character that cannot end an identifier: a use in a comment or a
// string keeps a definition that is not needed, and none is missed.
func (r *Result) libraryUses() []string {
	sel := []byte(libImport + ".#")
	seen := map[string]bool{}
	var names []string
	for _, f := range r.Files {
		src := f.Source
		for i := bytes.Index(src, sel); i >= 0; i = bytes.Index(src, sel) {
			before := i > 0 && isIdentByte(src[i-1])
			src = src[i+len(sel):]
			n := 0
			for n < len(src) && isIdentByte(src[n]) {
				n++
			}
			if name := "#" + string(src[:n]); !before && n > 0 && !seen[name] {
				seen[name] = true
				names = append(names, name)
			}
		}
	}
	return names
}

func isIdentByte(b byte) bool {
	return b == '_' || b == '#' || b == '$' || '0' <= b && b <= '9' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z'
}

// ManifestName is the file, in the output's cue.mod, that lists the files
// hcl2cue convert wrote there, one slash-separated path a line after a
// first line that is Marker, so that the next convert -o into the same
// directory replaces those and keeps every other file.
const ManifestName = "cue.mod/hcl2cue-files.txt"

// Write writes the converted module into dir. It builds the whole tree
// in a new directory beside dir and then moves it into place, so that dir
// is never left half-written. An existing dir is replaced only when it is
// empty or was written by hcl2cue; then the files that the earlier convert
// wrote (its ManifestName, or for an output without one the *.cue files at
// its top and in tofu/ and cue.mod/module.cue) are replaced or removed,
// and every other file and directory in it (the user's, and the outputs of
// the modules below in a batch conversion) is kept: hard-linked into the
// new tree, or copied where links are not possible. A file of the user's
// at a path that convert now writes is an error, and nothing is written.
func (r *Result) Write(dir string) error {
	// An interrupt waits until the output is in place (or untouched) and
	// the temporary directory gone.
	release := interrupt.Hold()
	defer release()
	files, err := r.OutputFiles()
	if err != nil {
		return err
	}
	files[ManifestName] = manifest(files)
	dir = filepath.Clean(dir)
	if err := replaceable(dir); err != nil {
		return err
	}
	keep, err := userFiles(dir, files)
	if err != nil {
		return err
	}
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(dir)+".hcl2cue-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	for _, k := range keep {
		if err := carry(filepath.Join(dir, k.path), filepath.Join(tmp, k.path), k.mode); err != nil {
			return fmt.Errorf("keeping %s: %w", filepath.Join(dir, k.path), err)
		}
	}
	for name, b := range files {
		p := filepath.Join(tmp, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return err
		}
	}
	// The kept directories' modes, once nothing more goes into them.
	for _, k := range slices.Backward(keep) {
		if k.mode.IsDir() {
			if err := os.Chmod(filepath.Join(tmp, k.path), k.mode.Perm()); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
	}
	mode := fs.FileMode(0o755)
	if fi, err := os.Stat(dir); err == nil {
		mode = fi.Mode().Perm()
	}
	if err := os.Chmod(tmp, mode); err != nil {
		return err
	}
	if _, err := os.Stat(dir); err == nil {
		old := tmp + ".old"
		if err := os.Rename(dir, old); err != nil {
			return err
		}
		if err := os.Rename(tmp, dir); err != nil {
			_ = os.Rename(old, dir)
			return err
		}
		return os.RemoveAll(old)
	}
	return os.Rename(tmp, dir)
}

// manifest returns the content of ManifestName for files, which it lists
// with itself.
func manifest(files map[string][]byte) []byte {
	names := slices.Sorted(maps.Keys(files))
	if !slices.Contains(names, ManifestName) {
		names = append(names, ManifestName)
		slices.Sort(names)
	}
	return []byte(Marker + "\n" + strings.Join(names, "\n") + "\n")
}

// kept is an entry of an earlier output that the new one keeps.
type kept struct {
	path string // relative to the output directory, in the OS's form
	mode fs.FileMode
}

// userFiles returns the entries of the earlier output in dir that
// convert did not write, parents before children; a file among them at a
// path of files is an error.
func userFiles(dir string, files map[string][]byte) ([]kept, error) {
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	owned, err := ownedFiles(dir)
	if err != nil {
		return nil, err
	}
	var out, dirModes []kept
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == dir {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		slashed := filepath.ToSlash(rel)
		if d.IsDir() {
			// Made with the files kept in it, or alone when the user
			// made it empty; one that held only convert's files goes.
			fi, err := d.Info()
			if err != nil {
				return err
			}
			entries, err := os.ReadDir(p)
			if err != nil {
				return err
			}
			if len(entries) == 0 {
				out = append(out, kept{rel, fi.Mode()})
			} else {
				dirModes = append(dirModes, kept{rel, fi.Mode()})
			}
			return nil
		}
		if owned(slashed) {
			return nil
		}
		if _, clash := files[slashed]; clash {
			return fmt.Errorf("%s was not written by hcl2cue convert, and the conversion writes a file of that name; move it away or choose another output directory", p)
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		out = append(out, kept{rel, fi.Mode()})
		return nil
	})
	// The modes of the directories that hold kept entries, set last.
	holding := map[string]bool{}
	for _, k := range out {
		for d := filepath.Dir(k.path); d != "." && !holding[d]; d = filepath.Dir(d) {
			holding[d] = true
		}
	}
	for _, d := range dirModes {
		if holding[d.path] {
			out = append(out, d)
		}
	}
	return out, err
}

// ownedFiles returns the test for the files that the earlier convert
// wrote in dir: those its manifest lists or, for an output written before
// there was one, those that convert writes by name.
func ownedFiles(dir string) (func(slashed string) bool, error) {
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(ManifestName)))
	if errors.Is(err, fs.ErrNotExist) {
		return func(p string) bool {
			if p == "cue.mod/module.cue" {
				return true
			}
			d, f := path.Split(p)
			return (d == "" || d == "tofu/") && strings.HasSuffix(f, ".cue")
		}, nil
	}
	if err != nil {
		return nil, err
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(lines) == 0 || lines[0] != Marker {
		return nil, fmt.Errorf("%s: not a list of files written by hcl2cue convert (its first line is not %q); remove it or choose another output directory", filepath.Join(dir, filepath.FromSlash(ManifestName)), Marker)
	}
	set := map[string]bool{}
	for _, l := range lines[1:] {
		set[l] = true
	}
	return func(p string) bool { return set[p] }, nil
}

// carry puts the entry from, of mode, at to: a directory is made, a
// symbolic link copied, and anything else hard-linked, or copied where
// that fails.
func carry(from, to string, mode fs.FileMode) error {
	if mode.IsDir() {
		return os.MkdirAll(to, 0o700)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o700); err != nil {
		return err
	}
	if mode&fs.ModeSymlink != 0 {
		target, err := os.Readlink(from)
		if err != nil {
			return err
		}
		return os.Symlink(target, to)
	}
	if err := os.Link(from, to); err == nil {
		return nil
	}
	if !mode.IsRegular() {
		return fmt.Errorf("cannot link a %v into the new output", mode.Type())
	}
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode.Perm())
	if err != nil {
		return err
	}
	_, err = io.Copy(dst, src)
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	return err
}

// replaceable checks that dir does not exist, is empty, or holds an
// earlier hcl2cue output.
func replaceable(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if len(entries) == 0 {
		return nil
	}
	b, err := os.ReadFile(filepath.Join(dir, "cue.mod", "module.cue"))
	if err == nil && len(b) >= len(Marker) && string(b[:len(Marker)]) == Marker {
		return nil
	}
	return fmt.Errorf("%s exists and was not written by hcl2cue; choose another output directory or remove it", dir)
}
