package rules

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// naiveAccepted is the rule of ApplyFixes written the slow, obvious way:
// the fixes in order, each kept when none of its edits overlaps one kept
// before or another of its own.
func naiveAccepted(fixes []*Fix) []bool {
	var kept []Edit
	ok := make([]bool, len(fixes))
	for i, f := range fixes {
		good := true
		for j, e := range f.Edits {
			for _, o := range append(append([]Edit(nil), kept...), f.Edits[:j]...) {
				if overlap(e.Range, o.Range) {
					good = false
				}
			}
		}
		if good {
			kept = append(kept, f.Edits...)
			ok[i] = true
		}
	}
	return ok
}

// TestApplyFixesOverlapRule compares ApplyFixes with naiveAccepted on
// random fixes of a file that any edit keeps parseable (a comment).
func TestApplyFixesOverlapRule(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for round := range 300 {
		size := 1 + r.IntN(60)
		src := []byte("#" + strings.Repeat("x", size-1))
		var fixes []*Fix
		var findings []Finding
		for i := range 1 + r.IntN(25) {
			f := &Fix{Description: fmt.Sprintf("fix %d", i)}
			for range 1 + r.IntN(3) {
				start := 1 + r.IntN(size)
				end := min(size, start+r.IntN(4))
				if start > end {
					start = end
				}
				f.Edits = append(f.Edits, Edit{Range: rangeAt("m.tf", start, end), NewText: fmt.Sprintf("<%d>", i)})
			}
			fixes = append(fixes, f)
			findings = append(findings, Finding{Fix: f})
		}
		want := naiveAccepted(fixes)
		changed, skipped := ApplyFixes(map[string][]byte{"m.tf": src}, findings)
		nwant := 0
		for i, ok := range want {
			if ok {
				nwant++
			}
			got := bytes.Contains(changed["m.tf"], fmt.Appendf(nil, "<%d>", i))
			if got != ok {
				t.Fatalf("round %d: fix %d applied %v, want %v\nfixes: %s\nresult %q", round, i, got, ok, dumpFixes(fixes), changed["m.tf"])
			}
		}
		if len(skipped) != len(fixes)-nwant {
			t.Fatalf("round %d: %d skipped, want %d: %v", round, len(skipped), len(fixes)-nwant, skipped)
		}
	}
}

func dumpFixes(fixes []*Fix) string {
	var b strings.Builder
	for i, f := range fixes {
		fmt.Fprintf(&b, "\n%d:", i)
		for _, e := range f.Edits {
			fmt.Fprintf(&b, " %d-%d", e.Range.Start.Byte, e.Range.End.Byte)
		}
	}
	return b.String()
}

// TestApplyFixesBisects leaves out exactly the fixes that break the file,
// among many that do not.
func TestApplyFixesBisects(t *testing.T) {
	var src strings.Builder
	src.WriteString("locals {\n")
	var findings []Finding
	var bad []int
	for i := range 200 {
		line := fmt.Sprintf("  l%d = 1\n", i)
		at := src.Len() + strings.LastIndex(line, "1")
		src.WriteString(line)
		text := "2"
		if i%37 == 5 {
			text = "(" // breaks the file
			bad = append(bad, i)
		}
		findings = append(findings, Finding{Fix: &Fix{Description: fmt.Sprintf("fix %d", i), Edits: []Edit{{Range: rangeAt("m.tf", at, at+1), NewText: text}}}})
	}
	src.WriteString("}\n")
	changed, skipped := ApplyFixes(map[string][]byte{"m.tf": []byte(src.String())}, findings)
	out := string(changed["m.tf"])
	if err := parses("m.tf", changed["m.tf"]); err != nil {
		t.Fatalf("result does not parse: %v", err)
	}
	if strings.Count(out, "= 2") != 200-len(bad) {
		t.Errorf("%d fixes applied, want %d", strings.Count(out, "= 2"), 200-len(bad))
	}
	if len(skipped) != len(bad) {
		t.Fatalf("skipped %v, want fixes %v", skipped, bad)
	}
	for k, i := range bad {
		if !strings.Contains(skipped[k].Error(), fmt.Sprintf("fix %d: the result would not parse", i)) {
			t.Errorf("skipped[%d] = %v, want fix %d", k, skipped[k], i)
		}
	}
}

func TestPositions(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 50 {
		n := 1 + r.IntN(40)
		p := newPositions(n)
		member := make([]bool, n)
		for range r.IntN(n + 1) {
			k := r.IntN(n)
			if !member[k] {
				member[k] = true
				p.add(k)
			}
		}
		for i := range n {
			wb, wa := -1, -1
			for j := i - 1; j >= 0; j-- {
				if member[j] {
					wb = j
					break
				}
			}
			for j := i + 1; j < n; j++ {
				if member[j] {
					wa = j
					break
				}
			}
			if gb, ga := p.before(i), p.after(i); gb != wb || ga != wa {
				t.Fatalf("members %v: before(%d), after(%d) = %d, %d, want %d, %d", member, i, i, gb, ga, wb, wa)
			}
		}
	}
}

// BenchmarkApplyFixes applies n fixes to one file; the time per fix stays
// flat as n grows (go test ./rules -run '^$' -bench ApplyFixes).
func BenchmarkApplyFixes(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			var src strings.Builder
			src.WriteString("locals {\n")
			var findings []Finding
			for i := range n {
				line := fmt.Sprintf("  l%d = \"${var.x}\" # c%d\n", i, i)
				at := src.Len() + strings.Index(line, `"`)
				src.WriteString(line)
				findings = append(findings, Finding{Fix: &Fix{Description: "unwrap", Edits: []Edit{
					{Range: rangeAt("m.tf", at, at+3)},
					{Range: rangeAt("m.tf", at+8, at+10)},
				}}})
			}
			src.WriteString("}\n")
			sources := map[string][]byte{"m.tf": []byte(src.String())}
			for b.Loop() {
				if _, skipped := ApplyFixes(sources, findings); len(skipped) > 0 {
					b.Fatal(skipped[0])
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/fix")
		})
	}
}
