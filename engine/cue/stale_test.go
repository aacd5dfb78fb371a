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
