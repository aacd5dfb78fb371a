package rules

import (
	"fmt"

	goversion "github.com/hashicorp/go-version"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tofucue/tofucue/config"
)

// WorkspaceRemote is the rule workspace_remote.
var WorkspaceRemote = &Rule{
	Name:   "workspace_remote",
	TFLint: "terraform_workspace_remote",
	Doc: `Reports terraform.workspace in a module whose state is in the remote
backend and whose required_version admits Terraform 1.0, as TFLint's
terraform_workspace_remote does: before 1.1, terraform.workspace with the
remote backend is always "default", whatever workspace runs. A module
without a required_version is not reported (TFLint's choice: nothing
says it runs on 1.0), nor one whose constraints exclude every 1.0.x
release, such as every OpenTofu release. JSON files are not checked. The
rule is off by default.

Bad:

    terraform {
      required_version = ">= 1.0"
      backend "remote" {}
    }

    resource "aws_instance" "web" {
      tags = { Name = "web-${terraform.workspace}" }
    }

Good:

    terraform {
      required_version = ">= 1.1"
      backend "remote" {}
    }`,
	Severity: Warning,
	Check: func(p *Pass) {
		t := p.Module.Terraform
		if t.Backend == nil || t.Backend.Type != "remote" || !admitsTerraform10(t.RequiredVersions) {
			return
		}
		walkSyntax(p.Module, func(_ []byte, n hclsyntax.Node, _ []hclsyntax.Node) {
			ref, ok := n.(*hclsyntax.ScopeTraversalExpr)
			if !ok || len(ref.Traversal) < 2 || ref.Traversal.RootName() != "terraform" {
				return
			}
			if attr, ok := ref.Traversal[1].(hcl.TraverseAttr); !ok || attr.Name != "workspace" {
				return
			}
			p.Report(Finding{
				Message: "terraform.workspace should not be used with a 'remote' backend",
				Detail:  "Terraform before 1.1 gives \"default\" for terraform.workspace with the remote backend, whatever the workspace. Require a later version, or name the workspace another way.",
				Range:   ref.Range(),
			})
		})
	},
}

// admitsTerraform10 reports whether all the constraints together admit a
// Terraform 1.0.x release (there were 1.0.0 to 1.0.11); none admits
// nothing.
func admitsTerraform10(constraints []config.VersionConstraint) bool {
	if len(constraints) == 0 {
		return false
	}
	for patch := range 12 {
		v := goversion.Must(goversion.NewVersion(fmt.Sprintf("1.0.%d", patch)))
		ok := true
		for _, c := range constraints {
			ok = ok && c.Required.Check(v)
		}
		if ok {
			return true
		}
	}
	return false
}
