package cue

import (
	"fmt"
	"strings"

	"cuelang.org/go/cue"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/cueform"
	"github.com/tofucue/tofucue/engine/plan"
)

// NotAvailable is the summary of the warning for a module call whose
// module was not converted: the HCL side warns of the same call with
// what to do (config.Sources), so verify shows only that one.
const NotAvailable = "Module not available"

// declKind is what an attribute says a field is.
type declKind int

const (
	declResource declKind = iota
	declData
	declEphemeral
	declModule
	declOutput
	declInput
	declValidation
	declPath
	declWorkspace
	declPlanTime
	declHome
	declTerraform
	declSource
	// declUnavailable is no attribute: the walk's record of a module
	// call instance whose module was not converted (not available), at
	// the instance's address.
	declUnavailable
)

// attrKinds maps attribute names to the kinds of field they mark.
var attrKinds = map[string]declKind{
	cueform.AttrResource:      declResource,
	cueform.AttrData:          declData,
	cueform.AttrEphemeral:     declEphemeral,
	cueform.AttrModule:        declModule,
	cueform.AttrOutput:        declOutput,
	cueform.AttrInput:         declInput,
	cueform.AttrValidation:    declValidation,
	cueform.AttrPath:          declPath,
	cueform.AttrWorkspace:     declWorkspace,
	cueform.AttrPlanTimestamp: declPlanTime,
	cueform.AttrHome:          declHome,
	cueform.AttrTerraform:     declTerraform,
	cueform.AttrSource:        declSource,
}

// decl is one annotated field of the program.
type decl struct {
	kind declKind
	// path is the field's path in the program, hidden selectors
	// included.
	path cue.Path
	// name is the attribute's first argument without a trailing [*]:
	// "aws_subnet.main", "vpc_id", "base_cidr_block".
	name string
	// multi is set for a trailing [*]: a list (count) or a struct keyed
	// by instance key (for_each).
	multi bool
	// Resource declarations: mode, type and name, and the attribute's
	// provider and depends_on arguments.
	mode       config.ResourceMode
	typ, rname string
	provider   string
	dependsOn  []string
	// sensitive is an output's sensitive flag.
	sensitive bool
	attr      string
	pos       *hcl.Range
	// shape is the kind of a [*] declaration's value: a list (count) or
	// a struct (for_each), told from its source.
	shape cue.Kind
	// index is the declaration's place in source order.
	index int
	// module is the address of the module instance the declaration is
	// in ("" for the root, module.net["a"] for a call's instance), and
	// in the module's context: providers maps its provider
	// configurations to the root's, and deferData is set when its call
	// (or an ancestor's) has depends_on, which defers its data sources.
	module    string
	providers map[string]string
	deferData bool
	// providersArg is a module call's providers argument, as written:
	// "aws=aws.west,google=google".
	providersArg string
}

// addr is the resource's address without instance key: aws_x.y,
// data.aws_x.y, ephemeral.aws_x.y, prefixed by its module instance's.
func (d *decl) addr() string {
	prefix := ""
	if d.module != "" {
		prefix = d.module + "."
	}
	switch d.mode {
	case config.DataMode:
		return prefix + "data." + d.typ + "." + d.rname
	case config.EphemeralMode:
		return prefix + "ephemeral." + d.typ + "." + d.rname
	}
	return prefix + d.typ + "." + d.rname
}

// findDecls walks v and returns every annotated field of the root module,
// in the order the walk meets them (fields in evaluation order). It does
// not descend into the value of an annotated field, into lists or into
// definitions: an annotation inside a resource's configuration is the
// resource's business. With modules set, it also descends into the
// instances of each module call (@module), whose declarations are those
// of the called module in its _mod, and reports calls whose instances
// cannot be told. It never descends into a module's template (@source).
// pkg is the package path of the program's hidden fields (see
// hiddenField), "" where it is not known.
func findDecls(v cue.Value, modules bool, pkg string) ([]*decl, hcl.Diagnostics) {
	w := &walker{modules: modules, pkg: pkg}
	w.walk(v, cue.Path{}, 0, &decl{})
	return w.decls, w.diags
}

type walker struct {
	modules bool
	pkg     string
	decls   []*decl
	diags   hcl.Diagnostics
}

