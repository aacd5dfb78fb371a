package hcl

import (
	"cmp"
	"context"
	"maps"
	"path/filepath"
	"slices"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/engine/inputs"
	"github.com/tofucue/tofucue/engine/middleware"
	"github.com/tofucue/tofucue/engine/mock"
	"github.com/tofucue/tofucue/engine/plan"
	"github.com/tofucue/tofucue/functions"
	"github.com/tofucue/tofucue/internal/interrupt"
	"github.com/tofucue/tofucue/refs"
)

// Options are what a plan is made with besides the module.
type Options struct {
	// Inputs are the sources of the root module's variable values.
	Inputs inputs.Sources
	// Schemas are the provider schemas given by the user; nil for none.
	// Every resource type they lack gets a schema inferred from the
	// module tree.
	Schemas *mock.Schemas
	// Mocks are the user's mock values; nil for none.
	Mocks *mock.Mocks
	// Now is what plantimestamp returns; zero means plan.DefaultNow.
	Now time.Time
	// MaxInstances bounds the resource and module instances of a plan;
	// zero means the constant MaxInstances.
	MaxInstances int
	// MaxValues bounds the collection elements that the function calls
	// of a plan produce; zero means the constant MaxValues.
	MaxValues int
	// MaxSynthesisPlans bounds the plans that Inputs.Synthesize's search
	// makes after the first; zero means the constant MaxSynthesisPlans,
	// a negative number none.
	MaxSynthesisPlans int
	// Middleware says which of the root module's middleware to run (none
	// unless Enabled or Only). Plan starts them once the inputs are known
	// (their command, args and env may use variables) and stops them
	// before it returns.
	Middleware middleware.Options
	// Context ends the plan early (an interrupt) when it is done; nil
	// means context.Background().
	Context context.Context
}

// Tree is a root module with every module its calls reach (see
// config.LoadTree).
type Tree = config.Tree

// Load reads the module in dir and every module its calls reach through
// a local path or the modules `tofu init` installed. Load errors of any of
// them are returned; calls whose modules are not available are left for
// the planner to report.
func Load(dir string) (*Tree, hcl.Diagnostics) {
	return config.LoadTree(dir, nil)
}

// checkReferences reports the references, in every module of the tree,
// to something their module does not declare or the language does not have.
func checkReferences(t *Tree) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, dir := range slices.Sorted(maps.Keys(t.Modules)) {
		for _, d := range refs.CheckModule(t.Modules[dir]) {
			if d.Severity == hcl.DiagError {
				diags = append(diags, d)
			}
		}
	}
	return diags
}

// Plan plans the module tree: it collects the root module's inputs,
// evaluates every module instance in dependency order with the mock
// providers, and then simulates the apply. The plan is returned even when
// there are errors, holding what could be planned.
func Plan(t *Tree, opts Options) (*plan.Plan, hcl.Diagnostics) {
	// As tofu plan validates first, every module of the tree has its
	// references checked, those with no instance included.
	if diags := checkReferences(t); diags.HasErrors() {
		return emptyPlan(), diags
	}
	ins, diags := inputs.Collect(t.Root, opts.Inputs)
	if diags.HasErrors() {
		return emptyPlan(), diags
	}
	if opts.Inputs.Synthesize {
		p, d := planSynthesized(t, ins, opts)
		return p, append(diags, d...)
	}
	p, d, _ := planWith(t, ins, opts)
	return p, append(diags, d...)
}

func emptyPlan() *plan.Plan {
	return &plan.Plan{Variables: map[string]*plan.Variable{}, Outputs: map[string]*plan.Output{}}
}

