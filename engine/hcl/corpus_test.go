package hcl

import (
	"cmp"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/engine/inputs"
	"github.com/tofucue/tofucue/internal/corpus"
)

// corpusModule is a corpus module directory that can be planned: it
// loads. Calls of modules the corpus does not hold are not available, and
// plan with unknown outputs.
type corpusModule struct {
	rel  string
	tree *Tree
}

// plannableCorpus loads every corpus module directory and sorts them into
// those that can be planned and those that cannot (not modules, load
// errors), with the reason. Registry modules the corpus holds are read
// from it (corpus.Mappings).
func plannableCorpus(tb testing.TB) (mods []corpusModule, skipped map[string]int) {
	skipped = map[string]int{}
	sources := config.NewSources(config.SourceOptions{Mappings: corpus.Mappings(tb), AllowRead: corpus.AllowRead(tb)})
	for _, dir := range corpus.ModuleDirs(tb) {
		if dir.NotModule != "" || corpus.Templates[dir.Rel] != "" {
			skipped["not a module"]++
			continue
		}
		tree, diags := config.LoadTree(dir.Path, sources)
		if diags.HasErrors() {
			skipped["does not load"]++
			continue
		}
		mods = append(mods, corpusModule{rel: dir.Rel, tree: tree})
	}
	return mods, skipped
}

// TestCorpus plans every corpus module, with inferred schemas and
// synthesized inputs. Planning must
// never panic; -v prints the counts and the reasons for failures, by
// frequency, with one example each (TOFUCUE_CORPUS_ALL=1: every failing
// module). TOFUCUE_CORPUS_ONLY=TEXT plans only the modules whose path
// contains TEXT, and logs every plan that --synthesize's search makes;
// TOFUCUE_SYNTHESIS_PLANS=N bounds the search at N plans (-1: none).
func TestCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("planning the corpus is not short")
	}
	mods, skipped := plannableCorpus(t)
	planned, tried, unavailable := 0, 0, 0
	for _, cm := range mods {
		if len(cm.tree.Unavailable()) > 0 {
			unavailable++
		}
	}
	// searched holds, for each module that planned after the search, the
	// plans it took.
	var searched []int
	bound, _ := strconv.Atoi(os.Getenv("TOFUCUE_SYNTHESIS_PLANS"))
	reasons := map[string][]string{}
	only := os.Getenv("TOFUCUE_CORPUS_ONLY")
	if only != "" {
		traceSynthesis = func(s string) { t.Log(s) }
		defer func() { traceSynthesis = nil }()
	}
	for _, cm := range mods {
		if only != "" && !strings.Contains(cm.rel, only) {
			continue
		}
		tried++
		p, diags := Plan(cm.tree, Options{Inputs: inputs.Sources{Synthesize: true}, MaxSynthesisPlans: bound})
		if !diags.HasErrors() {
			planned++
			for _, note := range p.Notes {
				if _, rest, ok := strings.Cut(note, "did not plan; after "); ok {
					n, _ := strconv.Atoi(strings.Fields(rest)[0])
					searched = append(searched, n)
					if os.Getenv("TOFUCUE_CORPUS_ALL") != "" {
						t.Logf("SEARCHED %s: %s", cm.rel, note)
					}
				}
			}
			continue
		}
		summary, example := firstError(diags)
		reasons[summary] = append(reasons[summary], cm.rel+": "+example)
		if os.Getenv("TOFUCUE_CORPUS_ALL") != "" {
			t.Logf("FAIL %s: %s: %s", cm.rel, summary, example)
		}
	}
	t.Logf("corpus: %d planned, %d failed, of %d plannable (%d call modules that are not available); skipped: %v", planned, tried-planned, tried, unavailable, skipped)
	slices.Sort(searched)
	t.Logf("--synthesize's search made %d of them plan, with these numbers of plans beyond the first: %v", len(searched), searched)
	for _, why := range slices.SortedFunc(maps.Keys(reasons), func(a, b string) int {
		return cmp.Or(len(reasons[b])-len(reasons[a]), strings.Compare(a, b))
	}) {
		t.Logf("%4d  %s  (e.g. %s)", len(reasons[why]), why, reasons[why][0])
	}
}

// firstError is the first error's summary, and its detail and position.
func firstError(diags hcl.Diagnostics) (summary, example string) {
	for _, d := range diags {
		if d.Severity != hcl.DiagError {
			continue
		}
		example = firstLine(d.Detail)
		if d.Subject != nil {
			example = fmt.Sprintf("%s:%d: %s", filepath.Base(d.Subject.Filename), d.Subject.Start.Line, example)
		}
		return d.Summary, example
	}
	return "", ""
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 140 {
		s = s[:140] + "..."
	}
	return s
}

// BenchmarkCorpusLoad loads every plannable corpus module tree once per
// iteration: the baseline for BenchmarkCorpus (planning includes no
// loading), ns/module the time per module.
func BenchmarkCorpusLoad(b *testing.B) {
	mods, _ := plannableCorpus(b)
	b.ResetTimer()
	for b.Loop() {
		for _, cm := range mods {
			_, _ = Load(cm.tree.Root.Dir)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(mods)), "ns/module")
}

// BenchmarkCorpus plans every plannable corpus module once per iteration;
// ns/module is the time per module.
func BenchmarkCorpus(b *testing.B) {
	mods, _ := plannableCorpus(b)
	b.ResetTimer()
	for b.Loop() {
		for _, cm := range mods {
			_, _ = Plan(cm.tree, Options{Inputs: inputs.Sources{Synthesize: true}})
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(mods)), "ns/module")
}
