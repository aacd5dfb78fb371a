package mock

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/config"
)

func loadMocks(t *testing.T, paths ...string) *Mocks {
	t.Helper()
	m, diags := LoadMocks(paths...)
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			t.Fatalf("LoadMocks: %s", diags.Error())
		}
	}
	return m
}

// lookupText describes what the mocks give one request: the values of
// its layers and whether they apply at plan.
func lookupText(m *Mocks, r Request) string {
	mt := m.lookup(&r)
	var parts []string
	for _, l := range mt.layers {
		parts = append(parts, fmt.Sprintf("%s@%d", valueText(l.values), l.rng.Start.Line))
	}
	return fmt.Sprintf("%s plan=%v", strings.Join(parts, " "), mt.usePlan)
}

func valueText(v cty.Value) string {
	if !v.Type().IsObjectType() {
		return v.GoString()
	}
	var parts []string
	for _, k := range sortedKeys(v.Type().AttributeTypes()) {
		a := v.GetAttr(k)
		if a.Type() == cty.String {
			parts = append(parts, k+"="+a.AsString())
		} else {
			parts = append(parts, k+"="+valueText(a))
		}
	}
	return "{" + strings.Join(parts, ",") + "}"
}

func TestLoadMocks(t *testing.T) {
	m, diags := LoadMocks("testdata/mocks.tftest.hcl")
	if len(diags) != 1 || diags[0].Severity != hcl.DiagWarning || diags[0].Summary != "Ignored run block" || diags[0].Subject.Start.Line != 66 {
		t.Fatalf("diagnostics %v, want one warning about the run block at line 66", diags)
	}
	managed := func(addr, provider string) Request {
		return Request{Addr: addr, Mode: config.ManagedMode, Type: "aws_instance", Provider: provider}
	}
	data := func(addr string) Request {
		return Request{Addr: addr, Mode: config.DataMode, Type: "aws_ami", Provider: "aws"}
	}
	tests := []struct {
		req  Request
		want string
	}{
		// The provider's override for the address, then its defaults.
		{managed("aws_instance.web", "aws"), "{arn=arn:aws:ec2:us-east-1:111111111111:instance/i-web}@22 {arn=arn:aws:ec2:us-east-1:111111111111:instance/i-default,private_ip=10.1.2.3,root_block_device={volume_id=vol-default}}@5 plan=false"},
		{managed("aws_instance.web[3]", "aws"), "{arn=arn:aws:ec2:us-east-1:111111111111:instance/i-web}@22 {arn=arn:aws:ec2:us-east-1:111111111111:instance/i-default,private_ip=10.1.2.3,root_block_device={volume_id=vol-default}}@5 plan=false"},
		{managed("aws_instance.db", "aws"), "{arn=arn:aws:ec2:us-east-1:111111111111:instance/i-default,private_ip=10.1.2.3,root_block_device={volume_id=vol-default}}@5 plan=false"},
		// An aliased mock provider with override_during = plan.
		{managed("aws_instance.web", "aws.west"), "{arn=arn:west}@33 plan=true"},
		// The provider-level override targets the root module only.
		{managed("module.app[\"red\"].aws_instance.web", "aws.west"), "{arn=arn:any-app}@49 {arn=arn:west}@33 plan=false"},
		// A key beats a wildcard; its own override_during.
		{managed("module.app[\"blue\"].aws_instance.web", "aws.west"), "{arn=arn:blue}@41 {arn=arn:west}@33 plan=true"},
		{managed("module.app[\"blue\"].aws_instance.other", "aws.west"), "{arn=arn:west}@33 plan=true"},
		{managed("module.other.aws_instance.web", "aws"), "{arn=arn:aws:ec2:us-east-1:111111111111:instance/i-default,private_ip=10.1.2.3,root_block_device={volume_id=vol-default}}@5 plan=false"},
		// No mock provider for this configuration.
		{managed("aws_instance.web", "aws.east"), " plan=false"},
		{data("data.aws_ami.ubuntu[1]"), "{image_id=ami-second}@56 {image_id=ami-default}@15 plan=false"},
		{data("data.aws_ami.ubuntu[0]"), "{image_id=ami-default}@15 plan=false"},
		{data("data.aws_ami.ubuntu"), "{image_id=ami-default}@15 plan=false"},
		// An override_data never applies to a managed resource.
		{Request{Addr: "aws_ami.ubuntu[1]", Mode: config.ManagedMode, Type: "aws_ami", Provider: "aws"}, " plan=false"},
		{Request{Addr: "not an address", Mode: config.ManagedMode, Type: "aws_instance", Provider: "aws"}, "{arn=arn:aws:ec2:us-east-1:111111111111:instance/i-default,private_ip=10.1.2.3,root_block_device={volume_id=vol-default}}@5 plan=false"},
	}
	for _, tt := range tests {
		if got := lookupText(m, tt.req); got != tt.want {
			t.Errorf("%s (%s):\n got %s\nwant %s", tt.req.Addr, tt.req.Provider, got, tt.want)
		}
	}

	if v, ok := m.ModuleOverride("module.dns"); !ok || valueText(v) != "{zone_id=Z123}" {
		t.Errorf("ModuleOverride(module.dns) = %#v, %v", v, ok)
	}
	if v, ok := m.ModuleOverride("module.dns[0]"); !ok || valueText(v) != "{zone_id=Z123}" {
		t.Errorf("ModuleOverride(module.dns[0]) = %#v, %v", v, ok)
	}
	for _, addr := range []string{"module.app", "module.dns.module.sub", "aws_instance.web", "!"} {
		if _, ok := m.ModuleOverride(addr); ok {
			t.Errorf("ModuleOverride(%s) matched", addr)
		}
	}
	var none *Mocks
	if _, ok := none.ModuleOverride("module.dns"); ok || lookupText(none, managed("aws_instance.web", "aws")) != " plan=false" {
		t.Error("nil Mocks give values")
	}
}

