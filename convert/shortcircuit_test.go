package convert

import "testing"

// TestLogicalSameAsOpenTofu checks || and && where the right operand
// fails but the left decides, and where it does not.
func TestLogicalSameAsOpenTofu(t *testing.T) {
	for _, expr := range []string{
		`null == null || length(null) > 0`,
		`null != null && length(null) > 0`,
		`[1] == null || length([1]) > 0`,
		`[1] != null && length([1]) > 1`,
		`{a = null}.a == null || {a = null}.a.b == 1`,
		`true && !(1 == 2) || 1 <= 0`,
		`false || true`,
		`null == null || null != null && length(null) > 1`,
		// Null tests of values whose kind is not known: a value len
		// takes (string, list, object) is not null without the guard.
		`[for v in [null, "a", "", [1], [], {a = 1}, 0, false] : v == null]`,
		`[for v in [null, "a", [1], {a = 1}, 0, true] : v != null]`,
		`{for k, v in {a = null, b = "x", c = [], d = 1} : k => v == null}`,
	} {
		t.Run(expr, func(t *testing.T) { checkSameAsOpenTofu(t, expr) })
	}
}
