package mock

import (
	"fmt"
	"maps"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/config"
)

// typeKey names a resource type in one mode.
type typeKey struct {
	mode config.ResourceMode
	typ  string
}

// inference gathers, across every module given to Infer, what the
// configuration sets and what it references for each resource type.
type inference struct {
	decls map[typeKey]*setBlock
	uses  map[typeKey][]rawUse
	// tree finds the modules of calls, whose outputs a reference to
	// module.NAME.OUTPUT reaches, and the calls of a module, whose
	// arguments a reference to var.NAME reaches (see InferTree); nil
	// follows none.
	tree *config.Tree
	// following are the values of local values and outputs being
	// followed (see walker.follow), which a cycle does not follow again;
	// followed is what each one followed reaches.
	following map[hcl.Expression]bool
	followed  map[hcl.Expression]*resolved
	// callers are the calls of each module of the tree, by the module
	// they call, made on first use: a reference to var.NAME reaches
	// what each call's argument NAME reaches.
	callers map[*config.Module][]caller
}

// caller is a call of a module: the module it is in and the call.
type caller struct {
	in   *config.Module
	call *config.ModuleCall
}

// callersOf is the calls of m in the tree: none without one.
func (inf *inference) callersOf(m *config.Module) []caller {
	if inf.tree == nil {
		return nil
	}
	if inf.callers == nil {
		inf.callers = map[*config.Module][]caller{}
		for _, dir := range slices.Sorted(maps.Keys(inf.tree.Modules)) {
			p := inf.tree.Modules[dir]
			for _, name := range slices.Sorted(maps.Keys(p.ModuleCalls)) {
				mc := p.ModuleCalls[name]
				if c := inf.tree.Child(mc); c != nil && c.Module != nil {
					inf.callers[c.Module] = append(inf.callers[c.Module], caller{in: p, call: mc})
				}
			}
		}
	}
	return inf.callers[m]
}

func newInference() *inference {
	return &inference{decls: map[typeKey]*setBlock{}, uses: map[typeKey][]rawUse{}, following: map[hcl.Expression]bool{}, followed: map[hcl.Expression]*resolved{}}
}

// child is the module that the call NAME of m calls, where the tree has
// it loaded.
func (inf *inference) child(m *config.Module, name string) *config.Module {
	mc := m.ModuleCalls[name]
	if inf.tree == nil || mc == nil {
		return nil
	}
	if c := inf.tree.Child(mc); c != nil {
		return c.Module
	}
	return nil
}

// setBlock is what configuration sets in one block type: its arguments and
// its nested blocks.
type setBlock struct {
	attrs  map[string]bool
	blocks map[string]*setBlock
	// argTypes are the types of the arguments that every body sets from
	// a variable of one known type (ipv6_addresses = var.ipv6_addresses,
	// a list(string)); cty.NilType where another body sets the argument
	// otherwise.
	argTypes map[string]cty.Type
	// labeled records a nested block written with labels.
	labeled bool
}

func newSetBlock() *setBlock {
	return &setBlock{attrs: map[string]bool{}, blocks: map[string]*setBlock{}, argTypes: map[string]cty.Type{}}
}

func (sb *setBlock) block(name string) *setBlock {
	child := sb.blocks[name]
	if child == nil {
		child = newSetBlock()
		sb.blocks[name] = child
	}
	return child
}

// stepKind is one step of a reference after the resource instance.
type stepKind uint8

const (
	stepAttr  stepKind = iota // .name
	stepIndex                 // [0]
	stepKey                   // ["key"]
	stepElem                  // [*], [expr], or the element of a for expression
)

type step struct {
	kind  stepKind
	name  string // attribute name or string key
	index int
}

// hint is what a use tells about the type of the value it reaches.
type hint uint8

const (
	hintList hint = 1 << iota
	hintMap
	hintNumber
	hintBool
)

// rawUse is one reference to a resource type's attribute: the steps after
// the instance, and what its context tells about the value.
type rawUse struct {
	steps []step
	hint  hint
	form  stringForm
}

// useNode gathers the uses of one attribute (or of a part of it): a trie
// of the steps that follow it.
type useNode struct {
	attrs   map[string]*useNode
	list    *useNode
	listLen int
	mapv    *useNode
	keys    map[string]bool
	hint    hint
	form    stringForm
}

