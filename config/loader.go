package config

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"

	"github.com/tofucue/tofucue/features"
	"github.com/tofucue/tofucue/internal/source"
)

// Options adjust how a module is loaded. The zero value loads the way the
// current OpenTofu release does.
type Options struct {
	// Features is the registry of opt-in features and language editions
	// that the module may use; nil means features.Default.
	Features *features.Registry
	// Overlay holds the contents of files that are read from it instead
	// of from disk, by path as the loader forms it (the module directory
	// joined with the file name): an editor's unsaved buffers. A
	// configuration file in the overlay is part of its directory's module
	// even when it is not on disk yet.
	Overlay map[string][]byte
}

// Load reads the module in dir with the default options.
func Load(dir string) (*Module, hcl.Diagnostics) {
	return LoadWith(dir, Options{})
}

// LoadWith reads the module in dir. It returns a Module even when there are
// errors, holding whatever could be decoded; it returns nil only when the
// directory itself cannot be read.
func LoadWith(dir string, opts Options) (*Module, hcl.Diagnostics) {
	primary, override, diags := moduleFiles(dir, opts.Overlay)
	if diags.HasErrors() {
		return nil, diags
	}
	return loadPaths(dir, primary, override, opts)
}

// LoadFile reads one configuration file as if it were a whole module, as
// tools do when they are given a file rather than a directory. An override
// file (override.tf, *_override.tf) loaded alone has nothing to override,
// so it is read as a primary file.
func LoadFile(path string, opts Options) (*Module, hcl.Diagnostics) {
	if fileSuffix(filepath.Base(path)) == "" {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Not a configuration file",
			Detail:   fmt.Sprintf("%s is not an OpenTofu configuration file: its name must end in .tf, .tf.json, .tofu or .tofu.json.", path),
		}}
	}
	return loadPaths(filepath.Dir(path), []string{path}, nil, opts)
}

func loadPaths(dir string, primary, override []string, opts Options) (*Module, hcl.Diagnostics) {
	reg := opts.registry()
	l := &loader{opts: opts, parser: hclparse.NewParser(), mod: newModule(dir), schema: topLevelSchemaFor(reg)}
	l.mod.registry = reg
	l.mod.PrimaryPaths, l.mod.OverridePaths = primary, override

	var primaries, overrides []*file
	for _, path := range primary {
		if f := l.loadFile(path, false); f != nil {
			primaries = append(primaries, f)
		}
	}
	for _, path := range override {
		if f := l.loadFile(path, true); f != nil {
			overrides = append(overrides, f)
		}
	}
	for _, f := range primaries {
		l.addFile(f)
	}
	for _, f := range overrides {
		l.mergeFile(f)
	}
	l.resolveFeatures()
	l.checkModule()
	return l.mod, finalize(l.diags)
}

// IsModuleDir reports whether dir holds at least one configuration file.
func IsModuleDir(dir string) bool {
	p, o, diags := ModuleFiles(dir)
	return !diags.HasErrors() && len(p)+len(o) > 0
}

// IsConfigFile reports whether path names a configuration file that
// OpenTofu reads as part of its directory's module: a .tf, .tf.json, .tofu
// or .tofu.json file that is not hidden or an editor's backup.
func IsConfigFile(path string) bool {
	name := filepath.Base(path)
	return fileSuffix(name) != "" && !isIgnoredFile(name)
}

// fileSuffix returns the configuration suffix of name, or "".
func fileSuffix(name string) string {
	for _, s := range []string{".tf.json", ".tofu.json", ".tf", ".tofu"} {
		if strings.HasSuffix(name, s) {
			return s
		}
	}
	return ""
}

// isIgnoredFile tells the files that OpenTofu skips: hidden files and editor
// backups.
func isIgnoredFile(name string) bool {
	return strings.HasPrefix(name, ".") || strings.HasSuffix(name, "~") ||
		(strings.HasPrefix(name, "#") && strings.HasSuffix(name, "#"))
}

// ModuleFiles lists the primary and override configuration files of the
// module in dir, in lexical order, with .tf files that a .tofu file of the
// same base name hides left out.
func ModuleFiles(dir string) (primary, override []string, diags hcl.Diagnostics) {
	return moduleFiles(dir, nil)
}

