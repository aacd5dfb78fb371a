package rules

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/internal/source"
)

// TFLintConfigFileName is TFLint's configuration file. A directory without
// a ConfigFileName but with this file is configured by it, as
// ParseTFLintConfig reads it.
const TFLintConfigFileName = ".tflint.hcl"

// tflintConfigSchema is the outline of TFLint v0.64's configuration file.
var tflintConfigSchema = &hcl.BodySchema{
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "tflint"},
		{Type: "config"},
		{Type: "plugin", LabelNames: []string{"name"}},
		{Type: "rule", LabelNames: []string{"name"}},
	},
}

// tflintIgnored are the arguments of TFLint's config block that tofulint
// does not read, with why.
var tflintIgnored = map[string]string{
	"format":           "tofulint's output format is chosen with --format",
	"plugin_dir":       "tofulint has no plugins",
	"call_module_type": "tofulint lints the module directories it is given (PATH/... for a tree), and reads the modules a call names only to check references to them",
	"module":           "tofulint lints the module directories it is given (PATH/... for a tree)",
	"force":            "pass --force on the command line: it is not a setting of .tofulint.hcl",
	"ignore_module":    "tofulint lints the module directories it is given; a called module is linted only when it is named",
	"varfile":          "no tofulint rule evaluates the values of input variables",
	"variables":        "no tofulint rule evaluates the values of input variables",
}

// ParseTFLintConfig reads TFLint's configuration file src, named filename,
// into the equivalent Config: disabled_by_default, the terraform plugin's
// preset ("recommended" when the file has no plugin "terraform" block, as
// TFLint does; a block without preset leaves each rule's own default,
// which is on for every rule of the ruleset tofulint has, so "all" unless
// disabled_by_default) and the rule blocks' enabled settings and the options that the
// tofulint rule shares by name. What tofulint cannot honor (another
// plugin, a rule tofulint has no equivalent for, force, varfile, ...) is a
// warning naming it and why; the first diagnostic is always a warning
// saying that the file is TFLint's. Malformed values are errors.
func ParseTFLintConfig(src []byte, filename string) (Config, hcl.Diagnostics) {
	cfg := Config{Rules: map[string]RuleConfig{}, Root: filepath.Dir(filename), Preset: "recommended"}
	diags := hcl.Diagnostics{{Severity: hcl.DiagWarning, Summary: "Reading TFLint's configuration",
		Detail: fmt.Sprintf("There is no %s; tofulint reads %s as TFLint would. tofulint --init writes the equivalent %s.", ConfigFileName, filename, ConfigFileName)}}
	if d := source.CheckNesting(src, filename, source.HCL); d != nil {
		return cfg, append(diags, d)
	}
	f, pdiags := hclsyntax.ParseConfig(src, filename, hcl.InitialPos)
	diags = append(diags, pdiags...)
	if pdiags.HasErrors() {
		return cfg, diags
	}
	pluginBlock, presetSet := false, false
	content, cdiags := f.Body.Content(tflintConfigSchema)
	diags = append(diags, cdiags...)
	warn := func(rng hcl.Range, summary, detail string) {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: summary, Detail: detail, Subject: rng.Ptr()})
	}
	for _, b := range content.Blocks {
		body, ok := b.Body.(*hclsyntax.Body)
		if !ok {
			continue
		}
		switch b.Type {
		case "config":
			for _, name := range sortedSyntaxAttrs(body) {
				attr := body.Attributes[name].AsHCLAttribute()
				switch {
				case name == "disabled_by_default":
					diags = append(diags, constant(attr, cty.Bool, func(v cty.Value) { cfg.DisabledByDefault = v.True() })...)
				case tflintIgnored[name] != "":
					warn(attr.NameRange, "TFLint setting not used", fmt.Sprintf("%s is not used: %s.", name, tflintIgnored[name]))
				default:
					warn(attr.NameRange, "Unknown TFLint setting", fmt.Sprintf("TFLint's config block has no argument %q; it is not used.", name))
				}
			}
		case "plugin":
			if b.Labels[0] != "terraform" {
				warn(b.LabelRanges[0], "TFLint plugin not used", fmt.Sprintf("tofulint has no plugins: the rules of the plugin %q are not run.", b.Labels[0]))
				continue
			}
			pluginBlock = true
			for _, name := range sortedSyntaxAttrs(body) {
				attr := body.Attributes[name].AsHCLAttribute()
				switch name {
				case "preset":
					presetSet = true
					diags = append(diags, constant(attr, cty.String, func(v cty.Value) {
						if _, _, ok := TFLintPreset(v.AsString()); !ok {
							diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid preset", Detail: fmt.Sprintf("Unknown preset %q: want recommended or all.", v.AsString()), Subject: attr.Expr.Range().Ptr()})
							return
						}
						cfg.Preset = v.AsString()
					})...)
				case "enabled":
					diags = append(diags, constant(attr, cty.Bool, func(v cty.Value) {
						if !v.True() {
							warn(attr.Expr.Range(), "TFLint setting not used", "tofulint's rules are not a plugin that can be turned off: disable them by name in rule blocks.")
						}
					})...)
				case "version", "source", "signing_key":
					// The bundled plugin's: nothing to install.
				default:
					warn(attr.NameRange, "Unknown TFLint setting", fmt.Sprintf("TFLint's plugin block has no argument %q; it is not used.", name))
				}
			}
		case "rule":
			name, err := Resolve(b.Labels[0])
			if err != nil {
				warn(b.LabelRanges[0], "TFLint rule not used", err.Error()+"; its settings are not used.")
				continue
			}
			rc, rdiags := tflintRuleBlock(body, Lookup(name), b.LabelRanges[0])
			diags = append(diags, rdiags...)
			if _, dup := cfg.Rules[name]; dup {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Duplicate rule block", Detail: fmt.Sprintf("The rule %q is configured twice in this file.", name), Subject: b.LabelRanges[0].Ptr()})
				continue
			}
			cfg.Rules[name] = rc
		}
	}
	if pluginBlock && !presetSet {
		// TFLint's rules are on by default but module_shallow_clone,
		// which tofulint has no equivalent for: without a preset, those
		// that stand for them are the "all" preset's, or none.
		cfg.Preset = "all"
		if cfg.DisabledByDefault {
			cfg.Preset = ""
		}
	}
	return cfg, diags
}

