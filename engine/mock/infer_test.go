package mock

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/dynblock"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/functions"
	"github.com/tofucue/tofucue/internal/corpus"
	"github.com/tofucue/tofucue/refs"
)

// describe writes a block schema one attribute or block type per line,
// sorted, nested blocks indented: "name: TYPE flags".
func describe(b *Block) string {
	var lines []string
	var walk func(b *Block, indent string)
	walk = func(b *Block, indent string) {
		for _, name := range sortedKeys(b.Attributes) {
			a := b.Attributes[name]
			var flags []string
			for _, f := range []struct {
				on   bool
				name string
			}{{a.Required, "required"}, {a.Optional, "optional"}, {a.Computed, "computed"}, {a.Sensitive, "sensitive"}} {
				if f.on {
					flags = append(flags, f.name)
				}
			}
			ty := "dynamic"
			if a.Type != cty.DynamicPseudoType {
				ty = a.Type.FriendlyNameForConstraint()
			}
			lines = append(lines, fmt.Sprintf("%s%s: %s %s", indent, name, ty, strings.Join(flags, " ")))
		}
		for _, name := range sortedKeys(b.BlockTypes) {
			nb := b.BlockTypes[name]
			lines = append(lines, fmt.Sprintf("%s%s (%s block):", indent, name, nb.Nesting))
			walk(nb.Block, indent+"  ")
		}
	}
	walk(b, "")
	return strings.Join(lines, "\n")
}

// writeFiles writes files (by slash-separated path) into a new directory
// and returns it.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func writeModule(t *testing.T, files map[string]string) *config.Module {
	t.Helper()
	m, diags := config.Load(writeFiles(t, files))
	if diags.HasErrors() {
		t.Fatalf("loading the module: %s", diags.Error())
	}
	return m
}

