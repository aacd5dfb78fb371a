package rules

import (
	"fmt"
	"strings"
)

// tflintRule is a rule of TFLint's bundled terraform ruleset.
type tflintRule struct {
	name string
	// recommended tells whether the ruleset's "recommended" preset holds
	// it; its "all" preset holds every rule.
	recommended bool
}

// tflintRules are the rules of the terraform ruleset bundled with TFLint
// v0.64.0 (tflint-ruleset-terraform v0.15.0), with their preset
// membership. It is the one place tofulint knows TFLint's names; a
// tofulint rule that finds the same problems names its TFLint rule in
// Rule.TFLint.
var tflintRules = []tflintRule{
	{"terraform_comment_syntax", false},
	{"terraform_deprecated_index", true},
	{"terraform_deprecated_interpolation", true},
	{"terraform_deprecated_lookup", true},
	{"terraform_documented_outputs", false},
	{"terraform_documented_variables", false},
	{"terraform_empty_list_equality", true},
	{"terraform_json_syntax", true},
	{"terraform_map_duplicate_keys", true},
	{"terraform_module_pinned_source", true},
	{"terraform_module_shallow_clone", false},
	{"terraform_module_version", true},
	{"terraform_naming_convention", false},
	{"terraform_required_providers", true},
	{"terraform_required_version", true},
	{"terraform_standard_module_structure", false},
	{"terraform_typed_variables", true},
	{"terraform_unused_declarations", true},
	{"terraform_unused_required_providers", false},
	{"terraform_workspace_remote", true},
}

// tflintPlugins are the prefixes of the rule names of TFLint's provider
// plugins, by plugin.
var tflintPlugins = map[string]string{"aws": "tflint-ruleset-aws", "azurerm": "tflint-ruleset-azurerm", "google": "tflint-ruleset-google"}

// Resolve returns the tofulint name of the rule that name names, by its
// tofulint name or by its TFLint name. A name that is neither is an error
// that says why: a rule of TFLint's terraform ruleset that no tofulint
// rule matches ("no equivalent"), a rule of a TFLint plugin tofulint does
// not have, or an unknown name (with the closest rule name).
func Resolve(name string) (string, error) {
	if r := Lookup(name); r != nil {
		return r.Name, nil
	}
	for _, t := range tflintRules {
		if t.name == name {
			return "", fmt.Errorf("TFLint rule %q has no equivalent in tofulint: no tofulint rule finds what it finds", name)
		}
	}
	if prefix, _, ok := strings.Cut(name, "_"); ok && tflintPlugins[prefix] != "" {
		return "", fmt.Errorf("rule %q belongs to TFLint's %s plugin, which tofulint does not have: tofulint has only rules of the language, no provider's", name, tflintPlugins[prefix])
	}
	return "", unknownRule(name)
}

// TFLintPreset returns the tofulint names of the rules that stand for the
// rules of a preset of TFLint's terraform ruleset ("recommended" or
// "all"), and the TFLint names of that preset that have no equivalent; ok
// is false for another preset.
func TFLintPreset(preset string) (names, missing []string, ok bool) {
	if preset != "recommended" && preset != "all" {
		return nil, nil, false
	}
	for _, t := range tflintRules {
		if preset == "recommended" && !t.recommended {
			continue
		}
		if r := Lookup(t.name); r != nil {
			names = append(names, r.Name)
		} else {
			missing = append(missing, t.name)
		}
	}
	return names, missing, true
}