// moduleFiles is ModuleFiles with the files of overlay that are in dir
// counted as present.
func moduleFiles(dir string, overlay map[string][]byte) (primary, override []string, diags hcl.Diagnostics) {
	entries, err := os.ReadDir(dir)
	if err != nil && !hasFileIn(overlay, dir) {
		return nil, nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Failed to read module directory",
			Detail:   fmt.Sprintf("Module directory %s does not exist or cannot be read: %s.", dir, err),
		}}
	}
	present := map[string]bool{}
	var names []string
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || isIgnoredFile(name) || fileSuffix(name) == "" {
			continue
		}
		present[name] = true
		names = append(names, name)
	}
	for path := range overlay {
		name := filepath.Base(path)
		if filepath.Dir(path) == filepath.Clean(dir) && !present[name] && !isIgnoredFile(name) && fileSuffix(name) != "" {
			present[name] = true
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		suffix := fileSuffix(name)
		base := strings.TrimSuffix(name, suffix)
		if strings.HasPrefix(suffix, ".tf") && present[base+strings.Replace(suffix, ".tf", ".tofu", 1)] {
			continue // hidden by the .tofu file of the same name
		}
		path := filepath.Join(dir, name)
		if base == "override" || strings.HasSuffix(base, "_override") {
			override = append(override, path)
		} else {
			primary = append(primary, path)
		}
	}
	return primary, override, nil
}

// hasFileIn reports whether overlay holds a file directly in dir.
func hasFileIn(overlay map[string][]byte, dir string) bool {
	for path := range overlay {
		if filepath.Dir(path) == filepath.Clean(dir) {
			return true
		}
	}
	return false
}

// MaxFileSize is the largest configuration file that the loader reads, in
// bytes: 4 MiB, some seventy times the largest file of the corpus, and few
// enough that parsing one takes a fraction of a second and a few hundred MB.
const MaxFileSize = 4 << 20

// loader carries the state of one Load call.
type loader struct {
	opts   Options
	parser *hclparse.Parser
	mod    *Module
	diags  hcl.Diagnostics
	// schema is the top-level schema of a file, with the feature blocks of
	// the registry.
	schema *hcl.BodySchema
}

func (l *loader) report(diags ...*hcl.Diagnostic) { l.diags = append(l.diags, diags...) }

// loadFile parses and decodes one file. It returns nil when the file cannot
// be read at all.
func (l *loader) loadFile(path string, override bool) *file {
	src, ok := l.opts.Overlay[path]
	var err error
	if !ok {
		src, err = source.ReadFile(path)
	}
	if err != nil {
		l.report(&hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Failed to read file",
			Detail:   fmt.Sprintf("The configuration file %q could not be read: %s.", path, err),
		})
		return nil
	}
	if len(src) > MaxFileSize {
		l.report(&hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Configuration file too large",
			Detail:   fmt.Sprintf("The configuration file %q is %d bytes, more than the %d that this tool reads (real modules' files are under 100 KB); split it, or generate less.", path, len(src), MaxFileSize),
		})
		return nil
	}
	if d := source.CheckNesting(src, path, source.SyntaxOf(path)); d != nil {
		l.report(d)
		return nil
	}
	var f *hcl.File
	var diags hcl.Diagnostics
	if strings.HasSuffix(path, ".json") {
		f, diags = l.parser.ParseJSON(src, path)
	} else {
		f, diags = l.parser.ParseHCL(src, path)
	}
	l.report(diags...)
	if f == nil || f.Body == nil {
		return nil
	}
	l.mod.Files[path] = f
	d := &decoder{path: path, override: override, opts: &l.opts}
	out := d.decodeFile(f.Body, l.schema)
	l.report(d.diags...)
	return out
}

// incompatibleExtra marks the "Incompatible module" diagnostic. When a module
// declares that it is not compatible with this version, every other error is
// dropped: it was probably written for a later language.
type incompatibleExtra struct{}

func finalize(diags hcl.Diagnostics) hcl.Diagnostics {
	isIncompatible := func(d *hcl.Diagnostic) bool { _, ok := d.Extra.(incompatibleExtra); return ok }
	if slices.ContainsFunc(diags, isIncompatible) {
		return slices.DeleteFunc(diags, func(d *hcl.Diagnostic) bool { return !isIncompatible(d) })
	}
	return diags
}
