package middleware

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/tofucue/tofucue/config"
)

// The resource-level hooks, called for each resource instance.
const (
	PrePlan     = "pre-plan"
	PostPlan    = "post-plan"
	PreApply    = "pre-apply"
	PostApply   = "post-apply"
	PreRefresh  = "pre-refresh"
	PostRefresh = "post-refresh"
)

// The operation-level hooks, called once per stage.
const (
	InitStageStart     = "init-stage-start"
	InitStageComplete  = "init-stage-complete"
	PlanStageStart     = "plan-stage-start"
	PlanStageComplete  = "plan-stage-complete"
	ApplyStageStart    = "apply-stage-start"
	ApplyStageComplete = "apply-stage-complete"
)

var (
	resourceHooks = []string{PrePlan, PostPlan, PreApply, PostApply, PreRefresh, PostRefresh}
	stageHooks    = []string{InitStageStart, InitStageComplete, PlanStageStart, PlanStageComplete, ApplyStageStart, ApplyStageComplete}
)

func isHook(h string) bool {
	return slices.Contains(resourceHooks, h) || slices.Contains(stageHooks, h)
}

func allHooks() []string { return slices.Concat(resourceHooks, stageHooks) }

// isPre tells the hooks in which the first fail stops the chain.
func isPre(hook string) bool {
	return strings.HasPrefix(hook, "pre-") || strings.HasSuffix(hook, "-start")
}

// Resource is what a resource-level hook is told about one resource
// instance.
type Resource struct {
	// Provider is the provider's address, as a plan writes it:
	// registry.opentofu.org/hashicorp/aws.
	Provider string
	Type     string
	Name     string
	// Mode is "managed", "data" or "ephemeral" (see [Mode]); "" means
	// managed.
	Mode string
	// Address is the instance's absolute address: module.net.aws_subnet.a["x"].
	Address string
	// Action is the planned action, in a plan's words ("create", "read",
	// "no-op", ...) or the RFC's ("Create"); it is sent in the RFC's.
	Action string
	// Before is the prior value, After the planned (or applied) one,
	// Config the configuration; cty.NilVal or a null for none. Sensitive
	// marks are honored.
	Before, After, Config cty.Value
}

// Mode names a resource mode as Resource.Mode wants it.
func Mode(m config.ResourceMode) string {
	switch m {
	case config.DataMode:
		return "data"
	case config.EphemeralMode:
		return "ephemeral"
	}
	return "managed"
}

// rfcActions maps a plan's action words to the RFC's.
var rfcActions = map[string]string{
	"create": "Create",
	"read":   "Read",
	"no-op":  "NoOp",
	"update": "Update",
	"delete": "Delete",
	"forget": "Forget",
}

func rfcAction(a string) string {
	if r, ok := rfcActions[a]; ok {
		return r
	}
	return a
}

// resourceParams are the parameters of a resource-level hook: the RFC's,
// with the instance's address and OpenTofu's plan JSON companions telling
// which parts of the values are sensitive or unknown.
type resourceParams struct {
	Provider        string `json:"provider"`
	ResourceType    string `json:"resource_type"`
	ResourceName    string `json:"resource_name"`
	ResourceMode    string `json:"resource_mode"`
	ResourceAddress string `json:"resource_address,omitempty"`
	PlannedAction   string `json:"planned_action,omitempty"`
	AppliedAction   string `json:"applied_action,omitempty"`
	Before          any    `json:"before"`
	After           any    `json:"after"`
	Config          any    `json:"config"`
	BeforeSensitive any    `json:"before_sensitive,omitempty"`
	AfterSensitive  any    `json:"after_sensitive,omitempty"`
	ConfigSensitive any    `json:"config_sensitive,omitempty"`
	BeforeUnknown   any    `json:"before_unknown,omitempty"`
	AfterUnknown    any    `json:"after_unknown,omitempty"`
	ConfigUnknown   any    `json:"config_unknown,omitempty"`
}

// params encodes r for a hook. A path that is sensitive in any of before,
// after and config is sensitive in all three: a value that becomes
// sensitive in after is redacted in before too.
func (r *Resource) params(hook string, redact bool) *resourceParams {
	sens := sensitivePaths{}
	sens.add(r.Before)
	sens.add(r.After)
	sens.add(r.Config)
	e := &encoder{sens: sens, redact: redact}
	before, after, cfg := e.encode(r.Before), e.encode(r.After), e.encode(r.Config)
	p := &resourceParams{
		Provider:        r.Provider,
		ResourceType:    r.Type,
		ResourceName:    r.Name,
		ResourceMode:    r.mode(),
		ResourceAddress: r.Address,
		PlannedAction:   rfcAction(r.Action),
		Before:          before.value,
		After:           after.value,
		Config:          cfg.value,
		BeforeSensitive: before.sensitive,
		AfterSensitive:  after.sensitive,
		ConfigSensitive: cfg.sensitive,
		BeforeUnknown:   before.unknown,
		AfterUnknown:    after.unknown,
		ConfigUnknown:   cfg.unknown,
	}
	if hook == PostApply {
		p.AppliedAction = p.PlannedAction
	}
	return p
}

