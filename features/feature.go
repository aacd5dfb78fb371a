package features

import "fmt"

// State is how a feature can be enabled, if at all.
type State int

const (
	// Experiment features are enabled only by naming them in an
	// experiments list.
	Experiment State = iota + 1
	// Selectable features are enabled by declaring at least one block of
	// their type, or by a language edition that includes them.
	Selectable
	// Removed features cannot be enabled; naming them is an error that
	// carries their conclusion.
	Removed
)

func (s State) String() string {
	switch s {
	case Experiment:
		return "experiment"
	case Selectable:
		return "selectable"
	case Removed:
		return "removed"
	}
	return fmt.Sprintf("State(%d)", int(s))
}

// Feature is one opt-in language feature. Features are compared by Name.
type Feature struct {
	// Name is the keyword that names the feature in experiments lists.
	Name  string
	State State
	// Block is the top-level block type that the feature adds, or "" when
	// it adds none. For a Selectable feature, one such block opts the
	// module in.
	Block string
	// Symbol is the reference prefix that the feature adds (Symbol.name
	// refers to the Block "name" block), or "" when it adds none. A
	// feature with a symbol must have a block.
	Symbol string
	// Noun is what one of the feature's blocks is called in messages, as in
	// "Reference to undefined symbol library". It defaults to Block.
	Noun string
	// Doc is a one-line description, for listings.
	Doc string
	// Conclusion is what happened to a feature that was an experiment
	// before: for a Removed feature, why it is gone and what to use
	// instead (required); for a Selectable feature, anything to add to the
	// generated explanation of the block opt-in (optional).
	Conclusion string
}

// String returns the feature's keyword.
func (f Feature) String() string { return f.Name }

// BlockNoun is the word for one of the feature's blocks in messages: Noun,
// or the block type.
func (f Feature) BlockNoun() string {
	if f.Noun != "" {
		return f.Noun
	}
	return f.Block
}

// Edition is a language edition: a keyword that a language block names and
// the features it enables.
type Edition struct {
	Name string
	// Features are the names of the features the edition enables. They must
	// be Selectable features of the same registry.
	Features []string
}

// registered lists the features this toolchain knows, in the order they are
// listed to users. Adding a feature is adding a value here.
var registered = []Feature{
	{
		Name:   "symbols",
		State:  Selectable,
		Block:  "symbols",
		Symbol: "symbols",
		Noun:   "symbol library",
		Doc:    "Symbol libraries: named values loaded from a symbols file, referred to as symbols.NAME.",
	},
	{
		Name:   "middleware",
		State:  Selectable,
		Block:  "middleware",
		Symbol: "middleware",
		Doc:    "Middleware: external programs called over JSON-RPC at plan and apply, referred to as middleware.NAME.",
	},
	{
		Name:   "interface",
		State:  Experiment,
		Block:  "interface",
		Symbol: "interface",
		Doc:    "Interfaces for environments: typed contracts that a module declares, referred to as interface.NAME.",
	},
	// The experiments of OpenTofu's predecessor that concluded before the
	// fork. Modules written for it still name them; they are part of the
	// language now and need no opt-in.
	{
		Name:       "variable_validation",
		State:      Removed,
		Doc:        "Custom validation rules for input variables.",
		Conclusion: "Validation blocks in variable declarations are part of the language and need no opt-in. Remove this keyword.",
	},
	{
		Name:       "module_variable_optional_attrs",
		State:      Removed,
		Doc:        "Optional object attributes in type constraints.",
		Conclusion: "The optional() modifier in object type constraints is part of the language in every OpenTofu release (and in its predecessor since v1.3), in a different form from the experiment: it takes an optional default as its second argument. Remove this keyword.",
	},
	{
		Name:       "provider_sensitive_attrs",
		State:      Removed,
		Doc:        "Redaction of attributes that providers mark sensitive.",
		Conclusion: "Attributes that a provider marks as sensitive are always redacted. Remove this keyword.",
	},
	{
		Name:       "config_driven_move",
		State:      Removed,
		Doc:        "moved blocks for refactoring.",
		Conclusion: "moved blocks are part of the language and need no opt-in. Remove this keyword.",
	},
	{
		Name:       "preconditions_postconditions",
		State:      Removed,
		Doc:        "Custom conditions in lifecycle blocks and outputs.",
		Conclusion: "precondition and postcondition blocks are part of the language and need no opt-in. Remove this keyword.",
	},
}

// editions lists the language editions this toolchain knows, the default
// first. OpenTofu has one edition; its features are the baseline language.
var editions = []Edition{
	{Name: "tofu2024"},
}

// Default is the registry of the features and editions this toolchain knows.
var Default = MustRegistry(registered, editions)
