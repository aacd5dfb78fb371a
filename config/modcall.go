package config

import (
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// ModuleCall is a module block.
type ModuleCall struct {
	declBase
	Name string

	// Source is the source expression; SourceAddr is its static value
	// parsed, when it could be evaluated.
	Source     hcl.Expression
	SourceAddr *ModuleSource
	// Version is the version constraint, for registry sources.
	Version     *VersionConstraint
	VersionExpr hcl.Expression

	Count     hcl.Expression
	ForEach   hcl.Expression
	Enabled   hcl.Expression
	DependsOn []hcl.Traversal
	Providers []PassedProvider

	// Config holds the input variable arguments, with any "_" escaping
	// block merged in.
	Config hcl.Body
}

// PassedProvider is one entry of a module call's providers map.
type PassedProvider struct {
	InChild  ProviderRef
	InParent ProviderRef
}

var moduleCallSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "source", Required: true},
		{Name: "version"},
		{Name: "count"},
		{Name: "for_each"},
		{Name: "depends_on"},
		{Name: "providers"},
	},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "lifecycle"},
		{Type: "_"},
		// Reserved for future use.
		{Type: "locals"},
		{Type: "provider", LabelNames: []string{"type"}},
	},
}

var moduleLifecycleSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "enabled"}}}

func (d *decoder) decodeModuleCall(block *hcl.Block) *ModuleCall {
	mc := &ModuleCall{declBase: baseOf(block), Name: block.Labels[0]}
	content, remain := d.partialContent(block.Body, moduleCallSchema)
	mc.Config = remain

	d.checkName(mc.Name, block.LabelRanges[0], "Invalid module instance name")
	if attr, ok := content.Attributes["source"]; ok {
		mc.Source = attr.Expr
	}
	if attr, ok := content.Attributes["version"]; ok {
		mc.VersionExpr = attr.Expr
	}
	var countRng, forEachRng, enabledRng hcl.Range
	if attr, ok := content.Attributes["count"]; ok {
		mc.Count, countRng = attr.Expr, attr.NameRange
	}
	if attr, ok := content.Attributes["for_each"]; ok {
		mc.ForEach, forEachRng = attr.Expr, attr.NameRange
	}
	if attr, ok := content.Attributes["depends_on"]; ok {
		mc.DependsOn = d.decodeDependsOn(attr)
	}
	if attr, ok := content.Attributes["providers"]; ok {
		mc.Providers = d.decodePassedProviders(attr)
	}
	var seenLifecycle, seenEscape *hcl.Block
	for _, b := range content.Blocks {
		switch b.Type {
		case "lifecycle":
			if seenLifecycle != nil {
				d.errorf(b.DefRange, "Duplicate lifecycle block", "This module call already has a lifecycle block at %s.", seenLifecycle.DefRange)
				continue
			}
			seenLifecycle = b
			lc := d.content(b.Body, moduleLifecycleSchema)
			if attr, ok := lc.Attributes["enabled"]; ok {
				mc.Enabled, enabledRng = attr.Expr, attr.NameRange
			}
		case "_":
			mc.Config = d.joinEscape(&seenEscape, b, mc.Config, "module input variables", "module")
		default:
			d.errorf(b.TypeRange, "Reserved block type name in module block", "The block type name %q is reserved for use by OpenTofu in a future version.", b.Type)
		}
	}
	d.checkRepetition(countRng, enabledRng, forEachRng, "module instances")
	return mc
}

func (d *decoder) decodePassedProviders(attr *hcl.Attribute) []PassedProvider {
	pairs, diags := hcl.ExprMap(attr.Expr)
	d.report(diags...)
	seen := map[string]hcl.Range{}
	var out []PassedProvider
	for _, pair := range pairs {
		child, ok1 := d.decodeProviderRef(pair.Key, "providers")
		parent, ok2 := d.decodeProviderRef(pair.Value, "providers")
		if !ok1 || !ok2 {
			continue
		}
		if prev, dup := seen[child.String()]; dup {
			d.errorf(pair.Value.Range(), "Duplicate provider address", "A provider configuration was already passed to %s at %s. Each child provider configuration can be assigned only once.", child, prev)
			continue
		}
		seen[child.String()] = hcl.RangeBetween(pair.Key.Range(), pair.Value.Range())
		out = append(out, PassedProvider{InChild: child, InParent: parent})
	}
	return out
}

// ModuleSourceKind tells how a module source is installed.
type ModuleSourceKind int

