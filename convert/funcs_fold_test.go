package convert

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"cuelang.org/go/cue"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/config"
	tofufuncs "github.com/tofucue/tofucue/functions"
	"github.com/tofucue/tofucue/internal/testtree"
)

// TestFoldThroughLocals checks calls worked out when converting whose
// arguments are local values built from path.module and constants, and
// pathexpand of a path known only when evaluating.
func TestFoldThroughLocals(t *testing.T) {
	files := map[string]string{
		"conf/a.yaml": "a: 1\nb:\n  - x\n",
		"conf/b.yaml": "c: true\n",
	}
	vars := map[string]string{"p": `"some/dir"`, "abs": `"/etc/x"`, "empty": `""`}
	locals := `  conf  = "${path.module}/conf"
  paths = { a = "${local.conf}/a.yaml", other = var.p }
  names = fileset(local.conf, "*.yaml")`
	for _, expr := range []string{
		`yamldecode(file(local.paths.a))`,
		`file("${local.conf}/b.yaml")`,
		`local.names`,
		`{for f in fileset(local.conf, "*.yaml") : f => yamldecode(file("${local.conf}/${f}"))}`,
		`[for f in local.names : filemd5("${path.module}/conf/${f}")]`,
		`pathexpand(var.p)`,
		`pathexpand(var.abs)`,
		`pathexpand(var.empty)`,
		`pathexpand("${var.p}/x")`,
	} {
		t.Run(expr, func(t *testing.T) {
			w := &withInputs{expr: expr, vars: vars, files: files, locals: locals}
			w.check(t, false)
		})
	}
}

// TestFoldNotWhereInputsShow checks that what depends on the module's
// inputs, or on how its directory is spelled, is not worked out when
// converting.
func TestFoldNotWhereInputsShow(t *testing.T) {
	files := map[string]string{"vars.tf": "variable \"p\" {}\n", "x.txt": "x"}
	for _, c := range []struct{ expr, detail string }{
		{`pathexpand("~user/x")`, "user-specific"},
	} {
		t.Run(c.expr, func(t *testing.T) {
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

// TestPathexpandHome checks pathexpand of paths under the home
// directory, known when converting or only when evaluating: with _home
// set as the engine sets it, the machine's, CUE gives what OpenTofu
// gives; ~user is an error on both sides.
func TestPathexpandHome(t *testing.T) {
	home, err := os.UserHomeDir()
	if err != nil {
		t.Skip(err)
	}
	expand := tofufuncs.Table(tofufuncs.Options{BaseDir: t.TempDir()})["pathexpand"]
	for _, p := range []string{"~", "~/x", "~/a/../b/", "x/~", "", "~user/x"} {
		want, werr := expand.Call([]cty.Value{cty.StringVal(p)})
		for _, expr := range []string{"pathexpand(var.p)", fmt.Sprintf("pathexpand(%q)", p)} {
			t.Run(p+" "+expr, func(t *testing.T) {
				r, _ := convertSource(t, map[string]string{
					"main.tf": "variable \"p\" {\n  type = string\n}\n\noutput \"x\" {\n  value = " + expr + "\n}\n",
				})
				if expr != "pathexpand(var.p)" && werr != nil {
					if !r.Diagnostics.HasErrors() {
						t.Fatalf("converted; OpenTofu: %v", werr)
					}
					return
				}
				if r.Diagnostics.HasErrors() {
					t.Fatal(r.Diagnostics.Error())
				}
				inputs := fmt.Sprintf("package m\n\n_var_p: %q\n_home: %q\n", p, home)
				v, err := r.LoadWith(nil, map[string][]byte{"inputs.cue": []byte(inputs)})
				var got string
				if err == nil {
					got, err = v.LookupPath(cue.ParsePath("output.x")).String()
				}
				switch {
				case werr != nil && err == nil:
					t.Errorf("CUE gives %q, OpenTofu an error: %v", got, werr)
				case werr == nil && err != nil:
					t.Errorf("CUE: %v; OpenTofu gives %q", err, want.AsString())
				case werr == nil && got != want.AsString():
					t.Errorf("CUE gives %q, OpenTofu %q", got, want.AsString())
				}
			})
		}
	}
}

// TestConstValue checks what is known when converting: what depends on an
// input, or shows or depends on the spelling of the module directory, is
// not.
func TestConstValue(t *testing.T) {
	dir := testtree.Write(t, map[string]string{
		"main.tf": "variable \"p\" {}\nlocals {\n  d = \"${path.module}/sub\"\n  n = length(local.d)\n  k = 3\n}\n",
		"x.txt":   "x",
	})
	m, diags := config.Load(dir)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	c := &converter{m: m}
	for _, tc := range []struct {
		expr  string
		known bool
	}{
		{`fileexists("${path.module}/x.txt")`, true},
		{`file("x.txt")`, true},
		{`local.k * 2`, true},
		{`"${path.module}/x.txt"`, false},
		{`length(path.module)`, false},
		{`local.n`, false},
		{`basename(path.module)`, false},
		{`dirname(path.module)`, false},
		{`basename(abspath(path.module))`, false},
		{`var.p`, false},
		{`try(var.p, "x")`, false},
		{`path.root`, false},
	} {
		e, diags := hclsyntax.ParseExpression([]byte(tc.expr), "x.tf", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		if _, _, ok := c.constValue(e); ok != tc.known {
			t.Errorf("%s: known %v, want %v", tc.expr, ok, tc.known)
		}
	}
}
