package mock

import (
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/config"
)

// instanceConfig decodes an aws_instance body with the fixture schema.
func instanceConfig(t *testing.T, b *Block, src string, vars map[string]cty.Value) cty.Value {
	t.Helper()
	v, diags := decode(t, b, src, vars)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	return v
}

func mustNoErrors(t *testing.T, what string, diags hcl.Diagnostics) {
	t.Helper()
	if diags.HasErrors() {
		t.Fatalf("%s: %s", what, diags.Error())
	}
}

func TestPlanApplyNestedBlocks(t *testing.T) {
	s := loadFixture(t)
	b := s.Block(config.ManagedMode, "aws_instance")
	p := New(s, nil)
	cfg := instanceConfig(t, b, `
instance_type = "t3.micro"
ami           = "ami-1"
tags          = { Name = var.name }
ebs_block_device {
  device_name = "/dev/sdb"
}
ebs_block_device {
  device_name = "/dev/sdc"
  volume_size = 20
}
root_block_device {
  encrypted = true
}
`, map[string]cty.Value{"var": cty.ObjectVal(map[string]cty.Value{"name": cty.UnknownVal(cty.String)})})
	req := Request{Addr: "aws_instance.web", Mode: config.ManagedMode, Type: "aws_instance", Provider: "aws", Config: cfg}

	planned, diags := p.Plan(req)
	mustNoErrors(t, "plan", diags)
	if !planned.Type().Equals(b.ImpliedType()) {
		t.Fatalf("planned type %#v, want %#v", planned.Type(), b.ImpliedType())
	}
	checks := []struct {
		path cty.Path
		want cty.Value
	}{
		{cty.GetAttrPath("instance_type"), cty.StringVal("t3.micro")},
		{cty.GetAttrPath("ami"), cty.StringVal("ami-1")},
		{cty.GetAttrPath("arn"), cty.UnknownVal(cty.String)},
		{cty.GetAttrPath("id"), cty.UnknownVal(cty.String)},
		{cty.GetAttrPath("private_ip"), cty.UnknownVal(cty.String)},
		{cty.GetAttrPath("security_groups"), cty.UnknownVal(cty.Set(cty.String))},
		{cty.GetAttrPath("tags"), cty.MapVal(map[string]cty.Value{"Name": cty.UnknownVal(cty.String)})},
		{cty.GetAttrPath("tags_all"), cty.UnknownVal(cty.Map(cty.String))},
		{cty.GetAttrPath("timeouts"), cty.NullVal(cty.Object(map[string]cty.Type{"create": cty.String}))},
		{cty.GetAttrPath("root_block_device").IndexInt(0).GetAttr("encrypted"), cty.True},
		{cty.GetAttrPath("root_block_device").IndexInt(0).GetAttr("volume_id"), cty.UnknownVal(cty.String)},
	}
	for _, c := range checks {
		got, err := c.path.Apply(planned)
		if err != nil || !got.RawEquals(c.want) {
			t.Errorf("planned%s = %#v (%v), want %#v", PathString(c.path), got, err, c.want)
		}
	}
	ebs := planned.GetAttr("ebs_block_device")
	if ebs.LengthInt() != 2 {
		t.Fatalf("planned ebs_block_device = %#v", ebs)
	}
	for it := ebs.ElementIterator(); it.Next(); {
		_, e := it.Element()
		if e.GetAttr("volume_id").IsKnown() {
			t.Errorf("planned volume_id %#v is known", e.GetAttr("volume_id"))
		}
		if e.GetAttr("device_name").AsString() == "/dev/sdc" && !e.GetAttr("volume_size").RawEquals(cty.NumberIntVal(20)) {
			t.Errorf("configured volume_size changed: %#v", e)
		}
	}

	// At apply the caller has evaluated the configuration.
	applyCfg := instanceConfig(t, b, `
instance_type = "t3.micro"
ami           = "ami-1"
tags          = { Name = var.name }
ebs_block_device {
  device_name = "/dev/sdb"
}
ebs_block_device {
  device_name = "/dev/sdc"
  volume_size = 20
}
root_block_device {
  encrypted = true
}
`, map[string]cty.Value{"var": cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal("web")})})
	req.Config = applyCfg
	applied, diags := p.Apply(req, planned)
	mustNoErrors(t, "apply", diags)
	if !applied.IsWhollyKnown() {
		t.Fatalf("applied value has unknowns: %#v", applied)
	}
	if got := applied.GetAttr("tags").Index(cty.StringVal("Name")); !got.RawEquals(cty.StringVal("web")) {
		t.Errorf("tags.Name = %#v, want the apply-time configuration", got)
	}
	if got, want := applied.GetAttr("arn"), Value("aws_instance.web", cty.GetAttrPath("arn"), cty.String); !got.RawEquals(want) {
		t.Errorf("arn = %#v, want the generated %#v", got, want)
	}
	if got := applied.GetAttr("root_block_device").Index(cty.NumberIntVal(0)).GetAttr("volume_id"); !got.RawEquals(Value("aws_instance.web", cty.GetAttrPath("root_block_device").IndexInt(0).GetAttr("volume_id"), cty.String)) {
		t.Errorf("root_block_device[0].volume_id = %#v", got)
	}
	if got := applied.GetAttr("security_groups"); got.LengthInt() != 1 {
		t.Errorf("security_groups = %#v, want one generated element", got)
	}
	for it := applied.GetAttr("ebs_block_device").ElementIterator(); it.Next(); {
		_, e := it.Element()
		if !strings.HasPrefix(e.GetAttr("volume_id").AsString(), "volume_id-") {
			t.Errorf("ebs volume_id = %#v", e.GetAttr("volume_id"))
		}
	}
	if !applied.GetAttr("ami").RawEquals(cty.StringVal("ami-1")) || !applied.GetAttr("timeouts").IsNull() {
		t.Errorf("configured values changed: ami %#v, timeouts %#v", applied.GetAttr("ami"), applied.GetAttr("timeouts"))
	}

	// Apply is a function of its inputs: again, the same value.
	again, _ := p.Apply(req, planned)
	if !again.RawEquals(applied) {
		t.Error("a second apply gave another value")
	}

	// Without the apply-time configuration, the unknown configuration
	// value is generated too.
	req.Config = cty.NilVal
	applied, diags = p.Apply(req, planned)
	mustNoErrors(t, "apply without configuration", diags)
	if !applied.IsWhollyKnown() || !strings.HasPrefix(applied.GetAttr("tags").Index(cty.StringVal("Name")).AsString(), "tags-") {
		t.Errorf("applied tags = %#v", applied.GetAttr("tags"))
	}
}

