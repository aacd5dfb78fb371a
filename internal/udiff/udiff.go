// Package udiff writes unified diffs: the line diffs of tofulint --diff and
// of golden test failures. The diff itself is diffmatchpatch's line mode
// (github.com/sergi/go-diff); this package groups it into hunks.
package udiff

import (
	"fmt"
	"strings"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// diffContext is the number of unchanged lines shown around each change.
const diffContext = 3

// lineOp is one line of a line diff: '-' only in want, '+' only in got,
// ' ' in both.
type lineOp struct {
	kind byte
	text string // without its newline
	eol  bool   // whether the line ended in a newline
}

// Unified returns the unified diff that turns a into b, with the file names
// in "---" and "+++" headers, as diff -u and git diff write it; "" when a and
// b are equal.
func Unified(aName, bName, a, b string) string {
	hunks := Hunks(a, b)
	if hunks == "" {
		return ""
	}
	return "--- " + aName + "\n+++ " + bName + "\n" + hunks
}

// Hunks returns a line diff from want to got: hunks of changed lines, each
// with a header "@@ -l,n +l,n @@" and up to three unchanged lines around
// the changes; lines only in want start with "-", lines only in got with
// "+", unchanged lines with " ". It returns "" when want and got are equal.
func Hunks(want, got string) string {
	if want == got {
		return ""
	}
	ops := lineDiff(want, got)

	var b strings.Builder
	for start := 0; start < len(ops); {
		// Find the next change.
		first := start
		for first < len(ops) && ops[first].kind == ' ' {
			first++
		}
		if first == len(ops) {
			break
		}
		// Extend the hunk while the gap between changes is small enough
		// that the two contexts would touch.
		last := first
		for i := first; i < len(ops); i++ {
			if ops[i].kind != ' ' {
				last = i
				continue
			}
			if i-last > 2*diffContext {
				break
			}
		}
		lo := max(first-diffContext, start)
		hi := min(last+diffContext+1, len(ops))
		writeHunk(&b, ops, lo, hi)
		start = hi
	}
	return b.String()
}

// lineDiff computes the diff of want and got line by line, with
// diffmatchpatch's line mode.
func lineDiff(want, got string) []lineOp {
	dmp := diffmatchpatch.New()
	a, b, lines := dmp.DiffLinesToChars(want, got)
	diffs := dmp.DiffCharsToLines(dmp.DiffMain(a, b, false), lines)
	var ops []lineOp
	for _, d := range diffs {
		var kind byte
		switch d.Type {
		case diffmatchpatch.DiffDelete:
			kind = '-'
		case diffmatchpatch.DiffInsert:
			kind = '+'
		default:
			kind = ' '
		}
		for line := range strings.Lines(d.Text) {
			text, eol := strings.CutSuffix(line, "\n")
			ops = append(ops, lineOp{kind: kind, text: text, eol: eol})
		}
	}
	return ops
}

func writeHunk(b *strings.Builder, ops []lineOp, lo, hi int) {
	// Line numbers (1-based) of ops[lo] in want and in got.
	wantLine, gotLine := 1, 1
	for _, op := range ops[:lo] {
		if op.kind != '+' {
			wantLine++
		}
		if op.kind != '-' {
			gotLine++
		}
	}
	wantN, gotN := 0, 0
	for _, op := range ops[lo:hi] {
		if op.kind != '+' {
			wantN++
		}
		if op.kind != '-' {
			gotN++
		}
	}
	fmt.Fprintf(b, "@@ -%s +%s @@\n", hunkRange(wantLine, wantN), hunkRange(gotLine, gotN))
	for _, op := range ops[lo:hi] {
		b.WriteByte(op.kind)
		b.WriteString(op.text)
		b.WriteByte('\n')
		if !op.eol {
			b.WriteString("\\ No newline at end of file\n")
		}
	}
}

// hunkRange formats a hunk's start line and line count the way unified
// diffs do: an empty range names the line before it.
func hunkRange(line, n int) string {
	if n == 0 {
		line--
	}
	return fmt.Sprintf("%d,%d", line, n)
}
