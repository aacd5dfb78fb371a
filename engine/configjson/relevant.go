package configjson

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/dynblock"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/engine/mock"
	"github.com/tofucue/tofucue/refs"
)

// ResourceAttr is one entry of the JSON plan's "relevant_attributes": a
// resource instance and the path of one of its attributes (attribute
// names and index keys; empty for the whole object).
type ResourceAttr struct {
	Resource  string `json:"resource"`
	Attribute []any  `json:"attribute"`
}

// Changes are what a plan changes, the starting points of
// [RelevantAttributes].
type Changes struct {
	// Resources are the absolute addresses of the resource instances that
	// the plan creates or reads: `module.net["a"].aws_subnet.x[0]`.
	Resources []string
	// Modules are the module instances of the plan, `module.net["a"]`,
	// every one of whose outputs changes ("" for the root).
	Modules []string
}

// RelevantAttributes lists the resource attributes that the changes read,
// directly or through variables, locals, module outputs, count and
// for_each, and other resources' arguments, as OpenTofu does to tell
// which changes made outside it matter to a plan: from each changed
// resource instance's arguments and each changed output's expression, it
// follows every reference to what it is made of (an argument of a
// resource, when the reference names one that the configuration sets).
// The list is sorted by resource address, then attribute path.
func RelevantAttributes(root *config.Module, child ChildFunc, schemas *mock.Schemas, changes Changes) []ResourceAttr {
	a := &analyzer{root: root, child: child, schemas: schemas}
	var start []absRef
	for _, addr := range changes.Resources {
		mod, inst, ok := a.parseInstance(addr)
		if !ok {
			continue
		}
		start = append(start, a.resourceRefs(mod, inst, nil)...)
	}
	for _, addr := range changes.Modules {
		mod, ok := parseModuleInstance(addr)
		if !ok {
			continue
		}
		if cfg := a.config(mod); cfg != nil {
			for _, o := range config.InOrder(cfg.Outputs) {
				start = append(start, a.absolute(mod, nil, o.Expr)...)
			}
		}
	}

	found := map[string]absRef{}
	visited := map[string]bool{}
	pending := map[string]absRef{}
	add := func(r absRef) {
		k := r.key()
		if isResource(r.ref.Subject) {
			found[k] = r
		}
		if !visited[k] {
			pending[k] = r
		}
	}
	for _, r := range start {
		add(r)
	}
	for len(pending) > 0 {
		for _, k := range sortedKeys(pending) {
			r := pending[k]
			delete(pending, k)
			visited[k] = true
			for _, more := range a.meta(r) {
				add(more)
			}
		}
	}

	var out []ResourceAttr
	for _, r := range found {
		out = append(out, r.resourceAttr())
	}
	slices.SortFunc(out, func(x, y ResourceAttr) int {
		return cmp.Or(strings.Compare(x.Resource, y.Resource), strings.Compare(fmt.Sprint(x.Attribute...), fmt.Sprint(y.Attribute...)))
	})
	return out
}

func isResource(s refs.Subject) bool {
	switch s.(type) {
	case refs.Resource, refs.ResourceInstance:
		return true
	}
	return false
}

// moduleInstance is the path of a module instance from the root.
type moduleInstance []moduleStep

type moduleStep struct {
	name string
	key  refs.InstanceKey
}

func (m moduleInstance) String() string {
	var b strings.Builder
	for i, s := range m {
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString("module." + s.name + keyString(s.key))
	}
	return b.String()
}

// absRef is a reference and where it is made: the module instance, and
// for count.index and each.*, the resource instance.
type absRef struct {
	mod      moduleInstance
	resource *refs.ResourceInstance
	ref      *refs.Reference
}

func (r absRef) key() string {
	res := ""
	if r.resource != nil {
		res = "/" + subjectString(*r.resource)
	}
	return fmt.Sprintf("%s%s(%T)%s%s", r.mod, res, r.ref.Subject, subjectString(r.ref.Subject), remainderString(r.ref.Remaining))
}

