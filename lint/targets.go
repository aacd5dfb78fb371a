package cli

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/tofucue/tofucue/config"
)

// recursiveSuffix marks a path whose module directories are all linted,
// as in Go's package patterns: "DIR/..." is DIR and every directory below.
const recursiveSuffix = "/..."

// A target is one module to load and, when the user named a file rather
// than a directory, the file whose diagnostics to show.
type target struct {
	dir  string
	file string // "" for the whole module
}

// expandPaths turns command-line paths into targets, in the order given,
// without duplicates. A directory is a module directory; a file is the one
// file of the module in its directory; "DIR/..." (or any directory when
// recursive is set) stands for every module directory at or below DIR.
// No path means ".". A path that does not exist, a directory without
// configuration files, a file that is not a configuration file and a
// recursive path with no module below it are errors.
func expandPaths(paths []string, recursive bool) ([]target, error) {
	if len(paths) == 0 {
		paths = []string{"."}
	}
	var targets []target
	seen := map[target]bool{}
	add := func(t target) {
		if !seen[t] {
			seen[t] = true
			targets = append(targets, t)
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
				add(target{dir: d})
			}
		case fi.IsDir():
			if !config.IsModuleDir(root) {
				return nil, fmt.Errorf("%s: not a module directory: no .tf, .tf.json, .tofu or .tofu.json file in it (%s lints the module directories below it)", p, filepath.Join(root, "..."))
			}
			add(target{dir: filepath.Clean(root)})
		default:
			if !isConfigFileName(fi.Name()) {
				return nil, fmt.Errorf("%s: not a configuration file (.tf, .tf.json, .tofu or .tofu.json)", p)
			}
			file := filepath.Clean(root)
			add(target{dir: filepath.Dir(file), file: file})
		}
	}
	return targets, nil
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
