package plan

import "github.com/hashicorp/hcl/v2"

// UniqueDiagnostics drops repeated diagnostics, keeping the first of
// each: a planner's plan and apply passes report the same warnings, and
// one error of a CUE program is met by more than one of the engine's
// evaluations. Two diagnostics are the same when they say the same
// thing (detail, or summary where there is no detail) about the same
// line of the same file: the column and the summary vary with where the
// error was met (an argument's value, or the nested block that holds
// it), not with what it is.
func UniqueDiagnostics(diags hcl.Diagnostics) hcl.Diagnostics {
	type id struct {
		text, file string
		line       int
	}
	seen := map[id]bool{}
	var out hcl.Diagnostics
	for _, d := range diags {
		k := id{text: d.Detail}
		if k.text == "" {
			k.text = d.Summary
		}
		if d.Subject != nil {
			k.file, k.line = d.Subject.Filename, d.Subject.Start.Line
		}
		if !seen[k] {
			seen[k] = true
			out = append(out, d)
		}
	}
	return out
}
