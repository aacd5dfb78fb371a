package lint

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tofucue/tofucue/config"
)

// recursiveSuffix marks a path whose module directories are all linted,
// as in Go's package patterns: "DIR/..." is DIR and every directory below.
const recursiveSuffix = "/..."

// A Target is one module to lint and, when the user named files rather
// than the directory, the files whose findings to show.
type Target struct {
	Dir   string
	Files []string // nil for the whole module
}

// Expand turns command-line paths into targets, in the order given,
// without duplicates: each module is loaded once. A directory is a module
// directory; a file is one file of the module in its directory, and the
// files of one module named together (as pre-commit passes them) make one
// target, unless the whole module is named too; "DIR/..." (or any directory when
// recursive is set) stands for every module directory at or below DIR.
// No path means ".". A path that does not exist, a directory without
// configuration files, a file that is not a configuration file and a
// recursive path with no module below it are errors.
func Expand(paths []string, recursive bool) ([]Target, error) {
	if len(paths) == 0 {
		paths = []string{"."}
	}
	var targets []*Target
	byDir := map[string]*Target{}
	add := func(dir, file string) {
		t, ok := byDir[dir]
		if !ok {
			t = &Target{Dir: dir}
			byDir[dir] = t
			targets = append(targets, t)
			if file != "" {
				t.Files = []string{file}
			}
			return
		}
		switch {
		case file == "":
			t.Files = nil
		case len(t.Files) > 0 && !slices.Contains(t.Files, file):
			t.Files = append(t.Files, file)
		}
	}
	for _, p := range paths {
		root, isPattern := cutRecursive(p)
		fi, err := os.Stat(root)
		if err != nil {
			return nil, err
		}
		switch {
		case isPattern && !fi.IsDir():
			return nil, fmt.Errorf("%s: %s is not a directory", p, root)
		case isPattern || (recursive && fi.IsDir()):
			dirs, err := moduleDirs(root)
			if err != nil {
				return nil, err
			}
			if len(dirs) == 0 {
				return nil, fmt.Errorf("%s: no module directory (a directory with .tf, .tf.json, .tofu or .tofu.json files) at or below %s", p, root)
			}
			for _, d := range dirs {
				add(d, "")
			}
		case fi.IsDir():
			if !config.IsModuleDir(root) {
				return nil, fmt.Errorf("%s: not a module directory: no .tf, .tf.json, .tofu or .tofu.json file in it (%s lints the module directories below it)", p, filepath.Join(root, "..."))
			}
			add(filepath.Clean(root), "")
		default:
			if !isConfigFileName(fi.Name()) {
				return nil, fmt.Errorf("%s: not a configuration file (.tf, .tf.json, .tofu or .tofu.json)", p)
			}
			file := filepath.Clean(root)
			add(filepath.Dir(file), file)
		}
	}
	out := make([]Target, len(targets))
	for i, t := range targets {
		out[i] = *t
	}
	return out, nil
}

// cutRecursive strips a trailing "/..." from p, reporting whether it was
// there. "..." alone means "./...".
func cutRecursive(p string) (root string, ok bool) {
	if p == "..." {
		return ".", true
	}
	slashed := filepath.ToSlash(p)
	if root, ok := strings.CutSuffix(slashed, recursiveSuffix); ok {
		if root == "" {
			root = "/"
		}
		return filepath.FromSlash(root), true
	}
	return p, false
}

// moduleDirs returns root and every directory below it that holds at least
// one configuration file, in lexical order. Hidden directories (such as
// .terraform, where OpenTofu keeps downloaded modules, and .git) are
// skipped, and symbolic links are not followed.
func moduleDirs(root string) ([]string, error) {
	root = filepath.Clean(root)
	var dirs []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if path != root && strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir
		}
		if config.IsModuleDir(path) {
			dirs = append(dirs, path)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return dirs, nil
}

// isConfigFileName reports whether name ends like an OpenTofu
// configuration file.
func isConfigFileName(name string) bool {
	for _, suffix := range []string{".tf", ".tf.json", ".tofu", ".tofu.json"} {
		if strings.HasSuffix(name, suffix) {
			return true
		}
	}
	return false
}

// Filter narrows each target to its configuration files that match one of
// the glob patterns (filepath.Match syntax, relative to base, as TFLint's
// --filter takes them): only their findings are shown. A target none of
// whose files match still loads, and shows nothing. A malformed pattern is
// an error.
func Filter(targets []Target, patterns []string, base string) ([]Target, error) {
	if len(patterns) == 0 {
		return targets, nil
	}
	full := make([]string, len(patterns))
	for i, p := range patterns {
		full[i] = filepath.Join(base, p)
		if _, err := filepath.Match(full[i], ""); err != nil {
			return nil, fmt.Errorf("--filter %q: %w", p, err)
		}
	}
	out := make([]Target, 0, len(targets))
	for _, t := range targets {
		entries, err := os.ReadDir(t.Dir)
		if err != nil {
			return nil, err
		}
		files := []string{}
		for _, e := range entries {
			path := filepath.Join(t.Dir, e.Name())
			if e.IsDir() || !isConfigFileName(e.Name()) || t.Files != nil && !slices.Contains(t.Files, path) {
				continue
			}
			if slices.ContainsFunc(full, func(p string) bool { ok, _ := filepath.Match(p, path); return ok }) {
				files = append(files, path)
			}
		}
		out = append(out, Target{Dir: t.Dir, Files: files})
	}
	return out, nil
}
