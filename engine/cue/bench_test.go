package cue

import (
	"fmt"
	"maps"
	"runtime"
	"slices"
	"strings"
	"testing"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/cuecontext"

	"github.com/tofucue/tofucue/convert"
	hclengine "github.com/tofucue/tofucue/engine/hcl"
	"github.com/tofucue/tofucue/engine/mock"
)

// chainModule is n resources, each referring to the previous one's id.
func chainModule(n int) string {
	var b strings.Builder
	b.WriteString("resource \"null_resource\" \"r0\" {\n  triggers = { prev = \"start\" }\n}\n")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "resource \"null_resource\" \"r%d\" {\n  triggers = { prev = null_resource.r%d.id }\n}\n", i, i-1)
	}
	fmt.Fprintf(&b, "output \"last\" {\n  value = null_resource.r%d.id\n}\n", n-1)
	return b.String()
}

// templateChainModule is chainModule with each reference inside a
// template, as names and ARNs are built in real modules: the converter
// writes each with a guard beside it that makes it string while the
// reference is not known yet.
func templateChainModule(n int) string {
	var b strings.Builder
	b.WriteString("resource \"null_resource\" \"r0\" {\n  triggers = { prev = \"start\" }\n}\n")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "resource \"null_resource\" \"r%d\" {\n  triggers = { prev = \"${null_resource.r%d.id}-%d\" }\n}\n", i, i-1, i)
	}
	fmt.Fprintf(&b, "output \"last\" {\n  value = \"${null_resource.r%d.id}-last\"\n}\n", n-1)
	return b.String()
}

// fanModule is one resource and n-1 others that all refer to its id.
func fanModule(n int) string {
	var b strings.Builder
	b.WriteString("resource \"null_resource\" \"hub\" {\n  triggers = { name = \"hub\" }\n}\n")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "resource \"null_resource\" \"r%d\" {\n  triggers = { hub = null_resource.hub.id }\n}\n", i)
	}
	return b.String()
}

// countFanModule is one resource and a counted one of n-1 instances that
// refer to its id.
func countFanModule(n int) string {
	return fmt.Sprintf(`resource "null_resource" "hub" {
  triggers = { name = "hub" }
}
resource "null_resource" "spoke" {
  count    = %d
  triggers = { hub = null_resource.hub.id, index = count.index }
}
output "ids" {
  value = null_resource.spoke[*].id
}
`, n-1)
}

// moduleFanModule is one resource and a module called with count n-1,
// each instance holding one resource that refers to the hub's id through
// its argument, and giving its id as an output.
func moduleFanModule(n int) string {
	return fmt.Sprintf(`resource "null_resource" "hub" {
  triggers = { name = "hub" }
}
module "spoke" {
  source = "./spoke"
  count  = %d
  hub    = null_resource.hub.id
  index  = count.index
}
output "ids" {
  value = module.spoke[*].id
}
`, n-1)
}

// spokeModule is the module moduleFanModule calls.
const spokeModule = `variable "hub" {
  type = string
}
variable "index" {
  type = number
}
resource "null_resource" "this" {
  triggers = { hub = var.hub, index = var.index }
}
output "id" {
  value = null_resource.this.id
}
`

// benchSizes are the numbers of resource instances of the generated
// modules; 5000 is the largest size.
var benchSizes = []int{10, 100, 1000, 5000}

