package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	goversion "github.com/hashicorp/go-version"
	"github.com/hashicorp/hcl/v2"
)

// Where a module call's module is found. A local source (./x, ../x) is a
// directory relative to the calling module's. Any other source is found,
// in this order, through a mapping the user gives (--module-source
// SOURCE=DIR) or through the manifest that `tofu init` writes of the
// modules it installed (.terraform/modules/modules.json, keyed by the
// dotted path of calls from the root). Nothing is ever downloaded: a call
// found in neither is unavailable, and its Diagnostic says how to make it
// available.

// SourceKind says how a module call's module was found.
type SourceKind int

// The ways a module call's module is found.
const (
	// FoundLocal is a local source path.
	FoundLocal SourceKind = iota
	// FoundInstalled is a module `tofu init` installed.
	FoundInstalled
	// FoundMapped is a source the user mapped to a directory.
	FoundMapped
	// NotAvailable is a module found nowhere: never downloaded.
	NotAvailable
)

func (k SourceKind) String() string {
	return [...]string{"local", "installed", "mapped", "not available"}[k]
}

// SourceOptions say where module calls that are not local find their
// modules. The zero value finds installed modules in .terraform and
// tolerates unavailable ones.
type SourceOptions struct {
	// DataDir is the directory `tofu init` writes to, as TF_DATA_DIR names
	// it: relative to the root module's directory, or absolute; "" means
	// ".terraform".
	DataDir string
	// Mappings map a module source address, as a call writes it, to a
	// local directory (--module-source). A mapping of a package address
	// also serves calls of its subdirectories (ADDR//sub).
	Mappings map[string]string
	// Strict makes an unavailable module an error rather than a warning
	// (--strict-modules).
	Strict bool
	// Calls says which calls' modules are read, as TFLint's
	// --call-module-type does: all (the zero value) reads local, mapped
	// and installed modules; local reads local paths (and mappings, which
	// the user names); none reads no module. A call left out is not
	// available, silently: its outputs are not known.
	Calls CallModuleType
	// AllowRead are directories a module's source may lead to besides the
	// root module's repository (--allow-read). Nothing else outside it is
	// read: a local source that leaves it is an error (see Readable).
	AllowRead []string
	// ShareModules loads each directory once for every tree found through
	// these sources (see Sources.Load): a batch of roots that call the
	// same modules, as the examples of one repository do, reads each
	// once. The trees then share the modules, which no one may change.
	ShareModules bool
}

// CallModuleType is SourceOptions.Calls.
type CallModuleType string

// The values of CallModuleType, TFLint's words.
const (
	CallAll   CallModuleType = "all"
	CallLocal CallModuleType = "local"
	CallNone  CallModuleType = "none"
)

// ParseCallModuleType reads all, local or none.
func ParseCallModuleType(s string) (CallModuleType, error) {
	switch t := CallModuleType(s); t {
	case CallAll, CallLocal, CallNone:
		return t, nil
	}
	return "", fmt.Errorf("--call-module-type %q: want all, local or none", s)
}

// ParseSourceMapping reads a --module-source argument, SOURCE=DIR.
func ParseSourceMapping(arg string) (source, dir string, err error) {
	source, dir, ok := strings.Cut(arg, "=")
	source, dir = strings.TrimSpace(source), strings.TrimSpace(dir)
	if !ok || source == "" || dir == "" {
		return "", "", fmt.Errorf("--module-source %q: want SOURCE=DIR, such as terraform-aws-modules/vpc/aws=../terraform-aws-vpc", arg)
	}
	if strings.HasPrefix(source, "./") || strings.HasPrefix(source, "../") {
		return "", "", fmt.Errorf("--module-source %q: %s is a local path, which is always read from the calling module's directory", arg, source)
	}
	if _, err := ParseModuleSource(source, false); err != nil {
		return "", "", fmt.Errorf("--module-source %q: %w", arg, err)
	}
	return source, dir, nil
}

// Child is where a module call's module was found.
type Child struct {
	Kind SourceKind
	// Dir is the module's directory; "" when it is not available.
	Dir string
	// Key is the call's key in the installation manifest: the names of
	// the calls from the root, joined by dots ("vpc", "vpc.endpoints").
	Key string
	// Diagnostic, for a call whose module is not available, names the
	// call and says how to make it available: a warning, or an error
	// under SourceOptions.Strict. It is nil for a module found.
	Diagnostic *hcl.Diagnostic
}

// Sources finds the modules of module calls (see SourceOptions). It
// reads each root's manifest once; it is safe for concurrent use.
type Sources struct {
	opts      SourceOptions
	mu        sync.Mutex
	manifests map[string]*manifest
	// modules are the modules loaded, by clean directory, when
	// opts.ShareModules is set.
	modules map[string]*sharedModule
}

