package config

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/internal/testtree"
)

// writeModule writes files into a new temporary directory and returns it.
func writeModule(t testing.TB, files map[string]string) string { return testtree.Write(t, files) }

func mustLoad(t *testing.T, files map[string]string) *Module {
	t.Helper()
	m, diags := Load(writeModule(t, files))
	if diags.HasErrors() {
		t.Fatalf("unexpected errors: %s", diags.Error())
	}
	return m
}

func summaries(diags hcl.Diagnostics) []string {
	var out []string
	for _, d := range diags {
		out = append(out, d.Summary)
	}
	return out
}

func TestModuleFilesOrderAndHiding(t *testing.T) {
	dir := writeModule(t, map[string]string{
		"b.tf": "", "a.tf": "", "a.tofu": "", "x.tf.json": "{}", "x.tofu.json": "{}",
		"override.tf": "", "c_override.tf": "", ".hidden.tf": "", "backup.tf~": "", "#emacs.tf#": "",
		"notes.txt": "", "sub/inner.tf": "",
	})
	primary, override, diags := ModuleFiles(dir)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	base := func(paths []string) string {
		var names []string
		for _, p := range paths {
			names = append(names, filepath.Base(p))
		}
		return strings.Join(names, " ")
	}
	if got, want := base(primary), "a.tofu b.tf x.tofu.json"; got != want {
		t.Errorf("primary = %q, want %q", got, want)
	}
	if got, want := base(override), "c_override.tf override.tf"; got != want {
		t.Errorf("override = %q, want %q", got, want)
	}
}

func TestOverrideMergesBodies(t *testing.T) {
	m := mustLoad(t, map[string]string{
		"main.tf": `
resource "aws_instance" "web" {
  ami           = "ami-1"
  instance_type = "t3.micro"
  ebs_block_device { device_name = "a" }
  ebs_block_device { device_name = "b" }
  dynamic "tag" {
    for_each = ["x"]
    content { key = tag.value }
  }
  count = 2
}
`,
		"main_override.tf": `
resource "aws_instance" "web" {
  ami = "ami-2"
  ebs_block_device { device_name = "c" }
  tag { key = "y" }
  for_each = toset(["a"])
}
`,
	})
	r := m.ManagedResources["aws_instance.web"]
	if r.Count != nil || r.ForEach == nil {
		t.Errorf("for_each in the override must replace count")
	}
	content, _, diags := r.Config.PartialContent(&hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{{Name: "ami"}, {Name: "instance_type"}},
		Blocks: []hcl.BlockHeaderSchema{
			{Type: "ebs_block_device"}, {Type: "tag"}, {Type: "dynamic", LabelNames: []string{"type"}},
		},
	})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	ami, _ := content.Attributes["ami"].Expr.Value(nil)
	if ami.AsString() != "ami-2" {
		t.Errorf("ami = %q, want the override's", ami.AsString())
	}
	if content.Attributes["instance_type"] == nil {
		t.Errorf("instance_type from the base was lost")
	}
	var types []string
	for _, b := range content.Blocks {
		types = append(types, b.Type)
	}
	if got := strings.Join(types, ","); got != "ebs_block_device,tag" {
		t.Errorf("blocks = %s, want the override's one ebs_block_device and one tag (replacing the base's and its dynamic tag)", got)
	}
}

func TestOverrideVariableTypeRechecksDefault(t *testing.T) {
	_, diags := Load(writeModule(t, map[string]string{
		"main.tf":     `variable "v" { default = "x" }`,
		"override.tf": `variable "v" { type = number }`,
	}))
	if got := summaries(diags); len(got) != 1 || got[0] != "Invalid default value for variable" {
		t.Errorf("diagnostics = %q", got)
	}
}

func TestOptionalDefaultsApplied(t *testing.T) {
	m := mustLoad(t, map[string]string{"main.tf": `
variable "buckets" {
  type = list(object({
    name    = string
    enabled = optional(bool, true)
    website = optional(object({
      index_document = optional(string, "index.html")
      error_document = optional(string, "error.html")
    }), {})
  }))
  default = [{ name = "a" }, { name = "b", enabled = false, website = { index_document = "i.htm" } }]
}
`})
	v := m.Variables["buckets"]
	if v.TypeDefaults == nil {
		t.Fatal("optional defaults not kept")
	}
	first := v.Default.Index(cty.NumberIntVal(0))
	if !first.GetAttr("enabled").True() {
		t.Errorf("enabled default not applied: %#v", first)
	}
	if got := first.GetAttr("website").GetAttr("index_document").AsString(); got != "index.html" {
		t.Errorf("nested default: index_document = %q", got)
	}
	second := v.Default.Index(cty.NumberIntVal(1))
	if got := second.GetAttr("website").GetAttr("error_document").AsString(); got != "error.html" {
		t.Errorf("nested default inside a given object: error_document = %q", got)
	}
	if second.GetAttr("enabled").True() {
		t.Errorf("a given value must win over the default")
	}
}

