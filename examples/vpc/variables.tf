variable "base_cidr_block" {
  type        = string
  description = "CIDR block of the VPC; each subnet takes a /20 of it."
}

variable "subnets" {
  type = map(object({
    number   = number
    tag_name = string
  }))
  description = "Subnets to create, by key: number is the subnet's index within base_cidr_block."
  default     = {}
}

variable "tags" {
  type        = map(string)
  description = "Tags for every resource."
  default     = {}
}

variable "internet_gateway" {
  type        = bool
  description = "Whether to attach an internet gateway to the VPC."
  default     = false
}
