package rules

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/json"
)

// ApplyFixes applies the fixes of findings to the sources of their files
// (keyed by file name) and returns the new sources of the files that
// change. A fix whose edits overlap an earlier fix's is left out, and so is
// a fix that would make its file fail to parse; both are returned in
// skipped with the reason, so that nothing is changed silently. The result
// keeps all other bytes, so formatting and comments stay as they were.
func ApplyFixes(sources map[string][]byte, findings []Finding) (changed map[string][]byte, skipped []error) {
	byFile := map[string][]*Fix{}
	for i := range findings {
		f := findings[i].Fix
		if f == nil || len(f.Edits) == 0 {
			continue
		}
		byFile[f.Edits[0].Range.Filename] = append(byFile[f.Edits[0].Range.Filename], f)
	}
	changed = map[string][]byte{}
	for name, fixes := range byFile {
		src, ok := sources[name]
		if !ok {
			skipped = append(skipped, fmt.Errorf("%s: no source to fix", name))
			continue
		}
		var accepted []Edit
		for _, fix := range fixes {
			if err := checkEdits(name, src, fix.Edits, accepted); err != nil {
				skipped = append(skipped, fmt.Errorf("%s: %s: %w", name, fix.Description, err))
				continue
			}
			trial := applyEdits(src, append(slices.Clone(accepted), fix.Edits...))
			if err := parses(name, trial); err != nil {
				skipped = append(skipped, fmt.Errorf("%s: %s: the result would not parse: %w", name, fix.Description, err))
				continue
			}
			accepted = append(accepted, fix.Edits...)
		}
		if len(accepted) > 0 {
			changed[name] = applyEdits(src, accepted)
		}
	}
	return changed, skipped
}

// checkEdits rejects edits that leave the file, belong to another file, or
// overlap each other or the edits already accepted.
func checkEdits(name string, src []byte, edits, accepted []Edit) error {
	for i, e := range edits {
		r := e.Range
		if r.Filename != name {
			return fmt.Errorf("one fix edits two files (%s and %s)", name, r.Filename)
		}
		if r.Start.Byte < 0 || r.End.Byte < r.Start.Byte || r.End.Byte > len(src) {
			return fmt.Errorf("edit range %d-%d is outside the file", r.Start.Byte, r.End.Byte)
		}
		for _, o := range append(slices.Clone(accepted), edits[:i]...) {
			if overlap(e.Range, o.Range) {
				return fmt.Errorf("it overlaps another fix at bytes %d-%d", o.Range.Start.Byte, o.Range.End.Byte)
			}
		}
	}
	return nil
}

// overlap reports whether two byte ranges share a byte, or are insertions
// at the same place (whose order would be ambiguous).
func overlap(a, b hcl.Range) bool {
	if a.Start.Byte == b.Start.Byte {
		return true
	}
	return a.Start.Byte < b.End.Byte && b.Start.Byte < a.End.Byte
}

func applyEdits(src []byte, edits []Edit) []byte {
	sorted := slices.Clone(edits)
	slices.SortFunc(sorted, func(a, b Edit) int { return cmp.Compare(a.Range.Start.Byte, b.Range.Start.Byte) })
	var out []byte
	last := 0
	for _, e := range sorted {
		out = append(out, src[last:e.Range.Start.Byte]...)
		out = append(out, e.NewText...)
		last = e.Range.End.Byte
	}
	return append(out, src[last:]...)
}

func parses(name string, src []byte) error {
	var diags hcl.Diagnostics
	if strings.HasSuffix(name, ".json") {
		_, diags = json.Parse(src, name)
	} else {
		_, diags = hclsyntax.ParseConfig(src, name, hcl.InitialPos)
	}
	if diags.HasErrors() {
		return diags
	}
	return nil
}
