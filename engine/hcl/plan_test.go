package hcl

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/engine/inputs"
	"github.com/tofucue/tofucue/engine/plan"
)

// planFiles writes files into a new directory and plans it.
func planFiles(t *testing.T, files map[string]string) *plan.Plan {
	t.Helper()
	tree := loadFiles(t, files)
	p, diags := Plan(tree, Options{Inputs: inputs.Sources{Synthesize: true}})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return p
}

// A module call's depends_on defers the data sources inside the child
// (and its children) to apply; without it they are read while planning.
func TestModuleDependsOnDefersData(t *testing.T) {
	child := `
data "aws_region" "r" {}
module "grandchild" {
  source = "./inner"
}
`
	inner := `data "aws_caller_identity" "me" {}`
	for _, c := range []struct {
		dependsOn string
		want      plan.Action
	}{
		{"", plan.NoOp},
		{"depends_on = [aws_iam_role.r]", plan.Read},
	} {
		p := planFiles(t, map[string]string{
			"main.tf": `
resource "aws_iam_role" "r" {
  name = "x"
}
module "child" {
  source = "./child"
  ` + c.dependsOn + `
}
`,
			"child/main.tf":       child,
			"child/inner/main.tf": inner,
		})
		for _, in := range p.Instances {
			if in.Type == "aws_iam_role" {
				continue
			}
			if in.Action != c.want {
				t.Errorf("%q: %s is %q, want %q", c.dependsOn, in.Addr(), in.Action, c.want)
			}
			if !in.Applied.IsWhollyKnown() {
				t.Errorf("%s is not known after apply: %#v", in.Addr(), in.Applied)
			}
		}
	}
}

// Planning is deterministic: the same module gives the same plan, values
// and mock values included, every time.
func TestDeterministic(t *testing.T) {
	files := map[string]string{"main.tf": `
variable "names" {
  type = set(string)
}
resource "aws_instance" "web" {
  for_each = var.names
  ami      = "ami-${each.key}"
}
output "ids" {
  value = [for i in aws_instance.web : i.id]
}
`}
	a, b := planFiles(t, files), planFiles(t, files)
	ja, err := a.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	jb, err := b.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(ja, jb) {
		t.Errorf("two plans of one module differ:\n%s\n%s", ja, jb)
	}
	if ids := a.Outputs["ids"].Applied; !ids.IsWhollyKnown() || ids.LengthInt() != 1 || ids.Index(cty.NumberIntVal(0)).AsString() == "" {
		t.Errorf("ids after apply = %#v", ids)
	}
}

// A plan whose context has ended (an interrupt) evaluates nothing more and
// says so with an error, rather than passing for a complete plan.
func TestInterrupted(t *testing.T) {
	tree := loadFiles(t, map[string]string{"main.tf": `
resource "terraform_data" "a" {
  count = 1000
  input = count.index
}
output "o" {
  value = terraform_data.a[*].output
}
`})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p, diags := Plan(tree, Options{Context: ctx})
	if !diags.HasErrors() || diags[0].Summary != "Interrupted" {
		t.Fatalf("got %v, want an Interrupted error", diags)
	}
	if len(p.Instances) != 0 {
		t.Errorf("%d instances planned after the interrupt", len(p.Instances))
	}
	if p, diags := Plan(tree, Options{Context: context.Background()}); diags.HasErrors() || len(p.Instances) != 1000 {
		t.Errorf("not interrupted: %d instances, %v", len(p.Instances), diags)
	}
}

// TestBudgets: a plan that would make more instances, or whose function
// calls would produce more collection elements, than its budget stops
// with an error naming the expression; a budget raised enough plans it.
func TestBudgets(t *testing.T) {
	instances := loadFiles(t, map[string]string{"main.tf": `
resource "terraform_data" "a" {
  count = 30
  input = count.index
}
resource "terraform_data" "one" {}
`})
	_, diags := Plan(instances, Options{MaxInstances: 30})
	if !diags.HasErrors() || !strings.Contains(diags.Error(), "Too many instances") {
		t.Errorf("31 instances with a budget of 30: %v", diags)
	}
	if p, diags := Plan(instances, Options{MaxInstances: 31}); diags.HasErrors() || len(p.Instances) != 31 {
		t.Errorf("31 instances with a budget of 31: %d instances, %v", len(p.Instances), diags)
	}

	values := loadFiles(t, map[string]string{"main.tf": `
locals {
  grid = [for i in range(100) : range(100)]
}
output "n" {
  value = length(flatten(local.grid))
}
`})
	_, diags = Plan(values, Options{MaxValues: 5000})
	if !diags.HasErrors() || !strings.Contains(diags.Error(), "--max-values") || diags[0].Subject == nil || diags[0].Subject.Start.Line != 3 {
		t.Errorf("10,100 elements with a budget of 5,000: %v", diags)
	}
	if p, diags := Plan(values, Options{MaxValues: 20200}); diags.HasErrors() || !p.Outputs["n"].Planned.RawEquals(cty.NumberIntVal(10000)) {
		t.Errorf("with a budget of 20,200: %v", diags)
	}

	// for expressions over variables call no function: the nesting of
	// their collections' lengths counts, in a local and in a resource.
	fors := loadFiles(t, map[string]string{"main.tf": `
variable "xs" {
  default = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
}
locals {
  cube = [for a in var.xs : [for b in var.xs : [for c in var.xs : [a, b, c]]]]
}
resource "terraform_data" "d" {
  input = [for a in var.xs : { for b in var.xs : b => [for c in var.xs : c] }]
}
output "n" {
  value = length(flatten(local.cube))
}
`})
	_, diags = Plan(fors, Options{MaxValues: 999})
	var lines []int
	for _, d := range diags {
		if d.Summary == "Too many values" {
			lines = append(lines, d.Subject.Start.Line)
		}
	}
	if !slices.Equal(lines, []int{6, 9}) {
		t.Errorf("1,000 iterations with a budget of 999: errors at lines %v, want 6 and 9: %v", lines, diags)
	}
	if p, diags := Plan(fors, Options{MaxValues: 5000}); diags.HasErrors() || !p.Outputs["n"].Planned.RawEquals(cty.NumberIntVal(3000)) {
		t.Errorf("with a budget of 5,000: %v", diags)
	}

	// A for variable shadows the roots of the language: the inner
	// collection here is the outer for's element, a list of one, not the
	// module's seven input variables.
	shadowed := loadFiles(t, map[string]string{"main.tf": `
variable "xs" {
  default = [[1], [2], [3], [4], [5], [6], [7], [8], [9], [10]]
}
variable "a" {
  default = 1
}
variable "b" {
  default = 2
}
variable "c" {
  default = 3
}
variable "d" {
  default = 4
}
variable "e" {
  default = 5
}
variable "f" {
  default = 6
}
locals {
  pairs = concat([for var in var.xs : [for y in var : y]], [[var.a, var.b, var.c, var.d, var.e, var.f]])
}
output "n" {
  value = length(flatten(local.pairs))
}
`})
	if p, diags := Plan(shadowed, Options{MaxValues: 50}); diags.HasErrors() || !p.Outputs["n"].Planned.RawEquals(cty.NumberIntVal(16)) {
		t.Errorf("10 iterations of a for over its own element with a budget of 50: %v", diags)
	}
}