func TestPlanNestedAttributesAndMapBlocks(t *testing.T) {
	s := loadFixture(t)
	b := s.Block(config.ManagedMode, "aws_lb_listener_rule")
	p := New(s, nil)
	cfg := instanceConfig(t, b, `
action = [{ type = "forward" }, { type = "redirect", order = 2 }]
condition "host" { value = "a.example.com" }
settings { mode = "strict" }
`, nil)
	req := Request{Addr: "module.lb.aws_lb_listener_rule.r[\"x\"]", Mode: config.ManagedMode, Type: "aws_lb_listener_rule", Provider: "aws", Config: cfg}
	planned, diags := p.Plan(req)
	mustNoErrors(t, "plan", diags)
	action := planned.GetAttr("action")
	if action.LengthInt() != 2 {
		t.Fatalf("action = %#v", action)
	}
	first := action.Index(cty.NumberIntVal(0))
	if first.GetAttr("target_arn").IsKnown() || first.GetAttr("order").IsKnown() {
		t.Errorf("computed nested attributes are known at plan: %#v", first)
	}
	if second := action.Index(cty.NumberIntVal(1)); !second.GetAttr("order").RawEquals(cty.NumberIntVal(2)) {
		t.Errorf("configured nested attribute changed: %#v", second)
	}
	if h := planned.GetAttr("condition").Index(cty.StringVal("host")).GetAttr("hash"); h.IsKnown() {
		t.Errorf("condition[\"host\"].hash = %#v, want unknown", h)
	}
	applied, diags := p.Apply(req, planned)
	mustNoErrors(t, "apply", diags)
	if !applied.IsWhollyKnown() {
		t.Fatalf("applied value has unknowns: %#v", applied)
	}
	wantHash := Value(req.Addr, cty.GetAttrPath("condition").IndexString("host").GetAttr("hash"), cty.String)
	if got := applied.GetAttr("condition").Index(cty.StringVal("host")).GetAttr("hash"); !got.RawEquals(wantHash) {
		t.Errorf("hash = %#v, want %#v", got, wantHash)
	}
	wantArn := Value(req.Addr, cty.GetAttrPath("action").IndexInt(1).GetAttr("target_arn"), cty.String)
	if got := applied.GetAttr("action").Index(cty.NumberIntVal(1)).GetAttr("target_arn"); !got.RawEquals(wantArn) {
		t.Errorf("action[1].target_arn = %#v, want %#v", got, wantArn)
	}
	if got := applied.GetAttr("settings").GetAttr("mode"); !got.RawEquals(cty.StringVal("strict")) {
		t.Errorf("settings.mode = %#v", got)
	}
}