func (r *Resource) mode() string {
	if r.Mode == "" {
		return "managed"
	}
	return r.Mode
}

func (r *Resource) address() string {
	if r.Address != "" {
		return r.Address
	}
	if r.mode() == "managed" {
		return r.Type + "." + r.Name
	}
	return r.mode() + "." + r.Type + "." + r.Name
}

// hookResult is a middleware's answer to a hook.
type hookResult struct {
	Status   *string         `json:"status"`
	Message  string          `json:"message"`
	Metadata json.RawMessage `json:"metadata"`
}

// ResourceHook runs a resource-level hook (pre-plan, post-plan, pre-apply,
// post-apply, pre-refresh, post-refresh) for one resource instance whose
// provider configuration is providerKey ("aws", "aws.west"; the root
// module's). The project-level middleware run first, then the provider's,
// each in list order; a middleware attached twice runs twice; one that did
// not declare the hook among its capabilities is skipped. In a pre-hook
// the first fail (or failure to answer) stops the chain; in a post-hook
// every middleware runs. Every fail is an error diagnostic with the
// middleware's message.
//
// The metadata that the middleware return is keyed by their
// metadata_key; a later middleware with the same key overwrites an
// earlier one. Each value is an object of the middleware's metadata
// fields with "middleware", "action" (the hook), "resource", the action
// ("planned_action", or "applied_action" in post-apply) and, when there
// is one, the "message" added.
func (c *Chain) ResourceHook(ctx context.Context, hook, providerKey string, r Resource) (map[string]cty.Value, hcl.Diagnostics) {
	if !slices.Contains(resourceHooks, hook) {
		return nil, hcl.Diagnostics{unknownHook(hook, resourceHooks)}
	}
	var procs []*process
	for _, list := range [][]Attachment{c.spec.Project, c.spec.Providers[providerKey]} {
		for _, a := range list {
			if p := c.running[a.Name]; p != nil && p.caps[hook] {
				procs = append(procs, p)
			}
		}
	}
	if len(procs) == 0 {
		return nil, nil
	}
	var params [2]*resourceParams // by redact
	addr := r.address()
	actionKey := "planned_action"
	if hook == PostApply {
		actionKey = "applied_action"
	}
	envelope := []envelopeField{
		{"resource", cty.ObjectVal(map[string]cty.Value{
			"type":     cty.StringVal(r.Type),
			"name":     cty.StringVal(r.Name),
			"provider": cty.StringVal(r.Provider),
			"mode":     cty.StringVal(r.mode()),
			"address":  cty.StringVal(addr),
		})},
		{actionKey, cty.StringVal(rfcAction(r.Action))},
	}
	return c.run(ctx, hook, "for "+addr, procs, envelope, func(redact bool) any {
		i := 0
		if redact {
			i = 1
		}
		if params[i] == nil {
			params[i] = r.params(hook, redact)
		}
		return params[i]
	})
}

// StageHook runs an operation-level hook (plan-stage-start,
// plan-stage-complete, apply-stage-start, apply-stage-complete, and the
// RFC's init-stage-start and init-stage-complete) in every running
// middleware that declared it, each once: those attached to the project
// first, in list order, then those attached to providers, by provider key.
// A -start hook stops at the first fail, a -complete hook runs them all.
//
// params are sent as the hook's parameters. Within them, cty.Value,
// Resource and []Resource values are encoded as in resource hooks,
// sensitive parts redacted for middleware without send_sensitive; maps
// and slices of them are walked; anything else goes to encoding/json.
// The metadata returned is keyed as ResourceHook's, without "resource".
func (c *Chain) StageHook(ctx context.Context, hook string, params map[string]any) (map[string]cty.Value, hcl.Diagnostics) {
	if !slices.Contains(stageHooks, hook) {
		return nil, hcl.Diagnostics{unknownHook(hook, stageHooks)}
	}
	var procs []*process
	seen := map[string]bool{}
	for _, a := range c.spec.allAttachments() {
		if p := c.running[a.Name]; p != nil && p.caps[hook] && !seen[a.Name] {
			seen[a.Name] = true
			procs = append(procs, p)
		}
	}
	if len(procs) == 0 {
		return nil, nil
	}
	var enc [2]any
	var done [2]bool
	return c.run(ctx, hook, "", procs, nil, func(redact bool) any {
		i := 0
		if redact {
			i = 1
		}
		if !done[i] {
			if params == nil {
				params = map[string]any{}
			}
			enc[i] = encodeParams(params, hook, redact)
			done[i] = true
		}
		return enc[i]
	})
}

// encodeParams walks a stage hook's parameters, encoding what it knows.
func encodeParams(v any, hook string, redact bool) any {
	switch v := v.(type) {
	case cty.Value:
		sens := sensitivePaths{}
		sens.add(v)
		return (&encoder{sens: sens, redact: redact}).encode(v).value
	case Resource:
		return v.params(hook, redact)
	case *Resource:
		return v.params(hook, redact)
	case []Resource:
		out := make([]any, len(v))
		for i := range v {
			out[i] = v[i].params(hook, redact)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = encodeParams(e, hook, redact)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = encodeParams(e, hook, redact)
		}
		return out
	}
	return v
}

