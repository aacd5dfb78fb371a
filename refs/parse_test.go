package refs

import (
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/json"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/features"
)

// fakeCtx is a ParseRefContext with the answers set by hand.
type fakeCtx struct {
	enabled   map[string]bool
	resources map[string]bool // "type.name"
}

func (c fakeCtx) FeatureEnabled(f features.Feature) bool { return c.enabled[f.Name] }
func (c fakeCtx) HasAnyManagedResourceOfType(t string) bool {
	for k := range c.resources {
		if strings.HasPrefix(k, t+".") {
			return true
		}
	}
	return false
}
func (c fakeCtx) HasManagedResource(t, n string) bool { return c.resources[t+"."+n] }

func TestParseRoots(t *testing.T) {
	tests := []struct {
		text, subject, remaining string
		kind                     Subject
	}{
		{"var.name", "var.name", "", InputVariable{}},
		{"var.obj.attr[0]", "var.obj", ".attr[0]", InputVariable{}},
		{"local.tags", "local.tags", "", LocalValue{}},
		{"module.net", "module.net", "", ModuleCall{}},
		{`module.net["a"]`, `module.net["a"]`, "", ModuleCallInstance{}},
		{"module.net.vpc_id", "module.net.vpc_id", "", ModuleCallOutput{}},
		{"module.net[2].vpc_id.x", "module.net[2].vpc_id", ".x", ModuleCallOutput{}},
		{"data.aws_ami.u.id", "data.aws_ami.u", ".id", ResourceInstance{}},
		{"data.aws_ami.u", "data.aws_ami.u", "", Resource{}},
		{"ephemeral.random_password.p.result", "ephemeral.random_password.p", ".result", ResourceInstance{}},
		{"resource.aws_instance.web", "aws_instance.web", "", Resource{}},
		{"resource.path.x.id", "path.x", ".id", ResourceInstance{}},
		{"aws_instance.web[0].id", "aws_instance.web[0]", ".id", ResourceInstance{}},
		{`aws_instance.web["k"]`, `aws_instance.web["k"]`, "", ResourceInstance{}},
		{"aws_instance.web", "aws_instance.web", "", Resource{}},
		{"path.module", "path.module", "", PathAttr{}},
		{"terraform.workspace", "terraform.workspace", "", TerraformAttr{}},
		{"tofu.applying", "tofu.applying", "", TerraformAttr{}},
		{"count.index", "count.index", "", CountAttr{}},
		{"each.value.name", "each.value", ".name", EachAttr{}},
		{"self.id", "self", ".id", Self{}},
		{"self", "self", "", Self{}},
		{"string", "string", "", TypeKeyword("")},
		{"any", "any", "", TypeKeyword("")},
		{"symbols.lib.value", "symbols.lib", ".value", FeatureSymbol{}},
		{"middleware.cost", "middleware.cost", "", FeatureSymbol{}},
		{"interface.env.region", "interface.env", ".region", FeatureSymbol{}},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			ref, diags := ParseString(tt.text, fakeCtx{})
			if diags.HasErrors() {
				t.Fatalf("unexpected diagnostics: %s", diags.Error())
			}
			if got := ref.Subject.String(); got != tt.subject {
				t.Errorf("subject %q, want %q", got, tt.subject)
			}
			if got := TraversalString(ref.Remaining); got != tt.remaining {
				t.Errorf("remaining %q, want %q", got, tt.remaining)
			}
			if gotKind, wantKind := typeName(ref.Subject), typeName(tt.kind); gotKind != wantKind {
				t.Errorf("subject kind %s, want %s", gotKind, wantKind)
			}
			if ref.Text() != tt.text {
				t.Errorf("Text() = %q, want %q", ref.Text(), tt.text)
			}
		})
	}
}

