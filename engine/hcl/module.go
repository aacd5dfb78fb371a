package hcl

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/refs"
)

// module is one instance of a module: the root, or one instance of a
// module call.
type module struct {
	p   *planner
	cfg *config.Module
	// addr is the module instance's address: "" for the root,
	// `module.net`, `module.net["a"].module.sub`.
	addr string
	// site is where a child module instance is called from; nil for the
	// root.
	site *callSite
	// providers maps a provider configuration key of this module
	// ("aws", "aws.west") to the root module's key it stands for.
	providers map[string]string
	// nodes are the module's objects by key: "var.NAME",
	// "validation.NAME", "local.NAME", "module.NAME", "output.NAME",
	// "check.NAME", and resource addresses.
	nodes map[string]*node
	// order is the keys of nodes in source order.
	order []string
	// calls are the expanded module calls, by name.
	calls map[string]*expandedCall
	// deferData is set in a module whose call (or an ancestor's) has
	// depends_on: its data sources are read during apply.
	deferData bool
}

// callSite is a child module instance's call: the calling module, the
// call, its arguments and the instance's count/each names.
type callSite struct {
	parent *module
	call   *config.ModuleCall
	attrs  hcl.Attributes
	scope  *scope
}

// expandedCall is a module call's instances.
type expandedCall struct {
	rep      repetition
	keys     []instance
	children []*module
}

// node is an object of a module that is evaluated once, on first use.
type node struct {
	m     *module
	key   string
	rng   hcl.Range
	state nodeState
	value cty.Value
	eval  func() cty.Value
}

type nodeState int

const (
	unvisited nodeState = iota
	busy
	done
)

// newModule makes a module instance whose objects are not evaluated yet.
// The root's variables are given as vals; a child's (vals nil) are its
// call's arguments, evaluated when first used.
func (p *planner) newModule(cfg *config.Module, addr string, site *callSite, providers map[string]string, vals map[string]cty.Value) *module {
	m := &module{p: p, cfg: cfg, addr: addr, site: site, providers: providers, nodes: map[string]*node{}, calls: map[string]*expandedCall{}}
	type decl struct {
		key  string
		rng  hcl.Range
		eval func() cty.Value
	}
	var decls []decl
	for _, v := range cfg.Variables {
		decls = append(decls, decl{"var." + v.Name, v.DeclRange(), func() cty.Value { return m.evalVariable(v, vals) }})
		if len(v.Validations) > 0 {
			decls = append(decls, decl{"validation." + v.Name, v.DeclRange(), func() cty.Value { return m.validateVariable(v) }})
		}
	}
	for _, l := range cfg.Locals {
		decls = append(decls, decl{"local." + l.Name, l.NameRange, func() cty.Value { return m.evalLocal(l) }})
	}
	for _, set := range []map[string]*config.Resource{cfg.ManagedResources, cfg.DataResources, cfg.EphemeralResources} {
		for _, r := range set {
			decls = append(decls, decl{r.Addr(), r.DeclRange(), func() cty.Value { return m.evalResource(r) }})
		}
	}
	for _, c := range cfg.ModuleCalls {
		decls = append(decls, decl{"module." + c.Name, c.DeclRange(), func() cty.Value { return m.evalModuleCall(c) }})
	}
	for _, o := range cfg.Outputs {
		decls = append(decls, decl{"output." + o.Name, o.DeclRange(), func() cty.Value { return m.evalOutput(o) }})
	}
	for _, c := range cfg.Checks {
		decls = append(decls, decl{"check." + c.Name, c.DeclRange(), func() cty.Value { return m.evalCheck(c) }})
		if r := c.DataSource; r != nil && cfg.DataResources[r.Key()] == nil {
			decls = append(decls, decl{r.Addr(), r.DeclRange(), func() cty.Value { return m.evalResource(r) }})
		}
	}
	slices.SortFunc(decls, func(a, b decl) int {
		if c := strings.Compare(a.rng.Filename, b.rng.Filename); c != 0 {
			return c
		}
		return a.rng.Start.Byte - b.rng.Start.Byte
	})
	for _, d := range decls {
		m.nodes[d.key] = &node{m: m, key: d.key, rng: d.rng, eval: d.eval}
		m.order = append(m.order, d.key)
	}
	return m
}

