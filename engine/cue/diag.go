package cue

import (
	"path/filepath"
	"slices"
	"strings"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/errors"
	"cuelang.org/go/cue/token"
	"github.com/hashicorp/hcl/v2"

	"github.com/tofucue/tofucue/cueform"
)

// rangeOf is the source range of a CUE position: the point itself, nil
// when the position is unknown.
func rangeOf(p token.Pos) *hcl.Range {
	if !p.IsValid() {
		return nil
	}
	pos := hcl.Pos{Line: p.Line(), Column: p.Column(), Byte: p.Offset()}
	return &hcl.Range{Filename: p.Filename(), Start: pos, End: pos}
}

// errorDiags turns a CUE error into diagnostics: one per error, at its
// first position (or at fallback when it has none), with the error's
// message as detail.
func errorDiags(err error, summary string, fallback *hcl.Range) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, e := range errors.Errors(err) {
		subject := fallback
		var others []string
		positions := errors.Positions(e)
		// The module's own line says more than one of the function
		// library's (strings.Replace of a null in tofu/core.cue).
		first := max(0, slices.IndexFunc(positions, func(p token.Pos) bool { return !inLibrary(p) }))
		for i, p := range positions {
			if i == first {
				subject = rangeOf(p)
				continue
			}
			others = append(others, p.String())
		}
		detail := strings.TrimSpace(e.Error())
		if len(others) > 0 {
			detail += " (also at " + strings.Join(others, ", ") + ")"
		}
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail + ".", Subject: subject})
	}
	if len(diags) == 0 && err != nil {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: err.Error() + ".", Subject: fallback})
	}
	return diags
}

// inLibrary reports whether p is in a file of the function library that
// the converter adds to a module, its package tofu.
func inLibrary(p token.Pos) bool {
	return filepath.Base(filepath.Dir(p.Filename())) == cueform.Library
}

// fatal reports whether v is an error that more information cannot mend:
// a conflict, a failed constraint, a cycle. An incomplete value (a
// reference to something not known yet) is not fatal.
func fatal(v cue.Value) error {
	err := v.Err()
	if err == nil || cue.IsIncomplete(err) {
		return nil
	}
	return err
}