// sharedModule is a module loaded once for the trees that share it.
type sharedModule struct {
	once  sync.Once
	m     *Module
	diags hcl.Diagnostics
}

// NewSources returns a Sources with the options given.
func NewSources(opts SourceOptions) *Sources {
	return &Sources{opts: opts, manifests: map[string]*manifest{}, modules: map[string]*sharedModule{}}
}

// Sharing returns sources with the options of s and ShareModules set: s
// itself when it shares, and new sources otherwise (nil: the default
// options).
func (s *Sources) Sharing() *Sources {
	if s != nil && s.opts.ShareModules {
		return s
	}
	var opts SourceOptions
	if s != nil {
		opts = s.opts
	}
	opts.ShareModules = true
	return NewSources(opts)
}

// Load reads the module in dir as Load does; with ShareModules, once for
// all callers, who get the same Module and must not change it.
func (s *Sources) Load(dir string) (*Module, hcl.Diagnostics) {
	if s == nil || !s.opts.ShareModules {
		return Load(dir)
	}
	dir = filepath.Clean(dir)
	s.mu.Lock()
	sm := s.modules[dir]
	if sm == nil {
		sm = &sharedModule{}
		s.modules[dir] = sm
	}
	s.mu.Unlock()
	sm.once.Do(func() { sm.m, sm.diags = Load(dir) })
	return sm.m, slices.Clone(sm.diags)
}

// Find finds the module of call mc, made in the module in parentDir whose
// own key is parentKey ("" for the root module in rootDir).
func (s *Sources) Find(rootDir, parentKey, parentDir string, mc *ModuleCall) Child {
	key := mc.Name
	if parentKey != "" {
		key = parentKey + "." + mc.Name
	}
	if s != nil && s.opts.Calls == CallNone {
		return Child{Kind: NotAvailable, Key: key}
	}
	src := mc.SourceAddr
	if src == nil {
		// The loader reports why; a module is never guessed.
		d := s.unavailable(mc, "Module source not known", fmt.Sprintf("The source of module %q could not be determined, so its module cannot be read.", mc.Name))
		d.Severity = hcl.DiagError
		return Child{Kind: NotAvailable, Key: key, Diagnostic: d}
	}
	if src.Kind == LocalSource {
		dir := filepath.Join(parentDir, filepath.FromSlash(src.Path))
		if repo, ok := s.Readable(rootDir, dir); !ok {
			if abs, err := filepath.Abs(dir); err == nil {
				dir = abs
			}
			if target, err := filepath.EvalSymlinks(dir); err == nil {
				dir = target // where a link leads: what --allow-read must name
			}
			rng := mc.DeclRange()
			if mc.Source != nil {
				rng = mc.Source.Range()
			}
			return Child{Kind: NotAvailable, Key: key, Diagnostic: &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Module source outside the repository",
				Detail: fmt.Sprintf("%s has the source %q, which leads to %s, outside %s, the repository of the root module. hcl2cue and tofulint read nothing outside it unless --allow-read names the directory: pass --allow-read %s to read it.",
					callAddr(key), src.Raw, dir, repo, dir),
				Subject: rng.Ptr(),
			}}
		}
		return Child{Kind: FoundLocal, Dir: dir, Key: key}
	}
	if s != nil {
		if dir, ok := s.mapped(src); ok {
			return Child{Kind: FoundMapped, Dir: dir, Key: key}
		}
		if s.opts.Calls == CallLocal {
			return Child{Kind: NotAvailable, Key: key}
		}
	}
	kind := "remote"
	if src.Kind == RegistrySource {
		kind = "registry"
	}
	howTo := fmt.Sprintf(`Run "tofu init" to install it, or map the source to a local directory with --module-source %s=DIR.`, src.Raw)
	call := callAddr(key)
	m, err := s.manifest(rootDir)
	switch {
	case err != nil:
		return Child{Kind: NotAvailable, Key: key, Diagnostic: s.unavailable(mc, "Module manifest not readable",
			fmt.Sprintf("%s has the %s source %q, and the manifest of installed modules could not be read: %v. %s", call, kind, src.Raw, err, howTo))}
	case m == nil || m.records[key] == nil:
		return Child{Kind: NotAvailable, Key: key, Diagnostic: s.unavailable(mc, "Module not installed",
			fmt.Sprintf("%s has the %s source %q, which is not installed: hcl2cue and tofulint never download a module. %s", call, kind, src.Raw, howTo))}
	}
	rec := m.records[key]
	if why := stale(rec, mc); why != "" {
		return Child{Kind: NotAvailable, Key: key, Diagnostic: s.unavailable(mc, "Installed module out of date",
			fmt.Sprintf("%s %s. %s", call, why, howTo))}
	}
	dir := rec.Dir
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(rootDir, filepath.FromSlash(dir))
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return Child{Kind: NotAvailable, Key: key, Diagnostic: s.unavailable(mc, "Installed module missing",
			fmt.Sprintf("%s was installed in %s, which is no longer there. %s", call, rec.Dir, howTo))}
	}
	if repo, ok := s.Readable(rootDir, dir); !ok {
		d := s.unavailable(mc, "Installed module outside the repository",
			fmt.Sprintf("%s was installed in %s, outside %s, the repository of the root module; nothing outside it is read unless --allow-read names the directory.", call, dir, repo))
		d.Severity = hcl.DiagError
		return Child{Kind: NotAvailable, Key: key, Diagnostic: d}
	}
	return Child{Kind: FoundInstalled, Dir: filepath.Clean(dir), Key: key}
}

