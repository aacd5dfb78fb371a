package convert

import (
	"bytes"
	"path/filepath"
	"slices"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tofucue/tofucue/config"
)

// A batch converts each called module once (Batch sets
// Options.templates): the examples of a repository all call its root
// module, and fabric's recipes call the same dozen modules. What a
// module's template is depends on the module, on its key (its directory
// relative to the root's, which names the templates of the modules it
// calls), on the package and module path of the root (in the file's
// package clause and tofu import), and on what the calls it makes find in
// the family converting it: the module each call's key names, converted
// or not, and the warnings finding it gave. A family resolves those calls
// first (resolveCalls), in the order the conversion makes them; a
// template converted before with the same resolution is used again, with
// the root's package and module path put in.

// templateCache holds the templates converted in a batch.
type templateCache struct {
	mu sync.Mutex
	m  map[templateKey]*template
	// hits counts the templates used again, for tests.
	hits int
}

func newTemplateCache() *templateCache {
	return &templateCache{m: map[templateKey]*template{}}
}

// templateKey identifies a template up to the root's package and, when
// it is the default one made from the package, module path.
type templateKey struct {
	dir, key   string
	modulePath string
	// known is what the tree knows while planning of its variables and
	// of the outputs of the modules it calls (knownFacts.key).
	known string
}

// A template is a called module converted: its file and what converting
// it added to the family.
type template struct {
	name    string
	source  []byte
	libUsed bool
	fileUse *hcl.Range
	// usesTable is set when it selects from cueform.Templates, which
	// depends on the root module's files (see template_table.go).
	usesTable bool
	diags     hcl.Diagnostics
	reasons   []string
	// calls are the calls it makes, resolved.
	calls []resolvedCall
	// pkg and lib are the ranges of the package name and the module path
	// of the tofu import in source ([0, 0] for none).
	pkg, lib [2]int
}

// resolvedCall is a call of a called module and what the family found
// for it (see converter.childTemplate).
type resolvedCall struct {
	mc    *config.ModuleCall
	key   string
	found *childModule
	diags hcl.Diagnostics
}

// sameAs reports whether r resolved as o did, in another family.
func (r *resolvedCall) sameAs(o *resolvedCall) bool {
	if r.mc.Name != o.mc.Name || r.key != o.key || (r.found == nil) != (o.found == nil) || len(r.diags) != len(o.diags) {
		return false
	}
	for i, d := range r.diags {
		if d.Summary != o.diags[i].Summary || d.Detail != o.diags[i].Detail {
			return false
		}
	}
	return true
}

// resolveCalls finds the modules of m's calls, in the order its
// conversion meets them (its files' module blocks in order), converting
// those not converted yet into the family.
func (f *family) resolveCalls(m *config.Module, key string) []resolvedCall {
	c := newConverter(m, f.opts, f, key)
	var calls []resolvedCall
	for _, path := range m.PrimaryPaths {
		file := m.Files[path]
		if file == nil {
			continue
		}
		body, ok := file.Body.(*hclsyntax.Body)
		if !ok {
			continue
		}
		for _, b := range body.Blocks {
			if b.Type != "module" || len(b.Labels) != 1 {
				continue
			}
			mc := m.ModuleCalls[b.Labels[0]]
			if mc == nil {
				continue
			}
			n := len(c.diags)
			cm := c.childTemplate(mc)
			k, _ := c.childKey(mc)
			calls = append(calls, resolvedCall{mc: mc, key: k, found: cm, diags: c.diags[n:len(c.diags):len(c.diags)]})
		}
	}
	return calls
}

// cached returns the template converted before for m at key whose calls
// resolved as calls did, with the family's package and module path.
func (f *family) cached(tk templateKey, calls []resolvedCall) *template {
	f.opts.templates.mu.Lock()
	t := f.opts.templates.m[tk]
	f.opts.templates.mu.Unlock()
	if t == nil || len(t.calls) != len(calls) {
		return nil
	}
	for i := range calls {
		if !calls[i].sameAs(&t.calls[i]) {
			return nil
		}
	}
	f.opts.templates.mu.Lock()
	f.opts.templates.hits++
	f.opts.templates.mu.Unlock()
	out := *t
	out.source = splice(t.source, t.pkg, f.opts.Package, t.lib, f.opts.ModulePath)
	return &out
}

// store keeps t for the families that convert m at key later, unless one
// is kept already.
func (f *family) store(tk templateKey, t *template) {
	pkg, lib, ok := headerRanges(t.source, f.opts.Package, f.opts.ModulePath)
	if !ok {
		return
	}
	keep := *t
	keep.pkg, keep.lib = pkg, lib
	f.opts.templates.mu.Lock()
	if f.opts.templates.m[tk] == nil {
		f.opts.templates.m[tk] = &keep
	}
	f.opts.templates.mu.Unlock()
}

// templateKeyOf is the cache key of m's template at key: the package
// and module path are put in when used again, unless the module path is
// not the default one, which may sort otherwise.
func (f *family) templateKeyOf(m *config.Module, key string) templateKey {
	dir, err := filepath.Abs(m.Dir)
	if err != nil {
		dir = m.Dir
	}
	tk := templateKey{dir: filepath.Clean(dir), key: key, known: f.known.key(m)}
	if f.opts.ModulePath != defaultModulePath(f.opts.Package) {
		tk.modulePath = f.opts.ModulePath
	}
	return tk
}

// headerRanges finds, in a template file, the package name of its
// package clause (the file's start) and the module path of its tofu
// import (in the import declaration after it), if any.
func headerRanges(src []byte, pkg, modulePath string) (pkgAt, libAt [2]int, ok bool) {
	clause := []byte("package " + pkg + "\n")
	if !bytes.HasPrefix(src, clause) {
		return pkgAt, libAt, false
	}
	pkgAt = [2]int{len("package "), len("package ") + len(pkg)}
	start := len(clause)
	for start < len(src) && src[start] == '\n' {
		start++
	}
	if rest := src[start:]; bytes.HasPrefix(rest, []byte("import")) {
		end := bytes.Index(rest, []byte("\n\n"))
		if end < 0 {
			end = len(rest)
		}
		imp := []byte(`"` + modulePath + "/" + libImport + `"`)
		if i := bytes.Index(rest[:end], imp); i >= 0 {
			at := start + i + 1
			libAt = [2]int{at, at + len(modulePath)}
		}
	}
	return pkgAt, libAt, true
}

// splice is src with the ranges pkgAt and libAt (a later one, or empty)
// replaced by pkg and modulePath.
func splice(src []byte, pkgAt [2]int, pkg string, libAt [2]int, modulePath string) []byte {
	out := slices.Concat(src[:pkgAt[0]], []byte(pkg))
	if libAt[1] > 0 {
		out = slices.Concat(out, src[pkgAt[1]:libAt[0]], []byte(modulePath), src[libAt[1]:])
	} else {
		out = append(out, src[pkgAt[1]:]...)
	}
	return out
}