func TestOverrides(t *testing.T) {
	s := loadFixture(t)
	b := s.Block(config.ManagedMode, "aws_instance")
	m := loadMocks(t, "testdata/mocks.tftest.hcl")
	p := New(s, m)
	cfg := instanceConfig(t, b, `
instance_type = "t3.micro"
root_block_device {}
`, nil)
	req := func(addr, provider string) Request {
		return Request{Addr: addr, Mode: config.ManagedMode, Type: "aws_instance", Provider: provider, Config: cfg}
	}

	// override_during = apply (the default): unknown at plan, mock values
	// at apply: the override for the address, then the type's defaults.
	r := req("aws_instance.web", "aws")
	planned, diags := p.Plan(r)
	mustNoErrors(t, "plan", diags)
	if planned.GetAttr("arn").IsKnown() {
		t.Errorf("arn is known at plan: %#v", planned.GetAttr("arn"))
	}
	applied, diags := p.Apply(r, planned)
	mustNoErrors(t, "apply", diags)
	want := map[string]string{
		"arn":        "arn:aws:ec2:us-east-1:111111111111:instance/i-web",
		"private_ip": "10.1.2.3",
	}
	for name, w := range want {
		if got := applied.GetAttr(name); !got.RawEquals(cty.StringVal(w)) {
			t.Errorf("%s = %#v, want %q", name, got, w)
		}
	}
	if got := applied.GetAttr("root_block_device").Index(cty.NumberIntVal(0)).GetAttr("volume_id"); !got.RawEquals(cty.StringVal("vol-default")) {
		t.Errorf("root_block_device[0].volume_id = %#v, want the block defaults", got)
	}
	if got := applied.GetAttr("id"); !strings.HasPrefix(got.AsString(), "id-") {
		t.Errorf("id = %#v, want a generated value", got)
	}

	// override_during = plan: the values are there at plan already, and
	// apply keeps them.
	r = req("module.app[\"blue\"].aws_instance.web", "aws.west")
	planned, diags = p.Plan(r)
	mustNoErrors(t, "plan", diags)
	if got := planned.GetAttr("arn"); !got.RawEquals(cty.StringVal("arn:blue")) {
		t.Errorf("planned arn = %#v, want the plan-time override", got)
	}
	if !planned.IsWhollyKnown() {
		t.Errorf("plan-time mocks left unknowns: %#v", planned)
	}
	applied, _ = p.Apply(r, planned)
	if !applied.RawEquals(planned) {
		t.Errorf("apply changed a plan-time mocked value:\n%#v\n%#v", applied, planned)
	}

	// A mock provider's override_during = plan applies to its defaults.
	r = req("aws_instance.db", "aws.west")
	planned, _ = p.Plan(r)
	if got := planned.GetAttr("arn"); !got.RawEquals(cty.StringVal("arn:west")) {
		t.Errorf("planned arn = %#v, want the west defaults", got)
	}

	// Mock values never replace configuration.
	cfgWithIP := instanceConfig(t, b, `
instance_type = "t3.micro"
private_ip    = "192.168.0.1"
`, nil)
	r = Request{Addr: "aws_instance.cfg", Mode: config.ManagedMode, Type: "aws_instance", Provider: "aws", Config: cfgWithIP}
	planned, diags = p.Plan(r)
	applied, adiags := p.Apply(r, planned)
	diags = append(diags, adiags...)
	if got := applied.GetAttr("private_ip"); !got.RawEquals(cty.StringVal("192.168.0.1")) {
		t.Errorf("private_ip = %#v, want the configured value", got)
	}
	var warned bool
	for _, d := range diags {
		if d.Severity == hcl.DiagWarning && strings.Contains(d.Summary, "private_ip") && d.Subject != nil && d.Subject.Start.Line == 5 {
			warned = true
		}
	}
	if !warned {
		t.Errorf("no warning at the defaults for the ignored configured value: %v", diags)
	}
}

