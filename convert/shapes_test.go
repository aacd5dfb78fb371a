package convert

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/internal/testtree"
)

// TestShapedNullForms checks the null tests of a called module's
// variable that one call gives an object built with braces whose
// attributes read a resource's, and another leaves out: they are
// decided by the shape, the variable's and that of an attribute the
// object gives a tuple reading a resource's (never null, or null where
// left out) by unifying it with null, an attribute the object leaves out
// (known: null) as it is. A variable that a call gives a resource's
// value whole keeps the tests of a value not known as a whole (whole).
func TestShapedNullForms(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "golden", "verify", "module_shaped_null.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	parts := strings.Split(string(src), "\n-- ")
	for _, p := range parts[1:] {
		name, body, _ := strings.Cut(p, " --\n")
		if !strings.HasPrefix(name, "want/") {
			files[name] = body
		}
	}
	whole := map[string]string{
		"m/main.tf": files["m/main.tf"],
		"main.tf": `
resource "terraform_data" "obj" {
  input = { pub = { actions = ["publish"] } }
}

module "given" {
  source     = "./m"
  statements = terraform_data.obj.output
}
`,
	}
	for _, c := range []struct {
		name      string
		files     map[string]string
		want, not []string
	}{
		{"shaped", files,
			[]string{"count: [if (*(_var.statements & null) | 0) != null {", "[if s.resources != null {s.resources}", "input: [if (*(v.principals & null) | 0) == null {"},
			[]string{"*(v.principals & (bool", "len(_var.statements) != _|_"}},
		{"whole", whole,
			[]string{"(*(_var.statements & null) | 0)", "*(v.principals & (bool"},
			nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := testtree.Write(t, c.files)
			tree, diags := config.LoadTree(dir, nil)
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			var template string
			for _, f := range Tree(tree, Options{}).Files {
				if f.Template {
					template += string(f.Source)
				}
			}
			checkTemplate(t, template, c.want, c.not)
		})
	}
}
