package config

import (
	"fmt"
	"regexp"
	"strings"

	goversion "github.com/hashicorp/go-version"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/tofucue/tofucue/features"
)

// Terraform is the module's terraform blocks, combined.
type Terraform struct {
	// Blocks are the ranges of every terraform block header.
	Blocks []hcl.Range

	// RequiredVersions holds every required_version constraint. Only those
	// from .tofu files constrain OpenTofu itself; the others speak to
	// OpenTofu's predecessor and are kept for tools that care.
	RequiredVersions []VersionConstraint

	// RequiredProviders is keyed by the provider's local name.
	RequiredProviders map[string]*RequiredProvider
	// RequiredProvidersBlocks are the ranges of the required_providers
	// blocks; a module (not counting override files) may have one.
	RequiredProvidersBlocks []hcl.Range

	// Experiments holds the keywords of terraform { experiments = [...] },
	// as the opt-in reference symbols RFC writes them. The features package
	// decides what they mean.
	Experiments []Keyword

	// Middleware is the project-level middleware = [middleware.x, ...] list.
	Middleware []Reference

	Backend       *Backend
	Cloud         *Backend
	Encryption    *OpaqueBlock
	ProviderMetas map[string]*OpaqueBlock
}

// VersionConstraint is a parsed version constraint argument.
type VersionConstraint struct {
	Required  goversion.Constraints
	Source    string
	DeclRange hcl.Range
	// TofuFile is true when the constraint was written in a .tofu file.
	TofuFile bool
}

// RequiredProvider is one entry of required_providers.
type RequiredProvider struct {
	Name string
	// Source is the source address as written ("hashicorp/aws"); empty
	// when the entry gives no source, which means "hashicorp/<name>".
	Source string
	// Addr is the parsed source address (with the defaults filled in).
	Addr                 ProviderAddr
	Requirement          *VersionConstraint
	ConfigurationAliases []ProviderRef
	DeclRange            hcl.Range
	// Expr is the entry's value; Legacy is true when it is the legacy
	// form, a version constraint string instead of an object.
	Expr   hcl.Expression
	Legacy bool
}

// Backend is a backend "type" {} or cloud {} block, kept opaque: its body
// belongs to the backend.
type Backend struct {
	Type      string
	Config    hcl.Body
	DeclRange hcl.Range
	TypeRange hcl.Range
}

// OpaqueBlock is a block whose contents the loader does not interpret.
type OpaqueBlock struct {
	Label     string
	Body      hcl.Body
	DeclRange hcl.Range
}

// Keyword is a bare keyword argument value with its range.
type Keyword = features.Keyword

// Language is the module's language block.
type Language struct {
	// Edition is the edition keyword; nil when the block does not name one
	// (the module then has the default edition). A Name of "" means the
	// argument is not a bare keyword.
	Edition *Keyword
	// Experiments are OpenTofu's own experiment keywords. They opt in to
	// features exactly as terraform { experiments } does.
	Experiments    []Keyword
	CompatibleWith *VersionConstraint
	DeclRange      hcl.Range
}

var terraformSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "required_version"},
		{Name: "experiments"},
		{Name: "language"},
		{Name: "middleware"},
	},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "backend", LabelNames: []string{"type"}},
		{Type: "cloud"},
		{Type: "required_providers"},
		{Type: "provider_meta", LabelNames: []string{"provider"}},
		{Type: "encryption"},
	},
}

