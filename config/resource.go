package config

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// ResourceMode tells managed resources, data sources and ephemeral resources
// apart.
type ResourceMode int

// The resource modes.
const (
	ManagedMode ResourceMode = iota
	DataMode
	EphemeralMode
)

// BlockType is the block type that declares a resource of this mode.
func (m ResourceMode) BlockType() string {
	return [...]string{"resource", "data", "ephemeral"}[m]
}

// Resource is a resource, data or ephemeral block.
type Resource struct {
	declBase
	Mode ResourceMode
	Type string
	Name string

	Count   hcl.Expression
	ForEach hcl.Expression
	// Enabled is lifecycle { enabled = ... }.
	Enabled   hcl.Expression
	Provider  *ProviderRef
	DependsOn []hcl.Traversal

	// Config is the resource type's own arguments and blocks, with any "_"
	// escaping block merged in.
	Config hcl.Body

	Lifecycle    Lifecycle
	Connection   *Connection
	Provisioners []*Provisioner
}

// ProviderName is the local name of the provider the resource belongs
// to: the one its provider argument names, else the one its type implies
// (the type up to its first underscore, as OpenTofu takes it).
func (r *Resource) ProviderName() string {
	if r.Provider != nil {
		return r.Provider.Name
	}
	name, _, _ := strings.Cut(r.Type, "_")
	return name
}

// Addr is "type.name", or "data.type.name" / "ephemeral.type.name".
func (r *Resource) Addr() string {
	switch r.Mode {
	case DataMode:
		return "data." + r.Type + "." + r.Name
	case EphemeralMode:
		return "ephemeral." + r.Type + "." + r.Name
	}
	return r.Type + "." + r.Name
}

// Key is the key of the resource in its Module map: "type.name".
func (r *Resource) Key() string { return r.Type + "." + r.Name }

// Lifecycle is the lifecycle block of a resource.
type Lifecycle struct {
	DeclRange           *hcl.Range
	CreateBeforeDestroy *bool
	PreventDestroy      *bool
	// IgnoreAllChanges is ignore_changes = all.
	IgnoreAllChanges   bool
	IgnoreChanges      []hcl.Traversal
	ReplaceTriggeredBy []hcl.Expression
	Preconditions      []*CheckRule
	Postconditions     []*CheckRule
}

// Connection is a connection block, kept opaque: its arguments depend on the
// connection type.
type Connection struct {
	Config    hcl.Body
	DeclRange hcl.Range
}

// Provisioner is a provisioner block.
type Provisioner struct {
	Type       string
	Config     hcl.Body
	Connection *Connection
	// When is "create" or "destroy".
	When string
	// OnFailure is "fail" or "continue".
	OnFailure string
	DeclRange hcl.Range
	TypeRange hcl.Range
}

var resourceSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "count"},
		{Name: "for_each"},
		{Name: "provider"},
		{Name: "depends_on"},
	},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "lifecycle"},
		{Type: "connection"},
		{Type: "provisioner", LabelNames: []string{"type"}},
		{Type: "_"},
		// Reserved for future use.
		{Type: "locals"},
	},
}

// resourceNames gives the summaries for an invalid type and name label.
var resourceNames = map[ResourceMode][2]string{
	ManagedMode:   {"Invalid resource type name", "Invalid resource name"},
	DataMode:      {"Invalid data source name", "Invalid data resource name"},
	EphemeralMode: {"Invalid ephemeral resource type name", "Invalid ephemeral resource name"},
}

