package convert

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"cuelang.org/go/cue"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/tofucue/tofucue/config"
	tofufuncs "github.com/tofucue/tofucue/functions"
	"github.com/tofucue/tofucue/internal/testdir"
	"github.com/tofucue/tofucue/internal/testtree"
)

// withInputs is an expression evaluated in a module whose input variables
// (no type, a default) are vars, given as HCL literals, beside files.
type withInputs struct {
	expr  string
	vars  map[string]string
	files map[string]string
	// locals are extra local values, as HCL source.
	locals string
}

// module writes the module's files: the variables, the locals and
// output "x" with the expression.
func (w *withInputs) module() map[string]string {
	var b strings.Builder
	names := make([]string, 0, len(w.vars))
	for n := range w.vars {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		fmt.Fprintf(&b, "variable %q {\n  default = %s\n}\n\n", n, w.vars[n])
	}
	if w.locals != "" {
		fmt.Fprintf(&b, "locals {\n%s\n}\n\n", w.locals)
	}
	fmt.Fprintf(&b, "output \"x\" {\n  value = %s\n}\n", w.expr)
	files := map[string]string{"main.tf": b.String()}
	for k, v := range w.files {
		files[k] = v
	}
	return files
}

// openTofu evaluates the expression as OpenTofu does, with the variables'
// values, the locals and path.module ".", in the module directory dir.
func (w *withInputs) openTofu(t *testing.T, dir string) (cty.Value, hcl.Diagnostics) {
	t.Helper()
	vars := map[string]cty.Value{}
	for n, src := range w.vars {
		e, diags := hclsyntax.ParseExpression([]byte(src), "var.tf", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatalf("%s: %s", src, diags.Error())
		}
		v, diags := e.Value(nil)
		if diags.HasErrors() {
			t.Fatalf("%s: %s", src, diags.Error())
		}
		vars[n] = v
	}
	ctx := &hcl.EvalContext{
		Functions: tofufuncs.Table(tofufuncs.Options{BaseDir: dir}),
		Variables: map[string]cty.Value{
			"var":  cty.ObjectVal(vars),
			"path": cty.ObjectVal(map[string]cty.Value{"module": cty.StringVal(".")}),
		},
	}
	if w.locals != "" {
		f, diags := hclsyntax.ParseConfig([]byte(w.locals), "locals.tf", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		attrs, _ := f.Body.JustAttributes()
		locals := map[string]cty.Value{}
		// Locals in the order given, each may use the ones before.
		names := make([]string, 0, len(attrs))
		for n := range attrs {
			names = append(names, n)
		}
		slices.SortFunc(names, func(a, b string) int { return attrs[a].Range.Start.Byte - attrs[b].Range.Start.Byte })
		for _, n := range names {
			ctx.Variables["local"] = cty.ObjectVal(locals)
			v, diags := attrs[n].Expr.Value(ctx)
			if diags.HasErrors() {
				t.Fatalf("local %s: %s", n, diags.Error())
			}
			locals[n] = v
		}
		ctx.Variables["local"] = cty.ObjectVal(locals)
	}
	e, diags := hclsyntax.ParseExpression([]byte(w.expr), "expr.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("%s: %s", w.expr, diags.Error())
	}
	return e.Value(ctx)
}

// check converts the module and compares the output's CUE value, with
// the variables set to their values, with OpenTofu's; wantErr says both
// must fail.
func (w *withInputs) check(t *testing.T, wantErr bool) {
	t.Helper()
	files := w.module()
	dir := testtree.Write(t, files)
	want, diags := w.openTofu(t, dir)
	if wantErr != diags.HasErrors() {
		t.Fatalf("OpenTofu: %v, %s", want.GoString(), diags.Error())
	}
	m, ldiags := config.Load(dir)
	if ldiags.HasErrors() {
		t.Fatalf("loading: %s", ldiags.Error())
	}
	r := Module(m, Options{Package: "m"})
	if r.Diagnostics.HasErrors() {
		t.Fatalf("not converted: %s", r.Diagnostics.Error())
	}
	// The engine sets the inputs: concrete values, not the defaults.
	var inputs strings.Builder
	inputs.WriteString("package m\n\n")
	for n, src := range w.vars {
		e, _ := hclsyntax.ParseExpression([]byte(src), "var.tf", hcl.InitialPos)
		v, _ := e.Value(nil)
		b, err := ctyjson.Marshal(v, v.Type())
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&inputs, "_var_%s: %s\n", n, b)
	}
	all, err := r.LoadWith(nil, map[string][]byte{"inputs.cue": []byte(inputs.String())})
	var b []byte
	if err == nil {
		b, err = all.LookupPath(cue.ParsePath("output.x")).MarshalJSON()
	}
	if wantErr {
		if err == nil {
			t.Errorf("CUE gives %s, OpenTofu an error: %s", b, diags.Error())
		}
		return
	}
	if err != nil {
		for _, f := range r.Files {
			t.Logf("%s:\n%s", f.Name, f.Source)
		}
		t.Fatalf("CUE gives no value: %v", err)
	}
	wb, err := ctyjson.Marshal(want, want.Type())
	if err != nil {
		t.Fatal(err)
	}
	if !sameJSON(t, b, wb) {
		for _, f := range r.Files {
			t.Logf("%s:\n%s", f.Name, f.Source)
		}
		t.Errorf("CUE      %s\nOpenTofu %s", b, wb)
	}
}

