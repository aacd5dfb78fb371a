package convert

import "testing"

// TestFormatAtEvaluation checks format and formatlist whose format string
// is known only when evaluating (tofu.#format), or whose arguments are an
// expanded list, against OpenTofu.
func TestFormatAtEvaluation(t *testing.T) {
	vars := map[string]string{
		"name":  `"web"`,
		"f":     `"%s-%03d|%-5s|%5.2f|%x|%t|%q|%%|%v|%v"`,
		"fv":    `"%v / %#v / %10v"`,
		"idx":   `"%[2]s %[1]s %s"`,
		"plain": `"no verbs"`,
		"azs":   `["a", "b"]`,
		"args":  `["x", 7]`,
		"lst":   `[1, {b = "<&>", a = null}]`,
		"num":   `2.5`,
		"pct":   `"100%"`,
	}
	for _, expr := range []string{
		`format(var.f, "s", 7, "ab", 3.14159, 255, true, "q\"", 1.5, null)`,
		`format(var.fv, var.lst, "str", 12)`,
		`format(var.idx, "a", "b")`,
		`format(var.plain)`,
		`format("${var.name}-%s", element(var.azs, 1))`,
		`format("%s=%d", var.args...)`,
		`format("${var.name}-%s-%d", var.args...)`,
		`format("%v", var.num)`,
		`format("${var.name}:%s:%s:%s", "a", 2.5, false)`,
		`format("${var.name}%s%s", "", 10)`,
		`format("%s${var.name}%s", var.args...)`,
		`format("${var.name}-%s-%%s", "a")`,
		`formatlist(var.idx, var.azs, "z")`,
		`formatlist("${var.name}-%s", var.azs)`,
		`[for v in ["%v:*", "%v:*:*"] : format(v, var.name)]`,
	} {
		t.Run(expr, func(t *testing.T) {
			w := &withInputs{expr: expr, vars: vars}
			w.check(t, false)
		})
	}
	for _, expr := range []string{
		`format(var.pct)`,
		`format(var.plain, 1)`,
		`format(var.idx, "a")`,
		`format("%d", var.name)`,
		`format("${var.name}%z", 1)`,
		`format("${var.name}%s", null)`,
		`format("${var.name}-%s", "a", "b")`,
		`format("${var.name}-%s-%s", "a")`,
		`format(var.name, "a")`,
		`format("${var.name}%s", [1])`,
		`format("${var.name}%s%", 1)`,
	} {
		t.Run(expr, func(t *testing.T) {
			w := &withInputs{expr: expr, vars: vars}
			w.check(t, true)
		})
	}
}