func (d *decoder) decodeResource(block *hcl.Block, mode ResourceMode) *Resource {
	r := &Resource{declBase: baseOf(block), Mode: mode, Type: block.Labels[0], Name: block.Labels[1]}
	content, remain := d.partialContent(block.Body, resourceSchema)
	r.Config = remain

	names := resourceNames[mode]
	d.checkName(r.Type, block.LabelRanges[0], names[0])
	d.checkName(r.Name, block.LabelRanges[1], names[1])

	var countRng, forEachRng, enabledRng hcl.Range
	if attr, ok := content.Attributes["count"]; ok {
		r.Count, countRng = attr.Expr, attr.NameRange
	}
	if attr, ok := content.Attributes["for_each"]; ok {
		r.ForEach, forEachRng = attr.Expr, attr.NameRange
	}
	if attr, ok := content.Attributes["provider"]; ok {
		if ref, ok := d.decodeProviderRef(attr.Expr, "provider"); ok {
			r.Provider = &ref
		}
	}
	if attr, ok := content.Attributes["depends_on"]; ok {
		r.DependsOn = d.decodeDependsOn(attr)
	}

	var seenLifecycle, seenConnection, seenEscape *hcl.Block
	for _, b := range content.Blocks {
		switch b.Type {
		case "lifecycle":
			if seenLifecycle != nil {
				d.errorf(b.DefRange, "Duplicate lifecycle block", "This resource already has a lifecycle block at %s.", seenLifecycle.DefRange)
				continue
			}
			seenLifecycle = b
			enabledRng = d.decodeLifecycle(r, b)
		case "connection":
			if mode == EphemeralMode {
				d.errorf(b.DefRange, "Invalid configuration block for ephemeral resource", "Ephemeral resources cannot have connection blocks.")
				continue
			}
			if mode == DataMode {
				d.errorf(b.TypeRange, "Reserved block type name in data block", "The block type name %q is reserved for use by OpenTofu in a future version.", b.Type)
				continue
			}
			if seenConnection != nil {
				d.errorf(b.DefRange, "Duplicate connection block", "This resource already has a connection block at %s.", seenConnection.DefRange)
				continue
			}
			seenConnection = b
			r.Connection = &Connection{Config: b.Body, DeclRange: b.DefRange}
		case "provisioner":
			if mode == EphemeralMode {
				d.errorf(b.DefRange, "Invalid configuration block for ephemeral resource", "Ephemeral resources cannot have provisioner blocks.")
				continue
			}
			if mode == DataMode {
				d.errorf(b.TypeRange, "Reserved block type name in data block", "The block type name %q is reserved for use by OpenTofu in a future version.", b.Type)
				continue
			}
			if p := d.decodeProvisioner(b); p != nil {
				r.Provisioners = append(r.Provisioners, p)
			}
		case "_":
			r.Config = d.joinEscape(&seenEscape, b, r.Config, "resource-type-specific", mode.BlockType())
		default:
			d.errorf(b.TypeRange, fmt.Sprintf("Reserved block type name in %s block", mode.BlockType()), "The block type name %q is reserved for use by OpenTofu in a future version.", b.Type)
		}
	}

	d.checkRepetition(countRng, enabledRng, forEachRng, [...]string{"resources", "data sources", "ephemeral resources"}[mode])
	d.checkDestroyProvisionerRefs(r)
	d.checkSelfReferences(r)
	d.checkReplaceTriggeredBy(r)
	return r
}

// checkRepetition reports count, for_each and lifecycle.enabled used
// together: they are mutually exclusive.
func (d *decoder) checkRepetition(countRng, enabledRng, forEachRng hcl.Range, noun string) {
	type arg struct {
		name string
		rng  hcl.Range
	}
	var set []arg
	for _, a := range []arg{{`"count"`, countRng}, {`"enabled"`, enabledRng}, {`"for_each"`, forEachRng}} {
		if !a.rng.Empty() || a.rng.Filename != "" {
			set = append(set, a)
		}
	}
	if len(set) < 2 {
		return
	}
	names := make([]string, len(set))
	for i, a := range set {
		names[i] = a.name
	}
	list := names[0] + " and " + names[1]
	if len(names) == 3 {
		list = names[0] + ", " + names[1] + ", and " + names[2]
	}
	sort.SliceStable(set, func(i, j int) bool { return set[i].rng.Start.Byte < set[j].rng.Start.Byte })
	subject := hcl.RangeBetween(set[0].rng, set[len(set)-1].rng)
	d.errorf(subject, "Invalid combination of "+list,
		"The %s meta-arguments are mutually-exclusive. Only one may be used to be explicit about the number of %s to be created.", list, noun)
}

var (
	managedLifecycleSchema = &hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{
			{Name: "create_before_destroy"},
			{Name: "prevent_destroy"},
			{Name: "ignore_changes"},
			{Name: "replace_triggered_by"},
			{Name: "enabled"},
		},
		Blocks: []hcl.BlockHeaderSchema{{Type: "precondition"}, {Type: "postcondition"}},
	}
	// managedOnlyLifecycleArgs are the lifecycle arguments that data and
	// ephemeral resources do not take.
	managedOnlyLifecycleArgs = []string{"create_before_destroy", "prevent_destroy", "ignore_changes", "replace_triggered_by"}
)