func (r absRef) resourceAttr() ResourceAttr {
	inst := subjectString(r.ref.Subject)
	if mod := r.mod.String(); mod != "" {
		inst = mod + "." + inst
	}
	attr := []any{}
	for _, step := range r.ref.Remaining {
		switch s := step.(type) {
		case hcl.TraverseAttr:
			attr = append(attr, s.Name)
		case hcl.TraverseIndex:
			switch {
			case !s.Key.IsKnown() || s.Key.IsNull():
				attr = append(attr, nil)
			case s.Key.Type() == cty.String:
				attr = append(attr, s.Key.AsString())
			case s.Key.Type() == cty.Number:
				attr = append(attr, json.Number(s.Key.AsBigFloat().Text('f', -1)))
			default:
				attr = append(attr, nil)
			}
		}
	}
	return ResourceAttr{Resource: inst, Attribute: attr}
}

type analyzer struct {
	root    *config.Module
	child   ChildFunc
	schemas *mock.Schemas
}

// config is the module of a module instance; nil when it is not loaded.
func (a *analyzer) config(mod moduleInstance) *config.Module {
	cfg := a.root
	for _, s := range mod {
		call := cfg.ModuleCalls[s.name]
		if call == nil || a.child == nil {
			return nil
		}
		if cfg = a.child(cfg, call); cfg == nil {
			return nil
		}
	}
	return cfg
}

// absolute reads the references of expr, made in mod (in resource, for
// count and each).
func (a *analyzer) absolute(mod moduleInstance, resource *refs.ResourceInstance, exprs ...hcl.Expression) []absRef {
	cfg := a.config(mod)
	if cfg == nil {
		return nil
	}
	var out []absRef
	for _, e := range exprs {
		if e == nil {
			continue
		}
		out = append(out, a.absoluteTraversals(cfg, mod, resource, e.Variables())...)
	}
	return out
}

func (a *analyzer) absoluteTraversals(cfg *config.Module, mod moduleInstance, resource *refs.ResourceInstance, trs []hcl.Traversal) []absRef {
	var out []absRef
	for _, tr := range trs {
		ref, diags := refs.Parse(tr, cfg)
		if ref == nil || diags.HasErrors() {
			continue
		}
		r := absRef{mod: mod, ref: ref}
		switch ref.Subject.(type) {
		case refs.CountAttr, refs.EachAttr:
			r.resource = resource
		}
		out = append(out, r)
	}
	return out
}

// meta is what a reference is made of: the references of the
// expressions that give its value.
func (a *analyzer) meta(r absRef) []absRef {
	cfg := a.config(r.mod)
	if cfg == nil {
		return nil
	}
	switch s := r.ref.Subject.(type) {
	case refs.InputVariable:
		if len(r.mod) == 0 {
			return nil
		}
		caller := r.mod[:len(r.mod)-1]
		callerCfg := a.config(caller)
		if callerCfg == nil {
			return nil
		}
		call := callerCfg.ModuleCalls[r.mod[len(r.mod)-1].name]
		if call == nil || call.Config == nil {
			return nil
		}
		content, _, _ := call.Config.PartialContent(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: s.Name}}})
		if attr := content.Attributes[s.Name]; attr != nil {
			return a.absolute(caller, nil, attr.Expr)
		}
	case refs.LocalValue:
		if l := cfg.Locals[s.Name]; l != nil {
			return a.absolute(r.mod, nil, l.Expr)
		}
	case refs.ModuleCallOutput:
		callee := append(slices.Clone(r.mod), moduleStep{s.Call.Call.Name, s.Call.Key})
		if c := a.config(callee); c != nil && c.Outputs[s.Name] != nil {
			return a.absolute(callee, nil, c.Outputs[s.Name].Expr)
		}
	case refs.ModuleCallInstance:
		return a.moduleOutputs(r.mod, s)
	case refs.ModuleCall:
		return a.moduleOutputs(r.mod, refs.ModuleCallInstance{Call: s, Key: refs.NoKey})
	case refs.CountAttr, refs.EachAttr:
		if r.resource == nil {
			return nil
		}
		rc := cfg.Resource(r.resource.Resource.Mode, r.resource.Resource.Type, r.resource.Resource.Name)
		if rc == nil {
			return nil
		}
		if rc.ForEach != nil {
			return a.absolute(r.mod, nil, rc.ForEach)
		}
		return a.absolute(r.mod, nil, rc.Count)
	case refs.ResourceInstance:
		return a.resourceRefs(r.mod, s, r.ref.Remaining)
	case refs.Resource:
		return a.resourceRefs(r.mod, refs.ResourceInstance{Resource: s, Key: refs.NoKey}, r.ref.Remaining)
	}
	return nil
}