// evalAll evaluates every object of the module, each after the objects it
// refers to.
func (m *module) evalAll() {
	for _, key := range m.order {
		m.get(key)
	}
}

// get returns the value of the object key, evaluating it first if need
// be. An object that is reached again while it is being evaluated closes
// a cycle: that is reported, naming every object in it, and its value is
// unknown.
func (m *module) get(key string) cty.Value {
	n := m.nodes[key]
	if n == nil {
		return cty.DynamicVal
	}
	switch n.state {
	case done:
		return n.value
	case busy:
		m.p.reportCycle(n)
		return cty.DynamicVal
	}
	if m.p.interrupted() {
		return cty.DynamicVal
	}
	n.state = busy
	m.p.stack = append(m.p.stack, n)
	n.value = n.eval()
	m.p.stack = m.p.stack[:len(m.p.stack)-1]
	n.state = done
	return n.value
}

func (p *planner) reportCycle(n *node) {
	i := slices.Index(p.stack, n)
	if i < 0 {
		return
	}
	var names []string
	for _, s := range p.stack[i:] {
		names = append(names, s.m.absKey(s.key))
	}
	p.report(&hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Cycle: " + strings.Join(names, ", "),
		Detail:   "These objects refer to each other in a loop, so none of them can be evaluated first. Break the loop by removing one of the references.",
		Subject:  n.rng.Ptr(),
	})
}

// absKey is an object's key with the module instance's address before it.
func (m *module) absKey(key string) string {
	if m.addr == "" {
		return key
	}
	return m.addr + "." + key
}

// refsOf reads a depends_on entry as a reference.
func (m *module) refsOf(tr hcl.Traversal) ([]*refs.Reference, hcl.Diagnostics) {
	ref, diags := refs.Parse(tr, m.cfg)
	if ref == nil {
		return nil, diags
	}
	return []*refs.Reference{ref}, diags
}

// scope holds the names that a repeated object's expressions see: count,
// each and self.
type scope struct {
	countIndex         cty.Value
	eachKey, eachValue cty.Value
	self               cty.Value
}

// evalExpr evaluates expr in the module, after everything it refers to.
func (m *module) evalExpr(expr hcl.Expression, sc *scope) (cty.Value, hcl.Diagnostics) {
	if expr == nil {
		return cty.NullVal(cty.DynamicPseudoType), nil
	}
	found, diags := refs.InExpr(expr, m.cfg)
	ctx, d := m.context(found, sc)
	diags = append(diags, d...)
	if diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	if d := forBudget(expr, ctx, m.p.maxValues); d != nil {
		return cty.DynamicVal, append(diags, d)
	}
	v, d := expr.Value(ctx)
	return v, append(diags, d...)
}

// bodyContext is the evaluation context for a block body: every object its
// expressions (nested and dynamic blocks included) refer to.
func (m *module) bodyContext(body hcl.Body, sc *scope) (*hcl.EvalContext, hcl.Diagnostics) {
	found, diags := refs.InBody(body, m.cfg)
	ctx, d := m.context(found, sc)
	return ctx, append(diags, d...)
}

// context builds an evaluation context that holds the value of each
// referenced object, evaluating them first.
func (m *module) context(found []*refs.Reference, sc *scope) (*hcl.EvalContext, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	t := tree{}
	mods := moduleOutputs{}
	first := map[string]*hcl.Range{}
	for _, ref := range found {
		diags = append(diags, m.bind(t, ref, sc)...)
		mods.add(ref)
		if name := moduleName(ref); name != "" && first[name] == nil {
			first[name] = ref.Range.Ptr()
		}
	}
	for _, name := range slices.Sorted(maps.Keys(mods)) {
		diags = append(diags, m.bindModule(t, name, mods[name], first[name])...)
	}
	ctx := &hcl.EvalContext{Variables: map[string]cty.Value{}, Functions: m.p.funcs}
	for name, sub := range t {
		ctx.Variables[name] = sub.value()
	}
	return ctx, diags
}

