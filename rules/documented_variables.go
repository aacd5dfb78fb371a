package rules

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// DocumentedVariables is the rule documented_variables.
var DocumentedVariables = &Rule{
	Name:   "documented_variables",
	TFLint: "terraform_documented_variables",
	Doc: `Reports a variable without a description, or with an empty one.
The description is what a caller of the module reads. The rule is off by
default.

Bad:

    variable "region" { type = string }

Good:

    variable "region" {
      type        = string
      description = "The region to deploy to."
    }`,
	Severity: Notice,
	Check: func(p *Pass) {
		for _, name := range slices.Sorted(maps.Keys(p.Module.Variables)) {
			v := p.Module.Variables[name]
			if strings.TrimSpace(v.Description) != "" {
				continue
			}
			p.Report(Finding{
				Message: fmt.Sprintf("Variable %q has no description", name),
				Detail:  "A caller of the module reads the description to know what to pass. Add description = \"...\".",
				Range:   v.Decl,
			})
		}
	},
}
