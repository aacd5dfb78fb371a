package rules

import (
	"fmt"

	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/config"
)

// MiddlewareBlock is the rule middleware_block.
var MiddlewareBlock = &Rule{
	Name: "middleware_block",
	Doc: `Reports a malformed middleware block of the middleware RFC. The RFC
requires command (the program to run) and metadata_key (the key under which
OpenTofu stores the metadata the middleware returns; the RFC gives it no
default), so a block without either is an error, and so is an empty
metadata_key. Also reported: an argument the block does not have, with a
suggestion where the name is a known slip (middleware_key, which the RFC
itself writes once, for metadata_key), and an argument of the wrong type:
command must be a string, args a list of strings, env a map of strings,
metadata_key a constant string and send_sensitive a constant bool. Values
that refer to variables are checked where their constant parts show a
mistake.

Bad:

    middleware "cost" {
      middleware_key = "cost"
      command        = "cost-estimate"
      args           = "--monthly"
    }

Good:

    middleware "cost" {
      metadata_key = "cost"
      command      = "cost-estimate"
      args         = ["--monthly"]
    }`,
	Severity: Error,
	Enabled:  true,
	Claims:   ClaimsKind(config.KindMiddlewareBlock),
	Check: func(p *Pass) {
		for _, d := range p.LoadDiagnostics {
			if k, ok := config.KindOf(d); ok && k == config.KindMiddlewareBlock {
				p.ReportDiagnostic(d, nil)
			}
		}
		for _, mw := range config.InOrder(p.Module.Middleware) {
			checkMetadataKey(p, mw)
		}
	},
}

// checkMetadataKey reports a middleware block without metadata_key, or
// with an empty one. The loader leaves the argument optional, since the
// RFC's rule is not OpenTofu's yet; a value of the wrong type is the
// loader's diagnostic.
func checkMetadataKey(p *Pass, mw *config.Middleware) {
	attr := middlewareAttr(p.Module, mw.Name, "metadata_key")
	if attr == nil {
		p.Report(Finding{
			Message: "Missing required argument",
			Detail: fmt.Sprintf("The argument \"metadata_key\" is required, but no definition was found. Middleware %q must say under which key OpenTofu stores the metadata it returns, for example metadata_key = %q.",
				mw.Name, mw.Name),
			Range: mw.Decl,
		})
		return
	}
	if len(attr.Expr.Variables()) > 0 {
		return
	}
	if v, diags := attr.Expr.Value(nil); !diags.HasErrors() && v.Type() == cty.String && !v.IsMarked() && v.IsKnown() && !v.IsNull() && v.AsString() == "" {
		p.Report(Finding{
			Message: "Invalid metadata_key",
			Detail:  fmt.Sprintf("The metadata_key of middleware %q is empty; it must name the key under which OpenTofu stores the middleware's metadata.", mw.Name),
			Range:   attr.Expr.Range(),
		})
	}
}
