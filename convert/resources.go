package convert

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"cuelang.org/go/cue/ast"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/cueform"
)

// resourceMeta are the arguments and blocks of a resource block that are
// OpenTofu's, not the resource type's.
var resourceMeta = map[string]bool{
	"count": true, "for_each": true, "provider": true, "depends_on": true,
	"lifecycle": true, "connection": true, "provisioner": true,
}

// moduleMeta are those of a module block.
var moduleMeta = map[string]bool{
	"source": true, "version": true, "count": true, "for_each": true,
	"providers": true, "depends_on": true, "lifecycle": true,
}

// resource converts a resource, data or ephemeral block:
//
//	aws_vpc: main: {...} @resource(aws_vpc.main)
//	data: aws_ami: ubuntu: {...} @data(aws_ami.ubuntu)
//	aws_subnet: main: {for k, v in ... {(k): {...}}} @resource(aws_subnet.main[*])
func (c *converter) resource(b *hclsyntax.Block) []ast.Decl {
	if len(b.Labels) != 2 {
		return nil
	}
	mode := map[string]config.ResourceMode{"resource": config.ManagedMode, "data": config.DataMode, "ephemeral": config.EphemeralMode}[b.Type]
	r := c.m.Resource(mode, b.Labels[0], b.Labels[1])
	if r == nil {
		return nil
	}
	attrName := map[config.ResourceMode]string{config.ManagedMode: cueform.AttrResource, config.DataMode: cueform.AttrData, config.EphemeralMode: cueform.AttrEphemeral}[mode]
	addr := r.Type + "." + r.Name

	var args []string
	if r.Provider != nil {
		p := r.Provider.Name
		if r.Provider.Alias != "" {
			p += "." + r.Provider.Alias
		}
		args = append(args, cueform.Arg(cueform.ArgProvider, p))
		if r.Provider.Key != nil {
			c.unconverted(r.Provider.Key.Range(), "Provider instance key not converted",
				"A provider reference with an instance key is not converted.")
		}
	}
	if len(r.DependsOn) > 0 {
		args = append(args, cueform.Arg(cueform.ArgDependsOn, traversalList(r.DependsOn)))
	}
	args = append(args, c.lifecycleArgs(&r.Lifecycle)...)

	c.curBody = b.Body
	path := c.resourcePath(mode, r.Type, r.Name)
	value, multi, extra := c.instances(r.Count, r.ForEach, r.Enabled, func() ast.Expr {
		s := c.body(b.Body, resourceMeta, resourceArgs)
		c.lifecycleChecks(s, &r.Lifecycle, c.selfRef(path))
		c.provisioners(s, r, c.selfRef(path))
		c.share(s)
		return s
	})
	if multi {
		addr += "[*]"
	}
	outer, inner := c.nested(path, value)
	inner.Attrs = []*ast.Attribute{attr(attrName, append([]string{attrString(addr)}, args...)...)}
	return []ast.Decl{wrapIf(outer, extra)}
}

// wrapIf puts a declaration inside "if cond {...}" when cond is set: the
// form of lifecycle { enabled = cond }, whose instance exists only when the
// condition holds.
func wrapIf(d *ast.Field, cond ast.Expr) ast.Decl {
	if cond == nil {
		return d
	}
	return &ast.Comprehension{Clauses: []ast.Clause{&ast.IfClause{Condition: cond}}, Value: &ast.StructLit{Elts: []ast.Decl{d}}}
}