func (n *useNode) add(steps []step, h hint, f stringForm) {
	cur := n
	for _, s := range steps {
		switch s.kind {
		case stepAttr:
			if cur.attrs == nil {
				cur.attrs = map[string]*useNode{}
			}
			next := cur.attrs[s.name]
			if next == nil {
				next = &useNode{}
				cur.attrs[s.name] = next
			}
			cur = next
		case stepIndex, stepElem:
			if cur.list == nil {
				cur.list = &useNode{}
			}
			if s.kind == stepIndex {
				cur.listLen = max(cur.listLen, s.index+1)
			}
			cur = cur.list
		case stepKey:
			if cur.mapv == nil {
				cur.mapv = &useNode{}
				cur.keys = map[string]bool{}
			}
			cur.keys[s.name] = true
			cur = cur.mapv
		}
	}
	cur.hint |= h
	if f != formNone {
		cur.form = f
	}
}

// at follows a path from the node: nil where no use goes.
func (n *useNode) at(path cty.Path) *useNode {
	cur := n
	for _, step := range path {
		if cur == nil {
			return nil
		}
		switch s := step.(type) {
		case cty.GetAttrStep:
			if next := cur.attrs[s.Name]; next != nil {
				cur = next
			} else if cur.keys[s.Name] {
				cur = cur.mapv
			} else {
				return nil
			}
		case cty.IndexStep:
			switch {
			case s.Key.Type() == cty.String && cur.attrs[s.Key.AsString()] != nil:
				cur = cur.attrs[s.Key.AsString()]
			case s.Key.Type() == cty.String:
				cur = cur.mapv
			default:
				cur = cur.list
			}
		}
	}
	return cur
}

// typ is the type the uses call for: a list when the value is indexed by
// number (or iterated), an object when attributes are taken from it (with
// any string keys as further attributes), a map when it is indexed by
// string keys only, a number or bool when the context needs one, and a
// string otherwise.
func (n *useNode) typ() cty.Type {
	switch {
	case n == nil:
		return cty.String
	case n.list != nil || n.hint&hintList != 0:
		return cty.List(n.list.typ())
	case len(n.attrs) > 0:
		atys := map[string]cty.Type{}
		for k := range n.keys {
			atys[k] = n.mapv.typ()
		}
		for name, child := range n.attrs {
			atys[name] = child.typ()
		}
		return cty.Object(atys)
	case n.mapv != nil || n.hint&hintMap != 0:
		return cty.Map(n.mapv.typ())
	case n.hint&hintNumber != 0:
		return cty.Number
	case n.hint&hintBool != 0:
		return cty.Bool
	}
	return cty.String
}

// buildBlock turns what configuration sets and references in a block type
// into its schema.
func buildBlock(sb *setBlock, uses []rawUse) *Block {
	b := &Block{Attributes: map[string]*Attribute{}, BlockTypes: map[string]*NestedBlock{}}
	nested := map[string][]rawUse{}
	nodes := map[string]*useNode{}
	for _, u := range uses {
		if len(u.steps) == 0 || u.steps[0].kind != stepAttr {
			continue
		}
		name := u.steps[0].name
		if _, ok := sb.blocks[name]; ok {
			rest := u.steps[1:]
			if len(rest) > 0 && rest[0].kind != stepAttr {
				rest = rest[1:]
			}
			nested[name] = append(nested[name], rawUse{steps: rest, hint: u.hint, form: u.form})
			continue
		}
		node := nodes[name]
		if node == nil {
			node = &useNode{}
			nodes[name] = node
		}
		node.add(u.steps[1:], u.hint, u.form)
	}
	for name, child := range sb.blocks {
		nesting := NestingList
		if child.labeled {
			nesting = NestingMap
		}
		b.BlockTypes[name] = &NestedBlock{Nesting: nesting, Block: buildBlock(child, nested[name])}
	}
	for name := range sb.attrs {
		if _, isBlock := sb.blocks[name]; !isBlock {
			// The uses of an argument shape the value generated when its
			// configuration is never known. An argument that is also
			// referenced is optional and computed, as most such provider
			// attributes are: left null, the provider chooses it.
			//
			// An argument set only from variables of one type is of
			// that type, so that the value generated for it, left null,
			// is one (a list for a list(string) variable), as the
			// provider's would be.
			ty := cty.DynamicPseudoType
			if t := sb.argTypes[name]; t != cty.NilType {
				ty = t
			}
			b.Attributes[name] = &Attribute{Type: ty, Optional: true, Computed: nodes[name] != nil, shape: nodes[name]}
		}
	}
	for name, node := range nodes {
		if !sb.attrs[name] {
			b.Attributes[name] = &Attribute{Type: node.typ(), Computed: true, shape: node}
		}
	}
	return b
}