var templateFiles = map[string]string{
	"tpl/greet.tpl":  "Hello, ${name}!%{ for x in items } [${x}]%{ endfor }\n",
	"tpl/if.tpl":     "%{ if admin ~}\nadmin: ${upper(name)}\n%{~ else ~}\nuser: ${name}\n%{~ endif }",
	"tpl/map.tpl":    "%{ for k, v in tags ~}\n${k}=${v}\n%{ endfor ~}",
	"tpl/raw.tpl":    "${value}",
	"tpl/json.tpl":   "${jsonencode({name = name, n = length(items)})}",
	"tpl/nested.tpl": "<${templatefile(\"tpl/raw.tpl\", {value = name})}>",
	"tpl/path.tpl":   "${path}:${each.key}",
	"tpl/escape.tpl": "$${name} %%{x} ${name}",
	"tpl/self.tpl":   "%{ if n > 0 }${n} ${templatefile(\"tpl/self.tpl\", {n = n - 1})}%{ endif }",
	"tpl/var.tpl":    "${var.name}",
}

// TestTemplatesSameAsOpenTofu checks templates whose variables are not
// known when converting: the template becomes CUE over the variables, and
// evaluating it gives OpenTofu's result.
func TestTemplatesSameAsOpenTofu(t *testing.T) {
	vars := map[string]string{
		"name":  `"Ann"`,
		"items": `[1, "b", 2.5, true]`,
		"tags":  `{zeta = "z", alpha = "a", mid = 3}`,
		"admin": `true`,
		"num":   `42`,
		"obj":   `{a = [1, 2], b = "x"}`,
	}
	for _, c := range []struct {
		expr, locals string
	}{
		{expr: `templatefile("${path.module}/tpl/greet.tpl", {name = var.name, items = var.items})`},
		{expr: `templatefile("tpl/greet.tpl", {name = var.name, items = []})`},
		{expr: `templatefile("${path.module}/tpl/if.tpl", {admin = var.admin, name = var.name})`},
		{expr: `templatefile("${path.module}/tpl/if.tpl", {admin = !var.admin, name = var.name})`},
		{expr: `templatefile("${path.module}/tpl/map.tpl", {tags = var.tags})`},
		{expr: `templatefile("${path.module}/tpl/raw.tpl", {value = var.num})`},
		{expr: `templatefile("${path.module}/tpl/raw.tpl", {value = var.obj})`},
		{expr: `templatefile("${path.module}/tpl/json.tpl", {name = var.name, items = var.items})`},
		{expr: `templatefile("${path.module}/tpl/nested.tpl", {name = var.name})`},
		{expr: `templatefile("${path.module}/tpl/path.tpl", {path = var.name, each = {key = var.num}})`},
		{expr: `templatefile("${path.module}/tpl/escape.tpl", {name = var.name})`},
		{expr: `templatefile(local.greet, merge({items = ["x"]}, {name = var.name}))`, locals: `  dir   = "${path.module}/tpl"
  greet = "${local.dir}/greet.tpl"`},
		{expr: `[for n in ["a", "b"] : templatefile("${path.module}/tpl/raw.tpl", {value = "${n}-${var.name}"})]`},
		{expr: `templatestring(local.t, {who = var.name, n = var.num})`, locals: `  t = "Hi $${who}, $${n + 1}%%{ if n > 40 } big%%{ endif }"`},
		{expr: `templatestring("$${upper(x)}", {x = var.name})`},
	} {
		t.Run(c.expr, func(t *testing.T) {
			w := &withInputs{expr: c.expr, vars: vars, files: templateFiles, locals: c.locals}
			w.check(t, false)
		})
	}
}

