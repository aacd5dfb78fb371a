package convert

import (
	"strings"
	"testing"
)

func TestCoreFunctionsSameAsOpenTofu(t *testing.T) {
	for _, expr := range []string{
		`try(tomap({a = 1})["b"], "dflt")`,
		`try({a = 1}.a, "dflt")`,
		`try([][0], {a = 1}.b, "third")`,
		`try([][0], {a = 1}.a, "third")`,
		`try([][0], {a = 1}.b, [1][2], {x = [1]})`,
		`try({a = [][0]}, "nested error", "third")`,
		`try(null, "second", "third")`,
		`try([][0], tomap({a = 1}), "third")`,
		// The library's #try takes six; more are written in place.
		`try(tomap({a = 1})["b"], tomap({a = 1})["c"], tomap({a = 1})["d"], tomap({a = 1})["e"], tomap({a = 1})["f"], "sixth")`,
		`try(tomap({a = 1})["b"], tomap({a = 1})["c"], tomap({a = 1})["a"], tomap({a = 1})["e"], tomap({a = 1})["f"], "sixth")`,
		`try(tomap({a = 1})["b"], tomap({a = 1})["c"], tomap({a = 1})["d"], tomap({a = 1})["e"], tomap({a = 1})["a"], "sixth")`,
		`try(tomap({a = 1})["b"], tomap({a = 1})["c"], tomap({a = 1})["d"], tomap({a = 1})["e"], tomap({a = 1})["f"], tomap({a = 1})["g"], "seventh")`,
		`try(tomap({a = 1})["b"], tomap({a = 1})["c"], tomap({a = 1})["d"], tomap({a = 1})["e"], tomap({a = 1})["f"], tomap({a = 1})["a"], "seventh")`,
		// For expressions' variables, two values read the same path: the
		// library's #tryattr, over every kind of value the path may meet
		// on its way (an output's try of one value is *v.a | "d").
		`[for v in [{a = 1}, {b = 2}, null, "s", [1], {a = null}] : [for w in [{a = "w"}, {}] : try(v.a, w.a, "d")]]`,
		`[for v in [{a = {b = 1}}, {a = null}, {a = "s"}, {a = [1]}, {a = {c = 1}}, {}, {a = {b = null}}] : [for w in [{a = {b = "w"}}, {a = null}] : try(v.a.b, w.a.b, "d")]]`,
		`[for v in [{a = {b = {c = 1}}}, {a = {b = null}}, {a = {b = "s"}}, {a = {b = {}}}, {a = null}] : [for w in [{}] : try(v.a.b.c, w.a.b.c, null)]]`,
		`[for v in [{a = {b = 1}}, {a = {}}, {a = "s"}] : [for w in [{a = {b = 2}}] : try(v.a["b"], w.a["b"], "d")]]`,
		`can({a = [][0]})`,
		`can({a = [1]})`,
		`can(null)`,
		`lookup({a = "x"}, "a", "d")`,
		`lookup({a = "x"}, "b", "d")`,
		`lookup({a = "x"}, "a")`,
		`merge({a = 1, b = {x = 1}}, {b = {y = 2}, c = 3})`,
		`merge({a = 1}, null, {a = 2})`,
		`merge()`,
		`merge({}, {})`,
		`merge({a = 1, b = 2}, {b = 3}, {a = 4, c = 5})`,
		`merge([for k in ["x", "y"] : { for n in [1, 2] : "${k}${n}" => n }]...)`,
		`merge([for k in ["x", "y"] : { for n in [] : "${k}${n}" => n }]...)`,
		`merge({ for k in ["a", "b"] : k => k }, { for k in ["b"] : k => "late" })`,
		`lookup({a = null}, "a", "d")`,
		`lookup({ for k in ["a", "b"] : k => upper(k) }, "b", "d")`,
		`lookup({ for k in [] : k => k }, "b", "d")`,
		`try(null, "second")`,
		`try({a = [][0]}, "second")`,
		`coalesce("", "b", "c")`,
		`coalesce(null, "b")`,
		`coalesce(null, "", "c", "d")`,
		`coalesce(null, 2, "x")`,
		`coalesce(0, 1)`,
		`coalesce(false, true)`,
		`length([1, 2, 3])`,
		`length({a = 1})`,
		`length("héllo")`,
		`length(lower("ÉLAN"))`,
		`length({a = "x", b = "yz"}[lower("B")])`,
		`[for k in ["a", "b"] : length({a = "x", b = "yz"}[k])]`,
		`concat([1], [2, 3], [])`,
		`can([][0])`,
		`can([1][0])`,
	} {
		t.Run(expr, func(t *testing.T) { checkSameAsOpenTofu(t, expr) })
	}
}

