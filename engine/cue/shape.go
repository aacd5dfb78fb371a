package cue

import (
	"slices"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/token"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/engine/mock"
)

// shape is what the engine adds to an instance's configuration to make it
// a whole value of its schema, as the article unifies each resource with
// its provider schema: a null for every attribute the configuration leaves
// out, an empty collection (or null) for every nested block type it has
// no block of, and the schema type of every computed attribute it leaves
// out, at every nesting level of list and map blocks. References to the
// instance then see what engine/hcl's references see: every attribute,
// with the provider's values where the provider decides them.
type shape struct {
	// computed are the computed attributes the configuration leaves out
	// (or leaves null by default): the provider decides them.
	computed []computedAttr
	// skip holds the paths of computed, as mock.PathString writes them:
	// the decoder takes them as absent, since the engine, not the
	// configuration, put them there.
	skip map[string]bool
	// fills complete the configuration.
	fills []pathFill
	// partial is set when a struct of the configuration could not be
	// listed (a comprehension waits for a value): what it leaves out is
	// not known, so nothing is added there.
	partial bool
}

type computedAttr struct {
	// path is the attribute's path in the program, at is its path in
	// the instance's value.
	path cue.Path
	at   cty.Path
	ty   cty.Type
	// byDefault is set for an attribute that the configuration leaves
	// null by default, rather than out.
	byDefault bool
}

type pathFill struct {
	path cue.Path
	x    ast.Expr
	// byDefault is set for the type of a computed attribute null by
	// default.
	byDefault bool
}

// shapeOf finds the shape of an instance's configuration cfg at path.
func shapeOf(cfg cue.Value, b *mock.Block, path cue.Path) *shape {
	s := &shape{skip: map[string]bool{}}
	s.block(cfg, b, path, nil)
	return s
}

func (s *shape) block(v cue.Value, b *mock.Block, path cue.Path, at cty.Path) {
	if _, err := v.Fields(); err != nil {
		s.partial = true
		return
	}
	for _, name := range sortedKeys(b.Attributes) {
		a := b.Attributes[name]
		fv := v.LookupPath(cue.MakePath(cue.Str(name)))
		ap := join(path, cue.Str(name))
		cp := appendPath(at, cty.GetAttrStep{Name: name})
		switch {
		case !fv.Exists() && a.Computed, a.Computed && nullByDefault(fv):
			ty := attrType(a)
			s.computed = append(s.computed, computedAttr{path: ap, at: cp, ty: ty, byDefault: fv.Exists()})
			s.skip[mock.PathString(cp)] = true
			s.fills = append(s.fills, pathFill{ap, computedSchema(ty, fv.Exists()), fv.Exists()})
		case !fv.Exists():
			s.fills = append(s.fills, pathFill{path: ap, x: ast.NewNull()})
		}
	}
	for _, name := range sortedKeys(b.BlockTypes) {
		nb := b.BlockTypes[name]
		if _, clash := b.Attributes[name]; clash || nb == nil {
			continue
		}
		fv := v.LookupPath(cue.MakePath(cue.Str(name)))
		ap := join(path, cue.Str(name))
		cp := appendPath(at, cty.GetAttrStep{Name: name})
		if !fv.Exists() {
			if x := emptyBlocksExpr(nb); x != nil {
				s.fills = append(s.fills, pathFill{path: ap, x: x})
			}
			continue
		}
		switch nb.Nesting {
		case mock.NestingList:
			it, err := fv.List()
			if err != nil {
				continue
			}
			for i := 0; it.Next(); i++ {
				s.block(it.Value(), nb.Block, join(ap, cue.Index(i)), appendPath(cp, cty.IndexStep{Key: cty.NumberIntVal(int64(i))}))
			}
		case mock.NestingMap:
			it, err := fv.Fields()
			if err != nil {
				continue
			}
			for it.Next() {
				key := it.Selector().Unquoted()
				s.block(it.Value(), nb.Block, join(ap, cue.Str(key)), appendPath(cp, cty.IndexStep{Key: cty.StringVal(key)}))
			}
		case mock.NestingSingle, mock.NestingGroup:
			// Written as a list of one block.
			if it, err := fv.List(); err == nil && it.Next() {
				s.block(it.Value(), nb.Block, join(ap, cue.Index(0)), cp)
			}
		}
		// The elements of a set are matched by value, not by place: what
		// the provider computes in them is not unified back.
	}
}