func TestMockWarnings(t *testing.T) {
	s := loadFixture(t)
	b := s.Block(config.ManagedMode, "aws_instance")
	path := writeFile(t, "m.tftest.hcl", `
mock_provider "aws" {
  mock_resource "aws_instance" {
    defaults = {
      nonsense      = 1
      instance_type = "t3.large"
      arn           = ["not", "a", "string"]
      ebs_block_device = "not an object"
    }
  }
}
`)
	m := loadMocks(t, path)
	p := New(s, m)
	cfg := instanceConfig(t, b, `
instance_type = "t3.micro"
ebs_block_device { device_name = "/dev/sdb" }
`, nil)
	r := Request{Addr: "aws_instance.a", Mode: config.ManagedMode, Type: "aws_instance", Provider: "aws", Config: cfg}
	planned, diags := p.Plan(r)
	applied, adiags := p.Apply(r, planned)
	diags = append(diags, adiags...)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	var got []string
	for _, d := range diags {
		got = append(got, d.Summary)
	}
	for _, field := range []string{"nonsense", "instance_type", "arn", "ebs_block_device"} {
		found := false
		for _, g := range got {
			if strings.Contains(g, `"`+field+`"`) {
				found = true
			}
		}
		if !found {
			t.Errorf("no warning for %s; got %v", field, got)
		}
	}
	if !strings.HasPrefix(applied.GetAttr("arn").AsString(), "arn:aws:mock:") {
		t.Errorf("arn = %#v, want the generated value after an unusable default", applied.GetAttr("arn"))
	}
	// Warnings are given once per provider.
	_, diags = p.Apply(Request{Addr: "aws_instance.b", Mode: config.ManagedMode, Type: "aws_instance", Provider: "aws", Config: cfg}, planned)
	if len(diags) != 0 {
		t.Errorf("the warnings were repeated: %v", diags)
	}
}