// decodeLifecycle reads a resource's lifecycle block and returns the range
// of its enabled argument, if any.
func (d *decoder) decodeLifecycle(r *Resource, block *hcl.Block) hcl.Range {
	lc := &r.Lifecycle
	lc.DeclRange = block.DefRange.Ptr()
	content := d.content(block.Body, managedLifecycleSchema)

	if r.Mode != ManagedMode {
		for _, name := range managedOnlyLifecycleArgs {
			attr, ok := content.Attributes[name]
			if !ok {
				continue
			}
			if r.Mode == DataMode {
				d.errorf(attr.NameRange, "Invalid data resource lifecycle argument", "The lifecycle argument %q is defined only for managed resources (\"resource\" blocks), and is not valid for data resources.", name)
			} else {
				d.errorf(attr.NameRange, "Invalid lifecycle configuration for ephemeral resource", "The lifecycle argument %q cannot be used in ephemeral resources. This is meant to be used strictly in \"resource\" blocks.", name)
			}
			delete(content.Attributes, name)
		}
	}

	var enabledRng hcl.Range
	if attr, ok := content.Attributes["enabled"]; ok {
		r.Enabled, enabledRng = attr.Expr, attr.NameRange
	}
	if attr, ok := content.Attributes["create_before_destroy"]; ok {
		var b bool
		if d.decodeValue(attr, &b) {
			lc.CreateBeforeDestroy = &b
		}
	}
	if attr, ok := content.Attributes["prevent_destroy"]; ok {
		var b bool
		if d.decodeValue(attr, &b) {
			lc.PreventDestroy = &b
		}
	}
	if attr, ok := content.Attributes["ignore_changes"]; ok {
		d.decodeIgnoreChanges(lc, attr)
	}
	if attr, ok := content.Attributes["replace_triggered_by"]; ok {
		exprs, diags := hcl.ExprList(attr.Expr)
		d.report(diags...)
		for _, e := range exprs {
			lc.ReplaceTriggeredBy = append(lc.ReplaceTriggeredBy, d.jsonExpression(e))
		}
	}
	for _, b := range content.Blocks {
		rule := d.decodeCheckRule(b, b.Type)
		if b.Type == "precondition" {
			lc.Preconditions = append(lc.Preconditions, rule)
		} else {
			lc.Postconditions = append(lc.Postconditions, rule)
		}
	}
	return enabledRng
}

func (d *decoder) decodeIgnoreChanges(lc *Lifecycle, attr *hcl.Attribute) {
	if hcl.ExprAsKeyword(attr.Expr) == "all" {
		lc.IgnoreAllChanges = true
		return
	}
	exprs, diags := hcl.ExprList(attr.Expr)
	d.report(diags...)
	var wildcard *hcl.Range
	for _, e := range exprs {
		if v, vd := e.Value(nil); !vd.HasErrors() && v.Type() == cty.String && v.IsKnown() && !v.IsNull() && v.AsString() == "*" {
			d.errorf(attr.Expr.Range(), "Invalid ignore_changes wildcard", "The [\"*\"] form of ignore_changes wildcard is deprecated and now invalid. Use \"ignore_changes = all\" to ignore changes to all attributes.")
			wildcard = e.Range().Ptr()
			continue
		}
		e = d.unquoteReference(e)
		tr, tdiags := hcl.RelTraversalForExpr(e)
		d.report(tdiags...)
		if !tdiags.HasErrors() {
			lc.IgnoreChanges = append(lc.IgnoreChanges, tr)
		}
	}
	if wildcard != nil && len(lc.IgnoreChanges) > 0 {
		d.report(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid ignore_changes ruleset", Detail: `Cannot mix wildcard string "*" with non-wildcard references.`, Subject: wildcard, Context: attr.Expr.Range().Ptr()})
	}
}

var provisionerSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "when"}, {Name: "on_failure"}},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "connection"},
		{Type: "_"},
		// Reserved for future use.
		{Type: "lifecycle"},
	},
}

// removedProvisioners are the vendor provisioners that were removed from the
// language.
var removedProvisioners = []string{"chef", "habitat", "puppet", "salt-masterless"}

