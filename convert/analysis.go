package convert

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/config"
)

// analysis is what convert knows of a module's expressions without
// writing any CUE: the static type OpenTofu's type check gives each
// (typeOf), its kind (kindOf), whether its value may be unknown while
// planning (mayBeUnknown), whether OpenTofu knows it is not null while it
// is unknown (refinedNotNull), what OpenTofu refuses in it before
// evaluating it (refusal, sensitiveOutput) and whether an error there is
// an answer (tolerated: inside try or can), and what a local value's
// expression gives of each. The writer (converter) chooses its forms by
// these facts and never changes them: the analysis reads the module
// alone, and of the place an expression is written only the names bound
// there, which the caller passes as an argument (names). What it works
// out for a local value or a resource's argument it keeps, worked out
// once in the module's top-level scope, whoever asks first.
type analysis struct {
	m *config.Module
	// called is set for a module that another calls: its variables are
	// the caller's arguments, which may be unknown while planning (the
	// root's inputs are known), but for knownVars.
	called bool
	// knownVars are the variables of a called module that every call
	// leaves out or passes a value known while planning (see
	// knownVariables).
	knownVars map[string]bool
	// pureVars are the variables of a called module that every call
	// leaves out or passes a pure value (see pureVar).
	pureVars map[string]bool
	// varShapes are, for a called module's variables, what every call's
	// argument tells of its value's shape (see argShape and
	// knownVariables): where it is never null, a collection, known.
	varShapes map[string]*argShape
	// callOutputs are, by module call, the outputs of the module it
	// calls whose values are known while planning (see knownVariables).
	callOutputs map[string]map[string]bool

	localKinds map[string]kind
	localTypes map[string]cty.Type
	// localsRefined caches refinedNotNull of locals.
	localsRefined map[string]bool
	// localsPure caches pureLocal.
	localsPure map[string]bool
	// localsUnknown caches localMayBeUnknown.
	localsUnknown map[string]bool
	// argumentsKnown caches configuredKnown, by TYPE.NAME.ATTR.
	argumentsKnown map[string]bool
	// readsData is set on the analysis that takes a data source read
	// while planning as known (see dataKnown), planning; the converter's
	// own takes every data source as not known.
	readsData bool
	// planning is that analysis of the same module (nil on itself).
	planning *analysis
	// dataRead caches dataKnown, by TYPE.NAME.
	dataRead map[string]bool
	// tolerant are the ranges of the arguments of try and can in the
	// module's files (see tolerated), found on first use.
	tolerant []hcl.Range
}

func newAnalysis(m *config.Module, called bool) *analysis {
	a := newView(m, called)
	a.planning = newView(m, called)
	a.planning.readsData = true
	return a
}

// knowing sets, in both views, what the callers of a called module all
// give its variables, and the outputs known while planning of the
// modules its calls call (see knownVariables).
func (a *analysis) knowing(f moduleFacts) {
	for _, v := range []*analysis{a, a.planning} {
		if v != nil {
			v.knownVars, v.pureVars, v.varShapes, v.callOutputs = f.known, f.pure, f.shapes, f.callOutputs
		}
	}
}

func newView(m *config.Module, called bool) *analysis {
	return &analysis{
		m:              m,
		called:         called,
		localKinds:     map[string]kind{},
		localTypes:     map[string]cty.Type{},
		localsRefined:  map[string]bool{},
		localsPure:     map[string]bool{},
		localsUnknown:  map[string]bool{},
		argumentsKnown: map[string]bool{},
		dataRead:       map[string]bool{},
	}
}

// names is what the analysis is told of the names bound where an
// expression is read (a for expression's variables, each, count, a
// dynamic block's iterator, a template's variables): whether a name is
// bound there, and what is known of its value. The analysis binds a for
// expression's own variables in a scope of its own over those it is
// given (within); it never changes the caller's.
type names interface {
	facts(name string) (nameFacts, bool)
}

// nameFacts is what is known of the value a name is bound to.
type nameFacts struct {
	// ty is the type of the value bound (typeOf), NilType where not
	// worked out.
	ty cty.Type
	// known is set where the value bound is known while planning (see
	// mayBeUnknown); each.key is known even where each.value is not.
	known bool
	// pure is set where the value bound is pure (see pureIn).
	pure bool
}

// noNames is the scope of a module's top level, where a local value or a
// resource's argument is read: no name is bound.
type noNames struct{}

func (noNames) facts(string) (nameFacts, bool) { return nameFacts{}, false }

// within is a scope of names bound inside outer.
type within struct {
	outer names
	bound map[string]nameFacts
}

func (w within) facts(name string) (nameFacts, bool) {
	if f, ok := w.bound[name]; ok {
		return f, true
	}
	return w.outer.facts(name)
}

// facts makes the converter's scope the names the analysis reads: what
// each binding says of its value.
func (c *converter) facts(name string) (nameFacts, bool) {
	b, ok := c.lookup(name)
	return b.nameFacts, ok
}

// The writer asks the analysis of an expression where it writes it: with
// the names its scope binds there.

func (c *converter) typeOf(e hcl.Expression) cty.Type { return c.a.typeOf(c, e) }

func (c *converter) refusal(e hclsyntax.Expression) (summary, detail string, ok bool) {
	return c.a.refusal(c, e)
}

func (c *converter) stringList(e hcl.Expression) bool { return c.a.stringList(c, e, 0) }

func (c *converter) kindOf(e hcl.Expression) kind { return c.a.kindOf(c, e) }

func (c *converter) mayBeUnknown(e hclsyntax.Expression) bool { return c.a.mayBeUnknown(c, e) }

func (c *converter) knownIn(src hcl.Expression) bool { return c.a.knownIn(c, src) }

func (c *converter) eachType(forEach hcl.Expression) cty.Type { return c.a.eachType(c, forEach) }
