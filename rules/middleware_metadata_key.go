package rules

import (
	"fmt"

	"github.com/tofucue/tofucue/config"
)

// MiddlewareMetadataKey is the rule middleware_metadata_key.
var MiddlewareMetadataKey = &Rule{
	Name: "middleware_metadata_key",
	Doc: `Reports two middleware blocks with the same metadata_key. The
middleware RFC stores the metadata that a middleware returns in state and
plan under its metadata_key, so that other middleware can read it; two
middleware with one key overwrite each other's metadata, and whoever reads
the key gets the one that ran last. The RFC requires metadata_key and gives
no default (middleware_block reports a block without one), so only keys
written out can collide. The finding is on every block after the first that
uses a key.

Bad:

    middleware "cost" {
      metadata_key = "cost"
      command      = "cost-estimate"
    }
    middleware "budget" {
      metadata_key = "cost"
      command      = "budget-check"
    }

Good:

    middleware "budget" {
      metadata_key = "budget"
      command      = "budget-check"
    }`,
	Severity: Error,
	Enabled:  true,
	Check: func(p *Pass) {
		m := p.Module
		first := map[string]*config.Middleware{}
		for _, mw := range config.InOrder(m.Middleware) {
			key := mw.MetadataKey
			if key == "" {
				continue
			}
			prev, dup := first[key]
			if !dup {
				first[key] = mw
				continue
			}
			rng := mw.Decl
			if a := middlewareAttr(m, mw.Name, "metadata_key"); a != nil {
				rng = a.Expr.Range()
			}
			prevAt := prev.Decl
			if a := middlewareAttr(m, prev.Name, "metadata_key"); a != nil {
				prevAt = a.Expr.Range()
			}
			p.Report(Finding{
				Message: fmt.Sprintf("Middleware %q and %q have the same metadata_key %q", prev.Name, mw.Name, key),
				Detail: fmt.Sprintf("Middleware %q already stores its metadata under %q (%s). Both write to the same key in state and plan, so each overwrites the other's metadata, and middleware that reads the key gets whichever ran last. Give middleware %q a metadata_key of its own.",
					prev.Name, key, startPos(prevAt), mw.Name),
				Range: rng,
			})
		}
	},
}
