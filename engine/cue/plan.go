package cue

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/cuecontext"
	"cuelang.org/go/cue/errors"
	"cuelang.org/go/cue/load"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/cueform"
	"github.com/tofucue/tofucue/engine/mock"
	"github.com/tofucue/tofucue/engine/plan"
	"github.com/tofucue/tofucue/internal/interrupt"
)

// Options are what a CUE module is planned with besides the module.
type Options struct {
	// Context ends the plan early (an interrupt) when it is done, between
	// evaluation rounds; nil never ends it.
	Context context.Context
	// Inputs are the final values of the input variables, injected at
	// the @input fields by unification; an input absent here keeps its
	// CUE default.
	Inputs map[string]cty.Value
	// Provider is the mock provider to plan and apply against: the same
	// one (schemas inferred from the HCL module, mocks) the HCL side
	// uses. Without one, every resource type is an error.
	Provider *mock.Provider
	// ModuleDir is the HCL module's directory: path.cwd is its absolute
	// path, as on the HCL side. Empty leaves the CUE default.
	ModuleDir string
	// Now is what plantimestamp returns (the @plantimestamp fields); zero
	// means plan.DefaultNow, as on the HCL side.
	Now time.Time
	// off switches accelerators off, for the tests that compare each
	// with the reference planner; the zero value has them all.
	off accel
	// graph, for the tests of what the passes make of a graph the
	// analysis got wrong, replaces the analysis's dependencies: by
	// address (data.aws_x.y), the declarations each depends on.
	graph map[string][]string
}

// Plan loads the converted module in dir (a directory written by
// `hcl2cue convert -o`, with its cue.mod and the tofu library) and plans
// it as engine/hcl plans the HCL module.
func Plan(dir string, opts Options) (*plan.Plan, hcl.Diagnostics) {
	empty := &plan.Plan{Variables: map[string]*plan.Variable{}, Outputs: map[string]*plan.Output{}}
	insts := load.Instances([]string{"."}, &load.Config{Dir: dir})
	if len(insts) != 1 {
		return empty, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Failed to load CUE module", Detail: fmt.Sprintf("Loading %s gave %d CUE instances; one package was expected.", dir, len(insts))}}
	}
	if err := insts[0].Err; err != nil {
		return empty, errorDiags(err, "Failed to load CUE module", nil)
	}
	// An error of the program at the inputs' defaults is not one of the
	// plan: the plan injects the inputs and types the computed
	// attributes first, and reports what is still an error where it
	// meets it (see planner.conflicts).
	v := cuecontext.New().BuildInstance(insts[0])
	return PlanValue(v, opts)
}

// PlanValue plans an already loaded CUE module (a converted module built
// with convert.Result.LoadWith, say) as Plan does.
func PlanValue(v cue.Value, opts Options) (*plan.Plan, hcl.Diagnostics) {
	p, diags := planValue(v, opts)
	return p.result, diags
}

// planValue plans v, and plans it again while the check of the plan pass
// learns dependencies that the graph missed (see stale.go), at most
// maxReplans times in all.
func planValue(v cue.Value, opts Options) (*planner, hcl.Diagnostics) {
	known := learned{}
	for run := 1; ; run++ {
		p, diags := planOnce(v, opts, known, run >= maxReplans)
		if len(p.learned) == 0 || run >= maxReplans || p.saidInterrupted {
			p.stats.replans = run - 1
			return p, diags
		}
		for from, ons := range p.learned {
			known[from] = append(known[from], ons...)
		}
	}
}

// planOnce plans v once, with the dependencies learned by earlier runs;
// lastRun says that no run comes after it.
func planOnce(v cue.Value, opts Options, known learned, lastRun bool) (res *planner, diags hcl.Diagnostics) {
	p := &planner{
		ctx:      cuecontext.New(),
		opts:     opts,
		provider: opts.Provider,
		result:   &plan.Plan{Variables: map[string]*plan.Variable{}, Outputs: map[string]*plan.Output{}},
		byAddr:   map[string]*instance{},
		known:    known,
		learned:  learned{},
		lastRun:  lastRun,
		pkg:      programPackage(v),
	}
	p.accelerate(opts.off)
	defer func() {
		// Bad input must never crash the caller: a panic of the CUE
		// evaluator or of ours is an error of the plan.
		if e := recover(); e != nil {
			p.result.Sort()
			res = p
			p.report(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "CUE planner failed", Detail: fmt.Sprintf("Planning the CUE module failed: %v.", e)})
			diags = p.diags
		}
	}()
	if p.provider == nil {
		p.provider = mock.New(nil, nil)
	}
	p.run(v)
	p.result.Sort()
	// An error of the program is met by more than one evaluation, and
	// the plan and apply passes report the same warnings.
	p.diags = plan.UniqueDiagnostics(p.diags)
	return p, p.diags
}