func (d *decoder) decodeTerraform(block *hcl.Block) *Terraform {
	t := &Terraform{Blocks: []hcl.Range{block.DefRange}, RequiredProviders: map[string]*RequiredProvider{}, ProviderMetas: map[string]*OpaqueBlock{}}
	content := d.content(block.Body, terraformSchema)

	if attr, ok := content.Attributes["required_version"]; ok {
		if vc, ok := d.decodeVersionConstraint(attr); ok {
			vc.TofuFile = isTofuFile(d.path)
			t.RequiredVersions = append(t.RequiredVersions, vc)
		}
	}
	if attr, ok := content.Attributes["experiments"]; ok {
		t.Experiments = d.decodeKeywordList(attr, "Invalid experiment keyword", `Elements of "experiments" must all be keywords representing active experiments.`)
	}
	// The "language" argument belongs to OpenTofu's predecessor; OpenTofu
	// accepts and ignores it, and so does this loader.
	if attr, ok := content.Attributes["middleware"]; ok {
		t.Middleware = d.decodeMiddlewareRefs(attr)
	}

	for _, inner := range content.Blocks {
		switch inner.Type {
		case "backend":
			t.Backend = &Backend{Type: inner.Labels[0], Config: inner.Body, DeclRange: inner.DefRange, TypeRange: inner.LabelRanges[0]}
		case "cloud":
			t.Cloud = &Backend{Type: "cloud", Config: inner.Body, DeclRange: inner.DefRange, TypeRange: inner.TypeRange}
		case "required_providers":
			t.RequiredProvidersBlocks = append(t.RequiredProvidersBlocks, inner.DefRange)
			for name, rp := range d.decodeRequiredProviders(inner) {
				t.RequiredProviders[name] = rp
			}
		case "provider_meta":
			name := inner.Labels[0]
			if !isProviderLocalName(name) {
				d.errorf(inner.LabelRanges[0], "Invalid provider local name", "%q is an invalid provider local name: %s", name, providerLocalNameRule)
			}
			d.checkNoReferences(inner.Body, "Variables not allowed", "Variables may not be used here.")
			t.ProviderMetas[name] = &OpaqueBlock{Label: name, Body: inner.Body, DeclRange: inner.DefRange}
		case "encryption":
			t.Encryption = &OpaqueBlock{Body: inner.Body, DeclRange: inner.DefRange}
		}
	}
	return t
}

// checkNoReferences reports every reference in a body that must be constant.
func (d *decoder) checkNoReferences(body hcl.Body, summary, detail string) {
	attrs, diags := body.JustAttributes()
	d.report(diags...)
	for _, attr := range attrs {
		for _, tr := range attr.Expr.Variables() {
			d.errorf(tr.SourceRange(), summary, "%s", detail)
		}
	}
}

var languageSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "edition"}, {Name: "experiments"}},
	Blocks:     []hcl.BlockHeaderSchema{{Type: "compatible_with"}},
}

func (d *decoder) decodeLanguage(block *hcl.Block) *Language {
	if d.override {
		d.errorf(block.DefRange, "Language selections in override file",
			`Language-related settings in "language" blocks are not allowed in override files. Place these settings in a normal configuration file.`)
		return nil
	}
	l := &Language{DeclRange: block.DefRange}
	content := d.content(block.Body, languageSchema)

	// The edition and the experiment keywords are checked with the rest of
	// the module's opt-ins, in resolveFeatures.
	if attr, ok := content.Attributes["edition"]; ok {
		l.Edition = &Keyword{Name: hcl.ExprAsKeyword(attr.Expr), Range: attr.Expr.Range()}
	}
	if attr, ok := content.Attributes["experiments"]; ok {
		l.Experiments = d.decodeKeywordList(attr, "Invalid experiment keyword", `Elements of "experiments" must all be keywords representing active experiments.`)
	}

	for _, inner := range content.Blocks {
		if l.CompatibleWith != nil {
			d.errorf(inner.DefRange, "Duplicate compatible_with block",
				"Each language block may have at most one compatible_with block referring to OpenTofu. The OpenTofu version constraint was already declared at %s.", l.CompatibleWith.DeclRange)
			continue
		}
		vc, ok := d.compatibleWith(inner, &decoder{path: d.path, opts: d.opts}) // range checks were made by checkVersionRequirements
		if !ok {
			continue
		}
		l.CompatibleWith = &vc
		if vc.Required.Check(goversion.Must(goversion.NewVersion(lastVersionWithoutCompatibleWith))) {
			d.warnf(vc.DeclRange, "Ineffective version constraint",
				"The compatible_with block was added in OpenTofu v1.12.0, so a constraint written there should exclude earlier versions of OpenTofu, for example with \">= 1.12.0\".\n\nA module that must stay compatible with earlier versions can use the required_version argument of a \"terraform\" block in a file named with the .tofu suffix instead.")
		}
	}
	return l
}

