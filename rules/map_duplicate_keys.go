package rules

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tofucue/tofucue/config"
)

// MapDuplicateKeys is the rule map_duplicate_keys.
var MapDuplicateKeys = &Rule{
	Name:   "map_duplicate_keys",
	TFLint: "terraform_map_duplicate_keys",
	Doc: `Reports a key written twice in one object or map expression. The
language keeps the last value and drops the first without a word. Keys are
compared as the strings they become: a bare name, a quoted string and a
number (1 and "1" are one key). Keys that are not constant, such as
references, are not compared. JSON files are not checked. The rule is off
by default.

Bad:

    locals {
      tags = { env = "dev", env = "prod" }
    }

Good:

    locals {
      tags = { env = "prod" }
    }`,
	Severity: Warning,
	Check: func(p *Pass) {
		walkSyntax(p.Module, func(_ []byte, n hclsyntax.Node, _ []hclsyntax.Node) {
			obj, ok := n.(*hclsyntax.ObjectConsExpr)
			if !ok {
				return
			}
			seen := map[string]hcl.Range{}
			for _, item := range obj.Items {
				k, ok := config.ConstantKey(item.KeyExpr)
				if !ok {
					continue
				}
				if first, dup := seen[k]; dup {
					p.Report(Finding{
						Message: fmt.Sprintf("Duplicate key %q, first written at line %d", k, first.Start.Line),
						Detail:  "An object keeps the last value of a key written twice and drops the earlier one. Remove one of them.",
						Range:   item.KeyExpr.Range(),
					})
					continue
				}
				seen[k] = item.KeyExpr.Range()
			}
		})
	},
}