func (a *analyzer) moduleOutputs(mod moduleInstance, call refs.ModuleCallInstance) []absRef {
	callee := append(slices.Clone(mod), moduleStep{call.Call.Name, call.Key})
	c := a.config(callee)
	if c == nil {
		return nil
	}
	var out []absRef
	for _, o := range config.InOrder(c.Outputs) {
		out = append(out, a.absolute(callee, nil, o.Expr)...)
	}
	return out
}

// resourceRefs are the references of the part of a resource's
// configuration that the steps rest select: an argument, the blocks of a
// nested block type (one of them, by index or key), or with no steps the
// whole body. A step to something the configuration does not set (a
// computed attribute) selects nothing.
func (a *analyzer) resourceRefs(mod moduleInstance, inst refs.ResourceInstance, rest hcl.Traversal) []absRef {
	cfg := a.config(mod)
	if cfg == nil {
		return nil
	}
	res := inst.Resource
	rc := cfg.Resource(res.Mode, res.Type, res.Name)
	schema := a.schemas.Block(res.Mode, res.Type)
	if rc == nil || schema == nil {
		return nil
	}
	bodies := []hcl.Body{rc.Config}
	var exprs []hcl.Expression
	var through *mock.NestedBlock
	var throughName string
steps:
	for _, step := range rest {
		if len(bodies) == 0 {
			return nil
		}
		var name string
		var index cty.Value
		switch s := step.(type) {
		case hcl.TraverseAttr:
			name = s.Name
		case hcl.TraverseIndex:
			index = s.Key
			if through == nil {
				if !index.IsKnown() || index.IsNull() || index.Type() != cty.String {
					bodies, exprs = nil, nil
					continue
				}
				name = index.AsString()
			}
		default:
			break steps
		}
		if through != nil {
			// The step after a list, set or map of blocks picks one.
			nb, typ := through, throughName
			through, throughName = nil, ""
			bodies = pickBlocks(bodies, typ, nb, name, index)
			schema = nb.Block
			continue
		}
		if _, ok := schema.Attributes[name]; ok {
			for _, b := range bodies {
				content, _, _ := b.PartialContent(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: name}}})
				if attr := content.Attributes[name]; attr != nil {
					exprs = append(exprs, attr.Expr)
				}
			}
			bodies, schema = nil, nil
			break steps
		}
		nb := schema.BlockTypes[name]
		if nb == nil {
			bodies, schema = nil, nil
			break steps
		}
		switch nb.Nesting {
		case mock.NestingSingle, mock.NestingGroup:
			bodies = blockBodies(bodies, name, nb, nil)
			schema = nb.Block
		default:
			through, throughName = nb, name
		}
	}
	if through != nil {
		bodies = blockBodies(bodies, throughName, through, nil)
		schema = through.Block
	}
	if len(bodies) == 0 && len(exprs) == 0 {
		return nil
	}
	out := a.absolute(mod, &inst, exprs...)
	if schema != nil {
		for _, b := range bodies {
			// Dynamic blocks included, as the planner expands them.
			trs := dynblock.VariablesHCLDec(b, schema.DecoderSpec())
			out = append(out, a.absoluteTraversals(cfg, mod, &inst, trs)...)
		}
	}
	return out
}

// blockBodies are the bodies of the blocks of a type in bodies, those
// with the label key when key is not nil.
func blockBodies(bodies []hcl.Body, typ string, nb *mock.NestedBlock, key *string) []hcl.Body {
	var labels []string
	if nb.Nesting == mock.NestingMap {
		labels = []string{"key"}
	}
	var out []hcl.Body
	for _, b := range bodies {
		content, _, _ := b.PartialContent(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: typ, LabelNames: labels}}})
		for _, blk := range content.Blocks {
			if key == nil || (len(blk.Labels) == 1 && blk.Labels[0] == *key) {
				out = append(out, blk.Body)
			}
		}
	}
	return out
}

