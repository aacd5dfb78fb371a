package hcl

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/tofucue/tofucue/engine/inputs"
)

// FuzzPlan plans arbitrary module text with synthesized inputs: whatever
// the text, planning ends with a plan or diagnostics, never a panic or a
// hang. The seeds are the main.tf files of the golden plan cases.
func FuzzPlan(f *testing.F) {
	paths, _ := filepath.Glob("../../golden/plan/*.txtar")
	for _, p := range paths {
		a, err := txtar.ParseFile(p)
		if err != nil {
			continue
		}
		for _, file := range a.Files {
			if file.Name == "main.tf" {
				f.Add(string(file.Data))
			}
		}
	}
	f.Add("resource \"a_b\" \"c\" {\n  count = -1\n}\n")
	f.Fuzz(func(t *testing.T, src string) {
		if strings.Contains(src, "file(") || strings.Contains(src, "fileset(") || strings.Contains(src, "templatefile(") {
			t.Skip("the file functions read the disk")
		}
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		tree, diags := Load(dir)
		if diags.HasErrors() || tree.Root == nil {
			return
		}
		p, diags := Plan(tree, Options{Inputs: inputs.Sources{Synthesize: true}, MaxInstances: 1000})
		if p == nil {
			t.Fatalf("no plan (diagnostics: %v)", diags)
		}
		if _, err := p.MarshalJSON(); err != nil {
			t.Fatalf("plan does not marshal: %v", err)
		}
	})
}