// maxDepth bounds the walk: declarations sit a few levels below the root
// (data.TYPE.NAME, resource.TYPE.NAME); the bound keeps a deep input
// value from being walked to its end.
const maxDepth = 6

// maxModuleDepth bounds the nesting of module calls: a template cannot
// instantiate itself, so deeper nesting means a loop the converter did
// not see.
const maxModuleDepth = 32

// walk walks the fields of v, at path, in the module that ctx's module,
// providers and deferData describe.
func (w *walker) walk(v cue.Value, path cue.Path, depth int, ctx *decl) {
	if depth > maxDepth {
		return
	}
	it, err := v.Fields(cue.Hidden(true), cue.Definitions(false), cue.Optional(false))
	if err != nil {
		return
	}
	for it.Next() {
		sel := it.Selector()
		if sel.IsDefinition() {
			continue
		}
		fv := it.Value()
		fp := join(path, sel)
		if d := w.declOf(fv, fp); d != nil {
			d.module, d.providers, d.deferData = ctx.module, ctx.providers, ctx.deferData
			d.index = len(w.decls)
			w.decls = append(w.decls, d)
			if d.kind == declModule && w.modules {
				w.module(fv, d)
			}
			continue
		}
		// A struct with an error in it (a value not known yet) may
		// still be listed.
		if k := fv.IncompleteKind(); k == cue.StructKind || k == cue.BottomKind {
			w.walk(fv, fp, depth+1, ctx)
		}
	}
}

// module walks the instances of a module call: the declarations of each
// are in its _mod.
func (w *walker) module(v cue.Value, d *decl) {
	if strings.Count(d.module, "module.") >= maxModuleDepth {
		w.diags = append(w.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Module calls nested too deeply", Detail: fmt.Sprintf("%s is nested in more than %d module calls.", d.attr, maxModuleDepth), Subject: d.pos})
		return
	}
	prefix := "module." + d.name
	if d.module != "" {
		prefix = d.module + "." + prefix
	}
	type inst struct {
		addr string
		v    cue.Value
		path cue.Path
	}
	var insts []inst
	if !d.multi {
		insts = []inst{{prefix, v, d.path}}
	} else {
		if dv, ok := v.Default(); ok {
			v = dv
		}
		incomplete := ownError(v, d.path)
		switch d.shape {
		case cue.ListKind:
			it, err := v.List()
			if err != nil || incomplete {
				w.badInstances(v, d, "Invalid count argument", `The "count" value depends on resource attributes that cannot be determined until apply, so OpenTofu cannot predict how many instances will be created.`)
				return
			}
			for i := 0; it.Next(); i++ {
				insts = append(insts, inst{fmt.Sprintf("%s[%d]", prefix, i), it.Value(), join(d.path, cue.Index(i))})
			}
		case cue.StructKind:
			it, err := v.Fields()
			if err != nil || incomplete {
				w.badInstances(v, d, "Invalid for_each argument", `The "for_each" map includes keys derived from resource attributes that cannot be determined until apply, and so OpenTofu cannot determine the full set of keys that will identify the instances of this module.`)
				return
			}
			for it.Next() {
				key := it.Selector().Unquoted()
				insts = append(insts, inst{prefix + plan.KeyString(cty.StringVal(key)), it.Value(), join(d.path, cue.Str(key))})
			}
		default:
			w.badInstances(v, d, "Invalid instances", fmt.Sprintf("%s marks a module call with several instances: its value must be a list (count) or a struct keyed by instance key (for_each).", d.attr))
			return
		}
	}
	ctx := &decl{providers: childProviders(d), deferData: d.deferData || len(d.dependsOn) > 0}
	for _, in := range insts {
		mod, sel := hiddenField(in.v, cueform.CallModule, w.pkg)
		if !mod.Exists() {
			// A module that is not available (a registry or remote
			// source not installed) or did not convert: its outputs
			// are open, so unknown, as on the HCL side.
			w.diags = append(w.diags, &hcl.Diagnostic{
				Severity: hcl.DiagWarning,
				Summary:  NotAvailable,
				Detail:   fmt.Sprintf("%s has no _mod: the module it calls was not converted (a registry or remote source that is not installed, or a module that does not load). Its outputs are unknown and its resources are not planned.", d.attr),
				Subject:  d.pos,
			})
			w.decls = append(w.decls, &decl{kind: declUnavailable, name: prefix, module: d.module, attr: d.attr, pos: d.pos, index: len(w.decls)})
			return
		}
		ctx.module = in.addr
		w.walk(mod, join(in.path, sel), 0, ctx)
	}
}

// programPackage is the package path that qualifies the hidden fields
// declared in v, the program as built from its package (CUE scopes a
// hidden field by package, and a lookup must name it), or "" where v is
// not a package's value as built (a unification made it another).
func programPackage(v cue.Value) string {
	bi := v.BuildInstance()
	switch {
	case bi == nil:
		return ""
	case bi.ImportPath == "":
		// An anonymous package: CompileString's, say.
		return "_"
	}
	return bi.ImportPath
}

// hiddenField is the hidden field name of v, declared in the package pkg
// (programPackage), and its selector: a lookup. Where pkg is not known,
// it lists v's fields for one of that name, which costs far more (CUE
// sorts the fields of a struct it lists).
func hiddenField(v cue.Value, name, pkg string) (cue.Value, cue.Selector) {
	if pkg == "" {
		return lookupHidden(v, name)
	}
	sel := cue.Hid(name, pkg)
	return v.LookupPath(cue.MakePath(sel)), sel
}

// lookupHidden finds the hidden field name of v, and its selector, which
// names the package the field belongs to.
func lookupHidden(v cue.Value, name string) (cue.Value, cue.Selector) {
	it, err := v.Fields(cue.Hidden(true))
	if err != nil {
		return cue.Value{}, cue.Selector{}
	}
	for it.Next() {
		if it.Selector().String() == name {
			return it.Value(), it.Selector()
		}
	}
	return cue.Value{}, cue.Selector{}
}

func (w *walker) badInstances(v cue.Value, d *decl, summary, detail string) {
	if err := fatal(v); err != nil {
		w.diags = append(w.diags, errorDiags(err, summary, d.pos)...)
		return
	}
	w.diags = append(w.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: d.pos})
}

