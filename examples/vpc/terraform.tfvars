base_cidr_block = "192.168.0.0/16"

subnets = {
  foo = {
    number   = 1
    tag_name = "Foo"
  }
  bar = {
    number   = 2
    tag_name = "Bar"
  }
}

tags = {
  Environment = "PROD"
}
