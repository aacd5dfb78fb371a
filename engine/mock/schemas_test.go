package mock

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/config"
)

func loadFixture(t *testing.T) *Schemas {
	t.Helper()
	s, diags := LoadSchemas("testdata/aws.json")
	if len(diags) > 0 {
		t.Fatalf("LoadSchemas: %s", diags.Error())
	}
	return s
}

func TestLoadSchemas(t *testing.T) {
	s := loadFixture(t)
	if got, want := strings.Join(s.Types(config.ManagedMode), " "), "aws_db_instance aws_instance aws_lb_listener_rule random_id"; got != want {
		t.Errorf("managed types %q, want %q", got, want)
	}
	if got, want := strings.Join(s.Types(config.DataMode), " "), "aws_ami aws_caller_identity"; got != want {
		t.Errorf("data types %q, want %q", got, want)
	}
	if got, want := strings.Join(s.Types(config.EphemeralMode), " "), "aws_secretsmanager_secret_version"; got != want {
		t.Errorf("ephemeral types %q, want %q", got, want)
	}
	for _, tc := range []struct {
		mode     config.ResourceMode
		typ      string
		provider string
	}{
		{config.ManagedMode, "aws_instance", "registry.opentofu.org/hashicorp/aws"},
		{config.ManagedMode, "random_id", "registry.opentofu.org/hashicorp/random"},
		{config.DataMode, "aws_ami", "registry.opentofu.org/hashicorp/aws"},
		{config.ManagedMode, "aws_ami", ""},
		{config.DataMode, "aws_instance", ""},
	} {
		if got := s.ProviderAddr(tc.mode, tc.typ); got != tc.provider {
			t.Errorf("ProviderAddr(%v, %s) = %q, want %q", tc.mode, tc.typ, got, tc.provider)
		}
		if s.Inferred(tc.mode, tc.typ) {
			t.Errorf("Inferred(%v, %s) = true for a loaded schema", tc.mode, tc.typ)
		}
	}
	if s.Block(config.ManagedMode, "aws_nothing") != nil {
		t.Error("Block of an unknown type is not nil")
	}

	want := `ami: string optional computed
arn: string computed
id: string optional computed
instance_type: string required
private_ip: string optional computed
security_groups: set of string optional computed
tags: map of string optional
tags_all: map of string optional computed
ebs_block_device (set block):
  device_name: string required
  volume_id: string computed
  volume_size: number optional computed
root_block_device (list block):
  encrypted: bool optional computed
  volume_id: string computed
timeouts (single block):
  create: string optional`
	if got := describe(s.Block(config.ManagedMode, "aws_instance")); got != want {
		t.Errorf("aws_instance:\n%s\nwant:\n%s", got, want)
	}
	inst := s.Block(config.ManagedMode, "aws_instance")
	if inst.BlockTypes["root_block_device"].MaxItems != 1 {
		t.Errorf("root_block_device max_items = %d, want 1", inst.BlockTypes["root_block_device"].MaxItems)
	}
	if !s.Block(config.ManagedMode, "aws_db_instance").Attributes["password"].Sensitive {
		t.Error("password is not sensitive")
	}
	rule := s.Block(config.ManagedMode, "aws_lb_listener_rule").Attributes["action"]
	wantAction := cty.List(cty.Object(map[string]cty.Type{"type": cty.String, "order": cty.Number, "target_arn": cty.String}))
	if rule.NestedType == nil || !rule.Type.Equals(wantAction) {
		t.Errorf("action: NestedType %v, type %#v; want nested, %#v", rule.NestedType, rule.Type, wantAction)
	}
	wantType := cty.Object(map[string]cty.Type{
		"ami": cty.String, "arn": cty.String, "id": cty.String, "instance_type": cty.String, "private_ip": cty.String,
		"security_groups": cty.Set(cty.String), "tags": cty.Map(cty.String), "tags_all": cty.Map(cty.String),
		"ebs_block_device":  cty.Set(cty.Object(map[string]cty.Type{"device_name": cty.String, "volume_id": cty.String, "volume_size": cty.Number})),
		"root_block_device": cty.List(cty.Object(map[string]cty.Type{"encrypted": cty.Bool, "volume_id": cty.String})),
		"timeouts":          cty.Object(map[string]cty.Type{"create": cty.String}),
	})
	if got := inst.ImpliedType(); !got.Equals(wantType) {
		t.Errorf("ImpliedType:\n%#v\nwant:\n%#v", got, wantType)
	}
}

