package langserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/tofucue/tofucue/lint"
)

// client drives a server over a pipe as an editor does, and keeps the
// diagnostics last published for each URI.
type client struct {
	t    testing.TB
	conn *jsonrpc2.Conn
	done chan error // what Serve returned

	mu         sync.Mutex
	changed    chan struct{}
	latest     map[string][]protocol.Diagnostic
	published  map[string]int // how many times each URI was published
	registered []protocol.Registration
}

func startServer(t testing.TB, caps protocol.ClientCapabilities) *client {
	t.Helper()
	return startServerWith(t, caps, lintModule)
}

func startServerWith(t testing.TB, caps protocol.ClientCapabilities, run lintFunc) *client {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	serverSide, clientSide := net.Pipe()
	c := &client{t: t, done: make(chan error, 1), changed: make(chan struct{}, 1),
		latest: map[string][]protocol.Diagnostic{}, published: map[string]int{}}
	go func() { c.done <- serve(ctx, serverSide, Options{Version: "test"}, run) }()
	c.conn = jsonrpc2.NewConn(ctx, jsonrpc2.NewBufferedStream(clientSide, jsonrpc2.VSCodeObjectCodec{}),
		jsonrpc2.HandlerWithError(func(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
			c.mu.Lock()
			defer c.mu.Unlock()
			switch req.Method {
			case "textDocument/publishDiagnostics":
				var p protocol.PublishDiagnosticsParams
				// glsp's IntegerOrString cannot be decoded (its
				// UnmarshalJSON has a value receiver): read codes apart.
				var codes struct {
					Diagnostics []struct{ Code *string } `json:"diagnostics"`
				}
				if err := errors.Join(json.Unmarshal(*req.Params, &p), json.Unmarshal(*req.Params, &codes)); err != nil {
					t.Errorf("publishDiagnostics: %v", err)
				}
				for i, d := range codes.Diagnostics {
					if d.Code != nil {
						p.Diagnostics[i].Code = &protocol.IntegerOrString{Value: *d.Code}
					}
				}
				c.latest[p.URI] = p.Diagnostics
				c.published[p.URI]++
			case "client/registerCapability":
				var p protocol.RegistrationParams
				_ = json.Unmarshal(*req.Params, &p)
				c.registered = append(c.registered, p.Registrations...)
			}
			select {
			case c.changed <- struct{}{}:
			default:
			}
			return nil, nil
		}))
	t.Cleanup(func() {
		_ = c.conn.Close()
		cancel()
		select {
		case err := <-c.done:
			if err != nil && !errors.Is(err, ErrNoShutdown) {
				t.Errorf("Serve: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Error("the server did not stop")
		}
	})
	var res protocol.InitializeResult
	c.call("initialize", protocol.InitializeParams{Capabilities: caps}, &res)
	c.notify("initialized", struct{}{})
	return c
}

func (c *client) call(method string, params, result any) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := c.conn.Call(ctx, method, params, result); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

func (c *client) notify(method string, params any) {
	c.t.Helper()
	if err := c.conn.Notify(context.Background(), method, params); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

// until waits for the diagnostics published so far to satisfy ok.
func (c *client) until(what string, ok func(latest map[string][]protocol.Diagnostic) bool) {
	c.t.Helper()
	c.wait(what, func() bool { return ok(c.latest) })
}

// wait waits for ok, which is called with c.mu held, to hold.
func (c *client) wait(what string, ok func() bool) {
	c.t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		c.mu.Lock()
		done := ok()
		c.mu.Unlock()
		if done {
			return
		}
		select {
		case <-c.changed:
		case <-deadline:
			c.mu.Lock()
			got, _ := json.MarshalIndent(c.latest, "", "  ")
			c.mu.Unlock()
			c.t.Fatalf("waiting for %s; published:\n%s", what, got)
		}
	}
}

// codes returns the rule names (or "-" for a diagnostic without one) of
// diags.
func codes(diags []protocol.Diagnostic) []string {
	out := []string{}
	for i := range diags {
		code := "-"
		if d := &diags[i]; d.Code != nil {
			code, _ = d.Code.Value.(string)
		}
		out = append(out, code)
	}
	return out
}

func hasCodes(uri string, want ...string) func(map[string][]protocol.Diagnostic) bool {
	return func(latest map[string][]protocol.Diagnostic) bool {
		got, ok := latest[uri]
		return ok && slices.Equal(codes(got), append([]string{}, want...))
	}
}

func writeModule(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const mainTF = `variable "name" {
  type = string
}

output "greeting" {
  value = "${var.name}"
}
`

func open(c *client, path, text string) string {
	uri := uriOf(path)
	c.notify("textDocument/didOpen", protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: uri, LanguageID: "opentofu", Version: 1, Text: text,
	}})
	return uri
}

// TestDiagnosticsForTheModule: opening one file publishes the diagnostics
// of every file of its module, with the rule as code and a link to its
// documentation, in UTF-16 positions; a clean file gets an empty list.
func TestDiagnosticsForTheModule(t *testing.T) {
	dir := writeModule(t, map[string]string{
		"main.tf":      mainTF,
		"variables.tf": "variable \"unused\" {\n  type = string\n}\n",
		"clean.tf":     "locals {}\n",
	})
	c := startServer(t, protocol.ClientCapabilities{})
	uri := open(c, filepath.Join(dir, "main.tf"), mainTF)
	vars, clean := uriOf(filepath.Join(dir, "variables.tf")), uriOf(filepath.Join(dir, "clean.tf"))
	c.until("the module's diagnostics", func(l map[string][]protocol.Diagnostic) bool {
		return hasCodes(uri, "deprecated_interpolation")(l) && hasCodes(vars, "unused_declaration")(l) && hasCodes(clean)(l)
	})
	d := c.latest[uri][0]
	if d.Range.Start != (protocol.Position{Line: 5, Character: 10}) || d.Range.End != (protocol.Position{Line: 5, Character: 23}) {
		t.Errorf("range = %+v", d.Range)
	}
	if d.CodeDescription == nil || !strings.HasSuffix(d.CodeDescription.HRef, "rules/deprecated_interpolation.go") {
		t.Errorf("codeDescription = %+v", d.CodeDescription)
	}
	if d.Severity == nil || *d.Severity != protocol.DiagnosticSeverityWarning || d.Source == nil || *d.Source != "tofulint" {
		t.Errorf("severity, source = %v, %v", d.Severity, d.Source)
	}

	// Columns count UTF-16 code units: an emoji before the finding is two.
	edited := strings.Replace(mainTF, `value = "${var.name}"`, `value = ["😀", "${var.name}"]`, 1)
	c.notify("textDocument/didChange", protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: uri}, Version: 2},
		ContentChanges: []any{protocol.TextDocumentContentChangeEventWhole{Text: edited}},
	})
	c.until("the finding after the emoji", func(l map[string][]protocol.Diagnostic) bool {
		ds := l[uri]
		return len(ds) == 1 && ds[0].Range.Start == protocol.Position{Line: 5, Character: 17}
	})
}

