resource "aws_vpc" "main" {
  cidr_block = var.base_cidr_block
  tags       = var.tags
}

resource "aws_subnet" "main" {
  for_each = var.subnets

  vpc_id     = aws_vpc.main.id
  cidr_block = cidrsubnet(aws_vpc.main.cidr_block, 4, each.value.number)
  tags       = merge(var.tags, { Name = each.value.tag_name })
}

resource "aws_internet_gateway" "main" {
  count = var.internet_gateway ? 1 : 0

  vpc_id = aws_vpc.main.id
  tags   = var.tags
}
