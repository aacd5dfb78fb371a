package middleware

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/tofucue/tofucue/config"
)

// ProtocolVersion is the version of the middleware protocol that the
// initialize request announces.
const ProtocolVersion = "1.0"

// DefaultTimeout is how long a middleware has to answer one request when
// Options.Timeout is zero.
const DefaultTimeout = 30 * time.Second

// DefaultShutdownGrace is how long a middleware has to exit after its
// input is closed, and again after SIGTERM, when Options.ShutdownGrace is
// zero.
const DefaultShutdownGrace = 2 * time.Second

// Options say whether and how middleware runs.
type Options struct {
	// Enabled runs the declared middleware (--middleware). A module never
	// starts a process on its own: without Enabled or Only nothing runs.
	Enabled bool
	// Only runs just the middleware named here (--middleware-only NAME,
	// repeatable); it implies Enabled.
	Only []string
	// Timeout is how long a middleware has to answer one request,
	// initialize included; zero means DefaultTimeout. A middleware that
	// does not answer in time is stopped, and every later call to it
	// fails at once.
	Timeout time.Duration
	// ShutdownGrace is how long Close waits for a middleware to exit
	// after closing its input, and again after SIGTERM, before it kills
	// it; zero means DefaultShutdownGrace.
	ShutdownGrace time.Duration
	// Stderr receives the middleware's stderr, each line prefixed with
	// "[NAME] "; nil means os.Stderr.
	Stderr io.Writer
	// EvalContext evaluates the middleware blocks' command, args and env
	// (see FromModule).
	EvalContext *hcl.EvalContext
}

func (o *Options) enabled() bool { return o.Enabled || len(o.Only) > 0 }

// Chain is the running middleware of one command. Its hooks may be
// called from several goroutines at once.
type Chain struct {
	spec     *Spec
	opts     Options
	declared []string
	// running holds the started middleware by name; notRun says why each
	// declared one that is not running was not started.
	running map[string]*process
	notRun  map[string]string
	// launched holds the process ids of every middleware started, for
	// tests that check that none is left.
	launchMu sync.Mutex
	launched []int

	stopWatch func() bool
	closeOnce sync.Once
	closeErr  error
}

// The reasons a declared middleware is not run, as Note words them.
const (
	reasonDisabled   = "pass --middleware to run it"
	reasonNotOnly    = "not named by --middleware-only"
	reasonUnattached = "attached to nothing"
)

// Start reads the middleware that the module m declares and, when opts
// enables it, starts every one that is attached (in the terraform block or
// in a provider block) and selected (by Options.Only), in the module's
// directory, and does the initialize handshake with each. Only the
// arguments of those are evaluated. With middleware disabled it starts
// nothing and evaluates nothing: the Chain only lists what was declared.
//
// The returned Chain is never nil and must be closed. When Start reports
// an error, nothing is left running: the Chain's hooks then do nothing.
// When ctx ends, the chain closes itself (an interrupt stops every
// middleware).
func Start(ctx context.Context, m *config.Module, opts Options) (*Chain, hcl.Diagnostics) {
	only := map[string]bool{}
	for _, name := range opts.Only {
		only[name] = true
	}
	attached := map[string]bool{}
	var lists [][]config.Reference
	if m.Terraform != nil {
		lists = append(lists, m.Terraform.Middleware)
	}
	for _, p := range m.ProviderConfigs {
		lists = append(lists, p.Middleware)
	}
	for _, list := range lists {
		for _, ref := range list {
			if len(ref.Traversal) == 2 {
				if a, ok := ref.Traversal[1].(hcl.TraverseAttr); ok {
					attached[a.Name] = true
				}
			}
		}
	}
	s, diags := fromModule(m, opts.EvalContext, func(name string) bool {
		return opts.enabled() && attached[name] && (len(only) == 0 || only[name])
	})
	if diags.HasErrors() {
		c := newChain(s, opts)
		for _, name := range c.declared {
			c.notRun[name] = "its configuration has errors"
		}
		return c, diags
	}
	c, more := StartSpec(ctx, s, opts)
	return c, append(diags, more...)
}

