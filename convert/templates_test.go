package convert

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/internal/corpus"
	"github.com/tofucue/tofucue/internal/testdir"
)

// TestBatchTemplates converts roots that call the same modules in one
// batch, where each called module is converted once and used again, and
// each alone: the results must be the same. The roots differ in package
// (their directories' names), in a call that finds no module, and in a
// call of a module that leads back to the caller's tree.
func TestBatchTemplates(t *testing.T) {
	dir := testdir.Write(t, map[string]string{
		"mod/main.tf": `
variable "name" {
  type = string
}
module "inner" {
  source = "./inner"
  name   = upper(var.name)
}
module "gone" {
  source = "./missing"
}
output "id" {
  value = "${module.inner.id}-${cidrsubnet("10.0.0.0/16", 8, 1)}"
}
`,
		"mod/inner/main.tf": `
variable "name" {
  type = string
}
output "id" {
  value = join("-", [var.name, "x"])
}
`,
		"examples/a/main.tf": `
module "m" {
  source = "../../mod"
  name   = "a"
}
output "id" {
  value = module.m.id
}
`,
		"examples/b/main.tf": `
module "m" {
  source = "../../mod"
  name   = "b"
}
module "again" {
  source = "../../mod"
  name   = "b2"
}
`,
		"examples/c/main.tf": `
module "inner" {
  source = "../../mod/inner"
  name   = "c"
}
module "m" {
  source = "../../mod"
  name   = "c"
}
`,
	})
	roots := []string{filepath.Join(dir, "examples", "a"), filepath.Join(dir, "examples", "b"), filepath.Join(dir, "examples", "c")}
	sources := func() *config.Sources {
		return config.NewSources(config.SourceOptions{AllowRead: []string{dir}})
	}
	cache := newTemplateCache()
	batch := Batch(roots, BatchOptions{Jobs: 1, Options: Options{Sources: sources(), templates: cache}}, nil)
	// a converts mod and mod/inner; b and c use both again.
	if cache.hits != 4 {
		t.Errorf("%d templates used again, want 4", cache.hits)
	}
	for i, root := range roots {
		alone := Dir(root, Options{Sources: sources()})
		if alone.Result == nil || len(alone.Result.Modules) == 0 {
			t.Fatalf("%s: no module converted with it: %s", filepath.Base(root), alone.FirstReason())
		}
		got, want := describe(batch.Modules[i]), describe(alone)
		if got != want {
			t.Errorf("%s converted in the batch differs from alone:\n--- batch\n%s\n--- alone\n%s", filepath.Base(root), got, want)
		}
		if !strings.Contains(want, "mod/missing") {
			t.Errorf("%s: no warning that module.gone is not available:\n%s", filepath.Base(root), want)
		}
	}
	if !strings.Contains(describe(batch.Modules[1]), "package b") {
		t.Errorf("b's templates are not in package b:\n%s", describe(batch.Modules[1]))
	}
}

// describe is everything a conversion gives, as text.
func describe(mr *ModuleResult) string {
	if mr.Err != nil {
		return fmt.Sprintf("error: %v\n", mr.Err) + describeResult(mr.Result)
	}
	return describeResult(mr.Result)
}

// describeResult is everything a converted module holds, as text.
func describeResult(r *Result) string {
	var b strings.Builder
	if r == nil {
		return "not converted\n"
	}
	fmt.Fprintf(&b, "package %s, module %s, library %v, modules %v\n", r.Package, r.ModulePath, r.Library, r.Modules)
	for _, f := range r.Files {
		fmt.Fprintf(&b, "== %s (template %v)\n%s", f.Name, f.Template, f.Source)
	}
	var diags []string
	for _, d := range r.Diagnostics {
		diags = append(diags, fmt.Sprintf("%s: %s: %s", d.Subject, d.Summary, d.Detail))
	}
	slices.Sort(diags)
	reasons := slices.Sorted(slices.Values(r.Reasons))
	fmt.Fprintf(&b, "diagnostics:\n%s\nreasons: %q\n", strings.Join(diags, "\n"), reasons)
	files, err := r.OutputFiles()
	if err != nil {
		fmt.Fprintf(&b, "output files: %v\n", err)
	}
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for n := range files {
			if !yield(n) {
				return
			}
		}
	}) {
		fmt.Fprintf(&b, "-- %s: %d bytes\n", name, len(files[name]))
	}
	return b.String()
}

// TestCorpusBatchSameAsAlone converts the corpus in one batch, where the
// modules are loaded and their templates converted once, and each module
// alone: every result must be the same.
func TestCorpusBatchSameAsAlone(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus conversion is not short")
	}
	dirs, rels := corpusModules(t)
	allow := corpus.AllowRead(t)
	cache := newTemplateCache()
	s := Batch(dirs, BatchOptions{Options: Options{Sources: config.NewSources(config.SourceOptions{AllowRead: allow}), templates: cache}}, nil)
	t.Logf("%d templates used again", cache.hits)
	differ := 0
	for i, dir := range dirs {
		m, diags := config.Load(dir)
		if m == nil || diags.HasErrors() {
			if s.Modules[i].Result != nil {
				t.Errorf("%s: loads alone with errors, converted in the batch", rels[i])
			}
			continue
		}
		got, want := describeResult(s.Modules[i].Result), describeResult(Module(m, Options{Sources: config.NewSources(config.SourceOptions{AllowRead: allow})}))
		if got != want {
			differ++
			if differ <= 3 {
				t.Errorf("%s: converted in the batch differs from alone:\n%s", rels[i], firstDiff(got, want))
			}
		}
	}
	if differ > 0 {
		t.Errorf("%d of %d modules differ", differ, len(dirs))
	}
}

// firstDiff shows the first line where got and want differ, with a few
// around it.
func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range min(len(g), len(w)) {
		if g[i] != w[i] {
			lo := max(0, i-3)
			return fmt.Sprintf("line %d\n--- batch\n%s\n--- alone\n%s", i+1, strings.Join(g[lo:min(len(g), i+4)], "\n"), strings.Join(w[lo:min(len(w), i+4)], "\n"))
		}
	}
	return fmt.Sprintf("lengths %d and %d lines", len(g), len(w))
}