// planner holds one plan's state: the reference planner's (the program
// and what was found in it, the instances and the plan) and, apart, each
// accelerator's, nil where Options switched it off (see accel.go).
type planner struct {
	ctx  *cue.Context
	opts Options
	// saidInterrupted tells that interrupted reported the interrupt.
	saidInterrupted bool
	provider        *mock.Provider
	result          *plan.Plan
	diags           hcl.Diagnostics
	// pkg is the package path of the program's hidden fields
	// (programPackage), "" where it is not known.
	pkg string
	// childInputs are the called modules' inputs, which
	// checkChildInputs checks.
	childInputs []*decl
	// walked is what findDecls found in the program with its inputs,
	// where moduleInputs walked that program (done).
	walked struct {
		decls []*decl
		diags hcl.Diagnostics
		done  bool
	}

	// resources are the resource, data and ephemeral declarations, in
	// the order the walk found them; decl.index is the place in it.
	resources []*decl
	outputs   []*decl
	checks    []*decl
	// deps maps a resource declaration to those it depends on.
	deps map[int][]int
	// order is the resource declarations in dependency order; from
	// cyclic on, those of a cycle and those that depend on one.
	order  []int
	cyclic int
	// cycleExpanded holds the instances of the declarations from
	// cyclic on, expanded together at the first one's turn (see
	// expandCycle).
	cycleExpanded map[int][]*instance
	// heldDecls are the errors of the declarations whose instances could
	// not be told at their turn in the plan pass (a count that reads an
	// output beside one that is an error until a called module's
	// resources have their shapes), held to the end of the pass but in
	// the last run, as instance.held is: one told there is stale.
	heldDecls map[int]hcl.Diagnostics
	// requiredProviders maps provider local names to their addresses,
	// from _terraform.required_providers.
	requiredProviders map[string]string
	// instances are every instance the plan pass made, in order; byAddr
	// finds them by address.
	instances []*instance
	byAddr    map[string]*instance
	// templateHolders are the top-level fields that hold the called
	// modules' templates (@source), by selector: their errors are those
	// of a module not instantiated, which only its instances have.
	templateHolders map[string]bool

	// The programs, each written once. start is the program both passes
	// start from: the program with its inputs, or, with shape rounds,
	// that program completed with the shapes they found. analyzed is the
	// program the dependency analysis read (start's shapes and the flow
	// guard); planned and applied are the program at the end of each
	// pass.
	start, analyzed, planned, applied cue.Value

	// The plan pass's record, which its check reads (stale.go):
	// planFills is the number of values the pass has added to the
	// program (data sources read, computed attributes known at plan),
	// planFilled the declarations that added one (or a shape). known
	// are the dependencies learned by earlier runs, learned those this
	// run's check found.
	planFills      int
	planFilled     []bool
	known, learned learned
	// lastRun is set in the run after which no other comes, however
	// stale its plan pass.
	lastRun bool

	// The accelerators, each with its own state; nil where switched off.
	shapes *shapeRounds
	batch  *batching
	spec   *speculation
	replan *replanning

	stats stats
}

// stats count what a plan did, for tests and benchmarks. They are
// counters only: no pass reads them to decide anything.
type stats struct {
	// speculated is the number of instances applied by speculation,
	// rounds the gradual rounds of the apply pass, and fellBack is set
	// when the speculation was wrong and the apply pass ran again.
	speculated, rounds int
	fellBack           bool
	// carried is the number of data sources read while planning whose
	// values the apply pass took as they were (see carryReads), and
	// specRounds the number of the speculation's evaluations.
	carried, specRounds int
	// replans is how many times the plan ran again for a dependency
	// the graph missed; shapeRounds is how many rounds the shape rounds
	// took, and movedDecls how many declarations they left to the plan
	// pass because the completed program changed their instances.
	replans, shapeRounds, movedDecls int
	// planEvals is how many times the plan pass evaluated the program
	// with the values it added (in the last run), applyEvals how many
	// times the apply pass did.
	planEvals, applyEvals int
	// reanalyses is how many times the apply pass analyzed the
	// dependencies again, finding nothing ready (see gradual).
	reanalyses int
}

