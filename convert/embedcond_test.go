package convert

import (
	"strings"
	"testing"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/format"
	"cuelang.org/go/cue/parser"
)

// TestEmbedConditionals checks which selections embedConditionals writes
// as a struct embedding the results: those whose two guards are a
// condition and its negation, and no other.
func TestEmbedConditionals(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		unmarked bool
	}{
		{in: `x: [if a > 1 {"b"}, if a <= 1 {"c"}][0]`, want: `x: {if a > 1 {"b"}, if a <= 1 {"c"}}`},
		{in: `x: [if !a {1}, if a {2}][0]`, want: `x: {if !a {1}, if a {2}}`},
		{in: `x: [if a == null {null}, if a != null {[for v in a {v}]}][0]`, want: `x: {if a == null {null}, if a != null {[for v in a {v}]}}`},
		// Nested: both levels.
		{in: `x: [if a {[if b {1}, if !b {2}][0]}, if !a {3}][0]`, want: `x: {if a {{if b {1}, if !b {2}}}, if !a {3}}`},
		// Guards that are not each other's negation, more than two
		// results, more than one clause, an index other than 0: left as
		// they are.
		{in: `x: [if a {1}, 2][0]`, want: `x: {if a {1}, if !a {2}}`},
		{in: `x: [if a == null {false}, b > 1][0]`, want: `x: {if a == null {false}, if a != null {b > 1}}`},
		// A test against _|_ or an 'error' probe, whose negation would
		// be one more: left as it is.
		{in: `x: [if a == _|_ {1}, 2][0]`, want: `x: [if a == _|_ {1}, 2][0]`},
		{in: `x: [if (*a | 'error') != 'error' {a}, 2][0]`, want: `x: [if (*a | 'error') != 'error' {a}, 2][0]`},
		{in: `x: [if a {1}, if b {2}][0]`, want: `x: [if a {1}, if b {2}][0]`},
		{in: `x: [if a {1}, if !a {2}, 3][0]`, want: `x: [if a {1}, if !a {2}, 3][0]`},
		{in: `x: [if a if b {1}, if !a {2}][0]`, want: `x: [if a if b {1}, if !a {2}][0]`},
		{in: `x: [if a {1}, if !a {2}][1]`, want: `x: [if a {1}, if !a {2}][1]`},
		{in: `x: [for v in a {v}, if !a {2}][0]`, want: `x: [for v in a {v}, if !a {2}][0]`},
		// One the writer did not mark (not pure) keeps its selection.
		{in: `x: [if a {1}, if !a {2}][0]`, want: `x: [if a {1}, if !a {2}][0]`, unmarked: true},
	} {
		f, err := parser.ParseFile("x.cue", tc.in)
		if err != nil {
			t.Fatal(err)
		}
		// Every selection marked embeddable, as the writer marks pure
		// ones, but in the last case.
		marked := map[*ast.IndexExpr]bool{}
		ast.Walk(f, func(n ast.Node) bool {
			if ix, ok := n.(*ast.IndexExpr); ok && !tc.unmarked {
				marked[ix] = true
			}
			return true
		}, nil)
		embedConditionals(f, marked)
		b, err := format.Node(f)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.TrimSpace(string(b)); got != tc.want {
			t.Errorf("%s:\ngot  %s\nwant %s", tc.in, got, tc.want)
		}
	}
}

// TestPureShadowedNames converts a conditional inside for expressions
// where an inner variable shadows an outer one that the collection of
// the one between reads: the walk of what the conditional depends on
// (runtimeValues, for pure) found the inner binding again through that
// collection and recursed until the stack overflowed.
func TestPureShadowedNames(t *testing.T) {
	r, _ := convertSource(t, map[string]string{"main.tf": `
variable "l" {
  type = any
}
output "x" {
  value = [for x in var.l : [for y in x.items : [for x in y.sub : x == null ? "a" : "b"]]]
}
`})
	if r.Diagnostics.HasErrors() {
		t.Fatalf("not converted: %s", r.Diagnostics.Error())
	}
	var out string
	for _, f := range r.Files {
		out += string(f.Source)
	}
	// Pure: the root module's variable alone.
	if !strings.Contains(out, `{if x_1 == null {"a"}, if x_1 != null {"b"}}`) && !strings.Contains(out, `== null {"a"}, if`) {
		t.Errorf("the conditional is not embedded:\n%s", out)
	}
}