func TestLoadMocksJSON(t *testing.T) {
	path := writeFile(t, "mocks.tftest.json", `{
  "mock_provider": {"aws": {"mock_data": {"aws_ami": {"defaults": {"image_id": "ami-json"}}}}},
  "override_resource": [{"target": "aws_instance.web[*]", "values": {"arn": "arn:json"}, "override_during": "plan"}]
}`)
	m := loadMocks(t, path)
	if got, want := lookupText(m, Request{Addr: "data.aws_ami.x", Mode: config.DataMode, Type: "aws_ami", Provider: "aws"}), "{image_id=ami-json}@2 plan=false"; got != want {
		t.Errorf("data: got %s, want %s", got, want)
	}
	if got, want := lookupText(m, Request{Addr: "aws_instance.web[1]", Mode: config.ManagedMode, Type: "aws_instance", Provider: "aws"}), "{arn=arn:json}@3 plan=true"; got != want {
		t.Errorf("resource: got %s, want %s", got, want)
	}
}

func TestLoadMocksErrors(t *testing.T) {
	tests := []struct {
		name, src string
		// want is "LINE:COLUMN SUMMARY" of the first error.
		want string
	}{
		{"unknown block", "mock_providers \"aws\" {}\n", "1:1 Unsupported block type"},
		{"top-level argument", "x = 1\n", "1:1 Unsupported argument"},
		{"unknown provider argument", "mock_provider \"aws\" {\n  region = \"x\"\n}\n", "2:3 Unsupported argument"},
		{"unknown nested block", "mock_provider \"aws\" {\n  mock_module \"x\" {}\n}\n", "2:3 Unsupported block type"},
		{"missing label", "mock_provider {\n}\n", "1:15 Missing name for mock_provider"},
		{"bad provider name", "mock_provider \"a b\" {}\n", "1:15 Invalid provider name"},
		{"bad alias", "mock_provider \"aws\" {\n  alias = \"1x\"\n}\n", "2:11 Invalid provider configuration alias"},
		{"for_each without alias", "mock_provider \"aws\" {\n  for_each = {}\n}\n", "2:3 Invalid for_each in mock_provider"},
		{"bad override_during", "mock_provider \"aws\" {\n  override_during = later\n}\n", "2:21 Invalid override_during value"},
		{"duplicate provider", "mock_provider \"aws\" {}\nmock_provider \"aws\" {}\n", "2:1 Duplicate mock_provider block"},
		{"duplicate aliased provider", "mock_provider \"aws\" {\n  alias = \"w\"\n}\nmock_provider \"aws\" {\n  alias = \"w\"\n}\n", "4:1 Duplicate mock_provider block"},
		{"duplicate mock_resource", "mock_provider \"aws\" {\n  mock_resource \"aws_s3_bucket\" {}\n  mock_resource \"aws_s3_bucket\" {}\n}\n", "3:17 Duplicate mock_resource block"},
		{"defaults not an object", "mock_provider \"aws\" {\n  mock_data \"aws_ami\" {\n    defaults = [1]\n  }\n}\n", "3:16 Invalid defaults attribute"},
		{"defaults with a reference", "mock_provider \"aws\" {\n  mock_data \"aws_ami\" {\n    defaults = { id = var.x }\n  }\n}\n", "3:23 Variables not allowed"},
		{"unknown mock_resource argument", "mock_provider \"aws\" {\n  mock_resource \"x_y\" {\n    values = {}\n  }\n}\n", "3:5 Unsupported argument"},
		{"override without target", "override_resource {\n  values = {}\n}\n", "1:1 Missing target attribute"},
		{"target not an address", "override_resource {\n  target = var.x\n}\n", "2:12 Invalid override target"},
		{"target an expression", "override_resource {\n  target = \"aws_instance.x\"\n}\n", "2:12 Invalid override target"},
		{"target with attribute", "override_resource {\n  target = aws_instance.x.id\n}\n", "2:12 Invalid override target"},
		{"resource override on data", "override_resource {\n  target = data.aws_ami.x\n}\n", "2:12 Invalid override target"},
		{"data override on resource", "override_data {\n  target = aws_ami.x\n}\n", "2:12 Invalid override target"},
		{"module override on resource", "override_module {\n  target = aws_ami.x\n}\n", "2:12 Invalid override target"},
		{"resource override on module", "override_resource {\n  target = module.x\n}\n", "2:12 Invalid override target"},
		{"bad key", "override_resource {\n  target = aws_instance.x[1.5]\n}\n", "2:12 Invalid override target"},
		{"values not an object", "override_resource {\n  target = aws_instance.x\n  values = \"x\"\n}\n", "3:12 Invalid values attribute"},
		{"outputs in override_resource", "override_resource {\n  target = aws_instance.x\n  outputs = {}\n}\n", "3:3 Unsupported argument"},
		{"duplicate override", "override_data {\n  target = data.a_b.c\n}\noverride_data {\n  target = data.a_b.c\n}\n", "4:1 Duplicate override_data block"},
		{"syntax error", "mock_provider \"aws\" {\n", "1:21 Unclosed configuration block"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeFile(t, "mocks.tftest.hcl", tt.src)
			_, diags := LoadMocks(path)
			var first *hcl.Diagnostic
			for _, d := range diags {
				if d.Severity == hcl.DiagError {
					first = d
					break
				}
			}
			if first == nil {
				t.Fatalf("no error; diagnostics %v", diags)
			}
			if first.Subject == nil || first.Subject.Filename != path {
				t.Fatalf("error %v has no range in the file", first)
			}
			if got := fmt.Sprintf("%d:%d %s", first.Subject.Start.Line, first.Subject.Start.Column, first.Summary); got != tt.want {
				t.Errorf("got %s (%s)\nwant %s", got, first.Detail, tt.want)
			}
		})
	}
	t.Run("missing file", func(t *testing.T) {
		if _, diags := LoadMocks("testdata/nope.tftest.hcl"); !diags.HasErrors() || !strings.Contains(diags[0].Detail, "nope.tftest.hcl") {
			t.Errorf("diagnostics %v", diags)
		}
	})
	t.Run("duplicates across files", func(t *testing.T) {
		a := writeFile(t, "a.tftest.hcl", "mock_provider \"aws\" {}\n")
		b := writeFile(t, "b.tftest.hcl", "mock_provider \"aws\" {}\n")
		if _, diags := LoadMocks(a, b); !diags.HasErrors() || diags[0].Subject.Filename != b {
			t.Errorf("diagnostics %v, want a duplicate in the second file", diags)
		}
	})
}

