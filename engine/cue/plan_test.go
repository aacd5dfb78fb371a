package cue

import (
	"testing"

	"github.com/tofucue/tofucue/engine/inputs"
	"github.com/tofucue/tofucue/engine/mock"
)

// modules are small modules that exercise one construct each; both
// evaluators must plan them alike.
var modules = map[string]string{
	"count": `
variable "n" {
  type    = number
  default = 3
}
resource "aws_instance" "web" {
  count = var.n
  ami   = "ami-${count.index}"
  tags  = { Index = count.index }
}
resource "aws_eip" "ip" {
  count    = 2
  instance = aws_instance.web[count.index].id
}
output "ids" {
  value = aws_instance.web[*].id
}
output "ips" {
  value = [for e in aws_eip.ip : e.id]
}
`,
	"count_conditional": `
variable "create" {
  type    = bool
  default = true
}
variable "skip" {
  type    = bool
  default = false
}
resource "null_resource" "maybe" {
  count    = var.create ? 1 : 0
  triggers = { index = count.index }
}
resource "null_resource" "never" {
  count    = var.skip ? 1 : 0
  triggers = { index = count.index }
}
resource "null_resource" "enabled" {
  triggers = { on = "yes" }
  lifecycle {
    enabled = var.create
  }
}
output "maybe_id" {
  value = one(null_resource.maybe[*].id)
}
output "never_id" {
  value = one(null_resource.never[*].id)
}
`,
	"for_each": `
variable "zones" {
  type    = map(string)
  default = { a = "10.0.1.0/24", b = "10.0.2.0/24" }
}
variable "names" {
  type    = set(string)
  default = ["x", "y", "z"]
}
resource "aws_subnet" "zone" {
  for_each   = var.zones
  cidr_block = each.value
  tags       = { Zone = each.key }
}
resource "aws_instance" "named" {
  for_each  = var.names
  ami       = "ami-${each.key}"
  subnet_id = aws_subnet.zone["a"].id
}
resource "aws_route" "per_subnet" {
  for_each  = aws_subnet.zone
  subnet_id = each.value.id
  cidr      = each.value.cidr_block
}
output "subnets" {
  value = { for k, s in aws_subnet.zone : k => s.id }
}
output "routes" {
  value = [for k, r in aws_route.per_subnet : "${k}=${r.subnet_id}"]
}
`,
	"chain": `
resource "aws_vpc" "a" {
  cidr_block = "10.0.0.0/16"
}
resource "aws_subnet" "b" {
  vpc_id     = aws_vpc.a.id
  cidr_block = cidrsubnet(aws_vpc.a.cidr_block, 8, 1)
}
resource "aws_instance" "c" {
  subnet_id = aws_subnet.b.id
  name      = "web-${aws_subnet.b.id}-${aws_vpc.a.id}"
}
resource "aws_eip" "d" {
  instance = aws_instance.c.id
  tags = {
    Name = upper(aws_instance.c.name)
  }
}
locals {
  ids = [aws_vpc.a.id, aws_subnet.b.id, aws_instance.c.id, aws_eip.d.id]
}
output "ids" {
  value = local.ids
}
output "upper" {
  value = aws_eip.d.tags.Name
}
`,
	"data": `
data "aws_ami" "ubuntu" {
  most_recent = true
  owners      = ["099720109477"]
}
resource "aws_instance" "web" {
  ami = data.aws_ami.ubuntu.id
}
data "aws_subnet" "of_web" {
  id = aws_instance.web.subnet_id
}
data "aws_region" "deferred" {
  depends_on = [aws_instance.web]
}
data "aws_caller_identity" "after_data" {
  depends_on = [data.aws_ami.ubuntu]
}
resource "aws_eip" "ip" {
  instance = aws_instance.web.id
  tags = {
    Subnet = data.aws_subnet.of_web.cidr_block
    Region = data.aws_region.deferred.name
    Owner  = data.aws_caller_identity.after_data.account_id
  }
}
output "ami" {
  value = data.aws_ami.ubuntu.id
}
output "subnet_cidr" {
  value = data.aws_subnet.of_web.cidr_block
}
`,
	"outputs": `
variable "names" {
  type    = list(string)
  default = ["b", "a"]
}
resource "aws_s3_bucket" "b" {
  for_each = toset(var.names)
  bucket   = "bucket-${each.key}"
}
output "arns" {
  value = { for k, b in aws_s3_bucket.b : k => b.arn }
}
output "joined" {
  value = join(",", [for b in aws_s3_bucket.b : b.bucket])
}
output "count" {
  value = length(aws_s3_bucket.b)
}
output "secret" {
  value     = aws_s3_bucket.b["a"].id
  sensitive = true
}
output "constant" {
  value = { a = 1, b = [true, false], c = null, d = 2.5 }
}
`,
	"optional_defaults": `
variable "settings" {
  type = object({
    name    = string
    size    = optional(number, 10)
    tags    = optional(map(string), {})
    enabled = optional(bool)
    rules = optional(list(object({
      port     = number
      protocol = optional(string, "tcp")
    })), [])
  })
  default = {
    name  = "app"
    rules = [{ port = 80 }, { port = 53, protocol = "udp" }]
  }
}
resource "aws_instance" "app" {
  name    = var.settings.name
  size    = var.settings.size
  tags    = var.settings.tags
  enabled = var.settings.enabled
  ports   = [for r in var.settings.rules : "${r.port}/${r.protocol}"]
}
output "settings" {
  value = var.settings
}
`,
	"nested_blocks": `
variable "rules" {
  type    = map(number)
  default = { http = 80, https = 443 }
}
resource "aws_security_group" "sg" {
  name = "sg"
  ingress {
    from_port = 22
    to_port   = 22
  }
  dynamic "egress" {
    for_each = var.rules
    content {
      from_port = egress.value
      to_port   = egress.value
      name      = egress.key
    }
  }
}
resource "aws_instance" "web" {
  security_groups = [aws_security_group.sg.id]
  ebs_block_device {
    device_name = "/dev/sdb"
    volume_size = 10
  }
}
output "sg" {
  value = aws_security_group.sg.id
}
`,
	"unknown_at_apply": `
resource "aws_instance" "web" {
  name    = "web-${uuid()}"
  created = timestamp()
}
resource "aws_eip" "ip" {
  instance = aws_instance.web.id
  label    = aws_instance.web.created
}
output "stamp" {
  value = timestamp()
}
`,
	"nested_computed": `
resource "aws_instance" "web" {
  ami = "ami-1"
  ebs_block_device {
    device_name = "/dev/sdb"
  }
  ebs_block_device {
    device_name = "/dev/sdc"
  }
}
resource "aws_volume_attachment" "att" {
  volume_id   = aws_instance.web.ebs_block_device[1].volume_id
  instance_id = aws_instance.web.id
}
output "volumes" {
  value = [for b in aws_instance.web.ebs_block_device : b.volume_id]
}
output "whole" {
  value = aws_instance.web
}
`,
	"null_by_default": `
variable "name" {
  type    = string
  default = null
}
resource "aws_s3_bucket" "b" {
  bucket = var.name
}
resource "aws_s3_bucket_policy" "p" {
  bucket = aws_s3_bucket.b.bucket
}
output "bucket" {
  value = aws_s3_bucket.b.bucket
}
`,
	"fan": `
resource "aws_vpc" "hub" {
  cidr_block = "10.0.0.0/16"
}
resource "aws_subnet" "spoke" {
  count      = 5
  vpc_id     = aws_vpc.hub.id
  cidr_block = cidrsubnet(aws_vpc.hub.cidr_block, 8, count.index)
}
resource "aws_route_table" "rt" {
  for_each = { for i, s in aws_subnet.spoke : tostring(i) => s.cidr_block }
  vpc_id   = aws_vpc.hub.id
  cidr     = each.value
}
`,
}

