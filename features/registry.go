package features

import (
	"errors"
	"fmt"
	"slices"

	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// Registry is a set of features and language editions. Default is the one
// the toolchain uses; tests build their own with NewRegistry.
type Registry struct {
	features []Feature
	editions []Edition
	byName   map[string]Feature
	byBlock  map[string]Feature
	bySymbol map[string]Feature
}

// languageSymbols are the reference prefixes that the language defines
// itself, including the ones OpenTofu reserves for future use. A feature
// cannot take one of them: they are never resource types.
var languageSymbols = []string{
	"var", "local", "module", "data", "ephemeral", "resource", "path",
	"terraform", "tofu", "count", "each", "self", "template", "lazy", "arg",
}

// languageBlocks are the top-level block types that the language defines
// itself. middleware is not among them: the middleware feature adds it.
var languageBlocks = []string{
	"terraform", "language", "variable", "locals", "output", "module",
	"resource", "data", "ephemeral", "provider", "moved", "import",
	"removed", "check",
}

// NewRegistry checks and indexes a list of features and editions. The first
// edition is the default one. It reports every inconsistency it finds.
func NewRegistry(features []Feature, editions []Edition) (*Registry, error) {
	r := &Registry{
		features: slices.Clone(features),
		editions: slices.Clone(editions),
		byName:   map[string]Feature{},
		byBlock:  map[string]Feature{},
		bySymbol: map[string]Feature{},
	}
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }

	for _, f := range features {
		if !hclsyntax.ValidIdentifier(f.Name) {
			bad("feature %q: the name must be a valid identifier", f.Name)
		}
		if _, dup := r.byName[f.Name]; dup {
			bad("feature %q is registered twice", f.Name)
		}
		r.byName[f.Name] = f
		switch f.State {
		case Experiment, Selectable:
		case Removed:
			if f.Conclusion == "" {
				bad("removed feature %q needs a conclusion message", f.Name)
			}
			if f.Block != "" || f.Symbol != "" {
				bad("removed feature %q cannot keep a block or a symbol", f.Name)
			}
		default:
			bad("feature %q has no state", f.Name)
		}
		if f.Symbol != "" && f.Block == "" {
			bad("feature %q has symbol %q but no block for it to refer to", f.Name, f.Symbol)
		}
		claim := func(kind, key string, language []string, into map[string]Feature) {
			if key == "" {
				return
			}
			if slices.Contains(language, key) {
				bad("feature %q: %q is a %s of the language itself", f.Name, key, kind)
			}
			if prev, dup := into[key]; dup {
				bad("features %q and %q both add %s %q", prev.Name, f.Name, kind, key)
			}
			into[key] = f
		}
		claim("block type", f.Block, languageBlocks, r.byBlock)
		claim("symbol", f.Symbol, languageSymbols, r.bySymbol)
	}

	if len(editions) == 0 {
		bad("a registry needs at least one edition, the default")
	}
	seen := map[string]bool{}
	for _, e := range editions {
		if !hclsyntax.ValidIdentifier(e.Name) {
			bad("edition %q: the name must be a valid identifier", e.Name)
		}
		if seen[e.Name] {
			bad("edition %q is registered twice", e.Name)
		}
		seen[e.Name] = true
		for _, name := range e.Features {
			f, ok := r.byName[name]
			switch {
			case !ok:
				bad("edition %q names unknown feature %q", e.Name, name)
			case f.State != Selectable:
				bad("edition %q names %s feature %q; editions pack selectable features only", e.Name, f.State, name)
			}
		}
	}
	return r, errors.Join(errs...)
}

// MustRegistry is NewRegistry for registries written in code; it panics on
// an inconsistent registry, which is a programming error.
func MustRegistry(features []Feature, editions []Edition) *Registry {
	r, err := NewRegistry(features, editions)
	if err != nil {
		panic(err)
	}
	return r
}

// Features lists the registered features in registration order.
func (r *Registry) Features() []Feature { return slices.Clone(r.features) }

// Lookup finds a feature by its keyword.
func (r *Registry) Lookup(name string) (Feature, bool) {
	f, ok := r.byName[name]
	return f, ok
}

// ForBlock finds the feature that adds a top-level block type.
func (r *Registry) ForBlock(blockType string) (Feature, bool) {
	f, ok := r.byBlock[blockType]
	return f, ok
}

// ForSymbol finds the feature that adds a reference prefix.
func (r *Registry) ForSymbol(root string) (Feature, bool) {
	f, ok := r.bySymbol[root]
	return f, ok
}

// DefaultEdition is the edition of a module that does not name one.
func (r *Registry) DefaultEdition() Edition { return r.editions[0] }

// Edition finds an edition by its keyword.
func (r *Registry) Edition(name string) (Edition, bool) {
	i := slices.IndexFunc(r.editions, func(e Edition) bool { return e.Name == name })
	if i < 0 {
		return Edition{}, false
	}
	return r.editions[i], true
}
