package langserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/tofucue/tofucue/lint"
	"github.com/tofucue/tofucue/report"
	"github.com/tofucue/tofucue/rules"
)

// schedule lints the module in dir, or, when a run of it is under way,
// marks it to run again when that run ends. Edits that arrive during a
// run are so coalesced into one run, and the results of a run that an
// edit superseded are dropped, never published. Called with s.mu held.
func (s *server) schedule(dir string) {
	m := s.modules[dir]
	if m == nil {
		m = &module{files: map[string]*fileResult{}}
		s.modules[dir] = m
	}
	if m.running {
		m.again = true
		m.cancel() // the run's results are superseded: stop it
		return
	}
	if s.ctx.Err() != nil {
		return
	}
	m.running = true
	ctx, snap := s.start(m, dir)
	s.runs.Go(func() { s.lintLoop(ctx, dir, snap) })
}

// start gives a run of the module its context, which an edit that
// supersedes it cancels, and the documents it lints. Called with s.mu
// held.
func (s *server) start(m *module, dir string) (context.Context, map[string]document) {
	ctx, cancel := context.WithCancel(s.ctx)
	m.cancel = cancel
	return ctx, s.snapshot(dir)
}

// snapshot copies the open documents of the module in dir. Their texts
// are never changed in place (applyChange makes a new one), so a copy of
// the document is a stable view. Called with s.mu held.
func (s *server) snapshot(dir string) map[string]document {
	out := map[string]document{}
	for path, d := range s.docs {
		if filepath.Dir(path) == dir {
			out[path] = *d
		}
	}
	return out
}

func (s *server) lintLoop(ctx context.Context, dir string, snap map[string]document) {
	for {
		opts := s.opts.Lint
		opts.Context = ctx
		results := s.lint(dir, snap, opts)
		s.mu.Lock()
		m := s.modules[dir]
		m.cancel()
		if m.again && s.ctx.Err() == nil {
			m.again = false
			ctx, snap = s.start(m, dir)
			s.mu.Unlock()
			continue
		}
		m.running = false
		if s.ctx.Err() != nil { // the server is stopping
			s.mu.Unlock()
			return
		}
		if s.hasOpen(dir) {
			s.publish(m, results)
		} else { // closed while the run went on
			s.publish(m, nil)
			delete(s.modules, dir)
		}
		s.mu.Unlock()
		return
	}
}

// publish posts the diagnostics of the files whose diagnostics changed,
// and empty diagnostics for the files that had some and are no longer
// reported. Called with s.mu held.
func (s *server) publish(m *module, results map[string]*fileResult) {
	paths := make([]string, 0, len(results))
	for path := range results {
		paths = append(paths, path)
	}
	slices.Sort(paths)
	for _, path := range paths {
		fr := results[path]
		if old := m.files[path]; old != nil && bytes.Equal(old.sent, fr.sent) {
			continue
		}
		p := protocol.PublishDiagnosticsParams{URI: fr.uri, Diagnostics: []protocol.Diagnostic{}}
		if fr.version != nil && *fr.version >= 0 {
			v := protocol.UInteger(*fr.version)
			p.Version = &v
		}
		p.Diagnostics = fr.diagnostics()
		s.post(p)
	}
	for path, old := range m.files {
		if results[path] == nil && len(old.items) > 0 {
			s.post(protocol.PublishDiagnosticsParams{URI: old.uri, Diagnostics: []protocol.Diagnostic{}})
		}
	}
	m.files = results
	if m.files == nil {
		m.files = map[string]*fileResult{}
	}
}

// post queues a notification for the publisher. Called with s.mu held, so
// that notifications leave in the order the runs ended.
func (s *server) post(p protocol.PublishDiagnosticsParams) {
	s.outbox = append(s.outbox, p)
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// publisher sends what is posted, in order, until the server stops.
func (s *server) publisher() {
	for {
		select {
		case <-s.wake:
		case <-s.ctx.Done():
			return
		}
		s.mu.Lock()
		batch := s.outbox
		s.outbox = nil
		s.mu.Unlock()
		for _, p := range batch {
			_ = s.conn.Notify(s.ctx, "textDocument/publishDiagnostics", p)
		}
	}
}

// lintModule lints the module in dir with the open documents of snap over
// its files on disk, and returns the diagnostics of every file of the
// module (none for a clean file) and of any other file a diagnostic is
// about.
func lintModule(dir string, snap map[string]document, opts lint.Options) map[string]*fileResult {
	overlay := map[string][]byte{}
	for path, d := range snap {
		overlay[path] = d.text
	}
	opts.Overlay, opts.Jobs, opts.KeepSyntax = overlay, 1, false
	rep, cdiags := lint.Run([]lint.Target{{Dir: dir}}, opts)
	b := &builder{snap: snap, rep: rep, texts: map[string]*text{}, files: map[string]*fileResult{}}
	for path := range snap {
		b.file(path)
	}
	if rep != nil {
		for path := range rep.Files {
			b.file(path)
		}
		for i := range rep.Findings {
			b.finding(&rep.Findings[i])
		}
		for _, d := range rep.Diagnostics {
			b.diagnostic(d, "")
		}
	}
	for _, d := range cdiags { // the configuration file's
		b.diagnostic(d, "Configuration: ")
	}
	if rep == nil { // say so where the user looks
		for _, d := range cdiags {
			if d.Severity == hcl.DiagError && d.Subject != nil {
				b.diagnostic(&hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  fmt.Sprintf("nothing was linted: %s has errors", d.Subject.Filename),
					Detail:   d.Summary,
				}, "Configuration: ")
				break
			}
		}
	}
	for _, fr := range b.files {
		fr.sent, _ = json.Marshal(fr.diagnostics())
	}
	return b.files
}

