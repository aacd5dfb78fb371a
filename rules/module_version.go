package rules

import (
	"fmt"
	"regexp"

	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/config"
)

// ModuleVersion is the rule module_version.
var ModuleVersion = &Rule{
	Name:   "module_version",
	TFLint: "terraform_module_version",
	Doc: `Reports a call of a registry module without a version constraint, as
TFLint's terraform_module_version does: without one, every tofu init may
install a newer version, which may change what the module does. With the
option exact, a constraint must name one version ("1.2.3" or "= 1.2.3").
Local, git and other sources have no registry version and are not checked.
The rule is off by default.

Bad:

    module "vpc" {
      source = "terraform-aws-modules/vpc/aws"
    }

Good:

    module "vpc" {
      source  = "terraform-aws-modules/vpc/aws"
      version = "~> 6.0"
    }`,
	Severity: Warning,
	Options: []Option{{
		Name:    "exact",
		Doc:     "Whether a constraint must name exactly one version.",
		Type:    cty.Bool,
		Default: cty.False,
	}},
	Check: func(p *Pass) {
		exact := p.Option("exact").True()
		for _, mc := range config.InOrder(p.Module.ModuleCalls) {
			if mc.SourceAddr == nil || mc.SourceAddr.Kind != config.RegistrySource {
				continue
			}
			switch {
			case mc.VersionExpr == nil:
				p.Report(Finding{
					Message: fmt.Sprintf("module %q should specify a version", mc.Name),
					Detail:  "A registry module without a version constraint installs whatever version is newest at each tofu init. Add version = \"...\".",
					Range:   mc.Decl,
				})
			case !exact || mc.Version == nil:
			case len(mc.Version.Required) > 1:
				p.Report(Finding{
					Message: fmt.Sprintf("module %q should specify an exact version, but multiple constraints were found", mc.Name),
					Detail:  "The option exact asks for one version, such as \"1.2.3\".",
					Range:   mc.VersionExpr.Range(),
				})
			case !exactVersion.MatchString(mc.Version.Required[0].String()):
				p.Report(Finding{
					Message: fmt.Sprintf("module %q should specify an exact version, but a range was found", mc.Name),
					Detail:  "The option exact asks for one version, such as \"1.2.3\".",
					Range:   mc.VersionExpr.Range(),
				})
			}
		}
	},
}

// exactVersion is a constraint that names one version.
var exactVersion = regexp.MustCompile(`^=?\s*v?\d+\.\d+\.\d+\S*$`)
