package config

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/tofucue/tofucue/functions"
)

// staticEvaluator evaluates the few expressions that OpenTofu needs before a
// plan: module source and version. They may use constants, input variable
// defaults, local values and pure functions; anything that needs a plan
// (resources, module outputs) is not static.
type staticEvaluator struct {
	mod        *Module
	locals     map[string]cty.Value
	inProgress map[string]bool
	// funcs are staticFunctions, made at the first expression that
	// needs them: most modules call no module.
	funcs map[string]function.Function
}

func newStaticEvaluator(m *Module) *staticEvaluator {
	return &staticEvaluator{mod: m, locals: map[string]cty.Value{}, inProgress: map[string]bool{}}
}

// sensitiveMark is the cty mark OpenTofu puts on sensitive values.
const sensitiveMark = functions.SensitiveMark

// staticFunctions are the functions available in static expressions: those
// whose spec says they are known from their arguments alone and read no
// files.
func staticFunctions(dir string) map[string]function.Function {
	all := functions.Table(functions.Options{BaseDir: dir})
	out := map[string]function.Function{}
	for _, s := range functions.Specs() {
		if s.Static() {
			out[s.Name] = all[s.Name]
		}
	}
	return out
}

// eval evaluates expr statically. The boolean is false when the expression
// depends on something that only a plan knows (or on a variable with no
// default), in which case nothing can be checked now.
func (se *staticEvaluator) eval(d *decoder, expr hcl.Expression) (cty.Value, bool) {
	vars := map[string]map[string]cty.Value{}
	for _, tr := range expr.Variables() {
		root := tr.RootName()
		name := ""
		if len(tr) > 1 {
			if a, ok := tr[1].(hcl.TraverseAttr); ok {
				name = a.Name
			}
		}
		var val cty.Value
		switch root {
		case "var":
			v, ok := se.mod.Variables[name]
			if !ok || v.Required() || !v.Default.IsWhollyKnown() {
				return cty.DynamicVal, false
			}
			val = v.Default
			if v.Sensitive {
				val = val.Mark(sensitiveMark)
			}
		case "local":
			lv, ok := se.local(d, name)
			if !ok {
				return cty.DynamicVal, false
			}
			val = lv
		case "path":
			val = cty.StringVal(".")
		case "terraform", "tofu":
			if name != "workspace" {
				return cty.DynamicVal, false
			}
			val = cty.StringVal("default")
		default:
			return cty.DynamicVal, false
		}
		if vars[root] == nil {
			vars[root] = map[string]cty.Value{}
		}
		vars[root][name] = val
	}
	if se.funcs == nil {
		se.funcs = staticFunctions(se.mod.Dir)
	}
	ctx := &hcl.EvalContext{Variables: map[string]cty.Value{}, Functions: se.funcs}
	for root, attrs := range vars {
		ctx.Variables[root] = cty.ObjectVal(attrs)
	}
	val, diags := expr.Value(ctx)
	if diags.HasErrors() {
		d.report(diags...)
		return cty.DynamicVal, false
	}
	return val, val.IsWhollyKnown()
}

func (se *staticEvaluator) local(d *decoder, name string) (cty.Value, bool) {
	if v, ok := se.locals[name]; ok {
		return v, v != cty.NilVal
	}
	lv, ok := se.mod.Locals[name]
	if !ok || se.inProgress[name] {
		return cty.NilVal, false
	}
	se.inProgress[name] = true
	val, ok := se.eval(&decoder{opts: d.opts}, lv.Expr) // errors in locals are reported where they are used
	delete(se.inProgress, name)
	if !ok {
		val = cty.NilVal
	}
	se.locals[name] = val
	return val, ok
}

// decodeModuleCall evaluates a module call's version and source and parses
// the source address.
func (se *staticEvaluator) decodeModuleCall(d *decoder, mc *ModuleCall) {
	hasVersion := false
	if mc.VersionExpr != nil {
		val, ok := se.eval(d, mc.VersionExpr)
		switch {
		case !ok:
			hasVersion = true // not known yet, but given
		case val.IsNull():
		default:
			hasVersion = true
			if vc, ok := d.versionConstraintValue(val, mc.VersionExpr.Range()); ok {
				mc.Version = &vc
			}
		}
	}
	if mc.Source == nil {
		return
	}
	val, ok := se.eval(d, mc.Source)
	if !ok {
		return
	}
	if val.IsMarked() {
		d.errorf(mc.Source.Range(), "Sensitive value not allowed", "The module source address cannot be derived from a sensitive value: OpenTofu would have to show it in its output.")
		return
	}
	if val.IsNull() || !val.Type().Equals(cty.String) {
		d.errorf(mc.Source.Range(), "Invalid module source address", "The module source address must be a string.")
		return
	}
	src, err := ParseModuleSource(val.AsString(), hasVersion)
	if err != nil {
		if hasVersion {
			d.errorf(mc.Source.Range(), "Invalid registry module source address", "Failed to parse module registry address: %s.\n\nOpenTofu assumed that you intended a module registry source address because you also set the argument \"version\", which applies only to registry modules.", err)
		} else {
			d.errorf(mc.Source.Range(), "Invalid module source address", "Failed to parse module source address: %s.", err)
		}
		return
	}
	if hasVersion && src.Kind != RegistrySource {
		d.errorf(mc.Source.Range(), "Invalid registry module source address", "The \"version\" argument applies only to module registry sources, and %q is not one.", src.Raw)
	}
	mc.SourceAddr = src
}
