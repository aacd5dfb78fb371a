package convert

import "testing"

// TestCompact checks which library calls and struct literals are written
// on one line: those whose parts are atoms and small structs, and not a
// comprehension, a large struct or one with a comment.
func TestCompact(t *testing.T) {
	for _, tc := range []struct{ src, want, not string }{
		// A call of atoms, and one with a small struct among them.
		{`cidrsubnet(var.f, 4, 1)`, `(tofu.#cidrsubnet & {#args: [_var_f, 4, 1]}).out`, "\x00"},
		{`merge(var.a, { Name = var.f })`, `(tofu.#merge & {#args: [_var_a, {Name: _var_f}]}).out`, "\x00"},
		// A call of a call of atoms.
		{`merge(merge(var.a, var.a), var.a)`, `(tofu.#merge & {#args: [(tofu.#merge & {#args: [_var_a, _var_a]}).out, _var_a]}).out`, "\x00"},
		// A list with a small struct, and a struct of three fields.
		{`[{ a = 1, b = var.f }]`, `[{a: 1, b: _var_f}]`, "\x00"},
		// A struct of four fields keeps its lines, and so does the call.
		{`merge(var.a, { a = 1, b = 2, c = 3, d = 4 })`, "#merge & {\n", `{a: 1, b: 2`},
		// A struct past 60 bytes keeps its lines.
		{`[{ a_rather_long_attribute_name = var.f, another_long_attribute = var.f }]`, "a_rather_long_attribute_name: _var_f\n", `{a_rather_long_attribute_name: _var_f,`},
		// A comprehension making a struct takes lines of its own.
		{`merge(var.a, { for k in var.l : k => 1 })`, "#merge & {\n", "#merge & {#args"},
		// A list comprehension of inline parts, and a conditional, go on
		// one line.
		{`[for x in var.l : upper(x) if x != ""]`, `[for x in _var_l if x != "" {strings.ToUpper(x)}]`, "\x00"},
		{`var.f == "" ? "a" : var.f`, `{if _var_f == "" {"a"}, if _var_f != "" {_var_f}}`, "\x00"},
	} {
		checkForm(t, tc.src, tc.want, tc.not)
	}
}