// lastVersionWithoutCompatibleWith is the last OpenTofu release that did not
// read compatible_with: a constraint there that accepts it cannot work.
const lastVersionWithoutCompatibleWith = "1.11.0"

var compatibleWithSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "opentofu"}}}

// compatibleWith reads the "opentofu" argument of a compatible_with block.
// Every other argument and block there belongs to other software and is
// ignored. Diagnostics go to into.
func (d *decoder) compatibleWith(block *hcl.Block, into *decoder) (VersionConstraint, bool) {
	content, _, diags := block.Body.PartialContent(compatibleWithSchema)
	into.report(diags...)
	attr, ok := content.Attributes["opentofu"]
	if !ok {
		return VersionConstraint{}, false
	}
	return into.decodeVersionConstraint(attr)
}

var (
	sniffRoot      = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "terraform"}, {Type: "language"}}}
	sniffLanguage  = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "compatible_with"}}}
	sniffTerraform = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "required_version"}}}
)

// checkVersionRequirements reads the version constraints that speak about
// OpenTofu before anything else in the file, so that a module written for a
// later version is reported as incompatible rather than as full of unknown
// constructs.
func (d *decoder) checkVersionRequirements(body hcl.Body) {
	root, _, _ := body.PartialContent(sniffRoot)
	current := goversion.Must(goversion.NewVersion(LanguageVersion))
	check := func(vc VersionConstraint) {
		for _, c := range vc.Required {
			if pre := prereleaseOf(c); pre != "" {
				d.errorf(vc.DeclRange, "Invalid required_version constraint",
					"Prerelease version constraints are not supported: %s. Remove the prerelease information from the constraint. Prerelease versions of OpenTofu will match constraints using their version core only.", c)
				return
			}
		}
		if !vc.Required.Check(current) {
			d.report(&hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Incompatible module",
				Detail:   fmt.Sprintf("This module is not compatible with OpenTofu v%s.\n\nTo proceed, either choose another supported OpenTofu version or update this version constraint. Version constraints are normally set for good reason, so updating the constraint may lead to other errors or unexpected behavior.", LanguageVersion),
				Subject:  vc.DeclRange.Ptr(),
				Extra:    incompatibleExtra{},
			})
		}
	}
	quiet := &decoder{path: d.path, opts: d.opts} // the full decode reports syntax mistakes
	for _, block := range root.Blocks {
		switch block.Type {
		case "language":
			content, _, _ := block.Body.PartialContent(sniffLanguage)
			for _, inner := range content.Blocks {
				if vc, ok := d.compatibleWith(inner, quiet); ok {
					check(vc)
				}
			}
		case "terraform":
			if !isTofuFile(d.path) {
				continue
			}
			content, _, _ := block.Body.PartialContent(sniffTerraform)
			if attr, ok := content.Attributes["required_version"]; ok {
				if vc, ok := quiet.decodeVersionConstraint(attr); ok {
					check(vc)
				}
			}
		}
	}
}

func prereleaseOf(c *goversion.Constraint) string {
	s := c.String()
	if i := strings.IndexAny(s, "0123456789"); i >= 0 {
		if v, err := goversion.NewVersion(s[i:]); err == nil {
			return v.Prerelease()
		}
	}
	return ""
}

// decodeVersionConstraint reads a constant version constraint string.
func (d *decoder) decodeVersionConstraint(attr *hcl.Attribute) (VersionConstraint, bool) {
	val, diags := attr.Expr.Value(nil)
	d.report(diags...)
	if diags.HasErrors() {
		return VersionConstraint{}, false
	}
	return d.versionConstraintValue(val, attr.Expr.Range())
}