func newChain(s *Spec, opts Options) *Chain {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.ShutdownGrace <= 0 {
		opts.ShutdownGrace = DefaultShutdownGrace
	}
	if opts.Stderr == nil {
		opts.Stderr = os.Stderr
	}
	if s.Providers == nil {
		s.Providers = map[string][]Attachment{}
	}
	return &Chain{
		spec:     s,
		opts:     opts,
		declared: s.names(),
		running:  map[string]*process{},
		notRun:   map[string]string{},
	}
}

// StartSpec is Start for middleware that is already described by a Spec.
func StartSpec(ctx context.Context, s *Spec, opts Options) (*Chain, hcl.Diagnostics) {
	c := newChain(s, opts)
	var diags hcl.Diagnostics

	attached := map[string]bool{}
	for _, a := range s.allAttachments() {
		attached[a.Name] = true
	}
	only := map[string]bool{}
	for _, name := range c.opts.Only {
		only[name] = true
		if !slices.Contains(c.declared, name) {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Unknown middleware",
				Detail:   fmt.Sprintf("--middleware-only names %q, but the module declares no middleware by that name%s.", name, declaredList(c.declared)),
			})
		}
	}

	var toStart []*Declaration
	for _, d := range s.Middleware {
		switch {
		case !c.opts.enabled():
			c.notRun[d.Name] = reasonDisabled
		case len(only) > 0 && !only[d.Name]:
			c.notRun[d.Name] = reasonNotOnly
		case !attached[d.Name]:
			c.notRun[d.Name] = reasonUnattached
		default:
			toStart = append(toStart, d)
		}
	}
	if diags.HasErrors() || len(toStart) == 0 {
		for _, d := range toStart {
			c.notRun[d.Name] = "the middleware options have errors"
		}
		return c, diags
	}

	out := &lineWriter{w: c.opts.Stderr}
	procs := make([]*process, len(toStart))
	errs := make([]hcl.Diagnostics, len(toStart))
	var wg sync.WaitGroup
	for i, d := range toStart {
		wg.Go(func() { procs[i], errs[i] = c.launch(ctx, d, s.Dir, out) })
	}
	wg.Wait()
	for i, d := range toStart {
		diags = append(diags, errs[i]...)
		if procs[i] != nil {
			c.running[d.Name] = procs[i]
		}
	}
	for _, d := range toStart {
		if _, ok := c.running[d.Name]; !ok {
			c.notRun[d.Name] = "it failed to start"
		}
	}
	if diags.HasErrors() {
		_ = c.Close()
		for name := range c.running {
			c.notRun[name] = "another middleware failed to start"
		}
		c.running = map[string]*process{}
		return c, diags
	}
	c.stopWatch = context.AfterFunc(ctx, func() { _ = c.close(interruptGrace) })
	return c, diags
}

// launch starts one middleware and does its handshake.
func (c *Chain) launch(ctx context.Context, d *Declaration, dir string, out *lineWriter) (*process, hcl.Diagnostics) {
	p, err := startProcess(d, dir, c.opts.Timeout, out)
	if err != nil {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Middleware failed to start",
			Detail:   fmt.Sprintf("Middleware %q could not be started: %s.", d.Name, err),
			Subject:  d.Range.Ptr(),
		}}
	}
	c.launchMu.Lock()
	c.launched = append(c.launched, p.pid)
	c.launchMu.Unlock()
	diags := p.initialize(ctx)
	if diags.HasErrors() {
		_ = p.stop(c.opts.ShutdownGrace)
		return nil, diags
	}
	return p, diags
}

