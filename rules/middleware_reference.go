package rules

import (
	"fmt"
	"maps"
	"slices"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/refs"
)

// MiddlewareReference is the rule middleware_reference.
var MiddlewareReference = &Rule{
	Name: "middleware_reference",
	Doc: `Reports an element of a middleware list (middleware = [...] in the
terraform block or in a provider block) that does not name a declared
middleware block: a middleware.NAME with no block of that name (with a
suggestion when a declared name is close), middleware.NAME followed by more
steps, and anything that is not such a reference at all, such as a quoted
string, a variable or a resource. In a module that declares no middleware
block but a resource of type "middleware", middleware.NAME refers to that
resource, which is not a middleware either.

Bad:

    middleware "cost_estimator" {
      metadata_key = "cost"
      command      = "cost-estimate"
    }
    terraform { middleware = [middleware.cost_estimater, "middleware.cost_estimator"] }

Good:

    terraform { middleware = [middleware.cost_estimator] }`,
	Severity: Error,
	Enabled:  true,
	Claims:   ClaimsKind(config.KindMiddlewareReference),
	Check: func(p *Pass) {
		for _, d := range p.LoadDiagnostics {
			if k, ok := config.KindOf(d); ok && k == config.KindMiddlewareReference {
				p.ReportDiagnostic(d, nil)
			}
		}
		m := p.Module
		declared := slices.Collect(maps.Keys(m.Middleware))
		for _, l := range middlewareLists(m) {
			for _, e := range l.elems {
				checkMiddlewareElement(p, l, e, declared)
			}
		}
	},
}

func checkMiddlewareElement(p *Pass, l middlewareList, e config.Reference, declared []string) {
	m := p.Module
	text := refs.TraversalString(e.Traversal)
	if name, ok := listedMiddleware(m, e); ok {
		if _, ok := m.Middleware[name]; !ok {
			p.Report(Finding{
				Message: "Reference to undeclared middleware",
				Detail:  fmt.Sprintf("No middleware block named %q is declared in this module, so %s cannot attach it.%s", name, l.owner(), didYouMean(name, declared)),
				Range:   e.Traversal.SourceRange(),
			})
		}
		return
	}
	detail := fmt.Sprintf("Each element of middleware must be a reference to a middleware block, such as middleware.name; %s is not one.", text)
	ref, _ := refs.Parse(e.Traversal, m)
	if ref != nil {
		switch s := ref.Subject.(type) {
		case refs.FeatureSymbol:
			if s.Feature.Block == "middleware" {
				detail = fmt.Sprintf("Each element of middleware must name a middleware block, as middleware.%s does, with nothing after the name.", s.Name)
			}
		case refs.Resource, refs.ResourceInstance:
			r := resourceOf(ref)
			if r.Mode == config.ManagedMode && r.Type == "middleware" && !ref.Escaped() {
				detail = fmt.Sprintf("This module declares no middleware block, so %s refers to resource \"middleware\" %q, which is not a middleware. Declare a middleware block named %q to attach it.", text, r.Name, r.Name)
			}
		}
	}
	p.Report(Finding{
		Message: "Invalid middleware reference",
		Detail:  detail,
		Range:   e.Traversal.SourceRange(),
	})
}
