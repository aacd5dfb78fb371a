package convert

import (
	"strings"
	"testing"
	"unicode"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/format"
	"cuelang.org/go/cue/parser"
)

// TestShare runs share on structs written by hand and compares the CUE it
// leaves. (The golden cases convert/shared_calls and verify/shared_calls
// check that a converted module's values stay those of OpenTofu.)
func TestShare(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
	}{{
		name: "once is left alone",
		in:   `{a: (tofu.#element & {#args: [l, 0]}).out, b: (tofu.#element & {#args: [l, 1]}).out}`,
		want: `{a: (tofu.#element & {#args: [l, 0]}).out, b: (tofu.#element & {#args: [l, 1]}).out}`,
	}, {
		name: "twice is a let",
		in:   `{a: (tofu.#element & {#args: [l, 0]}).out, b: [(tofu.#element & {#args: [l, 0]}).out]}`,
		want: `{let element = (tofu.#element & {#args: [l, 0]}).out, a: element, b: [element]}`,
	}, {
		name: "a let before the lets that read it",
		in: `{
			a: (tofu.#tostring & {#args: [(tofu.#element & {#args: [l, 0]}).out]}).out
			b: (tofu.#tostring & {#args: [(tofu.#element & {#args: [l, 0]}).out]}).out
			c: (tofu.#element & {#args: [l, 0]}).out
		}`,
		want: `{let element = (tofu.#element & {#args: [l, 0]}).out, let tostring = (tofu.#tostring & {#args: [element]}).out, a: tostring, b: tostring, c: element}`,
	}, {
		name: "a name taken by a field is numbered",
		in:   `{element: (tofu.#element & {#args: [l, 0]}).out, b: (tofu.#element & {#args: [l, 0]}).out}`,
		want: `{let element_1 = (tofu.#element & {#args: [l, 0]}).out, element: element_1, b: element_1}`,
	}, {
		name: "a keyword is numbered",
		in:   `{a: (tofu.#for & {#args: [1]}).out, b: (tofu.#for & {#args: [1]}).out}`,
		want: `{let for_1 = (tofu.#for & {#args: [1]}).out, a: for_1, b: for_1}`,
	}, {
		name: "a comprehension's variable keeps its calls in the comprehension's body",
		in:   `{a: [for v in l {x: (tofu.#f & {#args: [v]}).out, y: (tofu.#f & {#args: [v]}).out}], b: (tofu.#f & {#args: [v]}).out}`,
		want: `{a: [for v in l {let f = (tofu.#f & {#args: [v]}).out, x: f, y: f}], b: (tofu.#f & {#args: [v]}).out}`,
	}, {
		name: "an outer let's name is not taken again inside",
		in: `{
			a: (tofu.#f & {#args: [w]}).out, b: (tofu.#f & {#args: [w]}).out
			c: [for v in l {x: (tofu.#f & {#args: [v]}).out, y: (tofu.#f & {#args: [v]}).out}]
		}`,
		want: `{let f = (tofu.#f & {#args: [w]}).out, a: f, b: f, c: [for v in l {let f_1 = (tofu.#f & {#args: [v]}).out, x: f_1, y: f_1}]}`,
	}, {
		name: "a nested struct's field is not in reach from the top",
		in:   `{a: {w: 1, x: (tofu.#f & {#args: [w]}).out}, b: (tofu.#f & {#args: [w]}).out, c: (tofu.#f & {#args: [w]}).out}`,
		want: `{let f = (tofu.#f & {#args: [w]}).out, a: {w: 1, x: (tofu.#f & {#args: [w]}).out}, b: f, c: f}`,
	}, {
		name: "a let of the comprehension's clauses binds too",
		in:   `{a: [for v in l let w = v {(tofu.#f & {#args: [w]}).out + (tofu.#f & {#args: [w]}).out}]}`,
		want: `{a: [for v in l let w = v {let f = (tofu.#f & {#args: [w]}).out, f + f}]}`,
	}, {
		name: "the same text bound apart is shared apart",
		in:   `{a: [for v in l {(tofu.#f & {#args: [v]}).out}], b: [for v in m {(tofu.#f & {#args: [v]}).out}]}`,
		want: `{a: [for v in l {(tofu.#f & {#args: [v]}).out}], b: [for v in m {(tofu.#f & {#args: [v]}).out}]}`,
	}, {
		name: "other expressions stay repeated",
		in:   `{a: strings.ToUpper(x) + (*x | "e"), b: strings.ToUpper(x) + (*x | "e")}`,
		want: `{a: strings.ToUpper(x) + (*x | "e"), b: strings.ToUpper(x) + (*x | "e")}`,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			c := &converter{}
			s := parseStruct(t, tc.in)
			c.share(s)
			if got, want := oneLine(t, s), oneLine(t, parseStruct(t, tc.want)); got != want {
				t.Errorf("got\n%s\nwant\n%s", got, want)
			}
		})
	}
}

func parseStruct(t *testing.T, src string) *ast.StructLit {
	t.Helper()
	x, err := parser.ParseExpr("test", src)
	if err != nil {
		t.Fatalf("parse %s: %v", src, err)
	}
	return x.(*ast.StructLit)
}

// oneLine is n formatted, without its commas and white space, so that a
// case compares the declarations and not their layout.
func oneLine(t *testing.T, n ast.Node) string {
	t.Helper()
	b, err := format.Node(n)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Map(func(r rune) rune {
		if r == ',' || unicode.IsSpace(r) {
			return -1
		}
		return r
	}, string(b))
}

// TestShareNodeInTwoPlaces gives share a call whose node the converter
// put in two places, one of them inside a comprehension that binds a name
// the call reads: neither place is shared, since a node is replaced
// wherever it is.
func TestShareNodeInTwoPlaces(t *testing.T) {
	s := parseStruct(t, `{a: (tofu.#f & {#args: [v]}).out, b: (tofu.#f & {#args: [v]}).out, c: [for v in l {0}]}`)
	a := s.Elts[0].(*ast.Field).Value
	s.Elts[2].(*ast.Field).Value.(*ast.ListLit).Elts[0].(*ast.Comprehension).Value = embed(a)
	(&converter{}).share(s)
	want := `{a: (tofu.#f & {#args: [v]}).out, b: (tofu.#f & {#args: [v]}).out, c: [for v in l {(tofu.#f & {#args: [v]}).out}]}`
	if got := oneLine(t, s); got != oneLine(t, parseStruct(t, want)) {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