func (d *decoder) decodeProvisioner(block *hcl.Block) *Provisioner {
	p := &Provisioner{Type: block.Labels[0], DeclRange: block.DefRange, TypeRange: block.LabelRanges[0], When: "create", OnFailure: "fail"}
	if slices.Contains(removedProvisioners, p.Type) {
		d.errorf(block.LabelRanges[0], fmt.Sprintf("The %q provisioner has been removed", p.Type),
			"The %q provisioner was deprecated in Terraform 0.13.4 and removed before OpenTofu existed. Use a configuration management tool of its own, or provision the machine at boot time.", p.Type)
		return nil
	}
	content, remain := d.partialContent(block.Body, provisionerSchema)
	p.Config = remain

	if attr, ok := content.Attributes["when"]; ok {
		switch kw := d.unquoteKeyword(attr.Expr); kw {
		case "create", "destroy":
			p.When = kw
		default:
			d.errorf(attr.Expr.Range(), `Invalid "when" keyword`, `The "when" argument requires one of the following keywords: create or destroy.`)
		}
	}
	if attr, ok := content.Attributes["on_failure"]; ok {
		switch kw := d.unquoteKeyword(attr.Expr); kw {
		case "fail", "continue":
			p.OnFailure = kw
		default:
			d.errorf(attr.Expr.Range(), `Invalid "on_failure" keyword`, `The "on_failure" argument requires one of the following keywords: continue or fail.`)
		}
	}
	var seenConnection, seenEscape *hcl.Block
	for _, b := range content.Blocks {
		switch b.Type {
		case "connection":
			if seenConnection != nil {
				d.errorf(b.DefRange, "Duplicate connection block", "This provisioner already has a connection block at %s.", seenConnection.DefRange)
				continue
			}
			seenConnection = b
			p.Connection = &Connection{Config: b.Body, DeclRange: b.DefRange}
		case "_":
			p.Config = d.joinEscape(&seenEscape, b, p.Config, "provisioner-type-specific", "provisioner")
		default:
			d.errorf(b.TypeRange, "Reserved block type name in provisioner block", "The block type name %q is reserved for use by OpenTofu in a future version.", b.Type)
		}
	}
	return p
}

// checkDestroyProvisionerRefs reports references that a destroy-time
// provisioner cannot make: at destroy time only the resource itself and
// static values are left. The rule covers the provisioner's arguments, its
// connection block, and the resource's connection block when any of its
// provisioners runs at destroy time.
func (d *decoder) checkDestroyProvisionerRefs(r *Resource) {
	anyDestroy := false
	for _, p := range r.Provisioners {
		if p.When != "destroy" {
			continue
		}
		anyDestroy = true
		d.onlySelfRefs(p.Config)
		if p.Connection != nil {
			d.onlySelfRefs(p.Connection.Config)
		}
	}
	if anyDestroy && r.Connection != nil {
		d.onlySelfRefs(r.Connection.Config)
	}
}

func (d *decoder) onlySelfRefs(body hcl.Body) {
	attrs, _ := body.JustAttributes()
	for _, attr := range sortedAttrs(attrs) {
		for _, tr := range attr.Expr.Variables() {
			if isStaticOrSelfRef(tr) {
				continue
			}
			d.errorf(tr.SourceRange(), "Invalid reference from destroy provisioner",
				"Destroy-time provisioners and their connection configurations may only reference attributes of the related resource, via 'self', 'count.index', or 'each.key'.\n\nReferences to other resources during the destroy phase can cause dependency cycles and interact poorly with create_before_destroy.")
		}
	}
}

func isStaticOrSelfRef(tr hcl.Traversal) bool {
	attrIs := func(name string) bool {
		if len(tr) != 2 {
			return false
		}
		a, ok := tr[1].(hcl.TraverseAttr)
		return ok && a.Name == name
	}
	switch tr.RootName() {
	case "self", "path", "terraform", "tofu":
		return true
	case "count":
		return attrIs("index")
	case "each":
		return attrIs("key")
	}
	return false
}

// sortedAttrs orders attributes by position, for diagnostics in source order.
func sortedAttrs(attrs hcl.Attributes) []*hcl.Attribute {
	out := make([]*hcl.Attribute, 0, len(attrs))
	for _, a := range attrs {
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool { return compareRanges(out[i].Range, out[j].Range) < 0 })
	return out
}

// checkSelfReferences reports a precondition or postcondition that refers to
// its own resource by address: it must use self (postconditions) or cannot
// refer to it at all (preconditions).
func (d *decoder) checkSelfReferences(r *Resource) {
	check := func(rules []*CheckRule, kind string) {
		for _, rule := range rules {
			for _, expr := range []hcl.Expression{rule.Condition, rule.ErrorMessage} {
				if expr == nil {
					continue
				}
				for _, tr := range expr.Variables() {
					if refersToResource(tr, r) {
						d.errorf(tr.SourceRange(), "Invalid reference in "+kind,
							"Configuration for %s may not refer to itself.", r.Addr())
					}
				}
			}
		}
	}
	check(r.Lifecycle.Preconditions, "precondition")
	check(r.Lifecycle.Postconditions, "postcondition")
}

