package cue

import (
	"fmt"
	"slices"
	"testing"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/cuecontext"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/engine/inputs"
	"github.com/tofucue/tofucue/engine/mock"
)

// An argument null by default only because another instance's computed
// attribute is not in the program yet (try's fallback) is decided again
// once the shapes are there: the flow log passes the role's arn, as in
// OpenTofu, and is not left to the provider (before, the two values
// conflicted once applied). Where nothing is null by default, the
// shapes take one round: no evaluation is added.
func TestShapeRounds(t *testing.T) {
	// flowLogRole is a module whose flow log tries the arn of
	// aws_iam_role.this[key], falling back to a variable null by
	// default; meta is the role's count or for_each, and the role reads
	// a policy document that reads a data source's region.
	flowLogRole := func(key, meta string) string {
		return fmt.Sprintf(`
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
  iam_role_arn = try(aws_iam_role.this[%s].arn, var.iam_role_arn)
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
  %s
  assume_role_policy = data.aws_iam_policy_document.assume_role.json
}

output "role_arn" {
  value = aws_flow_log.this.iam_role_arn
}
`, key, meta)
	}
	for _, c := range []struct {
		name, src string
		rounds    int
	}{
		{
			// The region is null until the data source has its type, so
			// the policy, and the role that reads it, are errors in the
			// first round: the flow log's try takes the variable's null
			// default. The second round lists the role, the third finds
			// that the flow log passes its arn. (The role has for_each:
			// the try tests its instance with a probe, which takes the
			// error of the first round for a missing instance.)
			name:   "try of a computed attribute behind a null not decided yet",
			src:    flowLogRole(`"a"`, `for_each           = toset(["a"])`),
			rounds: 3,
		},
		{
			// The same with the role counted: the try tests the
			// instance by the length of aws_iam_role.this, known in
			// the first round, and waits for its arn rather than
			// taking the fallback, so no argument is null by default
			// and the third round is not needed.
			name:   "try of an instance of a counted resource",
			src:    flowLogRole(`0`, `count              = 1`),
			rounds: 2,
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

// A multi-instance declaration is expanded before the program is
// completed with the schemas; where the completed program gives it other
// instances (a try that took its fallback because a data source had no
// id yet), the plan pass expands it again at its turn. Elsewhere the
// instances found first stay, with no evaluation added.
func TestMovedInstances(t *testing.T) {
	for _, c := range []struct {
		name, src string
		moved     int
	}{
		{
			name: "count through try of a data source's id",
			src: `
data "aws_canonical_user_id" "current" {}

locals {
  owner = { id = data.aws_canonical_user_id.current.id }
}

data "aws_canonical_user_id" "this" {
  count = try(local.owner["id"], null) == null ? 1 : 0
}

resource "aws_s3_bucket_acl" "this" {
  bucket = "b"
  owner {
    id = try(local.owner["id"], data.aws_canonical_user_id.this[0].id)
  }
}
`,
			moved: 1,
		},
		{
			name: "counts that the schemas do not change",
			src: `
variable "n" {
  type    = number
  default = 2
}

resource "aws_s3_bucket" "this" {
  count  = var.n
  bucket = "b-${count.index}"
}

resource "aws_s3_bucket_acl" "this" {
  for_each = { for i, b in aws_s3_bucket.this : tostring(i) => b.id }
  bucket   = each.value
}
`,
			moved: 0,
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := writeFiles(t, map[string]string{"main.tf": c.src})
			b := planBoth(t, dir, inputs.Sources{}, nil)
			requireEqual(t, b)
			if b.stats.movedDecls != c.moved {
				t.Errorf("moved declarations %d, want %d", b.stats.movedDecls, c.moved)
			}
		})
	}
}

// TestBrokenInstances checks the shape rounds' second check: a
// declaration one of whose instances has an attribute that the completed
// program makes an error, where the program as written evaluates it, is
// left to the plan pass; an attribute an error in both, one the fills
// add, and a declaration moved already are not.
func TestBrokenInstances(t *testing.T) {
	ctx := cuecontext.New()
	v := ctx.CompileString(`
a: x: {name: "a", tags: {}}
b: x: {name: "b", bad: 1 & 2}
c: x: {name: "c"}
`)
	typed := ctx.CompileString(`
a: x: {name: "a", tags: 1 & 2}
b: x: {name: "b", bad: 1 & 2}
c: x: {name: 1 & 2, id: 3 & 4}
`)
	block := &mock.Block{Attributes: map[string]*mock.Attribute{
		"name": {Type: cty.String}, "tags": {Type: cty.Map(cty.String)},
		"bad": {Type: cty.Number}, "id": {Type: cty.String},
	}}
	inst := func(i int, root string) *instance {
		return &instance{d: &decl{index: i}, path: cue.ParsePath(root + ".x"), block: block, shape: &shape{}}
	}
	insts := []*instance{inst(0, "a"), inst(1, "b"), inst(2, "c")}
	if got := brokenInstances(v, typed, insts, nil); !slices.Equal(got, []int{0, 2}) {
		t.Errorf("broken = %v, want [0 2]", got)
	}
	if got := brokenInstances(v, typed, insts, []int{2}); !slices.Equal(got, []int{0}) {
		t.Errorf("broken with 2 moved = %v, want [0]", got)
	}
}

// TestForeignError checks the shape rounds' test before expanding a
// multi-instance declaration: a for_each struct that a comprehension
// builds over a value that cannot be evaluated yet (a module argument
// computed from a data source not read yet, whose field-level ifs leave
// the arguments' struct undecided) lists no instances, and is left to the
// plan pass; an error inside an instance's value, or none, is not the
// listing's. (terraform-aws-vpc's examples, where the module's azs came
// from a data source, lost an exclusion's instance.)
func TestForeignError(t *testing.T) {
	v := cuecontext.New().CompileString(`
import "list"

data: available: {}
zones: list.Slice(data.available.names, 0, 2)
args: {
	azs: zones
	exclusions: x: {}
}
arg: {
	if args.azs == null {azs: null}
	if args.azs != null {azs: args.azs}
	exclusions: args.exclusions
}
waits: {
	for k, e in arg.exclusions {(k): {id: "i"}}
}
inner: {
	a: {id: data.missing}
}
plain: {
	a: {id: "i"}
}
`)
	// What expand alone would make of it: no instance.
	if ls, ok := instancesIn(&decl{shape: cue.StructKind, path: cue.ParsePath("waits")}, v.LookupPath(cue.ParsePath("waits"))); !ok || len(ls) != 0 {
		t.Fatalf("instancesIn(waits) = %v, %v; the case no longer shows the listing cut short", ls, ok)
	}
	for _, c := range []struct {
		path string
		want bool
	}{
		{"waits", true},
		{"inner", false},
		{"plain", false},
	} {
		if got := foreignError(v.LookupPath(cue.ParsePath(c.path)), cue.ParsePath(c.path)); got != c.want {
			t.Errorf("foreignError(%s) = %v, want %v (%v)", c.path, got, c.want, v.LookupPath(cue.ParsePath(c.path)).Err())
		}
	}
}
