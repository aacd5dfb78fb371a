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
// planning where a call passes a value that is not (a resource's id, an
// output that reads one). But most are known in every instance: a
// variable no call passes takes its default, a constant, and one every
// call passes a literal, a root module's input or a known output of
// another call is known too. The analysis of a called module takes those
// as known (analysis.knownVars), and of a module the known outputs of the
// modules it calls (analysis.callOutputs), as OpenTofu knows them, so
// that the writer takes the forms of values known while planning for
// what reads them: a conditional on one is the field's if, not a
// selection from a list, and a template of one has no guard. Beyond the
// form, that is what CUE v0.17.1 shares: a list or struct selected from a
// list literal ([if c {a}, if !c {b}][0]) is evaluated again, with all it
// reads, where it is read, so that in a chain of calls of a
// null-label-like module, each passing the one before's context on, each
// call paid again for the calls before it (engine/cue's
// BenchmarkModuleChain: half the time per call at 50 and at 100 calls).

// knownFacts are what knownVariables works out for a tree: by module
// directory, the variables known while planning in every instance of the
// module (vars), those pure in every instance (pure, see pureVar), and
// the outputs whose values are known then wherever those are (outputs).
type knownFacts struct {
	tree                *config.Tree
	vars, pure, outputs map[string]map[string]bool
	// shapes are, by module directory and variable, what every call's
	// argument tells of the value's shape (meetValues of argumentFacts');
	// a variable a call leaves out has a known value there, its default.
	shapes map[string]map[string]*argShape
}

func newKnownFacts(tree *config.Tree) *knownFacts {
	return &knownFacts{tree: tree, vars: map[string]map[string]bool{}, pure: map[string]map[string]bool{}, outputs: map[string]map[string]bool{}, shapes: map[string]map[string]*argShape{}}
}

// moduleFacts are the facts of knownVariables about one module: its
// variables known, pure, and their shapes, in every instance, and by
// call, the outputs known of the module each of its calls calls.
type moduleFacts struct {
	known, pure map[string]bool
	shapes      map[string]*argShape
	callOutputs map[string]map[string]bool
}

// knownVariables works out, for each module the tree calls, by its
// directory, the variables known while planning in each of its instances:
// those that every call of it leaves out or passes a value known while
// planning, by the calling module's analysis with the variables known to
// it in turn; and for each module the outputs known while planning, those
// whose expressions are known with the module's known variables and the
// known outputs of the modules it calls. It starts from every variable
// and output known and takes away, round after round, what the analysis
// shows may not be, until a round takes nothing away: the largest
// consistent answer. A module's template serves all its calls, so in a
// chain of calls of one module, each passing the one before's output on,
// the module's variable depends on its own output, and starting from none
// known would never know it. Taking it as known is sound because the
// instances' values do not depend on each other in a loop (OpenTofu
// rejects a cycle): in their order, each instance's value is known where
// the analysis says so of the values it reads. A call whose
// arguments are not written as native syntax (a JSON module, an escaping
// "_" block merged in) makes each of its module's variables not known.
// Pure variables are worked out the same way, in the same rounds: every
// variable pure at first, and taken away where a call passes a value
// that is not pure with what the calling module's round takes as pure.
func knownVariables(tree *config.Tree) *knownFacts {
	k := newKnownFacts(tree)
	if tree == nil || tree.Root == nil {
		return k
	}
	dirs := slices.Sorted(maps.Keys(tree.Modules))
	for _, dir := range dirs {
		if m := tree.Modules[dir]; m != nil {
			k.vars[filepath.Clean(m.Dir)] = setOf(maps.Keys(m.Variables))
			k.pure[filepath.Clean(m.Dir)] = setOf(maps.Keys(m.Variables))
			k.outputs[filepath.Clean(m.Dir)] = setOf(maps.Keys(m.Outputs))
		}
	}
	for round := 0; ; round++ {
		if round > maxKnownRounds {
			// Not settled: nothing is taken as known.
			return &knownFacts{tree: tree}
		}
		next := newKnownFacts(tree)
		called := map[string]bool{}
		for _, dir := range dirs {
			m := tree.Modules[dir]
			if m == nil {
				continue
			}
			a := newView(m, m != tree.Root)
			a.knowing(k.of(m))
			for _, name := range slices.Sorted(maps.Keys(m.ModuleCalls)) {
				mc := m.ModuleCalls[name]
				child := tree.Child(mc)
				if child == nil || child.Module == nil {
					continue
				}
				key := filepath.Clean(child.Module.Dir)
				passed, pure, shapes := a.argumentFacts(mc, child.Module)
				if !called[key] {
					called[key] = true
					next.vars[key], next.pure[key], next.shapes[key] = passed, pure, shapes
					continue
				}
				maps.DeleteFunc(next.vars[key], func(v string, _ bool) bool { return !passed[v] })
				maps.DeleteFunc(next.pure[key], func(v string, _ bool) bool { return !pure[v] })
				for v, s := range next.shapes[key] {
					next.shapes[key][v] = meetValues(s, shapes[v])
				}
			}
			outs := map[string]bool{}
			for name, o := range m.Outputs {
				if e, ok := o.Expr.(hclsyntax.Expression); ok && !a.mayBeUnknown(noNames{}, e) {
					outs[name] = true
				}
			}
			next.outputs[filepath.Clean(m.Dir)] = outs
		}
		settled := sameKnown(k.vars, next.vars) && sameKnown(k.pure, next.pure) && sameKnown(k.outputs, next.outputs)
		// The shapes are those of the round whose facts settled: they
		// follow from the facts, and take nothing away from them.
		k = next
		if settled {
			break
		}
	}
	return k
}