// instances builds the value of a declaration that may have count,
// for_each or lifecycle { enabled }: the single instance's value, a list
// (count) or a struct keyed by instance key (for_each). Inside an
// instance, count.index is the comprehension's variable, and each.key
// and each.value are its variables too (inlineLet):
//
//	[for i in list.Range(0, N, 1) {name: "web-\(i)"}]
//	{for k, v in X {(k): {cidr_block: v.cidr, name: k}}}
//
// count = COND ? 1 : 0, the idiom of nearly every count in practice, is
// [if COND {...}], where count.index is 0. enabled is returned as a
// condition for the caller.
func (c *converter) instances(count, forEach, enabled hcl.Expression, body func() ast.Expr) (value ast.Expr, multi bool, cond ast.Expr) {
	switch {
	case count != nil:
		countName := c.letName("count")
		if cnd, ok := c.zeroOrOne(count); ok {
			c.push(map[string]binding{"count": {cue: countName, nameFacts: nameFacts{known: true}}})
			inst := inlineLet(body(), countName, map[string]func() ast.Expr{"index": func() ast.Expr { return intLit(0) }})
			c.pop()
			inst = withLet(inst, countName, &ast.StructLit{Elts: []ast.Decl{field(ident("index"), intLit(0))}})
			return list(&ast.Comprehension{Clauses: []ast.Clause{&ast.IfClause{Condition: cnd}}, Value: asStruct(inst)}), true, nil
		}
		n, _ := c.expr(count)
		i := c.fresh("i")
		c.push(map[string]binding{"count": {cue: countName, nameFacts: nameFacts{known: true}}, "": {cue: i}})
		inst := inlineLet(body(), countName, map[string]func() ast.Expr{"index": func() ast.Expr { return ident(i) }})
		c.pop()
		// Left only where count is read otherwise (withLet).
		inst = withLet(inst, countName, &ast.StructLit{Elts: []ast.Decl{field(ident("index"), ident(i))}})
		return list(&ast.Comprehension{
			Clauses: []ast.Clause{&ast.ForClause{Value: ident(i), Source: c.std("list", "Range", intLit(0), n, intLit(1))}},
			Value:   asStruct(inst),
		}), true, nil
	case forEach != nil:
		src, sk := c.expr(forEach)
		k, v := c.fresh("k"), c.fresh("v")
		eachName := c.letName("each")
		keyExpr := ast.Expr(ident(k))
		var fc *ast.ForClause
		switch sk {
		case kindMap:
			fc = &ast.ForClause{Key: ident(k), Value: ident(v), Source: src}
		case kindList:
			// A set of strings: each key is the element itself.
			fc = &ast.ForClause{Value: ident(v), Source: src}
			keyExpr = ident(v)
		default:
			fc = &ast.ForClause{Key: ident(k), Value: ident(v), Source: c.lib("forEach", src)}
		}
		c.push(map[string]binding{"each": {cue: eachName, nameFacts: nameFacts{known: c.knownIn(forEach), ty: c.eachType(forEach)}, forEach: forEach}, "": {cue: k, key: k, value: v}})
		inst := inlineEach(body(), eachName, keyExpr, v)
		c.pop()
		inst = withLet(inst, eachName, &ast.StructLit{Elts: []ast.Decl{field(ident("key"), keyExpr), field(ident("value"), ident(v))}})
		clauses := c.guardedSource([]ast.Clause{fc}, &ast.StructLit{Elts: []ast.Decl{field(&ast.ParenExpr{X: keyExpr}, inst)}})
		return structFor(clauses, keyExpr, inst), true, nil
	case enabled != nil:
		cnd, _ := c.expr(enabled)
		return body(), false, cnd
	}
	return body(), false, nil
}

// zeroOrOne recognizes count = COND ? 1 : 0 (and ? 0 : 1) and returns the
// condition under which there is one instance.
func (c *converter) zeroOrOne(count hcl.Expression) (ast.Expr, bool) {
	cond, ok := config.UnwrapParens(count).(*hclsyntax.ConditionalExpr)
	if !ok {
		return nil, false
	}
	t, tok := constInt(cond.TrueResult)
	f, fok := constInt(cond.FalseResult)
	if !tok || !fok {
		return nil, false
	}
	switch {
	case t == 1 && f == 0:
		return c.condition(cond.Condition), true
	case t == 0 && f == 1:
		return not(c.condition(cond.Condition)), true
	}
	return nil, false
}

func constInt(e hcl.Expression) (int, bool) {
	lit, ok := config.UnwrapParens(e).(*hclsyntax.LiteralValueExpr)
	if !ok || lit.Val.IsNull() || !lit.Val.Type().Equals(cty.Number) {
		return 0, false
	}
	bf := lit.Val.AsBigFloat()
	if !bf.IsInt() {
		return 0, false
	}
	i, _ := bf.Int64()
	return int(i), true
}

// withLet puts "let name = value" first in an instance's struct, when the
// instance refers to name.
func withLet(inst ast.Expr, name string, value ast.Expr) ast.Expr {
	s, ok := inst.(*ast.StructLit)
	if !ok || !refersTo(s, name) {
		return inst
	}
	s.Elts = append([]ast.Decl{&ast.LetClause{Ident: ident(name), Expr: value}}, s.Elts...)
	return s
}

// inlineEach writes each.key and each.value in inst as the comprehension's
// variables they are, key (k, or v for a set of strings) and v, so that
// the let each = {key: k, value: v} is left only where each is read
// otherwise (withLet drops it when nothing reads it). No name inside inst
// shadows k or v: they are bound while it is converted (fresh).
func inlineEach(inst ast.Expr, each string, key ast.Expr, v string) ast.Expr {
	keyName := identName(key)
	return inlineLet(inst, each, map[string]func() ast.Expr{
		"key":   func() ast.Expr { return ident(keyName) },
		"value": func() ast.Expr { return ident(v) },
	})
}

