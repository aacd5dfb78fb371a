package rules

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/json"

	"github.com/tofucue/tofucue/internal/source"
)

// ApplyFixes applies the fixes of findings to the sources of their files
// (keyed by file name) and returns the new sources of the files that
// change. The fixes of a file are taken in the order of findings: a fix
// whose edits overlap those of a fix taken before it is left out (the
// earlier fix wins), and so is a fix without which the file would parse
// where with it it would not; both are returned in skipped with the
// reason, so that nothing is changed silently. The result keeps all other
// bytes, so formatting and comments stay as they were.
//
// The work is O(n log n) in the number of edits plus one parse of each
// changed file: the accepted edits are applied in one pass and the result
// parsed once. Only when that parse fails are the fixes bisected to find
// those that break it, which costs O(k log n) parses for k such fixes.
func ApplyFixes(sources map[string][]byte, findings []Finding) (changed map[string][]byte, skipped []error) {
	byFile := map[string][]*Fix{}
	var names []string
	for i := range findings {
		f := findings[i].Fix
		if f == nil || len(f.Edits) == 0 {
			continue
		}
		name := f.Edits[0].Range.Filename
		if byFile[name] == nil {
			names = append(names, name)
		}
		byFile[name] = append(byFile[name], f)
	}
	changed = map[string][]byte{}
	for _, name := range names {
		src, ok := sources[name]
		if !ok {
			skipped = append(skipped, fmt.Errorf("%s: no source to fix", name))
			continue
		}
		out, skip := fixFile(name, src, byFile[name])
		skipped = append(skipped, skip...)
		if out != nil {
			changed[name] = out
		}
	}
	return changed, skipped
}

// fixFile applies fixes, all of file name, to src; it returns nil when no
// fix is applied.
func fixFile(name string, src []byte, fixes []*Fix) ([]byte, []error) {
	var skipped []error
	skip := func(fix *Fix, format string, args ...any) {
		skipped = append(skipped, fmt.Errorf("%s: %s: "+format, append([]any{name, fix.Description}, args...)...))
	}

	// Every edit of the file, sorted by where it starts; ties keep the
	// order of the findings.
	type edit struct {
		Edit
		fix int
	}
	var all []edit
	for i, fix := range fixes {
		valid := true
		for _, e := range fix.Edits {
			r := e.Range
			if r.Filename != name {
				skip(fix, "one fix edits two files (%s and %s)", name, r.Filename)
				valid = false
				break
			}
			if r.Start.Byte < 0 || r.End.Byte < r.Start.Byte || r.End.Byte > len(src) {
				skip(fix, "edit range %d-%d is outside the file", r.Start.Byte, r.End.Byte)
				valid = false
				break
			}
		}
		if valid {
			for _, e := range fix.Edits {
				all = append(all, edit{e, i})
			}
		}
	}
	slices.SortStableFunc(all, func(a, b edit) int { return cmp.Compare(a.Range.Start.Byte, b.Range.Start.Byte) })
	// at[i] lists the positions in all of fix i's edits.
	at := make([][]int, len(fixes))
	for k, e := range all {
		at[e.fix] = append(at[e.fix], k)
	}

	// Take the fixes in order; a fix is accepted when none of its edits
	// overlaps an accepted edit or another of its own. Accepted edits are
	// disjoint, so only an edit's nearest accepted neighbors in start order
	// can overlap it.
	accepted := newPositions(len(all))
	var order []int // the accepted fixes, in order
	for i, fix := range fixes {
		ks := at[i]
		if len(ks) == 0 {
			continue
		}
		conflict := -1
		for j, k := range ks {
			if j > 0 && overlap(all[ks[j-1]].Range, all[k].Range) {
				conflict = ks[j-1]
				break
			}
			if p := accepted.before(k); p >= 0 && overlap(all[p].Range, all[k].Range) {
				conflict = p
				break
			}
			if n := accepted.after(k); n >= 0 && overlap(all[n].Range, all[k].Range) {
				conflict = n
				break
			}
		}
		if conflict >= 0 {
			o := all[conflict].Range
			skip(fix, "it overlaps another fix at bytes %d-%d", o.Start.Byte, o.End.Byte)
			continue
		}
		for _, k := range ks {
			accepted.add(k)
		}
		order = append(order, i)
	}
	if len(order) == 0 {
		return nil, skipped
	}

	apply := func(fixIdx []int) []byte {
		var es []Edit
		for _, i := range fixIdx {
			for _, k := range at[i] {
				es = append(es, all[k].Edit)
			}
		}
		return applyEdits(src, es)
	}
	out := apply(order)
	if parses(name, out) == nil {
		return out, skipped
	}
	if err := parses(name, src); err != nil {
		// No fix can be checked against a file that does not parse.
		for _, i := range order {
			skip(fixes[i], "the file does not parse: %w", err)
		}
		return nil, skipped
	}
	// Some fix breaks the file: bisect. A half is kept when the file parses
	// with it on top of what is kept so far; a single fix that does not is
	// left out with the parser's complaint.
	var kept []int
	var bisect func(part []int)
	bisect = func(part []int) {
		err := parses(name, apply(append(slices.Clone(kept), part...)))
		switch {
		case err == nil:
			kept = append(kept, part...)
		case len(part) == 1:
			skip(fixes[part[0]], "the result would not parse: %w", err)
		default:
			bisect(part[:len(part)/2])
			bisect(part[len(part)/2:])
		}
	}
	bisect(order)
	if len(kept) == 0 {
		return nil, skipped
	}
	return apply(kept), skipped
}