func TestInfer(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		mode  config.ResourceMode
		typ   string
		want  string
	}{
		{
			name: "arguments are dynamic, referenced ones computed (also when set), id always",
			files: map[string]string{"main.tf": `
resource "aws_vpc" "main" {
  cidr_block = "10.0.0.0/16"
  tags       = { Name = "main" }
}
output "arn" { value = aws_vpc.main.arn }
output "cidr" { value = aws_vpc.main.cidr_block }
`},
			typ: "aws_vpc",
			want: `arn: string computed
cidr_block: dynamic optional computed
id: string computed
tags: dynamic optional`,
		},
		{
			name: "an argument set only from variables of one type is of that type",
			files: map[string]string{"main.tf": `
variable "ipv6" {
  type    = list(string)
  default = null
}
variable "opts" {
  type = object({ a = optional(string) })
  default = {}
}
variable "loose" { default = null }
variable "name" { type = string }
resource "aws_instance" "a" {
  ipv6_addresses = var.ipv6
  options        = var.opts
  loose          = var.loose
  name           = var.name
  tags           = var.name
}
resource "aws_instance" "b" {
  ipv6_addresses = var.ipv6
  tags           = "b"
}
output "ipv6" { value = aws_instance.a.ipv6_addresses }
`},
			typ: "aws_instance",
			want: `id: string computed
ipv6_addresses: list of string optional computed
loose: dynamic optional
name: string optional
options: object optional
tags: dynamic optional`,
		},
		{
			name: "nested blocks, dynamic blocks and references through them",
			files: map[string]string{"main.tf": `
variable "disks" { default = [] }
resource "aws_instance" "web" {
  count = 2
  ami   = "ami-1"
  ebs_block_device {
    device_name = "/dev/sda"
    tags { env = "x" }
  }
  dynamic "network_interface" {
    for_each = var.disks
    content {
      device_index = network_interface.key
      dynamic "sub" {
        for_each = []
        iterator = s
        content { name = s.value }
      }
    }
  }
  provisioner "local-exec" { command = "echo ${self.private_ip}" }
  lifecycle {
    postcondition {
      condition     = self.ready
      error_message = "x"
    }
  }
}
output "vol" { value = aws_instance.web[0].ebs_block_device[0].volume_id }
output "ids" { value = aws_instance.web[*].id }
output "ips" { value = [for i in aws_instance.web : i.public_ip] }
`},
			typ: "aws_instance",
			want: `ami: dynamic optional
id: string computed
private_ip: string computed
public_ip: string computed
ready: bool computed
ebs_block_device (list block):
  device_name: dynamic optional
  volume_id: string computed
  tags (list block):
    env: dynamic optional
network_interface (list block):
  device_index: dynamic optional
  sub (list block):
    name: dynamic optional`,
		},
		{
			name: "references through one, element, try and sensitive",
			files: map[string]string{"main.tf": `
data "modtm_module_source" "t" {
  count       = 1
  module_path = "."
}
locals {
  source  = one(data.modtm_module_source.t).module_source
  version = element(data.modtm_module_source.t, 0).module_version
  commit  = try(data.modtm_module_source.t[0], null).commit
  secret  = sensitive(data.modtm_module_source.t[0]).token
  n       = one(data.modtm_module_source.t).count + 1
}
`},
			mode: config.DataMode,
			typ:  "modtm_module_source",
			want: `commit: string computed
count: number computed
id: string computed
module_path: dynamic optional
module_source: string computed
module_version: string computed
token: string computed`,
		},
		{
			name: "types follow from use",
			files: map[string]string{"main.tf": `
resource "aws_eks_cluster" "c" { name = "c" }
locals {
  ca       = aws_eks_cluster.c.certificate_authority[0].data
  endpoint = aws_eks_cluster.c.endpoint
  issuer   = aws_eks_cluster.c.identity[0].oidc[0].issuer
  zone     = aws_eks_cluster.c.tags_all["zone"]
  subnets  = aws_eks_cluster.c.vpc_config[*].subnet_ids
  names    = join(",", aws_eks_cluster.c.names)
  size     = aws_eks_cluster.c.size + 1
  ok       = aws_eks_cluster.c.enabled ? 1 : 2
  labels   = merge(aws_eks_cluster.c.labels, {})
  cidr     = cidrsubnet(aws_eks_cluster.c.range, 8, 1)
  pairs    = { for k, v in aws_eks_cluster.c.pairs : k => v.value }
  third    = aws_eks_cluster.c.list[2]
}
`},
			typ: "aws_eks_cluster",
			want: `certificate_authority: list of object computed
enabled: bool computed
endpoint: string computed
id: string computed
identity: list of object computed
labels: map of string computed
list: list of string computed
name: dynamic optional
names: list of string computed
pairs: list of object computed
range: string computed
size: number computed
tags_all: map of string computed
vpc_config: list of object computed`,
		},
		{
			name: "set in one module, referenced in another; data source",
			files: map[string]string{
				"main.tf": `
data "aws_ami" "u" {
  most_recent = true
  filter {
    name   = "name"
    values = ["ubuntu"]
  }
}
output "img" { value = data.aws_ami.u.image_id }
output "owner" { value = data.aws_ami.u.most_recent }
`,
			},
			mode: config.DataMode,
			typ:  "aws_ami",
			want: `id: string computed
image_id: string computed
most_recent: dynamic optional computed
filter (list block):
  name: dynamic optional
  values: dynamic optional`,
		},
		{
			name: "id set in configuration",
			files: map[string]string{"main.tf": `
data "aws_vpc" "v" { id = "vpc-1" }
`},
			mode: config.DataMode,
			typ:  "aws_vpc",
			want: `id: dynamic optional computed`,
		},
		{
			name: "ephemeral resources have no implicit id",
			files: map[string]string{"main.tf": `
ephemeral "random_password" "p" { length = 16 }
output "r" {
  value     = ephemeral.random_password.p.result
  ephemeral = true
}
`},
			mode: config.EphemeralMode,
			typ:  "random_password",
			want: `length: dynamic optional
result: string computed`,
		},
		{
			name: "labeled blocks are map blocks; override files add arguments",
			files: map[string]string{
				"main.tf": `
resource "k8s_thing" "t" {
  rule "a" { x = 1 }
}
`,
				"override.tf": `
resource "k8s_thing" "t" { extra = true }
`,
			},
			typ: "k8s_thing",
			want: `extra: dynamic optional
id: string computed
rule (map block):
  x: dynamic optional`,
		},
		{
			name: "JSON configuration",
			files: map[string]string{
				"main.tf.json": `{
  "resource": {"aws_sqs_queue": {"q": {"name": "q", "redrive": {"max": 3}}}},
  "output": {"url": {"value": "${aws_sqs_queue.q.url}"}}
}`,
			},
			typ: "aws_sqs_queue",
			want: `id: string computed
name: dynamic optional
redrive: dynamic optional
url: string computed`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := writeModule(t, tt.files)
			s := &Schemas{}
			s.Infer(m)
			b := s.Block(tt.mode, tt.typ)
			if b == nil {
				t.Fatalf("no schema for %s; have %v", tt.typ, s.Types(tt.mode))
			}
			if !s.Inferred(tt.mode, tt.typ) || s.ProviderAddr(tt.mode, tt.typ) != "" {
				t.Errorf("Inferred = %v, ProviderAddr = %q; want true, \"\"", s.Inferred(tt.mode, tt.typ), s.ProviderAddr(tt.mode, tt.typ))
			}
			if got := describe(b); got != tt.want {
				t.Errorf("schema:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

func TestInferTypes(t *testing.T) {
	m := writeModule(t, map[string]string{"main.tf": `
resource "aws_eks_cluster" "c" { name = "c" }
locals {
  ca      = aws_eks_cluster.c.certificate_authority[0].data
  issuer  = aws_eks_cluster.c.identity[0].oidc[0].issuer
  subnets = aws_eks_cluster.c.vpc_config[*].subnet_ids
  pairs   = { for k, v in aws_eks_cluster.c.pairs : k => v.value }
  zone    = aws_eks_cluster.c.tags_all["zone"]
  mixed   = [aws_eks_cluster.c.obj.a, aws_eks_cluster.c.obj["b"]]
  third   = aws_eks_cluster.c.list[2]
  azs     = slice(aws_eks_cluster.c.zones, 0, 4)
}
`})
	s := &Schemas{}
	s.Infer(m)
	b := s.Block(config.ManagedMode, "aws_eks_cluster")
	want := map[string]cty.Type{
		"certificate_authority": cty.List(cty.Object(map[string]cty.Type{"data": cty.String})),
		"identity":              cty.List(cty.Object(map[string]cty.Type{"oidc": cty.List(cty.Object(map[string]cty.Type{"issuer": cty.String}))})),
		"vpc_config":            cty.List(cty.Object(map[string]cty.Type{"subnet_ids": cty.String})),
		"pairs":                 cty.List(cty.Object(map[string]cty.Type{"value": cty.String})),
		"tags_all":              cty.Map(cty.String),
		"obj":                   cty.Object(map[string]cty.Type{"a": cty.String, "b": cty.String}),
		"list":                  cty.List(cty.String),
	}
	wantTypes(t, b, want)
	// The generated value fits the uses: third element exists, keys used.
	v := generate("aws_eks_cluster.c", cty.GetAttrPath("list"), b.Attributes["list"].Type, b.Attributes["list"].shape)
	if v.LengthInt() != 3 {
		t.Errorf("list has %d elements, want 3 (index 2 is used)", v.LengthInt())
	}
	zones := generate("aws_eks_cluster.c", cty.GetAttrPath("zones"), b.Attributes["zones"].Type, b.Attributes["zones"].shape)
	if zones.LengthInt() != 4 {
		t.Errorf("zones has %d elements, want 4 (slice(zones, 0, 4) is used)", zones.LengthInt())
	}
	tags := generate("aws_eks_cluster.c", cty.GetAttrPath("tags_all"), b.Attributes["tags_all"].Type, b.Attributes["tags_all"].shape)
	if !tags.Type().IsMapType() || !tags.HasIndex(cty.StringVal("zone")).True() {
		t.Errorf("tags_all = %#v, want a map with the key zone", tags)
	}
}

// TestInferScopes checks that uses through bound names reach the
// collection the names range over, and only the innermost binding of a
// name: a for variable named var, a for variable that shadows another, a
// key (which reaches nothing), dynamic iterators with and without an
// iterator argument.
func TestInferScopes(t *testing.T) {
	m := writeModule(t, map[string]string{"main.tf": `
resource "aws_vpc" "v" { cidr_block = "x" }
locals {
  ids    = [for var in aws_vpc.v.subnets : var.id]
  ports  = [for s in aws_vpc.v.groups : [for s in s.rules : s.port + 1]]
  keys   = [for k, v in aws_vpc.v.pairs : k.name]
}
resource "aws_instance" "i" {
  dynamic "ebs" {
    for_each = aws_vpc.v.disks
    content {
      size = ebs.value.size
      dynamic "tag" {
        for_each = ebs.value.tags
        iterator = t
        content { key = t.value.name }
      }
    }
  }
}
`})
	s := &Schemas{}
	s.Infer(m)
	b := s.Block(config.ManagedMode, "aws_vpc")
	want := map[string]cty.Type{
		"subnets": cty.List(cty.Object(map[string]cty.Type{"id": cty.String})),
		"groups":  cty.List(cty.Object(map[string]cty.Type{"rules": cty.List(cty.Object(map[string]cty.Type{"port": cty.Number}))})),
		// A key reaches no attribute of the elements.
		"pairs": cty.List(cty.String),
		"disks": cty.List(cty.Object(map[string]cty.Type{
			"size": cty.String,
			"tags": cty.List(cty.Object(map[string]cty.Type{"name": cty.String})),
		})),
	}
	wantTypes(t, b, want)
}

// TestInferKeepsLoaded checks that inference does not replace a loaded
// schema, and that it infers only the types no schema file describes.
func TestInferKeepsLoaded(t *testing.T) {
	s, diags := LoadSchemas("testdata/aws.json")
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	m := writeModule(t, map[string]string{"main.tf": `
resource "aws_instance" "a" {
  instance_type = "t3.micro"
  made_up       = 1
}
resource "null_resource" "n" { triggers = { a = aws_instance.a.arn } }
output "x" { value = null_resource.n.id }
`})
	s.Infer(m)
	if s.Inferred(config.ManagedMode, "aws_instance") {
		t.Error("aws_instance was inferred; it has a loaded schema")
	}
	if _, ok := s.Block(config.ManagedMode, "aws_instance").Attributes["made_up"]; ok {
		t.Error("inference changed the loaded aws_instance schema")
	}
	if !s.Inferred(config.ManagedMode, "null_resource") {
		t.Error("null_resource was not inferred")
	}
	if got, want := s.ProviderAddr(config.ManagedMode, "aws_instance"), "registry.opentofu.org/hashicorp/aws"; got != want {
		t.Errorf("ProviderAddr = %q, want %q", got, want)
	}
}

// evalContext evaluates module expressions for tests: every variable is
// unknown, every function is OpenTofu's.
func evalContext(body hcl.Body, spec hcldec.Spec, dir string) *hcl.EvalContext {
	vars := map[string]cty.Value{}
	for _, tr := range dynblock.VariablesHCLDec(body, spec) {
		vars[tr.RootName()] = cty.DynamicVal
	}
	return &hcl.EvalContext{Variables: vars, Functions: functions.Table(functions.Options{BaseDir: dir, PlanTime: true})}
}

// TestInferCorpus infers the schemas of every corpus module, decodes every
// resource body with them (no argument or block may be unsupported), and
// plans and applies every resource with the decoded configuration.
func TestInferCorpus(t *testing.T) {
	dirs := corpus.ModuleDirs(t)
	var modules, types, computed, args, blocks, resources, decodeErrs int
	otherErrs := map[string]int{}
	var refsChecked, refsFailed int
	for _, dir := range dirs {
		if dir.NotModule != "" {
			continue
		}
		m, diags := config.Load(dir.Path)
		if diags.HasErrors() || m == nil {
			t.Errorf("%s: does not load: %s", dir.Rel, diags.Error())
			continue
		}
		modules++
		s := &Schemas{}
		s.Infer(m)
		for _, mode := range []config.ResourceMode{config.ManagedMode, config.DataMode, config.EphemeralMode} {
			for _, typ := range s.Types(mode) {
				types++
				b := s.Block(mode, typ)
				c, a, n := countSchema(b)
				computed, args, blocks = computed+c, args+a, blocks+n
			}
		}
		p := New(s, nil)
		values := map[string]cty.Value{}
		var decls []*config.Resource
		for _, rs := range []map[string]*config.Resource{m.ManagedResources, m.DataResources, m.EphemeralResources} {
			decls = append(decls, config.InOrder(rs)...)
		}
		for _, r := range decls {
			resources++
			b := s.Block(r.Mode, r.Type)
			if b == nil {
				t.Errorf("%s: no schema inferred for %s", dir.Rel, r.Addr())
				continue
			}
			ctx := evalContext(r.Config, b.DecoderSpec(), m.Dir)
			body := dynblock.Expand(r.Config, ctx)
			cfg, diags := hcldec.Decode(body, b.DecoderSpec(), ctx)
			for _, d := range diags {
				switch {
				case d.Summary == "Unsupported argument", d.Summary == "Unsupported block type", d.Summary == "Missing required argument",
					d.Summary == "Value for unconfigurable attribute", strings.HasPrefix(d.Summary, "Extraneous label"), strings.HasPrefix(d.Summary, "Missing "):
					decodeErrs++
					t.Errorf("%s: %s: %s", dir.Rel, r.Addr(), d)
				case d.Severity == hcl.DiagError:
					otherErrs[d.Summary]++
				}
			}
			if diags.HasErrors() {
				continue
			}
			req := Request{Addr: r.Addr(), Mode: r.Mode, Type: r.Type, Provider: strings.SplitN(r.Type, "_", 2)[0], Config: cfg}
			if r.Mode == config.ManagedMode {
				planned, pd := p.Plan(req)
				if pd.HasErrors() {
					t.Errorf("%s: %s: plan: %s", dir.Rel, r.Addr(), pd.Error())
					continue
				}
				applied, ad := p.Apply(req, planned)
				if ad.HasErrors() || !applied.IsWhollyKnown() {
					t.Errorf("%s: %s: apply: %s (wholly known: %v)", dir.Rel, r.Addr(), ad.Error(), applied.IsWhollyKnown())
				}
				values[r.Addr()] = applied
			} else {
				v, rd := p.Read(req)
				if rd.HasErrors() {
					t.Errorf("%s: %s: read: %s", dir.Rel, r.Addr(), rd.Error())
				}
				values[r.Addr()] = v
			}
		}
		// Every reference to a resource attribute must reach a value in
		// the applied state.
		uses, _ := refs.InModule(m)
		for _, u := range uses {
			ri, ok := u.Subject.(refs.ResourceInstance)
			if !ok || len(u.Remaining) == 0 {
				continue
			}
			v, ok := values[ri.Resource.String()]
			if !ok || !v.IsKnown() {
				continue
			}
			refsChecked++
			rest := u.Remaining
			if _, err := rest.TraverseRel(v); err != nil {
				refsFailed++
				t.Logf("%s: %s: %s", dir.Rel, u.Text(), err.Error())
			}
		}
	}
	t.Logf("corpus: %d modules, %d resource blocks, %d inferred types: %d arguments, %d computed attributes, %d nested block types; %d decoding errors",
		modules, resources, types, args, computed, blocks, decodeErrs)
	t.Logf("references to resource attributes: %d, %d do not reach a value", refsChecked, refsFailed)
	for _, summary := range sortedKeys(otherErrs) {
		t.Logf("evaluation errors with every variable unknown: %q: %d", summary, otherErrs[summary])
	}
}

func countSchema(b *Block) (computed, args, blocks int) {
	for _, a := range b.Attributes {
		if a.Computed && !a.Optional {
			computed++
		} else {
			args++
		}
	}
	for _, nb := range b.BlockTypes {
		blocks++
		c, a, n := countSchema(nb.Block)
		computed, args, blocks = computed+c, args+a, blocks+n
	}
	return
}

// wantTypes checks that b has each attribute of want, of its type.
func wantTypes(t *testing.T, b *Block, want map[string]cty.Type) {
	t.Helper()
	for name, ty := range want {
		a := b.Attributes[name]
		if a == nil {
			t.Errorf("%s: missing", name)
			continue
		}
		if !a.Type.Equals(ty) {
			t.Errorf("%s: type %#v, want %#v", name, a.Type, ty)
		}
	}
}

// TestInferFollows checks that a reference through a local value or a
// called module's output reaches the resource it holds: the attributes
// read from it are inferred (terraform-google-network's subnets module
// outputs its subnetworks whole, and the root reads self_link from each),
// as do the values that may be one of several: a conditional's branches,
// try's and coalesce's arguments, merge's and concat's elements. A cycle
// of local values reaches nothing, and ends.
func TestInferFollows(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"main.tf": `
module "subnets" {
  source = "./subnets"
}
locals {
  vpc  = aws_vpc.v
  a    = local.b
  b    = local.a
}
resource "aws_vpc" "v" {
  cidr_block = "10.0.0.0/16"
}
output "links" {
  value = [for s in module.subnets.subnets : s.self_link]
}
output "first" {
  value = module.subnets.first.gateway_address
}
output "vpc_arn" {
  value = local.vpc.arn
}
output "cycle" {
  value = local.a.x
}
variable "managed" {
  type    = bool
  default = true
}
resource "google_dns_managed_zone" "z" {
  name = "z"
}
data "google_dns_managed_zone" "z" {
  name = "z"
}
locals {
  zone     = var.managed ? google_dns_managed_zone.z : data.google_dns_managed_zone.z
  replicas = { for r in try(aws_dynamodb_table.t.replica[*], aws_dynamodb_table.u.replica[*], []) : r.region_name => r }
  versions = merge(aws_secret_version.a, aws_secret_version.b)
}
resource "aws_dynamodb_table" "t" {
  name = "t"
}
resource "aws_dynamodb_table" "u" {
  name = "u"
}
resource "aws_secret_version" "a" {
  for_each = toset(["x"])
  name     = each.key
}
resource "aws_secret_version" "b" {
  for_each = toset(["y"])
  name     = each.key
}
output "name_servers" {
  value = local.zone.name_servers
}
output "replica_arns" {
  value = { for v in local.replicas : v.region_name => v.arn }
}
output "versions" {
  value = { for k, v in local.versions : k => v.version }
}
resource "aws_acm_certificate" "c" {
  domain_name = "x"
}
resource "google_cloud_run_v2_service" "s" {
  name = "s"
}
variable "type" {
  type    = string
  default = "SERVICE"
}
locals {
  by_type = { SERVICE = google_cloud_run_v2_service.s, JOB = null }
}
output "uri" {
  value = local.by_type[var.type].uri
}
output "first_uri" {
  value = [google_cloud_run_v2_service.s][0].uri
}
resource "aws_kms_key" "k" {
  description = "k"
}
locals {
  regions = [{ region_name = "eu", kms_key_arn = aws_kms_key.k.arn, settings = { mode = "x" } }]
}
output "region_names" {
  value = [for r in local.regions : [r.region_name, r.settings.mode]]
}
output "key_id" {
  value = [{ a = "x", b = aws_kms_key.k }][0].b.key_id
}
module "records" {
  source  = "./records"
  options = aws_acm_certificate.c.domain_validation_options
}
`,
		"records/main.tf": `
variable "options" {
  type = any
}
locals {
  domains = distinct([for v in var.options : merge(tomap(v), { domain_name = "d" })])
}
output "name" {
  value = element(local.domains, 0)["resource_record_name"]
}
`,
		"subnets/main.tf": `
resource "google_compute_subnetwork" "s" {
  for_each = toset(["a", "b"])
  name     = each.key
}
output "subnets" {
  value = google_compute_subnetwork.s
}
output "first" {
  value = google_compute_subnetwork.s["a"]
}
`,
	})
	tree, diags := config.LoadTree(dir, nil)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	s := &Schemas{}
	s.InferTree(tree)
	wantTypes(t, s.Block(config.ManagedMode, "google_compute_subnetwork"), map[string]cty.Type{
		"self_link":       cty.String,
		"gateway_address": cty.String,
	})
	wantTypes(t, s.Block(config.ManagedMode, "aws_vpc"), map[string]cty.Type{"arn": cty.String})
	// Either branch of a conditional, any argument of try, the elements
	// of merge's maps, a splat as it is, and a for that keeps its
	// elements.
	wantTypes(t, s.Block(config.ManagedMode, "google_dns_managed_zone"), map[string]cty.Type{"name_servers": cty.String})
	wantTypes(t, s.Block(config.DataMode, "google_dns_managed_zone"), map[string]cty.Type{"name_servers": cty.String})
	replica := cty.List(cty.Object(map[string]cty.Type{"region_name": cty.String, "arn": cty.String}))
	wantTypes(t, s.Block(config.ManagedMode, "aws_dynamodb_table"), map[string]cty.Type{"replica": replica})
	wantTypes(t, s.Block(config.ManagedMode, "aws_secret_version"), map[string]cty.Type{"version": cty.String})
	// A variable reaches what its callers give it, and an element of a
	// for expression's result what the for's value reaches, through
	// distinct, merge and tomap (terraform-aws-acm): tomap makes it a map.
	options := cty.List(cty.Map(cty.String))
	wantTypes(t, s.Block(config.ManagedMode, "aws_acm_certificate"), map[string]cty.Type{"domain_validation_options": options})
	// An element of an object or tuple constructor reaches what its
	// values reach, whatever the key (fabric's cloud-run-v2).
	wantTypes(t, s.Block(config.ManagedMode, "google_cloud_run_v2_service"), map[string]cty.Type{"uri": cty.String})
	// A constant key picks its own value: r.settings.mode does not
	// make the key's arn an object (terraform-aws-dynamodb-table's
	// replica_regions).
	wantTypes(t, s.Block(config.ManagedMode, "aws_kms_key"), map[string]cty.Type{"arn": cty.String, "key_id": cty.String})

	// Without the tree, the outputs of calls are not followed.
	s = &Schemas{}
	s.Infer(tree.Root)
	s.Infer(tree.Modules[filepath.Join(dir, "subnets")])
	if _, ok := s.Block(config.ManagedMode, "google_compute_subnetwork").Attributes["self_link"]; ok {
		t.Error("self_link inferred without the tree")
	}
}