// maxKnownRounds bounds knownVariables' rounds; each takes away at least
// one fact, and real trees settle in a few.
const maxKnownRounds = 64

func setOf(keys func(func(string) bool)) map[string]bool {
	set := map[string]bool{}
	for k := range keys {
		set[k] = true
	}
	return set
}

// of is what the analysis of m takes as known (see moduleFacts).
func (k *knownFacts) of(m *config.Module) moduleFacts {
	if k == nil || k.tree == nil {
		return moduleFacts{}
	}
	callOutputs := map[string]map[string]bool{}
	for name, mc := range m.ModuleCalls {
		if child := k.tree.Child(mc); child != nil && child.Module != nil {
			callOutputs[name] = k.outputs[filepath.Clean(child.Module.Dir)]
		}
	}
	dir := filepath.Clean(m.Dir)
	return moduleFacts{known: k.vars[dir], pure: k.pure[dir], shapes: k.shapes[dir], callOutputs: callOutputs}
}

// argumentFacts are what call mc gives child's variables, in a's view of
// the calling module: the variables it gives a value known while
// planning (known) or a pure one (pure), a variable it leaves out taking
// its default, which is both; and the shape of each value (shapes, see
// argShape): its argument's expression's, or a known value's.
func (a *analysis) argumentFacts(mc *config.ModuleCall, child *config.Module) (known, pure map[string]bool, shapes map[string]*argShape) {
	known, pure, shapes = map[string]bool{}, map[string]bool{}, map[string]*argShape{}
	body, ok := mc.Config.(*hclsyntax.Body)
	if !ok {
		return known, pure, shapes
	}
	each := nameFacts{
		known: mc.ForEach == nil || a.knownIn(noNames{}, mc.ForEach),
		pure:  mc.ForEach == nil || a.pureIn(noNames{}, mc.ForEach),
	}
	in := within{noNames{}, map[string]nameFacts{"each": each}}
	isKnown := func(e hclsyntax.Expression) bool { return !a.mayBeUnknown(in, e) }
	for name := range child.Variables {
		arg := body.Attributes[name]
		if arg == nil {
			known[name], pure[name], shapes[name] = true, true, knownShape()
			continue
		}
		if isKnown(arg.Expr) {
			known[name] = true
		}
		if a.pureIn(in, arg.Expr) {
			pure[name] = true
		}
		shapes[name] = shapeWith(arg.Expr, isKnown, meetValues)
	}
	return known, pure, shapes
}

// sameKnown reports whether two rounds of knownVariables agree.
func sameKnown(a, b map[string]map[string]bool) bool {
	return maps.EqualFunc(a, b, maps.Equal)
}

// key is the part of m's template's cache key that the tree decides: its
// known and pure variables, and the known outputs of the modules it
// calls, sorted and joined.
func (k *knownFacts) key(m *config.Module) string {
	f := k.of(m)
	parts := []string{strings.Join(slices.Sorted(maps.Keys(f.known)), ","), strings.Join(slices.Sorted(maps.Keys(f.pure)), ",")}
	for _, name := range slices.Sorted(maps.Keys(f.shapes)) {
		parts = append(parts, name+"="+f.shapes[name].key())
	}
	for _, name := range slices.Sorted(maps.Keys(f.callOutputs)) {
		parts = append(parts, name+":"+strings.Join(slices.Sorted(maps.Keys(f.callOutputs[name])), ","))
	}
	return strings.Join(parts, ";")
}
