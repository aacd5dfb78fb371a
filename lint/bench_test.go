package lint

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/json"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/internal/corpus"
	"github.com/tofucue/tofucue/rules"
)

// The benchmarks lint the whole corpus (every module directory, as
// tofulint ../shared/corpus/... does) and compare with parsing its files
// alone, on the same number of CPUs:
//
//	go test ./lint -run '^$' -bench . -benchtime 5x
//
// BenchmarkParseOnly is the baseline; BenchmarkLintAllRules is tofulint's
// work with every rule enabled, without printing. scripts/bench-corpus
// measures the same for whole processes.

func corpusTargets(b *testing.B) []Target {
	b.Helper()
	targets, err := Expand([]string{corpus.Shared(b, "corpus") + "/..."}, false)
	if err != nil {
		b.Fatal(err)
	}
	return targets
}

func BenchmarkParseOnly(b *testing.B) {
	targets := corpusTargets(b)
	for b.Loop() {
		next := make(chan string)
		var wg sync.WaitGroup
		for range runtime.GOMAXPROCS(0) {
			wg.Go(func() {
				for dir := range next {
					parseDir(b, dir)
				}
			})
		}
		for _, t := range targets {
			next <- t.Dir
		}
		close(next)
		wg.Wait()
	}
}

// parseDir parses the configuration files that the loader reads in dir.
func parseDir(b *testing.B, dir string) {
	primary, override, _ := config.ModuleFiles(dir)
	for _, path := range slices.Concat(primary, override) {
		src, err := os.ReadFile(path)
		if err != nil {
			b.Error(err)
			return
		}
		if strings.HasSuffix(path, ".json") {
			_, _ = json.Parse(src, path)
		} else {
			_, _ = hclsyntax.ParseConfig(src, path, hcl.InitialPos)
		}
	}
}

func BenchmarkLintAllRules(b *testing.B) {
	targets := corpusTargets(b)
	// A configuration file that enables every rule, as --config gives one.
	cfgFile := filepath.Join(b.TempDir(), "all.hcl")
	var src strings.Builder
	for _, r := range rules.All() {
		src.WriteString("rule \"" + r.Name + "\" {\n  enabled = true\n}\n")
	}
	if err := os.WriteFile(cfgFile, []byte(src.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	findings := 0
	for b.Loop() {
		rep, diags := Run(targets, Options{ConfigFile: cfgFile})
		if diags.HasErrors() {
			b.Fatal(diags.Error())
		}
		findings = len(rep.Findings)
	}
	b.ReportMetric(float64(findings), "findings")
	b.ReportMetric(float64(len(targets)), "modules")
}