func (p *planner) report(diags ...*hcl.Diagnostic) {
	p.diags = append(p.diags, diags...)
}

// instance is one instance of a resource declaration.
type instance struct {
	d     *decl
	key   cty.Value
	path  cue.Path
	addr  string
	block *mock.Block
	// shape is what the engine adds to the configuration: nulls, empty
	// blocks, and the computed attributes, whose schema types it fills
	// in, then their values when they are known.
	shape *shape
	rec   *plan.Instance
	// appliedValue is the provider's value at apply.
	appliedValue cty.Value
	applied      bool
	// plannedCfg is the configuration the instance was planned with,
	// and planFills the plan pass's count once it was: one planned
	// after the last value was added cannot have missed anything (see
	// stale.go). It is -1 where the program it was planned from lacked
	// values added before it.
	plannedCfg cty.Value
	planFills  int
	// held are the errors of a configuration that did not decode at
	// its turn in the plan pass, held until the end of the pass (but in
	// the last run): one that decodes there read a value that a
	// declaration planned after it added (the shapes of a called
	// module's resources, without which an output beside the one read
	// is an error that CUE gives the whole struct, or a try falls
	// through to an index out of range), which the dependency analysis
	// missed. The stale check learns that dependency, and the plan runs
	// again (see stale.go); one that does not decode there either is
	// reported.
	held hcl.Diagnostics
	// shapeAdded is set where batching added the shape to the plan
	// pass's values before the instance's turn (see expandReady).
	shapeAdded bool
}

func (p *planner) run(v cue.Value) {
	// The program as a whole may be an error: a value not known yet is
	// one once the program is final, and so is a conflict. The passes
	// report each where they meet it; only a program that is not a
	// struct cannot be planned.
	if _, err := v.Fields(cue.Hidden(true)); err != nil {
		p.report(errorDiags(err, "Invalid CUE module", nil)...)
		return
	}
	v = p.inputs(v)
	if p.diags.HasErrors() {
		return
	}
	decls, diags := p.walked.decls, p.walked.diags
	if !p.walked.done {
		decls, diags = findDecls(v, true, p.pkg)
	}
	p.report(diags...)
	for _, d := range decls {
		switch d.kind {
		case declResource, declData, declEphemeral:
			d.index = len(p.resources)
			p.resources = append(p.resources, d)
		case declOutput:
			if d.module == "" {
				p.outputs = append(p.outputs, d)
			}
		case declTerraform:
			p.readTerraform(v.LookupPath(d.path))
		case declSource:
			if sels := d.path.Selectors(); len(sels) > 0 {
				if p.templateHolders == nil {
					p.templateHolders = map[string]bool{}
				}
				p.templateHolders[sels[0].String()] = true
			}
		case declUnavailable:
			if !slices.Contains(p.result.NotPlanned, d.name) {
				p.result.NotPlanned = append(p.result.NotPlanned, d.name)
			}
		}
	}
	p.checks = checkRules(v)
	if p.diags.HasErrors() {
		return
	}
	// The dependencies are found in the program completed with the
	// shapes: a computed attribute the configuration leaves null is
	// null there only until it has its type, and a null in an
	// interpolation is an error that hides every dependency of the
	// declarations that reach it (see dependencies). The shape rounds
	// find the shapes the plan passes start from; without them the
	// reference plans from the program with its inputs and completes
	// one copy of it for the analysis alone.
	p.start = v
	if p.shapes != nil {
		p.start = p.shapes.run(p, v)
		p.analyzed = p.start
	} else {
		p.analyzed = p.typedForAnalysis(v)
	}
	p.checkChildInputs(p.analyzed)
	if p.diags.HasErrors() {
		return
	}
	p.deps = dependencies(p.analyzed, p.resources)
	if !acyclic(p.deps, len(p.resources)) {
		// The analysis of the completed program can find more than the
		// references (terraform-aws-s3-bucket's directory-bucket
		// example: every declaration of a called module on each other);
		// where it finds a cycle that the program as written has not,
		// the latter's graph orders the plan (analyzed with the flow
		// guard first, at the cost of one more evaluation).
		if alt, ok := acyclicDependencies(v, p.resources); ok {
			p.deps = alt
		}
	}
	if p.opts.graph != nil {
		p.deps = p.givenDeps(p.opts.graph)
	}
	p.addLearned(p.known)
	p.sortDecls()
	p.planPass()
	if p.stalePlanned(p.planned) && (p.replan.stops(p) || p.holding()) {
		// A run whose plan pass left an instance unplanned (held) has
		// nothing to apply it from: the next run plans it.
		return
	}
	if p.diags.HasErrors() {
		return
	}
	p.applyPass()
}