// The kinds of module source.
const (
	// LocalSource is a path relative to the calling module: ./x or ../x.
	LocalSource ModuleSourceKind = iota
	// RegistrySource is [HOST/]NAMESPACE/NAME/SYSTEM, with a version.
	RegistrySource
	// RemoteSource is anything a package fetcher installs: git::, https://,
	// github.com/..., s3::, and so on.
	RemoteSource
)

// ModuleSource is a parsed module source address.
type ModuleSource struct {
	Kind ModuleSourceKind
	// Raw is the address as written.
	Raw string
	// Path is the cleaned relative path of a local source.
	Path string
	// Registry parts of a registry source.
	Host, Namespace, Name, System string
	// Subdir is the //sub/dir part of a registry or remote source.
	Subdir string
}

var (
	registryPartPattern   = regexp.MustCompile(`^[0-9A-Za-z](?:[0-9A-Za-z-_]{0,62}[0-9A-Za-z])?$`)
	registrySystemPattern = regexp.MustCompile(`^[0-9a-z]{1,64}$`)
	remoteSourcePrefixes  = []string{"git::", "hg::", "s3::", "gcs::", "http::", "https::", "file::", "git@", "http://", "https://", "github.com/", "gitlab.com/", "bitbucket.org/"}
)

// ParseModuleSource parses a module source address. When a version is given,
// the address must be a registry address.
func ParseModuleSource(raw string, hasVersion bool) (*ModuleSource, error) {
	if strings.HasPrefix(raw, "./") || strings.HasPrefix(raw, "../") || raw == "." || raw == ".." {
		if hasVersion {
			return nil, fmt.Errorf("can't use local directory %q as a module registry address", raw)
		}
		clean := path.Clean(raw)
		if !strings.HasPrefix(clean, "..") && clean != "." {
			clean = "./" + clean
		}
		return &ModuleSource{Kind: LocalSource, Raw: raw, Path: clean}, nil
	}
	if reg, err := parseRegistrySource(raw); err == nil {
		return reg, nil
	} else if hasVersion {
		return nil, err
	}
	if strings.Contains(raw, "\\") || strings.HasPrefix(raw, "/") {
		return nil, fmt.Errorf("a local path must begin with either ./ or ../")
	}
	for _, p := range remoteSourcePrefixes {
		if strings.HasPrefix(raw, p) {
			return &ModuleSource{Kind: RemoteSource, Raw: raw}, nil
		}
	}
	if strings.Contains(raw, "::") || strings.Contains(raw, ".") {
		return &ModuleSource{Kind: RemoteSource, Raw: raw}, nil
	}
	return nil, fmt.Errorf("%q is neither a relative path starting with ./ or ../, a module registry address, nor a recognized remote address", raw)
}

func parseRegistrySource(raw string) (*ModuleSource, error) {
	addr, subdir, _ := strings.Cut(raw, "//")
	parts := strings.Split(addr, "/")
	src := &ModuleSource{Kind: RegistrySource, Raw: raw, Subdir: subdir, Host: DefaultProviderRegistry}
	switch len(parts) {
	case 3:
		src.Namespace, src.Name, src.System = parts[0], parts[1], parts[2]
	case 4:
		src.Host, src.Namespace, src.Name, src.System = parts[0], parts[1], parts[2], parts[3]
		if !isHostname(strings.ToLower(src.Host)) || strings.HasPrefix(src.Host, "-") {
			return nil, fmt.Errorf("invalid module registry hostname %q", src.Host)
		}
		if strings.Contains(src.Host, "::") {
			return nil, fmt.Errorf("a registry address cannot use a ::-style installation method")
		}
	default:
		return nil, fmt.Errorf("a module registry source address must have either three or four slash-separated components")
	}
	if !registryPartPattern.MatchString(src.Namespace) {
		return nil, fmt.Errorf("invalid namespace %q: must be between one and 64 characters, including ASCII letters, digits, dashes, and underscores, where dashes and underscores may not be the prefix or suffix", src.Namespace)
	}
	if !registryPartPattern.MatchString(src.Name) {
		return nil, fmt.Errorf("invalid module name %q: must be between one and 64 characters, including ASCII letters, digits, dashes, and underscores, where dashes and underscores may not be the prefix or suffix", src.Name)
	}
	if !registrySystemPattern.MatchString(src.System) {
		return nil, fmt.Errorf("invalid target system %q: must be between one and 64 ASCII letters or digits", src.System)
	}
	return src, nil
}
