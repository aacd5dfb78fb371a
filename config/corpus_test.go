package config

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"

	"github.com/tofucue/tofucue/internal/corpus"
)

// TestCorpus loads every module directory of the real-module corpus. Each
// is accepted by OpenTofu, so each must load with no errors.
func TestCorpus(t *testing.T) {
	dirs := corpus.ModuleDirs(t)
	start := time.Now()
	failed, warnings, files, notModules := 0, 0, 0, 0
	for _, dir := range dirs {
		if dir.NotModule != "" {
			notModules++
			if _, diags := Load(dir.Path); !diags.HasErrors() {
				t.Errorf("%s: want errors (%s), got none", dir.Rel, dir.NotModule)
			}
			continue
		}
		m, diags := Load(dir.Path)
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
	dirs := corpus.ModuleDirs(b)
	b.ResetTimer()
	for b.Loop() {
		for _, dir := range dirs {
			_, _ = Load(dir.Path)
		}
	}
}

// BenchmarkParseCorpus is the baseline for BenchmarkLoadCorpus: it only
// reads and parses the same files with hclparse, without decoding them.
// The ratio of the two is the cost of decoding, checking and merging.
func BenchmarkParseCorpus(b *testing.B) {
	dirs := corpus.ModuleDirs(b)
	var paths []string
	for _, dir := range dirs {
		p, o, _ := ModuleFiles(dir.Path)
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