// InferTree is Infer of every module of t, where a reference to a called
// module's output also reaches what the output's value reaches: a
// module that outputs a resource whole (terraform-google-network's
// subnets module: output "subnets" { value = google_compute_subnetwork.
// subnetwork }) has the attributes its callers read from it
// ([for network in module.subnets.subnets : network.self_link]).
func (s *Schemas) InferTree(t *config.Tree) {
	if s.inf == nil {
		s.inf = newInference()
	}
	s.inf.tree = t
	s.Infer(slices.Collect(maps.Values(t.Modules))...)
}

// Infer adds an inferred schema for every resource type (per mode) that the
// modules declare and that no loaded schema describes. The rules are in the
// package documentation. Calling Infer again with more modules infers those
// types again from everything seen so far; types that a schema file
// describes are never touched. Infer must not run while the schemas are
// in use elsewhere; everything else is safe for concurrent use.
func (s *Schemas) Infer(mods ...*config.Module) {
	if s.inf == nil {
		s.inf = newInference()
	}
	for _, m := range mods {
		if m != nil {
			s.inf.module(m)
		}
	}
	for key, sb := range s.inf.decls {
		if e := s.entry(key.mode, key.typ); e != nil && !e.inferred {
			continue
		}
		if key.mode == config.ManagedMode && key.typ == "terraform_data" {
			s.put(key.mode, key.typ, &entry{block: terraformData(), provider: BuiltinProvider})
			continue
		}
		b := buildBlock(sb, s.inf.uses[key])
		if key.mode != config.EphemeralMode {
			if sb.attrs["id"] {
				b.Attributes["id"] = &Attribute{Type: cty.DynamicPseudoType, Optional: true, Computed: true}
			} else {
				b.Attributes["id"] = &Attribute{Type: cty.String, Computed: true}
			}
			delete(b.BlockTypes, "id")
		}
		s.put(key.mode, key.typ, &entry{block: b, inferred: true})
	}
}

func (inf *inference) module(m *config.Module) {
	var decls []*config.Resource
	for _, rs := range []map[string]*config.Resource{m.ManagedResources, m.DataResources, m.EphemeralResources} {
		decls = append(decls, config.InOrder(rs)...)
	}
	for _, c := range config.InOrder(m.Checks) {
		if c.DataSource != nil {
			decls = append(decls, c.DataSource)
		}
	}
	var later []pendingBody
	for _, r := range decls {
		key := typeKey{r.Mode, r.Type}
		sb := inf.decls[key]
		if sb == nil {
			sb = newSetBlock()
			inf.decls[key] = sb
		}
		collectSet(sb, r.Config, m.Variables, &later)
	}
	// JSON bodies cannot tell a nested block from an object argument; they
	// are read once every native body has named the block types.
	for len(later) > 0 {
		p := later[0]
		later = later[1:]
		collectSetJSON(p.sb, p.body, &later)
	}

	w := &walker{m: m, inf: inf, anon: map[*hclsyntax.AnonSymbolExpr]*resolved{}, elems: map[hcl.Expression]*resolved{}}
	hasOther := false
	for _, path := range sortedKeys(m.Files) {
		body, ok := m.Files[path].Body.(*hclsyntax.Body)
		if !ok {
			hasOther = true
			continue
		}
		w.file(body)
	}
	if hasOther {
		w.otherFiles()
	}
}

type pendingBody struct {
	sb   *setBlock
	body hcl.Body
}

// bodyParts unwraps the bodies the loader merged, all the way down.
func bodyParts(b hcl.Body) []hcl.Body {
	if b == nil {
		return nil
	}
	parts := config.BodyParts(b)
	if len(parts) == 1 && parts[0] == b {
		return parts
	}
	var out []hcl.Body
	for _, p := range parts {
		out = append(out, bodyParts(p)...)
	}
	return out
}

var dynamicSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "for_each"}, {Name: "iterator"}, {Name: "labels"}},
	Blocks:     []hcl.BlockHeaderSchema{{Type: "content"}},
}