func (s *Sources) unavailable(mc *ModuleCall, summary, detail string) *hcl.Diagnostic {
	rng := mc.DeclRange()
	if mc.Source != nil {
		rng = mc.Source.Range()
	}
	if s != nil && s.opts.Strict {
		return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail + " (--strict-modules makes this an error.)", Subject: rng.Ptr()}
	}
	return &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: summary, Detail: detail + " Until then its outputs are unknown and its resources are not planned.", Subject: rng.Ptr()}
}

// callAddr is a call's key as a module address: "label.inner" is
// module.label.module.inner.
func callAddr(key string) string {
	return "module." + strings.ReplaceAll(key, ".", ".module.")
}

// mapped is the directory a user mapping gives src: the mapping of its
// address as written, or of its package, with the call's subdirectory.
func (s *Sources) mapped(src *ModuleSource) (string, bool) {
	if len(s.opts.Mappings) == 0 {
		return "", false
	}
	for _, c := range sourceForms(src) {
		for from, dir := range s.opts.Mappings {
			if normalSource(from) == c.addr {
				return filepath.Join(dir, filepath.FromSlash(c.subdir)), true
			}
		}
	}
	return "", false
}

type sourceForm struct{ addr, subdir string }

// sourceForms are the addresses a mapping may give for src, the most
// specific first: as written, then its package with the subdirectory
// apart.
func sourceForms(src *ModuleSource) []sourceForm {
	forms := []sourceForm{{normalSource(src.Raw), ""}}
	if src.Subdir != "" {
		pkg, _, _ := strings.Cut(src.Raw, "//")
		if src.Kind == RemoteSource {
			pkg, _ = splitRemoteSubdir(src.Raw)
		}
		forms = append(forms, sourceForm{normalSource(pkg), src.Subdir})
	}
	return forms
}

// normalSource is a source address in the form OpenTofu records in its
// manifest, less what does not change the module: the default registry
// host, a trailing slash, and the letter case of a registry host.
func normalSource(raw string) string {
	raw = strings.TrimSuffix(strings.TrimSpace(raw), "/")
	src, err := ParseModuleSource(raw, false)
	if err != nil {
		return raw
	}
	switch src.Kind {
	case RegistrySource:
		host := strings.ToLower(src.Host)
		out := src.Namespace + "/" + src.Name + "/" + src.System
		if host != DefaultProviderRegistry && host != "registry.terraform.io" {
			out = host + "/" + out
		}
		if src.Subdir != "" {
			out += "//" + src.Subdir
		}
		return out
	case RemoteSource:
		return normalRemote(raw)
	}
	return raw
}

// normalRemote expands the shorthands that OpenTofu's installer expands
// before it records a remote source: github.com/O/R and bitbucket.org/O/R
// are git over https, git@HOST:PATH is git over ssh.
func normalRemote(raw string) string {
	for _, host := range []string{"github.com/", "bitbucket.org/", "gitlab.com/"} {
		if !strings.HasPrefix(raw, host) {
			continue
		}
		pkg, rest := splitRemoteSubdir(raw)
		path, query, hasQuery := strings.Cut(pkg, "?")
		if !strings.HasSuffix(path, ".git") {
			path += ".git"
		}
		out := "git::https://" + path
		if rest != "" {
			out += "//" + rest
		}
		if hasQuery {
			out += "?" + query
		}
		return out
	}
	if strings.HasPrefix(raw, "git@") {
		hostPath := strings.TrimPrefix(raw, "git@")
		host, path, ok := strings.Cut(hostPath, ":")
		if ok {
			return "git::ssh://git@" + host + "/" + path
		}
	}
	return raw
}

