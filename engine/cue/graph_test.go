package cue

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/cuecontext"
	"cuelang.org/go/tools/flow"

	"github.com/tofucue/tofucue/convert"
	hclengine "github.com/tofucue/tofucue/engine/hcl"
	"github.com/tofucue/tofucue/engine/mock"
)

// tools/flow analyses nothing under a root that is an error, and one
// permanent error makes the whole program one. The dependencies are then
// found in each part that is not an error: the template's error leaves
// the declarations' dependencies as they are where nothing is an error.
// A declaration that is an error, and one that reads it (an error too),
// have none: the plan reports that error where it meets it.
func TestDependenciesUnderError(t *testing.T) {
	const decls = `
_var: create: *true | bool
_local_on: [if _var.create {true}, if !_var.create {false}][0]
data: x: y: [if _local_on {json: string}] @data(x.y[*])
r: s: [if _local_on {p: data.x.y[0].json}] @resource(r.s[*])
q: t: {p: r.s[0].arn, o: r.bad.id} @resource(q.t)
r: bad: {id: "i", n: data.x.y[0].json} @resource(r.bad)
`
	for _, c := range []struct {
		name, src string
		want      map[int][]int
	}{
		{"no error", decls, map[int][]int{1: {0}, 2: {0}, 3: {1, 2}}},
		{"an error in a template", decls + `_tmpl: a: "x-\(null)"` + "\n", map[int][]int{1: {0}, 2: {0}, 3: {1, 2}}},
		{"an erroring declaration", decls + `r: bad: e: "x-\(null)"` + "\n", map[int][]int{1: {0}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := cuecontext.New().CompileString(c.src)
			if c.name != "no error" && v.Err() == nil {
				t.Fatal("the program is not an error: the case tests nothing")
			}
			res := resourceDecls(t, v)
			if got := dependencies(v, res); !reflect.DeepEqual(got, c.want) {
				var names []string
				for _, d := range res {
					names = append(names, d.addr())
				}
				t.Errorf("dependencies of %v: %v, want %v", names, got, c.want)
			}
		})
	}
}

// resourceDecls finds v's declarations and keeps its resources and data
// sources, numbered as the planner numbers the tasks of its graph.
func resourceDecls(t *testing.T, v cue.Value) []*decl {
	t.Helper()
	ds, diags := findDecls(v, true, programPackage(v))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	var res []*decl
	for _, d := range ds {
		if d.kind == declResource || d.kind == declData {
			d.index = len(res)
			res = append(res, d)
		}
	}
	return res
}

// A list outside the declarations that holds a list or struct is a task
// of its own, so that tools/flow does not search it for tasks (twice the
// time for each level of nesting: 30 levels took hours), and passes its
// dependencies on: a declaration that reads such a local list depends on
// what the list reads, all of it, as OpenTofu's graph has a declaration
// depend on the whole local. A list of scalars is searched in linear time
// and is no task (see graph.task): a declaration that reads one of its
// elements depends on what that element reads.
func TestDependenciesThroughLists(t *testing.T) {
	deep := strings.Repeat("[", 30) + "1" + strings.Repeat("]", 30)
	src := `
d: a: {id: string} @data(d.a)
d: b: {id: string} @data(d.b)
_local_ids: [d.a.id, [d.b.id]]
_local_flat: [d.a.id, d.b.id]
_local_deep: ` + deep + `
r: x: {p: _local_ids[1][0]} @resource(r.x)
r: y: {p: [[[[_local_ids[0]]]]], q: _local_deep} @resource(r.y)
r: z: {p: _local_flat[1]} @resource(r.z)
output: o: [[_local_ids, ` + deep + `]] @output(o)
`
	v := cuecontext.New().CompileString(src)
	res := resourceDecls(t, v)
	want := map[int][]int{2: {0, 1}, 3: {0, 1}, 4: {1}}
	if got := dependencies(v, res); !reflect.DeepEqual(got, want) {
		t.Errorf("dependencies: %v, want %v", got, want)
	}
}

// The program the planner analyzes starts with the flow guard, so that
// tools/flow's cycle check meets the guard's cycle first and stops there
// (see flowGuard): here a module with imports, a called module and
// layered diamonds, whose dependencies are all found.
func TestFlowGuardFirst(t *testing.T) {
	const layers = 12
	dir := writeFiles(t, map[string]string{
		"main.tf": diamondModule(layers) + `
module "m" {
  source = "./m"
  name   = upper(null_resource.a0.id)
}
`,
		"m/main.tf": `
variable "name" {
  type = string
}
resource "null_resource" "m" {
  triggers = { name = "${var.name}-${format("%03d", 7)}" }
}
`})
	tree, diags := hclengine.Load(dir)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	r := convert.Module(tree.Root, convert.Options{})
	v, err := r.LoadWith(cuecontext.New(), nil)
	if err != nil {
		t.Fatal(err)
	}
	schemas, _ := mock.LoadSchemas()
	schemas.InferTree(tree)
	p, diags := planValue(v, Options{Provider: mock.New(schemas, nil), ModuleDir: dir})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	g := newGraph(p.analyzed, p.resources)
	tasks := flow.New(&flow.Config{FindHiddenTasks: true}, p.analyzed, g.task).Tasks()
	if len(tasks) < 2 || !isFlowGuard(tasks[0].Path()) || !isFlowGuard(tasks[1].Path()) {
		var paths []string
		for _, task := range tasks[:min(3, len(tasks))] {
			paths = append(paths, task.Path().String())
		}
		t.Fatalf("the first tasks are %v, not the guard's fields", paths)
	}
	byAddr := map[string]int{}
	for _, d := range p.resources {
		byAddr[d.addr()] = d.index
	}
	for i := 1; i < layers; i++ {
		for _, n := range []string{"a", "b"} {
			d := byAddr[fmt.Sprintf("null_resource.%s%d", n, i)]
			want := []int{byAddr[fmt.Sprintf("null_resource.a%d", i-1)], byAddr[fmt.Sprintf("null_resource.b%d", i-1)]}
			if got := p.deps[d]; !reflect.DeepEqual(got, want) {
				t.Errorf("%s%d depends on %v, want %v", n, i, got, want)
			}
		}
	}
	if got, want := p.deps[byAddr["module.m.null_resource.m"]], []int{byAddr["null_resource.a0"]}; !reflect.DeepEqual(got, want) {
		t.Errorf("module.m.null_resource.m depends on %v, want %v", got, want)
	}
}
