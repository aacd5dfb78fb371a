package rules

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
)

// MiddlewareAttachedTwice is the rule middleware_attached_twice.
var MiddlewareAttachedTwice = &Rule{
	Name: "middleware_attached_twice",
	Doc: `Reports a middleware attached twice to the same resources. The
middleware RFC runs the project's middleware (the terraform block's list)
first and then the provider's, each list in its order; a middleware in both
runs twice for that provider's resources, and the provider-level run's
metadata overwrites the project-level run's, neither run knowing of the
other. The same middleware twice in one list runs twice in a row, and its
second run's metadata overwrites the first's. The finding is on the
attachment that runs second.

Bad:

    terraform { middleware = [middleware.cost] }
    provider "aws" { middleware = [middleware.cost] }

Good:

    terraform { middleware = [middleware.cost] }
    provider "aws" {}`,
	Severity: Warning,
	Enabled:  true,
	Check: func(p *Pass) {
		m := p.Module
		var project map[string]hcl.Range
		for i, l := range middlewareLists(m) {
			seen := map[string]hcl.Range{}
			for _, e := range l.elems {
				name, ok := listedMiddleware(m, e)
				if _, declared := m.Middleware[name]; !ok || !declared {
					continue
				}
				rng := e.Traversal.SourceRange()
				if first, dup := seen[name]; dup {
					p.Report(Finding{
						Message: fmt.Sprintf("middleware.%s is attached twice in the middleware list of %s", name, l.owner()),
						Detail: fmt.Sprintf("It is already attached at %s, so it runs twice in a row for each resource there, and this second run's metadata overwrites the first run's. Remove one of the two.",
							startPos(first)),
						Range: rng,
					})
					continue
				}
				seen[name] = rng
				if first, both := project[name]; both && i > 0 {
					p.Report(Finding{
						Message: fmt.Sprintf("middleware.%s is attached to the project and to %s", name, l.owner()),
						Detail: fmt.Sprintf("The terraform block attaches it to every resource of the project at %s, so it runs twice for the resources of %s: first as project-level middleware, then as this provider's. The provider-level run's metadata overwrites the project-level run's, and neither run knows of the other. Attach it in one place only.",
							startPos(first), l.owner()),
						Range: rng,
					})
				}
			}
			if i == 0 {
				project = seen
			}
		}
	},
}
