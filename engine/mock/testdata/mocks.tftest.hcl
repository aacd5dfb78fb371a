# Mocks for the provider tests: the syntax of `tofu test` files.

mock_provider "aws" {
  mock_resource "aws_instance" {
    defaults = {
      arn        = "arn:aws:ec2:us-east-1:111111111111:instance/i-default"
      private_ip = "10.1.2.3"
      root_block_device = {
        volume_id = "vol-default"
      }
    }
  }

  mock_data "aws_ami" {
    defaults = {
      image_id = "ami-default"
    }
  }

  override_resource {
    target = aws_instance.web
    values = {
      arn = "arn:aws:ec2:us-east-1:111111111111:instance/i-web"
    }
  }
}

mock_provider "aws" {
  alias           = "west"
  override_during = plan

  mock_resource "aws_instance" {
    defaults = {
      arn = "arn:west"
    }
  }
}

override_resource {
  target = module.app["blue"].aws_instance.web
  values = {
    arn = "arn:blue"
  }
  override_during = plan
}

override_resource {
  target = module.app[*].aws_instance.web
  values = {
    arn = "arn:any-app"
  }
}

override_data {
  target = data.aws_ami.ubuntu[1]
  values = {
    image_id = "ami-second"
  }
}

override_module {
  target  = module.dns
  outputs = { zone_id = "Z123" }
}

run "ignored" {
  command = plan
}
