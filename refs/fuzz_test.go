package refs

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tofucue/tofucue/config"
)

func writeFile(t *testing.T, dir, name, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// FuzzParse parses arbitrary expressions, finds their references in a
// module context and checks them. It must never panic, and every reference
// must lie inside its traversal.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"var.a", "symbols.lib.x", "resource.symbols.a.b[0]", `module.m["k"].out`, "aws_instance.web[1.5]",
		"[for x in var.l : x if symbols.s.ok]", "template.x", "count", `data.x["y"]`, "self[0]", "a.b.c.d[*].e",
		"middleware.m", "interface.i.x", `"${each.value}-${path.module}"`,
	} {
		f.Add(seed)
	}
	dir := f.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte("resource \"symbols\" \"a\" {}\nsymbols \"lib\" {}\nvariable \"a\" {}\n"), 0o644); err != nil {
		f.Fatal(err)
	}
	m, diags := config.Load(dir)
	if diags.HasErrors() {
		f.Fatal(diags.Error())
	}
	f.Fuzz(func(t *testing.T, text string) {
		expr, diags := hclsyntax.ParseExpression([]byte(text), "f.tf", hcl.InitialPos)
		if diags.HasErrors() {
			return
		}
		refs, _ := InExpr(expr, m)
		for _, r := range refs {
			whole := r.Traversal.SourceRange()
			if r.Range.Start.Byte < whole.Start.Byte || r.Range.End.Byte > whole.End.Byte {
				t.Fatalf("%s: subject range %v outside the traversal %v", text, r.Range, whole)
			}
			_ = Check(r, m)
			_ = r.Subject.String()
		}
	})
}

// FuzzWalk parses arbitrary expressions and walks them. It must never
// panic, and the traversals that resolve to no binding must be the ones
// hcl's own Variables reports: the walker scopes for expressions as hcl
// does. Text that parses as a configuration body is walked as one too.
func FuzzWalk(f *testing.F) {
	for _, seed := range []string{
		"var.a", "[for x in var.l : x if x.ok]", "{for k, v in local.m : k => [for k in v : k]}",
		"[for var in var.l : var.a]", "a[*].b", `"%{for x in y}${x}%{endfor}"`, "f([for i, i in x : i]...)",
		"[for x in [for x in x : x] : x]", "x ? [for y in z : y] : y",
		"dynamic \"d\" {\n for_each = d.x\n iterator = i\n labels = [i.key]\n content { a = i.value }\n}\n",
		"dynamic {\n}\n", "dynamic \"a\" \"b\" {\n content {}\n}\n",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if file, diags := hclsyntax.ParseConfig([]byte(text), "f.tf", hcl.InitialPos); !diags.HasErrors() {
			WalkBody(file.Body, nil, func(e hcl.Expression, s *Scope) bool {
				if st, ok := e.(*hclsyntax.ScopeTraversalExpr); ok {
					_, _ = s.Resolve(st.Traversal, fakeCtx{})
				}
				return true
			})
		}
		expr, diags := hclsyntax.ParseExpression([]byte(text), "f.tf", hcl.InitialPos)
		if diags.HasErrors() {
			return
		}
		var free []hcl.Range
		Walk(expr, nil, func(e hcl.Expression, s *Scope) bool {
			st, ok := e.(*hclsyntax.ScopeTraversalExpr)
			if !ok {
				return true
			}
			root, _ := s.Resolve(st.Traversal, fakeCtx{})
			if b := root.Binding; b != nil {
				if b.Over == nil || b.Name != st.Traversal.RootName() {
					t.Fatalf("%s: binding %+v for %s", text, b, st.Traversal.RootName())
				}
				return true
			}
			free = append(free, st.Traversal.SourceRange())
			return true
		})
		var want []hcl.Range
		for _, tr := range expr.Variables() {
			want = append(want, tr.SourceRange())
		}
		if !slices.Equal(free, want) {
			t.Fatalf("%s: the walk leaves %v free, hcl %v", text, free, want)
		}
	})
}
