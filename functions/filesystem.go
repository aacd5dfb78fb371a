package functions

import (
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/tofucue/tofucue/internal/source"
)

// files makes the functions that read files: relative paths are resolved
// against baseDir, and nothing outside root is read.
type files struct {
	baseDir, root string
}

// outsideError is the error for a path that leads out of the base
// directory.
func (f *files) outsideError(p string) error {
	return fmt.Errorf("cannot use %q: it is outside the module directory %s, and functions here read only files inside it", p, f.root)
}

// open resolves p (relative paths against the base directory, a leading ~
// as the home directory, as OpenTofu does) and opens the directory tree it
// must stay in. rel is p relative to that tree.
func (f *files) open(p string) (root *os.Root, rel string, err error) {
	full, err := expandHome(p)
	if err != nil {
		return nil, "", fmt.Errorf("failed to expand ~: %w", err)
	}
	base, top, err := f.dirs()
	if err != nil {
		return nil, "", err
	}
	if !filepath.IsAbs(full) {
		full = filepath.Join(base, full)
	}
	rel, err = filepath.Rel(top, filepath.Clean(full))
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil, "", f.outsideError(p)
	}
	root, err = os.OpenRoot(top)
	if err != nil {
		return nil, "", err
	}
	return root, rel, nil
}

// dirs gives the absolute base and root directories.
func (f *files) dirs() (base, root string, err error) {
	if base, err = filepath.Abs(f.baseDir); err != nil {
		return "", "", err
	}
	root, err = filepath.Abs(f.root)
	return base, root, err
}

// escaped tells whether err is os.Root refusing a path (through a symbolic
// link) that leaves the tree.
func escaped(err error) bool {
	return err != nil && strings.Contains(err.Error(), "path escapes from parent")
}

// read reads a whole file.
func (f *files) read(p string) ([]byte, error) {
	root, rel, err := f.open(p)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	b, err := source.ReadFileIn(root, rel)
	var notRegular *source.NotRegularError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("no file exists at %q; this function works only with files that are distributed as part of the configuration source code, so if this file will be created by a resource in this configuration you must instead obtain this result from an attribute of that resource", p)
	case escaped(err):
		return nil, f.outsideError(p)
	case errors.As(err, &notRegular):
		return nil, fmt.Errorf("failed to read file: %q is %s, not a regular file; the file functions read only regular files", p, source.DescribeMode(notRegular.Mode))
	case err != nil:
		return nil, fmt.Errorf("failed to read file: %w", err)
	}
	return b, nil
}

// fileFunc reads a file as UTF-8 text, or as Base64 of its bytes.
func (f *files) fileFunc(asBase64 bool) function.Function {
	return function.New(&function.Spec{
		Params:       []function.Parameter{{Name: "path", Type: cty.String}},
		Type:         function.StaticReturnType(cty.String),
		RefineResult: refineNotNull,
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			p := args[0].AsString()
			b, err := f.read(p)
			if err != nil {
				return cty.UnknownVal(cty.String), function.NewArgError(0, err)
			}
			if asBase64 {
				return cty.StringVal(base64.StdEncoding.EncodeToString(b)), nil
			}
			if !utf8.Valid(b) {
				return cty.UnknownVal(cty.String), fmt.Errorf("contents of %q are not valid UTF-8; use the filebase64 function to obtain the Base64 encoded contents or the other file functions (e.g. filemd5, filesha256) to obtain file hashing results instead", p)
			}
			return cty.StringVal(string(b)), nil
		},
	})
}

// hashFunc makes one of the file hash functions.
func (f *files) hashFunc(digest func([]byte) string) function.Function {
	return function.New(&function.Spec{
		Params:       []function.Parameter{{Name: "path", Type: cty.String}},
		Type:         function.StaticReturnType(cty.String),
		RefineResult: refineNotNull,
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			b, err := f.read(args[0].AsString())
			if err != nil {
				return cty.UnknownVal(cty.String), err
			}
			return cty.StringVal(digest(b)), nil
		},
	})
}