// TestEditsAndCodeActions: incremental edits are applied to the buffer,
// which stands for the file on disk; a code action applies a finding's
// fix, another inserts an ignore comment.
func TestEditsAndCodeActions(t *testing.T) {
	dir := writeModule(t, map[string]string{"main.tf": mainTF})
	c := startServer(t, protocol.ClientCapabilities{})
	path := filepath.Join(dir, "main.tf")
	uri := open(c, path, mainTF)
	c.until("the finding", hasCodes(uri, "deprecated_interpolation"))

	doc := newDoc(uri, mainTF)
	actions := c.codeActions(uri, protocol.Position{Line: 5, Character: 12})
	if len(actions) != 2 || actions[0].IsPreferred == nil || !*actions[0].IsPreferred {
		t.Fatalf("actions = %+v", actions)
	}
	c.apply(doc, actions[0])
	if !strings.Contains(doc.text, "value = var.name\n") {
		t.Fatalf("after the fix:\n%s", doc.text)
	}
	c.until("no finding after the fix", hasCodes(uri))
	if disk, _ := os.ReadFile(path); string(disk) != mainTF {
		t.Errorf("the file on disk changed:\n%s", disk)
	}

	// An incremental edit brings the finding back; its ignore action
	// silences it.
	c.change(doc, protocol.Range{Start: protocol.Position{Line: 5, Character: 10}, End: protocol.Position{Line: 5, Character: 18}}, `"${var.name}"`)
	c.until("the finding again", hasCodes(uri, "deprecated_interpolation"))
	actions = c.codeActions(uri, protocol.Position{Line: 5, Character: 12})
	c.apply(doc, actions[1])
	if !strings.Contains(doc.text, "  # tofulint-ignore: deprecated_interpolation\n  value = \"${var.name}\"") {
		t.Fatalf("after the ignore:\n%s", doc.text)
	}
	c.until("no finding after the ignore", hasCodes(uri))

	// A syntax error is a diagnostic without a code at its place.
	c.change(doc, protocol.Range{Start: protocol.Position{Line: 0, Character: 0}, End: protocol.Position{Line: 0, Character: 0}}, "resource {\n")
	c.until("the syntax error", func(l map[string][]protocol.Diagnostic) bool {
		ds := l[uri]
		return len(ds) > 0 && ds[0].Code == nil && ds[0].Range.Start.Line == 0
	})

	// Closing the file clears its diagnostics.
	c.notify("textDocument/didClose", protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}})
	c.until("cleared diagnostics", hasCodes(uri))
}

