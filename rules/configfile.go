package rules

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/tofucue/tofucue/internal/source"
)

// ConfigFileName is the name of tofulint's configuration file. Without
// --config, each module uses the nearest one in its directory or a
// directory above it.
const ConfigFileName = ".tofulint.hcl"

// A configuration file looks like this:
//
//	config {
//	  disabled_by_default   = false        # run only the rules enabled below
//	  preset                = "recommended" # TFLint's preset: "recommended" or "all"
//	  exclude               = ["generated/**", "legacy/*.tf"]
//	  report_unused_ignores = true
//	}
//
//	rule "unused_declaration" {
//	  enabled  = true
//	  severity = "notice"
//	  # ...and the rule's options (tofulint --list-rules names them)
//	}
//
// Every block and argument is optional. Values are constants: the file is
// read without variables or functions.
var configFileSchema = &hcl.BodySchema{
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "config"},
		{Type: "rule", LabelNames: []string{"name"}},
	},
}

var configBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "disabled_by_default"},
		{Name: "preset"},
		{Name: "exclude"},
		{Name: "report_unused_ignores"},
	},
}

// FindConfig returns the path of the configuration file that applies to
// the module in dir: the nearest ConfigFileName in dir or a directory above
// it (in a directory without one, its TFLintConfigFileName), or "" when
// there is none.
func FindConfig(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		for _, name := range []string{ConfigFileName, TFLintConfigFileName} {
			p := filepath.Join(abs, name)
			fi, err := os.Stat(p)
			switch {
			case err == nil && !fi.IsDir():
				return p, nil
			case err != nil && !errors.Is(err, fs.ErrNotExist):
				return "", err
			}
		}
		parent := filepath.Dir(abs)
		if parent == abs {
			return "", nil
		}
		abs = parent
	}
}

// LoadConfigFile reads a configuration file (TFLint's, by its name, with
// ParseTFLintConfig). Unknown blocks, arguments,
// rules and options are errors, with a suggestion where a known name is
// close; so are values of the wrong type. The Config's Root is the file's
// directory.
func LoadConfigFile(path string) (Config, hcl.Diagnostics) {
	src, err := source.ReadFile(path)
	if err != nil {
		return Config{}, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Cannot read the configuration file", Detail: err.Error()}}
	}
	if filepath.Base(path) == TFLintConfigFileName {
		return ParseTFLintConfig(src, path)
	}
	return ParseConfig(src, path)
}

// ParseConfig reads the configuration file src, named filename.
func ParseConfig(src []byte, filename string) (Config, hcl.Diagnostics) {
	cfg := Config{Rules: map[string]RuleConfig{}, Root: filepath.Dir(filename)}
	if d := source.CheckNesting(src, filename, source.HCL); d != nil {
		return cfg, hcl.Diagnostics{d}
	}
	f, diags := hclsyntax.ParseConfig(src, filename, hcl.InitialPos)
	if diags.HasErrors() {
		return cfg, diags
	}
	content, cdiags := f.Body.Content(configFileSchema)
	diags = append(diags, cdiags...)
	seenConfig := false
	for _, b := range content.Blocks {
		switch b.Type {
		case "config":
			if seenConfig {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Duplicate config block", Detail: "A configuration file has at most one config block.", Subject: b.DefRange.Ptr()})
				continue
			}
			seenConfig = true
			diags = append(diags, decodeConfigBlock(b, &cfg)...)
		case "rule":
			name, err := Resolve(b.Labels[0])
			if err != nil {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unknown rule", Detail: err.Error() + ". tofulint --list-rules lists the rules.", Subject: b.LabelRanges[0].Ptr()})
				continue
			}
			if _, dup := cfg.Rules[name]; dup {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Duplicate rule block", Detail: fmt.Sprintf("The rule %q is configured twice in this file (by its tofulint or its TFLint name).", name), Subject: b.LabelRanges[0].Ptr()})
				continue
			}
			rc, rdiags := decodeRuleBlock(b, Lookup(name))
			diags = append(diags, rdiags...)
			cfg.Rules[name] = rc
		}
	}
	return cfg, diags
}