func TestDefaultDoesNotConform(t *testing.T) {
	_, diags := Load(writeModule(t, map[string]string{"main.tf": `
variable "v" {
  type = object({ port = number })
  default = { port = "eighty" }
}
`}))
	if !diags.HasErrors() || !strings.Contains(diags[0].Detail, "port") {
		t.Errorf("want an error naming the attribute, got %s", diags.Error())
	}
	if diags[0].Subject == nil || diags[0].Subject.Start.Line != 4 {
		t.Errorf("want the default's range, got %v", diags[0].Subject)
	}
}

func TestParseModuleSource(t *testing.T) {
	tests := []struct {
		raw        string
		hasVersion bool
		kind       ModuleSourceKind
		wantErr    bool
	}{
		{raw: "./vpc", kind: LocalSource},
		{raw: "../shared/x", kind: LocalSource},
		{raw: "terraform-aws-modules/vpc/aws", hasVersion: true, kind: RegistrySource},
		{raw: "app.terraform.io/corp/vpc/aws//modules/sub", hasVersion: true, kind: RegistrySource},
		{raw: "git::https://example.com/vpc.git?ref=v1", kind: RemoteSource},
		{raw: "github.com/hashicorp/example", kind: RemoteSource},
		{raw: "https://example.com/vpc.zip", kind: RemoteSource},
		{raw: "../boop", hasVersion: true, wantErr: true},
		{raw: "---.com/HashiCorp/Consul/aws", hasVersion: true, wantErr: true},
		{raw: "vpc", wantErr: true},
		{raw: "/abs/path", wantErr: true},
	}
	for _, tt := range tests {
		src, err := ParseModuleSource(tt.raw, tt.hasVersion)
		if (err != nil) != tt.wantErr {
			t.Errorf("%q: err = %v, want error %v", tt.raw, err, tt.wantErr)
			continue
		}
		if err == nil && src.Kind != tt.kind {
			t.Errorf("%q: kind %d, want %d", tt.raw, src.Kind, tt.kind)
		}
	}
}

func TestParseProviderSource(t *testing.T) {
	for raw, want := range map[string]string{
		"aws":                      "registry.opentofu.org/hashicorp/aws",
		"hashicorp/aws":            "registry.opentofu.org/hashicorp/aws",
		"Example.COM/Corp/Thing":   "example.com/corp/thing",
		"foo/terraform-provider-x": "",
		"foo/bar/baz/qux":          "",
		"foo/bad_name":             "",
	} {
		addr, diag := ParseProviderSource(raw)
		if got := addr.String(); got != want {
			t.Errorf("%q: got %q (%v), want %q", raw, got, diag, want)
		}
		if (diag != nil) != (want == "") {
			t.Errorf("%q: diagnostic %v", raw, diag)
		}
	}
}

func TestStaticModuleSource(t *testing.T) {
	m, diags := Load(writeModule(t, map[string]string{"main.tf": `
variable "ver" { default = "~> 5.0" }
locals { base = "terraform-aws-modules" }
module "vpc" {
  source  = "${local.base}/vpc/aws"
  version = var.ver
}
module "secret" {
  source = sensitive("./x")
}
module "dynamic" {
  source = aws_s3_bucket.b.id
}
`}))
	if got := summaries(diags); len(got) != 1 || got[0] != "Sensitive value not allowed" {
		t.Fatalf("diagnostics = %q", got)
	}
	mc := m.ModuleCalls["vpc"]
	if mc.SourceAddr == nil || mc.SourceAddr.Kind != RegistrySource || mc.SourceAddr.Namespace != "terraform-aws-modules" {
		t.Errorf("source = %+v", mc.SourceAddr)
	}
	if mc.Version == nil || mc.Version.Source != "~> 5.0" {
		t.Errorf("version = %+v", mc.Version)
	}
	if m.ModuleCalls["dynamic"].SourceAddr != nil {
		t.Errorf("a source that needs a plan has no static address")
	}
}

