package convert

import (
	"fmt"
	"path/filepath"
	"testing/fstest"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/cuecontext"
	"cuelang.org/go/cue/errors"
	"cuelang.org/go/cue/load"
	"cuelang.org/go/cue/token"
)

// Load loads the converted module as the cue tool would, with
// cuelang.org/go/cue/load, from memory, and builds it in ctx. It fails
// when the files do not parse, an import is missing or a reference is
// undefined; values that are not concrete yet (inputs, computed
// attributes) are not errors.
func (r *Result) Load(ctx *cue.Context) (cue.Value, error) {
	return r.LoadWith(ctx, nil)
}

// LoadWith is Load with extra files added to the converted module's
// package, such as one that sets inputs: extra maps file names to CUE
// source.
func (r *Result) LoadWith(ctx *cue.Context, extra map[string][]byte) (v cue.Value, err error) {
	defer func() {
		// The CUE evaluator can panic (v0.17.1 does in its cycle
		// detection on some module trees): an error, not a crash.
		if e := recover(); e != nil {
			v, err = cue.Value{}, fmt.Errorf("building the converted module: the CUE evaluator failed: %v", e)
		}
	}()
	files, err := r.OutputFiles()
	if err != nil {
		return cue.Value{}, err
	}
	for name, b := range extra {
		files[name] = b
	}
	fsys := fstest.MapFS{}
	for name, b := range files {
		fsys[name] = &fstest.MapFile{Data: b, Mode: 0o644}
	}
	if len(r.Files) == 0 {
		// An empty module is an empty package.
		fsys["empty.cue"] = &fstest.MapFile{Data: []byte("package " + r.Package + "\n")}
	}
	insts := load.Instances([]string{"."}, &load.Config{FS: fsys, Dir: "/"})
	if len(insts) != 1 {
		return cue.Value{}, fmt.Errorf("loading the converted module gave %d instances", len(insts))
	}
	if insts[0].Err != nil {
		return cue.Value{}, fmt.Errorf("loading the converted module: %s", errors.Details(insts[0].Err, nil))
	}
	if ctx == nil {
		ctx = cuecontext.New()
	}
	v = ctx.BuildInstance(insts[0])
	if err := v.Err(); err != nil && !r.templateErrors(v, err) {
		return v, fmt.Errorf("building the converted module: %s", errors.Details(err, nil))
	}
	return v, nil
}

// templateErrors reports whether every error of err is in the template of
// a called module: at a path under _module, or at no path of the program
// (an element of a list being built, say "0") with every position in a
// template's file. A template is evaluated with its variables' defaults,
// which no instance has to share; its instances have their own errors.
func (r *Result) templateErrors(v cue.Value, err error) bool {
	templates := map[string]bool{}
	for _, f := range r.Files {
		if f.Template {
			templates[f.Name] = true
		}
	}
	for _, e := range errors.Errors(err) {
		p := e.Path()
		if len(p) > 0 && p[0] == templateRoot {
			continue
		}
		if len(p) > 0 && v.Exists() && v.LookupPath(cue.ParsePath(p[0])).Exists() {
			return false
		}
		positions := append([]token.Pos{e.Position()}, e.InputPositions()...)
		for _, pos := range positions {
			if pos.IsValid() && !templates[filepath.Base(pos.Filename())] {
				return false
			}
		}
		if !e.Position().IsValid() {
			return false
		}
	}
	return true
}