// splitRemoteSubdir splits a remote address into its package (with any
// query) and the //subdirectory after the scheme's own slashes.
func splitRemoteSubdir(raw string) (pkg, subdir string) {
	start := 0
	if i := strings.Index(raw, "://"); i >= 0 {
		start = i + 3
	}
	i := strings.Index(raw[start:], "//")
	if i < 0 {
		return raw, ""
	}
	i += start
	sub, query, hasQuery := strings.Cut(raw[i+2:], "?")
	pkg = raw[:i]
	if hasQuery {
		pkg += "?" + query
	}
	return pkg, sub
}

// stale says how the installed record differs from the call, or "".
func stale(rec *manifestRecord, mc *ModuleCall) string {
	if normalSource(rec.Source) != normalSource(mc.SourceAddr.Raw) {
		return fmt.Sprintf("was installed from %q, but its source is now %q", rec.Source, mc.SourceAddr.Raw)
	}
	if mc.Version == nil || len(mc.Version.Required) == 0 {
		return ""
	}
	if rec.Version == "" {
		return fmt.Sprintf("asks for version %s, but the module installed has no version", mc.Version.Source)
	}
	v, err := goversion.NewVersion(rec.Version)
	if err != nil {
		return fmt.Sprintf("was installed at version %q, which is not a version", rec.Version)
	}
	if !mc.Version.Required.Check(v) {
		return fmt.Sprintf("asks for version %s, but version %s is installed", mc.Version.Source, rec.Version)
	}
	return ""
}

// manifest is what `tofu init` recorded of the modules it installed.
type manifest struct {
	records map[string]*manifestRecord
}

type manifestRecord struct {
	Key     string `json:"Key"`
	Source  string `json:"Source"`
	Version string `json:"Version"`
	Dir     string `json:"Dir"`
}

// manifest reads the manifest of the root module in rootDir once; nil
// when there is none.
func (s *Sources) manifest(rootDir string) (*manifest, error) {
	dataDir := ".terraform"
	if s != nil && s.opts.DataDir != "" {
		dataDir = s.opts.DataDir
	}
	if !filepath.IsAbs(dataDir) {
		dataDir = filepath.Join(rootDir, dataDir)
	}
	path := filepath.Join(dataDir, "modules", "modules.json")
	if s == nil {
		return readManifest(path)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if m, ok := s.manifests[path]; ok {
		return m, nil
	}
	m, err := readManifest(path)
	if err != nil {
		return nil, err
	}
	s.manifests[path] = m
	return m, nil
}

// maxManifest bounds the manifest read: a real one holds a few hundred
// bytes a module.
const maxManifest = 64 << 20

func readManifest(path string) (*manifest, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() > maxManifest {
		return nil, fmt.Errorf("%s is %d bytes, more than a manifest holds", path, st.Size())
	}
	var file struct {
		Modules []manifestRecord `json:"Modules"`
	}
	dec := json.NewDecoder(f)
	if err := dec.Decode(&file); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	m := &manifest{records: map[string]*manifestRecord{}}
	for i := range file.Modules {
		r := &file.Modules[i]
		m.records[r.Key] = r
	}
	return m, nil
}

// Readable reports whether dir, a module directory that a call in the tree
// rooted at rootDir leads to, may be read: it lies in the root module's
// repository (see RepositoryRoot), or in a directory of
// SourceOptions.AllowRead. Symbolic links are followed, so that a link in
// the repository does not lead out of it. It also returns the repository.
func (s *Sources) Readable(rootDir, dir string) (string, bool) {
	repo, err := RepositoryRoot(rootDir)
	if err != nil {
		return rootDir, false
	}
	d := resolved(dir)
	roots := []string{repo}
	if s != nil {
		roots = append(roots, s.opts.AllowRead...)
	}
	for _, r := range roots {
		if Within(d, resolved(r)) {
			return repo, true
		}
	}
	return repo, false
}

// resolved is p made absolute with its symbolic links followed, or as
// clean as it can be made where that fails.
func resolved(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return filepath.Clean(p)
}

// Within reports whether path is dir or lies below it, lexically.
func Within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && filepath.IsLocal(rel)
}

// RepositoryRoot returns the git work tree that holds dir (the nearest
// directory at or above it with a .git entry), or dir itself, made
// absolute, when none does: the tree that tofulint and hcl2cue read and
// report paths in.
func RepositoryRoot(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for d := abs; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return abs, nil
		}
		d = parent
	}
}
