package rules

import (
	"cmp"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tofucue/tofucue/config"
)

// providerRefs returns the local names of the providers the module uses,
// each with the place of one use: resources, data sources (in check blocks
// too) and ephemeral resources by their provider argument or their type,
// provider blocks, the providers maps of module calls, and provider
// functions (provider::NAME::f). Where a name is used several times the
// place is that of its last block in file order, or of its last function
// call, as TFLint's terraform ruleset reports it.
func providerRefs(m *config.Module) map[string]hcl.Range {
	type use struct {
		name string
		at   hcl.Range
	}
	var uses []use
	for _, rs := range []map[string]*config.Resource{m.ManagedResources, m.DataResources, m.EphemeralResources} {
		for _, r := range rs {
			uses = append(uses, use{r.ProviderName(), r.Decl})
		}
	}
	for _, c := range m.Checks {
		if c.DataSource != nil {
			uses = append(uses, use{c.DataSource.ProviderName(), c.DataSource.Decl})
		}
	}
	for _, pc := range m.ProviderConfigs {
		uses = append(uses, use{pc.Name, pc.Decl})
	}
	for _, mc := range m.ModuleCalls {
		for i := range mc.Providers {
			uses = append(uses, use{mc.Providers[i].InParent.Name, mc.Decl})
		}
	}
	slices.SortStableFunc(uses, func(a, b use) int {
		return cmp.Or(cmp.Compare(a.at.Filename, b.at.Filename), cmp.Compare(a.at.Start.Byte, b.at.Start.Byte))
	})
	refs := map[string]hcl.Range{}
	for _, u := range uses {
		refs[u.name] = u.at
	}
	walkSyntax(m, func(_ []byte, n hclsyntax.Node, _ []hclsyntax.Node) {
		if call, ok := n.(*hclsyntax.FunctionCallExpr); ok {
			if parts := strings.Split(call.Name, "::"); len(parts) >= 3 && parts[0] == "provider" && parts[1] != "" {
				refs[parts[1]] = call.Range()
			}
		}
	})
	return refs
}
