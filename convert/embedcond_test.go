package convert

import (
	"strings"
	"testing"

	"cuelang.org/go/cue/format"
	"cuelang.org/go/cue/parser"
)

// TestEmbedConditionals checks which selections embedConditionals writes
// as a struct embedding the results: those whose two guards are a
// condition and its negation, and no other.
func TestEmbedConditionals(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`x: [if a > 1 {"b"}, if a <= 1 {"c"}][0]`, `x: {if a > 1 {"b"}, if a <= 1 {"c"}}`},
		{`x: [if !a {1}, if a {2}][0]`, `x: {if !a {1}, if a {2}}`},
		{`x: [if a == null {null}, if a != null {[for v in a {v}]}][0]`, `x: {if a == null {null}, if a != null {[for v in a {v}]}}`},
		// Nested: both levels.
		{`x: [if a {[if b {1}, if !b {2}][0]}, if !a {3}][0]`, `x: {if a {{if b {1}, if !b {2}}}, if !a {3}}`},
		// The last result unguarded, guards that are not each other's
		// negation, more than two results, more than one clause, an
		// index other than 0: left as they are.
		{`x: [if a {1}, 2][0]`, `x: [if a {1}, 2][0]`},
		{`x: [if a {1}, if b {2}][0]`, `x: [if a {1}, if b {2}][0]`},
		{`x: [if a {1}, if !a {2}, 3][0]`, `x: [if a {1}, if !a {2}, 3][0]`},
		{`x: [if a if b {1}, if !a {2}][0]`, `x: [if a if b {1}, if !a {2}][0]`},
		{`x: [if a {1}, if !a {2}][1]`, `x: [if a {1}, if !a {2}][1]`},
		{`x: [for v in a {v}, if !a {2}][0]`, `x: [for v in a {v}, if !a {2}][0]`},
	} {
		f, err := parser.ParseFile("x.cue", tc.in)
		if err != nil {
			t.Fatal(err)
		}
		embedConditionals(f)
		b, err := format.Node(f)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.TrimSpace(string(b)); got != tc.want {
			t.Errorf("%s:\ngot  %s\nwant %s", tc.in, got, tc.want)
		}
	}
}
