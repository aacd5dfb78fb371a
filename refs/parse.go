package refs

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/features"
)

// ParseRefContext is what the reference parser needs to know about the module
// a reference is written in, as the RFC defines it. *config.Module
// implements it.
type ParseRefContext interface {
	// FeatureEnabled reports whether the module has opted in to a feature.
	FeatureEnabled(features.Feature) bool
	// HasAnyManagedResourceOfType reports whether the module declares a
	// resource block of the type.
	HasAnyManagedResourceOfType(typeName string) bool
	// HasManagedResource reports whether the module declares
	// resource "typeName" "name".
	HasManagedResource(typeName, name string) bool
}

var _ ParseRefContext = (*config.Module)(nil)

// registryOf returns the feature registry a context was loaded with, when
// it tells one (as *config.Module does), and features.Default otherwise.
func registryOf(ctx ParseRefContext) *features.Registry {
	if r, ok := ctx.(interface{ Registry() *features.Registry }); ok {
		return r.Registry()
	}
	return features.Default
}

// Parse reads an absolute traversal as a reference. It returns nil and error
// diagnostics when the traversal cannot be a reference at all.
//
// A prefix that is the symbol of an opt-in feature reads as the RFC says:
// in a module that has opted in to the feature, it is always the feature's
// symbol; in a module that has not, it is a managed resource type when the
// module declares a resource of that type, and the feature's symbol
// otherwise (so that a mistake is reported in terms of the feature, the
// likelier intent). resource.TYPE.NAME is always a managed resource.
func Parse(traversal hcl.Traversal, ctx ParseRefContext) (*Reference, hcl.Diagnostics) {
	if len(traversal) == 0 || traversal.IsRelative() {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid reference",
			Detail:   "A reference must start with a name.",
			Subject:  traversal.SourceRange().Ptr(),
		}}
	}
	ref, diags := parse(traversal, ctx)
	if ref != nil {
		ref.Traversal = traversal
		if len(ref.Remaining) == 0 {
			ref.Remaining = nil
		}
	}
	return ref, diags
}

// ParseString parses text such as "symbols.serverless.value" as a traversal
// and then as a reference. Its ranges are in a file named "".
func ParseString(text string, ctx ParseRefContext) (*Reference, hcl.Diagnostics) {
	traversal, diags := hclsyntax.ParseTraversalAbs([]byte(text), "", hcl.InitialPos)
	if diags.HasErrors() {
		return nil, diags
	}
	return Parse(traversal, ctx)
}

func parse(traversal hcl.Traversal, ctx ParseRefContext) (*Reference, hcl.Diagnostics) {
	root := traversal.RootName()
	rootRange := traversal[0].SourceRange()

	switch root {
	case "var":
		return singleAttr(traversal, func(name string) Subject { return InputVariable{Name: name} })
	case "local":
		return singleAttr(traversal, func(name string) Subject { return LocalValue{Name: name} })
	case "count":
		return singleAttr(traversal, func(name string) Subject { return CountAttr{Name: name} })
	case "each":
		return singleAttr(traversal, func(name string) Subject { return EachAttr{Name: name} })
	case "path":
		return singleAttr(traversal, func(name string) Subject { return PathAttr{Name: name} })
	case "terraform", "tofu":
		return singleAttr(traversal, func(name string) Subject { return TerraformAttr{Alias: root, Name: name} })
	case "module":
		return moduleRef(traversal)
	case "self":
		return &Reference{Subject: Self{}, Range: rootRange, Remaining: traversal[1:]}, nil
	case "data":
		return prefixedResourceRef(traversal, config.DataMode, `The "data" object must be followed by two attribute names: the data source type and the resource name.`)
	case "ephemeral":
		return prefixedResourceRef(traversal, config.EphemeralMode, `The "ephemeral" object must be followed by two attribute names: the ephemeral resource type and its name.`)
	case "resource":
		// The escape prefix: resource.TYPE.NAME is a managed resource even
		// where TYPE is a symbol of the language or of a feature.
		return prefixedResourceRef(traversal, config.ManagedMode, `The "resource" object must be followed by two attribute names: the resource type and the resource name.`)
	case "template", "lazy", "arg":
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Reserved symbol name",
			Detail:   fmt.Sprintf("The symbol name %q is reserved for use in a future OpenTofu version. If you are using a provider that already uses this as a resource type name, add the prefix \"resource.\" to force interpretation as a resource type name.", root),
			Subject:  rootRange.Ptr(),
		}}
	}

	if len(traversal) == 1 && isTypeKeyword(root) {
		return &Reference{Subject: TypeKeyword(root), Range: rootRange}, nil
	}
	if f, ok := registryOf(ctx).ForSymbol(root); ok && readsAsFeature(f, root, ctx) {
		return singleAttr(traversal, func(name string) Subject { return FeatureSymbol{Feature: f, Name: name} })
	}
	return resourceRef(config.ManagedMode, rootRange, traversal)
}

// readsAsFeature decides whether a feature's symbol is the feature's or a
// resource type: the feature's when the module has opted in, or when no
// resource of that type exists to keep the old meaning.
func readsAsFeature(f features.Feature, root string, ctx ParseRefContext) bool {
	return f.State != features.Removed && (ctx.FeatureEnabled(f) || !ctx.HasAnyManagedResourceOfType(root))
}

// SymbolConflict returns the feature whose symbol a managed resource
// reference's type is, when the reference is not written with the resource.
// prefix: such a reference reaches its resource only because the module has
// not opted in to the feature, and would change meaning if it did.
func SymbolConflict(ref *Reference, ctx ParseRefContext) (features.Feature, bool) {
	var r Resource
	switch s := ref.Subject.(type) {
	case Resource:
		r = s
	case ResourceInstance:
		r = s.Resource
	default:
		return features.Feature{}, false
	}
	if r.Mode != config.ManagedMode || ref.Escaped() {
		return features.Feature{}, false
	}
	f, ok := registryOf(ctx).ForSymbol(r.Type)
	if !ok || f.State == features.Removed {
		return features.Feature{}, false
	}
	return f, true
}

