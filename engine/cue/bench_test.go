package cue

import (
	"fmt"
	"runtime"
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
	schemas.InferTree(tree)
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

// labelModule is a module in the manner of cloudposse's null-label: it
// takes a context object and some of its attributes one by one, merges
// them (an argument wins over the context), builds an id from the labels
// in order, and gives the merged context on as an output, for the next
// module's context.
const labelModule = `variable "context" {
  type = any
  default = {
    enabled     = true
    namespace   = null
    environment = null
    stage       = null
    name        = null
    delimiter   = null
    attributes  = []
    tags        = {}
    label_order = []
  }
}
variable "enabled" {
  type    = bool
  default = null
}
variable "namespace" {
  type    = string
  default = null
}
variable "environment" {
  type    = string
  default = null
}
variable "stage" {
  type    = string
  default = null
}
variable "name" {
  type    = string
  default = null
}
variable "delimiter" {
  type    = string
  default = null
}
variable "attributes" {
  type    = list(string)
  default = []
}
variable "tags" {
  type    = map(string)
  default = {}
}
variable "label_order" {
  type    = list(string)
  default = null
}
locals {
  defaults = {
    label_order = ["namespace", "environment", "stage", "name", "attributes"]
    delimiter   = "-"
  }
  input = {
    enabled     = var.enabled == null ? var.context.enabled : var.enabled
    namespace   = var.namespace == null ? var.context.namespace : var.namespace
    environment = var.environment == null ? var.context.environment : var.environment
    stage       = var.stage == null ? var.context.stage : var.stage
    name        = var.name == null ? var.context.name : var.name
    delimiter   = var.delimiter == null ? var.context.delimiter : var.delimiter
    attributes  = compact(distinct(concat(var.context.attributes, var.attributes)))
    tags        = var.tags
    label_order = var.label_order == null ? var.context.label_order : var.label_order
  }
  enabled     = local.input.enabled
  namespace   = local.input.namespace == null ? "" : lower(local.input.namespace)
  environment = local.input.environment == null ? "" : lower(local.input.environment)
  stage       = local.input.stage == null ? "" : lower(local.input.stage)
  name        = local.input.name == null ? "" : lower(local.input.name)
  delimiter   = local.input.delimiter == null ? local.defaults.delimiter : local.input.delimiter
  label_order = local.input.label_order == null ? local.defaults.label_order : coalescelist(local.input.label_order, local.defaults.label_order)
  attributes  = compact(distinct([for v in local.input.attributes : lower(v)]))
  id_context = {
    namespace   = local.namespace
    environment = local.environment
    stage       = local.stage
    name        = local.name
    attributes  = join(local.delimiter, local.attributes)
  }
  labels = [for l in local.label_order : local.id_context[l] if length(local.id_context[l]) > 0]
  id     = local.enabled ? join(local.delimiter, local.labels) : ""
  tags   = merge(local.input.tags, { Name = local.id })
  output_context = {
    enabled     = local.enabled
    namespace   = local.input.namespace
    environment = local.input.environment
    stage       = local.input.stage
    name        = local.input.name
    delimiter   = local.input.delimiter
    attributes  = local.attributes
    tags        = local.tags
    label_order = local.input.label_order
  }
}
output "id" {
  value = local.id
}
output "tags" {
  value = local.tags
}
output "context" {
  value = local.output_context
}
`

// labelChainModule calls labelModule n times, each call after the first
// passing the one before's context on and adding an attribute: the id of
// the last is "eg-ue1-prod-app-a1-...-a(n-1)".
func labelChainModule(n int) string {
	var b strings.Builder
	b.WriteString("module \"l0\" {\n  source      = \"./label\"\n  namespace   = \"eg\"\n  environment = \"ue1\"\n  stage       = \"prod\"\n  name        = \"app\"\n}\n")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "module \"l%d\" {\n  source     = \"./label\"\n  context    = module.l%d.context\n  attributes = [\"a%d\"]\n}\n", i, i-1, i)
	}
	fmt.Fprintf(&b, "output \"id\" {\n  value = module.l%d.id\n}\n", n-1)
	return b.String()
}