func (d *decoder) versionConstraintValue(val cty.Value, rng hcl.Range) (VersionConstraint, bool) {
	vc := VersionConstraint{DeclRange: rng}
	if val.IsMarked() {
		d.errorf(rng, "Invalid version constraint", "A version constraint cannot be derived from a sensitive value.")
		return vc, false
	}
	sv, err := convert.Convert(val, cty.String)
	if err != nil || sv.IsNull() || !sv.IsKnown() {
		d.errorf(rng, "Invalid version constraint", "A string value is required for a version constraint.")
		return vc, false
	}
	vc.Source = sv.AsString()
	c, err := goversion.NewConstraint(vc.Source)
	if err != nil {
		d.errorf(rng, "Invalid version constraint", "This string does not use correct version constraint syntax: %s.", err)
		return vc, false
	}
	vc.Required = c
	return vc, true
}

// decodeKeywordList reads a list of bare keywords, as in experiments = [a, b].
func (d *decoder) decodeKeywordList(attr *hcl.Attribute, summary, detail string) []Keyword {
	exprs, diags := hcl.ExprList(attr.Expr)
	d.report(diags...)
	var out []Keyword
	for _, e := range exprs {
		kw := hcl.ExprAsKeyword(e)
		if kw == "" {
			d.errorf(e.Range(), summary, "%s", detail)
			continue
		}
		out = append(out, Keyword{Name: kw, Range: e.Range()})
	}
	return out
}

var requiredProviderAttrs = map[string]bool{"source": true, "version": true, "configuration_aliases": true}

func (d *decoder) decodeRequiredProviders(block *hcl.Block) map[string]*RequiredProvider {
	attrs, diags := block.Body.JustAttributes()
	d.report(diags...)
	out := map[string]*RequiredProvider{}
	for name, attr := range attrs {
		rp := &RequiredProvider{Name: name, DeclRange: attr.Range, Expr: attr.Expr}
		if !isProviderLocalName(name) {
			d.errorf(attr.NameRange, "Invalid provider local name", "%q is an invalid provider local name: %s", name, providerLocalNameRule)
			continue
		}
		if _, mapDiags := hcl.ExprMap(attr.Expr); !mapDiags.HasErrors() {
			d.decodeRequiredProviderObject(rp, attr)
		} else {
			// The legacy form: name = "version constraint".
			rp.Legacy = true
			val, vdiags := attr.Expr.Value(nil)
			d.report(vdiags...)
			if vdiags.HasErrors() {
				continue
			}
			if val.Type() != cty.String {
				d.errorf(attr.Expr.Range(), "Invalid required_providers object", "A required_providers entry must be an object with source and version, or a version constraint string.")
				continue
			}
			if vc, ok := d.versionConstraintValue(val, attr.Expr.Range()); ok {
				rp.Requirement = &vc
			}
		}
		if rp.Source == "" {
			rp.Addr = ProviderAddr{Hostname: DefaultProviderRegistry, Namespace: "hashicorp", Type: name}
		}
		out[name] = rp
	}
	return out
}

func (d *decoder) decodeRequiredProviderObject(rp *RequiredProvider, attr *hcl.Attribute) {
	pairs, diags := hcl.ExprMap(attr.Expr)
	d.report(diags...)
	for _, pair := range pairs {
		key, kdiags := pair.Key.Value(nil)
		d.report(kdiags...)
		if kdiags.HasErrors() || key.Type() != cty.String {
			continue
		}
		switch k := key.AsString(); k {
		case "source":
			val, vdiags := pair.Value.Value(nil)
			d.report(vdiags...)
			if vdiags.HasErrors() || val.Type() != cty.String || val.IsNull() {
				d.errorf(pair.Value.Range(), "Invalid source", "Invalid source value: a string is required.")
				continue
			}
			rp.Source = val.AsString()
			addr, pdiag := ParseProviderSource(rp.Source)
			if pdiag != nil {
				pdiag.Subject = pair.Value.Range().Ptr()
				d.report(pdiag)
				continue
			}
			rp.Addr = addr
		case "version":
			val, vdiags := pair.Value.Value(nil)
			d.report(vdiags...)
			if !vdiags.HasErrors() {
				if vc, ok := d.versionConstraintValue(val, pair.Value.Range()); ok {
					rp.Requirement = &vc
				}
			}
		case "configuration_aliases":
			exprs, ediags := hcl.ExprList(pair.Value)
			d.report(ediags...)
			for _, e := range exprs {
				ref, ok := d.decodeProviderRef(e, "configuration_aliases")
				if !ok {
					continue
				}
				if ref.Name != rp.Name {
					d.errorf(e.Range(), "Invalid configuration_aliases value", "Configuration aliases can only contain references to local provider configuration names for the same provider, %q.", rp.Name)
					continue
				}
				rp.ConfigurationAliases = append(rp.ConfigurationAliases, ref)
			}
		default:
			if !requiredProviderAttrs[k] {
				d.errorf(pair.Key.Range(), "Invalid required_providers object", `required_providers objects can only contain "version", "source" and "configuration_aliases" attributes. To configure a provider, use a "provider" block.`)
			}
		}
	}
}

