package convert

import (
	"strings"
	"testing"
)

func TestCollectionFunctionsSameAsOpenTofu(t *testing.T) {
	for _, expr := range []string{
		`alltrue([true, true])`,
		`alltrue([true, false])`,
		`alltrue([])`,
		`alltrue(["true", true])`,
		`anytrue([false, true])`,
		`anytrue([false, false])`,
		`anytrue([])`,
		`chunklist([1, 2, 3, 4, 5], 2)`,
		`chunklist(["a", "b"], 0)`,
		`chunklist([], 3)`,
		`chunklist(["a", "b", "c"], 3)`,
		`coalescelist([], ["a"], ["b"])`,
		`coalescelist([], [1, 2])`,
		`compact(["a", "", null, "b"])`,
		`compact([])`,
		`compact([1, "", "x"])`,
		`compact(["a", true, 1.5, null, "", "b"])`,
		// Lists known to hold strings: compact and distinct without the
		// kind test of each element.
		`compact(["a", "", "b", ""])`,
		`compact([for s in ["A", "", "B"] : lower(s)])`,
		`compact(distinct(["a", "", "a", "b"]))`,
		`distinct([for s in ["B", "a", "b"] : lower(s)])`,
		`distinct(compact(["b", "", "a", "b"]))`,
		`distinct(split(",", "x,y,x,,y"))`,
		// Strings that would be awkward as CUE labels, in the order
		// first seen.
		`distinct(["_a", "#b", "", "_a", "a b", "", "$${x}", "#b"])`,
		`distinct([for s in ["_A", "#b", "", "_a"] : lower(s)])`,
		`distinct(["1", 1, "2", 2])`,
		`distinct(["a", null, "a", null])`,
		`distinct([true, false, true])`,
		`contains(["a", "b"], "b")`,
		`contains(["a", "b"], "c")`,
		`contains([1, 2, 3], 2)`,
		`contains([1, 2, 3], 4 / 2)`,
		`contains([[1], [2]], [2])`,
		`contains([{a = 1}], {a = 1})`,
		`distinct(["b", "a", "b", "c", "a"])`,
		`distinct([1, 2, 1, 3])`,
		`distinct([])`,
		`distinct([{a = 1}, {a = 2}, {a = 1}])`,
		`element(["a", "b", "c"], 1)`,
		`element(["a", "b", "c"], 4)`,
		`element(["a", "b", "c"], -1)`,
		`element(["a", "b", "c"], 6 / 2)`,
		`flatten([["a", "b"], [], ["c"]])`,
		`flatten([[["a"]], "b", [["c", ["d"]]]])`,
		`flatten([])`,
		`flatten([[{a = 1}], [null]])`,
		`index(["a", "b", "c"], "b")`,
		`index([1, 2, 3], 3)`,
		`keys({b = 1, a = 2, c = 3})`,
		`keys({})`,
		`keys({"z-key" = 1, "A" = 2, "a" = 3})`,
		`values({b = 1, a = 2, c = 3})`,
		`values({b = [1], a = {x = 1}})`,
		`values({})`,
		`matchkeys(["i-1", "i-2", "i-3"], ["a", "b", "a"], ["a"])`,
		`matchkeys(["x", "y"], [1, 2], [2, 3])`,
		`matchkeys(["x"], ["a"], [])`,
		`one([])`,
		`one(["a"])`,
		`one([{a = 1}])`,
		`range(3)`,
		`range(0)`,
		`range(-3)`,
		`range(1, 4)`,
		`range(4, 1)`,
		`range(0, 10, 3)`,
		`range(10, 0, -4)`,
		`range(0, 1, 0.25)`,
		`range(length([1, 2]))`,
		`range(length([1, 2]), 0)`,
		`reverse([1, 2, 3])`,
		`reverse([])`,
		`setintersection(["a", "b", "c"], ["b", "c", "d"], ["c", "b"])`,
		`setintersection(["b", "a"])`,
		`setintersection([1, 2], [])`,
		`setunion(["b", "a"], ["c", "a"])`,
		`setunion([3, 1], [2, 10])`,
		`setunion(["a"], [1])`,
		`setsubtract(["a", "b", "c"], ["a", "c"])`,
		`setsubtract([3, 1, 2], [2])`,
		`setproduct(["a", "b"], [1, 2])`,
		`setproduct(["a"], [], ["x"])`,
		`setproduct(["a", "b"], ["x"], [true, false])`,
		`setproduct(toset(["b", "a"]), [10, 2, 1])`,
		`setproduct(toset(["a"]), ["b"])`,
		`setproduct(["y", "x", "y"], toset([true, false]))`,
		`slice(["a", "b", "c", "d"], 1, 3)`,
		`slice(["a", "b"], 0, 0)`,
		`slice(["a", "b"], 2, 2)`,
		`sort(["b", "a", "C", "aa"])`,
		`sort([10, 9, 100])`,
		`sort([])`,
		`sort(split(",", "z,y,x"))`,
		`sum([1, 2, 3])`,
		`sum([1.5, 2.25])`,
		`sum([-1])`,
		`sum(["2", 3])`,
		`transpose({a = ["1", "2"], b = ["2", "3"]})`,
		`transpose({a = [], b = ["x", "x"]})`,
		`transpose({})`,
		`zipmap(["a", "b"], [1, 2])`,
		`zipmap(["a", "b", "a"], [1, 2, 3])`,
		`zipmap([], [])`,
		`zipmap(["a", "b"], [{x = 1}, [2]])`,
		`length(keys({a = 1}))`,
	} {
		t.Run(expr, func(t *testing.T) { checkSameAsOpenTofu(t, expr) })
	}
}

