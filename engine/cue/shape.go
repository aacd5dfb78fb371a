package cue

import (
	"iter"
	"maps"
	"slices"
	"strings"

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
				s.partial = true
				continue
			}
			for i := 0; it.Next(); i++ {
				s.block(it.Value(), nb.Block, join(ap, cue.Index(i)), appendPath(cp, cty.IndexStep{Key: cty.NumberIntVal(int64(i))}))
			}
		case mock.NestingMap:
			it, err := fv.Fields()
			if err != nil {
				s.partial = true
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
// only not null. A value of any type is not even that: the provider may
// plan it null (terraform_data's output, where its input is null).
func computedSchema(ty cty.Type, byDefault bool) ast.Expr {
	nn := &ast.UnaryExpr{Op: token.NEQ, X: ast.NewNull()}
	switch {
	case ty == cty.DynamicPseudoType:
		return ast.NewIdent("_")
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

// addUndecidedTo adds the shape's fills to f as the shape rounds look
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

// shapeRounds is the accelerator that expands, before the plan pass,
// every resource declaration that can be expanded from the inputs alone
// and completes each of their instances with its shape, so that the plan
// pass starts from a program that holds them all where the reference
// adds each declaration's shapes at its turn, one evaluation each. Its
// check is movedInstances: a declaration whose instances the completed
// program changes is left to the plan pass, as in the reference.
type shapeRounds struct {
	// expanded holds the instances of the declarations expanded from
	// the inputs alone, by declaration index, and byPath their shapes,
	// by instance path: the program run returns holds these.
	expanded map[int][]*instance
	byPath   map[string]*shape
}

// run expands every resource declaration that can be expanded from
// the inputs alone and completes each instance with its shape (nulls,
// empty blocks, the schema types of its computed attributes), all in one
// unification, as the article unifies each resource with its provider
// schema. It returns the program so completed and records the shapes by
// path.
//
// A shape is first found in the program before any is added, where the
// other instances' computed attributes are not there yet: try(x.arn,
// var.arn) takes its fallback there, and an argument so null by default
// would be left to the provider where OpenTofu passes x's arn; a
// configuration that reads a null not decided yet may not even be
// listed. While some shape is undecided, the program is completed with
// the shapes found (see shape.addUndecidedTo), each attribute null by
// default is looked at again there, and each configuration not listed
// is listed again, until nothing changes, in at most maxShapeRounds
// rounds. A module without such arguments takes one round.
//
// The completed program is then checked against the instances found
// first (see movedInstances): a declaration whose instances it changes
// loses its shape here and is expanded by the plan pass, at its turn.
func (s *shapeRounds) run(p *planner, v cue.Value) cue.Value {
	s.byPath = map[string]*shape{}
	s.expanded = map[int][]*instance{}
	var insts []*instance
	expand := func(base cue.Value) bool {
		found := false
		for _, d := range p.resources {
			if _, done := s.expanded[d.index]; done {
				continue
			}
			if d.multi && foreignError(base.LookupPath(d.path), d.path) {
				continue
			}
			if ds, ok := p.expand(d, base, false); ok {
				s.expanded[d.index] = ds
				insts = append(insts, ds...)
				found = true
			}
		}
		return found
	}
	expand(v)
	null := p.ctx.CompileString("null")
	p.stats.shapeRounds = 1
	for p.stats.shapeRounds < maxShapeRounds && (len(s.expanded) < len(p.resources) || slices.ContainsFunc(insts, func(in *instance) bool { return in.shape.undecided() })) {
		var f fills
		for _, in := range insts {
			if !in.shape.partial {
				in.shape.addUndecidedTo(&f)
			}
		}
		base := f.apply(p.ctx, v)
		changed := false
		for _, in := range insts {
			if !in.shape.partial {
				changed = in.shape.decide(base, null) || changed
			} else if s := shapeOf(base.LookupPath(in.path), in.block, in.path); !s.partial {
				in.shape, changed = s, true
			}
		}
		// After the shapes: a declaration expanded now has its shape
		// found in base, where its own fills are not.
		changed = expand(base) || changed
		if !changed {
			break
		}
		p.stats.shapeRounds++
	}
	for round := 1; ; round++ {
		typed := unifyLed(p.ctx, flowGuard(v.Context()), v, shapeFills(insts, nil)) //nolint:staticcheck // the guard leads the unification, so it resolves the program's imports: it must be of v's context
		moved := s.movedInstances(p, v, typed, insts)
		moved = append(moved, brokenInstances(v, typed, insts, moved)...)
		if len(moved) == 0 {
			for _, in := range insts {
				if !in.shape.partial {
					s.byPath[in.path.String()] = in.shape
				}
			}
			return typed
		}
		p.stats.movedDecls += len(moved)
		if round == maxShapeRounds {
			// Still moving: every multi-instance declaration is
			// expanded in the plan pass, at its turn.
			moved = moved[:0]
			for i := range s.expanded {
				if p.resources[i].multi {
					moved = append(moved, i)
				}
			}
		}
		for _, i := range moved {
			delete(s.expanded, i)
		}
		insts = slices.DeleteFunc(insts, func(in *instance) bool { return slices.Contains(moved, in.d.index) })
	}
}

// foreignError reports whether v, the value of a multi-instance
// declaration at path, has an error from outside it: a value its count or
// for_each reads that cannot be evaluated yet (a module argument computed
// from a data source not read yet), which leaves the instances it lists
// short (a struct comprehension over it lists none). The shape rounds
// leave such a declaration to the plan pass, which expands it at its
// turn; expand's own test, ownError, takes only an error of the value
// itself, since one in an instance's value is not the listing's.
func foreignError(v cue.Value, path cue.Path) bool {
	own := path.String()
	return errorAt(v, func(at string) bool { return at != own && !strings.HasPrefix(at, own+".") })
}

// shapeFills are the fills of the shapes of insts, but for those of the
// declarations in skip. A partial shape adds nothing: it is found again
// when the configuration can be listed.
func shapeFills(insts []*instance, skip []int) *fills {
	var f fills
	for _, in := range insts {
		if !in.shape.partial && !slices.Contains(skip, in.d.index) {
			in.shape.addTo(&f)
		}
	}
	return &f
}

// movedInstances are the multi-instance declarations expanded before the
// program was completed whose instances the completed program typed
// changes: a count that reads another instance's computed attribute
// through try (try(var.owner["id"], null) == null, where the owner's id
// comes from a data source) takes the fallback while the attribute is
// not there, and so makes an instance that the data source's value, once
// read, does not. The plan pass expands them at their turn, from the
// values of what they depend on.
//
// Where typed cannot tell the instances, either the declaration's own
// fills conflict with what it now gives (a list of one filled where the
// count is now zero), or its instances wait for a value; it is looked at
// again in v completed without its fills. Where that cannot tell either,
// the instances wait for a value that only the plan pass gives (a data
// source's attribute, not known in the completed program, where the
// program as written took try's fallback): the plan pass expands it too.
func (s *shapeRounds) movedInstances(p *planner, v, typed cue.Value, insts []*instance) []int {
	var moved, unsure []int
	for _, d := range p.resources {
		ins, ok := s.expanded[d.index]
		if !ok || !d.multi {
			continue
		}
		switch ls, ok := instancesIn(d, typed.LookupPath(d.path)); {
		case !ok:
			unsure = append(unsure, d.index)
		case !sameInstances(ls, ins):
			moved = append(moved, d.index)
		}
	}
	if len(unsure) == 0 {
		return moved
	}
	bare := shapeFills(insts, unsure).apply(p.ctx, v)
	for _, i := range unsure {
		d := p.resources[i]
		if ls, ok := instancesIn(d, bare.LookupPath(d.path)); !ok || !sameInstances(ls, s.expanded[i]) {
			moved = append(moved, i)
		}
	}
	return moved
}

// brokenInstances are the declarations, other than those in moved, an
// instance of which has an attribute or block type that is an error in
// the completed program typed where it is not in v: with CUE v0.17.1,
// unifying the fills into the program can leave a value a cycle error
// that the program as written evaluates (fabric's gke-cluster-standard:
// a cluster_autoscaling block list [if local.cas != null {...}] beside a
// backup plan's for_each). The plan pass expands them at their turn, as
// the reference does, from the program without their fills.
func brokenInstances(v, typed cue.Value, insts []*instance, moved []int) []int {
	var broken []int
	for _, in := range insts {
		i := in.d.index
		if in.shape.partial || slices.Contains(moved, i) || slices.Contains(broken, i) {
			continue
		}
		if brokenIn(v, typed, in.path, maps.Keys(in.block.Attributes)) || brokenIn(v, typed, in.path, maps.Keys(in.block.BlockTypes)) {
			broken = append(broken, i)
		}
	}
	return broken
}

// brokenIn reports whether one of the fields names of the instance at
// path is an error in typed but not in v.
func brokenIn(v, typed cue.Value, path cue.Path, names iter.Seq[string]) bool {
	for name := range names {
		at := join(path, cue.Str(name))
		if typed.LookupPath(at).Err() == nil {
			continue
		}
		if was := v.LookupPath(at); was.Exists() && was.Err() == nil {
			return true
		}
	}
	return false
}

// sameInstances tells whether ls lists the instances ins, at the same
// paths.
func sameInstances(ls []listed, ins []*instance) bool {
	return slices.EqualFunc(ls, ins, func(l listed, in *instance) bool { return l.path.String() == in.path.String() })
}

// maxShapeRounds bounds the rounds of shapeRounds.run.
const maxShapeRounds = 4