// DefaultProviderRegistry is the host of provider source addresses that
// name none.
const DefaultProviderRegistry = "registry.opentofu.org"

// ImpliedProvider is the provider that a local name stands for where no
// required_providers entry names it: OpenTofu's built-in provider for
// "terraform", hashicorp/NAME on the default registry otherwise.
func ImpliedProvider(localName string) ProviderAddr {
	if localName == "terraform" {
		return ProviderAddr{Hostname: "terraform.io", Namespace: "builtin", Type: localName}
	}
	return ProviderAddr{Hostname: DefaultProviderRegistry, Namespace: "hashicorp", Type: localName}
}

// ProviderAddr is a provider source address: hostname/namespace/type.
type ProviderAddr struct {
	Hostname, Namespace, Type string
}

func (a ProviderAddr) String() string {
	if a.Type == "" {
		return ""
	}
	return a.Hostname + "/" + a.Namespace + "/" + a.Type
}

var providerPartPattern = regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)*$`)

// ParseProviderSource parses a provider source address such as
// "hashicorp/aws" or "example.com/corp/thing". The returned diagnostic has
// no subject; the caller sets it.
func ParseProviderSource(s string) (ProviderAddr, *hcl.Diagnostic) {
	bad := func(summary, detail string, args ...any) (ProviderAddr, *hcl.Diagnostic) {
		return ProviderAddr{}, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: fmt.Sprintf(detail, args...)}
	}
	parts := strings.Split(s, "/")
	if len(parts) < 1 || len(parts) > 3 || s == "" {
		return bad("Invalid provider source string", "The source address %q is not valid: it must have the form [HOSTNAME/]NAMESPACE/TYPE.", s)
	}
	addr := ProviderAddr{Hostname: DefaultProviderRegistry, Namespace: "hashicorp"}
	switch len(parts) {
	case 1:
		addr.Type = parts[0]
	case 2:
		addr.Namespace, addr.Type = parts[0], parts[1]
	case 3:
		addr.Hostname, addr.Namespace, addr.Type = strings.ToLower(parts[0]), parts[1], parts[2]
		if !isHostname(addr.Hostname) {
			return bad("Invalid provider source hostname", "The hostname %q of provider source %q is not a valid hostname.", parts[0], s)
		}
	}
	for _, p := range []string{addr.Namespace, addr.Type} {
		if !providerPartPattern.MatchString(strings.ToLower(p)) {
			return bad("Invalid provider source string", "The source address %q is not valid: %q must contain only letters, digits, and dashes, and may not use leading or trailing dashes.", s, p)
		}
	}
	addr.Namespace, addr.Type = strings.ToLower(addr.Namespace), strings.ToLower(addr.Type)
	if strings.HasPrefix(addr.Type, "terraform-provider-") {
		return bad("Invalid provider type", "Provider source %q has a type with the prefix \"terraform-provider-\", which isn't valid. That prefix is common in the names of the repositories that hold providers, but a source address names the type alone.\n\nDid you mean %q?", s, addr.Namespace+"/"+strings.TrimPrefix(addr.Type, "terraform-provider-"))
	}
	if strings.HasPrefix(addr.Type, "terraform-") {
		return bad("Invalid provider type", "Provider source %q has a type with the prefix \"terraform-\", which isn't valid.", s)
	}
	return addr, nil
}

var hostnamePattern = regexp.MustCompile(`^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?::[0-9]+)?$`)

func isHostname(s string) bool { return hostnamePattern.MatchString(s) }