// moduleName is the module call a reference is to, or "".
func moduleName(ref *refs.Reference) string {
	switch s := ref.Subject.(type) {
	case refs.ModuleCall:
		return s.Name
	case refs.ModuleCallInstance:
		return s.Call.Name
	case refs.ModuleCallOutput:
		return s.Call.Call.Name
	}
	return ""
}

// bind puts the value that ref refers to into t.
func (m *module) bind(t tree, ref *refs.Reference, sc *scope) hcl.Diagnostics {
	rng := ref.Range.Ptr()
	bad := func(summary, detail string) hcl.Diagnostics {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: rng}}
	}
	switch s := ref.Subject.(type) {
	case refs.InputVariable:
		if m.nodes["var."+s.Name] == nil {
			return bad("Reference to undeclared input variable", fmt.Sprintf("An input variable with the name %q has not been declared.", s.Name))
		}
		t.set(m.get("var."+s.Name), "var", s.Name)
	case refs.LocalValue:
		if m.nodes["local."+s.Name] == nil {
			return bad("Reference to undeclared local value", fmt.Sprintf("A local value with the name %q has not been declared.", s.Name))
		}
		t.set(m.get("local."+s.Name), "local", s.Name)
	case refs.ModuleCall, refs.ModuleCallInstance, refs.ModuleCallOutput:
		// Bound by context, all references to a call at once.
	case refs.Resource:
		return m.bindResource(t, s, ref.Escaped(), rng)
	case refs.ResourceInstance:
		return m.bindResource(t, s.Resource, ref.Escaped(), rng)
	case refs.PathAttr:
		v, ok := m.pathAttr(s.Name)
		if !ok {
			return bad("Invalid \"path\" attribute", fmt.Sprintf("The \"path\" object has no attribute named %q.", s.Name))
		}
		t.set(v, "path", s.Name)
	case refs.TerraformAttr:
		if s.Name != "workspace" {
			return bad(fmt.Sprintf("Invalid %q attribute", s.Alias), fmt.Sprintf("The %q object has no attribute named %q.", s.Alias, s.Name))
		}
		t.set(cty.StringVal("default"), s.Alias, s.Name)
	case refs.CountAttr:
		if sc == nil || sc.countIndex == cty.NilVal {
			return bad(refs.OutOfContext(s))
		}
		t.set(sc.countIndex, "count", "index")
	case refs.EachAttr:
		if sc == nil || sc.eachKey == cty.NilVal {
			return bad(refs.OutOfContext(s))
		}
		t.set(sc.eachKey, "each", "key")
		t.set(sc.eachValue, "each", "value")
	case refs.Self:
		if sc == nil || sc.self == cty.NilVal {
			return bad(refs.OutOfContext(s))
		}
		t.set(sc.self, "self")
	case refs.FeatureSymbol:
		return bad("Feature not supported by the planner", fmt.Sprintf("%s refers to the opt-in feature %q, which the planner does not evaluate.", ref.Text(), s.Feature.Name))
	}
	return nil
}

// moduleOutputs is which outputs of each module call an expression
// refers to; nil for a call referred to as a whole.
type moduleOutputs map[string]map[string]bool

func (mo moduleOutputs) add(ref *refs.Reference) {
	name := moduleName(ref)
	if name == "" {
		return
	}
	output := ""
	if s, ok := ref.Subject.(refs.ModuleCallOutput); ok {
		output = s.Name
	}
	set, seen := mo[name]
	switch {
	case output == "":
		mo[name] = nil
	case !seen:
		mo[name] = map[string]bool{output: true}
	case set != nil:
		set[output] = true
	}
}