// fileExistsFunc tells whether a regular file exists; a directory or other
// special file is an error.
func (f *files) fileExistsFunc() function.Function {
	return function.New(&function.Spec{
		Params:       []function.Parameter{{Name: "path", Type: cty.String}},
		Type:         function.StaticReturnType(cty.Bool),
		RefineResult: refineNotNull,
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			p := args[0].AsString()
			root, rel, err := f.open(p)
			if err != nil {
				return cty.UnknownVal(cty.Bool), err
			}
			defer root.Close()
			fi, err := root.Stat(rel)
			switch {
			case errors.Is(err, fs.ErrNotExist):
				return cty.False, nil
			case escaped(err):
				return cty.UnknownVal(cty.Bool), f.outsideError(p)
			case err != nil:
				return cty.UnknownVal(cty.Bool), fmt.Errorf("failed to stat %q", p)
			}
			mode := fi.Mode()
			switch {
			case mode.IsRegular():
				return cty.True, nil
			case mode.IsDir():
				err = fmt.Errorf("%q is a directory, not a file", p)
			default:
				err = fmt.Errorf("%q is %s, not a regular file", p, source.DescribeMode(mode))
			}
			return cty.False, function.NewArgError(0, err)
		},
	})
}

// fileSetFunc lists the regular files under a directory that match a glob
// pattern (with ** and {a,b}), relative to that directory, with forward
// slashes.
func (f *files) fileSetFunc() function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{
			{Name: "path", Type: cty.String},
			{Name: "pattern", Type: cty.String},
		},
		Type:         function.StaticReturnType(cty.Set(cty.String)),
		RefineResult: refineNotNull,
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			dir, pattern := args[0].AsString(), args[1].AsString()
			base, top, err := f.dirs()
			if err != nil {
				return cty.UnknownVal(retType), err
			}
			if !filepath.IsAbs(dir) {
				dir = filepath.Join(base, dir)
			}
			relDir, err := filepath.Rel(top, filepath.Clean(dir))
			if err != nil {
				return cty.UnknownVal(retType), f.outsideError(args[0].AsString())
			}
			relDir = filepath.ToSlash(relDir)
			full := path.Join(relDir, filepath.ToSlash(pattern))
			if full == ".." || strings.HasPrefix(full, "../") {
				return cty.UnknownVal(retType), f.outsideError(filepath.Join(args[0].AsString(), pattern))
			}
			root, err := os.OpenRoot(top)
			if err != nil {
				return cty.UnknownVal(retType), err
			}
			defer root.Close()
			fsys := root.FS()
			matches, err := doublestar.Glob(fsys, full)
			if err != nil {
				return cty.UnknownVal(retType), fmt.Errorf("failed to glob pattern %q: %w", filepath.Join(dir, pattern), err)
			}
			var out []cty.Value
			for _, m := range matches {
				fi, err := fs.Stat(fsys, m)
				if escaped(err) {
					continue // a link out of the directory: not ours to read
				}
				if err != nil {
					return cty.UnknownVal(retType), fmt.Errorf("failed to stat %q: %w", m, err)
				}
				if !fi.Mode().IsRegular() {
					continue
				}
				if relDir != "." {
					m = strings.TrimPrefix(m, relDir+"/")
				}
				out = append(out, cty.StringVal(m))
			}
			if len(out) == 0 {
				return cty.SetValEmpty(cty.String), nil
			}
			return cty.SetVal(out), nil
		},
	})
}

// absPathFunc makes a path absolute. A relative path is taken relative to
// the base directory, where OpenTofu would run.
func (f *files) absPathFunc() function.Function {
	return function.New(&function.Spec{
		Params:       []function.Parameter{{Name: "path", Type: cty.String}},
		Type:         function.StaticReturnType(cty.String),
		RefineResult: refineNotNull,
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			p := args[0].AsString()
			if !filepath.IsAbs(p) {
				base, err := filepath.Abs(f.baseDir)
				if err != nil {
					return cty.UnknownVal(cty.String), err
				}
				p = filepath.Join(base, p)
			}
			return cty.StringVal(filepath.ToSlash(filepath.Clean(p))), nil
		},
	})
}

var (
	basenameFunc = stringFunc(filepath.Base)
	dirnameFunc  = stringFunc(filepath.Dir)
)

// pathExpandFunc replaces a leading ~ with the home directory.
var pathExpandFunc = function.New(&function.Spec{
	Params:       []function.Parameter{{Name: "path", Type: cty.String}},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		p, err := expandHome(args[0].AsString())
		if err != nil {
			return cty.UnknownVal(cty.String), err
		}
		return cty.StringVal(p), nil
	},
})

// expandHome replaces a leading "~" path segment with the home directory;
// "~user" is not supported.
func expandHome(p string) (string, error) {
	if p == "" || p[0] != '~' {
		return p, nil
	}
	if len(p) > 1 && p[1] != '/' && p[1] != '\\' {
		return "", errors.New("cannot expand user-specific home dir")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, p[1:]), nil
}
