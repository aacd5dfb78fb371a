package config

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// Tree is a root module with every module its calls reach: local
// directories, modules `tofu init` installed and directories the user
// mapped (see Sources), each loaded once.
type Tree struct {
	Root *Module
	// Modules holds every loaded module by its cleaned directory.
	Modules map[string]*Module
	// Top is the directory that holds every module of the tree.
	Top string
	// ReadRoot is the directory the file functions may read inside: the
	// outermost of Top, the root module's repository (RepositoryRoot)
	// and the directories of SourceOptions.AllowRead, of those that hold
	// Top. A module reads nothing outside its repository unless the user
	// names the directory (--allow-read), and then only where it holds
	// the tree: a template in the repository beside the modules
	// (terraform-aws-eks's templates/, read by modules/_user_data) is
	// read as OpenTofu reads it.
	ReadRoot string

	sources  *Sources
	children map[*ModuleCall]*TreeChild
	errors   map[string]hcl.Diagnostics
	// expanded are the directories whose modules' calls were found.
	expanded map[string]bool
	// path are the directories whose calls are being followed, from the
	// root: a call back into one of them is a cycle.
	path []string
}

// TreeChild is where a call of a module of the tree found its module.
type TreeChild struct {
	Child
	// Module is the module loaded; nil when it is not available or could
	// not be read. Errors are the errors of loading it.
	Module *Module
	Errors hcl.Diagnostics
}

// LoadTree reads the module in dir and every module its calls reach
// through sources (nil: local paths and .terraform's manifest). Errors
// in loading any of them are returned; a call whose module is not
// available is recorded with its warning (TreeChild.Diagnostic), which
// each consumer reports where it uses the call.
//
// A module reached by several calls is loaded once, and its own calls
// are found by the key of the first call that reached it: OpenTofu
// installs a call's module once per key, but the same source and version
// give the same files.
func LoadTree(dir string, sources *Sources) (*Tree, hcl.Diagnostics) {
	return newTree(filepath.Clean(dir), nil, sources)
}

// TreeOf is LoadTree for a root module the caller has loaded, and whose
// diagnostics it has: those returned are of the modules its calls reach.
func TreeOf(root *Module, sources *Sources) (*Tree, hcl.Diagnostics) {
	return newTree(filepath.Clean(root.Dir), root, sources)
}

func newTree(dir string, root *Module, sources *Sources) (*Tree, hcl.Diagnostics) {
	if sources == nil {
		sources = NewSources(SourceOptions{})
	}
	t := &Tree{Modules: map[string]*Module{}, sources: sources, children: map[*ModuleCall]*TreeChild{}, errors: map[string]hcl.Diagnostics{}, expanded: map[string]bool{}}
	if root != nil {
		t.Modules[dir] = root
	}
	t.Root = t.load(dir, dir, "", nil)
	top, _ := filepath.Abs(dir)
	var diags hcl.Diagnostics
	for _, d := range slices.Sorted(maps.Keys(t.Modules)) {
		diags = append(diags, t.errors[d]...)
		if abs, err := filepath.Abs(d); err == nil {
			top = commonDir(top, abs)
		}
	}
	t.Top = top
	t.ReadRoot = readRoot(top, dir, sources.opts.AllowRead)
	return t, diags
}

// readRoot is Tree.ReadRoot for a tree whose modules are in top and whose
// root module is in dir. A candidate must hold top both as written and
// with symbolic links resolved: the file functions resolve paths from
// the root module's directory as written, and open the root with the
// links followed (os.Root), so that a repository above a link to the
// modules (a test's link to shared material) does not hold them.
func readRoot(top, dir string, allowRead []string) string {
	root := top
	candidates := slices.Clone(allowRead)
	if repo, err := RepositoryRoot(resolved(dir)); err == nil {
		candidates = append(candidates, repo)
	}
	realTop := resolved(top)
	for _, c := range candidates {
		abs, err := filepath.Abs(c)
		if err != nil {
			continue
		}
		if Within(root, abs) && Within(realTop, resolved(abs)) {
			root = abs
		}
	}
	return root
}

// Child is where call mc, of a module of the tree, found its module; nil
// for a call that is not in the tree.
func (t *Tree) Child(mc *ModuleCall) *TreeChild {
	return t.children[mc]
}

// Unavailable lists the diagnostics of the calls whose modules are not
// available, in the order of their modules' directories and call names.
func (t *Tree) Unavailable() hcl.Diagnostics {
	var out hcl.Diagnostics
	for _, dir := range slices.Sorted(maps.Keys(t.Modules)) {
		m := t.Modules[dir]
		for _, name := range slices.Sorted(maps.Keys(m.ModuleCalls)) {
			if c := t.children[m.ModuleCalls[name]]; c != nil && c.Diagnostic != nil {
				out = append(out, c.Diagnostic)
			}
		}
	}
	return out
}

// load loads the module in dir, reached by a call with key, unless it
// was loaded before, and the modules of its calls.
func (t *Tree) load(rootDir, dir, key string, from *hcl.Range) *Module {
	if m, ok := t.Modules[dir]; ok {
		if !t.expanded[dir] {
			t.loadChildren(rootDir, m, key)
		}
		return m
	}
	m, diags := t.sources.Load(dir)
	diags = onlyErrors(diags)
	if m == nil && len(diags) == 0 {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Failed to load module", Detail: fmt.Sprintf("No module could be read from %s.", dir), Subject: from})
	}
	t.Modules[dir] = m
	t.errors[dir] = diags
	if m == nil {
		delete(t.Modules, dir)
		return nil
	}
	t.loadChildren(rootDir, m, key)
	return m
}

func (t *Tree) loadChildren(rootDir string, m *Module, key string) {
	dir := filepath.Clean(m.Dir)
	t.expanded[dir] = true
	t.path = append(t.path, dir)
	defer func() { t.path = t.path[:len(t.path)-1] }()
	for _, name := range slices.Sorted(maps.Keys(m.ModuleCalls)) {
		call := m.ModuleCalls[name]
		child := &TreeChild{Child: t.sources.Find(rootDir, key, m.Dir, call)}
		t.children[call] = child
		if child.Kind == NotAvailable {
			continue
		}
		rng := call.DeclRange()
		if call.Source != nil {
			rng = call.Source.Range()
		}
		if i := slices.Index(t.path, filepath.Clean(child.Dir)); i >= 0 {
			// A module the calls lead back to: OpenTofu refuses the
			// tree, which would expand without end.
			loop := append(slices.Clone(t.path[i:]), filepath.Clean(child.Dir))
			d := &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Module cycle",
				Detail:   fmt.Sprintf("Module %q calls the module in %s, which leads back to it: %s. A module must not call itself, directly or through other modules.", name, child.Dir, strings.Join(loop, " → ")),
				Subject:  rng.Ptr(),
			}
			t.errors[dir] = append(t.errors[dir], d)
			child.Errors = hcl.Diagnostics{d}
			continue
		}
		child.Module = t.load(rootDir, child.Dir, child.Key, rng.Ptr())
		child.Errors = t.errors[child.Dir]
	}
}

// onlyErrors drops the loader's warnings: they are the linter's business.
func onlyErrors(diags hcl.Diagnostics) hcl.Diagnostics {
	var out hcl.Diagnostics
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			out = append(out, d)
		}
	}
	return out
}

// commonDir is the deepest directory that holds both a and b.
func commonDir(a, b string) string {
	for {
		rel, err := filepath.Rel(a, b)
		if err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return a
		}
		parent := filepath.Dir(a)
		if parent == a {
			return a
		}
		a = parent
	}
}