// planWith plans the tree with the root module's inputs ins, and returns
// the planner too, whose module instances tell what was evaluated where.
func planWith(t *Tree, ins map[string]*inputs.Input, opts Options) (_ *plan.Plan, diags hcl.Diagnostics, _ *planner) {
	schemas := opts.Schemas
	if schemas == nil {
		schemas, _ = mock.LoadSchemas()
	}
	schemas.InferTree(t)
	now := opts.Now
	if now.IsZero() {
		now = plan.DefaultNow
	}
	p := &planner{
		ctx:      cmp.Or(opts.Context, context.Background()),
		tree:     t,
		provider: mock.New(schemas, opts.Mocks),
		now:      now,
		result:   &plan.Plan{Variables: map[string]*plan.Variable{}, Outputs: map[string]*plan.Output{}, Timestamp: now, Configuration: Configuration(t, schemas)},
		byAddr:   map[string]*plan.Instance{},

		unavailable:  map[*config.ModuleCall]bool{},
		maxInstances: cmp.Or(opts.MaxInstances, MaxInstances),
		maxValues:    cmp.Or(opts.MaxValues, MaxValues),
	}

	vars := map[string]cty.Value{}
	for name, in := range ins {
		vars[name] = in.Value
		p.result.Variables[name] = &plan.Variable{Value: in.Value, Source: in.Source, Synthesized: in.Synthesized}
	}

	chain, d := p.startMiddleware(vars, opts.Middleware)
	diags = append(diags, d...)
	defer func() {
		if err := chain.Close(); err != nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Middleware did not stop cleanly", Detail: err.Error()})
		}
	}()
	if d.HasErrors() {
		return p.result, diags, p
	}
	if note := chain.Note(); note != "" {
		p.result.Notes = append(p.result.Notes, note)
	}
	if len(chain.Running()) > 0 {
		p.chain = chain
	}

	for _, phase := range []phase{planning, applying} {
		p.phase = phase
		p.instances, p.produced = 0, 0
		p.funcs = p.functionTable()
		p.stageHook(phase, "start")
		if p.diags.HasErrors() {
			diags = append(diags, p.diags...)
			break
		}
		root := p.newModule(t.Root, "", nil, nil, vars)
		p.modules = []*module{root}
		// Module calls add their instances to the list as they expand.
		for i := 0; i < len(p.modules); i++ {
			p.modules[i].evalAll()
		}
		if !p.diags.HasErrors() {
			p.stageHook(phase, "complete")
		}
		diags = append(diags, p.diags...)
		p.diags = nil
		if diags.HasErrors() {
			break
		}
		root.collectOutputs(p.result)
	}
	p.result.NotPlanned = slices.Compact(slices.Sorted(slices.Values(p.notPlanned)))
	p.result.Sort()
	p.result.RelevantAttributes = RelevantAttributes(t, p.result, schemas)
	return p.result, plan.UniqueDiagnostics(diags), p
}

type phase int

const (
	planning phase = iota
	applying
)

// planner holds one plan's state across module instances.
type planner struct {
	ctx context.Context
	// saidInterrupted tells that interrupted reported the interrupt.
	saidInterrupted bool
	chain           *middleware.Chain
	tree            *Tree
	provider        *mock.Provider
	now             time.Time
	phase           phase
	funcs           map[string]function.Function
	result          *plan.Plan
	byAddr          map[string]*plan.Instance
	// modules are the module instances of the pass, root first.
	modules []*module
	// instances counts the instances expanded in the pass, up to
	// maxInstances.
	instances, maxInstances int
	// produced counts the collection elements that function calls made
	// in the pass, up to maxValues (budget.go).
	produced, maxValues int
	diags               hcl.Diagnostics
	// stack holds the objects being evaluated, innermost last, to name a
	// cycle.
	stack []*node
	// unavailable are the calls whose modules are not available, reported
	// once; notPlanned their addresses in the module instances that make
	// them.
	unavailable map[*config.ModuleCall]bool
	notPlanned  []string
	// conditions are the failed conditions of the errors reported, for
	// --synthesize's search.
	conditions map[*hcl.Diagnostic]condition
}

func (p *planner) report(diags ...*hcl.Diagnostic) {
	p.diags = append(p.diags, diags...)
}

// interrupted tells whether the plan's context has ended (an interrupt):
// no object is evaluated after that. The first time it reports it.
func (p *planner) interrupted() bool {
	if p.ctx.Err() == nil {
		return false
	}
	if !p.saidInterrupted {
		p.saidInterrupted = true
		p.report(interrupt.Diagnostic())
	}
	return true
}

// functionTable is OpenTofu's functions for this phase: relative paths
// resolve against the root module's directory (where tofu would run), the
// file functions read inside the tree's directory, plantimestamp is
// p.now, and type, which OpenTofu offers only in its console, is not
// there.
func (p *planner) functionTable() map[string]function.Function {
	base, _ := filepath.Abs(p.tree.Root.Dir)
	t := functions.Table(functions.Options{BaseDir: base, Root: p.tree.ReadRoot, PlanTime: true})
	for _, s := range functions.Specs() {
		if s.ConsoleOnly {
			delete(t, s.Name) // a module's call of it is one of an unknown function, as in OpenTofu
		}
	}
	now := cty.StringVal(p.now.UTC().Format(time.RFC3339))
	t["plantimestamp"] = function.New(&function.Spec{
		Type: function.StaticReturnType(cty.String),
		Impl: func([]cty.Value, cty.Type) (cty.Value, error) { return now, nil },
	})
	return p.budgeted(t)
}