// TestTemplatesErrorLikeOpenTofu checks that where OpenTofu rejects the
// variables of a converted template, the CUE fails too.
func TestTemplatesErrorLikeOpenTofu(t *testing.T) {
	// The variables are wholly inputs, so that OpenTofu cannot check them
	// when converting: the check is CUE's.
	vars := map[string]string{
		"missing": `{name = "Ann"}`,
		"bad":     `{"not-an/identifier" = 1, value = "x"}`,
		"list":    `["Ann"]`,
		"null":    `{name = null}`,
	}
	for _, expr := range []string{
		// A name the variables lack.
		`templatefile("${path.module}/tpl/greet.tpl", var.missing)`,
		// A name that is not an identifier.
		`templatefile("${path.module}/tpl/raw.tpl", var.bad)`,
		// Variables that are not an object.
		`templatefile("${path.module}/tpl/raw.tpl", var.list)`,
		// null in a string template.
		`templatefile("${path.module}/tpl/escape.tpl", var.null)`,
	} {
		t.Run(expr, func(t *testing.T) {
			w := &withInputs{expr: expr, vars: vars, files: templateFiles}
			w.check(t, true)
		})
	}
}

// TestTemplatesNotConverted checks the templates left unconverted, and why.
func TestTemplatesNotConverted(t *testing.T) {
	for _, c := range []struct{ expr, detail string }{
		{`templatefile("${path.module}/tpl/${var.p}.nothing", {a = var.a})`, "No file of the module's directory can be this call's template"},
		{`templatefile(var.p == "" ? "${path.module}/tpl/self.tpl" : "${path.module}/tpl/raw.tpl", {n = 1, value = var.a})`, "The template tpl/self.tpl, which this call may read, is not converted"},
		{`templatefile("${path.module}/../outside.tpl", {a = var.a})`, "outside the module directory"},
		{`templatefile("${path.module}/tpl/self.tpl", {n = var.a})`, "calls itself"},
		{`templatestring("$${", {a = var.a})`, "OpenTofu reports an error"},
		{`templatestring("$${", var.a)`, "OpenTofu reports an error for this template"},
	} {
		t.Run(c.expr, func(t *testing.T) {
			files := map[string]string{"vars.tf": "variable \"p\" {}\nvariable \"a\" {}\nvariable \"t\" {}\n"}
			for k, v := range templateFiles {
				files[k] = v
			}
			r, _ := convertOutput(t, files, c.expr)
			if !r.Diagnostics.HasErrors() {
				t.Fatalf("converted, want a report")
			}
			if !strings.Contains(r.Diagnostics.Error(), c.detail) {
				t.Errorf("report %q does not say %q", r.Diagnostics.Error(), c.detail)
			}
		})
	}
}

