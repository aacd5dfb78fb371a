package langserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/sourcegraph/jsonrpc2"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/lint"
	"github.com/tofucue/tofucue/rules"
)

// Options configure a server.
type Options struct {
	// Lint is the base of every lint run: the command line's rule
	// overrides and --config file. The server sets its Overlay and Jobs.
	Lint lint.Options
	// Version is the server's version, given to the client.
	Version string
}

// ErrNoShutdown is what Serve returns when the client sent exit without
// shutdown first: the protocol says the server then exits with status 1.
var ErrNoShutdown = errors.New("the client sent exit without shutdown")

// Serve runs a language server over rwc until the client sends exit, the
// connection closes or ctx is done. It returns nil after a shutdown
// request, ErrNoShutdown otherwise.
func Serve(ctx context.Context, rwc io.ReadWriteCloser, opts Options) error {
	return serve(ctx, rwc, opts, lintModule)
}

// lintFunc lints a module with open documents over its files; tests
// replace lintModule to see and pace the runs.
type lintFunc func(dir string, snap map[string]document, opts lint.Options) map[string]*fileResult

func serve(ctx context.Context, rwc io.ReadWriteCloser, opts Options, run lintFunc) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s := &server{
		opts: opts, ctx: ctx, lint: run,
		docs: map[string]*document{}, modules: map[string]*module{},
		wake: make(chan struct{}, 1),
	}
	s.conn = jsonrpc2.NewConn(ctx, jsonrpc2.NewBufferedStream(rwc, jsonrpc2.VSCodeObjectCodec{}), jsonrpc2.HandlerWithError(s.handle))
	published := make(chan struct{})
	go func() {
		defer close(published)
		s.publisher()
	}()
	select {
	case <-s.conn.DisconnectNotify():
	case <-ctx.Done():
		_ = s.conn.Close()
	}
	cancel()
	s.runs.Wait()
	<-published
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.shutdown {
		return ErrNoShutdown
	}
	return nil
}

// server is the state of one connection. Its handler runs one message at
// a time, in the order they arrive (jsonrpc2 does not call it
// concurrently), so documents change in the client's order; lint runs go
// on in their own goroutines, one at a time per module, and hand what
// they find to the publisher through an ordered outbox.
type server struct {
	opts Options
	ctx  context.Context
	conn *jsonrpc2.Conn
	lint lintFunc

	mu          sync.Mutex
	initialized bool
	shutdown    bool
	watch       bool                 // the client registers file watchers
	docs        map[string]*document // open documents, by path
	modules     map[string]*module   // by directory
	outbox      []protocol.PublishDiagnosticsParams
	wake        chan struct{} // the outbox has something
	runs        sync.WaitGroup
}

// document is an open text document: the client's buffer, which stands
// for the file on disk while it is open.
type document struct {
	uri     string
	version protocol.Integer
	text    []byte
}

// module is what the server knows of a module directory that has an open
// document or has published diagnostics.
type module struct {
	running bool   // a lint run is under way
	again   bool   // something changed since it started: run again
	cancel  func() // cancels the run under way
	// files is what was last published, by path: every file of the
	// module, and any other file a diagnostic was about.
	files map[string]*fileResult
}

// fileResult is one file's diagnostics as published, with the code
// actions that go with them.
type fileResult struct {
	uri     string
	version *protocol.Integer // the document's version linted; nil when read from disk
	items   []item
	sent    []byte // the diagnostics as sent, to publish only changes
}

// item is one diagnostic and what the client can do about it.
type item struct {
	diag    protocol.Diagnostic
	actions []protocol.CodeAction
}

const (
	errServerNotInitialized = -32002
	errRequestCancelled     = -32800
)

