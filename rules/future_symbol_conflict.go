package rules

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/tofucue/tofucue/features"
	"github.com/tofucue/tofucue/refs"
)

// FutureSymbolConflict is the rule future_symbol_conflict.
var FutureSymbolConflict = &Rule{
	Name: "future_symbol_conflict",
	Doc: `Reports a reference X.name that reaches resource "X" "name" only because
the module has not opted in to the feature whose symbol is X. Opting in
later (one symbols block is enough for symbols) would make X.name mean the
feature's block, in this expression and everywhere else in the module. The
fix writes the reference with the "resource." prefix, which means the same
today and after opting in.

Bad:

    resource "symbols" "legacy" {}
    output "id" { value = symbols.legacy.id }

Good:

    output "id" { value = resource.symbols.legacy.id }`,
	Severity: Warning,
	Enabled:  true,
	Fixes:    true,
	Check: func(p *Pass) {
		for _, u := range p.References {
			f, ok := refs.SymbolConflict(u.Reference, p.Module)
			if !ok {
				continue
			}
			root := u.Traversal[0].SourceRange()
			p.Report(Finding{
				Message: fmt.Sprintf("%s would change meaning with the %s feature", u.Subject, f.Name),
				Detail: fmt.Sprintf("%s refers to resource %q %q only because this module has not opted in to the %q feature. %s would make %s.NAME refer to %s blocks, here and everywhere else in the module. Write resource.%s to refer to the resource either way.",
					u.Text(), resourceType(u.Reference), resourceName(u.Reference), f.Name, optInHow(f), f.Symbol, f.Block, u.Text()),
				Range: u.Range,
				Fix: &Fix{
					Description: `Insert "resource."`,
					Edits:       []Edit{{Range: hcl.Range{Filename: root.Filename, Start: root.Start, End: root.Start}, NewText: "resource."}},
				},
			})
		}
	},
}

// optInHow says how a module opts in to a feature, as the start of a
// sentence.
func optInHow(f features.Feature) string {
	if f.State == features.Experiment {
		return fmt.Sprintf("Naming %s in a terraform block's experiments", f.Name)
	}
	return fmt.Sprintf("Declaring a %s block anywhere in the module", f.Block)
}

func resourceType(r *refs.Reference) string { return resourceOf(r).Type }
func resourceName(r *refs.Reference) string { return resourceOf(r).Name }

func resourceOf(r *refs.Reference) refs.Resource {
	switch s := r.Subject.(type) {
	case refs.Resource:
		return s
	case refs.ResourceInstance:
		return s.Resource
	}
	return refs.Resource{}
}
