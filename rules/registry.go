package rules

import (
	"slices"

	"github.com/agext/levenshtein"
	"github.com/hashicorp/hcl/v2"
)

// registered lists every rule, in the order --list-rules shows them: the
// groups of the issue that designed them, each in its own list. Adding a
// rule is adding its value to its group.
var registered = slices.Concat(featureRules, typeConstraintRules, referenceRules, middlewareRules, terraformRuleset)

// featureRules are the rules of the opt-in reference symbols RFC.
var featureRules = []*Rule{SymbolReference, FutureSymbolConflict, FeatureOptIn}

// typeConstraintRules check variable type constraints and defaults.
var typeConstraintRules = []*Rule{AnyTypeInspected, LegacyCollectionType, VariableDefaultType, OptionalDefaultType, LossyDefaultConversion, VariableTypeMissing}

// referenceRules check references and legacy expression syntax.
var referenceRules = []*Rule{UndefinedReference, ContextReference, UnusedDeclaration, DeprecatedInterpolation, DeprecatedIndex}

// terraformRuleset are the rules of TFLint's bundled terraform ruleset (issue 36).
var terraformRuleset = []*Rule{CommentSyntax, DocumentedOutputs, DocumentedVariables, EmptyListEquality, DeprecatedLookup, MapDuplicateKeys, RequiredVersion, ModuleVersion, ModulePinnedSource, ModuleShallowClone, RequiredProviders, UnusedRequiredProviders, WorkspaceRemote, StandardModuleStructure, JSONSyntax, NamingConvention}

// middlewareRules check middleware blocks and the lists that attach them.
var middlewareRules = []*Rule{MiddlewareBlock, MiddlewareReference, MiddlewareAttachedTwice, MiddlewareMetadataKey}

// Claimed reports whether a registered rule claims the loader diagnostic
// d (Rule.Claims), whether or not that rule is selected.
func Claimed(d *hcl.Diagnostic) bool {
	for _, r := range registered {
		if r.Claims != nil && r.Claims(d) {
			return true
		}
	}
	return false
}

// All returns every rule, in registry order.
func All() []*Rule { return slices.Clone(registered) }

// Lookup returns the rule with the given name, or with the given TFLint
// name (Rule.TFLint), or nil.
func Lookup(name string) *Rule {
	i := slices.IndexFunc(registered, func(r *Rule) bool { return r.Name == name || r.TFLint != "" && r.TFLint == name })
	if i < 0 {
		return nil
	}
	return registered[i]
}

// closest returns the rule name nearest to a misspelled one, or "".
func closest(name string) string {
	best, bestDist := "", 4
	for _, r := range registered {
		if d := levenshtein.Distance(name, r.Name, nil); d < bestDist {
			best, bestDist = r.Name, d
		}
	}
	return best
}
