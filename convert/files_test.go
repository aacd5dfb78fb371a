package convert

import (
	"fmt"
	"strings"
	"testing"

	"cuelang.org/go/cue"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/cueform"
	"github.com/tofucue/tofucue/internal/testtree"
)

// moduleFileTree is a module directory whose files the file functions
// read with paths known only when planning.
var moduleFileTree = map[string]string{
	"conf/a.yaml":        "name: a\nport: 80\nlist: [1, 2]\n",
	"conf/b.yml":         "when: 2001-12-14\nv: 1.0\nhex: 0x10\n",
	"conf/c.json":        `{"k": [true, null, 1.5]}`,
	"conf/sub/d.yaml":    "d: 1\n",
	"conf/.hidden.yaml":  "h: 1\n",
	"conf/notes.txt":     "plain text\n",
	"conf/bin.dat":       "\xff\xfe\x00binary",
	"conf/sub/deep/e.sh": "#!/bin/sh\necho e\n",
}

// TestFilesAtPlan checks the file functions whose paths are known only
// when the module is planned: on the converted module's embedded files,
// with the inputs set, they give what OpenTofu's give.
func TestFilesAtPlan(t *testing.T) {
	vars := map[string]string{"dir": `"conf"`, "dotdir": `"./conf/"`, "a": `"conf/a.yaml"`, "b": `"conf/b.yml"`, "bin": `"conf/bin.dat"`, "root": `"."`}
	for _, expr := range []string{
		`file(var.a)`,
		`file("${var.dir}/notes.txt")`,
		`yamldecode(file(var.a))`,
		`yamldecode(file(var.b))`,
		`yamldecode(file("${var.dir}/c.json"))`,
		`jsondecode(file("${var.dir}/c.json"))`,
		`{for f in fileset(var.dir, "*.yaml") : f => yamldecode(file("${var.dir}/${f}"))}`,
		`fileset(var.dir, "**/*.yaml")`,
		`fileset(var.dotdir, "**")`,
		`fileset(var.root, "conf/*/*.yaml")`,
		`fileset(var.dir, "{sub,other}/**")`,
		`fileset("${var.dir}/missing", "*")`,
		`fileset(var.dir, "*.nothing")`,
		`fileexists(var.a)`,
		`fileexists("${var.dir}/none.yaml")`,
		`filesha256(var.bin)`,
		`filebase64(var.bin)`,
		`filemd5(var.a)`,
		`filesha1(var.a)`,
		`filesha512(var.a)`,
		`filebase64sha256(var.a)`,
		`filebase64sha512(var.bin)`,
	} {
		t.Run(expr, func(t *testing.T) {
			w := &withInputs{expr: expr, vars: vars, files: moduleFileTree}
			w.check(t, false)
		})
	}
	for _, c := range []struct{ expr, locals string }{
		{expr: `yamldecode(var.b == "" ? "{}" : file(var.a))`},
		{expr: `yamldecode(var.a == "conf/a.yaml" ? "k: [1, 2]" : file(var.a))`},
		{expr: `yamldecode(pathexpand(file(var.a)))`},
		{expr: `yamldecode(local.data)`, locals: `  data = var.a != null ? file(pathexpand(var.a)) : "{}"`},
		{expr: `[for f in ["a.yaml", "c.json"] : yamldecode(var.dir == "" ? "{}" : file("${var.dir}/${f}"))]`},
	} {
		t.Run(c.expr, func(t *testing.T) {
			w := &withInputs{expr: c.expr, vars: vars, files: moduleFileTree, locals: c.locals}
			w.check(t, false)
		})
	}
	for _, expr := range []string{
		`file("${var.dir}/none.yaml")`,
		`file(var.bin)`,
		`yamldecode(file("${var.dir}/notes"))`,
	} {
		t.Run(expr, func(t *testing.T) {
			w := &withInputs{expr: expr, vars: vars, files: moduleFileTree}
			w.check(t, true)
		})
	}
}

// TestModuleFilesEmbedded checks what the converted module embeds: the
// files of its directory but OpenTofu's own, copied beside it; YAML that
// CUE decodes otherwise than OpenTofu as yamldecode's value.
func TestModuleFilesEmbedded(t *testing.T) {
	files := map[string]string{
		"main.tf":                "variable \"p\" {}\noutput \"x\" {\n  value = yamldecode(file(var.p))\n}\n",
		"x.tfvars":               "p = \"a.yaml\"\n",
		"a.yaml":                 "a: 1\n",
		"b.yaml":                 "when: 2001-12-14\n",
		"old/cue.mod/module.cue": "module: \"x\"\n",
		"old/x.yaml":             "x: 1\n",
		".terraform/m/y.yaml":    "y: 1\n",
		"z.cue":                  "package z\n",
	}
	dir := testtree.Write(t, files)
	m, diags := config.Load(dir)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	r := Module(m, Options{Package: "m"})
	if r.Diagnostics.HasErrors() {
		t.Fatal(r.Diagnostics.Error())
	}
	out, err := r.OutputFiles()
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{"a.yaml": true, "b.yaml": true, "main.tf": false, "x.tfvars": false, "old/x.yaml": false, ".terraform/m/y.yaml": false, "z.cue": false} {
		if _, got := out[name]; got != want {
			t.Errorf("%s written: %v, want %v", name, got, want)
		}
	}
	decl := string(out[cueform.FilesFile])
	for _, want := range []string{"@extern(embed)", `"a.yaml": _ @embed(file=a.yaml, type=yaml)`, `"b.yaml": when:`, `when: "2001-12-14T00:00:00Z"`} {
		if !strings.Contains(decl, want) {
			t.Errorf("%s does not have %s:\n%s", cueform.FilesFile, want, decl)
		}
	}
	if strings.Contains(decl, cueform.Files+":") {
		t.Errorf("%s declares %s, which no file uses:\n%s", cueform.FilesFile, cueform.Files, decl)
	}
}

// TestFilesetOutsideRoot checks fileset over a directory outside the root
// module's directory, which OpenTofu lists and the converted module does
// not hold: an error, not an empty list.
func TestFilesetOutsideRoot(t *testing.T) {
	files := map[string]string{"main.tf": "variable \"d\" {}\noutput \"x\" {\n  value = fileset(var.d, \"*.yaml\")\n}\n", "a.yaml": "a: 1\n"}
	r, _ := convertSource(t, files)
	if r.Diagnostics.HasErrors() {
		t.Fatal(r.Diagnostics.Error())
	}
	for dir, wantErr := range map[string]bool{"..": true, "../sibling": true, "/etc": true, ".": false, "./sub/..": false} {
		v, err := r.LoadWith(nil, map[string][]byte{"inputs.cue": []byte(fmt.Sprintf("package m\n\n_var_d: %q\n", dir))})
		if err == nil {
			err = v.LookupPath(cue.ParsePath("output.x")).Err()
		}
		switch {
		case wantErr && (err == nil || !strings.Contains(err.Error(), "outside the root module's directory")):
			t.Errorf("fileset(%q): %v, want the error", dir, err)
		case !wantErr && err != nil:
			t.Errorf("fileset(%q): %v", dir, err)
		}
	}
}