func TestRead(t *testing.T) {
	s := loadFixture(t)
	b := s.Block(config.DataMode, "aws_ami")
	m := loadMocks(t, "testdata/mocks.tftest.hcl")
	p := New(s, m)
	cfg := instanceConfig(t, b, `
most_recent = true
filter {
  name   = "name"
  values = ["ubuntu-*"]
}
`, nil)
	r := Request{Addr: "data.aws_ami.ubuntu[1]", Mode: config.DataMode, Type: "aws_ami", Provider: "aws", Config: cfg}
	v, diags := p.Read(r)
	mustNoErrors(t, "read", diags)
	if !v.IsWhollyKnown() {
		t.Fatalf("read value has unknowns: %#v", v)
	}
	if got := v.GetAttr("image_id"); !got.RawEquals(cty.StringVal("ami-second")) {
		t.Errorf("image_id = %#v, want the override", got)
	}
	if got := v.GetAttr("block_device_mappings"); got.LengthInt() != 1 || !got.Type().IsSetType() {
		t.Errorf("block_device_mappings = %#v, want one generated element", got)
	}
	r.Addr = "data.aws_ami.ubuntu[0]"
	v, _ = p.Read(r)
	if got := v.GetAttr("image_id"); !got.RawEquals(cty.StringVal("ami-default")) {
		t.Errorf("image_id = %#v, want the mock_data defaults", got)
	}
	r.Provider = "aws.other"
	v, _ = p.Read(r)
	if got := v.GetAttr("image_id"); !strings.HasPrefix(got.AsString(), "image_id-") {
		t.Errorf("image_id = %#v, want a generated value", got)
	}

	// A configuration not wholly known: the read waits for apply.
	unknownCfg := instanceConfig(t, b, `most_recent = var.x`, map[string]cty.Value{"var": cty.ObjectVal(map[string]cty.Value{"x": cty.UnknownVal(cty.Bool)})})
	r.Config = unknownCfg
	v, diags = p.Read(r)
	mustNoErrors(t, "read", diags)
	if v.GetAttr("image_id").IsKnown() {
		t.Errorf("image_id = %#v, want unknown", v.GetAttr("image_id"))
	}

	// Ephemeral resources.
	eb := s.Block(config.EphemeralMode, "aws_secretsmanager_secret_version")
	ecfg := instanceConfig(t, eb, `secret_id = "s"`, nil)
	v, diags = p.Read(Request{Addr: "ephemeral.aws_secretsmanager_secret_version.s", Mode: config.EphemeralMode, Type: "aws_secretsmanager_secret_version", Provider: "aws", Config: ecfg})
	mustNoErrors(t, "read ephemeral", diags)
	if !v.IsWhollyKnown() || v.GetAttr("secret_string").IsNull() {
		t.Errorf("ephemeral value = %#v", v)
	}
}

func TestProviderInferred(t *testing.T) {
	m := writeModule(t, map[string]string{"main.tf": `
variable "ports" { default = [80] }
resource "x_fw" "f" {
  name = "f"
  dynamic "rule" {
    for_each = var.ports
    content { port = rule.value }
  }
}
output "rule_ids" { value = x_fw.f.rule[*].rule_id }
output "zone" { value = x_fw.f.tags["zone"] }
output "first" { value = x_fw.f.addresses[1] }
`})
	s := &Schemas{}
	s.Infer(m)
	b := s.Block(config.ManagedMode, "x_fw")
	p := New(s, nil)
	cfg := instanceConfig(t, b, `
name = "f"
rule { port = 80 }
rule { port = 443 }
`, nil)
	r := Request{Addr: "x_fw.f", Mode: config.ManagedMode, Type: "x_fw", Provider: "x", Config: cfg}
	planned, diags := p.Plan(r)
	mustNoErrors(t, "plan", diags)
	rules := planned.GetAttr("rule")
	if !rules.Type().IsTupleType() || rules.LengthInt() != 2 || rules.Index(cty.NumberIntVal(1)).GetAttr("rule_id").IsKnown() {
		t.Errorf("planned rule = %#v", rules)
	}
	applied, diags := p.Apply(r, planned)
	mustNoErrors(t, "apply", diags)
	if got := applied.GetAttr("tags"); !got.Type().IsMapType() || !got.HasIndex(cty.StringVal("zone")).True() {
		t.Errorf("tags = %#v, want a map with the key used", got)
	}
	if got := applied.GetAttr("addresses"); got.LengthInt() != 2 {
		t.Errorf("addresses = %#v, want two elements (index 1 is used)", got)
	}
	if got := applied.GetAttr("rule").Index(cty.NumberIntVal(1)).GetAttr("port"); !got.RawEquals(cty.NumberIntVal(443)) {
		t.Errorf("rule[1].port = %#v", got)
	}
}

