package config

import (
	"cmp"
	"maps"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tofucue/tofucue/features"
)

// Module is one loaded module directory, with the override files merged in.
type Module struct {
	// Dir is the directory the module was loaded from, as given to Load.
	Dir string
	// Files holds every parsed configuration file of the module, primary and
	// override, keyed by its path (Dir joined with the file name). Its values
	// give the source bytes that diagnostics and fixes refer to.
	Files map[string]*hcl.File
	// PrimaryPaths and OverridePaths list the files in the order they were
	// loaded.
	PrimaryPaths, OverridePaths []string

	Terraform *Terraform
	Language  *Language

	Variables map[string]*Variable
	Locals    map[string]*Local
	Outputs   map[string]*Output

	ModuleCalls map[string]*ModuleCall

	// ManagedResources, DataResources and EphemeralResources are keyed by
	// "type.name".
	ManagedResources   map[string]*Resource
	DataResources      map[string]*Resource
	EphemeralResources map[string]*Resource

	// ProviderConfigs is keyed by "name" or "name.alias".
	ProviderConfigs map[string]*Provider

	Moved   []*Moved
	Imports []*Import
	Removed []*Removed

	Checks     map[string]*Check
	Middleware map[string]*Middleware

	// FeatureBlocks holds the top-level blocks of opt-in features' types,
	// keyed by block type and then by name. middleware blocks are here too.
	FeatureBlocks map[string]map[string]*FeatureBlock

	registry *features.Registry
	active   features.Set
}

func newModule(dir string) *Module {
	return &Module{
		Dir:                dir,
		Files:              map[string]*hcl.File{},
		Terraform:          &Terraform{RequiredProviders: map[string]*RequiredProvider{}},
		Variables:          map[string]*Variable{},
		Locals:             map[string]*Local{},
		Outputs:            map[string]*Output{},
		ModuleCalls:        map[string]*ModuleCall{},
		ManagedResources:   map[string]*Resource{},
		DataResources:      map[string]*Resource{},
		EphemeralResources: map[string]*Resource{},
		ProviderConfigs:    map[string]*Provider{},
		Checks:             map[string]*Check{},
		Middleware:         map[string]*Middleware{},
		FeatureBlocks:      map[string]map[string]*FeatureBlock{},
	}
}

// HasAnyManagedResourceOfType reports whether the module declares at least one
// resource block of the given type. It is one of the questions that the
// reference parser asks (see the opt-in reference symbols RFC).
func (m *Module) HasAnyManagedResourceOfType(typeName string) bool {
	for _, r := range m.ManagedResources {
		if r.Type == typeName {
			return true
		}
	}
	return false
}

// HasManagedResource reports whether the module declares resource "typ" "name".
func (m *Module) HasManagedResource(typeName, name string) bool {
	_, ok := m.ManagedResources[typeName+"."+name]
	return ok
}

// Resource returns the resource declaration of the given mode, type and name.
func (m *Module) Resource(mode ResourceMode, typeName, name string) *Resource {
	switch mode {
	case ManagedMode:
		return m.ManagedResources[typeName+"."+name]
	case DataMode:
		return m.DataResources[typeName+"."+name]
	case EphemeralMode:
		return m.EphemeralResources[typeName+"."+name]
	}
	return nil
}

// ProviderConfig returns the provider block with the given local name and
// alias ("" for the default configuration).
func (m *Module) ProviderConfig(name, alias string) *Provider {
	return m.ProviderConfigs[providerKey(name, alias)]
}

// BlockCount reports how many top-level blocks of the given type the module
// declares. For block types that the language keeps in maps, that is the
// number of distinct declarations.
func (m *Module) BlockCount(blockType string) int {
	switch blockType {
	case "variable":
		return len(m.Variables)
	case "output":
		return len(m.Outputs)
	case "module":
		return len(m.ModuleCalls)
	case "resource":
		return len(m.ManagedResources)
	case "data":
		return len(m.DataResources)
	case "ephemeral":
		return len(m.EphemeralResources)
	case "provider":
		return len(m.ProviderConfigs)
	case "moved":
		return len(m.Moved)
	case "import":
		return len(m.Imports)
	case "removed":
		return len(m.Removed)
	case "check":
		return len(m.Checks)
	case "middleware":
		return len(m.Middleware)
	}
	return len(m.FeatureBlocks[blockType])
}

// Declaration is what every named top-level declaration has in common.
type Declaration interface {
	// DeclRange is the range of the block header (or of the attribute name,
	// for a local value).
	DeclRange() hcl.Range
}

// InOrder returns the values of a declaration map sorted by where they are
// declared: by file name, then by position. Maps give the lookups; this gives
// the stable order that output and tests need.
func InOrder[T Declaration](m map[string]T) []T {
	vals := slices.Collect(maps.Values(m))
	slices.SortFunc(vals, func(a, b T) int { return compareRanges(a.DeclRange(), b.DeclRange()) })
	return vals
}

func compareRanges(a, b hcl.Range) int {
	return cmp.Or(strings.Compare(a.Filename, b.Filename), cmp.Compare(a.Start.Byte, b.Start.Byte))
}

// declBase holds the ranges that every block declaration keeps.
type declBase struct {
	// Block is the range of the block header: its type and labels.
	Decl hcl.Range
	// TypeRange and LabelRanges are those of the (primary) block.
	TypeRange   hcl.Range
	LabelRanges []hcl.Range
	// Body is the full block, header to closing brace.
	Whole hcl.Range
}

// DeclRange implements [Declaration].
func (d *declBase) DeclRange() hcl.Range { return d.Decl }

func baseOf(b *hcl.Block) declBase {
	d := declBase{Decl: b.DefRange, TypeRange: b.TypeRange, LabelRanges: b.LabelRanges, Whole: b.DefRange}
	if r, ok := blockRange(b); ok {
		d.Whole = r
	}
	return d
}

// blockRange returns the whole range of a block where the syntax tells it.
func blockRange(b *hcl.Block) (hcl.Range, bool) {
	type ranger interface{ Range() hcl.Range }
	if r, ok := b.Body.(ranger); ok {
		return hcl.RangeBetween(b.DefRange, r.Range()), true
	}
	return hcl.Range{}, false
}
