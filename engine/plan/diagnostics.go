package plan

import "github.com/hashicorp/hcl/v2"

// UniqueDiagnostics drops repeated diagnostics (the same severity-free
// summary, detail and subject), keeping the first of each: a planner's
// plan and apply passes report the same warnings.
func UniqueDiagnostics(diags hcl.Diagnostics) hcl.Diagnostics {
	type id struct {
		summary, detail string
		subject         hcl.Range
	}
	seen := map[id]bool{}
	var out hcl.Diagnostics
	for _, d := range diags {
		k := id{d.Summary, d.Detail, hcl.Range{}}
		if d.Subject != nil {
			k.subject = *d.Subject
		}
		if !seen[k] {
			seen[k] = true
			out = append(out, d)
		}
	}
	return out
}
