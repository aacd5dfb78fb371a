package convert

import (
	"strings"
	"testing"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/internal/testtree"
)

// A root output computed from a sensitive variable must say sensitive =
// true, as OpenTofu requires; what removes the mark (nonsensitive, a
// test of the value, a conditional whose other result is taken) and a
// called module's outputs are not refused.
func TestSensitiveOutput(t *testing.T) {
	const vars = `
variable "secret" {
  type      = string
  default   = "x"
  sensitive = true
}

variable "plain" {
  type    = string
  default = "y"
}

locals {
  derived = "${var.secret}-suffix"
}
`
	for _, c := range []struct {
		name, output string
		refused      bool
	}{
		{"direct", `value = var.secret`, true},
		{"through a local", `value = local.derived`, true},
		{"in a template", `value = "a-${upper(var.secret)}"`, true},
		{"declared sensitive", "value = var.secret\n  sensitive = true", false},
		{"nonsensitive", `value = nonsensitive(var.secret)`, false},
		{"length", `value = length(var.secret)`, false},
		{"conditional", `value = var.plain == "" ? var.secret : "none"`, false},
		{"another variable", `value = var.plain`, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := testtree.Write(t, map[string]string{"main.tf": vars + "\noutput \"o\" {\n  " + c.output + "\n}\n"})
			m, diags := config.Load(dir)
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			r := Module(m, Options{Package: "m"})
			refused := false
			for _, d := range r.Diagnostics {
				if d.Summary == "Output refers to sensitive values" {
					refused = true
				}
			}
			if refused != c.refused {
				t.Errorf("refused = %v, want %v (%s)", refused, c.refused, r.Diagnostics.Error())
			}
			src := string(r.Files[0].Source)
			if got := strings.Contains(src, `error("Output refers to sensitive values`); got != c.refused {
				t.Errorf("CUE error written = %v, want %v:\n%s", got, c.refused, src)
			}
		})
	}
}

// A called module's output of a sensitive value needs no sensitive =
// true: OpenTofu requires it of the root module's outputs only.
func TestSensitiveOutputOfCalledModule(t *testing.T) {
	dir := testtree.Write(t, map[string]string{
		"main.tf": `module "child" {
  source = "./child"
}

output "o" {
  value     = module.child.secret
  sensitive = true
}
`,
		"child/main.tf": `variable "secret" {
  type      = string
  default   = "x"
  sensitive = true
}

output "secret" {
  value = var.secret
}
`,
	})
	tree, diags := config.LoadTree(dir, nil)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	r := Tree(tree, Options{Package: "m"})
	for _, d := range r.Diagnostics {
		if d.Summary == "Output refers to sensitive values" {
			t.Errorf("refused: %s", d.Subject)
		}
	}
	if len(r.Files) == 0 {
		t.Fatal("nothing converted")
	}
}