func TestProviderErrorsAndMarks(t *testing.T) {
	s := loadFixture(t)
	p := New(s, nil)
	_, diags := p.Plan(Request{Addr: "aws_nothing.x", Mode: config.ManagedMode, Type: "aws_nothing", Provider: "aws", Config: cty.EmptyObjectVal})
	if !diags.HasErrors() || !strings.Contains(diags[0].Detail, `"aws_nothing"`) {
		t.Errorf("unknown type: %v", diags)
	}
	_, diags = p.Plan(Request{Addr: "aws_instance.x", Mode: config.ManagedMode, Type: "aws_instance", Config: cty.ObjectVal(map[string]cty.Value{"tags": cty.StringVal("x")})})
	if !diags.HasErrors() || diags[0].Summary != "Invalid configuration value" {
		t.Errorf("config of the wrong type: %v", diags)
	}

	// A configuration may leave attributes out, at any level.
	partial := cty.ObjectVal(map[string]cty.Value{
		"instance_type":    cty.StringVal("t3.micro"),
		"ebs_block_device": cty.TupleVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"device_name": cty.StringVal("/dev/sdb")})}),
	})
	planned, diags := p.Plan(Request{Addr: "aws_instance.p", Mode: config.ManagedMode, Type: "aws_instance", Config: partial})
	mustNoErrors(t, "plan of a partial configuration", diags)
	if !planned.Type().Equals(s.Block(config.ManagedMode, "aws_instance").ImpliedType()) || !planned.GetAttr("tags").IsNull() {
		t.Errorf("planned from a partial configuration: %#v", planned)
	}

	// Marks on the configuration stay where the values stay.
	b := s.Block(config.ManagedMode, "aws_db_instance")
	cfg := instanceConfig(t, b, `password = var.pw`, map[string]cty.Value{"var": cty.ObjectVal(map[string]cty.Value{"pw": cty.StringVal("hunter2").Mark("sensitive")})})
	r := Request{Addr: "aws_db_instance.d", Mode: config.ManagedMode, Type: "aws_db_instance", Provider: "aws", Config: cfg}
	planned, diags = p.Plan(r)
	mustNoErrors(t, "plan", diags)
	if !planned.GetAttr("password").HasMark("sensitive") {
		t.Errorf("password lost its mark: %#v", planned.GetAttr("password"))
	}
	applied, diags := p.Apply(r, planned)
	mustNoErrors(t, "apply", diags)
	if !applied.GetAttr("password").HasMark("sensitive") || applied.GetAttr("address").IsMarked() {
		t.Errorf("applied marks: password %#v, address %#v", applied.GetAttr("password"), applied.GetAttr("address"))
	}
	if n := applied.GetAttr("port"); !n.Type().Equals(cty.Number) || !n.IsKnown() {
		t.Errorf("port = %#v", n)
	}

	// A wholly unknown configuration plans as unknown; apply still
	// produces a known value; a null planned value (destroy) stays null.
	r.Config = cty.UnknownVal(b.ImpliedType())
	planned, _ = p.Plan(r)
	if planned.IsKnown() {
		t.Errorf("planned = %#v, want unknown", planned)
	}
	applied, _ = p.Apply(r, planned)
	if !applied.IsWhollyKnown() {
		t.Errorf("applied = %#v, want wholly known", applied)
	}
	if v, _ := p.Apply(r, cty.NullVal(b.ImpliedType())); !v.IsNull() {
		t.Errorf("apply of null = %#v", v)
	}
	if New(nil, nil).Schemas() == nil || p.Mocks() != nil {
		t.Error("New(nil, nil) has no schemas, or a provider without mocks has some")
	}
}

// TestConcurrentUse plans and applies from several goroutines at once
// (run with -race): the provider and its schemas are shared.
func TestConcurrentUse(t *testing.T) {
	s := loadFixture(t)
	p := New(s, loadMocks(t, "testdata/mocks.tftest.hcl"))
	cfg := cty.ObjectVal(map[string]cty.Value{"instance_type": cty.StringVal("t3.micro")})
	done := make(chan cty.Value)
	for i := range 8 {
		go func() {
			r := Request{Addr: "aws_instance.web", Mode: config.ManagedMode, Type: "aws_instance", Provider: []string{"aws", "aws.west"}[i%2], Config: cfg}
			planned, _ := p.Plan(r)
			applied, _ := p.Apply(r, planned)
			done <- applied
		}()
	}
	for range 8 {
		if v := <-done; !v.IsWhollyKnown() {
			t.Errorf("applied value has unknowns: %#v", v)
		}
	}
}
