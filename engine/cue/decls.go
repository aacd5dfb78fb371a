package cue

import (
	"fmt"
	"strings"

	"cuelang.org/go/cue"
	"github.com/hashicorp/hcl/v2"

	"github.com/tofucue/tofucue/config"
)

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
	declTerraform
)

// attrKinds maps attribute names to the kinds of field they mark.
var attrKinds = map[string]declKind{
	"resource":   declResource,
	"data":       declData,
	"ephemeral":  declEphemeral,
	"module":     declModule,
	"output":     declOutput,
	"input":      declInput,
	"validation": declValidation,
	"path":       declPath,
	"workspace":  declWorkspace,
	"terraform":  declTerraform,
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
}

// addr is the resource's address without instance key: aws_x.y,
// data.aws_x.y, ephemeral.aws_x.y.
func (d *decl) addr() string {
	switch d.mode {
	case config.DataMode:
		return "data." + d.typ + "." + d.rname
	case config.EphemeralMode:
		return "ephemeral." + d.typ + "." + d.rname
	}
	return d.typ + "." + d.rname
}

// findDecls walks v and returns every annotated field, in the order the
// walk meets them (fields in evaluation order). It does not descend into
// the value of an annotated field, into lists or into definitions: an
// annotation inside a resource's configuration is the resource's business.
func findDecls(v cue.Value) ([]*decl, hcl.Diagnostics) {
	w := &walker{}
	w.walk(v, cue.Path{}, 0)
	return w.decls, w.diags
}

type walker struct {
	decls []*decl
	diags hcl.Diagnostics
}

// maxDepth bounds the walk: declarations sit a few levels below the root
// (data.TYPE.NAME, resource.TYPE.NAME); the bound keeps a deep input
// value from being walked to its end.
const maxDepth = 6

func (w *walker) walk(v cue.Value, path cue.Path, depth int) {
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
			d.index = len(w.decls)
			w.decls = append(w.decls, d)
			continue
		}
		// A struct with an error in it (a value not known yet) may
		// still be listed.
		if k := fv.IncompleteKind(); k == cue.StructKind || k == cue.BottomKind {
			w.walk(fv, fp, depth+1)
		}
	}
}

// declOf reads the attribute of a field, if it has one of ours.
func (w *walker) declOf(v cue.Value, path cue.Path) *decl {
	for _, a := range v.Attributes(cue.FieldAttr) {
		kind, ok := attrKinds[a.Name()]
		if !ok {
			continue
		}
		d := &decl{kind: kind, path: path, pos: rangeOf(v.Pos()), attr: "@" + a.Name() + "(" + a.Contents() + ")"}
		if a.NumArgs() > 0 {
			if key, val := a.Arg(0); val == "" {
				d.name = key
			} else {
				d.name = a.RawArg(0)
			}
		}
		d.name = strings.TrimSpace(d.name)
		if rest, ok := strings.CutSuffix(d.name, "[*]"); ok {
			d.name, d.multi = rest, true
			d.shape = instancesKind(v)
		}
		for i := 1; i < a.NumArgs(); i++ {
			key, val := a.Arg(i)
			switch key {
			case "provider":
				d.provider = val
			case "depends_on":
				for _, s := range strings.Split(val, ",") {
					if s = strings.TrimSpace(s); s != "" {
						d.dependsOn = append(d.dependsOn, s)
					}
				}
			case "sensitive":
				d.sensitive = val == "" || val == "true"
			}
		}
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
