package config

import (
	"regexp"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// Provider is a provider configuration block.
type Provider struct {
	declBase
	Name       string
	NameRange  hcl.Range
	Alias      string
	AliasRange *hcl.Range
	// ForEach is set for a provider block with for_each (OpenTofu 1.9+).
	ForEach hcl.Expression
	// Version is the deprecated version argument.
	Version *VersionConstraint
	// Middleware is the provider-level middleware = [middleware.x, ...] list.
	Middleware []Reference
	// Config is the provider's own arguments, with any "_" escaping block
	// merged in.
	Config hcl.Body
}

// Key is the key of the provider in Module.ProviderConfigs.
func (p *Provider) Key() string { return providerKey(p.Name, p.Alias) }

func providerKey(name, alias string) string {
	if alias == "" {
		return name
	}
	return name + "." + alias
}

// ProviderRef is a reference to a provider configuration: name, name.alias,
// or name.alias[key] for a provider with for_each.
type ProviderRef struct {
	Name  string
	Alias string
	// Key is the instance key expression, for name.alias[key].
	Key   hcl.Expression
	Range hcl.Range
}

func (r ProviderRef) String() string { return providerKey(r.Name, r.Alias) }

// providerLocalNameRule explains what a provider local name may contain.
const providerLocalNameRule = "must contain only lowercase letters, digits, and dashes, and may not use leading or trailing dashes"

var providerLocalNamePattern = regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)*$`)

func isProviderLocalName(s string) bool { return providerLocalNamePattern.MatchString(s) }

var providerSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "alias"},
		{Name: "version"},
		{Name: "for_each"},
		{Name: "middleware"},
		// Reserved for future use.
		{Name: "count"},
		{Name: "depends_on"},
		{Name: "source"},
	},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "_"},
		// Reserved for future use.
		{Type: "lifecycle"},
		{Type: "locals"},
	},
}

func (d *decoder) decodeProvider(block *hcl.Block) *Provider {
	p := &Provider{declBase: baseOf(block), Name: block.Labels[0], NameRange: block.LabelRanges[0]}
	content, remain := d.partialContent(block.Body, providerSchema)
	p.Config = remain

	if !isProviderLocalName(p.Name) {
		d.errorf(p.NameRange, "Invalid provider local name", "%s is an invalid provider local name: %s", p.Name, providerLocalNameRule)
	}
	if attr, ok := content.Attributes["alias"]; ok {
		if kw := hcl.ExprAsKeyword(attr.Expr); kw != "" && !isStringLiteral(attr.Expr) {
			p.Alias = kw
		} else {
			d.decodeValue(attr, &p.Alias)
		}
		p.AliasRange = attr.Expr.Range().Ptr()
		if p.Alias != "" && !hclsyntax.ValidIdentifier(p.Alias) {
			d.errorf(attr.Expr.Range(), "Invalid provider configuration alias", "An alias must be a valid name. %s", badIdentifierDetail)
		}
	}
	if attr, ok := content.Attributes["version"]; ok {
		d.warnf(attr.Expr.Range(), "Version constraints inside provider configuration blocks are deprecated",
			"Version constraints for providers belong in the required_providers block of the terraform block. This argument is deprecated and will be removed in a future version of OpenTofu.")
		if vc, ok := d.decodeVersionConstraint(attr); ok {
			p.Version = &vc
		}
	}
	if attr, ok := content.Attributes["for_each"]; ok {
		p.ForEach = attr.Expr
		if p.Alias == "" {
			d.errorf(attr.NameRange, "Invalid provider configuration", "A provider configuration with for_each must also have an alias.")
		}
	}
	if attr, ok := content.Attributes["middleware"]; ok {
		p.Middleware = d.decodeMiddlewareRefs(attr)
	}
	for _, name := range []string{"count", "depends_on", "source"} {
		if attr, ok := content.Attributes[name]; ok {
			d.errorf(attr.NameRange, "Reserved argument name in provider block", "The provider argument name %q is reserved for use by OpenTofu in a future version.", name)
		}
	}
	var escape *hcl.Block
	for _, b := range content.Blocks {
		switch b.Type {
		case "_":
			p.Config = d.joinEscape(&escape, b, p.Config, "provider-specific", "provider")
		default:
			d.errorf(b.TypeRange, "Reserved block type name in provider block", "The block type name %q is reserved for use by OpenTofu in a future version.", b.Type)
		}
	}
	return p
}

// decodeProviderRef reads a provider reference written as a bare traversal
// (or, deprecated, as a quoted string).
func (d *decoder) decodeProviderRef(expr hcl.Expression, argName string) (ProviderRef, bool) {
	expr = d.unquoteReference(expr)
	var keyExpr hcl.Expression
	if ix, ok := expr.(*hclsyntax.IndexExpr); ok {
		keyExpr = ix.Key
		expr = ix.Collection
	}
	tr, diags := hcl.AbsTraversalForExpr(expr)
	if diags.HasErrors() {
		d.errorf(expr.Range(), "Invalid provider configuration reference", "The %s argument requires a provider type name, optionally followed by a period and then a configuration alias.", argName)
		return ProviderRef{}, false
	}
	ref := ProviderRef{Name: tr.RootName(), Range: tr.SourceRange(), Key: keyExpr}
	if !isProviderLocalName(ref.Name) {
		d.errorf(tr.SourceRange(), "Invalid provider local name", "%s is an invalid provider local name: %s", ref.Name, providerLocalNameRule)
		return ref, false
	}
	rest := tr[1:]
	if len(rest) > 0 {
		if a, ok := rest[0].(hcl.TraverseAttr); ok {
			ref.Alias = a.Name
			rest = rest[1:]
		}
	}
	if len(rest) == 1 && keyExpr == nil {
		if ix, ok := rest[0].(hcl.TraverseIndex); ok && ref.Alias != "" {
			keyExpr = hcl.StaticExpr(ix.Key, ix.SrcRange)
			ref.Key = keyExpr
			rest = nil
		}
	}
	if len(rest) > 0 {
		d.errorf(tr.SourceRange(), "Invalid provider configuration reference", "Extraneous operators after provider configuration reference in %s.", argName)
		return ref, false
	}
	return ref, true
}

// isStringLiteral tells a quoted string with no interpolation.
func isStringLiteral(expr hcl.Expression) bool {
	t, ok := expr.(*hclsyntax.TemplateExpr)
	return ok && t.IsStringLiteral()
}

// unquoteReference accepts a reference written in quotes, as OpenTofu 0.11
// required, with a deprecation warning, and returns it as a traversal
// expression. (In JSON files strings are the normal way to write references;
// hcl reads them as traversals without help.)
func (d *decoder) unquoteReference(expr hcl.Expression) hcl.Expression {
	if !isStringLiteral(expr) {
		return expr
	}
	val, _ := expr.Value(nil)
	rng := expr.Range()
	start := hcl.Pos{Line: rng.Start.Line, Column: rng.Start.Column + 1, Byte: rng.Start.Byte + 1}
	tr, diags := hclsyntax.ParseTraversalAbs([]byte(val.AsString()), rng.Filename, start)
	if diags.HasErrors() {
		return expr
	}
	d.warnf(rng, "Quoted references are deprecated",
		"In this context, references are expected literally rather than in quotes. OpenTofu 0.11 and earlier required quotes, but quoted references are now deprecated and will be removed in a future version of OpenTofu. Remove the quotes surrounding this reference to silence this warning.")
	return &hclsyntax.ScopeTraversalExpr{Traversal: tr, SrcRange: rng}
}

// unquoteKeyword returns the keyword an expression names, accepting a quoted
// keyword with a deprecation warning.
func (d *decoder) unquoteKeyword(expr hcl.Expression) string {
	if kw := hcl.ExprAsKeyword(expr); kw != "" {
		return kw
	}
	if isStringLiteral(expr) {
		val, _ := expr.Value(nil)
		d.warnf(expr.Range(), "Quoted keywords are deprecated",
			"In this context, keywords are expected literally rather than in quotes. OpenTofu 0.11 and earlier required quotes, but quoted keywords are now deprecated and will be removed in a future version of OpenTofu. Remove the quotes surrounding this keyword to silence this warning.")
		return val.AsString()
	}
	return ""
}
