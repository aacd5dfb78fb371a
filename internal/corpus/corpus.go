// Package corpus finds the shared test material that lives beside the
// repository: the real-module corpus (../shared/corpus) and OpenTofu's
// configuration test files (../shared/conformance). Tests and benchmarks of
// several packages use it; the material is never copied into the repository.
//
// The tests that go over the whole corpus take minutes, so they run only
// when the environment variable TOFUCUE_CORPUS is 1 (.ci/run sets it):
//
//	TOFUCUE_CORPUS=1 go test ./convert -run TestCorpus -v
//
// go test caches a test's result with the environment variables it read
// and the files it opened, but it rechecks only the files inside the Go
// module: a file read as ../shared/... would never make a cached result
// stale. So the material is read through testdata/shared, a symbolic link
// in this package's directory to ../shared beside the repository, and
// every file and directory a test reads there is one go test checks again.
package corpus

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
)

// Env is the environment variable that turns the corpus-wide tests on.
const Env = "TOFUCUE_CORPUS"

// sharedLink is the symbolic link to ../shared, below this package's
// directory.
const sharedLink = "testdata/shared"

var missing struct {
	once sync.Once
	said bool
}

// Shared returns the directory sub of ../shared beside the repository,
// through testdata/shared, and skips the test when it is not there: the
// first test to skip says why, the others refer to it.
func Shared(tb testing.TB, sub string) string {
	tb.Helper()
	_, here, _, _ := runtime.Caller(0)
	link := filepath.Join(filepath.Dir(here), filepath.FromSlash(sharedLink))
	dir := filepath.Join(link, sub)
	if _, err := os.Stat(dir); err != nil {
		first := false
		missing.once.Do(func() { first = true })
		if first {
			tb.Skipf("%s is missing: the shared test material (the corpus, the conformance files) must sit beside the repository, as ../shared; %s links to it. The tests that read it are skipped", filepath.Join(filepath.Dir(here), "..", "..", "..", "shared", sub), link)
		}
		tb.Skipf("%s is missing (see the first skip)", filepath.Join("..", "shared", sub))
	}
	return dir
}

// Require skips a test that goes over the whole corpus unless TOFUCUE_CORPUS
// is set (to 1; "" and 0 are off); benchmarks, which run only on request,
// are not skipped.
func Require(tb testing.TB) {
	tb.Helper()
	if _, bench := tb.(*testing.B); bench {
		return
	}
	if !Enabled() {
		name, _, _ := strings.Cut(tb.Name(), "/")
		tb.Skipf("a corpus-wide test, run with %s=1 (.ci/run sets it): %s=1 go test -run '^%s$' -v %s", Env, Env, name, packageDir())
	}
}

// Enabled reports whether the corpus-wide tests run: TOFUCUE_CORPUS is
// set, to 1 ("" and 0 are off).
func Enabled() bool {
	v := os.Getenv(Env)
	return v != "" && v != "0"
}

// packageDir is the directory of the package under test (go test runs a
// test in it) relative to the repository's root, as ./dir.
func packageDir() string {
	_, here, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(here), "..", "..")
	wd, err := os.Getwd()
	if err != nil {
		return "./PACKAGE"
	}
	rel, err := filepath.Rel(root, wd)
	if err != nil || strings.HasPrefix(rel, "..") {
		return "./PACKAGE"
	}
	return "./" + filepath.ToSlash(rel)
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
// configuration file, in lexical order. A test that calls it goes over the
// corpus: it is skipped unless TOFUCUE_CORPUS is 1 (see Require).
func ModuleDirs(tb testing.TB) []Dir {
	tb.Helper()
	Require(tb)
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
