package rules

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/refs"
)

// middlewareList is one middleware = [...] list of the middleware RFC: the
// project's, in the terraform block (provider nil), or a provider's.
type middlewareList struct {
	provider *config.Provider
	elems    []config.Reference
}

// middlewareLists returns the module's middleware lists in the order the
// RFC runs them: the project's first, then each provider's.
func middlewareLists(m *config.Module) []middlewareList {
	lists := []middlewareList{{elems: m.Terraform.Middleware}}
	for _, p := range config.InOrder(m.ProviderConfigs) {
		lists = append(lists, middlewareList{provider: p, elems: p.Middleware})
	}
	return lists
}

// owner names the block that holds the list.
func (l middlewareList) owner() string {
	if l.provider == nil {
		return "the terraform block"
	}
	return providerName(l.provider)
}

func providerName(p *config.Provider) string {
	if p.Alias != "" {
		return fmt.Sprintf("provider %q (alias %q)", p.Name, p.Alias)
	}
	return fmt.Sprintf("provider %q", p.Name)
}

// middlewareListElements returns the ranges of the traversals written as
// elements of middleware lists: the middleware rules check them, and the
// other reference rules leave them alone.
func middlewareListElements(m *config.Module) map[rangeKey]bool {
	out := map[rangeKey]bool{}
	for _, l := range middlewareLists(m) {
		for _, e := range l.elems {
			out[keyOf(e.Traversal.SourceRange())] = true
		}
	}
	return out
}

// listedMiddleware returns the name of the middleware block that a list
// element refers to, when it is written middleware.NAME and the module
// reads middleware. as the feature's symbol; it says nothing of whether
// the block exists.
func listedMiddleware(m *config.Module, e config.Reference) (string, bool) {
	ref, diags := refs.Parse(e.Traversal, m)
	if ref == nil || diags.HasErrors() || len(ref.Remaining) > 0 {
		return "", false
	}
	s, ok := ref.Subject.(refs.FeatureSymbol)
	if !ok || s.Feature.Block != "middleware" {
		return "", false
	}
	return s.Name, true
}

// middlewareAttr returns the argument of a middleware block as it is
// finally given: from the last body part that sets it (an override file's
// over the primary file's), or nil.
func middlewareAttr(m *config.Module, name, arg string) *hcl.Attribute {
	fb, ok := m.FeatureBlock("middleware", name)
	if !ok {
		return nil
	}
	schema := &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: arg}}}
	var found *hcl.Attribute
	var visit func(b hcl.Body)
	visit = func(b hcl.Body) {
		if parts := config.BodyParts(b); len(parts) > 1 {
			for _, p := range parts {
				visit(p)
			}
			return
		}
		content, _, _ := b.PartialContent(schema)
		if a, ok := content.Attributes[arg]; ok {
			found = a
		}
	}
	visit(fb.Body)
	return found
}