// TestSupersededEdits: edits that arrive while a run is under way make
// one more run, of the last text, and the superseded run's diagnostics
// are never published.
func TestSupersededEdits(t *testing.T) {
	dir := writeModule(t, map[string]string{"main.tf": mainTF})
	release := make(chan struct{})
	var mu sync.Mutex
	var linted []string // the text of main.tf in each run
	var cancelled bool  // the first run's context was cancelled when released
	c := startServerWith(t, protocol.ClientCapabilities{}, func(dir string, snap map[string]document, opts lint.Options) map[string]*fileResult {
		mu.Lock()
		linted = append(linted, string(snap[filepath.Join(dir, "main.tf")].text))
		first := len(linted) == 1
		mu.Unlock()
		if first {
			<-release
			mu.Lock()
			cancelled = opts.Context.Err() != nil
			mu.Unlock()
		}
		return lintModule(dir, snap, opts)
	})
	path := filepath.Join(dir, "main.tf")
	uri := open(c, path, mainTF)
	doc := newDoc(uri, mainTF)
	// The first run holds the interpolation; the edits remove it.
	c.change(doc, protocol.Range{Start: protocol.Position{Line: 5, Character: 10}, End: protocol.Position{Line: 5, Character: 23}}, "var.name")
	for i := range 20 {
		c.change(doc, protocol.Range{Start: protocol.Position{Line: 6, Character: 1}, End: protocol.Position{Line: 6, Character: 1}}, fmt.Sprintf("\n# %d", i))
	}
	c.call("textDocument/codeAction", protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}}, &[]protocol.CodeAction{}) // every change is in
	close(release)
	c.until("the diagnostics of the last edit", hasCodes(uri))
	c.mu.Lock()
	n := c.published[uri]
	c.mu.Unlock()
	mu.Lock()
	defer mu.Unlock()
	if len(linted) != 2 || linted[1] != doc.text {
		t.Errorf("%d runs (want 2), the last of:\n%s\nwant:\n%s", len(linted), linted[len(linted)-1], doc.text)
	}
	if n != 1 {
		t.Errorf("main.tf published %d times, want once: the superseded run's finding was published", n)
	}
	if !cancelled {
		t.Error("the superseded run's context was not cancelled")
	}
}

// TestStaleCodeActions: a document edited after its diagnostics were
// computed is offered no action whose ranges would be stale.
func TestStaleCodeActions(t *testing.T) {
	dir := writeModule(t, map[string]string{"main.tf": mainTF})
	s := &server{docs: map[string]*document{}, modules: map[string]*module{}}
	path := filepath.Join(dir, "main.tf")
	s.docs[path] = &document{uri: uriOf(path), version: 3, text: []byte(mainTF)}
	v := protocol.Integer(2)
	s.modules[dir] = &module{files: map[string]*fileResult{path: {uri: uriOf(path), version: &v, items: []item{{
		diag:    protocol.Diagnostic{Range: protocol.Range{End: protocol.Position{Line: 9}}},
		actions: []protocol.CodeAction{{Title: "x"}},
	}}}}}
	p := &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uriOf(path)}}
	if got := s.codeAction(p); len(got) != 0 {
		t.Errorf("stale actions offered: %+v", got)
	}
	v = 3
	if got := s.codeAction(p); len(got) != 1 {
		t.Errorf("current actions not offered: %+v", got)
	}
	p.Context.Only = []protocol.CodeActionKind{protocol.CodeActionKindRefactor}
	if got := s.codeAction(p); len(got) != 0 {
		t.Errorf("actions of another kind offered: %+v", got)
	}
}

