package convert

import (
	"sort"
	"strings"
	"testing"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/internal/corpus"
)

// corpusModules lists the corpus's module directories that convert takes
// (not the templates that generators copy from), with their paths below
// the corpus.
func corpusModules(t *testing.T) (dirs, rels []string) {
	for _, dir := range corpus.ModuleDirs(t) {
		if dir.NotModule == "" && corpus.Templates[dir.Rel] == "" {
			dirs, rels = append(dirs, dir.Path), append(rels, dir.Rel)
		}
	}
	return dirs, rels
}

// TestCorpus converts every corpus module. It must not crash, and every
// converted module, module trees included, must pass the check hcl2cue
// convert makes (checkLoads: it loads with cue/load, and a module is
// either fully converted or every error in it is a reported
// placeholder's). It prints the counts and the constructs not converted,
// by frequency (-v).
func TestCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus conversion is not short")
	}
	dirs, rels := corpusModules(t)
	// As hcl2cue convert converts them: in parallel, each checked.
	s := Batch(dirs, BatchOptions{Options: Options{Sources: config.NewSources(config.SourceOptions{AllowRead: corpus.AllowRead(t)})}}, nil)
	full, partial, failed, checkErrors, trees := 0, 0, 0, 0, 0
	reasons := map[string]int{}
	for i, mr := range s.Modules {
		r := mr.Result
		if r == nil {
			failed++
			continue
		}
		if len(r.Modules) > 0 {
			trees++
		}
		if err := mr.Err; err != nil {
			if isBuildError(err.Error()) {
				t.Errorf("%s: the converted module does not load: %v", rels[i], firstLines(err.Error(), 6))
			} else {
				// The module may fail of its own at its defaults:
				// hcl2cue convert then plans it (see internal/cli).
				checkErrors++
				t.Logf("%s: %s", rels[i], firstLines(err.Error(), 1))
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
	t.Logf("modules: %d fully converted, %d partial, %d not loadable; %d fail the check (%d call modules)", full, partial, failed, checkErrors, trees)
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