// TestMergeArguments checks merge's arguments that are not maps as
// OpenTofu takes them: null is skipped, a list or a string is an error.
func TestMergeArguments(t *testing.T) {
	vars := map[string]string{
		"m":    `{a = 1, b = 2}`,
		"none": `null`,
		"l":    `["x"]`,
		"s":    `"x"`,
	}
	for _, c := range []struct {
		expr    string
		wantErr bool
	}{
		{`merge(var.m, var.none, {b = 3})`, false},
		{`merge(var.none, var.m)`, false},
		{`merge(var.m, var.l)`, true},
		{`merge(var.s, var.m)`, true},
	} {
		t.Run(c.expr, func(t *testing.T) {
			w := &withInputs{expr: c.expr, vars: vars}
			w.check(t, c.wantErr)
		})
	}
}

// TestCoalesce checks coalesce's form, the first argument neither null
// nor "" tested in place one at a time (the library's definition, which
// evaluates every argument, doubled the time and memory of converting
// fabric's project module), and that one of nothing but null and "" is
// an error, as in OpenTofu.
func TestCoalesce(t *testing.T) {
	// A root module's string arguments known while planning: the
	// library's.
	checkForm(t, `coalesce(var.f, "d")`, `(tofu.#coalesce & {#args: [_var_f, "d"]}).out`, `[if`)
	// One that may be a list or object (of type any): in place, where the
	// call's #args would copy it whole; pure, so embedded.
	checkForm(t, `coalesce(var.f, var.a, "d")`, `{if _var_f != null && _var_f != "" {_var_f}, if !(_var_f != null && _var_f != "") {if _var_a != null && _var_a != "" {_var_a}, if !(_var_a != null && _var_a != "") {"d"}}}`, `#coalesce`)
	checkForm(t, `coalesce(null, "", "d", var.f)`, `x: "d"`, `#coalesce`)
	// One that may not be known: one argument at a time, the first that
	// decides taken whatever follows.
	checkForm(t, `coalesce(var.f, terraform_data.d.output, "d")`, `[if _var_f != null && _var_f != "" {_var_f}, [if terraform_data.d.output != null && terraform_data.d.output != "" {terraform_data.d.output}, "d"][0]][0]`, `#coalesce`)
	checkErrorLikeOpenTofu(t, `coalesce(null, "")`)
	checkErrorLikeOpenTofu(t, `coalesce(null, "", "")`)
}

// TestTryWholeValues checks which values a try's test asks about as
// wholes (wholeValues): for an attribute of one instance of a resource,
// data source or ephemeral resource, none but the attributes read
// further, whatever prefix names the resource (ephemeral. and resource.
// take three steps, as data. does).
func TestTryWholeValues(t *testing.T) {
	r, _ := convertSource(t, map[string]string{"main.tf": `
ephemeral "google_client_config" "default" {
  count = 1
}

resource "aws_instance" "web" {
  count = 1
}

output "ephemeral" {
  value = try(ephemeral.google_client_config.default[0].access_token, "")
}

output "prefixed" {
  value = try(resource.aws_instance.web[0].id, "")
}

output "nested" {
  value = try(resource.aws_instance.web[0].identity.id, "")
}
`})
	var src string
	for _, f := range r.Files {
		src += string(f.Source)
	}
	for _, whole := range []string{"len(ephemeral.google_client_config.default)", "len(resource.aws_instance.web)", "len(aws_instance.web)"} {
		if strings.Contains(src, whole) {
			t.Errorf("a try tests %s, the resource as a whole:\n%s", whole, src)
		}
	}
	// identity is read further: whether it is known as a whole is asked.
	if !strings.Contains(src, "len(aws_instance.web[0].identity) == _|_") {
		t.Errorf("the try of web[0].identity.id does not ask about identity:\n%s", src)
	}
}