// TestFunctionsNotConverted checks that calls CUE cannot reproduce are
// reported, with the reason.
func TestFunctionsNotConverted(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{`format("%s %s", "a")`, "needs 2 arguments"},
		{`format("%s", "a", "b")`, "uses 1 of its 2"},
		{`format("%c", 65)`, "not valid"},
		{`format("%z", 1)`, "not valid"},
		{`format("%v", [1])`, "JSON"},
		{`formatlist("%s", var.l...)`, "expanded"},
		{`regex(var.f, "a")`, "not a literal"},
		{`regex("(a*)?b", "b")`, "may match the empty string"},
		{`regex("(a?)|b", "b")`, "may match the empty string"},
		{`regex("(^)|b", "b")`, "may match the empty string"},
		{`regexall("(a)*b", "b")`, "may take no part"},
		{`regex("(?P<x>a)(b)", "ab")`, "mixes named and unnamed"},
		{`regex("(", "a")`, "not a valid regular expression"},
		{`replace("a", "/(/", "b")`, "not a valid regular expression"},
		{`setproduct(toset([]), ["b"])`, "element type is not known"},
		{`issensitive("a")`, "sensitive"},
		{`parseint("10", 1)`, "between 2 and 62"},
		{`keys({}, {})`, "one argument"},
	} {
		t.Run(tc.src, func(t *testing.T) {
			r, _ := convertSource(t, map[string]string{"main.tf": "variable \"f\" {\n  type = string\n}\nvariable \"l\" {\n  type = list(string)\n}\noutput \"x\" {\n  value = " + tc.src + "\n}\n"})
			if !r.Diagnostics.HasErrors() {
				t.Fatalf("%s: converted, want not converted", tc.src)
			}
			if d := r.Diagnostics.Error(); !strings.Contains(d, tc.want) {
				t.Errorf("%s: diagnostics %q do not say %q", tc.src, d, tc.want)
			}
		})
	}
}

// TestStringListForms checks the forms of compact, distinct and length
// where the converter proves that the list holds strings, or the value is
// a string: no library definition with a kind test of each element, which
// would evaluate the element again (see typeOf). A list not known to hold
// strings keeps the library's definitions.
func TestStringListForms(t *testing.T) {
	for _, tc := range []struct{ src, want, not string }{
		{`compact(var.l)`, `if x != null if x != ""`, "tofu.#compact"},
		{`compact([for s in var.l : lower(s)])`, `if x != null if x != ""`, "tofu.#compact"},
		{`distinct(var.l)`, "tofu.#distinctstrings", "tofu.#distinct &"},
		{`distinct(compact(var.a))`, "tofu.#distinctstrings", "tofu.#distinct &"},
		{`length(var.f)`, "len(strings.Runes(_var_f))", "tofu.#length"},
		{`[for k in var.l : length({a = var.f, b = "x"}[k])]`, "len(strings.Runes(", "tofu.#length"},
		{`compact(var.a)`, "tofu.#compact", "if x != null"},
		{`distinct(var.a)`, "tofu.#distinct &", "#distinctstrings"},
		{`[for k in var.l : length({a = var.f, b = 1}[k])]`, "tofu.#length", "strings.Runes"},
	} {
		checkForm(t, tc.src, tc.want, tc.not)
	}
}

