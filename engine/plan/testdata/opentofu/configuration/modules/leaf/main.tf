variable "value" {
  type = string
}

resource "terraform_data" "echo" {
  input = var.value
}

output "echo" {
  value = terraform_data.echo.output
}
