package rules

import (
	"maps"
	"path/filepath"
	"slices"

	"github.com/hashicorp/hcl/v2"
)

// RequiredVersion is the rule required_version.
var RequiredVersion = &Rule{
	Name:   "required_version",
	TFLint: "terraform_required_version",
	Doc: `Reports a module with no required_version in any terraform block, as
TFLint's terraform_required_version does: without it, any version of
OpenTofu runs the module, including those that read it otherwise. The
finding is at the first terraform block, or, without one, at the start of
terraform.tf or main.tf (or of the module's only file). A required_version
in a .tofu file counts too. The rule is off by default.

Bad:

    terraform {
      required_providers {
        aws = { source = "hashicorp/aws" }
      }
    }

Good:

    terraform {
      required_version = ">= 1.9"
    }`,
	Severity: Warning,
	Check: func(p *Pass) {
		m := p.Module
		if len(m.Terraform.RequiredVersions) > 0 || len(m.Files) == 0 {
			return
		}
		f := Finding{
			Message: `terraform "required_version" attribute is required`,
			Detail:  "Set required_version in a terraform block, so that only the versions of OpenTofu the module is written for run it.",
		}
		if len(m.Terraform.Blocks) > 0 {
			f.Range = m.Terraform.Blocks[0]
		} else {
			f.Range = hcl.Range{Filename: startFile(m.Files), Start: hcl.InitialPos, End: hcl.InitialPos}
		}
		p.Report(f)
	},
}

// startFile is where a finding about the whole module goes: terraform.tf
// or main.tf where the module has one, else its first file by name.
func startFile[V any](files map[string]V) string {
	names := slices.Sorted(maps.Keys(files))
	for _, base := range []string{"terraform.tf", "main.tf"} {
		for _, n := range names {
			if filepath.Base(n) == base {
				return n
			}
		}
	}
	return names[0]
}
