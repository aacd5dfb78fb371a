# A module with three mistakes that tofulint (and `tofu validate`) finds
# while loading the module, before any provider is asked anything:
#
#   go run ./cmd/tofulint examples/lint-mistakes
#
# exits with status 1 and shows each mistake with its source line.

variable "instance_count" {
  type    = number
  default = 2
}

# Mistake 1: "instance_count" is declared a second time. Variable names
# must be unique within a module, across all of its files; the error points
# at this block and names the first declaration.
variable "instance_count" {
  type = number
}

# Mistake 2: the default "large" is not a number, so it cannot satisfy the
# variable's own type constraint. The error points at the default value.
variable "disk_size" {
  type    = number
  default = "large"
}

variable "names" {
  type    = set(string)
  default = ["web", "worker"]
}

# Mistake 3: count and for_each both say how many instances to create, and
# a resource may use only one of them.
resource "aws_instance" "app" {
  count    = var.instance_count
  for_each = var.names

  ami           = "ami-0123456789abcdef0"
  instance_type = "t3.micro"

  root_block_device {
    volume_size = var.disk_size
  }
}