func decodeConfigBlock(b *hcl.Block, cfg *Config) hcl.Diagnostics {
	content, diags := b.Body.Content(configBlockSchema)
	for _, name := range sortedAttrs(content.Attributes) {
		attr := content.Attributes[name]
		switch name {
		case "disabled_by_default":
			diags = append(diags, constant(attr, cty.Bool, func(v cty.Value) { cfg.DisabledByDefault = v.True() })...)
		case "preset":
			diags = append(diags, constant(attr, cty.String, func(v cty.Value) {
				if _, _, ok := TFLintPreset(v.AsString()); !ok {
					diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid preset", Detail: fmt.Sprintf("Unknown preset %q: want recommended or all (TFLint's presets of its terraform ruleset).", v.AsString()), Subject: attr.Expr.Range().Ptr()})
					return
				}
				cfg.Preset = v.AsString()
			})...)
		case "report_unused_ignores":
			diags = append(diags, constant(attr, cty.Bool, func(v cty.Value) { cfg.ReportUnusedIgnores = v.True() })...)
		case "exclude":
			diags = append(diags, constant(attr, cty.List(cty.String), func(v cty.Value) {
				for _, p := range v.AsValueSlice() {
					pat := filepath.ToSlash(p.AsString())
					if !doublestar.ValidatePattern(pat) {
						diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid exclude pattern", Detail: fmt.Sprintf("%q is not a valid glob pattern.", pat), Subject: attr.Expr.Range().Ptr()})
						continue
					}
					cfg.Exclude = append(cfg.Exclude, pat)
				}
			})...)
		}
	}
	return diags
}

func decodeRuleBlock(b *hcl.Block, r *Rule) (RuleConfig, hcl.Diagnostics) {
	schema := &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "enabled"}, {Name: "severity"}}}
	for _, o := range r.Options {
		schema.Attributes = append(schema.Attributes, hcl.AttributeSchema{Name: o.Name})
		if o.Type.IsObjectType() {
			schema.Blocks = append(schema.Blocks, hcl.BlockHeaderSchema{Type: o.Name})
		}
	}
	content, diags := b.Body.Content(schema)
	var rc RuleConfig
	for _, blk := range content.Blocks {
		opt := r.Options[slices.IndexFunc(r.Options, func(o Option) bool { return o.Name == blk.Type })]
		diags = append(diags, optionBlock(blk, r, opt, content.Attributes[blk.Type] != nil, &rc)...)
	}
	for _, name := range sortedAttrs(content.Attributes) {
		attr := content.Attributes[name]
		switch name {
		case "enabled":
			diags = append(diags, constant(attr, cty.Bool, func(v cty.Value) {
				on := v.True()
				rc.Enabled = &on
			})...)
		case "severity":
			diags = append(diags, constant(attr, cty.String, func(v cty.Value) {
				sev, err := ParseSeverity(v.AsString())
				if err != nil {
					diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid severity", Detail: err.Error() + ".", Subject: attr.Expr.Range().Ptr()})
					return
				}
				rc.Severity = &sev
			})...)
		default:
			opt := r.Options[slices.IndexFunc(r.Options, func(o Option) bool { return o.Name == name })]
			diags = append(diags, constant(attr, opt.Type, func(v cty.Value) {
				diags = append(diags, setOption(&rc, r, opt, v, attr.Expr.Range())...)
			})...)
		}
	}
	if !diags.HasErrors() {
		diags = append(diags, checkOptions(r, rc, b.LabelRanges[0])...)
	}
	return rc, diags
}

// setOption validates v, the value of the option opt of rule r written at
// rng, and sets it in rc.
func setOption(rc *RuleConfig, r *Rule, opt Option, v cty.Value, rng hcl.Range) hcl.Diagnostics {
	if opt.Validate != nil {
		if err := opt.Validate(v); err != nil {
			return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid value", Detail: fmt.Sprintf("Invalid %s for the rule %s: %s.", opt.Name, r.Name, err), Subject: rng.Ptr()}}
		}
	}
	if rc.Options == nil {
		rc.Options = map[string]cty.Value{}
	}
	rc.Options[opt.Name] = v
	return nil
}

// optionBlock reads blk, a block that gives the object-typed option opt of
// rule r: its arguments are the object's attributes, constants converted
// to the option's type. twice tells that an argument of the same name
// gives the option too, which is an error.
func optionBlock(blk *hcl.Block, r *Rule, opt Option, twice bool, rc *RuleConfig) hcl.Diagnostics {
	if twice {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Duplicate option", Detail: fmt.Sprintf("The option %s of the rule %s is given both as an argument and as a block.", opt.Name, r.Name), Subject: blk.DefRange.Ptr()}}
	}
	if _, dup := rc.Options[opt.Name]; dup {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Duplicate option", Detail: fmt.Sprintf("The rule %s has at most one %s block.", r.Name, opt.Name), Subject: blk.DefRange.Ptr()}}
	}
	attrs, diags := blk.Body.JustAttributes()
	if diags.HasErrors() {
		return diags
	}
	vals := map[string]cty.Value{}
	for name, attr := range attrs {
		if !opt.Type.HasAttribute(name) {
			return append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unsupported argument", Detail: fmt.Sprintf("The %s block of the rule %s has no argument %q.%s", opt.Name, r.Name, name, didYouMean(name, slices.Sorted(maps.Keys(opt.Type.AttributeTypes())))), Subject: attr.NameRange.Ptr()})
		}
		v, vdiags := attr.Expr.Value(nil)
		diags = append(diags, vdiags...)
		vals[name] = v
	}
	if diags.HasErrors() {
		return diags
	}
	v, err := convert.Convert(cty.ObjectVal(vals), opt.Type)
	if err != nil {
		return append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid value", Detail: fmt.Sprintf("The %s block of the rule %s must be %s: %s.", opt.Name, r.Name, opt.Type.FriendlyName(), err), Subject: blk.DefRange.Ptr()})
	}
	if !v.IsWhollyKnown() {
		return append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid value", Detail: fmt.Sprintf("The arguments of the %s block must be constants.", opt.Name), Subject: blk.DefRange.Ptr()})
	}
	return append(diags, setOption(rc, r, opt, v, blk.DefRange)...)
}