// inlineLet writes each NAME.F in inst, where F is a field of fields,
// as what fields gives for F: the value NAME would be bound to by a let,
// written where it is read.
func inlineLet(inst ast.Expr, name string, fields map[string]func() ast.Expr) ast.Expr {
	inlined := func(n ast.Node) func() ast.Expr {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return nil
		}
		if x, ok := sel.X.(*ast.Ident); !ok || x.Name != name {
			return nil
		}
		return fields[identName(sel.Sel)]
	}
	return replaceNodes(inst,
		func(n ast.Node) bool { return inlined(n) != nil },
		func(n ast.Node) ast.Node { return inlined(n)() }).(ast.Expr)
}

// refersTo reports whether the identifier name occurs in n.
func refersTo(n ast.Node, name string) bool {
	found := false
	ast.Walk(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == name {
			found = true
		}
		return !found
	}, nil)
	return found
}

// asStruct is x as the body of a comprehension.
func asStruct(x ast.Expr) *ast.StructLit {
	if s, ok := x.(*ast.StructLit); ok {
		return s
	}
	return embed(x)
}

// lifecycleArgs are the lifecycle settings as attribute arguments.
func (c *converter) lifecycleArgs(l *config.Lifecycle) []string {
	var args []string
	if l.CreateBeforeDestroy != nil {
		args = append(args, fmt.Sprintf("create_before_destroy=%t", *l.CreateBeforeDestroy))
	}
	if l.PreventDestroy != nil {
		args = append(args, fmt.Sprintf("prevent_destroy=%t", *l.PreventDestroy))
	}
	if l.IgnoreAllChanges {
		args = append(args, "ignore_changes=all")
	} else if len(l.IgnoreChanges) > 0 {
		args = append(args, "ignore_changes="+attrString(traversalList(l.IgnoreChanges)))
	}
	if len(l.ReplaceTriggeredBy) > 0 {
		var ts []string
		for _, e := range l.ReplaceTriggeredBy {
			ts = append(ts, c.sourceText(e.Range()))
			if t, diags := hcl.AbsTraversalForExpr(e); !diags.HasErrors() {
				ts[len(ts)-1] = traversalText(t)
			}
		}
		args = append(args, "replace_triggered_by="+attrString(strings.Join(ts, ",")))
	}
	return args
}

// lifecycleChecks adds a resource's preconditions and postconditions to
// its instance struct as hidden fields that must hold. A postcondition
// may refer to the instance itself as self: a let bound to the reference
// self is (see selfRef), which sees every attribute, those the engine
// fills in too.
func (c *converter) lifecycleChecks(s *ast.StructLit, l *config.Lifecycle, self ast.Expr) {
	for i, r := range l.Preconditions {
		s.Elts = append(s.Elts, c.checkRule([]string{cueform.Preconditions, strconv.Itoa(i)}, r, true))
	}
	for i, r := range l.Postconditions {
		path := []string{cueform.Postconditions, strconv.Itoa(i)}
		if !refersToSelf(r.Condition) && !refersToSelf(r.ErrorMessage) {
			s.Elts = append(s.Elts, c.checkRule(path, r, true))
			continue
		}
		c.push(map[string]binding{"self": {cue: "self"}})
		s.Elts = append(s.Elts, c.checkRule(path, r, true, &ast.LetClause{Ident: ident("self"), Expr: self}))
		c.pop()
	}
}

// provisioners keeps the resource's provisioner blocks as data, in the
// instance's hidden _provisioner list: each block's type, when and
// on_failure, its arguments as config and its connection block's (or the
// resource's) as connection, with self the instance as in
// postconditions:
//
//	_provisioner: [{let self = aws_instance.web, type: "local-exec", when: "create", on_failure: "fail", config: {command: "echo \(self.id)"}}]
//
// Nothing runs them; the engine evaluates them after apply, as OpenTofu
// does when it runs them, and verify compares them with the HCL side's.
func (c *converter) provisioners(s *ast.StructLit, r *config.Resource, self ast.Expr) {
	if len(r.Provisioners) == 0 {
		return
	}
	c.push(map[string]binding{"self": {cue: "self"}})
	defer c.pop()
	l := &ast.ListLit{}
	for _, p := range r.Provisioners {
		ps := &ast.StructLit{Elts: []ast.Decl{
			field(ident("type"), stringLit(p.Type)),
			field(ident("when"), stringLit(p.When)),
			field(ident("on_failure"), stringLit(p.OnFailure)),
			field(ident("config"), c.arguments(p.Config)),
		}}
		conn := p.Connection
		if conn == nil {
			conn = r.Connection
		}
		if conn != nil {
			ps.Elts = append(ps.Elts, field(ident("connection"), c.arguments(conn.Config)))
		} else {
			ps.Elts = append(ps.Elts, field(ident("connection"), ast.NewNull()))
		}
		if bodyRefersToSelf(p.Config) || conn != nil && bodyRefersToSelf(conn.Config) {
			ps.Elts = append([]ast.Decl{&ast.LetClause{Ident: ident("self"), Expr: self}}, ps.Elts...)
		}
		l.Elts = append(l.Elts, ps)
	}
	s.Elts = append(s.Elts, field(ident(cueform.Provisioners), l))
}

