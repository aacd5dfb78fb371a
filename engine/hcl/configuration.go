package hcl

import (
	"path/filepath"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/engine/configjson"
	"github.com/tofucue/tofucue/engine/mock"
	"github.com/tofucue/tofucue/engine/plan"
)

// Configuration is the tree as the JSON plan's "configuration" block
// describes it, with the resource schemas that schemas give (nil: none).
func (t *Tree) Configuration(schemas *mock.Schemas) *configjson.Configuration {
	return configjson.Build(t.Root, t.Child, schemas)
}

// RelevantAttributes are the resource attributes that the changes of p,
// a plan of the tree, read: the JSON plan's "relevant_attributes".
func (t *Tree) RelevantAttributes(p *plan.Plan, schemas *mock.Schemas) []configjson.ResourceAttr {
	return configjson.RelevantAttributes(t.Root, t.Child, schemas, p.ChangedObjects())
}

// Child is the loaded module that a call in parent names: nil for a call
// whose source is not a local path, or whose module did not load. It looks
// the module up as the planner does (childConfig), without the
// diagnostics.
func (t *Tree) Child(parent *config.Module, call *config.ModuleCall) *config.Module {
	src := call.SourceAddr
	if src == nil || src.Kind != config.LocalSource {
		return nil
	}
	return t.Modules[filepath.Join(parent.Dir, filepath.FromSlash(src.Path))]
}
