package refs_test

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tofucue/tofucue/features"
	"github.com/tofucue/tofucue/refs"
)

// module declares resource "aws_subnet" "a" and enables no feature.
type module struct{}

func (module) FeatureEnabled(features.Feature) bool { return false }
func (module) HasAnyManagedResourceOfType(t string) bool {
	return t == "aws_subnet"
}
func (module) HasManagedResource(t, n string) bool { return t == "aws_subnet" && n == "a" }

func ExampleWalk() {
	src := `{for k, s in aws_subnet.a : k => "${s.id}/${each.value}"}`
	expr, _ := hclsyntax.ParseExpression([]byte(src), "main.tf", hcl.InitialPos)
	text := func(r hcl.Range) string { return src[r.Start.Byte:r.End.Byte] }
	// The for expression is in a resource with for_each = var.names.
	forEach, _ := hclsyntax.ParseExpression([]byte("var.names"), "main.tf", hcl.InitialPos)
	refs.Walk(expr, refs.NewScope(refs.Context{Each: true}, forEach), func(e hcl.Expression, s *refs.Scope) bool {
		st, ok := e.(*hclsyntax.ScopeTraversalExpr)
		if !ok {
			return true
		}
		root, _ := s.Resolve(st.Traversal, module{})
		if b := root.Binding; b != nil {
			fmt.Printf("%s: the %s %s over %s, then %d steps\n", text(st.Range()), b.Kind, b.Name, text(b.Over.Range()), len(root.Rest))
		} else {
			fmt.Printf("%s: %s, each given: %v\n", text(st.Range()), root.Reference.Subject, s.Context().Each)
		}
		return true
	})
	// Output:
	// aws_subnet.a: aws_subnet.a, each given: true
	// k: the for key k over aws_subnet.a, then 0 steps
	// s.id: the for value s over aws_subnet.a, then 1 steps
	// each.value: each.value, each given: true
}