func typeName(s Subject) string {
	switch s.(type) {
	case InputVariable:
		return "InputVariable"
	case LocalValue:
		return "LocalValue"
	case ModuleCall:
		return "ModuleCall"
	case ModuleCallInstance:
		return "ModuleCallInstance"
	case ModuleCallOutput:
		return "ModuleCallOutput"
	case Resource:
		return "Resource"
	case ResourceInstance:
		return "ResourceInstance"
	case PathAttr:
		return "PathAttr"
	case TerraformAttr:
		return "TerraformAttr"
	case CountAttr:
		return "CountAttr"
	case EachAttr:
		return "EachAttr"
	case Self:
		return "Self"
	case TypeKeyword:
		return "TypeKeyword"
	case FeatureSymbol:
		return "FeatureSymbol"
	}
	return "?"
}

func TestParseErrors(t *testing.T) {
	tests := map[string]string{
		"var":                       `The "var" object cannot be accessed directly. Instead, access one of its attributes.`,
		`var["x"]`:                  `The "var" object does not support this operation.`,
		"data.aws_ami":              `The "data" object must be followed by two attribute names: the data source type and the resource name.`,
		"ephemeral.x":               `The "ephemeral" object must be followed by two attribute names`,
		"resource.x":                `The "resource" object must be followed by two attribute names: the resource type and the resource name.`,
		"aws_instance":              "A reference to a resource type must be followed by at least one attribute access, specifying the resource name.",
		"aws_instance[0]":           "A reference to a resource type must be followed by at least one attribute access",
		`data.x["y"]`:               "A reference to a data source must be followed by at least one attribute access",
		"aws_instance.web[1.5]":     "Invalid index for resource instance: 1.5 is not a valid index: it must be a whole number.",
		"module.net[0.5]":           "Invalid index for module instance",
		"module.net[0][1]":          "Module instance objects do not support this operation.",
		"template.x":                `The symbol name "template" is reserved for use in a future OpenTofu version.`,
		"lazy.x":                    `The symbol name "lazy" is reserved`,
		"arg.x":                     `The symbol name "arg" is reserved`,
		"symbols":                   `The "symbols" object cannot be accessed directly.`,
		`middleware["a"]`:           `The "middleware" object does not support this operation.`,
		"count":                     `The "count" object cannot be accessed directly.`,
		"string.x":                  "", // a resource type named string: fine
		"resource.template.x.value": "", // the escape prefix reaches a reserved name
	}
	for text, want := range tests {
		t.Run(text, func(t *testing.T) {
			ref, diags := ParseString(text, fakeCtx{})
			if want == "" {
				if diags.HasErrors() {
					t.Fatalf("unexpected diagnostics: %s", diags.Error())
				}
				return
			}
			if !diags.HasErrors() || ref != nil {
				t.Fatalf("got %v and %v, want nil and an error containing %q", ref, diags, want)
			}
			if !strings.Contains(diags[0].Detail, want) {
				t.Errorf("detail %q, want it to contain %q", diags[0].Detail, want)
			}
			if diags[0].Subject == nil {
				t.Error("no subject range")
			}
		})
	}
}

// TestFeatureSymbolReading covers the RFC's decision for a feature symbol:
// opted in or not, and a resource of that type or not.
func TestFeatureSymbolReading(t *testing.T) {
	tests := []struct {
		name      string
		ctx       fakeCtx
		text      string
		asFeature bool
		conflict  bool // SymbolConflict: a resource reference that an opt-in would change
	}{
		{"opted in, no resource", fakeCtx{enabled: map[string]bool{"symbols": true}}, "symbols.a.x", true, false},
		{"opted in, resource of that type and name", fakeCtx{enabled: map[string]bool{"symbols": true}, resources: map[string]bool{"symbols.a": true}}, "symbols.a.x", true, false},
		{"not opted in, resource of that type", fakeCtx{resources: map[string]bool{"symbols.b": true}}, "symbols.a.x", false, true},
		{"not opted in, no resource of that type", fakeCtx{resources: map[string]bool{"aws_instance.a": true}}, "symbols.a.x", true, false},
		{"escape prefix, opted in", fakeCtx{enabled: map[string]bool{"symbols": true}}, "resource.symbols.a.x", false, false},
		{"experiment not enabled, no resource", fakeCtx{}, "interface.e.x", true, false},
		{"experiment not enabled, resource", fakeCtx{resources: map[string]bool{"interface.e": true}}, "interface.e.x", false, true},
		{"removed features have no symbol", fakeCtx{}, "module_variable_optional_attrs.a", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ref, diags := ParseString(tt.text, tt.ctx)
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			_, isFeature := ref.Subject.(FeatureSymbol)
			if isFeature != tt.asFeature {
				t.Errorf("%s read as %T, want feature symbol: %v", tt.text, ref.Subject, tt.asFeature)
			}
			if _, conflict := SymbolConflict(ref, tt.ctx); conflict != tt.conflict {
				t.Errorf("SymbolConflict = %v, want %v", conflict, tt.conflict)
			}
		})
	}
}

