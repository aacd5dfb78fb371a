# Provider configurations in OpenTofu's `configuration` block, with the
# built-in provider (the only one that plans offline): a default and an
# aliased configuration, a resource that names the alias, a module call
# that passes the alias and one that inherits the default, and an
# escaped resource reference. ../providers.json is what OpenTofu wrote.

terraform {
  required_providers {
    terraform = {
      source = "terraform.io/builtin/terraform"
    }
  }
}

provider "terraform" {}

provider "terraform" {
  alias = "other"
}

resource "terraform_data" "default" {
  input = "default"
}

resource "terraform_data" "aliased" {
  provider = terraform.other

  input = resource.terraform_data.default.output
}

module "passed" {
  source = "./child"

  providers = {
    terraform = terraform.other
  }

  name = "passed"
}

module "inherited" {
  source = "./child"

  name = terraform_data.aliased.output
}

output "names" {
  value = [module.passed.name, module.inherited.name]
}
