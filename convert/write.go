package convert

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/tofucue/tofucue/convert/lib"
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
	if r.Library {
		entries, err := fs.ReadDir(lib.Files, ".")
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			b, err := fs.ReadFile(lib.Files, e.Name())
			if err != nil {
				return nil, err
			}
			out["tofu/"+e.Name()] = b
		}
	}
	return out, nil
}

// Write writes the converted module into dir. It builds the whole tree
// in a new directory beside dir and then moves it into place, so that dir
// is never left half-written. An existing dir is replaced only when it is
// empty or was written by hcl2cue.
func (r *Result) Write(dir string) error {
	files, err := r.OutputFiles()
	if err != nil {
		return err
	}
	dir = filepath.Clean(dir)
	if err := replaceable(dir); err != nil {
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
	for name, b := range files {
		p := filepath.Join(tmp, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return err
		}
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
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