// childProviders maps the provider configurations of a call's module to
// the root's: the defaults are inherited by local name, and the call's
// providers argument maps the others.
func childProviders(d *decl) map[string]string {
	out := map[string]string{}
	for k, v := range d.providers {
		out[k] = v
	}
	for _, pair := range strings.Split(d.providersArg, ",") {
		child, parent, ok := strings.Cut(strings.TrimSpace(pair), "=")
		if !ok {
			continue
		}
		child, parent = strings.TrimSpace(child), strings.TrimSpace(parent)
		if root, ok := d.providers[parent]; ok {
			parent = root
		}
		out[child] = parent
	}
	return out
}

// declOf reads the attribute of a field, if it has one of ours.
func (w *walker) declOf(v cue.Value, path cue.Path) *decl {
	for _, a := range v.Attributes(cue.FieldAttr) {
		kind, ok := attrKinds[a.Name()]
		if !ok {
			continue
		}
		d := &decl{kind: kind, path: path, pos: rangeOf(v.Pos()), attr: "@" + a.Name() + "(" + a.Contents() + ")"}
		args := cueform.ParseDecl(a)
		d.name, d.multi = args.Name, args.Multi
		if d.multi {
			d.shape = instancesKind(v)
		}
		d.provider, d.dependsOn, d.sensitive, d.providersArg = args.Provider, args.DependsOn, args.Sensitive, args.Providers
		switch kind {
		case declResource, declData, declEphemeral:
			d.mode = map[declKind]config.ResourceMode{declResource: config.ManagedMode, declData: config.DataMode, declEphemeral: config.EphemeralMode}[kind]
			typ, name, ok := strings.Cut(d.name, ".")
			if !ok || typ == "" || name == "" || strings.Contains(name, ".") {
				w.diags = append(w.diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Invalid declaration attribute",
					Detail:   fmt.Sprintf("%s must name a resource as TYPE.NAME, optionally followed by [*].", d.attr),
					Subject:  d.pos,
				})
				return nil
			}
			d.typ, d.rname = typ, name
		}
		return d
	}
	return nil
}
