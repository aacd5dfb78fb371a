package functions

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/tofucue/tofucue/internal/source"
)

// templateStringName is the file name of a templatestring template's
// ranges: there is no file.
const templateStringName = "NoFileNeeded"

// recursionError is the error of a templatefile call nested too deep. It
// collects the calls it unwinds through, so that the message shows the
// chain.
type recursionError struct {
	sources []string
}

func (e recursionError) Error() string {
	// Show the chain up to its first repeat: that is the loop.
	var trace []string
	for _, s := range e.sources[:min(16, len(e.sources))] {
		repeat := false
		for _, t := range trace {
			if t == s {
				repeat = true
			}
		}
		trace = append(trace, s)
		if repeat {
			break
		}
	}
	return fmt.Sprintf("maximum recursion depth %d reached in %s ... ", max(len(e.sources)-1, 0), strings.Join(trace, ", "))
}

// maxTemplateDepth is how deep templatefile may call itself: 1024, or
// TF_TEMPLATE_RECURSION_DEPTH as in OpenTofu.
func maxTemplateDepth() (int, error) {
	s := os.Getenv("TF_TEMPLATE_RECURSION_DEPTH")
	if s == "" {
		return 1024, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return -1, fmt.Errorf("invalid value for TF_TEMPLATE_RECURSION_DEPTH: %w", err)
	}
	return n, nil
}

// handoff keeps the result of the render a function's Type callback makes,
// for its Impl to take instead of rendering again: cty calls both with the
// same arguments. Rendering twice per call would make nested templatefile
// calls cost twice as much per level.
type handoff struct {
	mu   sync.Mutex
	args []cty.Value
	val  cty.Value
	err  error
}

func (h *handoff) put(args []cty.Value, val cty.Value, err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.args, h.val, h.err = slices.Clone(args), val, err
}

// take returns the result kept for these arguments, once.
func (h *handoff) take(args []cty.Value) (ok bool, val cty.Value, err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.args == nil || len(h.args) != len(args) {
		return false, cty.NilVal, nil
	}
	for i, a := range args {
		if !a.RawEquals(h.args[i]) {
			return false, cty.NilVal, nil
		}
	}
	val, err = h.val, h.err
	h.args, h.val, h.err = nil, cty.NilVal, nil
	return true, val, err
}

// renderFunc makes a function of (template, vars) whose result is render's:
// its type is learnt by rendering, as OpenTofu does.
func renderFunc(params []function.Parameter, render func(args []cty.Value) (cty.Value, error)) function.Function {
	h := &handoff{}
	return function.New(&function.Spec{
		Params: params,
		Type: func(args []cty.Value) (cty.Type, error) {
			if !args[0].IsKnown() || !args[1].IsKnown() {
				return cty.DynamicPseudoType, nil
			}
			v, err := render(args)
			h.put(args, v, err)
			if err != nil {
				return cty.DynamicPseudoType, err
			}
			return v.Type(), nil
		},
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			if ok, v, err := h.take(args); ok {
				return v, err
			}
			return render(args)
		},
	})
}

// templateFileFunc renders a file as an HCL template with the given
// variables and the functions of table; a template may call templatefile
// again, up to a depth limit.
func (f *files) templateFileFunc(table map[string]function.Function, depth int) function.Function {
	// The functions a template sees: table, with templatefile one level
	// deeper. Made once, when first needed.
	funcs := sync.OnceValue(func() map[string]function.Function {
		m := maps.Clone(table)
		m["templatefile"] = f.templateFileFunc(table, depth+1)
		return m
	})
	params := []function.Parameter{
		{Name: "path", Type: cty.String},
		{Name: "vars", Type: cty.DynamicPseudoType},
	}
	return renderFunc(params, func(args []cty.Value) (cty.Value, error) {
		limit, err := maxTemplateDepth()
		if err != nil {
			return cty.DynamicVal, err
		}
		if depth > limit {
			return cty.DynamicVal, recursionError{}
		}
		p := args[0].AsString()
		src, err := f.read(p)
		if err != nil {
			return cty.DynamicVal, err
		}
		if !utf8.Valid(src) {
			return cty.DynamicVal, fmt.Errorf("contents of %q are not valid UTF-8; use the filebase64 function to obtain the Base64 encoded contents or the other file functions (e.g. filemd5, filesha256) to obtain file hashing results instead", p)
		}
		if d := source.CheckNesting(src, p, source.Template); d != nil {
			return cty.DynamicVal, hcl.Diagnostics{d}
		}
		expr, diags := hclsyntax.ParseTemplate(src, p, hcl.Pos{Line: 1, Column: 1})
		if diags.HasErrors() {
			return cty.DynamicVal, diags
		}
		return renderTemplate(expr, args[1], funcs())
	})
}

// templateStringFunc renders a string as an HCL template with the given
// variables and the functions of table.
func templateStringFunc(table map[string]function.Function) function.Function {
	params := []function.Parameter{
		{Name: "data", Type: cty.String, AllowMarked: true},
		{Name: "vars", Type: cty.DynamicPseudoType, AllowMarked: true},
	}
	return renderFunc(params, func(args []cty.Value) (cty.Value, error) {
		data, dataMarks := args[0].Unmark()
		vars, varsMarks := args[1].Unmark()
		if d := source.CheckNesting([]byte(data.AsString()), templateStringName, source.Template); d != nil {
			return cty.DynamicVal, hcl.Diagnostics{d}
		}
		expr, diags := hclsyntax.ParseTemplate([]byte(data.AsString()), templateStringName, hcl.Pos{Line: 1, Column: 1})
		if diags.HasErrors() {
			return cty.DynamicVal, diags
		}
		v, err := renderTemplate(expr, vars, table)
		return v.WithMarks(dataMarks, varsMarks), err
	})
}

// renderTemplate evaluates a template with vars (a map or object) as its
// only variables.
func renderTemplate(expr hcl.Expression, vars cty.Value, funcs map[string]function.Function) (cty.Value, error) {
	if ty := vars.Type(); !ty.IsMapType() && !ty.IsObjectType() {
		return cty.DynamicVal, function.NewArgErrorf(1, "invalid vars value: must be a map")
	}
	ctx := &hcl.EvalContext{Variables: vars.AsValueMap(), Functions: funcs}
	for name := range ctx.Variables {
		if !hclsyntax.ValidIdentifier(name) {
			return cty.DynamicVal, function.NewArgErrorf(1, "invalid template variable name %q: must start with a letter, followed by zero or more letters, digits, and underscores", name)
		}
	}
	file := expr.Range().Filename
	for _, tr := range expr.Variables() {
		root := tr.RootName()
		if _, ok := ctx.Variables[root]; ok {
			continue
		}
		if file == templateStringName {
			return cty.DynamicVal, function.NewArgErrorf(1, "vars map does not contain key %q", root)
		}
		return cty.DynamicVal, function.NewArgErrorf(1, "vars map does not contain key %q, referenced at %s", root, tr[0].SourceRange())
	}
	v, diags := expr.Value(ctx)
	if !diags.HasErrors() {
		return v, nil
	}
	for _, d := range diags {
		extra, ok := d.Extra.(hclsyntax.FunctionCallDiagExtra)
		if !ok || extra.CalledFunctionName() != "templatefile" {
			continue
		}
		var rec recursionError
		if errors.As(extra.FunctionCallError(), &rec) {
			where := ""
			if d.Subject != nil {
				where = d.Subject.String()
			}
			return cty.DynamicVal, recursionError{sources: append(rec.sources, where)}
		}
	}
	return cty.DynamicVal, diags
}
