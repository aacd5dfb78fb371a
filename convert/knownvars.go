package convert

import (
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tofucue/tofucue/config"
)

// A called module's variable is its callers' argument: not known while
// planning where a call passes a value that is not (a resource's id, a
// module's output). But most are known in every instance: a variable no
// call passes takes its default, a constant, and one every call passes a
// literal or a root module's input is known too. The analysis of a
// called module takes those as known (analysis.knownVars), as OpenTofu
// knows them, so that the writer takes the forms of values known while
// planning for what reads them: a conditional on one is the field's if,
// not a selection from a list. Beyond the form, that is what CUE v0.17.1
// shares: a list or struct selected from a list literal
// ([if c {a}, if !c {b}][0]) is evaluated again, with all it reads, where
// it is read, so that in a chain of calls of a null-label-like module,
// each passing the one before's context on, each call paid again for
// the calls before it (engine/cue's BenchmarkModuleChain: a third less
// time per call at 50 calls and at 100).

// knownVariables works out, for each module the tree calls, by its
// directory, the variables known while planning in each of its instances:
// those that every call of it leaves out or passes a value known while
// planning, by the calling module's analysis with the variables known to
// it in turn. It starts from none known in a called module and adds what
// the last round shows, until a round adds nothing: a variable is taken
// as known only once what every call passes is. A call whose arguments
// are not written as native syntax (a JSON module, an escaping "_" block
// merged in) makes each of its module's variables not known.
func knownVariables(tree *config.Tree) map[string]map[string]bool {
	if tree == nil || tree.Root == nil {
		return nil
	}
	known := map[string]map[string]bool{}
	dirs := slices.Sorted(maps.Keys(tree.Modules))
	for round := 0; round <= len(dirs); round++ {
		next := map[string]map[string]bool{}
		called := map[string]bool{}
		for _, dir := range dirs {
			m := tree.Modules[dir]
			if m == nil {
				continue
			}
			a := newView(m, m != tree.Root)
			a.knownVars = known[filepath.Clean(m.Dir)]
			for _, name := range slices.Sorted(maps.Keys(m.ModuleCalls)) {
				mc := m.ModuleCalls[name]
				child := tree.Child(mc)
				if child == nil || child.Module == nil {
					continue
				}
				key := filepath.Clean(child.Module.Dir)
				passed := a.knownArguments(mc, child.Module)
				if !called[key] {
					called[key] = true
					next[key] = passed
					continue
				}
				for v := range next[key] {
					if !passed[v] {
						delete(next[key], v)
					}
				}
			}
		}
		if sameKnown(known, next) {
			break
		}
		known = next
	}
	return known
}

// knownArguments is the set of child's variables that call mc gives a
// value known while planning, in a's view of the calling module.
func (a *analysis) knownArguments(mc *config.ModuleCall, child *config.Module) map[string]bool {
	out := map[string]bool{}
	body, ok := mc.Config.(*hclsyntax.Body)
	if !ok {
		return out
	}
	eachKnown := mc.ForEach == nil || a.knownIn(noNames{}, mc.ForEach)
	in := within{noNames{}, map[string]nameFacts{"each": {known: eachKnown}}}
	for name := range child.Variables {
		arg := body.Attributes[name]
		if arg == nil || !a.mayBeUnknown(in, arg.Expr) {
			out[name] = true
		}
	}
	return out
}

// sameKnown reports whether two rounds of knownVariables agree.
func sameKnown(a, b map[string]map[string]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for dir, vars := range a {
		other, ok := b[dir]
		if !ok || len(other) != len(vars) {
			return false
		}
		for v := range vars {
			if !other[v] {
				return false
			}
		}
	}
	return true
}

// knownKey is the variables of vars, sorted and joined: the part of a
// template's cache key that the callers decide.
func knownKey(vars map[string]bool) string {
	return strings.Join(slices.Sorted(maps.Keys(vars)), ",")
}
