package convert

import (
	"sort"
	"strings"
	"testing"

	"cuelang.org/go/cue/cuecontext"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/internal/corpus"
)

// TestCorpus converts every corpus module. It must not crash, every
// converted module must load with cue/load, and a module is either fully
// converted or every placeholder in it is reported. It prints the counts
// and the constructs not converted, by frequency (-v).
func TestCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus conversion is not short")
	}
	ctx := cuecontext.New()
	full, partial, failed, evalErrors, trees := 0, 0, 0, 0, 0
	reasons := map[string]int{}
	for _, dir := range corpus.ModuleDirs(t) {
		if dir.NotModule != "" || corpus.Templates[dir.Rel] != "" {
			continue
		}
		m, diags := config.Load(dir.Path)
		if diags.HasErrors() {
			failed++
			continue
		}
		r := Module(m, Options{})
		if len(r.Modules) > 0 {
			// A module tree is evaluated by engine/cue's corpus test
			// (TOFUCUE_CORPUS_ALL=1): building some with a shared
			// context takes minutes.
			trees++
		} else if _, err := r.Load(ctx); err != nil && !strings.Contains(err.Error(), "hcl2cue: not converted") {
			if isBuildError(err.Error()) {
				t.Errorf("%s: the converted module does not load: %v", dir.Rel, firstLines(err.Error(), 6))
			} else {
				// Evaluating without inputs fails; OpenTofu would not
				// evaluate the module without them either.
				evalErrors++
				t.Logf("%s: evaluation without inputs: %s", dir.Rel, firstLines(err.Error(), 1))
			}
		}
		if r.Complete() {
			full++
		} else {
			partial++
		}
		for _, why := range r.Reasons {
			reasons[why]++
		}
	}
	t.Logf("modules: %d fully converted, %d partial, %d not loadable; %d fail to evaluate without inputs; %d module trees not evaluated here", full, partial, failed, evalErrors, trees)
	type kv struct {
		k string
		n int
	}
	var list []kv
	for k, n := range reasons {
		list = append(list, kv{k, n})
	}
	sort.Slice(list, func(i, j int) bool { return list[i].n > list[j].n || list[i].n == list[j].n && list[i].k < list[j].k })
	for _, e := range list {
		t.Logf("%6d  %s", e.n, e.k)
	}
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}

// isBuildError tells an error of the converted program itself (syntax,
// an undefined reference, a name clash) from one of evaluating it without
// inputs, which the source module may have too.
func isBuildError(msg string) bool {
	for _, s := range []string{"loading the converted module", "not found", "cannot have both", "expected", "illegal"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}
