package hcl

import (
	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/engine/configjson"
	"github.com/tofucue/tofucue/engine/mock"
	"github.com/tofucue/tofucue/engine/plan"
)

// Configuration is the tree as the JSON plan's "configuration" block
// describes it, with the resource schemas that schemas give (nil: none).
func Configuration(t *Tree, schemas *mock.Schemas) *configjson.Configuration {
	return configjson.Build(t.Root, childOf(t), schemas)
}

// RelevantAttributes are the resource attributes that the changes of p,
// a plan of the tree, read: the JSON plan's "relevant_attributes".
func RelevantAttributes(t *Tree, p *plan.Plan, schemas *mock.Schemas) []configjson.ResourceAttr {
	return configjson.RelevantAttributes(t.Root, childOf(t), schemas, p.ChangedObjects())
}

// childOf looks up the loaded module of a call in t, local, installed or
// mapped: nil for one not available or that did not load.
func childOf(t *Tree) func(*config.Module, *config.ModuleCall) *config.Module {
	return func(_ *config.Module, call *config.ModuleCall) *config.Module {
		if c := t.Child(call); c != nil {
			return c.Module
		}
		return nil
	}
}