// computedSchema is what a computed attribute is before the provider
// decides it: a value of its type that is not null (the provider gives
// it a value; a null default of the configuration, *null | string, gives
// way to it).
//
// In CUE an open list ([...string]) or a struct of types is already a
// value, an empty one, where a computed collection is wholly unknown. A
// list or set is therefore one of two with neither by default, empty or
// not ([] | [string, ...string]): what reads it waits, as it waits for
// an unknown on the HCL side. A map is the like, close({}) | {[string]:
// string}, only where the configuration is a map null by default
// (byDefault): CUE v0.17.1 takes the two structs for one ({}) where a
// definition reads them (a library call), so a map the configuration
// leaves out is only not null, which stays unknown there. An object is
// only not null.
func computedSchema(ty cty.Type, byDefault bool) ast.Expr {
	nn := &ast.UnaryExpr{Op: token.NEQ, X: ast.NewNull()}
	switch {
	case ty.IsPrimitiveType():
		return &ast.BinaryExpr{X: typeSchema(ty), Op: token.AND, Y: nn}
	case ty.IsListType() || ty.IsSetType():
		some := &ast.ListLit{Elts: []ast.Expr{elemSchema(ty.ElementType()), &ast.Ellipsis{Type: elemSchema(ty.ElementType())}}}
		return &ast.BinaryExpr{X: ast.NewList(), Op: token.OR, Y: some}
	case ty.IsMapType() && byDefault:
		empty := ast.NewCall(ast.NewIdent("close"), &ast.StructLit{})
		return &ast.BinaryExpr{X: empty, Op: token.OR, Y: typeSchema(ty)}
	}
	return nn
}

// elemSchema is the type of a computed collection's elements: primitive
// types are written, others are top, for the reason computedSchema gives.
func elemSchema(ty cty.Type) ast.Expr {
	if ty.IsPrimitiveType() {
		return typeSchema(ty)
	}
	return ast.NewIdent("_")
}

// addTo adds the shape's fills to f.
func (s *shape) addTo(f *fills) {
	for _, x := range s.fills {
		f.add(x.path, x.x)
	}
}

// addUndecidedTo adds the shape's fills to f as planner.schemas looks
// at them again: the type of an attribute null by default is that type
// or null, neither by default (*(string & !=null) | null, unified with
// the configuration's *null | string). A reference to it sees a value
// not known yet, as with the type; the attribute itself still admits
// null where the configuration is null by default, and not where it
// now reads another instance's attribute.
func (s *shape) addUndecidedTo(f *fills) {
	for _, x := range s.fills {
		if x.byDefault {
			f.add(x.path, &ast.BinaryExpr{X: &ast.UnaryExpr{Op: token.MUL, X: &ast.ParenExpr{X: x.x}}, Op: token.OR, Y: ast.NewNull()})
			continue
		}
		f.add(x.path, x.x)
	}
}

// undecided tells whether s may change once the other instances are
// completed: it could not list a struct, or it took an attribute for one
// the provider decides because it is null by default, which a try or a
// conditional that reads another instance's computed attribute is
// before that attribute is there.
func (s *shape) undecided() bool {
	return s.partial || slices.ContainsFunc(s.computed, func(c computedAttr) bool { return c.byDefault })
}

// decide looks again, in the program completed with every shape
// (addUndecidedTo), at each attribute s took for one the provider
// decides because it was null by default: one that no longer admits
// null there (a try that now reads another instance's attribute) is the
// configuration's. null is the CUE null. It tells whether s changed.
func (s *shape) decide(base, null cue.Value) bool {
	n := len(s.computed)
	s.computed = slices.DeleteFunc(s.computed, func(c computedAttr) bool {
		if !c.byDefault {
			return false
		}
		w := base.LookupPath(c.path)
		if err := w.Err(); err != nil && !cue.IsIncomplete(err) {
			return false
		}
		if w.Unify(null).Err() == nil {
			return false
		}
		delete(s.skip, mock.PathString(c.at))
		s.fills = slices.DeleteFunc(s.fills, func(f pathFill) bool { return f.byDefault && f.path.String() == c.path.String() })
		return true
	})
	return len(s.computed) != n
}

// nullByDefault reports whether a configuration value is null only by
// default (*null | string, an input left null): the provider may still
// decide it, as it decides an attribute that HCL configuration sets to
// null.
func nullByDefault(v cue.Value) bool {
	if v.IsConcrete() {
		return false
	}
	d, ok := v.Default()
	return ok && d.IsNull()
}

// emptyBlocksExpr is the CUE value of a nested block type without blocks:
// [] for lists and sets, {} for maps, null for a single block; nil for a
// group block, which is never absent on the HCL side.
func emptyBlocksExpr(nb *mock.NestedBlock) ast.Expr {
	switch nb.Nesting {
	case mock.NestingList, mock.NestingSet:
		return &ast.ListLit{}
	case mock.NestingMap:
		return &ast.StructLit{}
	case mock.NestingSingle:
		return ast.NewNull()
	}
	return nil
}

func appendPath(p cty.Path, step cty.PathStep) cty.Path {
	out := make(cty.Path, len(p), len(p)+1)
	copy(out, p)
	return append(out, step)
}

// at is the part of v at path, or cty.NilVal when v has none there.
func at(v cty.Value, path cty.Path) cty.Value {
	v, _ = v.UnmarkDeep()
	x, err := path.Apply(v)
	if err != nil {
		return cty.NilVal
	}
	return x
}

// join is path followed by sels, in a new slice: cue.Path.Append may
// write into the backing array of path, which other paths share.
func join(path cue.Path, sels ...cue.Selector) cue.Path {
	return cue.MakePath(append(slices.Clone(path.Selectors()), sels...)...)
}
