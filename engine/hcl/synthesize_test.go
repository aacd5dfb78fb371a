package hcl

import (
	"bytes"
	"path/filepath"
	"slices"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/tofucue/tofucue/engine/inputs"
	"github.com/tofucue/tofucue/internal/testdir"
)

// loadFiles writes files into a new directory and loads the tree.
func loadFiles(t *testing.T, files map[string]string) *Tree {
	t.Helper()
	dir := testdir.Write(t, files)
	tree, diags := Load(dir)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	return tree
}

// TestBlame checks which root variables an error is blamed on: through
// locals, a module call's argument and output, a resource's argument (not
// its computed attributes), and the for_each of the block around it.
func TestBlame(t *testing.T) {
	tree := loadFiles(t, map[string]string{
		"main.tf": `
variable "a" {
  type    = string
  default = null
}
variable "b" {
  type = string
}
variable "keys" {
  type = set(string)
}
variable "unused" {
  type = string
}

locals {
  joined = "${var.a}-x"
}

module "child" {
  source = "./child"
  in     = var.b
}

resource "aws_thing" "t" {
  name = var.b
}

resource "aws_other" "o" {
  for_each = var.keys
  label    = "${local.joined}-${each.key}"
  size     = parseint(aws_thing.t.id, 10)
  alias    = lower(module.child.out)
  from     = upper(aws_thing.t.name)
}
`,
		"child/main.tf": `
variable "in" {
  type = string
}
output "out" {
  value = "${var.in}"
}
`,
	})
	ins, diags := inputs.Collect(tree.Root, inputs.Sources{Synthesize: true})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	_, _, pl := planWith(tree, ins, Options{})
	file := filepath.Join(tree.Root.Dir, "main.tf")
	src := tree.Root.Files[file].Bytes
	at := func(text string) *hcl.Range {
		i := bytes.Index(src, []byte(text))
		if i < 0 {
			t.Fatalf("%q not in main.tf", text)
		}
		return &hcl.Range{Filename: file, Start: hcl.Pos{Byte: i}, End: hcl.Pos{Byte: i + len(text)}}
	}
	for _, tc := range []struct {
		subject string
		want    []string
	}{
		{`"${local.joined}-${each.key}"`, []string{"a", "keys"}},
		{`parseint(aws_thing.t.id, 10)`, []string{"keys"}},
		{`lower(module.child.out)`, []string{"b", "keys"}},
		{`upper(aws_thing.t.name)`, []string{"b", "keys"}},
	} {
		names, _ := blame(pl, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "x", Subject: at(tc.subject)}, nil)
		if !slices.Equal(names, tc.want) {
			t.Errorf("%s: blamed %v, want %v", tc.subject, names, tc.want)
		}
	}
}

// TestSynthesizedSearchBound: the search makes no more plans than the
// bound, says so, and a bound of -1 makes none.
func TestSynthesizedSearchBound(t *testing.T) {
	files := map[string]string{"main.tf": `
variable "name" {
  type = string
}
resource "aws_instance" "web" {
  ami = var.name
  lifecycle {
    precondition {
      condition     = length(var.name) < 0
      error_message = "Impossible."
    }
  }
}
`}
	var plans int
	traceSynthesis = func(string) { plans++ }
	defer func() { traceSynthesis = nil }()
	for _, bound := range []int{-1, 3} {
		plans = 0
		tree := loadFiles(t, files)
		_, diags := Plan(tree, Options{Inputs: inputs.Sources{Synthesize: true}, MaxSynthesisPlans: bound})
		if !diags.HasErrors() {
			t.Fatalf("bound %d: planned", bound)
		}
		want := max(bound, 0)
		if plans != want {
			t.Errorf("bound %d: %d plans", bound, plans)
		}
		var warned bool
		for _, d := range diags {
			warned = warned || d.Summary == "No synthesized inputs plan"
		}
		if warned != (want > 0) {
			t.Errorf("bound %d: warning %v", bound, warned)
		}
	}
}
