package refs

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// resolutions walks what walk walks and describes how each traversal
// expression's root resolves, in the order of the walk: "TEXT: KIND NAME
// over COLLECTION" for a binding, "TEXT: SUBJECT" for a reference. With
// bySource, in source order.
func resolutions(t *testing.T, src string, bySource bool, walk func(visit func(hcl.Expression, *Scope) bool)) []string {
	t.Helper()
	text := func(r hcl.Range) string { return src[r.Start.Byte:r.End.Byte] }
	type found struct {
		start int
		text  string
	}
	var all []found
	walk(func(e hcl.Expression, s *Scope) bool {
		st, ok := e.(*hclsyntax.ScopeTraversalExpr)
		if !ok {
			return true
		}
		root, _ := s.Resolve(st.Traversal, fakeCtx{})
		var out string
		switch {
		case root.Binding != nil:
			over := "nothing"
			if root.Binding.Over != nil {
				over = text(root.Binding.Over.Range())
			}
			out = fmt.Sprintf("%s: %s %s over %s", text(st.Range()), root.Binding.Kind, root.Binding.Name, over)
		case root.Reference != nil:
			out = fmt.Sprintf("%s: %s", text(st.Range()), root.Reference.Subject)
		default:
			out = text(st.Range()) + ": invalid"
		}
		all = append(all, found{st.Range().Start.Byte, out})
		return true
	})
	if bySource {
		slices.SortStableFunc(all, func(a, b found) int { return a.start - b.start })
	}
	out := make([]string, len(all))
	for i, f := range all {
		out[i] = f.text
	}
	return out
}

