package cue

import (
	"testing"

	"github.com/tofucue/tofucue/engine/inputs"
)

// An argument null by default only because another instance's computed
// attribute is not in the program yet (try's fallback) is decided again
// once the shapes are there: the flow log passes the role's arn, as in
// OpenTofu, and is not left to the provider (before, the two values
// conflicted once applied). Where nothing is null by default, the
// shapes take one round: no evaluation is added.
func TestShapeRounds(t *testing.T) {
	for _, c := range []struct {
		name, src string
		rounds    int
	}{
		{
			// The region is null until the data source has its type, so
			// the policy, and the role that reads it, are errors in the
			// first round: the flow log's try takes the variable's null
			// default. The second round lists the role, the third finds
			// that the flow log passes its arn.
			name: "try of a computed attribute behind a null not decided yet",
			src: `
variable "region" {
  type    = string
  default = null
}

variable "iam_role_arn" {
  type    = string
  default = null
}

data "aws_region" "current" {
  region = var.region
}

locals {
  region = try(data.aws_region.current.region, "")
}

resource "aws_flow_log" "this" {
  iam_role_arn = try(aws_iam_role.this[0].arn, var.iam_role_arn)
  vpc_id       = "vpc-1"
}

data "aws_iam_policy_document" "assume_role" {
  statement {
    actions = ["sts:AssumeRole"]
    condition {
      test     = "ArnLike"
      variable = "aws:SourceArn"
      values   = ["arn:aws:ec2:${local.region}:vpc-flow-log/*"]
    }
  }
}

resource "aws_iam_role" "this" {
  count              = 1
  assume_role_policy = data.aws_iam_policy_document.assume_role.json
}

output "role_arn" {
  value = aws_flow_log.this.iam_role_arn
}
`,
			rounds: 3,
		},
		{
			name: "nothing null by default",
			src: `
resource "aws_iam_role" "this" {
  assume_role_policy = "{}"
}
resource "aws_flow_log" "this" {
  iam_role_arn = aws_iam_role.this.arn
  vpc_id       = "vpc-1"
}
`,
			rounds: 1,
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := writeFiles(t, map[string]string{"main.tf": c.src})
			b := planBoth(t, dir, inputs.Sources{}, nil)
			requireEqual(t, b)
			if b.stats.shapeRounds != c.rounds {
				t.Errorf("shape rounds %d, want %d", b.stats.shapeRounds, c.rounds)
			}
		})
	}
}
