output "vpc_id" {
  description = "ID of the VPC."
  value       = aws_vpc.main.id
}

output "subnet_ids" {
  description = "Subnet IDs, by the keys of var.subnets."
  value       = { for k, s in aws_subnet.main : k => s.id }
}

output "internet_gateway_id" {
  description = "ID of the internet gateway, or null when there is none."
  value       = one(aws_internet_gateway.main[*].id)
}