// refersToResource tells whether a traversal names the resource r.
func refersToResource(tr hcl.Traversal, r *Resource) bool {
	names := traversalNames(tr)
	switch r.Mode {
	case DataMode:
		return len(names) >= 3 && names[0] == "data" && names[1] == r.Type && names[2] == r.Name
	case EphemeralMode:
		return len(names) >= 3 && names[0] == "ephemeral" && names[1] == r.Type && names[2] == r.Name
	}
	if len(names) >= 3 && names[0] == "resource" {
		names = names[1:]
	}
	return len(names) >= 2 && names[0] == r.Type && names[1] == r.Name
}

// traversalNames returns the leading attribute names of a traversal, up to
// the first index step.
func traversalNames(tr hcl.Traversal) []string {
	var names []string
	for _, step := range tr {
		switch s := step.(type) {
		case hcl.TraverseRoot:
			names = append(names, s.Name)
		case hcl.TraverseAttr:
			names = append(names, s.Name)
		default:
			return names
		}
	}
	return names
}

// checkReplaceTriggeredBy checks that every replace_triggered_by element is
// a reference to a managed resource (or its attributes), with count.index
// and each.key/each.value the only other references allowed in its index
// expressions.
func (d *decoder) checkReplaceTriggeredBy(r *Resource) {
	for _, expr := range r.Lifecycle.ReplaceTriggeredBy {
		vars := expr.Variables()
		if len(vars) == 0 {
			d.errorf(expr.Range(), "Invalid replace_triggered_by expression", "Missing resource reference in replace_triggered_by expression.")
			continue
		}
		for _, tr := range vars {
			switch tr.RootName() {
			case "count":
				if r.Count == nil {
					d.errorf(tr.SourceRange(), "Invalid count reference in replace_triggered_by expression", "count.index can only be used in a resource that sets count.")
				}
			case "each":
				if r.ForEach == nil {
					d.errorf(tr.SourceRange(), "Invalid each reference in replace_triggered_by expression", "each.key and each.value can only be used in a resource that sets for_each.")
					continue
				}
				names := traversalNames(tr)
				if len(names) != 2 || (names[1] != "key" && names[1] != "value") {
					d.errorf(tr.SourceRange(), "Invalid each reference in replace_triggered_by expression", "Only each.key or each.value can be used in replace_triggered_by expressions.")
				}
			case "data", "ephemeral", "var", "local", "module", "path", "terraform", "tofu", "self":
				d.errorf(tr.SourceRange(), "Invalid reference in replace_triggered_by expression", "Only resources, count.index, and each.key may be used in replace_triggered_by.")
			default:
				if names := traversalNames(tr); len(names) < 2 || (names[0] == "resource" && len(names) < 3) {
					d.errorf(tr.SourceRange(), "Invalid reference in replace_triggered_by expression", "A reference to a resource type must be followed by at least one attribute access, specifying the resource name.")
				}
			}
		}
	}
}

// Arguments returns the arguments of a body that has no schema of its own
// (a provisioner's or a connection's, whose arguments depend on its type),
// as the decoder left it: the blocks the decoder took from a provisioner
// (connection, lifecycle, _) are not arguments, and any other block is an
// error.
func Arguments(body hcl.Body) (hcl.Attributes, hcl.Diagnostics) {
	attrs, diags := body.JustAttributes()
	taken := func(typ string) bool { return typ == "connection" || typ == "lifecycle" || typ == "_" }
	var out hcl.Diagnostics
	for _, d := range diags {
		if typ, ok := strings.CutPrefix(d.Summary, "Unexpected "); ok && taken(strings.TrimSuffix(strings.TrimPrefix(typ, `"`), `" block`)) {
			continue
		}
		out = append(out, d)
	}
	if sb, ok := body.(*hclsyntax.Body); ok {
		out = nil
		for _, d := range diags {
			if !strings.HasPrefix(d.Summary, "Unexpected ") {
				out = append(out, d)
			}
		}
		for _, b := range sb.Blocks {
			if !taken(b.Type) {
				out = append(out, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: fmt.Sprintf("Unexpected %q block", b.Type), Detail: "Blocks are not allowed here.", Subject: b.TypeRange.Ptr()})
			}
		}
	}
	return attrs, out
}
