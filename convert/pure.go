package convert

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/tofucue/tofucue/refs"
)

// Pure values are those the engine sets before it evaluates anything: a
// root module's inputs, path and terraform values, count.index, and what
// is computed from them alone. They are never a field that is not there
// yet (a resource's, data source's or module's value is, while the
// engine has not given its shape), so an expression of pure values is
// complete in every evaluation but where it is a type, as a function's
// result not known while planning is. The writer takes forms for them
// that CUE v0.17.1 gets wrong where a part is incomplete (see
// embedConditionals).
//
// A called module's variable is its callers' argument: pure where every
// call leaves it out (its default, a constant) or passes a pure value,
// in the calling module's view with its own pure variables in turn
// (knownVariables works both out together). A module call's each is
// pure where its for_each is; its count.index is.

// pureVar reports whether the module's variable name is pure: a root
// module's input, or a called module's variable that every call leaves
// out or passes a pure value (pureVars).
func (a *analysis) pureVar(name string) bool {
	return !a.called || a.pureVars[name]
}

// pureRef reports whether t, a reference that no name bound where it is
// read reaches, reads a pure value.
func (a *analysis) pureRef(t hcl.Traversal) bool {
	switch s := subjectOf(t, a.m).(type) {
	case refs.InputVariable:
		return a.pureVar(s.Name)
	case refs.PathAttr, refs.TerraformAttr:
		return true
	case refs.CountAttr:
		return s.Name == "index"
	case refs.LocalValue:
		return a.pureLocal(s.Name)
	}
	// A resource, data source, module output, self, each outside a
	// block that sets it.
	return false
}

// pureIn reports whether e, read where in binds names, reads pure
// values alone; a bound name is pure where its facts say so.
func (a *analysis) pureIn(in names, e hcl.Expression) bool {
	for _, t := range e.Variables() {
		if f, ok := in.facts(t.RootName()); ok {
			if !f.pure {
				return false
			}
			continue
		}
		if !a.pureRef(t) {
			return false
		}
	}
	return true
}

// pureLocal is pureIn of local value name's definition, worked out once
// per module (false while it is being worked out: a cycle is not pure).
func (a *analysis) pureLocal(name string) bool {
	if p, ok := a.localsPure[name]; ok {
		return p
	}
	l := a.m.Locals[name]
	if l == nil {
		return false
	}
	a.localsPure[name] = false
	p := a.pureIn(noNames{}, l.Expr)
	a.localsPure[name] = p
	return p
}
