package cue

import (
	"strconv"
	"strings"
	"testing"

	"cuelang.org/go/cue/cuecontext"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/convert"
	"github.com/tofucue/tofucue/engine/inputs"
	"github.com/tofucue/tofucue/engine/mock"
)

// summaries is the error summaries of diags, one line each with the
// subject's file name and line.
func summaries(diags hcl.Diagnostics) string {
	var b strings.Builder
	for _, d := range diags {
		if d.Severity != hcl.DiagError {
			continue
		}
		b.WriteString(d.Summary)
		if d.Subject != nil {
			b.WriteString(" @ " + d.Subject.Filename[strings.LastIndex(d.Subject.Filename, "/")+1:] + ":" + strconv.Itoa(d.Subject.Start.Line))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// Errors of the module are errors on both sides, the CUE side's at the
// CUE source.
func TestErrors(t *testing.T) {
	for _, c := range []struct {
		name, src, vars string
		child           string // the module ./child, when there is one
		want            string // a summary the CUE side must report
	}{
		{
			name: "count unknown",
			src: `
resource "aws_vpc" "a" {
  cidr_block = "10.0.0.0/16"
}
resource "aws_subnet" "b" {
  count  = length(aws_vpc.a.id)
  vpc_id = aws_vpc.a.id
}
`,
			want: "Invalid count argument",
		},
		{
			name: "for_each unknown",
			src: `
resource "aws_vpc" "a" {
  cidr_block = "10.0.0.0/16"
}
resource "aws_subnet" "b" {
  for_each = { (aws_vpc.a.id) = 1 }
  vpc_id   = aws_vpc.a.id
}
`,
			want: "Invalid for_each argument",
		},
		{
			// Reported at the nested block's CUE source.
			name: "index out of range in a nested block",
			src: `
resource "aws_s3_bucket" "this" {
  count  = 0
  bucket = "b"
}
resource "aws_s3_bucket_inventory" "this" {
  bucket = "b"
  destination {
    bucket {
      bucket_arn = aws_s3_bucket.this[0].arn
      format     = "CSV"
    }
  }
}
`,
			want: "Invalid",
		},
		{
			name: "cycle",
			src: `
resource "aws_vpc" "a" {
  cidr_block = aws_subnet.b.id
}
resource "aws_subnet" "b" {
  vpc_id = aws_vpc.a.id
}
`,
			want: "Cycle: aws_vpc.a, aws_subnet.b",
		},
		{
			name: "input constraint",
			src: `
variable "env" {
  type = string
  validation {
    condition     = contains(["dev", "prod"], var.env)
    error_message = "env must be dev or prod."
  }
}
resource "aws_instance" "web" {
  name = var.env
}
`,
			vars: "env=test",
			want: "Invalid value for input variable",
		},
		{
			name: "validation kept for the engine",
			src: `
variable "tags" {
  type = map(string)
  validation {
    condition     = alltrue([for k in keys(var.tags) : k == lower(k)])
    error_message = "Tag keys must be lower case."
  }
}
resource "aws_instance" "web" {
  tags = var.tags
}
`,
			vars: `tags={Env="x"}`,
			want: "Invalid value for variable",
		},
		{
			// The template reads the argument from _arg; the
			// instance's _var still checks it.
			name: "module argument constraint",
			src: `
variable "name" {
  type = string
}
module "c" {
  source = "./child"
  name   = var.name
}
`,
			child: `
variable "name" {
  type = string
  validation {
    condition     = length(var.name) > 3
    error_message = "The name must be longer than three characters."
  }
}
resource "aws_instance" "web" {
  name = var.name
}
`,
			vars: "name=ab",
			want: "Invalid value for input variable",
		},
		{
			name: "precondition",
			src: `
resource "aws_vpc" "a" {
  cidr_block = "10.0.0.0/16"
}
resource "aws_instance" "web" {
  vpc = aws_vpc.a.id
  lifecycle {
    precondition {
      condition     = length(aws_vpc.a.id) > 50
      error_message = "Too short."
    }
  }
}
`,
			want: "Resource precondition failed",
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			files := map[string]string{"main.tf": c.src}
			if c.child != "" {
				files["child/main.tf"] = c.child
			}
			dir := writeFiles(t, files)
			src := inputs.Sources{Synthesize: true}
			if c.vars != "" {
				src.Vars = []string{c.vars}
			}
			b := planBoth(t, dir, src, nil)
			if !b.hclDiags.HasErrors() {
				t.Errorf("the HCL side has no error")
			}
			got := summaries(b.cueDiags)
			if !strings.Contains(got, c.want) {
				t.Errorf("CUE side's errors:\n%s\nwant %q; HCL side's:\n%s", got, c.want, summaries(b.hclDiags))
			}
			for _, d := range b.cueDiags {
				if d.Severity == hcl.DiagError && d.Subject == nil {
					t.Errorf("%s: no source position", d.Summary)
				}
			}
			// Each error once, though more than one evaluation meets it.
			seen := map[string]bool{}
			for _, d := range b.cueDiags {
				k := d.Detail
				if d.Subject != nil {
					k += " @ " + d.Subject.Filename + ":" + strconv.Itoa(d.Subject.Start.Line)
				}
				if seen[k] {
					t.Errorf("reported again: %s: %s", d.Summary, k)
				}
				seen[k] = true
			}
			t.Logf("CUE: %s\nHCL: %s", got, summaries(b.hclDiags))
		})
	}
}

// convertWith converts the module in dir and loads it with extra CUE
// files.
func convertWith(t *testing.T, dir string, extra map[string]string) (*convert.Result, *mock.Provider, func() (*planner, hcl.Diagnostics)) {
	t.Helper()
	m, diags := config.Load(dir)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	r := convert.Module(m, convert.Options{Package: "m"})
	schemas, _ := mock.LoadSchemas()
	schemas.Infer(m)
	provider := mock.New(schemas, nil)
	files := map[string][]byte{}
	for name, text := range extra {
		files[name] = []byte(text)
	}
	return r, provider, func() (*planner, hcl.Diagnostics) {
		// A conflict fails the build; the planner reports it.
		v, _ := r.LoadWith(cuecontext.New(), files)
		return planValue(v, Options{Provider: provider})
	}
}

// A conflict that a change to the CUE form makes is an error at the CUE
// source, and a changed value is a difference from the HCL plan that
// names the instance and the attribute.
func TestChangedCUE(t *testing.T) {
	src := `
resource "aws_vpc" "main" {
  cidr_block = "10.0.0.0/16"
  tags       = { Name = "main" }
}
output "id" {
  value = aws_vpc.main.id
}
`
	dir := writeFiles(t, map[string]string{"main.tf": src})
	_, _, run := convertWith(t, dir, map[string]string{"conflict.cue": "package m\n\naws_vpc: main: cidr_block: \"10.1.0.0/16\"\n"})
	_, diags := run()
	got := summaries(diags)
	if !strings.Contains(got, "conflict.cue:3") {
		t.Errorf("the conflict is not reported at conflict.cue:3:\n%s", got)
	}

	b := planBoth(t, dir, inputs.Sources{}, nil)
	requireEqual(t, b)
	_, _, run = convertWith(t, dir, map[string]string{"changed.cue": "package m\n\naws_vpc: main: tags: Owner: \"me\"\n"})
	p, diags := run()
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	d := differences(b.hcl, p.result)
	if len(d) == 0 || !strings.Contains(strings.Join(d, "\n"), "aws_vpc.main: planned at .tags.Owner") {
		t.Errorf("differences:\n%s", strings.Join(d, "\n"))
	}
	if p.result.Outputs["id"].Applied.Equals(cty.StringVal("")).True() {
		t.Error("no output")
	}
}

// A failed check block assertion is a warning on both sides.
func TestCheckWarning(t *testing.T) {
	dir := writeFiles(t, map[string]string{"main.tf": `
resource "aws_instance" "web" {
  ami = "ami-1"
}
check "ami" {
  assert {
    condition     = aws_instance.web.ami == "ami-2"
    error_message = "Not the expected AMI."
  }
}
`})
	b := planBoth(t, dir, inputs.Sources{}, nil)
	requireEqual(t, b)
	warned := false
	for _, d := range b.cueDiags {
		if d.Severity == hcl.DiagWarning && d.Summary == "Check block assertion failed" && d.Detail == "Not the expected AMI." {
			warned = true
		}
	}
	if !warned {
		t.Errorf("no warning: %s", b.cueDiags)
	}
}