// TestTemplatesAtPlan checks templatefile whose path is known only when
// the module is planned: the call selects, by path, from the module's
// templates converted once each, and gives what OpenTofu gives; where
// OpenTofu fails (no such file, a variable missing), so does the CUE.
func TestTemplatesAtPlan(t *testing.T) {
	vars := map[string]string{
		"greet": `"tpl/greet.tpl"`,
		"dir":   `"tpl"`,
		"which": `"raw"`,
		"name":  `"Ann"`,
		"names": `["raw", "escape"]`,
	}
	for _, c := range []struct {
		expr, locals string
		err          bool
	}{
		{expr: `templatefile(var.greet, {name = var.name, items = [1, "b"]})`},
		{expr: `templatefile("${path.module}/${var.dir}/raw.tpl", {value = var.name})`},
		{expr: `templatefile("${path.module}/tpl/${var.which}.tpl", {value = 42})`},
		{expr: `templatefile("./${var.dir}//raw.tpl", {value = var.names})`},
		{expr: `{for n in var.names : n => templatefile("${var.dir}/${n}.tpl", {name = var.name, value = n})}`},
		{expr: `templatefile({raw = "tpl/raw.tpl", greet = "tpl/greet.tpl"}[var.which], {value = var.name, name = "x", items = []})`},
		{expr: `templatefile(var.which == "raw" ? "${path.module}/tpl/raw.tpl" : var.greet, {value = true})`},
		{expr: `templatefile(coalesce(null, local.paths[var.which]), {value = var.name})`, locals: `  paths = {raw = "${path.module}/tpl/raw.tpl", if = "${path.module}/tpl/if.tpl"}`},
		{expr: `templatefile("${var.dir}/missing.tpl", {})`, err: true},
		{expr: `templatefile("tpl/${var.which}.tpl", {})`, err: true},
	} {
		t.Run(c.expr, func(t *testing.T) {
			w := &withInputs{expr: c.expr, vars: vars, files: templateFiles, locals: c.locals}
			w.check(t, c.err)
		})
	}
}

// TestTemplateVariableNames checks that inside a template every name is a
// variable of the template: var, path and each there are not the module's.
func TestTemplateVariableNames(t *testing.T) {
	w := &withInputs{
		expr:  `templatefile("${path.module}/tpl/var.tpl", {var = {name = upper(var.name)}})`,
		vars:  map[string]string{"name": `"outer"`},
		files: templateFiles,
	}
	w.check(t, false)
}

// TestTemplateStringAtEvaluation checks templatestring with a template
// known only when evaluating (tofu.#templatestring): templates made of
// references to the variables give OpenTofu's result; where OpenTofu
// fails, so does the CUE.
func TestTemplateStringAtEvaluation(t *testing.T) {
	vars := map[string]string{
		"ctx":  `{organization = {id = 1234}, projects = {"test-00" = {test = "foo"}}, l = ["a", "b"], n = 2.5, i = 42, b = true, nul = null, m = {k = "v"}}`,
		"t1":   `"resource.matchTag('$${organization.id}/environment', 'dev')"`,
		"t2":   `"$${projects[\"test-00\"].test}/cc-123"`,
		"t3":   `"$${ l[1] }-$${n}-$${i}-$${b} $$$${x} %%%%{y} 100% $$"`,
		"t4":   `"$${m}"`,
		"t5":   `"$${l.0}"`,
		"t6":   `""`,
		"t7":   `"no interpolation"`,
		"bad1": `"x$${nul}"`,
		"bad2": `"$${missing}"`,
		"bad3": `"x$${m}"`,
		"bad4": `"$${organization.id.x}"`,
	}
	for _, expr := range []string{
		`templatestring(var.t1, var.ctx)`,
		`templatestring(var.t2, var.ctx)`,
		`templatestring(var.t3, var.ctx)`,
		`templatestring(var.t4, var.ctx)`,
		`templatestring(var.t5, var.ctx)`,
		`templatestring(var.t6, var.ctx)`,
		`templatestring(var.t7, var.ctx)`,
		`[for t in [var.t1, var.t2] : templatestring(t, var.ctx)]`,
	} {
		t.Run(expr, func(t *testing.T) {
			w := &withInputs{expr: expr, vars: vars}
			w.check(t, false)
		})
	}
	for _, expr := range []string{
		`templatestring(var.bad1, var.ctx)`,
		`templatestring(var.bad2, var.ctx)`,
		`templatestring(var.bad3, var.ctx)`,
		`templatestring(var.bad4, var.ctx)`,
	} {
		t.Run(expr, func(t *testing.T) {
			w := &withInputs{expr: expr, vars: vars}
			w.check(t, true)
		})
	}
}

