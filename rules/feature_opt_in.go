package rules

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/tofucue/tofucue/features"
)

// FeatureOptIn is the rule feature_opt_in.
var FeatureOptIn = &Rule{
	Name: "feature_opt_in",
	Doc: `Reports mistakes in how a module opts in to language features: an
experiments list naming a keyword that no feature has (error) or a removed
feature (error, with what became of it), a selectable feature named as an
experiment (warning: a block of its type is the opt-in, and naming it
enables nothing), a block of an experiment the module has not named
(error), and a language edition this version does not know (error).

Bad:

    terraform {
      experiments = [symbols, module_variable_optional_attrs]
    }

Good:

    symbols "lib" { source = "./lib.tfsym.hcl" }`,
	Severity: Error,
	Enabled:  true,
	Claims:   isOptIn,
	Check: func(p *Pass) {
		for _, d := range p.LoadDiagnostics {
			if isOptIn(d) {
				p.ReportDiagnostic(d, nil)
			}
		}
	},
}

func isOptIn(d *hcl.Diagnostic) bool {
	_, ok := features.OptInOf(d)
	return ok
}
