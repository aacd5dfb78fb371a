// Package plan is the result of planning a module against mock providers,
// shared by both evaluators (engine/hcl and engine/cue) and by the
// comparison of their results.
//
// A [Plan] holds cty values, unknowns and sensitive marks included, so that
// two plans can be compared exactly. [Plan.MarshalJSON] writes OpenTofu's
// JSON plan shape (what `tofu show -json PLANFILE` prints), with the
// simulated apply's result added under "applied_values" in the shape of
// `tofu show -json` of a state; its "configuration" is the module tree as
// written (package configjson). [Plan.WriteText] renders the plan for
// people, as `tofu plan` does.
//
// Every planned change is a creation: the mock providers hold no prior
// state. Data sources read while planning go to "prior_state", with the
// root outputs known while planning, as in OpenTofu; those that can only
// be read during apply (their configuration is not yet known, or they
// depend on a pending change) are "read" changes. Ephemeral resources
// appear in neither.
package plan

import (
	"cmp"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/engine/configjson"
)

// SensitiveMark is the cty mark of sensitive values, the one that
// functions.SensitiveMark names.
const SensitiveMark = "sensitive"

// DefaultNow is the plan's time, what plantimestamp returns, on both sides
// unless an engine's options say otherwise: fixed, so that a plan is the
// same in every run.
var DefaultNow = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// Plan is a planned module tree and its simulated apply.
type Plan struct {
	// Variables are the root module's input variable values.
	Variables map[string]*Variable
	// Instances are every resource instance of the module tree, managed
	// and data, in address order.
	Instances []*Instance
	// Outputs are the root module's output values.
	Outputs map[string]*Output
	// Notes are remarks for the reader (middleware that was declared and
	// not run, ...), printed with the plan.
	Notes []string
	// Metadata is what middleware returned from the operation-level
	// (stage) hooks, by metadata_key.
	Metadata map[string]cty.Value
	// NotPlanned are the module calls whose modules were not available
	// (neither local, installed nor mapped), by address in the module
	// instance that makes them ("module.vpc", "module.net[0].module.vpc"),
	// sorted: their outputs are unknown and their resources are absent.
	NotPlanned []string
	// Configuration is the module tree as written, for the JSON plan's
	// "configuration"; nil when not known.
	Configuration *configjson.Configuration
	// RelevantAttributes are the resource attributes that the planned
	// changes read, for the JSON plan's "relevant_attributes".
	RelevantAttributes []configjson.ResourceAttr
	// Timestamp is when the plan was made: what plantimestamp returns.
	// The zero time leaves "timestamp" out of the JSON plan.
	Timestamp time.Time
}

// Variable is the value of an input variable.
type Variable struct {
	Value cty.Value
	// Source tells where the value came from: "default", "--var", a file
	// name, "TF_VAR_name", "synthesized".
	Source      string
	Synthesized bool
}

// Action is what a plan does to a resource instance.
type Action string

// The actions of a plan against empty state.
const (
	// Create is a managed resource instance to be created.
	Create Action = "create"
	// Read is a data resource instance that can only be read during apply.
	Read Action = "read"
	// NoOp is a data resource instance read while planning.
	NoOp Action = "no-op"
)

// Instance is one resource instance.
type Instance struct {
	// Module is the address of the module instance ("" for the root,
	// `module.net`, `module.net["a"].module.sub`).
	Module string
	Mode   config.ResourceMode
	Type   string
	Name   string
	// Key is the instance key: cty.NilVal for a single instance, a number
	// (count) or a string (for_each).
	Key cty.Value
	// ProviderName is the provider's address, as OpenTofu writes it in a
	// plan: `registry.opentofu.org/hashicorp/aws`.
	ProviderName string
	Action       Action
	// Planned is the planned value, with unknowns for what is known only
	// after apply; Applied is the value after the simulated apply. Both
	// carry sensitive marks.
	Planned, Applied cty.Value
	// Provisioners are the instance's provisioner blocks evaluated after
	// apply, with self the applied value, as OpenTofu evaluates them when
	// it runs them (nothing is run): a tuple of objects with type, when,
	// on_failure, config (the block's arguments) and connection (its own
	// connection block's, or the resource's; null without one).
	// cty.NilVal where the resource has none or before apply.
	Provisioners cty.Value
	// Metadata is what middleware returned for the instance while
	// planning, by metadata_key; AppliedMetadata is that with what the
	// apply hooks returned written over it.
	Metadata, AppliedMetadata map[string]cty.Value
}

