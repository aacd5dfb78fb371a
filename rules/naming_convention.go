package rules

import (
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/config"
)

// namingBlockTypes are the kinds of names naming_convention checks, each
// with the option that sets its convention, in the order of TFLint's
// terraform_naming_convention.
var namingBlockTypes = []string{"data", "locals", "module", "output", "resource", "variable", "check"}

// namingFormats are the formats that the format options name besides the
// custom_formats and "none".
var namingFormats = map[string]*regexp.Regexp{
	"snake_case":       regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`),
	"mixed_snake_case": regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9]*(_[a-zA-Z0-9]+)*$`),
}

// namingBlockType is the type of the per-block options.
var namingBlockType = cty.ObjectWithOptionalAttrs(map[string]cty.Type{"format": cty.String, "custom": cty.String}, []string{"format", "custom"})

// NamingConvention is the rule naming_convention.
var NamingConvention = &Rule{
	Name:   "naming_convention",
	TFLint: "terraform_naming_convention",
	Doc: `Reports the names of data sources, local values, module calls, outputs,
managed resources, variables and checks that do not follow the module's
naming convention, as TFLint's terraform_naming_convention does. The
convention is snake_case unless the option format says mixed_snake_case,
none (no convention) or the name of one of custom_formats (a regex with a
description), or the option custom gives a regex. Each kind has an option
of its own (variable, locals, output, resource, data, module, check: an
object, or a block as in TFLint's configuration, with format or custom)
that replaces the general one for it; data sources inside check blocks
follow data's. The rule is off by default.

Bad:

    variable "instanceType" {
      type = string
    }

Good:

    variable "instance_type" {
      type = string
    }`,
	Severity: Notice,
	Options: append([]Option{{
		Name:    "format",
		Doc:     `The names' format: "snake_case", "mixed_snake_case", "none" or the name of one of custom_formats.`,
		Type:    cty.String,
		Default: cty.StringVal("snake_case"),
	}, {
		Name:     "custom",
		Doc:      "A regular expression (Go's syntax, RE2) that names must match, instead of format.",
		Type:     cty.String,
		Default:  cty.StringVal(""),
		Validate: validRegexp,
	}, {
		Name:    "custom_formats",
		Doc:     "Formats that format options may name, each with its regex and the description that findings show.",
		Type:    cty.Map(cty.Object(map[string]cty.Type{"regex": cty.String, "description": cty.String})),
		Default: cty.MapValEmpty(cty.Object(map[string]cty.Type{"regex": cty.String, "description": cty.String})),
		Validate: func(v cty.Value) error {
			for name, f := range v.AsValueMap() {
				if err := validRegexp(f.GetAttr("regex")); err != nil {
					return fmt.Errorf("custom format %q: %w", name, err)
				}
			}
			return nil
		},
	}}, namingBlockOptions()...),
	CheckOptions: func(option func(string) cty.Value) error {
		_, err := namingValidators(option)
		return err
	},
	Check: func(p *Pass) {
		validators, err := namingValidators(p.Option)
		if err != nil {
			return // the configuration readers refuse such options (CheckOptions)
		}
		m := p.Module
		check := func(kind, typeName, name string, rng hcl.Range) {
			v := validators[kind]
			if v == nil || v.re.MatchString(name) {
				return
			}
			what := "RegExp"
			if v.named {
				what = "format"
			}
			p.Report(Finding{
				Message: fmt.Sprintf("%s name %#q must match the following %s: %s", typeName, name, what, v.format),
				Detail:  fmt.Sprintf("Rename it to follow the module's naming convention (the option %s of naming_convention; snake_case by default). Renaming changes every reference to it, and a managed resource or module call also needs a moved block.", v.option),
				Range:   rng,
			})
		}
		for _, r := range config.InOrder(m.DataResources) {
			check("data", "data", r.Name, r.Decl)
		}
		for _, c := range config.InOrder(m.Checks) {
			if c.DataSource != nil {
				check("data", "data", c.DataSource.Name, c.DataSource.Decl)
			}
		}
		for _, mc := range config.InOrder(m.ModuleCalls) {
			check("module", "module", mc.Name, mc.Decl)
		}
		for _, o := range config.InOrder(m.Outputs) {
			check("output", "output", o.Name, o.Decl)
		}
		for _, r := range config.InOrder(m.ManagedResources) {
			check("resource", "resource", r.Name, r.Decl)
		}
		for _, v := range config.InOrder(m.Variables) {
			check("variable", "variable", v.Name, v.Decl)
		}
		for _, c := range config.InOrder(m.Checks) {
			check("check", "check", c.Name, c.Decl)
		}
		for _, l := range config.InOrder(m.Locals) {
			check("locals", "local value", l.Name, l.Range)
		}
	},
}