func isTypeKeyword(name string) bool {
	switch name {
	case "string", "number", "bool", "any":
		return true
	}
	return false
}

// singleAttr reads ROOT.NAME, the shape of most prefixes.
func singleAttr(traversal hcl.Traversal, subject func(name string) Subject) (*Reference, hcl.Diagnostics) {
	root := traversal.RootName()
	rootRange := traversal[0].SourceRange()
	if len(traversal) < 2 {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid reference",
			Detail:   fmt.Sprintf("The %q object cannot be accessed directly. Instead, access one of its attributes.", root),
			Subject:  rootRange.Ptr(),
		}}
	}
	attr, ok := traversal[1].(hcl.TraverseAttr)
	if !ok {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid reference",
			Detail:   fmt.Sprintf("The %q object does not support this operation.", root),
			Subject:  traversal[1].SourceRange().Ptr(),
		}}
	}
	return &Reference{
		Subject:   subject(attr.Name),
		Range:     hcl.RangeBetween(rootRange, attr.SrcRange),
		Remaining: traversal[2:],
	}, nil
}

func prefixedResourceRef(traversal hcl.Traversal, mode config.ResourceMode, tooShort string) (*Reference, hcl.Diagnostics) {
	if len(traversal) < 3 {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid reference",
			Detail:   tooShort,
			Subject:  traversal.SourceRange().Ptr(),
		}}
	}
	return resourceRef(mode, traversal[0].SourceRange(), traversal[1:])
}

// resourceRef reads TYPE.NAME followed by an optional index; start is the
// range of the first step of the whole traversal (the prefix, if any).
func resourceRef(mode config.ResourceMode, start hcl.Range, traversal hcl.Traversal) (*Reference, hcl.Diagnostics) {
	if len(traversal) < 2 {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid reference",
			Detail:   "A reference to a resource type must be followed by at least one attribute access, specifying the resource name.",
			Subject:  traversal.SourceRange().Ptr(),
		}}
	}
	var typeName string
	switch s := traversal[0].(type) {
	case hcl.TraverseRoot:
		typeName = s.Name
	case hcl.TraverseAttr:
		typeName = s.Name
	default:
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid reference",
			Detail:   fmt.Sprintf("The %q object does not support this operation.", mode.BlockType()),
			Subject:  traversal[0].SourceRange().Ptr(),
		}}
	}
	name, ok := traversal[1].(hcl.TraverseAttr)
	if !ok {
		what := map[config.ResourceMode]string{config.ManagedMode: "a resource type", config.DataMode: "a data source", config.EphemeralMode: "an ephemeral resource"}[mode]
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid reference",
			Detail:   fmt.Sprintf("A reference to %s must be followed by at least one attribute access, specifying the resource name.", what),
			Subject:  traversal[1].SourceRange().Ptr(),
		}}
	}
	res := Resource{Mode: mode, Type: typeName, Name: name.Name}
	rng := hcl.RangeBetween(start, name.SrcRange)
	remain := traversal[2:]
	if len(remain) == 0 {
		return &Reference{Subject: res, Range: rng}, nil
	}
	key, rng, remain, diags := takeKey(remain, rng, "resource instance")
	if diags.HasErrors() {
		return nil, diags
	}
	return &Reference{Subject: ResourceInstance{Resource: res, Key: key}, Range: rng, Remaining: remain}, nil
}

// takeKey takes the index step that may follow a resource or module call
// name: the instance key (NoKey when the next step is not an index), the
// subject range extended over it, and the steps after it.
func takeKey(remain hcl.Traversal, rng hcl.Range, what string) (InstanceKey, hcl.Range, hcl.Traversal, hcl.Diagnostics) {
	idx, ok := remain[0].(hcl.TraverseIndex)
	if !ok {
		return NoKey, rng, remain, nil
	}
	key, err := instanceKey(idx.Key)
	if err != nil {
		return nil, rng, nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid index key",
			Detail:   fmt.Sprintf("Invalid index for %s: %s.", what, err),
			Subject:  idx.SrcRange.Ptr(),
		}}
	}
	return key, hcl.RangeBetween(rng, idx.SrcRange), remain[1:], nil
}

// moduleRef reads module.NAME, module.NAME[KEY], module.NAME.OUTPUT and
// module.NAME[KEY].OUTPUT.
func moduleRef(traversal hcl.Traversal) (*Reference, hcl.Diagnostics) {
	ref, diags := singleAttr(traversal, func(name string) Subject { return ModuleCall{Name: name} })
	if diags.HasErrors() {
		return nil, diags
	}
	call := ref.Subject.(ModuleCall)
	remain := ref.Remaining
	if len(remain) == 0 {
		return ref, nil
	}
	key, rng, remain, diags := takeKey(remain, ref.Range, "module instance")
	if diags.HasErrors() {
		return nil, diags
	}
	inst := ModuleCallInstance{Call: call, Key: key}
	if len(remain) == 0 {
		return &Reference{Subject: inst, Range: rng}, nil
	}
	attr, ok := remain[0].(hcl.TraverseAttr)
	if !ok {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid reference",
			Detail:   "Module instance objects do not support this operation.",
			Subject:  remain[0].SourceRange().Ptr(),
		}}
	}
	return &Reference{
		Subject:   ModuleCallOutput{Call: inst, Name: attr.Name},
		Range:     hcl.RangeBetween(rng, attr.SrcRange),
		Remaining: remain[1:],
	}, nil
}