// TestTemplateStringBeyondReferences checks that a template known only
// when evaluating that does more than refer to variables is an error in
// CUE, never another value, and that the conversion warns of it.
func TestTemplateStringBeyondReferences(t *testing.T) {
	for _, tmpl := range []string{
		`"$${upper(name)}"`,
		`"%%{ if name != "" }x%%{ endif }"`,
		`"$${name}$${~ name}"`,
		`"$${name == \"a\"}"`,
	} {
		t.Run(tmpl, func(t *testing.T) {
			dir := testtree.Write(t, map[string]string{"main.tf": "variable \"t\" {}\n\noutput \"x\" {\n  value = templatestring(var.t, { name = \"a\" })\n}\n"})
			m, diags := config.Load(dir)
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			r := Module(m, Options{Package: "m"})
			if r.Diagnostics.HasErrors() || len(r.Diagnostics) != 1 || !strings.Contains(r.Diagnostics[0].Summary, "templatestring") {
				t.Fatalf("want one warning, got %s", r.Diagnostics.Error())
			}
			e, _ := hclsyntax.ParseExpression([]byte(tmpl), "t.tf", hcl.InitialPos)
			tv, _ := e.Value(nil)
			b, _ := ctyjson.Marshal(tv, cty.String)
			v, err := r.LoadWith(nil, map[string][]byte{"inputs.cue": []byte("package m\n\n_var_t: " + string(b) + "\n")})
			if err == nil {
				if got, err := v.LookupPath(cue.ParsePath("output.x")).MarshalJSON(); err == nil {
					t.Errorf("CUE gives %s", got)
				}
			}
		})
	}
}

// TestTemplatesOfCalledModules checks templatefile at plan time in a
// called module: one inside the root module's directory reads its
// templates by paths relative to the root's, and selecting one gives
// OpenTofu's result; one outside it is reported, since the converted
// module holds the root directory's files only.
func TestTemplatesOfCalledModules(t *testing.T) {
	call := func(source string) string {
		return `
variable "kind" {
  default = "a"
}
module "m" {
  source = "` + source + `"
  kind   = var.kind
}
output "x" {
  value = module.m.out
}
`
	}
	dir := testdir.Write(t, map[string]string{
		"app/main.tf": call("./mod"),
		"app/mod/main.tf": `
variable "kind" {}
output "out" {
  value = templatefile("${path.module}/tpl/${var.kind}.tpl", { name = "x" })
}
`,
		"app/mod/tpl/a.tpl": "Hello, ${name}!",
		"app/mod/tpl/b.tpl": "Bye, ${name}.",
		"other/main.tf":     call("../app/mod"),
	})
	sources := config.NewSources(config.SourceOptions{AllowRead: []string{dir}})
	mr := Dir(filepath.Join(dir, "app"), Options{Package: "m", Sources: sources})
	if mr.Result == nil || mr.Result.Diagnostics.HasErrors() || mr.Err != nil {
		t.Fatalf("not converted: %v", describe(mr))
	}
	if files := describe(mr); !strings.Contains(files, `"mod/tpl/a.tpl"`) || !strings.Contains(files, `"mod/tpl/b.tpl"`) {
		t.Errorf("templates not in the table:\n%s", files)
	}
	for kind, want := range map[string]string{"a": `"Hello, x!"`, "b": `"Bye, x."`} {
		v, err := mr.Result.LoadWith(nil, map[string][]byte{"inputs.cue": []byte("package m\n\n_var_kind: \"" + kind + "\"\n")})
		if err != nil {
			t.Fatal(err)
		}
		got, err := v.LookupPath(cue.ParsePath("output.x")).MarshalJSON()
		if err != nil || string(got) != want {
			t.Errorf("kind %s: got %s, %v; want %s", kind, got, err, want)
		}
	}
	other := Dir(filepath.Join(dir, "other"), Options{Package: "m", Sources: sources})
	if other.Result == nil || !strings.Contains(other.Result.Diagnostics.Error(), "is outside it") {
		t.Errorf("a module outside the root's directory: %v", describe(other))
	}
}