// namingBlockOptions are the per-kind options of naming_convention.
func namingBlockOptions() []Option {
	var opts []Option
	for _, kind := range namingBlockTypes {
		opts = append(opts, Option{
			Name:    kind,
			Doc:     fmt.Sprintf("The convention of %s names: an object (or block) with format or custom, as the general options.", kind),
			Type:    namingBlockType,
			Default: cty.NullVal(namingBlockType),
			Validate: func(v cty.Value) error {
				format, custom := v.GetAttr("format"), v.GetAttr("custom")
				if (format.IsNull() || format.AsString() == "") && (custom.IsNull() || custom.AsString() == "") {
					return errors.New("it sets neither format nor custom")
				}
				if !custom.IsNull() {
					return validRegexp(custom)
				}
				return nil
			},
		})
	}
	return opts
}

// nameValidator is a convention: the regex names must match, and how a
// finding names it.
type nameValidator struct {
	re *regexp.Regexp
	// named tells whether format is a format's name (or a custom format's
	// description) rather than the regex itself.
	named  bool
	format string
	// option is the option that set it.
	option string
}

// namingValidators returns the convention of each kind of names (nil: none)
// that the options give, or an error when a format names no format.
func namingValidators(option func(string) cty.Value) (map[string]*nameValidator, error) {
	customFormats := option("custom_formats").AsValueMap()
	validator := func(opt, format, custom string) (*nameValidator, error) {
		switch {
		case custom != "":
			re, err := regexp.Compile(custom)
			return &nameValidator{re: re, format: custom, option: opt}, err
		case format == "none":
			return nil, nil
		}
		if f, ok := customFormats[format]; ok {
			re, err := regexp.Compile(f.GetAttr("regex").AsString())
			return &nameValidator{re: re, named: true, format: f.GetAttr("description").AsString(), option: opt}, err
		}
		if re, ok := namingFormats[strings.ToLower(format)]; ok {
			return &nameValidator{re: re, named: true, format: format, option: opt}, nil
		}
		names := slices.Concat([]string{"none"}, slices.Collect(maps.Keys(namingFormats)), slices.Collect(maps.Keys(customFormats)))
		slices.Sort(names)
		return nil, fmt.Errorf("the format %q of the option %s is none of %s", format, opt, strings.Join(names, ", "))
	}
	defOption := "format"
	if option("custom").AsString() != "" {
		defOption = "custom"
	}
	def, err := validator(defOption, option("format").AsString(), option("custom").AsString())
	if err != nil {
		return nil, err
	}
	out := map[string]*nameValidator{}
	for _, kind := range namingBlockTypes {
		v := option(kind)
		if v.IsNull() {
			out[kind] = def
			continue
		}
		str := func(name string) string {
			if a := v.GetAttr(name); !a.IsNull() {
				return a.AsString()
			}
			return ""
		}
		if out[kind], err = validator(kind, str("format"), str("custom")); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// validRegexp checks that v is a regular expression Go compiles.
func validRegexp(v cty.Value) error {
	_, err := regexp.Compile(v.AsString())
	return err
}