// TestWatchedFiles: the server registers watchers with a client that can,
// and a changed configuration file relints the open modules below it.
func TestWatchedFiles(t *testing.T) {
	dir := writeModule(t, map[string]string{"main.tf": mainTF})
	var caps protocol.ClientCapabilities
	if err := json.Unmarshal([]byte(`{"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": true}}}`), &caps); err != nil {
		t.Fatal(err)
	}
	c := startServer(t, caps)
	uri := open(c, filepath.Join(dir, "main.tf"), mainTF)
	c.until("the finding", hasCodes(uri, "deprecated_interpolation"))
	c.wait("the watchers' registration", func() bool { return len(c.registered) > 0 })
	if len(c.registered) != 1 || c.registered[0].Method != "workspace/didChangeWatchedFiles" {
		t.Errorf("registered %+v", c.registered)
	}

	cfg := filepath.Join(dir, ".tofulint.hcl")
	if err := os.WriteFile(cfg, []byte("rule \"deprecated_interpolation\" {\n  enabled = false\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.notify("workspace/didChangeWatchedFiles", protocol.DidChangeWatchedFilesParams{Changes: []protocol.FileEvent{{URI: uriOf(cfg), Type: protocol.FileChangeTypeCreated}}})
	c.until("the rule disabled", hasCodes(uri))

	// A configuration file with an error is reported on the open
	// documents, and on itself.
	if err := os.WriteFile(cfg, []byte("rule \"no_such_rule\" {\n  enabled = true\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.notify("workspace/didChangeWatchedFiles", protocol.DidChangeWatchedFilesParams{Changes: []protocol.FileEvent{{URI: uriOf(cfg), Type: protocol.FileChangeTypeChanged}}})
	c.until("the configuration error", func(l map[string][]protocol.Diagnostic) bool {
		ds, own := l[uri], l[uriOf(cfg)]
		return len(ds) == 1 && strings.HasPrefix(ds[0].Message, "Configuration: ") && len(own) == 1 && own[0].Range.Start.Line == 0
	})
}

// TestLifecycle: requests before initialize are refused; exit after
// shutdown ends Serve with nil, exit alone with ErrNoShutdown.
func TestLifecycle(t *testing.T) {
	for _, shutdown := range []bool{true, false} {
		serverSide, clientSide := net.Pipe()
		done := make(chan error, 1)
		go func() { done <- Serve(context.Background(), serverSide, Options{}) }()
		conn := jsonrpc2.NewConn(context.Background(), jsonrpc2.NewBufferedStream(clientSide, jsonrpc2.VSCodeObjectCodec{}), jsonrpc2.HandlerWithError(func(context.Context, *jsonrpc2.Conn, *jsonrpc2.Request) (any, error) { return nil, nil }))
		var res any
		err := conn.Call(context.Background(), "textDocument/codeAction", struct{}{}, &res)
		var rpcErr *jsonrpc2.Error
		if !errors.As(err, &rpcErr) || rpcErr.Code != errServerNotInitialized {
			t.Errorf("before initialize: %v", err)
		}
		var init protocol.InitializeResult
		if err := conn.Call(context.Background(), "initialize", protocol.InitializeParams{}, &init); err != nil {
			t.Fatal(err)
		}
		if init.ServerInfo == nil || init.ServerInfo.Name != "tofulint" {
			t.Errorf("serverInfo = %+v", init.ServerInfo)
		}
		if shutdown {
			if err := conn.Call(context.Background(), "shutdown", nil, &res); err != nil {
				t.Fatal(err)
			}
		}
		_ = conn.Notify(context.Background(), "exit", nil)
		select {
		case err := <-done:
			if shutdown && err != nil || !shutdown && !errors.Is(err, ErrNoShutdown) {
				t.Errorf("shutdown=%v: Serve returned %v", shutdown, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("shutdown=%v: Serve did not return after exit", shutdown)
		}
		conn.Close()
	}
}

// doc is the client's copy of a document.
type doc struct {
	uri     string
	text    string
	version protocol.Integer
}

func newDoc(uri, text string) *doc { return &doc{uri: uri, text: text, version: 1} }

func (c *client) codeActions(uri string, at protocol.Position) []protocol.CodeAction {
	c.t.Helper()
	var actions []protocol.CodeAction
	c.call("textDocument/codeAction", protocol.CodeActionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: uri},
		Range:        protocol.Range{Start: at, End: at},
	}, &actions)
	return actions
}

// change sends an incremental change and applies it to the client's copy.
func (c *client) change(d *doc, r protocol.Range, repl string) {
	c.t.Helper()
	t := newText([]byte(d.text))
	d.text = d.text[:t.offset(r.Start)] + repl + d.text[t.offset(r.End):]
	d.version++
	c.notify("textDocument/didChange", protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: d.uri}, Version: d.version},
		ContentChanges: []any{protocol.TextDocumentContentChangeEvent{Range: &r, Text: repl}},
	})
}

// apply applies a code action's edits to the client's copy, last first as
// editors do, and sends them as incremental changes.
func (c *client) apply(d *doc, a protocol.CodeAction) {
	c.t.Helper()
	edits := slices.Clone(a.Edit.Changes[d.uri])
	if len(edits) == 0 {
		c.t.Fatalf("action %q edits nothing in %s", a.Title, d.uri)
	}
	slices.SortFunc(edits, func(x, y protocol.TextEdit) int {
		if before(x.Range.Start, y.Range.Start) {
			return 1
		}
		return -1
	})
	for _, e := range edits {
		c.change(d, e.Range, e.NewText)
	}
}