func (fr *fileResult) diagnostics() []protocol.Diagnostic {
	diags := make([]protocol.Diagnostic, len(fr.items))
	for i := range fr.items {
		diags[i] = fr.items[i].diag
	}
	return diags
}

// builder turns one lint run's report into LSP diagnostics and actions.
type builder struct {
	snap  map[string]document
	rep   *report.Report // nil when the configuration has errors
	texts map[string]*text
	files map[string]*fileResult
}

func (b *builder) file(path string) *fileResult {
	fr := b.files[path]
	if fr == nil {
		fr = &fileResult{uri: b.uri(path)}
		if d, ok := b.snap[path]; ok {
			v := d.version
			fr.version = &v
		}
		b.files[path] = fr
	}
	return fr
}

func (b *builder) uri(path string) string {
	if d, ok := b.snap[path]; ok {
		return d.uri
	}
	return uriOf(path)
}

// text returns the content a range of the run is about: the document's
// when it is open, the report's copy of the file otherwise.
func (b *builder) text(path string) *text {
	if t := b.texts[path]; t != nil {
		return t
	}
	var src []byte
	if d, ok := b.snap[path]; ok {
		src = d.text
	} else if b.rep != nil && b.rep.Files[path] != nil && b.rep.Files[path].Bytes != nil {
		src = b.rep.Files[path].Bytes
	} else {
		src, _ = os.ReadFile(path)
	}
	t := newText(src)
	b.texts[path] = t
	return t
}

var severities = map[rules.Severity]protocol.DiagnosticSeverity{
	rules.Error:   protocol.DiagnosticSeverityError,
	rules.Warning: protocol.DiagnosticSeverityWarning,
	rules.Notice:  protocol.DiagnosticSeverityInformation,
}

const source = "tofulint"

// finding adds a rule's finding: a diagnostic whose code is the rule's
// name and links to its documentation, with the finding's fix and an
// ignore comment as quick fixes.
func (b *builder) finding(f *rules.Finding) {
	path := f.Range.Filename
	t := b.text(path)
	sev, src := severities[f.Severity], source
	d := protocol.Diagnostic{
		Range:           t.lspRange(f.Range.Start.Byte, f.Range.End.Byte),
		Severity:        &sev,
		Code:            &protocol.IntegerOrString{Value: f.Rule},
		CodeDescription: &protocol.CodeDescription{HRef: report.RuleDocURL(f.Rule)},
		Source:          &src,
		Message:         f.Message,
	}
	it := item{diag: d}
	quickfix := protocol.CodeActionKindQuickFix
	if f.Fix != nil {
		edit := &protocol.WorkspaceEdit{Changes: map[string][]protocol.TextEdit{}}
		for _, e := range f.Fix.Edits {
			et := b.text(e.Range.Filename)
			uri := b.uri(e.Range.Filename)
			edit.Changes[uri] = append(edit.Changes[uri], protocol.TextEdit{Range: et.lspRange(e.Range.Start.Byte, e.Range.End.Byte), NewText: e.NewText})
		}
		title := f.Fix.Description
		if title == "" {
			title = "Fix: " + f.Message
		}
		preferred := true
		it.actions = append(it.actions, protocol.CodeAction{Title: title, Kind: &quickfix, Diagnostics: []protocol.Diagnostic{d}, IsPreferred: &preferred, Edit: edit})
	}
	if !strings.HasSuffix(path, ".json") { // JSON has no comments
		start, indent := t.lineStart(f.Range.Start.Byte)
		at := t.position(start)
		it.actions = append(it.actions, protocol.CodeAction{
			Title: fmt.Sprintf("Ignore %s here (# tofulint-ignore)", f.Rule), Kind: &quickfix,
			Diagnostics: []protocol.Diagnostic{d},
			Edit: &protocol.WorkspaceEdit{Changes: map[string][]protocol.TextEdit{b.uri(path): {{
				Range:   protocol.Range{Start: at, End: at},
				NewText: indent + "# tofulint-ignore: " + f.Rule + "\n",
			}}}},
		})
	}
	fr := b.file(path)
	fr.items = append(fr.items, it)
}

// diagnostic adds a loading or configuration diagnostic. One about no
// file in particular goes at the top of each open document.
func (b *builder) diagnostic(d *hcl.Diagnostic, prefix string) {
	sev, src := protocol.DiagnosticSeverityError, source
	if d.Severity == hcl.DiagWarning {
		sev = protocol.DiagnosticSeverityWarning
	}
	msg := prefix + d.Summary
	if d.Detail != "" {
		msg += ": " + d.Detail
	}
	pd := protocol.Diagnostic{Severity: &sev, Source: &src, Message: msg}
	if d.Subject != nil {
		pd.Range = b.text(d.Subject.Filename).lspRange(d.Subject.Start.Byte, d.Subject.End.Byte)
		fr := b.file(d.Subject.Filename)
		fr.items = append(fr.items, item{diag: pd})
		return
	}
	for path := range b.snap {
		fr := b.file(path)
		fr.items = append(fr.items, item{diag: pd})
	}
}