// holding tells whether the plan pass left a declaration or an instance
// held (see heldDecls and instance.held) for the next run.
func (p *planner) holding() bool {
	return len(p.heldDecls) > 0 || slices.ContainsFunc(p.instances, func(in *instance) bool { return in.held != nil })
}

// sortDecls puts the resource declarations in dependency order (source
// order among those that do not depend on each other). A cycle is an
// error naming each declaration in it; those declarations, and those
// that depend on them, come last, to be planned with what is known, as
// engine/hcl plans the objects of a cycle.
func (p *planner) sortDecls() {
	n := len(p.resources)
	var indeg []int
	p.order, indeg = topoOrder(p.deps, n)
	p.cyclic = len(p.order)
	if len(p.order) == n {
		return
	}
	var names []string
	var first *decl
	for i, d := range p.resources {
		if indeg[i] > 0 {
			names = append(names, d.addr())
			p.order = append(p.order, i)
			if first == nil {
				first = d
			}
		}
	}
	p.report(&hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Cycle: " + strings.Join(names, ", "),
		Detail:   "These declarations refer to each other in a loop, so none of them can be evaluated first. Break the loop by removing one of the references.",
		Subject:  first.pos,
	})
}

// inputs injects the input values at the @input fields, sets path.cwd,
// checks every input and runs the validations the converter kept, and
// records the variables of the plan.
func (p *planner) inputs(v cue.Value) cue.Value {
	decls, diags := findDecls(v, false, p.pkg)
	p.report(diags...)
	declared := map[string]bool{}
	var ins []*decl
	var given fills
	var rebuilt []rebuild
	var firstRebuilt *decl
	for _, d := range decls {
		switch d.kind {
		case declInput:
			declared[d.name] = true
			ins = append(ins, d)
			if val, ok := p.opts.Inputs[d.name]; ok {
				x, how := inputFill(p.ctx, v.LookupPath(d.path), val)
				if how != fillValue {
					rebuilt = append(rebuilt, rebuild{d.path, how})
					if firstRebuilt == nil {
						firstRebuilt = d
					}
				}
				if how != fillNull {
					given.add(d.path, x)
				}
			}
		case declPath:
			p.setCwd(&given, d)
		case declPlanTime:
			p.setPlanTime(&given, d)
		case declHome:
			p.setHome(&given, d)
		}
	}
	if len(rebuilt) > 0 {
		nv, err := rebuiltProgram(p.ctx, v, rebuilt)
		if err != nil {
			p.report(&hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid value for input variable",
				Detail:   fmt.Sprintf("The variable %q is set to null, which its field does not admit, or to a value that replaces its default, and the program could not be built with the field null or without its default: %v.", firstRebuilt.name, err),
				Subject:  firstRebuilt.pos,
			})
			return v
		}
		v = nv
	}
	v = given.apply(p.ctx, v)
	for _, name := range sortedKeys(p.opts.Inputs) {
		if !declared[name] {
			p.report(&hcl.Diagnostic{
				Severity: hcl.DiagWarning,
				Summary:  "Value for undeclared variable",
				Detail:   fmt.Sprintf("The CUE module has no @input(%s) field; the value given for it is not used.", name),
			})
		}
	}
	// An input not given takes its default, filled in after the checks:
	// CUE can leave a default unchosen further on. A variable of type
	// any with default {} is *close({}) | _, which the kind test x & [...]
	// of tofu.#ordered makes a list; and an object's default read in a
	// dynamic block left one attribute unevaluated (ec2-instance).
	type defaulted struct {
		path cue.Path
		val  cue.Value
	}
	var defaults []defaulted
	for _, d := range ins {
		iv := v.LookupPath(d.path)
		if dv, ok := iv.Default(); ok {
			iv = dv
			// A null default stays a null by default, which the
			// provider may decide where it is an argument.
			if _, given := p.opts.Inputs[d.name]; !given && dv.Kind() != cue.NullKind {
				defaults = append(defaults, defaulted{d.path, dv})
			}
		}
		if err := fatal(iv); err != nil {
			p.report(errorDiags(err, "Invalid value for input variable", d.pos)...)
			continue
		}
		if err := iv.Validate(cue.Concrete(true)); err != nil {
			if cue.IsIncomplete(err) {
				p.report(&hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "No value for required variable",
					Detail:   fmt.Sprintf("The input variable %q is not set, and has no default value: %s.", d.name, errors.Details(err, nil)),
					Subject:  d.pos,
				})
			} else {
				p.report(errorDiags(err, "Invalid value for input variable", d.pos)...)
			}
			continue
		}
		variable := &plan.Variable{Source: "default"}
		if val, ok := p.opts.Inputs[d.name]; ok {
			variable.Value, variable.Source = val, "input"
		} else {
			dec := &decoder{}
			variable.Value = dec.value(iv)
		}
		p.result.Variables[d.name] = variable
	}
	if p.diags.HasErrors() {
		return v
	}
	var f fills
	for _, d := range defaults {
		// As syntax, a default goes into the one struct that fills
		// compiles: as values, each would be unified with the others
		// first, and CUE v0.17.1 checks the closedness of every one
		// again at each step (terraform-aws-vpc's root: three quarters
		// of its plan's time, in adt's containsDefIDRec).
		// The syntax keeps the nulls by default inside a default (not
		// cue.Final); one that does not build on its own (a reference
		// left in it) goes in as the value.
		if x, ok := d.val.Syntax().(ast.Expr); ok && p.ctx.BuildExpr(x).Err() == nil {
			f.add(d.path, x)
		} else {
			f.addValue(d.path, d.val)
		}
	}
	v = f.apply(p.ctx, v)
	for _, d := range decls {
		if d.kind == declValidation {
			p.validate(v.LookupPath(d.path), d)
		}
	}
	return p.moduleInputs(v)
}

