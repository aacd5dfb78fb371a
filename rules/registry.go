package rules

import (
	"slices"

	"github.com/agext/levenshtein"
)

// registered lists every rule, in the order --list-rules shows them. Adding
// a rule is adding its value here.
var registered = []*Rule{
	SymbolReference,
	FutureSymbolConflict,
	FeatureOptIn,
}

// All returns every rule, in registry order.
func All() []*Rule { return slices.Clone(registered) }

// Lookup returns the rule with the given name, or nil.
func Lookup(name string) *Rule {
	i := slices.IndexFunc(registered, func(r *Rule) bool { return r.Name == name })
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