// The registry a module was loaded with decides which prefixes are symbols.
func TestParseUsesTheModuleRegistry(t *testing.T) {
	reg := features.MustRegistry([]features.Feature{{Name: "widgets", State: features.Selectable, Block: "widget", Symbol: "widget"}}, []features.Edition{{Name: "tofu2024"}})
	dir := t.TempDir()
	writeFile(t, dir, "main.tf", "widget \"w\" {}\nlocals {\n  a = widget.w.x\n  b = symbols.s.x\n}\n")
	m, diags := config.LoadWith(dir, config.Options{Features: reg})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	uses, _ := InModule(m)
	if len(uses) != 2 {
		t.Fatalf("got %d references, want 2", len(uses))
	}
	if _, ok := uses[0].Subject.(FeatureSymbol); !ok {
		t.Errorf("widget.w read as %T, want a feature symbol", uses[0].Subject)
	}
	if _, ok := uses[1].Subject.(ResourceInstance); !ok {
		t.Errorf("symbols.s read as %T, want a resource: this registry has no symbols feature", uses[1].Subject)
	}
}

func TestInExprBindsForVariables(t *testing.T) {
	expr, diags := hclsyntax.ParseExpression([]byte(`{ for k, v in var.m : k => v.x if local.keep[k] }`), "t.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	refs, diags := InExpr(expr, fakeCtx{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	var got []string
	for _, r := range refs {
		got = append(got, r.Subject.String())
	}
	if strings.Join(got, " ") != "var.m local.keep" {
		t.Errorf("got %q, want var.m and local.keep only", got)
	}
}

func TestInBodyDynamicIterators(t *testing.T) {
	src := `
dynamic "rule" {
  for_each = var.rules
  iterator = r
  labels   = [r.key]
  content {
    name = r.value.name
    dynamic "match" {
      for_each = r.value.matches
      content {
        expr  = match.value
        outer = r.key
        other = rule.value
      }
    }
  }
}
plain = local.x
`
	f, diags := hclsyntax.ParseConfig([]byte(src), "t.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	refs, _ := InBody(f.Body, fakeCtx{})
	var got []string
	for _, r := range refs {
		got = append(got, r.Text())
	}
	// rule.value is not bound: the iterator argument renamed it to r.
	want := "var.rules rule.value local.x"
	if strings.Join(got, " ") != want {
		t.Errorf("got %q, want %q", strings.Join(got, " "), want)
	}
}

func TestInBodyJSON(t *testing.T) {
	src := `{
  "name": "${var.name}",
  "dynamic": {
    "setting": {
      "for_each": "${var.settings}",
      "content": {"value": "${setting.value}", "other": "${local.x}"}
    }
  }
}`
	f, diags := json.Parse([]byte(src), "t.tf.json")
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	refs, _ := InBody(f.Body, fakeCtx{})
	var got []string
	for _, r := range refs {
		got = append(got, r.Text())
	}
	want := "var.name var.settings local.x"
	if strings.Join(got, " ") != want {
		t.Errorf("got %q, want %q", strings.Join(got, " "), want)
	}
}
