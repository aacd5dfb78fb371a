package rules

import (
	"github.com/tofucue/tofucue/refs"
)

// SymbolReference is the rule symbol_reference.
var SymbolReference = &Rule{
	Name: "symbol_reference",
	Doc: `Reports a reference to an opt-in feature's block that does not exist,
with the wording of the opt-in reference symbols RFC. In a module that has
opted in to a feature (a symbols block opts in to symbols), the feature's
prefix always names its blocks; where a resource of that type and name
exists, the finding suggests the "resource." prefix and fixes it. In a module
that has not opted in and has no resource of that type, the prefix is read
as the feature's too, since that is what the author most likely meant.

Bad:

    resource "symbols" "legacy" {}
    symbols "lib" { source = "./lib.tfsym.hcl" }
    locals { id = symbols.legacy.id }

Good:

    locals { id = resource.symbols.legacy.id }`,
	Severity: Error,
	Enabled:  true,
	Fixes:    true,
	Check: func(p *Pass) {
		// The elements of middleware = [...] lists are middleware_reference's.
		listed := middlewareListElements(p.Module)
		for _, u := range p.References {
			if _, ok := u.Subject.(refs.FeatureSymbol); !ok || listed[keyOf(u.Traversal.SourceRange())] {
				continue
			}
			for _, d := range refs.Check(u.Reference, p.Module) {
				var fix *Fix
				if pr, ok := refs.ProblemOf(d); ok && pr.Fix != nil {
					fix = &Fix{
						Description: `Insert "resource."`,
						Edits:       []Edit{{Range: pr.Fix.Range, NewText: pr.Fix.Text}},
					}
				}
				p.ReportDiagnostic(d, fix)
			}
		}
	},
}