// arguments converts the arguments of a body that has no schema (a
// provisioner's, a connection's) to a struct, in source order.
func (c *converter) arguments(body hcl.Body) ast.Expr {
	attrs, diags := config.Arguments(body)
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			c.unconverted(*d.Subject, "Block not converted", d.Detail)
		}
	}
	list := make([]*hcl.Attribute, 0, len(attrs))
	for _, a := range attrs {
		list = append(list, a)
	}
	slices.SortFunc(list, func(a, b *hcl.Attribute) int { return a.Range.Start.Byte - b.Range.Start.Byte })
	s := &ast.StructLit{}
	for _, a := range list {
		x, _ := c.expr(a.Expr)
		s.Elts = append(s.Elts, field(c.lbl(a.Name), x))
	}
	return s
}

// selfRef is the reference to the instance of the resource at path being
// converted: the resource itself, or its element for the instance's
// count.index or each.key, which instances binds.
func (c *converter) selfRef(path []string) ast.Expr {
	x := pathExpr(path)
	if b, ok := c.lookup("each"); ok {
		return index(x, selector(ident(b.cue), "key"))
	}
	if b, ok := c.lookup("count"); ok {
		return index(x, selector(ident(b.cue), "index"))
	}
	return x
}

// bodyRefersToSelf tells whether an argument of a body without a schema
// refers to self.
func bodyRefersToSelf(body hcl.Body) bool {
	attrs, _ := config.Arguments(body)
	for _, a := range attrs {
		if refersToSelf(a.Expr) {
			return true
		}
	}
	return false
}

func refersToSelf(e hcl.Expression) bool {
	if e == nil {
		return false
	}
	for _, t := range e.Variables() {
		if t.RootName() == "self" {
			return true
		}
	}
	return false
}

// moduleCall converts a module block (see modules.go):
//
//	module: vpc: {let args = {cidr: "10.0.0.0/16"}, args, _mod: ..., _out: ...} @module(vpc, source="./vpc")
//
// The child module's outputs are read from the call's hidden _out.
func (c *converter) moduleCall(b *hclsyntax.Block) []ast.Decl {
	if len(b.Labels) != 1 {
		return nil
	}
	mc := c.m.ModuleCalls[b.Labels[0]]
	if mc == nil {
		return nil
	}
	args := []string{attrString(mc.Name)}
	if mc.SourceAddr != nil {
		args = append(args, "source="+attrString(mc.SourceAddr.Raw))
	} else if mc.Source != nil {
		args = append(args, "source="+attrString(c.sourceText(mc.Source.Range())))
	}
	if mc.VersionExpr != nil {
		if v, diags := mc.VersionExpr.Value(nil); !diags.HasErrors() && v.Type().Equals(cty.String) && v.IsKnown() && !v.IsNull() {
			args = append(args, "version="+attrString(v.AsString()))
		}
	}
	if len(mc.Providers) > 0 {
		var ps []string
		for i := range mc.Providers {
			p := &mc.Providers[i]
			ps = append(ps, providerRefText(p.InChild)+"="+providerRefText(p.InParent))
		}
		args = append(args, cueform.Arg(cueform.ArgProviders, strings.Join(ps, ",")))
	}
	if len(mc.DependsOn) > 0 {
		args = append(args, cueform.Arg(cueform.ArgDependsOn, traversalList(mc.DependsOn)))
	}
	cm := c.childTemplate(mc)
	c.curBody = b.Body
	value, multi, cond := c.instances(mc.Count, mc.ForEach, mc.Enabled, func() ast.Expr {
		s := c.body(b.Body, moduleMeta, otherArgs)
		c.share(s)
		if cm == nil {
			// A module not converted (a registry or remote source):
			// its outputs are open.
			s.Elts = append(s.Elts, field(ident(callOutputs), &ast.StructLit{Elts: []ast.Decl{&ast.Ellipsis{}}}))
			return s
		}
		key, _ := c.childKey(mc)
		return c.callInstance(s, key, cm, b.Body)
	})
	if multi {
		args[0] = attrString(mc.Name + "[*]")
	}
	outer, inner := c.nested([]string{moduleRoot, mc.Name}, value)
	inner.Attrs = []*ast.Attribute{attr(cueform.AttrModule, args...)}
	return []ast.Decl{wrapIf(outer, cond)}
}

