package cue

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tofucue/tofucue/engine/inputs"
)

// A dependency that tools/flow cannot see (a for with an if, waiting for
// a data source) is learned by the plan pass's check: the plan runs once
// more and reads the policy after the identity, as engine/hcl does.
// Where the graph has it (a direct reference), nothing is learned. A
// coalesce waiting for the data source inside try was one the graph
// missed until try's probe read the references of its argument (see
// convert's firstOr): the graph sees it now, and the plan is right
// without a second run.
func TestHiddenDependency(t *testing.T) {
	for _, c := range []struct {
		name, src string
		replans   int
	}{
		{
			// The identity comes first, and the policy does not
			// depend on it as far as the graph knows: the pass does
			// not evaluate the identity's values before the policy.
			name: "coalesce in try, read before",
			src: `
data "aws_caller_identity" "current" {}
locals {
  account = try(coalesce(null, lower(data.aws_caller_identity.current.account_id)), "")
}
data "aws_iam_policy_document" "p" {
  statement {
    resources = ["arn:${local.account}:x"]
  }
}
`,
		},
		{
			name: "coalesce in try",
			src: `
data "aws_iam_policy_document" "p" {
  statement {
    resources = ["arn:${local.account}:x"]
  }
}
locals {
  account = try(coalesce(null, lower(data.aws_caller_identity.current.account_id)), "")
}
data "aws_caller_identity" "current" {}
`,
		},
		{
			name: "filtered for",
			src: `
data "aws_iam_policy_document" "p" {
  statement {
    sid = local.first
  }
}
locals {
  first = [for a in [data.aws_caller_identity.current.account_id] : a if a != ""][0]
}
data "aws_caller_identity" "current" {}
`,
			replans: 1,
		},
		{
			name: "direct reference",
			src: `
data "aws_iam_policy_document" "p" {
  statement {
    resources = ["arn:${data.aws_caller_identity.current.account_id}:x"]
  }
}
data "aws_caller_identity" "current" {}
`,
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := writeFiles(t, map[string]string{"main.tf": c.src})
			b := planBoth(t, dir, inputs.Sources{}, nil)
			requireEqual(t, b)
			if b.stats.replans != c.replans {
				t.Errorf("replans %d, want %d", b.stats.replans, c.replans)
			}
		})
	}
}

// The plan pass evaluates the values it added only before a declaration
// that depends on them: two data sources read one after the other, then
// a resource that reads both, take one evaluation, and a resource that
// reads neither none.
func TestPlanPassEvaluations(t *testing.T) {
	for _, c := range []struct {
		name, src string
		evals     int
	}{
		{
			name: "two reads then their reader",
			src: `
data "aws_caller_identity" "a" {}
data "aws_caller_identity" "b" {}
resource "null_resource" "r" {
  triggers = { a = data.aws_caller_identity.a.account_id, b = data.aws_caller_identity.b.account_id }
}
`,
			evals: 1,
		},
		{
			name: "reads nobody reads",
			src: `
data "aws_caller_identity" "a" {}
data "aws_caller_identity" "b" {}
resource "null_resource" "r" {
  triggers = { x = "y" }
}
`,
			// The program at the end of the pass holds them.
			evals: 1,
		},
		{
			name: "a chain of reads",
			src: `
data "aws_caller_identity" "a" {}
data "aws_iam_policy_document" "p" {
  statement {
    sid = data.aws_caller_identity.a.account_id
  }
}
resource "null_resource" "r" {
  triggers = { p = data.aws_iam_policy_document.p.json }
}
`,
			evals: 2,
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := writeFiles(t, map[string]string{"main.tf": c.src})
			b := planBoth(t, dir, inputs.Sources{}, nil)
			requireEqual(t, b)
			if b.stats.planEvals != c.evals || b.stats.replans != 0 {
				t.Errorf("%d evaluations and %d replans, want %d and none", b.stats.planEvals, b.stats.replans, c.evals)
			}
		})
	}
}

// A declaration that only the plan pass can expand (its count waits for
// a data source) has its instances and shapes found in a program holding
// every value added before it, even those of declarations it does not
// depend on as far as the graph knows (the rule's reference to the list,
// indexed out of range before the read): nothing is stale at the end of
// the pass, where a shape found without the list's shapes would take the
// rule's network_acl_id for one the provider decides. (In the vpc
// module's network-acls example, where the check did not catch it, the
// provider's value then conflicted with the list's id at apply.)
func TestPlanPassShapes(t *testing.T) {
	dir := writeFiles(t, map[string]string{"main.tf": `
data "aws_availability_zones" "z" {}
module "m" {
  source  = "./mod"
  subnets = [for k, v in data.aws_availability_zones.z.names : "10.0.${k}.0/24"]
}
`, "mod/main.tf": `
variable "subnets" {
  type    = list(string)
  default = []
}
variable "rules" {
  type    = list(number)
  default = [1, 2]
}
locals {
  create = length(var.subnets) > 0
}
resource "aws_vpc" "this" {
  cidr_block = "10.0.0.0/16"
}
resource "aws_network_acl" "a" {
  count  = local.create ? 1 : 0
  vpc_id = aws_vpc.this.id
}
resource "aws_network_acl_rule" "r" {
  count          = local.create ? length(var.rules) : 0
  network_acl_id = aws_network_acl.a[0].id
  rule_number    = var.rules[count.index]
}
output "ids" {
  value = aws_network_acl_rule.r[*].network_acl_id
}
`})
	b := planBoth(t, dir, inputs.Sources{}, nil)
	requireEqual(t, b)
	if len(b.cue.Instances) != 5 || b.stats.replans != 0 {
		t.Errorf("%d instances and %d replans, want 5 and none", len(b.cue.Instances), b.stats.replans)
	}
}

// Declarations whose counts wait for the same read, and that do not
// depend on each other, are expanded together once it is read: one
// evaluation finds their shapes and, all of them kept, is the program
// that holds them, where one each would follow the other. The
// association, which reads one of them, is expanded at its turn, in a
// program that holds their shapes.
func TestPlanPassExpandsReadyTogether(t *testing.T) {
	var src strings.Builder
	src.WriteString("data \"aws_availability_zones\" \"z\" {}\n")
	for _, name := range []string{"a", "b", "c", "d"} {
		fmt.Fprintf(&src, `resource "aws_subnet" %q {
  count             = length(data.aws_availability_zones.z.names)
  availability_zone = data.aws_availability_zones.z.names[count.index]
  cidr_block        = "10.0.${count.index}.0/24"
}
`, name)
	}
	src.WriteString(`resource "aws_route_table_association" "r" {
  count     = length(aws_subnet.a)
  subnet_id = aws_subnet.a[count.index].id
}
`)
	dir := writeFiles(t, map[string]string{"main.tf": src.String()})
	b := planBoth(t, dir, inputs.Sources{}, nil)
	requireEqual(t, b)
	// The read, then the subnets' shapes; the association's shape at
	// the end. One by one: six.
	if b.stats.planEvals != 3 || b.stats.replans != 0 {
		t.Errorf("%d evaluations and %d replans in the plan pass, want 3 and none", b.stats.planEvals, b.stats.replans)
	}
}