// bindModule puts a module call's value into t: for each instance, an
// object of the outputs wanted (all of them when wanted is nil). Each
// output is evaluated on its own, so a call may feed one of its outputs
// into another call's argument and back, as OpenTofu allows.
func (m *module) bindModule(t tree, name string, wanted map[string]bool, rng *hcl.Range) hcl.Diagnostics {
	if m.nodes["module."+name] == nil {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Reference to undeclared module", Detail: fmt.Sprintf("No module call named %q is declared in this module.", name), Subject: rng}}
	}
	m.get("module." + name)
	ec := m.calls[name]
	if ec == nil {
		t.set(cty.DynamicVal, "module", name)
		return nil
	}
	vals := make([]cty.Value, len(ec.children))
	for i, child := range ec.children {
		outs := map[string]cty.Value{}
		for out := range child.cfg.Outputs {
			if wanted == nil || wanted[out] {
				outs[out] = child.get("output." + out)
			}
		}
		vals[i] = cty.ObjectVal(outs)
	}
	t.set(assemble(ec.rep, ec.keys, vals, cty.DynamicPseudoType), "module", name)
	return nil
}

func (m *module) bindResource(t tree, r refs.Resource, escaped bool, rng *hcl.Range) hcl.Diagnostics {
	var key string
	var path []string
	switch r.Mode {
	case config.DataMode:
		key, path = "data."+r.Type+"."+r.Name, []string{"data", r.Type, r.Name}
	case config.EphemeralMode:
		key, path = "ephemeral."+r.Type+"."+r.Name, []string{"ephemeral", r.Type, r.Name}
	default:
		key, path = r.Type+"."+r.Name, []string{r.Type, r.Name}
		if escaped {
			path = append([]string{"resource"}, path...)
		}
	}
	if m.nodes[key] == nil {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Reference to undeclared resource", Detail: fmt.Sprintf("A %s %q %q has not been declared in %s.", r.Mode.BlockType(), r.Type, r.Name, m.where()), Subject: rng}}
	}
	t.set(m.get(key), path...)
	return nil
}

// where names the module instance for messages.
func (m *module) where() string {
	if m.addr == "" {
		return "the root module"
	}
	return m.addr
}

// pathAttr is path.module, path.root or path.cwd. As in OpenTofu, the
// first two are relative to the directory tofu runs in (the root
// module's); path.cwd is that directory, absolute.
func (m *module) pathAttr(name string) (cty.Value, bool) {
	root := m.p.tree.Root.Dir
	switch name {
	case "module":
		rel, err := filepath.Rel(root, m.cfg.Dir)
		if err != nil {
			rel = m.cfg.Dir
		}
		return cty.StringVal(filepath.ToSlash(rel)), true
	case "root":
		return cty.StringVal("."), true
	case "cwd":
		abs, err := filepath.Abs(root)
		if err != nil {
			abs = root
		}
		return cty.StringVal(filepath.ToSlash(abs)), true
	}
	return cty.NilVal, false
}

// tree is a nest of objects under construction: each name holds either a
// value or more names.
type tree map[string]*branch

type branch struct {
	leaf     cty.Value
	children tree
}

func (t tree) set(v cty.Value, path ...string) {
	b := t[path[0]]
	if b == nil {
		b = &branch{}
		t[path[0]] = b
	}
	if len(path) == 1 {
		b.leaf = v
		return
	}
	if b.children == nil {
		b.children = tree{}
	}
	b.children.set(v, path[1:]...)
}

func (b *branch) value() cty.Value {
	if b.children == nil {
		return b.leaf
	}
	attrs := map[string]cty.Value{}
	for _, k := range slices.Sorted(maps.Keys(b.children)) {
		attrs[k] = b.children[k].value()
	}
	return cty.ObjectVal(attrs)
}