// pickBlocks is the block of a list or map of blocks that an index (or,
// for a map, an attribute name) step picks.
func pickBlocks(bodies []hcl.Body, typ string, nb *mock.NestedBlock, name string, index cty.Value) []hcl.Body {
	switch nb.Nesting {
	case mock.NestingMap:
		key := name
		if index != cty.NilVal {
			if !index.IsKnown() || index.IsNull() || index.Type() != cty.String {
				return nil
			}
			key = index.AsString()
		}
		return blockBodies(bodies, typ, nb, &key)
	case mock.NestingList:
		if index == cty.NilVal || !index.IsKnown() || index.IsNull() || index.Type() != cty.Number {
			return nil
		}
		i, acc := index.AsBigFloat().Int64()
		var out []hcl.Body
		for _, b := range bodies {
			all := blockBodies([]hcl.Body{b}, typ, nb, nil)
			if acc == 0 && i >= 0 && int(i) < len(all) {
				out = append(out, all[i])
			}
		}
		return out
	}
	return nil
}

// parseInstance reads an absolute resource instance address.
func (a *analyzer) parseInstance(addr string) (moduleInstance, refs.ResourceInstance, bool) {
	tr, diags := hclsyntax.ParseTraversalAbs([]byte(addr), "", hcl.InitialPos)
	if diags.HasErrors() {
		return nil, refs.ResourceInstance{}, false
	}
	mod, rest, ok := takeModules(tr)
	if !ok || len(rest) == 0 {
		return nil, refs.ResourceInstance{}, false
	}
	cfg := a.config(mod)
	if cfg == nil {
		return nil, refs.ResourceInstance{}, false
	}
	// The resource part, made a traversal of its own.
	if attr, ok := rest[0].(hcl.TraverseAttr); ok {
		rest = append(hcl.Traversal{hcl.TraverseRoot{Name: attr.Name, SrcRange: attr.SrcRange}}, rest[1:]...)
	}
	ref, diags := refs.Parse(rest, cfg)
	if ref == nil || diags.HasErrors() {
		return nil, refs.ResourceInstance{}, false
	}
	switch s := ref.Subject.(type) {
	case refs.ResourceInstance:
		return mod, s, true
	case refs.Resource:
		return mod, refs.ResourceInstance{Resource: s, Key: refs.NoKey}, true
	}
	return nil, refs.ResourceInstance{}, false
}

// parseModuleInstance reads a module instance address; "" is the root.
func parseModuleInstance(addr string) (moduleInstance, bool) {
	if addr == "" {
		return nil, true
	}
	tr, diags := hclsyntax.ParseTraversalAbs([]byte(addr), "", hcl.InitialPos)
	if diags.HasErrors() {
		return nil, false
	}
	mod, rest, ok := takeModules(tr)
	return mod, ok && len(rest) == 0
}

// takeModules reads the module.NAME[KEY] steps at the start of tr.
func takeModules(tr hcl.Traversal) (moduleInstance, hcl.Traversal, bool) {
	var mod moduleInstance
	i := 0
	for i < len(tr) {
		var first string
		switch s := tr[i].(type) {
		case hcl.TraverseRoot:
			first = s.Name
		case hcl.TraverseAttr:
			first = s.Name
		}
		if first != "module" {
			break
		}
		if i+1 >= len(tr) {
			return nil, nil, false
		}
		name, ok := tr[i+1].(hcl.TraverseAttr)
		if !ok {
			return nil, nil, false
		}
		step := moduleStep{name: name.Name, key: refs.NoKey}
		i += 2
		if i >= len(tr) {
			mod = append(mod, step)
			break
		}
		if idx, ok := tr[i].(hcl.TraverseIndex); ok {
			switch {
			case idx.Key.Type() == cty.String:
				step.key = refs.StringKey(idx.Key.AsString())
			case idx.Key.Type() == cty.Number:
				n, _ := idx.Key.AsBigFloat().Int64()
				step.key = refs.IntKey(int(n))
			}
			i++
		}
		mod = append(mod, step)
	}
	return mod, tr[i:], true
}
