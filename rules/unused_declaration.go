package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/refs"
)

// UnusedDeclaration is the rule unused_declaration.
var UnusedDeclaration = &Rule{
	Name:   "unused_declaration",
	TFLint: "terraform_unused_declarations",
	Doc: `Reports input variables, local values and data sources that nothing in
the module refers to. Every expression of the module counts, override files
and check, import, backend and encryption blocks included, but a variable
referred to only in its own validation blocks, a local value only in its own
definition and a data source only inside its own block are unused. Uses are
not followed further: a local value that only an unused local value refers
to is reported once that one is gone. A data source with preconditions or
postconditions is left alone, since its conditions are checks that run
whether or not it is read; one referred to only by depends_on is used.
Variables are reported in root and child modules alike: a value set for an
unused variable goes nowhere. A provider configuration with an alias is
unused when no resource, data source, import or module call's providers
names it, as TFLint's terraform_unused_declarations reports. Tests
(.tftest.hcl files) are not read. The option kinds chooses which of
variable, local, data and provider are reported.

Bad:

    variable "unused" {}
    locals { unused = 1 }
    data "aws_region" "unused" {}
    provider "aws" {
      alias  = "unused"
      region = "eu-west-1"
    }

Good:

    variable "region" {}
    provider "aws" { region = var.region }`,
	Severity: Warning,
	Enabled:  true,
	Check:    checkUnusedDeclarations,
	Options: []Option{{
		Name:    "kinds",
		Doc:     `The kinds of declaration to report: "variable", "local", "data" and "provider" (aliased provider configurations; all four by default); a module whose variables are shared with others by a common file may leave out "variable".`,
		Type:    cty.Set(cty.String),
		Default: cty.SetVal([]cty.Value{cty.StringVal("variable"), cty.StringVal("local"), cty.StringVal("data"), cty.StringVal("provider")}),
		Validate: func(v cty.Value) error {
			for _, k := range v.AsValueSlice() {
				if !slices.Contains(declarationKinds, k.AsString()) {
					return fmt.Errorf("%q is not a kind of declaration; want %s", k.AsString(), strings.Join(declarationKinds, ", "))
				}
			}
			return nil
		},
	}},
}

// declarationKinds are the values of unused_declaration's kinds option.
var declarationKinds = []string{"variable", "local", "data", "provider"}

// reports tells whether the pass's kinds option includes kind.
func reports(p *Pass, kind string) bool {
	return p.Option("kinds").HasElement(cty.StringVal(kind)).True()
}

func checkUnusedDeclarations(p *Pass) {
	m := p.Module
	usedVars, usedLocals, usedData := map[string]bool{}, map[string]bool{}, map[string]bool{}
	selfChecked := map[string]bool{} // variables that their own validation refers to
	for _, u := range append(staticUses(m), p.References...) {
		switch s := u.Subject.(type) {
		case refs.InputVariable:
			if u.In == fmt.Sprintf("variable %q", s.Name) {
				selfChecked[s.Name] = true
			} else {
				usedVars[s.Name] = true
			}
		case refs.LocalValue:
			if l, ok := m.Locals[s.Name]; !ok || !rangeWithin(l.Range, u.Range) {
				usedLocals[s.Name] = true
			}
		case refs.Resource, refs.ResourceInstance:
			r := resourceOf(u.Reference)
			if r.Mode == config.DataMode && u.In != fmt.Sprintf("data %q %q", r.Type, r.Name) {
				usedData[r.Type+"."+r.Name] = true
			}
		}
	}
	for _, v := range config.InOrder(m.Variables) {
		if !usedVars[v.Name] && reports(p, "variable") {
			except := ""
			if selfChecked[v.Name] {
				except = " except its own validation"
			}
			p.Report(Finding{
				Message: fmt.Sprintf("variable %q is declared but not used", v.Name),
				Detail:  fmt.Sprintf("Nothing in the module refers to var.%s%s, so a value given for it goes nowhere. Remove the declaration, or use the variable.", v.Name, except),
				Range:   labelRange(v.LabelRanges, 0, v.Decl),
			})
		}
	}
	for _, l := range config.InOrder(m.Locals) {
		if !usedLocals[l.Name] && reports(p, "local") {
			p.Report(Finding{
				Message: fmt.Sprintf("local.%s is declared but not used", l.Name),
				Detail:  fmt.Sprintf("Nothing in the module refers to local.%s. Remove it, or use it.", l.Name),
				Range:   l.NameRange,
			})
		}
	}
	if reports(p, "provider") {
		reportUnusedProviderAliases(p)
	}
	for _, r := range config.InOrder(m.DataResources) {
		if usedData[r.Key()] || len(r.Lifecycle.Preconditions) > 0 || len(r.Lifecycle.Postconditions) > 0 || !reports(p, "data") {
			continue
		}
		p.Report(Finding{
			Message: fmt.Sprintf("data %q %q is declared but not used", r.Type, r.Name),
			Detail:  fmt.Sprintf("Nothing in the module refers to data.%s.%s, yet OpenTofu reads it at every plan. Remove it, or use it.", r.Type, r.Name),
			Range:   labelRange(r.LabelRanges, 1, r.Decl),
		})
	}
}

// reportUnusedProviderAliases reports the aliased provider configurations
// that nothing names: no resource, data source (in a check block too),
// import, or module call's providers map.
func reportUnusedProviderAliases(p *Pass) {
	m := p.Module
	used := map[string]bool{}
	add := func(r *config.ProviderRef) {
		if r != nil {
			used[r.String()] = true
		}
	}
	for _, rs := range []map[string]*config.Resource{m.ManagedResources, m.DataResources, m.EphemeralResources} {
		for _, r := range rs {
			add(r.Provider)
		}
	}
	for _, c := range m.Checks {
		if c.DataSource != nil {
			add(c.DataSource.Provider)
		}
	}
	for _, im := range m.Imports {
		add(im.Provider)
	}
	for _, mc := range m.ModuleCalls {
		for i := range mc.Providers {
			add(&mc.Providers[i].InParent)
		}
	}
	for _, pc := range config.InOrder(m.ProviderConfigs) {
		if pc.Alias == "" || used[pc.Key()] {
			continue
		}
		// At the block's header, where TFLint reports it.
		p.Report(Finding{
			Message: fmt.Sprintf("provider %q with alias %q is declared but not used", pc.Name, pc.Alias),
			Detail:  fmt.Sprintf("No resource, data source, import or module call uses %s. Remove the provider block, or use it.", pc.Key()),
			Range:   pc.Decl,
		})
	}
}

// labelRange returns the range of a block's i-th label, or fallback.
func labelRange(ranges []hcl.Range, i int, fallback hcl.Range) hcl.Range {
	if i < len(ranges) {
		return ranges[i]
	}
	return fallback
}