func TestLookups(t *testing.T) {
	m := mustLoad(t, map[string]string{"main.tf": `
resource "symbols" "x" {}
data "aws_ami" "ubuntu" {}
provider "aws" { alias = "east" }
middleware "checker" { command = "check" }
terraform { middleware = [middleware.checker] }
`})
	if !m.HasAnyManagedResourceOfType("symbols") || m.HasAnyManagedResourceOfType("aws_ami") {
		t.Errorf("HasAnyManagedResourceOfType counts data sources or misses resources")
	}
	if !m.HasManagedResource("symbols", "x") || m.HasManagedResource("symbols", "y") {
		t.Errorf("HasManagedResource wrong")
	}
	if m.Resource(DataMode, "aws_ami", "ubuntu") == nil || m.ProviderConfig("aws", "east") == nil {
		t.Errorf("lookups by name failed")
	}
	if len(m.Terraform.Middleware) != 1 || m.Terraform.Middleware[0].Traversal.RootName() != "middleware" {
		t.Errorf("terraform middleware list = %+v", m.Terraform.Middleware)
	}
	if m.BlockCount("middleware") != 1 {
		t.Errorf("BlockCount(middleware) = %d", m.BlockCount("middleware"))
	}
}

func TestMistakes(t *testing.T) {
	for name, tc := range map[string]struct {
		src, want string
		line      int
	}{
		"duplicate variable": {"variable \"a\" {}\nvariable \"a\" {}\n", "Duplicate variable declaration", 2},
		"reserved variable":  {"variable \"count\" {}\n", "Invalid variable name", 1},
		"invalid name":       {"output \"1x\" { value = 1 }\n", "Invalid output name", 1},
		"count and for_each": {"module \"m\" {\n  source = \"./m\"\n  count = 1\n  for_each = {}\n}\n", `Invalid combination of "count" and "for_each"`, 3},
		"wrong type":         {"variable \"a\" {\n  sensitive = \"yes please\"\n}\n", "Unsuitable value type", 2},
		"unknown block":      {"resourse \"a\" \"b\" {}\n", "Unsupported block type", 1},
		"unknown argument":   {"variable \"a\" {\n  defualt = 1\n}\n", "Unsupported argument", 2},
		"middleware args":    {"middleware \"m\" {\n  command = \"x\"\n  args = \"not a list\"\n}\n", "Incorrect attribute value type", 3},
		"middleware command": {"middleware \"m\" {}\n", "Missing required argument", 1},
		"duplicate language": {"language {}\nlanguage {}\n", "Duplicate language block", 2},
	} {
		t.Run(name, func(t *testing.T) {
			_, diags := Load(writeModule(t, map[string]string{"main.tf": tc.src}))
			for _, d := range diags {
				if d.Summary == tc.want && d.Subject != nil && d.Subject.Start.Line == tc.line && d.Detail != "" {
					return
				}
			}
			t.Errorf("want %q with a detail on line %d, got %q", tc.want, tc.line, summaries(diags))
		})
	}
}

// FuzzLoadFile checks that no input makes the loader panic or hang, in
// either syntax.
func FuzzLoadFile(f *testing.F) {
	f.Add([]byte(`variable "a" { type = optional(string, 1) }`), false)
	f.Add([]byte(`resource "a" "b" { count = 1 lifecycle { ignore_changes = ["*"] } }`), false)
	f.Add([]byte(`module "m" { source = "./x" version = sensitive("1") }`), false)
	f.Add([]byte(`{"resource": {"a": {"b": {"lifecycle": {"replace_triggered_by": ["a.c[count.index]"]}}}}}`), true)
	f.Add([]byte(`language { edition = tofu2038 compatible_with { opentofu = ">= 1" } }`), false)
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, src []byte, json bool) {
		name := "fuzz.tf"
		if json {
			name = "fuzz.tf.json"
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, src, 0o644); err != nil {
			t.Fatal(err)
		}
		// A hang is a failure too: the panic records the input as a crasher.
		timer := time.AfterFunc(10*time.Second, func() { panic(fmt.Sprintf("HANG on %q json=%v", src, json)) })
		m, _ := LoadFile(path, Options{})
		timer.Stop()
		if m == nil {
			t.Fatal("LoadFile returned no module for a readable file")
		}
	})
}

// TestLoadOverlay: an overlay's files stand for those on disk, and a file
// only in the overlay is part of its directory's module.
func TestLoadOverlay(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(`variable "a" {}`), 0o644); err != nil {
		t.Fatal(err)
	}
	overlay := map[string][]byte{
		filepath.Join(dir, "main.tf"):     []byte(`variable "b" {}`),
		filepath.Join(dir, "new.tf"):      []byte(`variable "c" {}`),
		filepath.Join(dir, "sub", "x.tf"): []byte(`variable "d" {}`), // another module
		filepath.Join(dir, "notes.txt"):   []byte(`not configuration`),
	}
	mod, diags := LoadWith(dir, Options{Overlay: overlay})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	var names []string
	for name := range mod.Variables {
		names = append(names, name)
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"b", "c"}) {
		t.Errorf("variables = %v, want [b c]", names)
	}
}