// collectSet records the arguments and nested blocks a body sets, and the
// types of the arguments set from the module's variables, vars.
func collectSet(sb *setBlock, body hcl.Body, vars map[string]*config.Variable, later *[]pendingBody) {
	for _, part := range bodyParts(body) {
		syn, ok := part.(*hclsyntax.Body)
		if !ok {
			*later = append(*later, pendingBody{sb, part})
			continue
		}
		// Asking for every block type the syntax has keeps the body's hidden
		// parts (the meta-arguments the loader took) hidden.
		schema := &hcl.BodySchema{}
		seen := map[string]bool{}
		for _, blk := range syn.Blocks {
			if !seen[blk.Type] {
				seen[blk.Type] = true
				schema.Blocks = append(schema.Blocks, hcl.BlockHeaderSchema{Type: blk.Type, LabelNames: labelNames(len(blk.Labels))})
			}
		}
		content, remain, _ := part.PartialContent(schema)
		attrs, _ := remain.JustAttributes()
		for name, attr := range attrs {
			sb.setArg(name, variableType(attr.Expr, vars))
		}
		for _, blk := range content.Blocks {
			if blk.Type == "dynamic" && len(blk.Labels) == 1 {
				child := sb.block(blk.Labels[0])
				dyn, _, _ := blk.Body.PartialContent(dynamicSchema)
				if _, ok := dyn.Attributes["labels"]; ok {
					child.labeled = true
				}
				for _, c := range dyn.Blocks {
					collectSet(child, c.Body, vars, later)
				}
				continue
			}
			child := sb.block(blk.Type)
			if len(blk.Labels) > 0 {
				child.labeled = true
			}
			collectSet(child, blk.Body, vars, later)
		}
	}
}

// collectSetJSON reads a JSON body: the properties that name block types
// already seen (or "dynamic") are blocks, the rest are arguments.
func collectSetJSON(sb *setBlock, body hcl.Body, later *[]pendingBody) {
	schema := &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "dynamic", LabelNames: []string{"type"}}}}
	for _, name := range sortedKeys(sb.blocks) {
		if name == "dynamic" {
			continue
		}
		hdr := hcl.BlockHeaderSchema{Type: name}
		if sb.blocks[name].labeled {
			hdr.LabelNames = []string{"key"}
		}
		schema.Blocks = append(schema.Blocks, hdr)
	}
	content, remain, _ := body.PartialContent(schema)
	attrs, _ := remain.JustAttributes()
	for name := range attrs {
		sb.setArg(name, cty.NilType)
	}
	for _, blk := range content.Blocks {
		if blk.Type == "dynamic" && len(blk.Labels) == 1 {
			child := sb.block(blk.Labels[0])
			dyn, _, _ := blk.Body.PartialContent(dynamicSchema)
			for _, c := range dyn.Blocks {
				*later = append(*later, pendingBody{child, c.Body})
			}
			continue
		}
		*later = append(*later, pendingBody{sb.block(blk.Type), blk.Body})
	}
}

// setArg records that a body sets the argument name, from a variable of
// type ty (cty.NilType for any other expression).
func (sb *setBlock) setArg(name string, ty cty.Type) {
	if t, seen := sb.argTypes[name]; !seen {
		sb.argTypes[name] = ty
	} else if t != cty.NilType && !t.Equals(ty) {
		sb.argTypes[name] = cty.NilType
	}
	sb.attrs[name] = true
}

// variableType is the type of the variable that expr is a reference to
// (var.name and nothing more), where its type constraint is known in
// full; cty.NilType otherwise.
func variableType(expr hcl.Expression, vars map[string]*config.Variable) cty.Type {
	t, ok := expr.(*hclsyntax.ScopeTraversalExpr)
	if !ok || len(t.Traversal) != 2 || t.Traversal.RootName() != "var" {
		return cty.NilType
	}
	a, ok := t.Traversal[1].(hcl.TraverseAttr)
	if !ok || vars[a.Name] == nil {
		return cty.NilType
	}
	ty := vars[a.Name].Type
	if ty == cty.NilType || ty.HasDynamicTypes() {
		return cty.NilType
	}
	return ty.WithoutOptionalAttributesDeep()
}

func labelNames(n int) []string {
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("label%d", i)
	}
	return names
}
