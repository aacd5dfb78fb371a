# A provider-free module that exercises OpenTofu's `configuration` block:
# terraform_data resources with count, for_each and depends_on, variables of
# several kinds, locals, outputs, and local child modules (one nested).
# ../configuration.json is what real OpenTofu's `tofu show -json` printed
# for its plan; opentofu_test.go says how to regenerate it.

variable "name" {
  type        = string
  description = "The name every object starts with."
  default     = "demo"
}

variable "zones" {
  type    = list(string)
  default = ["a", "b"]
}

variable "tags" {
  type    = map(string)
  default = { env = "test" }
}

variable "settings" {
  type = object({
    size  = number
    label = optional(string, "none")
  })
  default = { size = 1 }
}

variable "secret" {
  type      = string
  sensitive = true
  default   = "hunter2"
}

variable "untyped" {
  default = null
}

variable "owner" {
  description = "Required: given in terraform.tfvars."
  type        = string
}

locals {
  prefix   = "${var.name}-app"
  zone_map = { for z in var.zones : z => upper(z) }
}

resource "terraform_data" "single" {
  input = local.prefix
}

resource "terraform_data" "counted" {
  count = length(var.zones)

  input            = { zone = var.zones[count.index], index = count.index, owner = var.owner }
  triggers_replace = [terraform_data.single.id]
}

resource "terraform_data" "each" {
  for_each = local.zone_map

  input      = "${each.key}=${each.value}"
  depends_on = [terraform_data.single, module.child]
}

resource "terraform_data" "constant" {
  input = {
    a = 1
    b = [true, null]
    c = "x"
  }
}

resource "terraform_data" "function" {
  input = upper("abc")
}

resource "terraform_data" "keyed" {
  input = [terraform_data.counted[0].output, terraform_data.each["a"].id, var.tags["env"], var.settings.size]
}

module "child" {
  source = "./modules/child"

  prefix = local.prefix
  items  = terraform_data.counted[*].id

  depends_on = [terraform_data.constant]
}

module "fanout" {
  source   = "./modules/child"
  for_each = toset(var.zones)

  prefix = each.key
}

module "counted" {
  source = "./modules/leaf"
  count  = 1

  value = "${count.index}"
}

output "single_id" {
  description = "The single object's id."
  value       = terraform_data.single.id
}

output "child_result" {
  value = module.child.result
}

output "fanout" {
  value = { for k, m in module.fanout : k => m.result }
}

output "first_fanout" {
  value = module.fanout["a"].result
}

output "secret" {
  value     = var.secret
  sensitive = true
}

output "each_a" {
  value      = terraform_data.each["a"].output
  depends_on = [module.child]
}

output "constant" {
  value = "fixed"
}
