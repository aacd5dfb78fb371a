package cue

import (
	"testing"

	"github.com/tofucue/tofucue/engine/inputs"
)

// A dependency that tools/flow cannot see (a coalesce waiting for a data
// source, inside try) is learned by the plan pass's check: the plan runs
// once more and reads the policy after the identity, as engine/hcl does.
// Where the graph has it (a direct reference), nothing is learned.
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
  account = try(coalesce(null, data.aws_caller_identity.current.account_id), "")
}
data "aws_iam_policy_document" "p" {
  statement {
    resources = ["arn:${local.account}:x"]
  }
}
`,
			replans: 1,
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
  account = try(coalesce(null, data.aws_caller_identity.current.account_id), "")
}
data "aws_caller_identity" "current" {}
`,
			replans: 1,
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
