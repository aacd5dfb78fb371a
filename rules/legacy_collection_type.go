package rules

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tofucue/tofucue/config"
)

// LegacyCollectionType is the rule legacy_collection_type.
var LegacyCollectionType = &Rule{
	Name: "legacy_collection_type",
	Doc: `Reports a bare list, map or set keyword used as a type. As a variable's
whole type, list and map are shorthands kept for older configurations,
meaning list(any) and map(any) (warning). Anywhere else they are errors
that OpenTofu reports when it loads the module: set alone, or list, map
or set inside another type (object({ ids = list })), because a type
constructor needs its element type there (error). The fix writes
list(any), map(any) or set(any), which means what the shorthand means;
an exact element type (list(string)) is better still, but only the
module's author knows it.

Bad:

    variable "subnet_ids" {
      type = list
    }

Good:

    variable "subnet_ids" {
      type = list(string)
    }`,
	Severity: Warning,
	Enabled:  true,
	Fixes:    true,
	Claims:   ClaimsKind(config.KindLegacyType),
	Check: func(p *Pass) {
		reported := map[hcl.Range]bool{}
		for _, v := range config.InOrder(p.Module.Variables) {
			if v.TypeExpr == nil {
				continue
			}
			config.TypeExprParts(v.TypeExpr, func(expr hcl.Expression, name string, top bool) {
				if name != "list" && name != "map" && name != "set" {
					return
				}
				rng := expr.Range()
				reported[rng] = true
				p.Report(legacyKeywordFinding(name, top, rng))
			})
		}
		for _, d := range claimedDiagnostics(p, config.KindLegacyType) {
			if d.Subject == nil || !reported[*d.Subject] {
				p.ReportDiagnostic(d, nil)
			}
		}
	},
}

func legacyKeywordFinding(name string, top bool, rng hcl.Range) Finding {
	full := name + "(any)"
	fix := &Fix{Description: fmt.Sprintf("Replace %s with %s", name, full), Edits: []Edit{{Range: rng, NewText: full}}}
	if strings.HasSuffix(rng.Filename, ".json") {
		// A JSON type is a string holding native syntax. hcl's JSON parser
		// places the positions inside it one byte early, so only the
		// whole string can be replaced with confidence.
		fix = nil
		if top {
			fix = &Fix{Description: fmt.Sprintf("Replace %s with %s", name, full), Edits: []Edit{{Range: rng, NewText: `"` + full + `"`}}}
		}
	}
	if top && name != "set" {
		return Finding{
			Message: fmt.Sprintf("Legacy type keyword %s: write %s", name, full),
			Detail: fmt.Sprintf("The bare keyword %s is a shorthand for %s, kept for compatibility with older configurations. Write %s, or better the exact element type, as in %s(string).",
				name, full, full, name),
			Range: rng,
			Fix:   fix,
		}
	}
	where := "inside another type"
	if top {
		where = "alone"
	}
	return Finding{
		Severity: Error,
		Message:  fmt.Sprintf("The %s type needs an element type: write %s", name, full),
		Detail: fmt.Sprintf("OpenTofu reads the bare keywords list and map as list(any) and map(any) only as a variable's whole type and never reads set alone, so it rejects %s %s. Write %s, or better the exact element type, as in %s(string).",
			name, where, full, name),
		Range: rng,
		Fix:   fix,
	}
}