// TestReferencesNotConverted checks the references that name nothing the
// CUE form has, whatever refs makes of them: an attribute path, count or
// each does not have, outside a block that sets count or for_each too.
func TestReferencesNotConverted(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{`path.nowhere`, `cannot convert the reference "path.nowhere"`},
		{`count.first`, `cannot convert the reference "count.first"`},
		{`each.item`, `cannot convert the reference "each.item"`},
		{`count.index`, `count.index`},
		{`each.value`, `each.value`},
	} {
		t.Run(tc.src, func(t *testing.T) { checkNotConverted(t, tc.src, tc.want) })
	}
}

// TestCalledKnownForms checks that a called module's template takes the
// root module's forms for values its calls all give known while
// planning: coalesce of scalars is the library's #coalesce and a try of
// an attribute of a variable #tryattr; where a call passes a resource's
// attribute, they stay tested one argument at a time.
func TestCalledKnownForms(t *testing.T) {
	module := "variable \"name\" {\n  type = string\n  default = null\n}\nvariable \"settings\" {\n  type = any\n}\n" +
		"output \"name\" {\n  value = coalesce(var.name, \"d\")\n}\noutput \"port\" {\n  value = try(var.settings.port, null)\n}\n" +
		"resource \"aws_s3_bucket_cors_configuration\" \"c\" {\n  bucket = \"b\"\n  dynamic \"cors_rule\" {\n    for_each = var.settings.rules\n" +
		"    content {\n      id = try(cors_rule.value.id, null)\n    }\n  }\n}\n"
	for _, c := range []struct {
		name, args string
		want, not  []string
	}{
		{"known", "  name = \"n\"\n  settings = {port = 8080, rules = [{id = \"r\"}, {}]}\n",
			[]string{`(tofu.#coalesce & {#args: [_arg.name, "d"]}).out`, `(tofu.#tryattr & {#args: [[_arg.settings], ["port"], null]}).out`,
				`(tofu.#tryattr & {#args: [[cors_rule], ["id"], *null | _]}).out`},
			[]string{`'error'`}},
		{"unknown", "  name = terraform_data.d.output\n  settings = terraform_data.d.output\n",
			[]string{`'error'`},
			[]string{`#coalesce`, `#tryattr`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, _ := convertSource(t, map[string]string{
				"main.tf":   "resource \"terraform_data\" \"d\" {\n  input = \"x\"\n}\nmodule \"m\" {\n  source = \"./m\"\n" + c.args + "}\n",
				"m/main.tf": module,
			})
			if r.Diagnostics.HasErrors() {
				t.Fatalf("not converted: %s", r.Diagnostics.Error())
			}
			var template string
			for _, f := range r.Files {
				if strings.HasPrefix(f.Name, "module_") {
					template += string(f.Source)
				}
			}
			checkTemplate(t, template, c.want, c.not)
		})
	}
}

// checkTemplate checks that a template's CUE holds every string of want
// and none of not.
func checkTemplate(t *testing.T, template string, want, not []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(template, w) {
			t.Errorf("the template lacks %q:\n%s", w, template)
		}
	}
	for _, n := range not {
		if strings.Contains(template, n) {
			t.Errorf("the template has %q:\n%s", n, template)
		}
	}
}
