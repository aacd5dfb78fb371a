package convert

import "testing"

func TestTypeFunctionsSameAsOpenTofu(t *testing.T) {
	for _, expr := range []string{
		`tobool(true)`,
		`tobool("false")`,
		`tobool("true")`,
		`tobool(null)`,
		`tonumber(1.5)`,
		`tonumber("42")`,
		`tonumber("-1.25e2")`,
		`tonumber("007")`,
		`tonumber("+5")`,
		`tonumber("-42")`,
		`tonumber("123456789012345678901234567890")`,
		`tonumber(".5")`,
		`tonumber(null)`,
		`tostring("a")`,
		`tostring(1.5)`,
		`tostring(10)`,
		`tostring(false)`,
		`tostring(null)`,
		`tolist(["a", "b"])`,
		`tolist(["a", 1, true])`,
		`tolist([])`,
		`tolist([{a = 1}, {a = 2}])`,
		`tolist(toset(["b", "a"]))`,
		`toset(["b", "a", "b"])`,
		`toset([3, 1, 2, 1, 10])`,
		`toset([true, false, true])`,
		`toset(["a", 1])`,
		`toset([])`,
		`toset(["é", "z", "e", "Z"])`,
		// Objects, lists and maps in go-cty's order: by the bytes of
		// each one's serialization (v = 10 before v = 9, "a\"" after
		// "a" quoted, numbers in ten digits of %g); objects of different
		// attributes are maps.
		`toset([{ n = "b", v = 9 }, { n = "b", v = 10 }, { n = "a", v = 100 }, { n = "b", v = 9 }])`,
		`toset([{ n = "a\"", v = true }, { n = "a", v = false }, { n = "a", v = true }])`,
		`toset([{ n = "x", v = 0.25 }, { n = "x", v = 1.5 }, { n = "x", v = -2 }, { n = "x", v = 12345678901 }])`,
		`toset([["b", "a"], ["a"], ["a", "b"], []])`,
		`toset([{ b = "1" }, { a = "2" }, { a = "1", b = "0" }])`,
		`toset([{ n = "b", tags = ["y", "x"] }, { n = "b", tags = ["x"] }, { n = "a", tags = [] }])`,
		`[for o in toset([{ k = "b" }, { k = "a" }]) : o.k]`,
		`tomap({a = 1, b = 2})`,
		`tomap({a = "x", b = 1, c = true})`,
		`tomap({})`,
		`tomap({a = [1], b = [2]})`,
		`nonsensitive(sensitive({a = 1}))`,
		`length(toset(["a", "a", "b"]))`,
		`join(",", toset(["b", "a"]))`,
	} {
		t.Run(expr, func(t *testing.T) { checkSameAsOpenTofu(t, expr) })
	}
}

// TestToNumberErrors checks strings that are not decimal numbers: CUE
// rejects them as OpenTofu does, strconv.Atoi's forms (underscores, a
// base prefix) included.
func TestToNumberErrors(t *testing.T) {
	for _, expr := range []string{
		`tonumber("1_000")`,
		`tonumber("0x10")`,
		`tonumber(" 5")`,
		`tonumber("5 ")`,
		`tonumber("")`,
		`tonumber("-")`,
	} {
		t.Run(expr, func(t *testing.T) { checkErrorLikeOpenTofu(t, expr) })
	}
}