func TestWalkExprScopes(t *testing.T) {
	for _, tc := range []struct {
		name, expr string
		want       []string
	}{{
		name: "nested for",
		expr: `{for k, v in var.m : k => [for x in v.items : "${k}-${x}"]}`,
		want: []string{
			"var.m: var.m",
			"k: for key k over var.m",
			"v.items: for value v over var.m",
			"k: for key k over var.m",
			"x: for value x over v.items",
		},
	}, {
		name: "inner for shadows an outer name, its collection does not",
		expr: `[for x in var.l : [for x in x.subnets : x.id]]`,
		want: []string{
			"var.l: var.l",
			"x.subnets: for value x over var.l",
			"x.id: for value x over x.subnets",
		},
	}, {
		name: "a for variable named like a root",
		expr: `[for var in var.list : var.name if var.enabled]`,
		want: []string{
			"var.list: var.list",
			"var.name: for value var over var.list",
			"var.enabled: for value var over var.list",
		},
	}, {
		name: "the value variable wins over a key of the same name",
		expr: `[for i, i in local.l : i]`,
		want: []string{"local.l: local.l", "i: for value i over local.l"},
	}, {
		name: "bound names end with the for expression",
		expr: `concat([for s in var.a : s], [s.x])`,
		want: []string{"var.a: var.a", "s: for value s over var.a", "s.x: s.x"},
	}, {
		name: "splat items are not bound names",
		expr: `var.l[*].id`,
		want: []string{"var.l: var.l"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			expr, diags := hclsyntax.ParseExpression([]byte(tc.expr), "x.tf", hcl.InitialPos)
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			got := resolutions(t, tc.expr, false, func(visit func(hcl.Expression, *Scope) bool) { Walk(expr, nil, visit) })
			if !slices.Equal(got, tc.want) {
				t.Errorf("got\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(tc.want, "\n\t"))
			}
		})
	}
}

func TestWalkBodyScopes(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		want       []string
	}{{
		name: "dynamic in dynamic with an iterator",
		body: `
dynamic "rule" {
  for_each = var.rules
  labels   = [rule.key]
  content {
    name = rule.value.name
    dynamic "port" {
      for_each = rule.value.ports
      iterator = p
      content {
        from  = p.value
        label = port.value
      }
    }
  }
}
`,
		want: []string{
			"var.rules: var.rules",
			"rule.key: iterator rule over var.rules",
			"rule.value.name: iterator rule over var.rules",
			"rule.value.ports: iterator rule over var.rules",
			"p.value: iterator p over rule.value.ports",
			// With an iterator argument, the label names no binding.
			"port.value: port.value",
		},
	}, {
		name: "a dynamic block's for_each is outside its iterator",
		body: `
dynamic "x" {
  for_each = x.list
  content {
    a = x.value
  }
}
`,
		want: []string{"x.list: x.list", "x.value: iterator x over x.list"},
	}, {
		name: "a for variable shadows an iterator",
		body: `
dynamic "tag" {
  for_each = var.tags
  content {
    keys = [for tag in tag.value : tag]
  }
}
`,
		want: []string{
			"var.tags: var.tags",
			"tag.value: iterator tag over var.tags",
			"tag: for value tag over tag.value",
		},
	}, {
		name: "an iterator argument that is no bare name leaves the label, and no for_each ranges over nothing",
		body: `
dynamic "d" {
  iterator = "it"
  content {
    a = d.value
    b = it.value
  }
}
`,
		want: []string{"d.value: iterator d over nothing", "it.value: it.value"},
	}, {
		name: "an iterator is bound in its content only",
		body: `
dynamic "d" {
  for_each = []
  content {}
}
b = d.value
`,
		want: []string{"d.value: d.value"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			file, diags := hclsyntax.ParseConfig([]byte(tc.body), "x.tf", hcl.InitialPos)
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			got := resolutions(t, tc.body, true, func(visit func(hcl.Expression, *Scope) bool) { WalkBody(file.Body, nil, visit) })
			// (The body's attributes come in no particular order.)
			if !slices.Equal(got, tc.want) {
				t.Errorf("got\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(tc.want, "\n\t"))
			}
		})
	}
}

func TestScopeContext(t *testing.T) {
	forEach, diags := hclsyntax.ParseExpression([]byte(`var.items`), "x.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	expr, diags := hclsyntax.ParseExpression([]byte(`[for each in each.value : each.key]`), "x.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	for _, tc := range []struct {
		name  string
		scope *Scope
		ctx   Context
		each  bool
	}{
		{"nothing", nil, Context{}, false},
		{"a resource with for_each", NewScope(Context{Each: true}, forEach), Context{Each: true}, true},
		{"a resource's provisioner with count", NewScope(Context{Count: true, Self: true}, nil), Context{Count: true, Self: true}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var roots []Root
			Walk(expr, tc.scope, func(e hcl.Expression, s *Scope) bool {
				if st, ok := e.(*hclsyntax.ScopeTraversalExpr); ok {
					// Binding names change nothing of the context.
					if s.Context() != tc.ctx || (s.ForEach() != nil) != tc.each {
						t.Errorf("%s: context %+v, for_each %v; want %+v, %v", st.Traversal.RootName(), s.Context(), s.ForEach(), tc.ctx, tc.each)
					}
					root, _ := s.Resolve(st.Traversal, fakeCtx{})
					roots = append(roots, root)
				}
				return true
			})
			if len(roots) != 2 {
				t.Fatalf("%d traversals, want 2", len(roots))
			}
			// each.value, the collection, is a reference to each: its
			// availability is the context's to say. each.key in the body
			// is the for variable named each.
			if a, ok := roots[0].Reference.Subject.(EachAttr); !ok || a.Name != "value" {
				t.Errorf("each.value resolves to %+v", roots[0])
			}
			if b := roots[1].Binding; b == nil || b.Kind != ForValue || len(roots[1].Rest) != 1 {
				t.Errorf("each.key resolves to %+v", roots[1])
			}
			if u := (Use{Reference: roots[0].Reference, Context: tc.scope.Context()}); (CheckContext(u) == nil) != tc.each {
				t.Errorf("CheckContext(each.value) = %v in %+v", CheckContext(u), tc.scope.Context())
			}
		})
	}
}

func TestWalkSkipsChildren(t *testing.T) {
	src := `f(var.a, [for x in var.b : g(x, var.c)], var.d)`
	expr, diags := hclsyntax.ParseExpression([]byte(src), "x.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	var seen []string
	Walk(expr, nil, func(e hcl.Expression, _ *Scope) bool {
		r := e.Range()
		seen = append(seen, src[r.Start.Byte:r.End.Byte])
		_, isFor := e.(*hclsyntax.ForExpr)
		return !isFor
	})
	want := []string{src, "var.a", "[for x in var.b : g(x, var.c)]", "var.d"}
	if !slices.Equal(seen, want) {
		t.Errorf("visited %q, want %q", seen, want)
	}
}
