package rules

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/config"
)

// RequiredProviders is the rule required_providers.
var RequiredProviders = &Rule{
	Name:   "required_providers",
	TFLint: "terraform_required_providers",
	Doc: `Reports a provider the module uses without a required_providers entry
that gives its source and version constraint, as TFLint's
terraform_required_providers does: without them, tofu init installs
whatever hashicorp/NAME is newest. A provider is used by a resource, data
source or ephemeral resource (through its provider argument or its type's
prefix), a provider block, a module call's providers map, or a provider
function. Also reported: a version argument in a provider block (the
constraint belongs in required_providers), and an entry in the legacy
form, a bare version string (fixed into an object with the source
hashicorp/NAME that the string form implies). The built-in provider
terraform needs no entry. The options source and version (both true)
say whether an entry must give each. The rule is off by default.

Bad:

    resource "aws_instance" "web" {}

Good:

    terraform {
      required_providers {
        aws = {
          source  = "hashicorp/aws"
          version = "~> 6.0"
        }
      }
    }

    resource "aws_instance" "web" {}`,
	Severity: Warning,
	Fixes:    true,
	Options: []Option{
		{Name: "source", Doc: "Whether an entry must give the provider's source.", Type: cty.Bool, Default: cty.True},
		{Name: "version", Doc: "Whether an entry must give a version constraint.", Type: cty.Bool, Default: cty.True},
	},
	Check: func(p *Pass) {
		m := p.Module
		for _, pc := range config.InOrder(m.ProviderConfigs) {
			if pc.Version != nil {
				p.Report(Finding{
					Message: "provider version constraint should be specified via `required_providers`",
					Detail:  fmt.Sprintf("The version argument of a provider block is deprecated: give the constraint as the version of %s in the terraform block's required_providers.", pc.Name),
					Range:   pc.Decl,
				})
			}
		}
		refs := providerRefs(m)
		for _, name := range slices.Sorted(maps.Keys(refs)) {
			if name == "terraform" {
				continue
			}
			rp := m.Terraform.RequiredProviders[name]
			if rp == nil {
				p.Report(Finding{
					Message: fmt.Sprintf("Missing version constraint for provider %q in `required_providers`", name),
					Detail:  fmt.Sprintf("Add %s = { source = \"...\", version = \"...\" } to the terraform block's required_providers, so that every tofu init installs the provider the module is written for.", name),
					Range:   refs[name],
				})
				continue
			}
			checkRequiredProvider(p, rp)
		}
	},
}

func checkRequiredProvider(p *Pass, rp *config.RequiredProvider) {
	rng := rp.Expr.Range()
	src := p.Module.Files[rng.Filename]
	hclFile := src != nil && !strings.HasSuffix(rng.Filename, ".json")
	if rp.Legacy {
		f := Finding{
			Message: fmt.Sprintf("Legacy version constraint for provider %q in `required_providers`", rp.Name),
			Detail:  fmt.Sprintf("A bare version string is the legacy form of an entry; it means the source hashicorp/%s. Write an object with source and version.", rp.Name),
			Range:   rng,
		}
		if hclFile {
			indent := lineIndent(src.Bytes, rng.Start.Byte)
			text := fmt.Sprintf("{\n%[1]s  source  = \"hashicorp/%[2]s\"\n%[1]s  version = %[3]s\n%[1]s}", indent, rp.Name, srcText(src.Bytes, rng))
			f.Fix = &Fix{Description: "Write the entry as an object", Edits: []Edit{{Range: rng, NewText: text}}}
		}
		p.Report(f)
		return
	}
	if rp.Source != "" {
		if rp.Addr.Hostname == "terraform.io" && rp.Addr.Namespace == "builtin" {
			return
		}
	} else if p.Option("source").True() {
		f := Finding{
			Message: fmt.Sprintf("Missing `source` for provider %q in `required_providers`", rp.Name),
			Detail:  fmt.Sprintf("Without a source the entry means hashicorp/%s; say so, or name the provider's real source.", rp.Name),
			Range:   rng,
		}
		if hclFile {
			f.Fix = sourceFix(src.Bytes, rp)
		}
		p.Report(f)
	}
	if rp.Requirement == nil && p.Option("version").True() {
		p.Report(Finding{
			Message: fmt.Sprintf("Missing version constraint for provider %q in `required_providers`", rp.Name),
			Detail:  "Add version = \"...\" to the entry, so that every tofu init installs a version the module is written for.",
			Range:   rng,
		})
	}
}

// sourceFix inserts source = "hashicorp/NAME" as the first item of an
// entry's object, on a line of its own when the object spans lines.
func sourceFix(src []byte, rp *config.RequiredProvider) *Fix {
	rng := rp.Expr.Range()
	pairs, diags := hcl.ExprMap(rp.Expr)
	if diags.HasErrors() {
		return nil
	}
	item := fmt.Sprintf("source = %q", "hashicorp/"+rp.Name)
	fix := &Fix{Description: fmt.Sprintf("Insert %s", item)}
	if len(pairs) == 0 {
		fix.Edits = []Edit{{Range: rng, NewText: "{ " + item + " }"}}
		return fix
	}
	first := pairs[0].Key.Range()
	sep := ", "
	if first.Start.Line != rng.Start.Line {
		sep = "\n" + lineIndent(src, first.Start.Byte)
	}
	fix.Edits = []Edit{{Range: insertionAt(rng.Filename, first.Start), NewText: item + sep}}
	return fix
}

// lineIndent returns the blanks that start the line holding offset off.
func lineIndent(src []byte, off int) string {
	start := off
	for start > 0 && src[start-1] != '\n' {
		start--
	}
	end := start
	for end < len(src) && (src[end] == ' ' || src[end] == '\t') {
		end++
	}
	return string(src[start:end])
}
