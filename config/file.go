package config

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// file is what one configuration file declares, before the declarations of
// all files are combined into a Module.
type file struct {
	path     string
	override bool

	terraform []*Terraform
	language  []*Language

	variables []*Variable
	locals    []*Local
	outputs   []*Output

	moduleCalls []*ModuleCall
	managed     []*Resource
	data        []*Resource
	ephemeral   []*Resource
	providers   []*Provider

	moved   []*Moved
	imports []*Import
	removed []*Removed

	checks     []*Check
	middleware []*Middleware

	featureBlocks []*FeatureBlock
}

// decoder decodes the blocks of one file and gathers their diagnostics.
type decoder struct {
	path     string
	override bool
	opts     *Options
	diags    hcl.Diagnostics
}

func (d *decoder) report(diags ...*hcl.Diagnostic) { d.diags = append(d.diags, diags...) }

func (d *decoder) errorf(subject hcl.Range, summary, format string, args ...any) {
	d.report(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: fmt.Sprintf(format, args...), Subject: subject.Ptr()})
}

func (d *decoder) warnf(subject hcl.Range, summary, format string, args ...any) {
	d.report(&hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: summary, Detail: fmt.Sprintf(format, args...), Subject: subject.Ptr()})
}

// content decodes a body against a schema. In an override file no argument
// is required, since an override gives only what it changes.
func (d *decoder) content(body hcl.Body, schema *hcl.BodySchema) *hcl.BodyContent {
	c, diags := body.Content(d.schema(schema))
	d.report(diags...)
	return c
}

func (d *decoder) partialContent(body hcl.Body, schema *hcl.BodySchema) (*hcl.BodyContent, hcl.Body) {
	c, remain, diags := body.PartialContent(d.schema(schema))
	d.report(diags...)
	return c, remain
}

func (d *decoder) schema(s *hcl.BodySchema) *hcl.BodySchema {
	if !d.override {
		return s
	}
	relaxed := &hcl.BodySchema{Blocks: s.Blocks}
	for _, a := range s.Attributes {
		a.Required = false
		relaxed.Attributes = append(relaxed.Attributes, a)
	}
	return relaxed
}

// decodeValue decodes a constant argument into a Go value (string, bool,
// number). Its errors are hcl's "Incorrect attribute value type" and
// "Variables not allowed" diagnostics.
func (d *decoder) decodeValue(attr *hcl.Attribute, target any) bool {
	diags := gohcl.DecodeExpression(attr.Expr, nil, target)
	d.report(diags...)
	return !diags.HasErrors()
}

const badIdentifierDetail = "A name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes."

// checkName reports an invalid identifier used as a block label.
func (d *decoder) checkName(name string, rng hcl.Range, summary string) bool {
	if hclsyntax.ValidIdentifier(name) {
		return true
	}
	d.errorf(rng, summary, "%s", badIdentifierDetail)
	return false
}

var topLevelSchema = &hcl.BodySchema{
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "terraform"},
		{Type: "language"},
		{Type: "required_providers"},
		{Type: "provider", LabelNames: []string{"name"}},
		{Type: "variable", LabelNames: []string{"name"}},
		{Type: "locals"},
		{Type: "output", LabelNames: []string{"name"}},
		{Type: "module", LabelNames: []string{"name"}},
		{Type: "resource", LabelNames: []string{"type", "name"}},
		{Type: "data", LabelNames: []string{"type", "name"}},
		{Type: "ephemeral", LabelNames: []string{"type", "name"}},
		{Type: "moved"},
		{Type: "import"},
		{Type: "removed"},
		{Type: "check", LabelNames: []string{"name"}},
	},
}

// decodeFile decodes a file's top-level blocks. schema is topLevelSchema with
// the block types of the registry's features.
func (d *decoder) decodeFile(body hcl.Body, schema *hcl.BodySchema) *file {
	f := &file{path: d.path, override: d.override}
	d.checkVersionRequirements(body)

	reg := d.opts.registry()
	content := d.content(body, schema)
	for _, block := range content.Blocks {
		switch block.Type {
		case "terraform":
			f.terraform = append(f.terraform, d.decodeTerraform(block))
		case "language":
			if l := d.decodeLanguage(block); l != nil {
				f.language = append(f.language, l)
			}
		case "required_providers":
			d.errorf(block.TypeRange, "Invalid required_providers block", `A "required_providers" block must be nested inside a "terraform" block.`)
		case "provider":
			f.providers = append(f.providers, d.decodeProvider(block))
		case "variable":
			f.variables = append(f.variables, d.decodeVariable(block))
		case "locals":
			f.locals = append(f.locals, d.decodeLocals(block)...)
		case "output":
			f.outputs = append(f.outputs, d.decodeOutput(block))
		case "module":
			f.moduleCalls = append(f.moduleCalls, d.decodeModuleCall(block))
		case "resource":
			f.managed = append(f.managed, d.decodeResource(block, ManagedMode))
		case "data":
			f.data = append(f.data, d.decodeResource(block, DataMode))
		case "ephemeral":
			f.ephemeral = append(f.ephemeral, d.decodeResource(block, EphemeralMode))
		case "moved":
			if m := d.decodeMoved(block); m != nil {
				f.moved = append(f.moved, m)
			}
		case "import":
			if i := d.decodeImport(block); i != nil {
				f.imports = append(f.imports, i)
			}
		case "removed":
			if r := d.decodeRemoved(block); r != nil {
				f.removed = append(f.removed, r)
			}
		case "check":
			f.checks = append(f.checks, d.decodeCheck(block))
		default:
			feature, ok := reg.ForBlock(block.Type)
			if !ok {
				break // not in the schema
			}
			if block.Type == "middleware" {
				f.middleware = append(f.middleware, d.decodeMiddleware(block))
			}
			f.featureBlocks = append(f.featureBlocks, d.decodeFeatureBlock(feature, block))
		}
	}
	return f
}

// isTofuFile tells files whose names end in .tofu or .tofu.json: only there
// does terraform { required_version } speak about OpenTofu itself.
func isTofuFile(path string) bool {
	return strings.HasSuffix(path, ".tofu") || strings.HasSuffix(path, ".tofu.json")
}

// jsonExpression returns the expression that a JSON string stands for where
// the language expects a reference or an expression written literally (as
// in replace_triggered_by): in JSON such arguments are strings holding
// native syntax. Native syntax expressions are returned as they are.
func (d *decoder) jsonExpression(expr hcl.Expression) hcl.Expression {
	if _, native := expr.(hclsyntax.Expression); native {
		return expr
	}
	val, diags := expr.Value(nil)
	if diags.HasErrors() || val.IsNull() || !val.IsKnown() || !val.Type().Equals(cty.String) {
		return expr
	}
	rng := expr.Range()
	start := hcl.Pos{Line: rng.Start.Line, Column: rng.Start.Column + 1, Byte: rng.Start.Byte + 1}
	parsed, pdiags := hclsyntax.ParseExpression([]byte(val.AsString()), rng.Filename, start)
	d.report(pdiags...)
	if pdiags.HasErrors() {
		return expr
	}
	return parsed
}
