package config

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// Moved is a moved block.
type Moved struct {
	From, To  hcl.Traversal
	DeclRange hcl.Range
}

// Import is an import block.
type Import struct {
	// To is the target address expression (a traversal, possibly with
	// dynamic instance keys).
	To        hcl.Expression
	ID        hcl.Expression
	ForEach   hcl.Expression
	Provider  *ProviderRef
	DeclRange hcl.Range
}

// Removed is a removed block.
type Removed struct {
	From hcl.Traversal
	// Destroy is lifecycle { destroy = ... }; true when not given.
	Destroy      bool
	Provisioners []*Provisioner
	Connection   *Connection
	DeclRange    hcl.Range
}

var movedSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "from", Required: true}, {Name: "to", Required: true}},
}

func (d *decoder) decodeMoved(block *hcl.Block) *Moved {
	if d.override {
		d.errorf(block.DefRange, "Cannot override 'moved' blocks", "Records of moved objects can appear only in normal files, not in override files.")
		return nil
	}
	content := d.content(block.Body, movedSchema)
	m := &Moved{DeclRange: block.DefRange}
	m.From = d.traversalAttr(content, "from")
	m.To = d.traversalAttr(content, "to")
	return m
}

func (d *decoder) traversalAttr(content *hcl.BodyContent, name string) hcl.Traversal {
	attr, ok := content.Attributes[name]
	if !ok {
		return nil
	}
	tr, diags := hcl.AbsTraversalForExpr(attr.Expr)
	d.report(diags...)
	return tr
}

var importSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "to", Required: true},
		{Name: "id", Required: true},
		{Name: "for_each"},
		{Name: "provider"},
	},
}

func (d *decoder) decodeImport(block *hcl.Block) *Import {
	if d.override {
		d.errorf(block.DefRange, "Cannot override 'import' blocks", "Import blocks can appear only in normal files, not in override files.")
		return nil
	}
	content := d.content(block.Body, importSchema)
	im := &Import{DeclRange: block.DefRange}
	if attr, ok := content.Attributes["to"]; ok {
		im.To = attr.Expr
		if _, diags := hcl.AbsTraversalForExpr(attr.Expr); diags.HasErrors() {
			if !isIndexedTraversal(attr.Expr) {
				d.errorf(attr.Expr.Range(), "Invalid import address expression", "Import address must be a reference to a resource's address, and only allows for indexing with dynamic keys. For example: module.my_module[key1].aws_s3_bucket.my_buckets[key2] for resources inside of modules, or simply aws_s3_bucket.my_bucket for a resource in the root module.")
			}
		}
	}
	if attr, ok := content.Attributes["id"]; ok {
		im.ID = attr.Expr
	}
	if attr, ok := content.Attributes["for_each"]; ok {
		im.ForEach = attr.Expr
	}
	if attr, ok := content.Attributes["provider"]; ok {
		if ref, ok := d.decodeProviderRef(attr.Expr, "provider"); ok {
			im.Provider = &ref
		}
	}
	return im
}

// isIndexedTraversal tells an address like a.b[each.key] whose index keys
// are expressions: import targets may use them.
func isIndexedTraversal(expr hcl.Expression) bool {
	switch e := expr.(type) {
	case *hclsyntax.ScopeTraversalExpr:
		return true
	case *hclsyntax.RelativeTraversalExpr:
		return isIndexedTraversal(e.Source)
	case *hclsyntax.IndexExpr:
		return isIndexedTraversal(e.Collection)
	}
	return false
}

var removedSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "from", Required: true}},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "lifecycle"},
		{Type: "provisioner", LabelNames: []string{"type"}},
		{Type: "connection"},
	},
}

var removedLifecycleSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "destroy"}}}

func (d *decoder) decodeRemoved(block *hcl.Block) *Removed {
	if d.override {
		d.errorf(block.DefRange, "Cannot override 'Removed' blocks", "Removed blocks can appear only in normal files, not in override files.")
		return nil
	}
	content := d.content(block.Body, removedSchema)
	r := &Removed{DeclRange: block.DefRange, Destroy: true}
	r.From = d.traversalAttr(content, "from")
	var seenLifecycle *hcl.Block
	for _, b := range content.Blocks {
		switch b.Type {
		case "lifecycle":
			if seenLifecycle != nil {
				d.errorf(b.DefRange, "Duplicate lifecycle block", "This removed block already has a lifecycle block at %s.", seenLifecycle.DefRange)
				continue
			}
			seenLifecycle = b
			lc := d.content(b.Body, removedLifecycleSchema)
			if attr, ok := lc.Attributes["destroy"]; ok {
				d.decodeValue(attr, &r.Destroy)
			}
		case "provisioner":
			if p := d.decodeProvisioner(b); p != nil {
				r.Provisioners = append(r.Provisioners, p)
			}
		case "connection":
			r.Connection = &Connection{Config: b.Body, DeclRange: b.DefRange}
		}
	}
	return r
}
