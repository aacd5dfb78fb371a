terraform {
  required_providers {
    terraform = {
      source = "terraform.io/builtin/terraform"
    }
  }
}

variable "name" {
  type = string
}

resource "terraform_data" "child" {
  input = var.name

  lifecycle {
    create_before_destroy = true
  }
}

output "name" {
  value = terraform_data.child.output
}
