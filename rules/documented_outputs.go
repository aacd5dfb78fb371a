package rules

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// DocumentedOutputs is the rule documented_outputs.
var DocumentedOutputs = &Rule{
	Name:   "documented_outputs",
	TFLint: "terraform_documented_outputs",
	Doc: `Reports an output without a description, or with an empty one.
The description is what a caller of the module reads. The rule is off by
default.

Bad:

    output "id" { value = aws_instance.web.id }

Good:

    output "id" {
      value       = aws_instance.web.id
      description = "The instance's ID."
    }`,
	Severity: Notice,
	Check: func(p *Pass) {
		for _, name := range slices.Sorted(maps.Keys(p.Module.Outputs)) {
			o := p.Module.Outputs[name]
			if strings.TrimSpace(o.Description) != "" {
				continue
			}
			p.Report(Finding{
				Message: fmt.Sprintf("Output %q has no description", name),
				Detail:  "A caller of the module reads the description to know what the output holds. Add description = \"...\".",
				Range:   o.Decl,
			})
		}
	},
}