func (s *server) handle(_ context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
	var params json.RawMessage
	if req.Params != nil {
		params = *req.Params
	}
	s.mu.Lock()
	initialized, shutdown := s.initialized, s.shutdown
	s.mu.Unlock()
	switch {
	case req.Method == "exit":
		_ = conn.Close()
		return nil, nil
	case !initialized && req.Method != "initialize":
		if req.Notif {
			return nil, nil // dropped, as the protocol says
		}
		return nil, &jsonrpc2.Error{Code: errServerNotInitialized, Message: "the server is not initialized"}
	case shutdown && !req.Notif:
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidRequest, Message: "the server is shutting down"}
	}
	switch req.Method {
	case "initialize":
		return decode(params, func(p *protocol.InitializeParams) (any, error) { return s.initialize(p), nil })
	case "initialized":
		s.registerWatchers(conn)
		return nil, nil
	case "shutdown":
		s.mu.Lock()
		s.shutdown = true
		s.mu.Unlock()
		return nil, nil
	case "textDocument/didOpen":
		return decode(params, func(p *protocol.DidOpenTextDocumentParams) (any, error) { s.didOpen(p); return nil, nil })
	case "textDocument/didChange":
		return decode(params, func(p *protocol.DidChangeTextDocumentParams) (any, error) { return nil, s.didChange(p) })
	case "textDocument/didSave":
		return decode(params, func(p *protocol.DidSaveTextDocumentParams) (any, error) {
			if path, ok := pathOf(p.TextDocument.URI); ok {
				s.changed(path)
			}
			return nil, nil
		})
	case "textDocument/didClose":
		return decode(params, func(p *protocol.DidCloseTextDocumentParams) (any, error) { s.didClose(p); return nil, nil })
	case "workspace/didChangeWatchedFiles":
		return decode(params, func(p *protocol.DidChangeWatchedFilesParams) (any, error) {
			s.didChangeWatchedFiles(p)
			return nil, nil
		})
	case "textDocument/codeAction":
		return decode(params, func(p *protocol.CodeActionParams) (any, error) { return s.codeAction(p), nil })
	}
	if req.Notif {
		return nil, nil // $/cancelRequest, $/setTrace, ...: nothing to do
	}
	return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "method not supported: " + req.Method}
}

// decode reads a message's parameters as P and handles them with f; bad
// parameters are the protocol's InvalidParams error.
func decode[P any](params json.RawMessage, f func(*P) (any, error)) (any, error) {
	var p P
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: err.Error()}
	}
	return f(&p)
}

func (s *server) initialize(p *protocol.InitializeParams) *protocol.InitializeResult {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.initialized = true
	if ws := p.Capabilities.Workspace; ws != nil && ws.DidChangeWatchedFiles != nil && ws.DidChangeWatchedFiles.DynamicRegistration != nil {
		s.watch = *ws.DidChangeWatchedFiles.DynamicRegistration
	}
	yes, no := true, false
	change := protocol.TextDocumentSyncKindIncremental
	version := s.opts.Version
	return &protocol.InitializeResult{
		Capabilities: protocol.ServerCapabilities{
			TextDocumentSync: protocol.TextDocumentSyncOptions{
				OpenClose: &yes, Change: &change,
				Save: protocol.SaveOptions{IncludeText: &no},
			},
			CodeActionProvider: protocol.CodeActionOptions{CodeActionKinds: []protocol.CodeActionKind{protocol.CodeActionKindQuickFix}},
		},
		ServerInfo: &protocol.InitializeResultServerInfo{Name: "tofulint", Version: &version},
	}
}

// watchedGlobs are the files whose changes on disk the server hears of
// from a client that watches files for it.
var watchedGlobs = []string{
	"**/*.{tf,tofu,tf.json,tofu.json}",
	"**/" + rules.ConfigFileName,
	"**/" + rules.TFLintConfigFileName,
}

// registerWatchers asks the client to report changes to the module and
// configuration files. The request goes out from its own goroutine: the
// handler must not wait for the client's answer, which arrives through
// the handler's own read loop.
func (s *server) registerWatchers(conn *jsonrpc2.Conn) {
	s.mu.Lock()
	watch := s.watch
	s.mu.Unlock()
	if !watch {
		return
	}
	var watchers []protocol.FileSystemWatcher
	for _, g := range watchedGlobs {
		watchers = append(watchers, protocol.FileSystemWatcher{GlobPattern: g})
	}
	params := protocol.RegistrationParams{Registrations: []protocol.Registration{{
		ID: "tofulint-watched-files", Method: "workspace/didChangeWatchedFiles",
		RegisterOptions: protocol.DidChangeWatchedFilesRegistrationOptions{Watchers: watchers},
	}}}
	s.runs.Go(func() { _ = conn.Call(s.ctx, "client/registerCapability", params, nil) })
}

func (s *server) didOpen(p *protocol.DidOpenTextDocumentParams) {
	path, ok := pathOf(p.TextDocument.URI)
	if !ok || !config.IsConfigFile(path) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.docs[path] = &document{uri: p.TextDocument.URI, version: p.TextDocument.Version, text: []byte(p.TextDocument.Text)}
	s.schedule(filepath.Dir(path))
}

