package convert

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// TestShapeOfArg checks what an argument's expression tells of its value
// whatever it reads: never null, and the same of all its elements and of
// its attributes by static key.
func TestShapeOfArg(t *testing.T) {
	for _, tc := range []struct {
		src                  string
		nonNull, elem, attrA bool
	}{
		{`var.x`, false, false, false},
		{`null`, false, false, false},
		{`"s"`, true, false, false},
		{`"${var.x}-a"`, true, false, false},
		{`[for x in var.l : x]`, true, false, false},
		{`[{ a = 1 }, { a = var.x }]`, true, true, false},
		{`[{ a = 1 }, { a = "b" }]`, true, true, false},
		{`[{ a = 1 }, null]`, true, false, false},
		{`[var.x, { a = 1 }]`, true, false, false},
		{`{ a = [1], b = var.x }`, true, false, true},
		{`{ "a" = { c = 1 }, b = {} }`, true, true, true},
		{`({ a = 1 })`, true, true, true},
	} {
		e, diags := hclsyntax.ParseExpression([]byte(tc.src), "arg.tf", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatalf("%s: %s", tc.src, diags.Error())
		}
		sh := shapeOfArg(e)
		if got := [3]bool{sh.isNonNull(), sh.elem().isNonNull(), sh.attr("a").isNonNull()}; got != [3]bool{tc.nonNull, tc.elem, tc.attrA} {
			t.Errorf("%s: non-null itself, all elements, attribute a = %v, want %v", tc.src, got, [3]bool{tc.nonNull, tc.elem, tc.attrA})
		}
	}
}
