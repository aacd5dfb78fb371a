package rules

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/internal/corpus"
)

// TestCorpus runs every rule over every corpus module: it must not crash,
// and it prints the findings per rule. The corpus modules predate the
// opt-in features, so a finding of the feature rules there would be a
// false positive; the test fails on any. Findings of the other rules are
// listed with -v.
func TestCorpus(t *testing.T) {
	sel, err := Config{}.Select()
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	perRule := map[string]int{}
	modules := 0
	for _, dir := range corpus.ModuleDirs(t) {
		if dir.NotModule != "" {
			continue
		}
		m, diags := config.Load(dir.Path)
		modules++
		for _, f := range Run(m, diags, sel, Config{ReportUnusedIgnores: true}) {
			perRule[f.Rule]++
			if !slices.Contains(featureRules, Lookup(f.Rule)) {
				t.Logf("%s: %s:%d: %s %s: %s", dir.Rel, f.Range.Filename, f.Range.Start.Line, f.Severity, f.Rule, f.Message)
				continue
			}
			t.Errorf("%s: %s:%d: %s: %s", dir.Rel, f.Range.Filename, f.Range.Start.Line, f.Rule, f.Message)
		}
	}
	var counts []string
	for _, r := range All() {
		counts = append(counts, fmt.Sprintf("%s=%d", r.Name, perRule[r.Name]))
	}
	sort.Strings(counts)
	fmt.Printf("rules corpus: %d modules, %d rules, findings %s, in %s\n", modules, len(sel), strings.Join(counts, " "), time.Since(start).Round(time.Millisecond))
}
