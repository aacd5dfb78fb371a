package cue

import (
	"reflect"
	"testing"

	"cuelang.org/go/cue/cuecontext"
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