// BenchmarkModuleChain converts and plans chains of 2 to 200 calls of a
// label module (labelChainModule), each call passing the previous one's
// context on, as modules that use cloudposse's null-label do. ns/call is
// the time per call of hcl2cue convert's work (convert.Dir: converting
// and checking that the result loads as CUE) and of a plan on each side;
// flat from 10 to 200 calls would be linear time, but each call's list of
// attributes is one longer than the one before's, so neither plan is (see
// chainSizes). The CUE plan's ns/call over the HCL plan's is the ratio of
// the two evaluators (goal: at most 3).
func BenchmarkModuleChain(b *testing.B) {
	for _, n := range chainSizes {
		dir := writeFiles(b, map[string]string{"main.tf": labelChainModule(n), "label/main.tf": labelModule})
		load := func(b *testing.B) *hclengine.Tree {
			tree, diags := hclengine.Load(dir)
			if diags.HasErrors() {
				b.Fatal(diags)
			}
			return tree
		}
		perCall := func(b *testing.B) {
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/call")
		}
		b.Run(fmt.Sprintf("%d/convert", n), func(b *testing.B) {
			load(b)
			for b.Loop() {
				if mr := convert.Dir(dir, convert.Options{}); mr.Status() != convert.Converted {
					b.Fatalf("%s: %s", mr.Status(), mr.FirstReason())
				}
			}
			perCall(b)
		})
		b.Run(fmt.Sprintf("%d/hcl", n), func(b *testing.B) {
			tree := load(b)
			for b.Loop() {
				b.StopTimer()
				s, _ := mock.LoadSchemas()
				runtime.GC()
				b.StartTimer()
				if _, diags := hclengine.Plan(tree, hclengine.Options{Schemas: s}); diags.HasErrors() {
					b.Fatal(diags)
				}
			}
			perCall(b)
		})
		b.Run(fmt.Sprintf("%d/cue", n), func(b *testing.B) {
			if n > cueChainLimit {
				b.Skipf("the CUE side takes about 40 s at 200 calls (see cueChainLimit)")
			}
			r, provider := convertForBench(load(b))
			for b.Loop() {
				b.StopTimer()
				v := loadConverted(b, r)
				runtime.GC()
				b.StartTimer()
				if _, diags := PlanValue(v, Options{Provider: provider}); diags.HasErrors() {
					b.Fatal(diags)
				}
			}
			perCall(b)
		})
	}
}

// chainSizes are the numbers of calls of BenchmarkModuleChain; the CUE
// plan runs up to cueChainLimit calls only.
var chainSizes = []int{2, 3, 10, 50, 100, 200}

// cueChainLimit is the longest chain the CUE side plans in
// BenchmarkModuleChain. Both sides' time per call grows with the chain,
// since each call's attributes (and id) hold one more element than the
// one before's, and distinct compares each with those before it. Measured
// on 2 shared cores, the HCL side takes 1.0 ms per call at 10 calls, 2.4
// ms at 50, 5.1 ms at 100 and 18 ms at 200; the CUE side 8 ms, 29 ms, 62
// ms (6.2 s in all) and 200 ms (40 s, past what a benchmark case should
// take). Before the converter wrote forms that do not unify a value a
// call passes on (see convert's typeOf, tostring and isNull), it took 52
// ms per call at 10 calls and 168 ms at 50, and planned 3 calls at most
// here: CUE evaluates the expression of a value again at each unification
// with it, so each call paid for the whole chain before it. What is left
// is the same cost in the guards that remain (the library calls'
// unification with #args, #unify and #compact's kind tests of each
// element, the default of the context variable). Lists of scalars as
// tasks of the dependency analysis (see graph.task) later made it 5 to
// 10 times slower (68 to 118 ms per call at 10 calls, 383 to 871 ms at
// 50, 1.1 s at 100, in runs on 2 cores shared with other work); without
// them, with #unify's one kind test of a list of strings and #distinct's
// labels, 17 to 42 ms, 50 to 81 ms and 106 to 157 ms (10.6 to 15.7 s in
// all) in alternating runs. Since the converter takes as known a called
// module's variables that every call leaves out or passes a value known
// while planning, another call's known output among them (convert's
// knownVariables), the module's conditionals on them are field-level
// ifs, which CUE shares where a list selected from a list literal was
// evaluated again with every call before it, and its null tests and
// templates have no guards: 3.7 to 3.8 ms per call at 10 calls, 9.4 to
// 9.6 at 50 and 17 at 100 (5.4 to 6.5, 17 to 18 and 32 to 33 before,
// alternating runs on 2 cores); the HCL side 1.3 to 1.7, 2.1 to 2.3 and
// 5.2 to 6.0. What is left grows with the attributes passed on: the label
// module with a list of attributes that does not grow takes a tenth of
// the time at 100 calls (cue export, 0.16 s against 1.67 s, with known
// variables only).
const cueChainLimit = 100