type envelopeField struct {
	name  string
	value cty.Value
}

// run calls hook in each of procs in turn. what names the subject for
// messages ("for aws_instance.a", or "" for a stage); envelope are the
// fields added to each metadata record; params gives the parameters for
// a middleware with or without redaction.
func (c *Chain) run(ctx context.Context, hook, what string, procs []*process, envelope []envelopeField, params func(redact bool) any) (map[string]cty.Value, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	var meta map[string]cty.Value
	for _, p := range procs {
		raw, err := p.conn.call(ctx, hook, params(!p.decl.SendSensitive), p.timeout)
		var res hookResult
		if err == nil {
			err = decodeResult(raw, &res)
		}
		if err != nil {
			diags = append(diags, callError(p, hook, what, err))
			if isPre(hook) {
				break
			}
			continue
		}
		if len(res.Metadata) > 0 && string(res.Metadata) != "null" {
			rec, ds := record(p, hook, what, &res, envelope)
			diags = append(diags, ds...)
			if rec != cty.NilVal {
				if meta == nil {
					meta = map[string]cty.Value{}
				}
				meta[p.decl.MetadataKey] = rec
			}
		}
		if *res.Status == "fail" {
			msg := res.Message
			if msg == "" {
				msg = "(the middleware gave no message)"
			}
			if what != "" {
				msg = strings.TrimPrefix(what, "for ") + ": " + msg
			}
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  fmt.Sprintf("Middleware %q failed %s", p.decl.Name, hook),
				Detail:   msg,
				Subject:  p.decl.Range.Ptr(),
			})
			if isPre(hook) {
				break
			}
		}
	}
	return meta, diags
}

// decodeResult reads a hook's result: an object with a status of
// "success" (or "pass") or "fail", an optional message and optional
// metadata.
func decodeResult(raw json.RawMessage, res *hookResult) error {
	if err := json.Unmarshal(raw, res); err != nil {
		return fmt.Errorf("its result must be an object with a status, but it is %s", clip(raw))
	}
	if res.Status == nil {
		return fmt.Errorf(`its result has no status (it must be "success" or "fail"): %s`, clip(raw))
	}
	switch *res.Status {
	case "success", "pass":
		*res.Status = "success"
	case "fail":
	default:
		return fmt.Errorf(`its result has status %q; it must be "success" or "fail"`, *res.Status)
	}
	return nil
}

// record makes the metadata record of one answer.
func record(p *process, hook, what string, res *hookResult, envelope []envelopeField) (cty.Value, hcl.Diagnostics) {
	ty, err := ctyjson.ImpliedType(res.Metadata)
	var v cty.Value
	if err == nil {
		v, err = ctyjson.Unmarshal(res.Metadata, ty)
	}
	if err != nil || !v.Type().IsObjectType() {
		return cty.NilVal, hcl.Diagnostics{callError(p, hook, what, fmt.Errorf("its metadata must be a JSON object, but it is %s", clip(res.Metadata)))}
	}
	attrs := v.AsValueMap()
	if attrs == nil {
		attrs = map[string]cty.Value{}
	}
	fields := append([]envelopeField{
		{"middleware", cty.StringVal(p.decl.Name)},
		{"action", cty.StringVal(hook)},
	}, envelope...)
	if res.Message != "" {
		fields = append(fields, envelopeField{"message", cty.StringVal(res.Message)})
	}
	var diags hcl.Diagnostics
	for _, f := range fields {
		if _, clash := attrs[f.name]; clash {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagWarning,
				Summary:  "Middleware metadata field replaced",
				Detail:   fmt.Sprintf("Middleware %q returned a metadata field %q %s; that name is reserved for what the tool records, so the middleware's value is dropped.", p.decl.Name, f.name, strings.TrimSpace(hook+" "+what)),
				Subject:  p.decl.Range.Ptr(),
			})
		}
		attrs[f.name] = f.value
	}
	return cty.ObjectVal(attrs), diags
}

// callError is the diagnostic for a hook that could not run.
func callError(p *process, hook, what string, err error) *hcl.Diagnostic {
	reason := err.Error()
	switch {
	case errors.Is(err, context.Canceled):
		reason = "the operation was interrupted"
	case errors.Is(err, context.DeadlineExceeded):
		reason = "the operation ran out of time"
	}
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  fmt.Sprintf("Middleware %q error", p.decl.Name),
		Detail:   fmt.Sprintf("Middleware %q could not run %s: %s.", p.decl.Name, strings.TrimSpace(hook+" "+what), strings.TrimSuffix(reason, ".")),
		Subject:  p.decl.Range.Ptr(),
	}
}

func unknownHook(hook string, valid []string) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Unknown middleware hook",
		Detail:   fmt.Sprintf("There is no hook %q here; the hooks are %s.", hook, strings.Join(valid, ", ")),
	}
}
