package config

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
)

// corpusModuleDirs lists every module directory of the corpus: every
// directory that holds at least one configuration file.
func corpusModuleDirs(t testing.TB) []string {
	root := sharedDir(t, "corpus")
	var dirs []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && IsModuleDir(path) {
			dirs = append(dirs, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(dirs)
	return dirs
}

// corpusNotModules are corpus directories that hold configuration files but
// are not modules, with the reason. The loader must still report their
// errors: a module built from them would be invalid.
var corpusNotModules = map[string]string{
	"GoogleCloudPlatform__cloud-foundation-fabric/tests/fixtures": "fixture files that the tests copy one at a time into other modules; together they declare the same resources twice, and OpenTofu rejects the directory as a module",
}

// TestCorpus loads every module directory of the real-module corpus. Each
// is accepted by OpenTofu, so each must load with no errors.
func TestCorpus(t *testing.T) {
	dirs := corpusModuleDirs(t)
	start := time.Now()
	root := sharedDir(t, "corpus")
	failed, warnings, files, notModules := 0, 0, 0, 0
	for _, dir := range dirs {
		rel, _ := filepath.Rel(root, dir)
		if reason, ok := corpusNotModules[filepath.ToSlash(rel)]; ok {
			notModules++
			if _, diags := Load(dir); !diags.HasErrors() {
				t.Errorf("%s: want errors (%s), got none", rel, reason)
			}
			continue
		}
		m, diags := Load(dir)
		if m != nil {
			files += len(m.Files)
		}
		for _, d := range diags {
			if d.Severity == hcl.DiagWarning {
				warnings++
			}
		}
		if diags.HasErrors() {
			failed++
			for _, d := range diags {
				if d.Severity == hcl.DiagError {
					t.Errorf("%s", d)
				}
			}
		}
	}
	elapsed := time.Since(start)
	modules := len(dirs) - notModules
	fmt.Printf("corpus: %d of %d module directories loaded with no errors (%d files, %d warnings) in %s; %d directories are not modules and were checked to fail\n",
		modules-failed, modules, files, warnings, elapsed.Round(time.Millisecond), notModules)
}

// BenchmarkLoadCorpus measures loading the whole corpus once per iteration.
func BenchmarkLoadCorpus(b *testing.B) {
	dirs := corpusModuleDirs(b)
	b.ResetTimer()
	for b.Loop() {
		for _, dir := range dirs {
			_, _ = Load(dir)
		}
	}
}

// BenchmarkParseCorpus is the baseline for BenchmarkLoadCorpus: it only
// reads and parses the same files with hclparse, without decoding them.
// The ratio of the two is the cost of decoding, checking and merging.
func BenchmarkParseCorpus(b *testing.B) {
	dirs := corpusModuleDirs(b)
	var paths []string
	for _, dir := range dirs {
		p, o, _ := ModuleFiles(dir)
		paths = append(append(paths, p...), o...)
	}
	b.ResetTimer()
	for b.Loop() {
		parser := hclparse.NewParser()
		for _, path := range paths {
			src, err := os.ReadFile(path)
			if err != nil {
				b.Fatal(err)
			}
			if strings.HasSuffix(path, ".json") {
				_, _ = parser.ParseJSON(src, path)
			} else {
				_, _ = parser.ParseHCL(src, path)
			}
		}
	}
}