// BenchmarkPlan plans generated modules of 10 to 5000 resource instances,
// in a chain (of references and of templates), a fan of declarations, a
// fan of counted instances and a fan of module instances, with
// both evaluators in the same run. ns/instance is the time of one plan
// (plan and apply pass) per resource instance; the load of the module
// (HCL parsing, CUE building) is outside the timing, and so is the
// collection of what the loads of all sizes left (runtime.GC before
// each plan).
func BenchmarkPlan(b *testing.B) {
	shapes := []struct {
		name string
		gen  func(int) string
	}{{"chain", chainModule}, {"templatechain", templateChainModule}, {"fan", fanModule}, {"countfan", countFanModule}, {"modulefan", moduleFanModule}}
	for _, shape := range shapes {
		for _, n := range benchSizes {
			// Each benchmark loads its module itself, so that what the
			// others loaded is not live while it runs.
			load := func(b *testing.B) *hclengine.Tree {
				dir := writeFiles(b, map[string]string{"main.tf": shape.gen(n), "spoke/main.tf": spokeModule})
				tree, diags := hclengine.Load(dir)
				if diags.HasErrors() {
					b.Fatal(diags)
				}
				return tree
			}
			b.Run(fmt.Sprintf("%s/%d/hcl", shape.name, n), func(b *testing.B) {
				tree := load(b)
				for b.Loop() {
					b.StopTimer()
					s, _ := mock.LoadSchemas()
					runtime.GC()
					b.StartTimer()
					p, diags := hclengine.Plan(tree, hclengine.Options{Schemas: s})
					if diags.HasErrors() || len(p.Instances) != n {
						b.Fatalf("%d instances: %s", len(p.Instances), diags)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/instance")
			})
			b.Run(fmt.Sprintf("%s/%d/cue", shape.name, n), func(b *testing.B) {
				r, provider := convertForBench(load(b))
				for b.Loop() {
					b.StopTimer()
					v := loadConverted(b, r)
					runtime.GC()
					b.StartTimer()
					p, diags := PlanValue(v, Options{Provider: provider})
					if diags.HasErrors() || len(p.Instances) != n {
						b.Fatalf("%d instances: %s", len(p.Instances), diags)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/instance")
			})
		}
	}
}

// convertForBench converts the module tree and makes the mock provider
// that the CUE side plans it against.
func convertForBench(tree *hclengine.Tree) (*convert.Result, *mock.Provider) {
	schemas, _ := mock.LoadSchemas()
	schemas.Infer(slices.Collect(maps.Values(tree.Modules))...)
	return convert.Module(tree.Root, convert.Options{}), mock.New(schemas, nil)
}

func loadConverted(b *testing.B, r *convert.Result) cue.Value {
	v, err := r.LoadWith(cuecontext.New(), nil)
	if err != nil {
		b.Fatal(err)
	}
	return v
}

// diamondModule is n layers of two resources, each referring to both of
// the layer before: 2n instances, and 2^n paths from the last layer to
// the first.
func diamondModule(n int) string {
	var b strings.Builder
	b.WriteString("resource \"null_resource\" \"a0\" {\n  triggers = { x = \"a\" }\n}\n")
	b.WriteString("resource \"null_resource\" \"b0\" {\n  triggers = { x = \"b\" }\n}\n")
	for i := 1; i < n; i++ {
		for _, name := range []string{"a", "b"} {
			fmt.Fprintf(&b, "resource \"null_resource\" \"%s%d\" {\n  triggers = { a = null_resource.a%d.id, b = null_resource.b%d.id }\n}\n", name, i, i-1, i-1)
		}
	}
	return b.String()
}

// BenchmarkDiamonds plans layered diamonds (diamondModule) of 8 to 24
// layers with both evaluators. The number of paths doubles with each
// layer: tools/flow's cycle check, which walks every path again, took
// twice as long with each layer (0.4 s for 24) until the planner put the
// flow guard first (see flowGuard). Both sides now grow with the
// instances.
func BenchmarkDiamonds(b *testing.B) {
	for _, layers := range []int{8, 12, 16, 20, 24} {
		dir := writeFiles(b, map[string]string{"main.tf": diamondModule(layers)})
		tree, diags := hclengine.Load(dir)
		if diags.HasErrors() {
			b.Fatal(diags)
		}
		b.Run(fmt.Sprintf("%d/hcl", layers), func(b *testing.B) {
			s, _ := mock.LoadSchemas()
			for b.Loop() {
				if p, diags := hclengine.Plan(tree, hclengine.Options{Schemas: s}); diags.HasErrors() || len(p.Instances) != 2*layers {
					b.Fatalf("%d instances: %s", len(p.Instances), diags)
				}
			}
		})
		b.Run(fmt.Sprintf("%d/cue", layers), func(b *testing.B) {
			r, provider := convertForBench(tree)
			for b.Loop() {
				b.StopTimer()
				v := loadConverted(b, r)
				b.StartTimer()
				if p, diags := PlanValue(v, Options{Provider: provider}); diags.HasErrors() || len(p.Instances) != 2*layers {
					b.Fatalf("%d instances: %s", len(p.Instances), diags)
				}
			}
		})
	}
}
