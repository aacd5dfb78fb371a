package rules

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tofucue/tofucue/config"
)

// StandardModuleStructure is the rule standard_module_structure.
var StandardModuleStructure = &Rule{
	Name:   "standard_module_structure",
	TFLint: "terraform_standard_module_structure",
	Doc: `Reports a module that departs from the standard module structure, as
TFLint's terraform_standard_module_structure does: a module has a main.tf,
its variables are declared in variables.tf and its outputs in outputs.tf,
so that a reader knows where to look. A module without variables (outputs)
should still have an empty variables.tf (outputs.tf). A module made only
of .tf.json files is not asked for any file, and declarations in .tf.json
files, likely generated, are never asked to move. For OpenTofu's .tofu
files, main.tofu, variables.tofu and outputs.tofu count as well. The
findings about a missing file are at the start of the module's first file
(main.tf or terraform.tf where it has one). The rule is off by default.

Bad:

    # main.tf
    variable "name" { type = string }
    resource "terraform_data" "x" { input = var.name }

Good:

    # variables.tf
    variable "name" { type = string }

    # main.tf
    resource "terraform_data" "x" { input = var.name }

    # outputs.tf (empty)`,
	Severity: Warning,
	Check: func(p *Pass) {
		m := p.Module
		if len(m.Files) == 0 {
			return
		}
		has := map[string]bool{} // "main" for main.tf or main.tofu, ...
		onlyJSON := true
		for name := range m.Files {
			base := filepath.Base(name)
			if stem, ok := strings.CutSuffix(base, ".tf"); ok {
				has[stem] = true
			} else if stem, ok := strings.CutSuffix(base, ".tofu"); ok {
				has[stem] = true
			}
			if filepath.Ext(name) != ".json" {
				onlyJSON = false
			}
		}
		if !onlyJSON {
			at := hcl.Range{Filename: startFile(m.Files), Start: hcl.InitialPos, End: hcl.InitialPos}
			if !has["main"] {
				p.Report(Finding{
					Message: "Module should include a main.tf file as the primary entrypoint",
					Detail:  "A reader looks for a module's resources in main.tf first. Put the primary resources there.",
					Range:   at,
				})
			}
			if !has["variables"] && len(m.Variables) == 0 {
				p.Report(Finding{
					Message: "Module should include an empty variables.tf file",
					Detail:  "A reader looks for the module's inputs in variables.tf; an empty one says there are none.",
					Range:   at,
				})
			}
			if !has["outputs"] && len(m.Outputs) == 0 {
				p.Report(Finding{
					Message: "Module should include an empty outputs.tf file",
					Detail:  "A reader looks for the module's outputs in outputs.tf; an empty one says there are none.",
					Range:   at,
				})
			}
		}
		for _, v := range config.InOrder(m.Variables) {
			misplaced(p, "variable", v.Name, "variables", v.Decl)
		}
		for _, o := range config.InOrder(m.Outputs) {
			misplaced(p, "output", o.Name, "outputs", o.Decl)
		}
	},
}

// misplaced reports the declaration kind "name" at decl unless it is in
// the file stem.tf (stem.tofu for a .tofu file) or in a .json file.
func misplaced(p *Pass, kind, name, stem string, decl hcl.Range) {
	file := filepath.Base(decl.Filename)
	ext := filepath.Ext(file)
	if ext == ".json" || file == stem+ext {
		return
	}
	want := stem + ".tf"
	if ext == ".tofu" {
		want = stem + ".tofu"
	}
	p.Report(Finding{
		Message: fmt.Sprintf("%s %q should be moved from %s to %s", kind, name, file, want),
		Detail:  fmt.Sprintf("The standard module structure declares every %s in %s, where a reader looks for it.", kind, want),
		Range:   decl,
	})
}
