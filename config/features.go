package config

import (
	"slices"

	"github.com/hashicorp/hcl/v2"

	"github.com/tofucue/tofucue/features"
)

// FeatureBlock is a top-level block of an opt-in feature's type, such as
// symbols "serverless" { source = "..." }. The feature defines what its body
// holds, so the body is kept as written. middleware blocks are also decoded
// into Module.Middleware.
type FeatureBlock struct {
	declBase
	Feature features.Feature
	Name    string
	Body    hcl.Body
}

// registry is the feature registry the options select.
func (o *Options) registry() *features.Registry {
	if o.Features != nil {
		return o.Features
	}
	return features.Default
}

// topLevelSchemaFor is the schema of a configuration file: the language's
// block types and one block type, with a name label, for each feature that
// adds one.
func topLevelSchemaFor(reg *features.Registry) *hcl.BodySchema {
	schema := &hcl.BodySchema{Blocks: slices.Clone(topLevelSchema.Blocks)}
	for _, f := range reg.Features() {
		if f.Block != "" {
			schema.Blocks = append(schema.Blocks, hcl.BlockHeaderSchema{Type: f.Block, LabelNames: []string{"name"}})
		}
	}
	return schema
}

func (d *decoder) decodeFeatureBlock(f features.Feature, block *hcl.Block) *FeatureBlock {
	fb := &FeatureBlock{declBase: baseOf(block), Feature: f, Name: block.Labels[0], Body: block.Body}
	d.checkName(fb.Name, block.LabelRanges[0], "Invalid "+f.Block+" block name")
	return fb
}

// addFeatureBlocks adds the feature blocks of a primary file to the module.
// A middleware block's duplicate is reported by the middleware decoding.
func addFeatureBlocks(d *decoder, m *Module, blocks []*FeatureBlock) {
	for _, fb := range blocks {
		byName := m.FeatureBlocks[fb.Feature.Block]
		if byName == nil {
			byName = map[string]*FeatureBlock{}
			m.FeatureBlocks[fb.Feature.Block] = byName
		}
		if prev, dup := byName[fb.Name]; dup {
			if fb.Feature.Block != "middleware" {
				d.errorf(fb.Decl, "Duplicate "+fb.Feature.Block+" block",
					"A %s block named %q was already defined at %s. The names of %s blocks must be unique within a module.", fb.Feature.Block, fb.Name, prev.Decl, fb.Feature.Block)
			}
			continue
		}
		byName[fb.Name] = fb
	}
}

// mergeFeatureBlocks applies the feature blocks of an override file: the
// override's arguments and nested block types replace the base block's.
func mergeFeatureBlocks(d *decoder, m *Module, blocks []*FeatureBlock) {
	for _, fb := range blocks {
		base, ok := m.FeatureBlocks[fb.Feature.Block][fb.Name]
		if !ok {
			if fb.Feature.Block != "middleware" { // reported by the middleware merge
				d.errorf(fb.Decl, "Missing base "+fb.Feature.Block+" block to override",
					"There is no %s block named %q. An override file can only override a %s block that was already defined in a primary configuration file.", fb.Feature.Block, fb.Name, fb.Feature.Block)
			}
			continue
		}
		base.Body = &mergedBody{base: base.Body, over: fb.Body}
	}
}

// resolveFeatures decides the module's features from its experiments lists,
// its edition and its feature blocks, and reports what is wrong with them.
func (l *loader) resolveFeatures() {
	m := l.mod
	decls := features.Declarations{LanguageVersion: LanguageVersion}
	decls.Experiments = append(decls.Experiments, m.Terraform.Experiments...)
	if m.Language != nil {
		decls.Experiments = append(decls.Experiments, m.Language.Experiments...)
		decls.Edition = m.Language.Edition
	}
	var blocks []*FeatureBlock
	for _, byName := range m.FeatureBlocks {
		for _, fb := range byName {
			blocks = append(blocks, fb)
		}
	}
	slices.SortFunc(blocks, func(a, b *FeatureBlock) int { return compareRanges(a.Decl, b.Decl) })
	for _, fb := range blocks {
		decls.Blocks = append(decls.Blocks, features.Block{Type: fb.Feature.Block, Name: fb.Name, Range: fb.Decl})
	}
	var diags hcl.Diagnostics
	m.active, diags = m.registry.Resolve(decls)
	l.report(diags...)
}

// Registry is the feature registry the module was loaded with.
func (m *Module) Registry() *features.Registry {
	if m.registry == nil {
		return features.Default
	}
	return m.registry
}

// ActiveFeatures returns the features the module has enabled, each with the
// reasons it is enabled: an experiment keyword, a block of its type, or the
// module's language edition.
func (m *Module) ActiveFeatures() features.Set { return m.active }

// FeatureEnabled reports whether the module has opted in to a feature. With
// HasAnyManagedResourceOfType and HasManagedResource it makes the module a
// reference-parsing context (refs.ParseRefContext).
func (m *Module) FeatureEnabled(f features.Feature) bool { return m.active.Enabled(f) }

// FeatureBlock returns the block of a feature's type with the given name.
func (m *Module) FeatureBlock(blockType, name string) (*FeatureBlock, bool) {
	fb, ok := m.FeatureBlocks[blockType][name]
	return fb, ok
}
