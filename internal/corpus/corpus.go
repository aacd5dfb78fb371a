// Package corpus finds the shared test material that lives beside the
// repository: the real-module corpus (../shared/corpus) and OpenTofu's
// configuration test files (../shared/conformance). Tests and benchmarks of
// several packages use it; the material is never copied into the repository.
package corpus

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// Shared returns the directory ../shared/sub beside the repository, and
// skips the test when it is not there.
func Shared(tb testing.TB, sub string) string {
	tb.Helper()
	_, here, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(here), "..", "..", "..", "shared", sub)
	if _, err := os.Stat(dir); err != nil {
		tb.Skipf("%s not found (it lives beside the repository): %v", dir, err)
	}
	return dir
}

// NotModules are corpus directories that hold configuration files but are
// not modules, keyed by their path below the corpus, with the reason. Tests
// require that loading them fails.
var NotModules = map[string]string{
	"GoogleCloudPlatform__cloud-foundation-fabric/tests/fixtures": "fixture files that the tests copy one at a time into other modules; together they declare the same resources twice, and OpenTofu rejects the directory as a module",
}

// Templates are corpus directories whose files are templates that a
// generator renders, not modules, keyed by their path below the corpus:
// their variables are declared elsewhere, so references in them do not
// resolve. Loading them works; tests that check references skip them.
var Templates = map[string]string{
	"terraform-aws-modules__terraform-aws-security-group/modules/_templates": "templates that the module's generator renders into each modules/NAME, where the variables they read are declared",
}

// Dir is one corpus directory that holds configuration files.
type Dir struct {
	Path string
	// Rel is the path below the corpus, with forward slashes.
	Rel string
	// NotModule is the reason the directory is not a module, or "".
	NotModule string
}

// ModuleDirs lists every corpus directory that holds at least one
// configuration file, in lexical order.
func ModuleDirs(tb testing.TB) []Dir {
	tb.Helper()
	root := Shared(tb, "corpus")
	var dirs []Dir
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() || !hasConfigFile(path) {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		dirs = append(dirs, Dir{Path: path, Rel: rel, NotModule: NotModules[rel]})
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	sort.Slice(dirs, func(i, j int) bool { return dirs[i].Path < dirs[j].Path })
	return dirs
}

func hasConfigFile(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || strings.HasPrefix(name, ".") {
			continue
		}
		for _, suffix := range []string{".tf", ".tf.json", ".tofu", ".tofu.json"} {
			if strings.HasSuffix(name, suffix) {
				return true
			}
		}
	}
	return false
}