// initialize does the handshake: the protocol version and the
// middleware's name go out; its capabilities, and whether it takes
// concurrent requests, come back.
func (p *process) initialize(ctx context.Context) hcl.Diagnostics {
	fail := func(format string, args ...any) hcl.Diagnostics {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Middleware failed to start",
			Detail:   fmt.Sprintf("Middleware %q failed its initialize handshake: %s.", p.decl.Name, fmt.Sprintf(format, args...)),
			Subject:  p.decl.Range.Ptr(),
		}}
	}
	raw, err := p.conn.call(ctx, "initialize", map[string]any{
		"version": ProtocolVersion,
		"name":    p.decl.Name,
	}, p.timeout)
	if err != nil {
		return fail("%s", err)
	}
	var res struct {
		Capabilities *[]string `json:"capabilities"`
		Concurrent   bool      `json:"concurrent"`
		Version      string    `json:"version"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return fail("its result must be an object with a list of capabilities (hook names), but it is %s", clip(raw))
	}
	if res.Capabilities == nil {
		return fail("its result has no capabilities: it must list the hooks it handles")
	}
	if res.Version != "" {
		major, _, _ := strings.Cut(res.Version, ".")
		want, _, _ := strings.Cut(ProtocolVersion, ".")
		if major != want {
			return fail("it speaks protocol version %s, and this tool speaks %s", res.Version, ProtocolVersion)
		}
	}
	p.caps = map[string]bool{}
	var unknown []string
	for _, hook := range *res.Capabilities {
		if !isHook(hook) {
			unknown = append(unknown, hook)
			continue
		}
		p.caps[hook] = true
	}
	var diags hcl.Diagnostics
	if len(unknown) > 0 {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  "Unknown middleware capabilities",
			Detail:   fmt.Sprintf("Middleware %q declares capabilities that are not hooks this tool calls: %s. They are ignored; the hooks are %s.", p.decl.Name, strings.Join(unknown, ", "), strings.Join(allHooks(), ", ")),
			Subject:  p.decl.Range.Ptr(),
		})
	}
	p.concurrent = res.Concurrent
	if !p.concurrent {
		p.conn.serialize()
	}
	return diags
}

func declaredList(names []string) string {
	if len(names) == 0 {
		return ""
	}
	return " (it declares " + strings.Join(names, ", ") + ")"
}

// allAttachments lists the project's attachments, then each provider's,
// by provider key.
func (s *Spec) allAttachments() []Attachment {
	out := slices.Clone(s.Project)
	for _, key := range slices.Sorted(maps.Keys(s.Providers)) {
		out = append(out, s.Providers[key]...)
	}
	return out
}

// Close shuts every middleware down (see Options.ShutdownGrace) and waits
// for them to exit; nothing it started is left running. Calls in flight
// fail. Close may be called more than once, and from any goroutine.
func (c *Chain) Close() error { return c.close(c.opts.ShutdownGrace) }

// interruptGrace is the shutdown grace when the command is interrupted:
// the command must end within a second (package interrupt).
const interruptGrace = 100 * time.Millisecond

func (c *Chain) close(grace time.Duration) error {
	c.closeOnce.Do(func() {
		if c.stopWatch != nil {
			c.stopWatch()
		}
		errs := make([]error, 0, len(c.running))
		var mu sync.Mutex
		var wg sync.WaitGroup
		for _, p := range c.running {
			wg.Go(func() {
				if err := p.stop(grace); err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		c.closeErr = errors.Join(errs...)
	})
	return c.closeErr
}

// Declared lists the names of the middleware the module declares, in the
// order they are written.
func (c *Chain) Declared() []string { return slices.Clone(c.declared) }

// Running lists the names of the middleware that were started, in the
// order they are declared.
func (c *Chain) Running() []string {
	var out []string
	for _, name := range c.declared {
		if _, ok := c.running[name]; ok {
			out = append(out, name)
		}
	}
	return out
}

// Note is a remark for the plan about declared middleware that was not
// run, and why; "" when every declared middleware runs.
func (c *Chain) Note() string {
	byReason := map[string][]string{}
	var reasons []string
	for _, name := range c.declared {
		r, ok := c.notRun[name]
		if !ok {
			continue
		}
		if _, seen := byReason[r]; !seen {
			reasons = append(reasons, r)
		}
		byReason[r] = append(byReason[r], name)
	}
	if len(reasons) == 0 {
		return ""
	}
	parts := make([]string, len(reasons))
	for i, r := range reasons {
		parts[i] = strings.Join(byReason[r], ", ") + " (" + r + ")"
	}
	return "Middleware declared and not run: " + strings.Join(parts, "; ") + "."
}
