package convert

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/internal/testtree"
)

// TestKnownVariables checks which variables of the called modules are
// known in every instance: left out, passed a literal, a root input,
// count.index or each.value of a known for_each by every call, or passed
// on by a module that knows them; not one that some call passes a
// resource's attribute or a module's output, or that a module passes on
// from such a variable.
func TestKnownVariables(t *testing.T) {
	dir := testtree.Write(t, map[string]string{
		"main.tf": `
variable "region" {
  type = string
}
resource "terraform_data" "r" {
  input = "x"
}
module "a" {
  source   = "./a"
  literal  = "eu"
  root     = var.region
  computed = terraform_data.r.output
  mixed    = "one"
}
module "b" {
  source   = "./a"
  for_each = toset(["p", "q"])
  literal  = each.value
  root     = "r"
  computed = "c"
  mixed    = terraform_data.r.output
}
module "c" {
  source = "./a"
  count  = 2
  literal = count.index
  root    = var.region
  computed = "known here"
  mixed    = "two"
}
module "d" {
  source = "./a"
  for_each = terraform_data.r.output
  literal  = "eu"
  root     = each.value
  computed = "c"
  mixed    = "three"
}
`,
		"a/main.tf": `
variable "literal" {}
variable "root" {}
variable "computed" {}
variable "mixed" {}
variable "left_out" {
  default = "d"
}
module "inner" {
  source = "../inner"
  from_known   = var.literal
  from_unknown = var.computed
  from_local   = local.l
}
locals {
  l = upper(var.literal)
}
`,
		"inner/main.tf": `
variable "from_known" {}
variable "from_unknown" {}
variable "from_local" {}
`,
	})
	tree, diags := config.LoadTree(dir, nil)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	known := knownVariables(tree)
	for _, c := range []struct {
		module, variable string
		// Here every value known is pure too: literals, root inputs,
		// count.index, each.value of a for_each of constants.
		want bool
	}{
		{"a", "literal", true},
		// each.value of module d's for_each, which is not known.
		{"a", "root", false},
		{"a", "computed", false},
		{"a", "mixed", false},
		{"a", "left_out", true},
		{"inner", "from_known", true},
		{"inner", "from_unknown", false},
		{"inner", "from_local", true},
	} {
		got := known.vars[filepath.Join(dir, c.module)][c.variable]
		if got != c.want {
			t.Errorf("%s's variable %s known: got %v, want %v (all: %v)", c.module, c.variable, got, c.want, known)
		}
		if got := known.pure[filepath.Join(dir, c.module)][c.variable]; got != c.want {
			t.Errorf("%s's variable %s pure: got %v, want %v (all: %v)", c.module, c.variable, got, c.want, known.pure)
		}
	}
	if root := known.vars[filepath.Clean(dir)]; len(root) != 0 {
		t.Errorf("the root module's variables are its inputs, not worked out here: %v", root)
	}
}

// TestKnownOutputs checks that an output known while planning passes its
// knowledge on: a chain of calls, each given the one before's output,
// knows each call's variable, but for a chain whose first output reads a
// resource's computed attribute, and a call with count reads a known
// output by a constant index only where its count is known.
func TestKnownOutputs(t *testing.T) {
	dir := testtree.Write(t, map[string]string{
		"main.tf": `
resource "terraform_data" "r" {
  input = "x"
}
module "k0" {
  source = "./link"
  in     = "start"
}
module "k1" {
  source = "./link"
  in     = module.k0.out
}
module "k2" {
  source = "./link"
  in     = module.k1.out
}
module "u0" {
  source = "./other"
  in     = terraform_data.r.output
}
module "u1" {
  source = "./other2"
  in     = module.u0.out
}
module "c" {
  source = "./counted"
  count  = 2
  in     = "x"
}
module "d" {
  source = "./counted"
  count  = length(terraform_data.r.output)
  in     = "x"
}
module "fromc" {
  source = "./sink"
  in     = module.c[0].out
}
module "fromd" {
  source = "./sink2"
  in     = module.d[0].out
}
`,
		"link/main.tf":    "variable \"in\" {}\noutput \"out\" {\n  value = \"${var.in}-x\"\n}\n",
		"other/main.tf":   "variable \"in\" {}\noutput \"out\" {\n  value = var.in\n}\n",
		"other2/main.tf":  "variable \"in\" {}\n",
		"counted/main.tf": "variable \"in\" {}\noutput \"out\" {\n  value = var.in\n}\n",
		"sink/main.tf":    "variable \"in\" {}\n",
		"sink2/main.tf":   "variable \"in\" {}\n",
	})
	tree, diags := config.LoadTree(dir, nil)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	known := knownVariables(tree)
	for _, c := range []struct {
		module string
		want   bool
	}{
		{"link", true},
		{"other", false},
		{"other2", false},
		{"sink", true},
		{"sink2", false},
	} {
		if got := known.vars[filepath.Join(dir, c.module)]["in"]; got != c.want {
			t.Errorf("%s's variable in known: got %v, want %v", c.module, got, c.want)
		}
	}
	if !known.outputs[filepath.Join(dir, "link")]["out"] {
		t.Errorf("link's output out is not known: %v", known.outputs)
	}
	// A module's output is known while planning, but it is not pure: a
	// field of the call's instance, not there before the engine
	// evaluates it.
	for _, c := range []struct {
		module string
		want   bool
	}{
		{"link", false},
		{"sink", false},
		{"other", false},
	} {
		if got := known.pure[filepath.Join(dir, c.module)]["in"]; got != c.want {
			t.Errorf("%s's variable in pure: got %v, want %v", c.module, got, c.want)
		}
	}
}