// TestReferenceTestForms checks the forms written for a reference of a
// kind not known: in a root module its conversion to a string is the
// library's (in a called module's template, see TestCalledTostringForm),
// and its null test tells a value len takes, before the library's and
// the guard's unifications, which evaluate the reference's expression
// again. Another expression keeps the library's form.
func TestReferenceTestForms(t *testing.T) {
	for _, tc := range []struct{ src, want, not string }{
		{`lower(var.a)`, `strings.ToLower((tofu.#tostring & {#args: [_var_a]}).out)`, "MinRunes"},
		{`lower(var.a.name)`, `(tofu.#tostring & {#args: [_var_a.name]}).out`, "MinRunes"},
		{`lower(var.a == null ? "x" : var.a)`, "tofu.#tostring", "MinRunes"},
		{`terraform_data.d.output == null`, `if len(terraform_data.d.output) != _|_ {`, "\x00"},
		{`tolist(terraform_data.d.output) != null`, `[if (*((tofu.#unify & {`, "\x00"},
		{`var.f == null`, "_var_f == null", "len("},
		// The root module's inputs are known while planning, in full.
		{`var.a == null`, "_var_a == null", "len("},
		{`var.l != null`, "_var_l != null", "len("},
	} {
		checkForm(t, tc.src, tc.want, tc.not)
	}
}

// TestCalledTostringForm checks the conversion to a string of a
// reference of a kind not known in a called module's template: a known
// string is told with strings.MinRunes and interpolated, before the
// library's unification, which would evaluate the reference's expression
// again at each reference (a chain of calls passing a value on would pay
// for the whole chain at each call).
func TestCalledTostringForm(t *testing.T) {
	r, _ := convertSource(t, map[string]string{
		"main.tf":   "module \"m\" {\n  source = \"./m\"\n  a      = [\"x\"]\n}\n",
		"m/main.tf": "variable \"a\" {\n  type = any\n}\noutput \"x\" {\n  value = lower(var.a[0])\n}\n",
	})
	if r.Diagnostics.HasErrors() {
		t.Fatalf("not converted: %s", r.Diagnostics.Error())
	}
	var root, template string
	for _, f := range r.Files {
		if strings.HasPrefix(f.Name, "module_") {
			template += string(f.Source)
		} else {
			root += string(f.Source)
		}
	}
	for _, want := range []string{`if strings.MinRunes(_arg.a[0], 0) != _|_ {`, `"\(_arg.a[0])"`, `strings.MinRunes(_arg.a[0], 0) == _|_`} {
		if !strings.Contains(template, want) {
			t.Errorf("the template lacks %q:\n%s", want, template)
		}
	}
	if strings.Contains(root, "MinRunes") {
		t.Errorf("the root module has the called module's form:\n%s", root)
	}
}

// checkForm converts src, an output's value in a module with variables
// f (string), l (list(string)) and a (any) and a resource
// terraform_data.d, and checks that the CUE
// written holds want and not not.
func checkForm(t *testing.T, src, want, not string) {
	t.Helper()
	t.Run(src, func(t *testing.T) {
		r, _ := convertSource(t, map[string]string{"main.tf": "variable \"f\" {\n  type = string\n}\nvariable \"l\" {\n  type = list(string)\n}\nvariable \"a\" {\n  type = any\n}\nresource \"terraform_data\" \"d\" {\n  input = var.a\n}\noutput \"x\" {\n  value = " + src + "\n}\n"})
		if r.Diagnostics.HasErrors() {
			t.Fatalf("%s: not converted: %s", src, r.Diagnostics.Error())
		}
		var out string
		for _, f := range r.Files {
			out += string(f.Source)
		}
		if !strings.Contains(out, want) || strings.Contains(out, not) {
			t.Errorf("%s: want %q and not %q in:\n%s", src, want, not, out)
		}
	})
}