// checkOptions runs the rule's CheckOptions over the options rc sets and
// the defaults of the others; an error is shown at rng, the rule block's
// label.
func checkOptions(r *Rule, rc RuleConfig, rng hcl.Range) hcl.Diagnostics {
	if r.CheckOptions == nil {
		return nil
	}
	err := r.CheckOptions(func(name string) cty.Value {
		if v, ok := rc.Options[name]; ok {
			return v
		}
		for _, o := range r.Options {
			if o.Name == name {
				return o.Default
			}
		}
		return cty.NilVal
	})
	if err == nil {
		return nil
	}
	return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid options", Detail: fmt.Sprintf("The options of the rule %s do not fit together: %s.", r.Name, err), Subject: rng.Ptr()}}
}

// constant evaluates attr without variables or functions, converts it to
// ty and passes it to set; a value that is null, unknown or of another type
// is an error.
func constant(attr *hcl.Attribute, ty cty.Type, set func(cty.Value)) hcl.Diagnostics {
	v, diags := attr.Expr.Value(nil)
	if diags.HasErrors() {
		return diags
	}
	if v.IsNull() {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid value", Detail: fmt.Sprintf("The argument %q must not be null.", attr.Name), Subject: attr.Expr.Range().Ptr()}}
	}
	cv, err := convert.Convert(v, ty)
	if err != nil {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid value", Detail: fmt.Sprintf("The argument %q must be %s: %s.", attr.Name, ty.FriendlyName(), err), Subject: attr.Expr.Range().Ptr()}}
	}
	if !cv.IsWhollyKnown() {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid value", Detail: fmt.Sprintf("The argument %q must be a constant.", attr.Name), Subject: attr.Expr.Range().Ptr()}}
	}
	set(cv)
	return nil
}

func sortedAttrs(attrs hcl.Attributes) []string {
	names := make([]string, 0, len(attrs))
	for n := range attrs {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Merge returns cfg with the settings of over on top: over's rule settings
// replace cfg's field by field, its Only, its Sources and its true flags win;
// Exclude and Root stay cfg's. It is how command-line flags override a configuration
// file.
func (cfg Config) Merge(over Config) Config {
	out := cfg
	out.Rules = map[string]RuleConfig{}
	for name, rc := range cfg.Rules {
		out.Rules[name] = rc
	}
	for name, o := range over.Rules {
		rc := out.Rules[name]
		if o.Enabled != nil {
			rc.Enabled = o.Enabled
		}
		if o.Severity != nil {
			rc.Severity = o.Severity
		}
		for k, v := range o.Options {
			if rc.Options == nil {
				rc.Options = map[string]cty.Value{}
			}
			rc.Options[k] = v
		}
		out.Rules[name] = rc
	}
	if len(over.Only) > 0 {
		out.Only = over.Only
	}
	if over.Preset != "" {
		out.Preset = over.Preset
	}
	out.DisabledByDefault = cfg.DisabledByDefault || over.DisabledByDefault
	out.ReportUnusedIgnores = cfg.ReportUnusedIgnores || over.ReportUnusedIgnores
	if over.Sources != nil {
		out.Sources = over.Sources
	}
	return out
}

// Excluded reports whether the file filename matches one of cfg's Exclude
// patterns, relative to cfg's Root.
func (cfg Config) Excluded(filename string) bool {
	if len(cfg.Exclude) == 0 {
		return false
	}
	root := cfg.Root
	if root == "" {
		root = "."
	}
	absRoot, err1 := filepath.Abs(root)
	abs, err2 := filepath.Abs(filename)
	if err1 != nil || err2 != nil {
		return false
	}
	rel, err := filepath.Rel(absRoot, abs)
	if err != nil {
		return false
	}
	rel = filepath.ToSlash(rel)
	for _, pat := range cfg.Exclude {
		if ok, _ := doublestar.Match(pat, rel); ok {
			return true
		}
	}
	return false
}
