variable "prefix" {
  type = string
}

variable "items" {
  type    = list(string)
  default = []
}

resource "terraform_data" "inner" {
  input = "${var.prefix}-inner"
}

module "leaf" {
  source = "../leaf"

  value = terraform_data.inner.output
}

output "result" {
  value = module.leaf.echo
}

output "count" {
  value = length(var.items)
}
