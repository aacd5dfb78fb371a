package convert

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/internal/corpus"
)

// TestCorpusComments converts every corpus module and checks that each
// comment of its HCL files is in the CUE written for it, as a comment:
// convert keeps comments, where they were or at the top of the block that
// held them, and drops none. A module converted in part is left out (a
// construct not converted may hold a comment). -v lists how many comment
// lines were kept from inside the blocks that held them.
func TestCorpusComments(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus conversion is not short")
	}
	dirs, rels := corpusModules(t)
	s := Batch(dirs, BatchOptions{Options: Options{Sources: config.NewSources(config.SourceOptions{AllowRead: corpus.AllowRead(t)})}}, nil)
	checked, hoisted := 0, 0
	for i, mr := range s.Modules {
		r := mr.Result
		if r == nil || !r.Complete() {
			continue
		}
		var out strings.Builder
		for _, f := range r.Files {
			out.Write(f.Source)
		}
		cue := commentText(out.String())
		hoisted += strings.Count(out.String(), "(comments from inside the block:)")
		m, diags := config.Load(dirs[i])
		if diags.HasErrors() {
			continue
		}
		for _, path := range m.PrimaryPaths {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			cs := newCommentSet(path, src)
			for _, cm := range cs.list {
				for _, line := range cm.lines {
					line = strings.TrimSpace(line)
					if line == "" {
						continue
					}
					checked++
					if !strings.Contains(cue, line) {
						t.Errorf("%s: %s:%d: comment %q is not in the CUE written", rels[i], filepath.Base(path), cm.rng.Start.Line, line)
					}
				}
			}
		}
	}
	t.Logf("%d comment lines checked; %d blocks with comments kept from inside them", checked, hoisted)
}

// commentText is the text of the // comments of CUE source, one line each.
func commentText(src string) string {
	var b strings.Builder
	for _, l := range strings.Split(src, "\n") {
		if i := strings.Index(l, "//"); i >= 0 {
			b.WriteString(strings.TrimSpace(l[i+2:]))
			b.WriteByte('\n')
		}
	}
	return b.String()
}