// TestKnownVariablesForms checks the writer's use of them: a conditional
// on a variable every call leaves out is the field's if, and one on a
// variable a call passes a resource's attribute keeps its selection.
func TestKnownVariablesForms(t *testing.T) {
	dir := testtree.Write(t, map[string]string{
		"main.tf": `
resource "terraform_data" "r" {
  input = "x"
}
module "m" {
  source  = "./m"
  unknown = terraform_data.r.output
}
`,
		"m/main.tf": `
variable "unknown" {
  default = null
}
variable "left_out" {
  default = null
}
locals {
  o = {
    a = var.left_out == null ? ["d"] : var.left_out
    b = var.unknown == null ? ["d"] : var.unknown
  }
}
output "o" {
  value = local.o
}
`,
	})
	tree, diags := config.LoadTree(dir, nil)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	r := Tree(tree, Options{})
	var src string
	for _, f := range r.Files {
		if f.Template {
			src = string(f.Source)
		}
	}
	for _, want := range []string{"if _arg.left_out == null {\n\t\t\t\ta: [\"d\"]", "b: [if"} {
		if !strings.Contains(src, want) {
			t.Errorf("template lacks %q:\n%s", want, src)
		}
	}
}

// TestPureVariablesForms checks the writer's use of pure variables in a
// called module's template: a conditional inside a value, on a variable
// every call leaves out, is the struct that embeds its two results
// (embedConditionals); one on a variable a call passes another module's
// output, known while planning but not pure, keeps its selection.
func TestPureVariablesForms(t *testing.T) {
	dir := testtree.Write(t, map[string]string{
		"main.tf": `
module "k" {
  source = "./k"
}
module "m" {
  source = "./m"
  known  = module.k.out
}
`,
		"k/main.tf": "output \"out\" {\n  value = \"k\"\n}\n",
		"m/main.tf": `
variable "known" {
  type    = string
  default = null
}
variable "left_out" {
  type    = string
  default = null
}
output "o" {
  value = {
    a = upper(var.left_out == null ? "d" : var.left_out)
    b = upper(var.known == null ? "d" : var.known)
  }
}
`,
	})
	tree, diags := config.LoadTree(dir, nil)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	known := knownVariables(tree)
	m := filepath.Join(dir, "m")
	if !known.vars[m]["known"] || known.pure[m]["known"] || !known.pure[m]["left_out"] {
		t.Fatalf("m's variables: known %v, pure %v", known.vars[m], known.pure[m])
	}
	r := Tree(tree, Options{})
	var src string
	for _, f := range r.Files {
		if f.Template && strings.Contains(string(f.Source), "left_out") {
			src = string(f.Source)
		}
	}
	for _, want := range []string{`a: strings.ToUpper({if _arg.left_out == null {"d"}`, `b: strings.ToUpper([if _arg.known == null {"d"}`} {
		if !strings.Contains(src, want) {
			t.Errorf("template lacks %q:\n%s", want, src)
		}
	}
}
