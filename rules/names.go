package rules

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/agext/levenshtein"
	"github.com/hashicorp/hcl/v2"
)

// nearest returns the candidate closest to name when one is a likely typo
// of it (at most two edits away), and "" otherwise. Ties go to the
// candidate that sorts first, so the result does not depend on map order.
func nearest(name string, candidates []string) string {
	sorted := slices.Sorted(slices.Values(candidates))
	best, bestDist := "", 3
	for _, c := range sorted {
		if c == name {
			continue
		}
		if d := levenshtein.Distance(name, c, nil); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

// didYouMean is ` Did you mean "x"?` for the nearest candidate, or "".
func didYouMean(name string, candidates []string) string {
	if s := nearest(name, candidates); s != "" {
		return fmt.Sprintf(" Did you mean %q?", s)
	}
	return ""
}

// startPos writes where a range starts, as FILE:LINE,COLUMN with the file's base
// name (every file of a module is in its directory).
func startPos(r hcl.Range) string {
	return fmt.Sprintf("%s:%d,%d", filepath.Base(r.Filename), r.Start.Line, r.Start.Column)
}
