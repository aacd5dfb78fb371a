package cue

import (
	"testing"

	"cuelang.org/go/cue/cuecontext"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/convert"
	hclengine "github.com/tofucue/tofucue/engine/hcl"
	"github.com/tofucue/tofucue/engine/mock"
)

// A graph that makes a declaration wait for one that (through a third)
// reads it, and misses what the reader reads, leaves a round of the
// apply pass with nothing ready but the reader, whose configuration is
// not known yet. The pass then analyses the program again, as it now
// is, and applies the three in their true order, as engine/hcl does;
// with the graph right from the start it never has to.
func TestGradualReanalyses(t *testing.T) {
	dir := writeFiles(t, map[string]string{"main.tf": `
resource "null_resource" "a" {}
resource "null_resource" "b" {
  triggers = { a = null_resource.a.id }
}
resource "null_resource" "r" {
  triggers = { b = null_resource.b.id }
}
`})
	tree, diags := hclengine.Load(dir)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	schemas, _ := mock.LoadSchemas()
	hp, hdiags := hclengine.Plan(tree, hclengine.Options{Schemas: schemas})
	if hdiags.HasErrors() {
		t.Fatal(hdiags)
	}
	schemas.InferTree(tree)
	r := convert.Module(tree.Root, convert.Options{})
	v, err := r.LoadWith(cuecontext.New(), nil)
	if !v.Exists() {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name       string
		graph      map[string][]string
		reanalyses int
	}{
		{"the analysis's graph", nil, 0},
		{"a wrong graph", map[string][]string{
			"null_resource.a": {"null_resource.r"},
			"null_resource.r": {"null_resource.b"},
		}, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, diags := planValue(v, Options{Inputs: map[string]cty.Value{}, Provider: mock.New(schemas, nil), ModuleDir: dir, off: allAccels, graph: c.graph})
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			if d := differences(hp, p.result); len(d) > 0 {
				t.Errorf("the plans differ: %s", d[0])
			}
			if p.stats.reanalyses != c.reanalyses {
				t.Errorf("dependencies analyzed again %d times, want %d", p.stats.reanalyses, c.reanalyses)
			}
		})
	}
}
