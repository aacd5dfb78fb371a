package rules

import (
	"fmt"
	"maps"
	"slices"
)

// UnusedRequiredProviders is the rule unused_required_providers.
var UnusedRequiredProviders = &Rule{
	Name:   "unused_required_providers",
	TFLint: "terraform_unused_required_providers",
	Doc: `Reports a required_providers entry for a provider that nothing in the
module uses, as TFLint's terraform_unused_required_providers does: tofu
init installs it all the same. A provider is used as required_providers
sees it: by a resource, data source or ephemeral resource (through its
provider argument or its type's prefix), a provider block, a module call's
providers map, or a provider function. An entry that only declares
configuration_aliases for a module's callers is reported too when the
module itself does not use the provider. The rule is off by default.

Bad:

    terraform {
      required_providers {
        aws    = { source = "hashicorp/aws" }
        random = { source = "hashicorp/random" }
      }
    }

    resource "aws_instance" "web" {}

Good:

    terraform {
      required_providers {
        aws = { source = "hashicorp/aws" }
      }
    }

    resource "aws_instance" "web" {}`,
	Severity: Warning,
	Check: func(p *Pass) {
		rps := p.Module.Terraform.RequiredProviders
		if len(rps) == 0 {
			return
		}
		refs := providerRefs(p.Module)
		for _, name := range slices.Sorted(maps.Keys(rps)) {
			if _, used := refs[name]; used {
				continue
			}
			p.Report(Finding{
				Message: fmt.Sprintf("provider '%s' is declared in required_providers but not used by the module", name),
				Detail:  "Nothing in the module uses the provider, yet tofu init installs it. Remove the entry, or use the provider.",
				Range:   rps[name].DeclRange,
			})
		}
	},
}