// moduleInputs sets path.cwd in the modules the root calls, checks the
// validations the converter kept, and keeps their inputs, which their
// calls give by unification, for checkChildInputs: a conflict is
// "Invalid value for input variable" at the CUE source. An input not
// known yet (an argument computed from a resource) is not an error.
func (p *planner) moduleInputs(v cue.Value) cue.Value {
	decls, diags := findDecls(v, true, p.pkg)
	var cwd fills
	for _, d := range decls {
		if d.module != "" && d.kind == declPath {
			p.setCwd(&cwd, d)
		}
		if d.module != "" && d.kind == declPlanTime {
			p.setPlanTime(&cwd, d)
		}
		if d.module != "" && d.kind == declHome {
			p.setHome(&cwd, d)
		}
	}
	if cwd.n == 0 {
		// The program stays the one walked: run takes these
		// declarations rather than walking it again.
		p.walked.decls, p.walked.diags, p.walked.done = decls, diags, true
	}
	v = cwd.apply(p.ctx, v)
	for _, d := range decls {
		if d.module == "" {
			continue
		}
		switch d.kind {
		case declInput:
			p.childInputs = append(p.childInputs, d)
		case declValidation:
			p.validate(v.LookupPath(d.path), d)
		}
	}
	return v
}

// checkChildInputs reports the called modules' inputs that are errors in
// the program completed with the computed attributes' types (analyzed):
// in the program before it, a computed attribute is missing rather than
// not known yet, and an argument that reads one through try (the kms
// module's key_arn, try(aws_kms_key.this[0].arn, ...)) would fall
// through to its last argument's error.
func (p *planner) checkChildInputs(analyzed cue.Value) {
	for _, d := range p.childInputs {
		iv := analyzed.LookupPath(d.path)
		if dv, ok := iv.Default(); ok {
			iv = dv
		}
		if err := fatal(iv); err != nil {
			p.report(errorDiags(err, "Invalid value for input variable", d.pos)...)
		}
	}
}

// validate checks a validation rule the converter kept for the engine
// (a condition and an error message, marked @validation(var.NAME)): a
// condition that is false is "Invalid value for variable".
func (p *planner) validate(rule cue.Value, d *decl) {
	rules := []cue.Value{rule}
	if !rule.LookupPath(cue.MakePath(cue.Str("condition"))).Exists() {
		rules = ruleList(rule)
	}
	for _, r := range rules {
		p.checkRule(r, "Invalid value for variable", hcl.DiagError, d.pos)
	}
}

// ruleList is the rules of a struct of rules keyed "0", "1", ...
func ruleList(rules cue.Value) []cue.Value {
	it, err := rules.Fields()
	if err != nil {
		return nil
	}
	var out []cue.Value
	for it.Next() {
		out = append(out, it.Value())
	}
	return out
}

