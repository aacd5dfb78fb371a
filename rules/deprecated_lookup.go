package rules

import (
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// DeprecatedLookup is the rule deprecated_lookup.
var DeprecatedLookup = &Rule{
	Name:   "deprecated_lookup",
	TFLint: "terraform_deprecated_lookup",
	Doc: `Reports lookup called with two arguments, a map and a key, without
a default. That form is deprecated: an index, map[key], means the same and
fails the same way when the key is missing. The fix writes the index,
putting the map in parentheses unless it is a reference, a call or an
index. A call with an expanded last argument (lookup(args...)) is not
reported. JSON files are not checked. The rule is off by default.

Bad:

    output "ami" { value = lookup(var.amis, var.region) }

Good:

    output "ami" { value = var.amis[var.region] }
    output "ami_or_default" { value = lookup(var.amis, var.region, "ami-0") }`,
	Severity: Warning,
	Fixes:    true,
	Check: func(p *Pass) {
		walkSyntax(p.Module, func(src []byte, n hclsyntax.Node, _ []hclsyntax.Node) {
			call, ok := n.(*hclsyntax.FunctionCallExpr)
			if !ok || call.Name != "lookup" || len(call.Args) != 2 || call.ExpandFinal {
				return
			}
			coll := srcText(src, call.Args[0].Range())
			switch call.Args[0].(type) {
			case *hclsyntax.ScopeTraversalExpr, *hclsyntax.RelativeTraversalExpr, *hclsyntax.FunctionCallExpr, *hclsyntax.IndexExpr, *hclsyntax.ParenthesesExpr:
			default:
				coll = "(" + coll + ")"
			}
			text := coll + "[" + srcText(src, call.Args[1].Range()) + "]"
			p.Report(Finding{
				Message: "lookup with only two arguments is deprecated",
				Detail:  "lookup(map, key) without a default means the same as the index map[key], the form the language prefers.",
				Range:   call.Range(),
				Fix: &Fix{
					Description: "Replace with " + text,
					Edits:       []Edit{{Range: call.Range(), NewText: text}},
				},
			})
		})
	},
}