// Output is a root module output value.
type Output struct {
	Sensitive        bool
	Planned, Applied cty.Value
}

// Addr is the instance's absolute address: `module.net.aws_subnet.a["x"]`.
func (i *Instance) Addr() string {
	var b strings.Builder
	if i.Module != "" {
		b.WriteString(i.Module)
		b.WriteByte('.')
	}
	b.WriteString(i.ResourceAddr())
	b.WriteString(KeyString(i.Key))
	return b.String()
}

// ResourceAddr is the resource's address in its module: `aws_subnet.a`,
// `data.aws_ami.x`.
func (i *Instance) ResourceAddr() string {
	switch i.Mode {
	case config.DataMode:
		return "data." + i.Type + "." + i.Name
	case config.EphemeralMode:
		return "ephemeral." + i.Type + "." + i.Name
	}
	return i.Type + "." + i.Name
}

// KeyString is an instance key as it appears in an address: "", "[2]" or
// `["a"]`.
func KeyString(key cty.Value) string {
	if key == cty.NilVal || key.IsNull() || !key.IsKnown() {
		return ""
	}
	switch key.Type() {
	case cty.Number:
		return "[" + NumberText(key) + "]"
	case cty.String:
		return "[" + quote(key.AsString()) + "]"
	}
	return ""
}

// Sort puts the instances in address order: module, resource address and
// key (numbers numerically), as OpenTofu lists them.
func (p *Plan) Sort() {
	slices.SortStableFunc(p.Instances, compareInstances)
	slices.Sort(p.NotPlanned)
}

func compareInstances(a, b *Instance) int {
	if c := cmp.Compare(a.Module, b.Module); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Mode, b.Mode); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Type, b.Type); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Name, b.Name); c != 0 {
		return c
	}
	return compareKeys(a.Key, b.Key)
}

func compareKeys(a, b cty.Value) int {
	switch {
	case a == cty.NilVal || b == cty.NilVal:
		return cmp.Compare(btoi(a != cty.NilVal), btoi(b != cty.NilVal))
	case a.Type() == cty.Number && b.Type() == cty.Number:
		return a.AsBigFloat().Cmp(b.AsBigFloat())
	case a.Type() == cty.String && b.Type() == cty.String:
		return cmp.Compare(a.AsString(), b.AsString())
	}
	return cmp.Compare(KeyString(a), KeyString(b))
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Changes counts the planned actions: instances to create and data
// sources to read during apply.
func (p *Plan) Changes() (create, read int) {
	for _, in := range p.Instances {
		switch in.Action {
		case Create:
			create++
		case Read:
			read++
		}
	}
	return create, read
}

// ChangedObjects are what the plan changes, as [configjson.RelevantAttributes]
// starts from: the instances it creates or reads during apply, and every
// module instance that holds one (with the root and every module instance
// between), all of whose outputs are planned.
func (p *Plan) ChangedObjects() configjson.Changes {
	var ch configjson.Changes
	mods := map[string]bool{"": true}
	for _, in := range p.Instances {
		if in.Mode == config.EphemeralMode || in.Action == NoOp {
			continue
		}
		ch.Resources = append(ch.Resources, in.Addr())
		for m := in.Module; m != "" && !mods[m]; m = parentModule(m) {
			mods[m] = true
		}
	}
	ch.Modules = slices.Sorted(maps.Keys(mods))
	return ch
}

// NumberText is a number as OpenTofu's plans and state write it: exact,
// and zero without a sign. OpenTofu stores a whole number as a msgpack
// integer, which has no negative zero, so -0 (0 * -1) is 0 once planned.
func NumberText(n cty.Value) string {
	f := n.AsBigFloat()
	if f.Sign() == 0 {
		return "0"
	}
	return f.Text('f', -1)
}
