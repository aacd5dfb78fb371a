package configjson_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/engine/configjson"
)

// The configuration block of real modules is compared with OpenTofu's in
// engine/plan (TestOpenTofuConfiguration); these are the cases OpenTofu
// cannot plan offline: registry and remote module sources, providers from
// the registry, nested and dynamic blocks, provisioners.

const mainTF = `
terraform {
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = ">= 5.1, ~> 5.0"
    }
  }
}

provider "aws" {
  region = "eu-west-1"

  default_tags {
    tags = { team = var.team }
  }
}

provider "aws" {
  alias  = "east"
  region = "us-east-1"
}

variable "team" {
  type = string
}

module "vpc" {
  source  = "terraform-aws-modules/vpc/aws"
  version = "~> 5.0"

  name = "main"
  cidr = var.team
}

module "git" {
  source = "git::https://example.com/net.git?ref=v1.2.0"
  count  = 2

  index = count.index
}

resource "aws_security_group" "web" {
  provider = aws.east
  name     = module.vpc.name

  ingress {
    from_port = 443
  }
  ingress {
    from_port = var.team
  }

  dynamic "egress" {
    for_each = [1]
    content {
      to_port = egress.value
    }
  }

  provisioner "local-exec" {
    command = "echo ${self.id}"
  }
}

data "aws_ami" "ubuntu" {
  most_recent = true
}
`

func build(t *testing.T) map[string]any {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(mainTF), 0o644); err != nil {
		t.Fatal(err)
	}
	m, diags := config.Load(dir)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	c := configjson.Build(m, func(*config.Module, *config.ModuleCall) *config.Module { return nil }, nil)
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func at(v any, path ...any) any {
	for _, p := range path {
		switch p := p.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[p]
		case int:
			l, _ := v.([]any)
			if p >= len(l) {
				return nil
			}
			v = l[p]
		}
	}
	return v
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestBuild(t *testing.T) {
	c := build(t)
	root := at(c, "root_module")
	for _, tc := range []struct {
		path []any
		want string
	}{
		// A module that is not loaded: its source and version as written,
		// every argument, no "module".
		{[]any{"module_calls", "vpc"}, `{"expressions":{"cidr":{"references":["var.team"]},"name":{"constant_value":"main"}},"source":"terraform-aws-modules/vpc/aws","version_constraint":"~\u003e 5.0"}`},
		{[]any{"module_calls", "git"}, `{"count_expression":{"constant_value":2},"expressions":{"index":{"references":["count.index"]}},"source":"git::https://example.com/net.git?ref=v1.2.0"}`},
		// Nested blocks as lists, dynamic blocks left out, the
		// provisioner's arguments.
		{[]any{"resources", 0, "address"}, `"aws_security_group.web"`},
		{[]any{"resources", 0, "provider_config_key"}, `"aws.east"`},
		{[]any{"resources", 0, "expressions"}, `{"ingress":[{"from_port":{"constant_value":443}},{"from_port":{"references":["var.team"]}}],"name":{"references":["module.vpc.name","module.vpc"]}}`},
		{[]any{"resources", 0, "provisioners"}, `[{"expressions":{"command":{"references":["self.id","self"]}},"type":"local-exec"}]`},
		{[]any{"resources", 1, "address"}, `"data.aws_ami.ubuntu"`},
		{[]any{"resources", 1, "mode"}, `"data"`},
		{[]any{"variables", "team"}, `{"required":true,"type":"string"}`},
	} {
		if got := jsonOf(at(root, tc.path...)); got != tc.want {
			t.Errorf("root_module %v:\n got %s\nwant %s", tc.path, got, tc.want)
		}
	}
	for key, want := range map[string]string{
		"aws":      `{"expressions":{"default_tags":[{"tags":{"references":["var.team"]}}],"region":{"constant_value":"eu-west-1"}},"full_name":"registry.opentofu.org/hashicorp/aws","name":"aws","version_constraint":"~\u003e 5.0, \u003e= 5.1.0"}`,
		"aws.east": `{"alias":"east","expressions":{"region":{"constant_value":"us-east-1"}},"full_name":"registry.opentofu.org/hashicorp/aws","name":"aws","version_constraint":"~\u003e 5.0, \u003e= 5.1.0"}`,
	} {
		if got := jsonOf(at(c, "provider_config", key)); got != want {
			t.Errorf("provider_config %s:\n got %s\nwant %s", key, got, want)
		}
	}
}