// checkRule evaluates one condition with its error message: false (or a
// conflict, as `true & cond` is when cond is false) is reported with the
// message; not yet known is skipped, as OpenTofu skips an unknown
// condition.
func (p *planner) checkRule(r cue.Value, summary string, severity hcl.DiagnosticSeverity, fallback *hcl.Range) {
	cond := r.LookupPath(cue.MakePath(cue.Str("condition")))
	if !cond.Exists() {
		return
	}
	if dv, ok := cond.Default(); ok {
		cond = dv
	}
	failed := false
	if err := cond.Err(); err != nil {
		if cue.IsIncomplete(err) {
			return
		}
		failed = true
	} else if b, err := cond.Bool(); err == nil {
		failed = !b
	} else {
		return
	}
	if !failed {
		return
	}
	msg := "The condition is false."
	if m, err := r.LookupPath(cue.MakePath(cue.Str("error_message"))).String(); err == nil {
		msg = strings.TrimSpace(m)
	}
	subject := rangeOf(cond.Pos())
	if subject == nil {
		subject = fallback
	}
	p.report(&hcl.Diagnostic{Severity: severity, Summary: summary, Detail: msg, Subject: subject})
}

// checkRules finds the check blocks the converter writes under _check:
// check name, then rules.
func checkRules(v cue.Value) []*decl {
	var out []*decl
	it, err := v.Fields(cue.Hidden(true))
	if err != nil {
		return nil
	}
	for it.Next() {
		if it.Selector().String() != cueform.CheckRoot {
			continue
		}
		cit, err := it.Value().Fields()
		if err != nil {
			continue
		}
		for cit.Next() {
			out = append(out, &decl{name: cit.Selector().Unquoted(), path: cue.MakePath(it.Selector(), cit.Selector())})
		}
	}
	return out
}

// readTerraform reads the provider addresses of required_providers.
func (p *planner) readTerraform(t cue.Value) {
	rp := t.LookupPath(cue.MakePath(cue.Str("required_providers")))
	it, err := rp.Fields()
	if err != nil {
		return
	}
	for it.Next() {
		src, err := it.Value().LookupPath(cue.MakePath(cue.Str("source"))).String()
		if err != nil {
			continue
		}
		addr, diag := config.ParseProviderSource(src)
		if diag != nil || addr.Type == "" {
			continue
		}
		if p.requiredProviders == nil {
			p.requiredProviders = map[string]string{}
		}
		p.requiredProviders[it.Selector().Unquoted()] = addr.String()
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// setCwd adds to f path.cwd at a @path field: the absolute path of
// Options.ModuleDir, as on the HCL side; without one the CUE default
// stays.
// setPlanTime adds to f the plan's time at a @plantimestamp field, in
// RFC 3339 as plantimestamp returns it.
func (p *planner) setPlanTime(f *fills, d *decl) {
	now := p.opts.Now
	if now.IsZero() {
		now = plan.DefaultNow
	}
	f.add(d.path, ast.NewString(now.UTC().Format(time.RFC3339)))
}

// setHome adds to f the home directory at a @home field: the one
// pathexpand expands ~ to on the HCL side, the machine's.
func (p *planner) setHome(f *fills, d *decl) {
	home, err := os.UserHomeDir()
	if err != nil {
		return
	}
	f.add(d.path, ast.NewString(filepath.ToSlash(home)))
}

func (p *planner) setCwd(f *fills, d *decl) {
	if p.opts.ModuleDir == "" {
		return
	}
	abs, err := filepath.Abs(p.opts.ModuleDir)
	if err != nil {
		return
	}
	f.add(join(d.path, cue.Str("cwd")), ast.NewString(filepath.ToSlash(abs)))
}

// interrupted tells whether the plan's context has ended (an interrupt):
// the passes then stop between declarations and rounds. The first time it
// reports that as an error, so that no one takes the plan for a whole one.
func (p *planner) interrupted() bool {
	if p.opts.Context == nil || p.opts.Context.Err() == nil {
		return false
	}
	if !p.saidInterrupted {
		p.saidInterrupted = true
		p.report(interrupt.Diagnostic())
	}
	return true
}

// givenDeps is Options.graph as the planner's dependencies; an address
// that names no declaration is left out.
func (p *planner) givenDeps(graph map[string][]string) map[int][]int {
	index := map[string]int{}
	for i, d := range p.resources {
		index[d.addr()] = i
	}
	deps := map[int][]int{}
	for from, tos := range graph {
		i, ok := index[from]
		if !ok {
			continue
		}
		for _, to := range tos {
			if j, ok := index[to]; ok {
				deps[i] = append(deps[i], j)
			}
		}
	}
	return deps
}