// tflintRuleBlock reads a TFLint rule block: enabled, and the options that
// the tofulint rule has by the same name (arguments, or blocks for the
// options of object types); anything else is a warning.
func tflintRuleBlock(body *hclsyntax.Body, r *Rule, label hcl.Range) (RuleConfig, hcl.Diagnostics) {
	var rc RuleConfig
	var diags hcl.Diagnostics
	for _, name := range sortedSyntaxAttrs(body) {
		attr := body.Attributes[name].AsHCLAttribute()
		if name == "enabled" {
			diags = append(diags, constant(attr, cty.Bool, func(v cty.Value) {
				on := v.True()
				rc.Enabled = &on
			})...)
			continue
		}
		i := slices.IndexFunc(r.Options, func(o Option) bool { return o.Name == name })
		if i < 0 {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "TFLint setting not used", Detail: fmt.Sprintf("The rule %s has no option %q; it is not used.", r.Name, name), Subject: attr.NameRange.Ptr()})
			continue
		}
		opt := r.Options[i]
		diags = append(diags, constant(attr, opt.Type, func(v cty.Value) {
			diags = append(diags, setOption(&rc, r, opt, v, attr.Expr.Range())...)
		})...)
	}
	for _, b := range body.Blocks {
		i := slices.IndexFunc(r.Options, func(o Option) bool { return o.Name == b.Type && o.Type.IsObjectType() })
		if i < 0 {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "TFLint setting not used", Detail: fmt.Sprintf("The rule %s has no %q block; it is not used.", r.Name, b.Type), Subject: b.TypeRange.Ptr()})
			continue
		}
		if len(b.Labels) > 0 {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unexpected labels", Detail: fmt.Sprintf("The %s block of the rule %s has no labels.", b.Type, r.Name), Subject: b.LabelRanges[0].Ptr()})
			continue
		}
		diags = append(diags, optionBlock(b.AsHCLBlock(), r, r.Options[i], body.Attributes[b.Type] != nil, &rc)...)
	}
	if !diags.HasErrors() {
		diags = append(diags, checkOptions(r, rc, label)...)
	}
	return rc, diags
}

func sortedSyntaxAttrs(body *hclsyntax.Body) []string {
	names := make([]string, 0, len(body.Attributes))
	for name := range body.Attributes {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// HCL returns cfg as the text of a configuration file (ConfigFileName)
// that ParseConfig reads back to the same settings: the config block with
// the settings that differ from the defaults, then a rule block per
// configured rule, in name order. Root, Only and Sources are not settings
// of the file.
func (cfg Config) HCL() []byte {
	f := hclwrite.NewEmptyFile()
	body := f.Body()
	c := hclwrite.NewBlock("config", nil)
	if cfg.DisabledByDefault {
		c.Body().SetAttributeValue("disabled_by_default", cty.True)
	}
	if cfg.Preset != "" {
		c.Body().SetAttributeValue("preset", cty.StringVal(cfg.Preset))
	}
	if cfg.ReportUnusedIgnores {
		c.Body().SetAttributeValue("report_unused_ignores", cty.True)
	}
	if len(cfg.Exclude) > 0 {
		vals := make([]cty.Value, len(cfg.Exclude))
		for i, p := range cfg.Exclude {
			vals[i] = cty.StringVal(p)
		}
		c.Body().SetAttributeValue("exclude", cty.ListVal(vals))
	}
	body.AppendBlock(c)
	names := make([]string, 0, len(cfg.Rules))
	for name := range cfg.Rules {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		rc := cfg.Rules[name]
		body.AppendNewline()
		rb := body.AppendNewBlock("rule", []string{name}).Body()
		if rc.Enabled != nil {
			rb.SetAttributeValue("enabled", cty.BoolVal(*rc.Enabled))
		}
		if rc.Severity != nil {
			rb.SetAttributeValue("severity", cty.StringVal(rc.Severity.String()))
		}
		opts := make([]string, 0, len(rc.Options))
		for o := range rc.Options {
			opts = append(opts, o)
		}
		slices.Sort(opts)
		for _, o := range opts {
			rb.SetAttributeValue(o, withoutNulls(rc.Options[o]))
		}
	}
	return f.Bytes()
}

// withoutNulls returns v with the null attributes of its objects left out
// (an option's optional attributes that were not set), so that the file
// says only what was set.
func withoutNulls(v cty.Value) cty.Value {
	ty := v.Type()
	switch {
	case v.IsNull() || !v.IsKnown():
		return v
	case ty.IsObjectType():
		attrs := map[string]cty.Value{}
		for name, av := range v.AsValueMap() {
			if !av.IsNull() {
				attrs[name] = withoutNulls(av)
			}
		}
		return cty.ObjectVal(attrs)
	case ty.IsMapType() && v.LengthInt() > 0:
		elems := map[string]cty.Value{}
		for k, ev := range v.AsValueMap() {
			elems[k] = withoutNulls(ev)
		}
		return cty.ObjectVal(elems)
	}
	return v
}