func providerRefText(p config.ProviderRef) string {
	if p.Alias != "" {
		return p.Name + "." + p.Alias
	}
	return p.Name
}

// provider converts a provider configuration:
//
//	provider: aws: {region: _var_region} @provider(aws)
//	provider: "aws.west": {region: "us-west-2"} @provider(aws.west)
func (c *converter) provider(b *hclsyntax.Block) []ast.Decl {
	if len(b.Labels) != 1 {
		return nil
	}
	name := b.Labels[0]
	alias := ""
	if a, ok := b.Body.Attributes["alias"]; ok {
		if v, diags := a.Expr.Value(nil); !diags.HasErrors() && v.Type().Equals(cty.String) && v.IsKnown() && !v.IsNull() {
			alias = v.AsString()
		}
	}
	p := c.m.ProviderConfig(name, alias)
	key := name
	if alias != "" {
		key += "." + alias
	}
	args := []string{attrString(key)}
	if p != nil && len(p.Middleware) > 0 {
		args = append(args, "middleware="+attrString(middlewareNames(p.Middleware)))
	}
	var forEach hcl.Expression
	if p != nil {
		forEach = p.ForEach
	}
	c.curBody = b.Body
	value, multi, _ := c.instances(nil, forEach, nil, func() ast.Expr {
		return c.body(b.Body, map[string]bool{"alias": true, "version": true, "for_each": true, "middleware": true}, otherArgs)
	})
	if multi {
		args[0] = attrString(key + "[*]")
	}
	outer, inner := c.nested([]string{providerRoot, key}, value)
	inner.Attrs = []*ast.Attribute{attr(cueform.AttrProvider, args...)}
	return []ast.Decl{outer}
}

func middlewareNames(refs []config.Reference) string {
	var names []string
	for _, r := range refs {
		if len(r.Traversal) == 2 {
			if a, ok := r.Traversal[1].(hcl.TraverseAttr); ok {
				names = append(names, a.Name)
				continue
			}
		}
		names = append(names, traversalText(r.Traversal))
	}
	return strings.Join(names, ",")
}

// letName is the name of the let binding that stands for OpenTofu's count
// or each object in an instance: the name itself, unless the instance's
// body has a field of that name anywhere, which CUE would not allow beside
// it.
func (c *converter) letName(name string) string {
	if c.curBody == nil || !bodyUsesBesidesMeta(c.curBody, name) {
		return name
	}
	n := name + "_"
	for bodyUsesBesidesMeta(c.curBody, n) {
		n += "_"
	}
	return n
}

// bodyUses reports whether a body has an argument or block called name, at
// any depth.
func bodyUses(b *hclsyntax.Body, name string) bool {
	if _, ok := b.Attributes[name]; ok {
		return true
	}
	found := false
	for _, a := range b.Attributes {
		_ = hclsyntax.VisitAll(a.Expr, func(n hclsyntax.Node) hcl.Diagnostics {
			if o, ok := n.(*hclsyntax.ObjectConsExpr); ok {
				for _, it := range o.Items {
					if k, ok := objectKeyName(it.KeyExpr); ok && k == name {
						found = true
					}
				}
			}
			return nil
		})
	}
	if found {
		return true
	}
	for _, blk := range b.Blocks {
		if blk.Type == name || bodyUses(blk.Body, name) {
			return true
		}
	}
	return false
}

// bodyUsesBesidesMeta is bodyUses leaving out the block's own
// meta-arguments (count, for_each).
func bodyUsesBesidesMeta(b *hclsyntax.Body, name string) bool {
	if _, ok := b.Attributes[name]; ok && (resourceMeta[name] || moduleMeta[name]) {
		rest := *b
		rest.Attributes = hclsyntax.Attributes{}
		for k, a := range b.Attributes {
			if k != name {
				rest.Attributes[k] = a
			}
		}
		return bodyUses(&rest, name)
	}
	return bodyUses(b, name)
}

// passedArguments are the arguments a module block gives its module's
// variables, in source order.
func passedArguments(b *hclsyntax.Body) []string {
	var out []string
	for _, a := range sortedAttrs(b) {
		if !moduleMeta[a.Name] {
			out = append(out, a.Name)
		}
	}
	return out
}
