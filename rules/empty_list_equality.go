package rules

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// EmptyListEquality is the rule empty_list_equality.
var EmptyListEquality = &Rule{
	Name:   "empty_list_equality",
	TFLint: "terraform_empty_list_equality",
	Doc: `Reports a comparison with an empty list written as a literal,
x == [] or x != []. The literal [] is an empty tuple, and a list is never
equal to a tuple, so the comparison is false (or, for !=, true) whatever
the list holds. Compare the length instead. JSON files are not checked.
The rule is off by default.

Bad:

    output "none" { value = var.names == [] }

Good:

    output "none" { value = length(var.names) == 0 }`,
	Severity: Warning,
	Check: func(p *Pass) {
		walkSyntax(p.Module, func(_ []byte, n hclsyntax.Node, _ []hclsyntax.Node) {
			e, ok := n.(*hclsyntax.BinaryOpExpr)
			if !ok || (e.Op != hclsyntax.OpEqual && e.Op != hclsyntax.OpNotEqual) {
				return
			}
			if !isEmptyTuple(e.LHS) && !isEmptyTuple(e.RHS) {
				return
			}
			p.Report(Finding{
				Message: "Comparing a collection with an empty list is invalid",
				Detail:  "The literal [] is an empty tuple, which no list equals. To check that a collection is empty, compare its length with 0: length(x) == 0.",
				Range:   hcl.RangeBetween(e.LHS.Range(), e.RHS.Range()),
			})
		})
	},
}

func isEmptyTuple(e hclsyntax.Expression) bool {
	t, ok := e.(*hclsyntax.TupleConsExpr)
	return ok && len(t.Exprs) == 0
}