func (s *server) didChange(p *protocol.DidChangeTextDocumentParams) error {
	path, ok := pathOf(p.TextDocument.URI)
	if !ok {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.docs[path]
	if d == nil {
		return nil // not ours: not a configuration file
	}
	for _, c := range p.ContentChanges {
		text, err := applyChange(d.text, c)
		if err != nil {
			return &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: fmt.Sprintf("%s: %v", p.TextDocument.URI, err)}
		}
		d.text = text
	}
	d.version = p.TextDocument.Version
	s.schedule(filepath.Dir(path))
	return nil
}

func (s *server) didClose(p *protocol.DidCloseTextDocumentParams) {
	path, ok := pathOf(p.TextDocument.URI)
	if !ok {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.docs[path] == nil {
		return
	}
	delete(s.docs, path)
	dir := filepath.Dir(path)
	if s.hasOpen(dir) {
		s.schedule(dir) // the file on disk stands for the buffer again
		return
	}
	// Nothing of the module is open: clear what was published for it.
	if m := s.modules[dir]; m != nil && !m.running {
		for path, fr := range m.files {
			if len(fr.items) > 0 {
				s.post(protocol.PublishDiagnosticsParams{URI: fr.uri, Diagnostics: []protocol.Diagnostic{}})
			}
			delete(m.files, path)
		}
		delete(s.modules, dir)
	}
}

// changed relints the module that holds path.
func (s *server) changed(path string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if dir := filepath.Dir(path); s.modules[dir] != nil {
		s.schedule(dir)
	}
}

func (s *server) didChangeWatchedFiles(p *protocol.DidChangeWatchedFilesParams) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range p.Changes {
		path, ok := pathOf(c.URI)
		if !ok {
			continue
		}
		switch base := filepath.Base(path); {
		case base == rules.ConfigFileName || base == rules.TFLintConfigFileName:
			// A configuration file applies to every module below it.
			for dir := range s.modules {
				if config.Within(dir, filepath.Dir(path)) {
					s.schedule(dir)
				}
			}
		case config.IsConfigFile(path):
			if dir := filepath.Dir(path); s.modules[dir] != nil {
				s.schedule(dir)
			}
		}
	}
}

// hasOpen reports whether a document of the module in dir is open.
func (s *server) hasOpen(dir string) bool {
	for path := range s.docs {
		if filepath.Dir(path) == dir {
			return true
		}
	}
	return false
}

// codeAction offers, for each diagnostic in the range asked about, its
// fix and an ignore comment. A document edited since its diagnostics were
// computed gets none: their ranges are stale, and new diagnostics are on
// their way.
func (s *server) codeAction(p *protocol.CodeActionParams) []protocol.CodeAction {
	actions := []protocol.CodeAction{}
	path, ok := pathOf(p.TextDocument.URI)
	if !ok {
		return actions
	}
	if len(p.Context.Only) > 0 && !slices.ContainsFunc(p.Context.Only, func(k protocol.CodeActionKind) bool {
		// quickfix is asked for by its name or by a kind it is below.
		kind := string(protocol.CodeActionKindQuickFix)
		return string(k) == kind || strings.HasPrefix(kind, string(k)+".")
	}) {
		return actions
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.modules[filepath.Dir(path)]
	if m == nil || m.files[path] == nil {
		return actions
	}
	fr := m.files[path]
	if d := s.docs[path]; d != nil && (fr.version == nil || *fr.version != d.version) {
		return actions
	}
	for i := range fr.items {
		if overlaps(fr.items[i].diag.Range, p.Range) {
			actions = append(actions, fr.items[i].actions...)
		}
	}
	return actions
}

// overlaps reports whether two ranges share a position; an empty range
// (a cursor) overlaps a range that holds it.
func overlaps(a, b protocol.Range) bool {
	return !before(a.End, b.Start) && !before(b.End, a.Start)
}

func before(p, q protocol.Position) bool {
	return p.Line < q.Line || p.Line == q.Line && p.Character < q.Character
}

// pathOf returns the file path of a file URI.
func pathOf(uri string) (string, bool) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" || u.Path == "" {
		return "", false
	}
	return filepath.Clean(filepath.FromSlash(u.Path)), true
}

// uriOf returns the file URI of an absolute path.
func uriOf(path string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}