func writeFile(t *testing.T, name, src string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLoadSchemasErrors(t *testing.T) {
	tests := []struct {
		name, src string
		// want is "SEVERITY LINE:COLUMN SUMMARY: DETAIL-FRAGMENT"
		want string
	}{
		{
			name: "syntax",
			src:  "{\n  \"format_version\": \"1.0\",\n  \"provider_schemas\": {,}\n}",
			want: "error 3:24 Invalid provider schema file: not valid JSON",
		},
		{
			name: "wrong JSON type",
			src:  "{\n  \"format_version\": \"1.0\",\n  \"provider_schemas\": []\n}",
			want: "error 3:24 Invalid provider schema file: array",
		},
		{
			name: "no format version",
			src:  `{"provider_schemas": {}}`,
			want: "error 1:1 Invalid provider schema file: has no format_version",
		},
		{
			name: "future format",
			src:  `{"format_version": "2.0", "provider_schemas": {}}`,
			want: `error 1:20 Unsupported provider schema format: format_version "2.0"`,
		},
		{
			name: "bad nesting mode",
			src: `{"format_version": "1.0", "provider_schemas": {"p": {"resource_schemas": {"x_y": {"block": {
  "block_types": {"b": {"nesting_mode": "tree", "block": {}}}}}}}}}`,
			want: `error 2:41 Invalid provider schema: nesting mode "tree"`,
		},
		{
			name: "bad type",
			src: `{"format_version": "1.0", "provider_schemas": {"p": {"data_source_schemas": {"x_y": {"block": {
  "attributes": {"a": {"type": ["tuple"], "optional": true}}}}}}}}`,
			want: `error 2:32 Invalid provider schema: Attribute "a" has an invalid type`,
		},
		{
			name: "no flags",
			src: `{"format_version": "1.0", "provider_schemas": {"p": {"resource_schemas": {"x_y": {"block": {
  "attributes": {"a": {"type": "string"}}}}}}}}`,
			want: `error 2:23 Invalid provider schema: neither required, optional nor computed`,
		},
		{
			name: "no block",
			src:  `{"format_version": "1.0", "provider_schemas": {"p": {"resource_schemas": {"x_y": {"version": 0}}}}}`,
			want: `error 1:82 Invalid provider schema: has no block`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeFile(t, "schema.json", tt.src)
			_, diags := LoadSchemas(path)
			if len(diags) != 1 {
				t.Fatalf("got %d diagnostics, want 1: %v", len(diags), diags)
			}
			d := diags[0]
			if d.Subject == nil || d.Subject.Filename != path {
				t.Fatalf("diagnostic %v does not name the file", d)
			}
			sev := map[hcl.DiagnosticSeverity]string{hcl.DiagError: "error", hcl.DiagWarning: "warning"}[d.Severity]
			got := sev + " " + strconv.Itoa(d.Subject.Start.Line) + ":" + strconv.Itoa(d.Subject.Start.Column) + " " + d.Summary + ": " + d.Detail
			head, frag, _ := strings.Cut(tt.want, ": ")
			if !strings.HasPrefix(got, head+": ") || !strings.Contains(d.Detail, frag) {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}

	t.Run("missing file", func(t *testing.T) {
		_, diags := LoadSchemas(filepath.Join(t.TempDir(), "nope.json"))
		if !diags.HasErrors() || !strings.Contains(diags[0].Detail, "nope.json") {
			t.Errorf("diagnostics %v do not name the missing file", diags)
		}
	})

	t.Run("two providers describe a type", func(t *testing.T) {
		other := writeFile(t, "other.json", `{"format_version": "1.1", "provider_schemas": {"example.com/fork/aws": {"resource_schemas": {
"aws_instance": {"block": {"attributes": {"x": {"type": "string", "optional": true}}}},
"aws_new": {"block": {"attributes": {"x": {"type": "string", "optional": true}}}}}}}}`)
		s, diags := LoadSchemas("testdata/aws.json", other)
		if len(diags) != 1 || diags[0].Severity != hcl.DiagWarning || !strings.Contains(diags[0].Detail, "example.com/fork/aws") {
			t.Fatalf("diagnostics %v, want one warning naming the second provider", diags)
		}
		if s.ProviderAddr(config.ManagedMode, "aws_instance") != "registry.opentofu.org/hashicorp/aws" {
			t.Error("the first description of aws_instance was not kept")
		}
		if s.ProviderAddr(config.ManagedMode, "aws_new") != "example.com/fork/aws" {
			t.Error("the second file's own type was not loaded")
		}
	})
}

// decode decodes HCL source with a block's decoder spec, with the given
// variables.
func decode(t *testing.T, b *Block, src string, vars map[string]cty.Value) (cty.Value, hcl.Diagnostics) {
	t.Helper()
	f, diags := hclsyntax.ParseConfig([]byte(src), "main.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	return hcldec.Decode(f.Body, b.DecoderSpec(), &hcl.EvalContext{Variables: vars})
}

func TestDecoderSpec(t *testing.T) {
	s := loadFixture(t)
	inst := s.Block(config.ManagedMode, "aws_instance")
	rule := s.Block(config.ManagedMode, "aws_lb_listener_rule")
	tests := []struct {
		name  string
		block *Block
		src   string
		// diag is "LINE:COLUMN SUMMARY", "" for none.
		diag string
	}{
		{"valid", inst, `
instance_type = "t3.micro"
tags = { Name = "web" }
ebs_block_device {
  device_name = "/dev/sdb"
}
timeouts { create = "5m" }
`, ""},
		{"unsupported argument", inst, `
instance_type = "t3.micro"
colour = "blue"
`, "3:1 Unsupported argument"},
		{"unsupported block", inst, `
instance_type = "t3.micro"
network {}
`, "3:1 Unsupported block type"},
		{"missing required argument", inst, `ami = "ami-1"`, "1:1 Missing required argument"},
		{"wrong type", inst, `
instance_type = "t3.micro"
tags = ["a"]
`, "3:8 Incorrect attribute value type"},
		{"computed only", inst, `
instance_type = "t3.micro"
arn = "arn:x"
`, "3:7 Value for unconfigurable attribute"},
		{"too many blocks", inst, `
instance_type = "t3.micro"
root_block_device {}
root_block_device {}
`, "4:19 Too many root_block_device blocks"},
		{"nested required", inst, `
instance_type = "t3.micro"
ebs_block_device {}
`, "3:18 Missing required argument"},
		{"nested attribute missing required", rule, `
action = [{ order = 1 }]
`, "2:10 Incorrect attribute value type"},
		{"nested attribute valid", rule, `
action = [{ type = "forward" }]
condition "host" { value = "a.example.com" }
`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, diags := decode(t, tt.block, tt.src, nil)
			got := ""
			if len(diags) > 0 {
				got = strconv.Itoa(diags[0].Subject.Start.Line) + ":" + strconv.Itoa(diags[0].Subject.Start.Column) + " " + diags[0].Summary
			}
			if got != tt.diag {
				t.Errorf("diagnostics %v\nwant %q", diags, tt.diag)
			}
			if tt.diag == "" && !v.Type().Equals(tt.block.ImpliedType()) {
				t.Errorf("decoded type %#v\nwant %#v", v.Type(), tt.block.ImpliedType())
			}
		})
	}

	// An absent group block is its empty value, a single block is null.
	v, diags := decode(t, rule, `action = [{ type = "forward" }]`, nil)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if got := v.GetAttr("settings"); got.IsNull() || !got.GetAttr("mode").IsNull() {
		t.Errorf("settings = %#v, want an object with mode null", got)
	}
	if got := v.GetAttr("action").Index(cty.NumberIntVal(0)).GetAttr("target_arn"); !got.IsNull() {
		t.Errorf("action[0].target_arn = %#v, want null", got)
	}
	v, _ = decode(t, inst, `instance_type = "t3.micro"`, nil)
	if !v.GetAttr("timeouts").IsNull() || v.GetAttr("ebs_block_device").LengthInt() != 0 {
		t.Errorf("absent blocks: timeouts %#v, ebs_block_device %#v", v.GetAttr("timeouts"), v.GetAttr("ebs_block_device"))
	}
	var nilBlock *Block
	if !nilBlock.ImpliedType().Equals(cty.EmptyObject) {
		t.Error("a nil block does not imply an empty object")
	}
}

func TestDecoderSpecInferred(t *testing.T) {
	m := writeModule(t, map[string]string{"main.tf": `
variable "rules" { default = [] }
resource "x_fw" "f" {
  name = "f"
  rule {
    port = 80
  }
  dynamic "rule" {
    for_each = var.rules
    content { port = rule.value }
  }
}
`})
	s := &Schemas{}
	s.Infer(m)
	b := s.Block(config.ManagedMode, "x_fw")
	v, diags := decode(t, b, `
name = 1
rule { port = [1, 2] }
rule { port = "x" }
`, nil)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	rules := v.GetAttr("rule")
	if !rules.Type().IsTupleType() || rules.LengthInt() != 2 {
		t.Fatalf("rule = %#v, want a tuple of two blocks", rules)
	}
	if got := rules.Index(cty.NumberIntVal(0)).GetAttr("port"); !got.Type().IsTupleType() {
		t.Errorf("dynamic argument kept %#v, want the tuple as written", got)
	}
	if _, diags := decode(t, b, `other = 1`, nil); !diags.HasErrors() || diags[0].Summary != "Unsupported argument" {
		t.Errorf("inferred schema accepted an argument never seen: %v", diags)
	}
	if _, diags := decode(t, b, `id = "x"`, nil); !diags.HasErrors() || diags[0].Summary != "Value for unconfigurable attribute" {
		t.Errorf("setting the computed id: %v", diags)
	}
}
