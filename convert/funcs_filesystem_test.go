package convert

import (
	"fmt"
	"strings"
	"testing"

	"cuelang.org/go/cue"

	"github.com/tofucue/tofucue/internal/testtree"
)

func TestFilesystemFunctionsSameAsOpenTofu(t *testing.T) {
	for _, expr := range []string{
		`basename("foo/bar/baz.txt")`,
		`basename("/foo/bar/")`,
		`basename("")`,
		`basename("/")`,
		`dirname("foo/bar/baz.txt")`,
		`dirname("/foo")`,
		`dirname("foo")`,
		`dirname("")`,
		`dirname("a//b/../c/")`,
		`pathexpand("/etc/hosts")`,
		`pathexpand("relative/x")`,
	} {
		t.Run(expr, func(t *testing.T) { checkSameAsOpenTofu(t, expr) })
	}
}

// TestFileFunctions checks that files of the module are read when
// converting, with the results OpenTofu's functions give for the module.
func TestFileFunctions(t *testing.T) {
	files := map[string]string{
		"hello.txt":        "héllo <world>\n",
		"conf/a.yaml":      "a: 1\nb:\n  - x\n  - true\n",
		"conf/b.json":      "{\"k\": [1, 2]}",
		"tpl/greet.tpl":    "Hello, ${name}!%{ for x in items } [${x}]%{ endfor }\n",
		"tpl/nested.tpl":   "${jsonencode({v = v})}",
		"scripts/run.sh":   "#!/bin/sh\necho hi\n",
		"scripts/other.sh": "",
	}
	for _, expr := range []string{
		`file("hello.txt")`,
		`file("${path.module}/hello.txt")`,
		`fileexists("${path.module}/hello.txt")`,
		`fileexists("${path.module}/missing.txt")`,
		`fileset(path.module, "scripts/*.sh")`,
		`fileset("${path.module}/conf", "*")`,
		`filebase64("${path.module}/hello.txt")`,
		`filemd5("${path.module}/hello.txt")`,
		`filesha1("${path.module}/hello.txt")`,
		`filesha256("${path.module}/hello.txt")`,
		`filesha512("${path.module}/hello.txt")`,
		`filebase64sha256("${path.module}/hello.txt")`,
		`filebase64sha512("${path.module}/hello.txt")`,
		`yamldecode(file("${path.module}/conf/a.yaml"))`,
		`jsondecode(file("${path.module}/conf/b.json"))`,
		`templatefile("${path.module}/tpl/greet.tpl", {name = "Ann", items = [1, "b"]})`,
		`templatefile("${path.module}/tpl/nested.tpl", {v = [1, 2]})`,
		`md5(file("${path.module}/hello.txt"))`,
	} {
		t.Run(expr, func(t *testing.T) {
			want := openTofuValueIn(t, files, expr)
			r, v := convertOutput(t, files, expr)
			if r.Diagnostics.HasErrors() {
				t.Fatalf("not converted: %s", r.Diagnostics.Error())
			}
			b, err := v.MarshalJSON()
			if err != nil {
				t.Fatalf("CUE gives no value: %v", err)
			}
			if !sameJSON(t, b, want) {
				t.Errorf("CUE %s\nOpenTofu %s", b, want)
			}
		})
	}
}

func TestFilesystemFunctionsNotConverted(t *testing.T) {
	for _, c := range []struct{ expr, detail string }{
		{`file("../outside.txt")`, "OpenTofu reports an error for this call"},
		{`templatefile(var.p, {a = var.a})`, "No file of the module's directory can be this call's template"},
		{`abspath(".")`, "depends on the directory OpenTofu runs in"},
		{`pathexpand("~user/x")`, "user-specific"},
		{`dirname(path.module)`, ""},
	} {
		t.Run(c.expr, func(t *testing.T) {
			if c.detail == "" {
				// A path function of path.module is converted in CUE, with
				// the engine's path.
				r, v := convertOutput(t, nil, c.expr)
				if r.Diagnostics.HasErrors() {
					t.Fatal(r.Diagnostics.Error())
				}
				if s, err := v.String(); err != nil || s != "." {
					t.Errorf("got %v, %v", v, err)
				}
				return
			}
			checkNotConverted(t, c.expr, c.detail)
		})
	}
}

// openTofuValueIn evaluates expr with OpenTofu's functions in a module
// directory holding files, with path.module ".", as JSON.
func openTofuValueIn(t *testing.T, files map[string]string, expr string) []byte {
	t.Helper()
	dir := testtree.Write(t, files)
	return openTofuValueWith(t, dir, expr)
}

// TestMissingFileFailsWhenEvaluated checks a file function of a constant
// path that names no file: converted, with a warning, to an error where
// OpenTofu's is, when it is evaluated; not where it is not (count 0).
func TestMissingFileFailsWhenEvaluated(t *testing.T) {
	for _, expr := range []string{
		`file("missing.txt")`,
		`filesha256("${path.module}/package.py")`,
		`templatefile("tpl/missing.tpl", {})`,
		`try(file("missing.txt"), null) == null ? file("missing.txt") : "unreached"`,
	} {
		t.Run(expr, func(t *testing.T) {
			files := map[string]string{"main.tf": fmt.Sprintf(`variable "n" {
  default = 0
}
resource "terraform_data" "x" {
  count = var.n
  input = %s
}
`, expr)}
			r, v := convertSource(t, files)
			if r.Diagnostics.HasErrors() || !strings.Contains(r.Diagnostics.Error(), "File function of a missing file") {
				t.Fatalf("diagnostics: %s", r.Diagnostics.Error())
			}
			if err := v.Validate(); err != nil {
				t.Errorf("with count 0: %v", err)
			}
			w, err := r.LoadWith(nil, map[string][]byte{"inputs.cue": []byte("package m\n\n_var_n: 1\n")})
			if err == nil {
				err = w.LookupPath(cue.ParsePath("terraform_data.x[0].input")).Err()
			}
			if err == nil || !strings.Contains(err.Error(), "no file exists at") {
				t.Errorf("with count 1: %v, want OpenTofu's error", err)
			}
		})
	}
}