func TestModules(t *testing.T) {
	for name, src := range modules {
		t.Run(name, func(t *testing.T) {
			dir := writeFiles(t, map[string]string{"main.tf": src})
			requireEqual(t, planBoth(t, dir, inputs.Sources{Synthesize: true}, nil))
		})
	}
}

func TestArticleVPCInputs(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"main.tf": `
variable "base_cidr_block" {
  type = string
}
variable "subnets" {
  type = map(object({
    number   = number
    tag_name = string
  }))
}
variable "tags" {
  type = map(string)
}
resource "aws_vpc" "main" {
  cidr_block = var.base_cidr_block
  tags       = var.tags
}
resource "aws_subnet" "main" {
  for_each = var.subnets

  cidr_block = cidrsubnet(aws_vpc.main.cidr_block, 4, each.value.number)
  vpc_id     = aws_vpc.main.id
  tags = merge(var.tags, {
    Name = each.value.tag_name
  })
}
output "vpc_id" {
  value = aws_vpc.main.id
}
output "subnet_ids" {
  value = { for k, s in aws_subnet.main : k => s.id }
}
`,
		"terraform.tfvars": `
base_cidr_block = "192.168.0.0/16"
subnets = {
  foo = { number = 1, tag_name = "Foo" }
  bar = { number = 2, tag_name = "Bar" }
}
tags = { Environment = "PROD" }
`,
	})
	b := planBoth(t, dir, inputs.Sources{AutoFiles: true}, nil)
	requireEqual(t, b)
	if got := len(b.cue.Instances); got != 3 {
		t.Errorf("%d instances, want 3", got)
	}
}

func TestExampleVPCGateway(t *testing.T) {
	b := planBoth(t, "../../examples/vpc", inputs.Sources{AutoFiles: true, Vars: []string{"internet_gateway=true"}}, nil)
	requireEqual(t, b)
	if got := len(b.cue.Instances); got != 4 {
		t.Errorf("%d instances, want 4", got)
	}
}

func TestMocksDuringPlan(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"main.tf": `
resource "aws_vpc" "a" {
  cidr_block = "10.0.0.0/16"
}
data "aws_subnets" "of_a" {
  vpc_id = aws_vpc.a.id
}
resource "aws_subnet" "b" {
  vpc_id = aws_vpc.a.id
  first  = data.aws_subnets.of_a.ids[0]
}
output "vpc" {
  value = aws_vpc.a.id
}
`,
		"mocks.tfmock.hcl": `
mock_provider "aws" {
  mock_resource "aws_vpc" {
    override_during = plan
    defaults = { id = "vpc-123" }
  }
}
`,
	})
	mocks, diags := mock.LoadMocks(dir + "/mocks.tfmock.hcl")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	b := planBoth(t, dir, inputs.Sources{}, mocks)
	requireEqual(t, b)
	for _, in := range b.cue.Instances {
		if in.Addr() == "data.aws_subnets.of_a" && in.Action != "no-op" {
			t.Errorf("%s: %s, want no-op: the vpc id is known at plan", in.Addr(), in.Action)
		}
	}
}