// FuzzLoadMocks feeds arbitrary text to the mocks parser and looks it up:
// neither may panic.
func FuzzLoadMocks(f *testing.F) {
	for _, seed := range []string{
		"mock_provider \"aws\" {\n  mock_resource \"aws_s3_bucket\" {\n    defaults = { arn = \"x\" }\n  }\n}\n",
		"override_resource {\n  target = module.a[0].aws_instance.b[*]\n  values = { id = 1 }\n  override_during = plan\n}\n",
		"override_module {\n  target = module.a\n  outputs = {}\n}\n",
		"override_data {\n  target = data.x.y[\"k\"]\n}\nrun \"x\" {}\n",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(_ *testing.T, src string) {
		m := &Mocks{}
		_ = m.parse(hclparse.NewParser(), "fuzz.tftest.hcl", []byte(src))
		for _, r := range []Request{
			{Addr: "aws_instance.b", Mode: config.ManagedMode, Type: "aws_instance", Provider: "aws"},
			{Addr: "module.a[0].aws_instance.b[2]", Mode: config.ManagedMode, Type: "aws_instance", Provider: "aws"},
			{Addr: "data.x.y[\"k\"]", Mode: config.DataMode, Type: "x", Provider: "x"},
		} {
			m.lookup(&r)
		}
		m.ModuleOverride("module.a")
	})
}