// positions is a set of the integers 0..n-1 with the nearest member below
// and above a number, in O(log n): a Fenwick tree of counts.
type positions struct{ tree []int }

func newPositions(n int) *positions { return &positions{tree: make([]int, n+1)} }

func (p *positions) add(i int) {
	for i++; i < len(p.tree); i += i & -i {
		p.tree[i]++
	}
}

// count returns how many members are below i.
func (p *positions) count(i int) int {
	c := 0
	for ; i > 0; i -= i & -i {
		c += p.tree[i]
	}
	return c
}

// nth returns the member with c members below it, or -1.
func (p *positions) nth(c int) int {
	i, step := 0, 1
	for step*2 < len(p.tree) {
		step *= 2
	}
	for ; step > 0; step /= 2 {
		if i+step < len(p.tree) && p.tree[i+step] <= c {
			i += step
			c -= p.tree[i]
		}
	}
	if i >= len(p.tree)-1 {
		return -1
	}
	return i
}

// before returns the greatest member below i, or -1.
func (p *positions) before(i int) int {
	c := p.count(i)
	if c == 0 {
		return -1
	}
	return p.nth(c - 1)
}

// after returns the least member above i, or -1.
func (p *positions) after(i int) int {
	return p.nth(p.count(i + 1))
}

// overlap reports whether two byte ranges share a byte, or are insertions
// at the same place (whose order would be ambiguous).
func overlap(a, b hcl.Range) bool {
	if a.Start.Byte == b.Start.Byte {
		return true
	}
	return a.Start.Byte < b.End.Byte && b.Start.Byte < a.End.Byte
}

// applyEdits returns src with edits, which must not overlap, applied in
// one pass.
func applyEdits(src []byte, edits []Edit) []byte {
	sorted := slices.Clone(edits)
	slices.SortFunc(sorted, func(a, b Edit) int { return cmp.Compare(a.Range.Start.Byte, b.Range.Start.Byte) })
	size := len(src)
	for _, e := range sorted {
		size += len(e.NewText) - (e.Range.End.Byte - e.Range.Start.Byte)
	}
	out := make([]byte, 0, max(size, 0))
	last := 0
	for _, e := range sorted {
		out = append(out, src[last:e.Range.Start.Byte]...)
		out = append(out, e.NewText...)
		last = e.Range.End.Byte
	}
	return append(out, src[last:]...)
}

func parses(name string, src []byte) error {
	if d := source.CheckNesting(src, name, source.SyntaxOf(name)); d != nil {
		return hcl.Diagnostics{d}
	}
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
