package convert

import (
	"testing"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/ast/astutil"
	"cuelang.org/go/cue/format"
	"cuelang.org/go/cue/parser"
)

// TestReplaceNodes checks that replaceNodes leaves the tree that
// astutil.Apply leaves, over the whole tree, with the same function: for
// nodes under parents of all kinds, a parent in two places, and the root
// itself.
func TestReplaceNodes(t *testing.T) {
	// x.a is replaced by y, and each x.b by a new z.
	target := func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		return ok && identName(sel.X) == "x" && (identName(sel.Sel) == "a" || identName(sel.Sel) == "b")
	}
	replacement := func(n ast.Node) ast.Node {
		if identName(n.(*ast.SelectorExpr).Sel) == "a" {
			return ident("y")
		}
		return ident("z")
	}
	for _, tc := range []struct {
		name string
		in   string
		// shared puts the expression of field s in field t too.
		shared bool
	}{
		{name: "none", in: `{a: 1, b: [c, d.e]}`},
		{name: "parents of all kinds", in: `{
			x.a
			f: x.a
			g: [x.b, 1, x.a]
			h: x.a + x.b
			i: "\(x.a)-\(x.b)"
			j: x.a.c
			k: x.b[x.a]
			l: [for v in x.a if x.b != null let w = x.a {v}]
			m: strings.Join(x.a, x.b)
			n: !x.a
			o: {p: {q: x.b}}
		}`},
		{name: "a parent in two places", in: `{s: [x.a, x.b, x.a], t: _}`, shared: true},
		{name: "in a struct selected from", in: `{s: {c: x.a}.c, t: x.b}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			parse := func() ast.Node {
				x, err := parser.ParseExpr("in", tc.in)
				if err != nil {
					t.Fatal(err)
				}
				s := x.(*ast.StructLit)
				if tc.shared {
					s.Elts[1].(*ast.Field).Value = s.Elts[0].(*ast.Field).Value
				}
				return s
			}
			want := astutil.Apply(parse(), func(c astutil.Cursor) bool {
				if target(c.Node()) {
					c.Replace(replacement(c.Node()))
					return false
				}
				return true
			}, nil)
			got := replaceNodes(parse(), target, replacement)
			if g, w := formatNode(t, got), formatNode(t, want); g != w {
				t.Errorf("replaceNodes gives\n%s\nwant (astutil.Apply)\n%s", g, w)
			}
		})
	}
	t.Run("the root", func(t *testing.T) {
		root, err := parser.ParseExpr("in", "x.b")
		if err != nil {
			t.Fatal(err)
		}
		if got := formatNode(t, replaceNodes(root, target, replacement)); got != "z" {
			t.Errorf("replaceNodes of the root gives %s, want z", got)
		}
	})
}

func formatNode(t *testing.T, n ast.Node) string {
	t.Helper()
	b, err := format.Node(n)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
