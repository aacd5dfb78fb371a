package plan

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/engine/configjson"
)

// FormatVersion is the version of OpenTofu's JSON plan format that
// MarshalJSON writes.
const FormatVersion = "1.2"

// StateFormatVersion is the version of OpenTofu's JSON state format, that
// of "prior_state" and "applied_values".
const StateFormatVersion = "1.0"

// OpenTofuVersion is the OpenTofu release whose semantics the planners
// follow, written as the JSON plan's "terraform_version".
const OpenTofuVersion = "1.12.6"

// MarshalJSON writes the plan in OpenTofu's JSON plan shape:
// format_version, terraform_version ([OpenTofuVersion]), variables,
// planned_values, resource_changes, output_changes, prior_state (the data
// sources read while planning and the outputs known then, in the state
// format), configuration (the module tree as written,
// see package configjson), relevant_attributes, timestamp and errored; plus "applyable" and
// "complete", which Terraform writes and OpenTofu 1.12 does not (a plan is
// written only when planning succeeded, so errored is false, complete is
// true, and applyable says whether anything changes), "applied_values",
// the state after the simulated apply in the shape of `tofu show -json`,
// and "synthesized_variables", the names of the variables whose values
// were made up.
//
// As in OpenTofu, unknown values are left out of "after" and "values"
// (an unknown list element is null) and marked true in "after_unknown";
// sensitive values are kept in "after" and marked true in
// "after_sensitive" and "sensitive_values".
func (p *Plan) MarshalJSON() ([]byte, error) {
	out := jsonPlan{
		FormatVersion:    FormatVersion,
		TerraformVersion: OpenTofuVersion,
		Configuration:    p.Configuration,
		Relevant:         p.RelevantAttributes,
		Complete:         true,
		Variables:        map[string]jsonVariable{},
		ResourceChanges:  []jsonResourceChange{},
		OutputChanges:    map[string]jsonChange{},
	}
	for _, name := range slices.Sorted(maps.Keys(p.Variables)) {
		v := p.Variables[name]
		out.Variables[name] = jsonVariable{Value: jsonValue(v.Value)}
		if v.Synthesized {
			out.Synthesized = append(out.Synthesized, name)
		}
	}

	var planned, prior, applied []*jsonResource
	for _, in := range p.Instances {
		if in.Mode == config.EphemeralMode {
			continue
		}
		r := in.jsonResource(in.Planned, in.Metadata)
		if in.Action == NoOp {
			prior = append(prior, r)
		} else {
			planned = append(planned, r)
			out.ResourceChanges = append(out.ResourceChanges, in.jsonChange())
		}
		if in.Applied != cty.NilVal {
			applied = append(applied, in.jsonResource(in.Applied, in.AppliedMetadata))
		}
	}

	out.PlannedValues.Outputs = map[string]jsonOutput{}
	appliedOutputs := map[string]jsonOutput{}
	// The outputs known while planning are in the prior state too, as
	// OpenTofu's plan records them.
	priorOutputs := map[string]jsonOutput{}
	for _, name := range slices.Sorted(maps.Keys(p.Outputs)) {
		o := p.Outputs[name]
		sensitive := o.Sensitive || hasSensitive(o.Planned)
		if o.Planned.IsWhollyKnown() {
			out.PlannedValues.Outputs[name] = knownOutput(o.Planned, sensitive)
			priorOutputs[name] = knownOutput(o.Planned, sensitive)
		} else {
			out.PlannedValues.Outputs[name] = jsonOutput{Sensitive: sensitive}
		}
		out.OutputChanges[name] = jsonChange{
			Actions:         []string{string(Create)},
			After:           jsonValue(o.Planned),
			AfterUnknown:    unknownTree(o.Planned, true),
			BeforeSensitive: false,
			AfterSensitive:  sensitive,
		}
		if o.Applied != cty.NilVal {
			appliedOutputs[name] = knownOutput(o.Applied, sensitive)
		}
	}
	out.PlannedValues.RootModule = moduleTree(planned)
	if len(prior) > 0 || len(priorOutputs) > 0 {
		out.PriorState = &jsonState{
			FormatVersion:    StateFormatVersion,
			TerraformVersion: OpenTofuVersion,
			Values:           jsonValues{Outputs: priorOutputs, RootModule: moduleTree(prior)},
		}
	}
	out.Applied = &jsonValues{Outputs: appliedOutputs, RootModule: moduleTree(applied)}
	out.Applyable = len(out.ResourceChanges) > 0 || len(out.OutputChanges) > 0
	if !p.Timestamp.IsZero() {
		out.Timestamp = p.Timestamp.UTC().Format(time.RFC3339)
	}
	if len(p.Notes) > 0 {
		out.Notes = p.Notes
	}
	out.Metadata = metadataJSON(p.Metadata)

	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

type jsonPlan struct {
	FormatVersion    string                    `json:"format_version"`
	TerraformVersion string                    `json:"terraform_version"`
	Variables        map[string]jsonVariable   `json:"variables,omitempty"`
	PlannedValues    jsonValues                `json:"planned_values"`
	ResourceChanges  []jsonResourceChange      `json:"resource_changes,omitempty"`
	OutputChanges    map[string]jsonChange     `json:"output_changes,omitempty"`
	PriorState       *jsonState                `json:"prior_state,omitempty"`
	Configuration    *configjson.Configuration `json:"configuration,omitempty"`
	Relevant         []configjson.ResourceAttr `json:"relevant_attributes,omitempty"`
	Timestamp        string                    `json:"timestamp,omitempty"`
	Applyable        bool                      `json:"applyable"`
	Complete         bool                      `json:"complete"`
	Errored          bool                      `json:"errored"`
	Applied          *jsonValues               `json:"applied_values"`
	Synthesized      []string                  `json:"synthesized_variables,omitempty"`
	Notes            []string                  `json:"notes,omitempty"`
	Metadata         map[string]any            `json:"__middleware_metadata__,omitempty"`
}

type jsonVariable struct {
	Value any `json:"value"`
}

type jsonState struct {
	FormatVersion    string     `json:"format_version"`
	TerraformVersion string     `json:"terraform_version"`
	Values           jsonValues `json:"values"`
}

type jsonValues struct {
	Outputs    map[string]jsonOutput `json:"outputs,omitempty"`
	RootModule *jsonModule           `json:"root_module"`
}

type jsonOutput struct {
	Sensitive bool `json:"sensitive"`
	Value     any  `json:"value,omitempty"`
	// Type is the value's type in cty's JSON form, when it is known.
	Type json.RawMessage `json:"type,omitempty"`
}

// knownOutput is an output whose value is wholly known.
func knownOutput(v cty.Value, sensitive bool) jsonOutput {
	o := jsonOutput{Sensitive: sensitive, Value: jsonValue(v)}
	v, _ = v.UnmarkDeep()
	if t, err := ctyjson.MarshalType(v.Type()); err == nil {
		o.Type = t
	}
	return o
}

type jsonModule struct {
	Address      string          `json:"address,omitempty"`
	Resources    []*jsonResource `json:"resources,omitempty"`
	ChildModules []*jsonModule   `json:"child_modules,omitempty"`
}

type jsonResource struct {
	Address         string `json:"address"`
	Mode            string `json:"mode"`
	Type            string `json:"type"`
	Name            string `json:"name"`
	Index           any    `json:"index,omitempty"`
	ProviderName    string `json:"provider_name"`
	SchemaVersion   int    `json:"schema_version"`
	Values          any    `json:"values"`
	SensitiveValues any    `json:"sensitive_values"`
	// Metadata is what middleware returned, by metadata_key.
	Metadata map[string]any `json:"__middleware_metadata__,omitempty"`

	module string
}

type jsonResourceChange struct {
	Address       string     `json:"address"`
	ModuleAddress string     `json:"module_address,omitempty"`
	Mode          string     `json:"mode"`
	Type          string     `json:"type"`
	Name          string     `json:"name"`
	Index         any        `json:"index,omitempty"`
	ProviderName  string     `json:"provider_name"`
	Change        jsonChange `json:"change"`
}

type jsonChange struct {
	Actions         []string `json:"actions"`
	Before          any      `json:"before"`
	After           any      `json:"after"`
	AfterUnknown    any      `json:"after_unknown"`
	BeforeSensitive any      `json:"before_sensitive"`
	AfterSensitive  any      `json:"after_sensitive"`
}

func modeName(m config.ResourceMode) string {
	if m == config.DataMode {
		return "data"
	}
	return "managed"
}

func (i *Instance) index() any {
	if i.Key == cty.NilVal {
		return nil
	}
	return jsonValue(i.Key)
}

func (i *Instance) jsonResource(v cty.Value, metadata map[string]cty.Value) *jsonResource {
	return &jsonResource{
		Metadata:        metadataJSON(metadata),
		Address:         i.Addr(),
		Mode:            modeName(i.Mode),
		Type:            i.Type,
		Name:            i.Name,
		Index:           i.index(),
		ProviderName:    i.ProviderName,
		Values:          jsonValue(v),
		SensitiveValues: sensitiveTree(v, false),
		module:          i.Module,
	}
}

func (i *Instance) jsonChange() jsonResourceChange {
	return jsonResourceChange{
		Address:       i.Addr(),
		ModuleAddress: i.Module,
		Mode:          modeName(i.Mode),
		Type:          i.Type,
		Name:          i.Name,
		Index:         i.index(),
		ProviderName:  i.ProviderName,
		Change: jsonChange{
			Actions:         []string{string(i.Action)},
			After:           jsonValue(i.Planned),
			AfterUnknown:    unknownTree(i.Planned, false),
			BeforeSensitive: false,
			AfterSensitive:  sensitiveTree(i.Planned, false),
		},
	}
}

// metadataJSON is middleware metadata as JSON values; nil for none.
func metadataJSON(md map[string]cty.Value) map[string]any {
	if len(md) == 0 {
		return nil
	}
	out := map[string]any{}
	for k, v := range md {
		out[k] = jsonValue(v)
	}
	return out
}

// moduleTree nests resources into their module instances, as
// planned_values does: child modules by address, each holding the
// resources declared in it.
func moduleTree(resources []*jsonResource) *jsonModule {
	root := &jsonModule{}
	mods := map[string]*jsonModule{"": root}
	var get func(addr string) *jsonModule
	get = func(addr string) *jsonModule {
		if m, ok := mods[addr]; ok {
			return m
		}
		m := &jsonModule{Address: addr}
		mods[addr] = m
		parent := get(parentModule(addr))
		parent.ChildModules = append(parent.ChildModules, m)
		return m
	}
	for _, r := range resources {
		m := get(r.module)
		m.Resources = append(m.Resources, r)
	}
	for _, m := range mods {
		slices.SortFunc(m.ChildModules, func(a, b *jsonModule) int { return strings.Compare(a.Address, b.Address) })
	}
	return root
}

// parentModule is the address of a module instance's parent:
// `module.a["x"].module.b` -> `module.a["x"]`.
func parentModule(addr string) string {
	// A for_each key may itself contain ".module."; keys are quoted, so
	// the split point is the last one outside quotes.
	inQuote := false
	last := -1
	for j := 0; j < len(addr); j++ {
		switch addr[j] {
		case '\\':
			j++
		case '"':
			inQuote = !inQuote
		case '.':
			if !inQuote && strings.HasPrefix(addr[j:], ".module.") {
				last = j
			}
		}
	}
	if last < 0 {
		return ""
	}
	return addr[:last]
}

// jsonValue is v as encoding/json writes it: unknown object attributes
// left out, unknown elements null, numbers exact, marks dropped.
func jsonValue(v cty.Value) any {
	v, _ = v.UnmarkDeep()
	if v == cty.NilVal || v.IsNull() || !v.IsKnown() {
		return nil
	}
	ty := v.Type()
	switch {
	case ty == cty.String:
		return v.AsString()
	case ty == cty.Number:
		return json.Number(NumberText(v))
	case ty == cty.Bool:
		return v.True()
	case ty.IsObjectType() || ty.IsMapType():
		m := map[string]any{}
		for k, e := range v.AsValueMap() {
			if !e.IsKnown() {
				continue
			}
			m[k] = jsonValue(e)
		}
		return m
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType():
		l := []any{}
		if v.LengthInt() > 0 {
			for _, e := range v.AsValueSlice() {
				l = append(l, jsonValue(e))
			}
		}
		return l
	}
	return nil
}

// unknownTree is after_unknown: true where v is unknown, a tree of the
// unknown parts of a collection, false when wholly known (top is what a
// wholly known top-level value gives: false for outputs, {} for
// resources).
func unknownTree(v cty.Value, output bool) any {
	v, _ = v.UnmarkDeep()
	t := unknownPart(v)
	if t == nil {
		if output {
			return false
		}
		return map[string]any{}
	}
	return t
}

func unknownPart(v cty.Value) any {
	return partTree(v, func(x cty.Value) bool { return !x.IsKnown() })
}

// sensitiveTree is after_sensitive / sensitive_values: true where v is
// marked sensitive, a tree of the sensitive parts of a collection.
func sensitiveTree(v cty.Value, output bool) any {
	t := sensitivePart(v)
	if t == nil {
		if output {
			return false
		}
		return map[string]any{}
	}
	return t
}

func sensitivePart(v cty.Value) any {
	return partTree(v, func(x cty.Value) bool { return x.HasMark(SensitiveMark) })
}

// partTree is the tree of the parts of v that is picks: true for a part
// picked whole; for a collection, an object of its picked attributes or a
// list with every element's tree (false for the unpicked); nil when no
// part is picked.
func partTree(v cty.Value, is func(cty.Value) bool) any {
	if is(v) {
		return true
	}
	v, _ = v.Unmark()
	if !v.IsKnown() || v.IsNull() {
		return nil
	}
	ty := v.Type()
	switch {
	case ty.IsObjectType() || ty.IsMapType():
		m := map[string]any{}
		for k, e := range v.AsValueMap() {
			if t := partTree(e, is); t != nil {
				m[k] = t
			}
		}
		if len(m) == 0 {
			return nil
		}
		return m
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType():
		if v.LengthInt() == 0 {
			return nil
		}
		l := []any{}
		found := false
		for _, e := range v.AsValueSlice() {
			t := partTree(e, is)
			if t == nil {
				t = false
			} else {
				found = true
			}
			l = append(l, t)
		}
		if !found {
			return nil
		}
		return l
	}
	return nil
}

// hasSensitive reports whether any part of v is marked sensitive.
func hasSensitive(v cty.Value) bool {
	if v == cty.NilVal {
		return false
	}
	_, pvm := v.UnmarkDeepWithPaths()
	for _, pm := range pvm {
		if _, ok := pm.Marks[SensitiveMark]; ok {
			return true
		}
	}
	return false
}
