package report

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"

	"github.com/tofucue/tofucue/rules"
)

// InformationURI is where the SARIF output says tofulint is documented.
const InformationURI = "https://github.com/tofucue/tofucue"

// srcRoot is the uriBaseId of relative artifact locations: the root of the
// sources, which GitHub code scanning takes to be the repository's
// checkout.
const srcRoot = "%SRCROOT%"

// writeSARIF writes r as one SARIF 2.1.0 log with a single run.
//
// Where a finding or loading diagnostic goes: one that has a file is a
// result, loading diagnostics included (under the rule LoadError), because
// results are what GitHub code scanning turns into alerts, shown on the
// lines of the file and of a pull request that changes it; an invocation's
// notifications are not alerts, and a user would not see a syntax error
// there. One that is about no file is a toolExecutionNotification of the
// run's invocation instead: code scanning rejects a whole log when one of
// its results has no location.
func writeSARIF(w io.Writer, r *Report) error {
	its := items(r)
	run := sarif.NewRunWithInformationURI("tofulint", InformationURI)
	if r.Version != "" {
		run.Tool.Driver.WithVersion(r.Version)
	}
	// hcl counts columns in grapheme clusters; SARIF has no such unit, so
	// regions give code points, counted in the sources (sarifColumn).
	run.WithColumnKind("unicodeCodePoints")

	// Every rule that ran, in the report's order, then the other rules
	// that a result or notification names, by name.
	index := map[string]int{}
	addRule := func(rule *rules.Rule) {
		index[rule.Name] = len(run.Tool.Driver.Rules)
		run.Tool.Driver.AddRule(sarifRule(rule))
	}
	for _, rule := range r.Rules {
		if rule == nil {
			continue
		}
		if _, ok := index[rule.Name]; !ok {
			addRule(rule)
		}
	}
	var others []string
	for i := range its {
		if _, ok := index[its[i].rule]; !ok {
			others = append(others, its[i].rule)
		}
	}
	slices.Sort(others)
	for _, name := range slices.Compact(others) {
		addRule(ruleInfo(name))
	}

	root := sarifRoot(r.Root)
	seen := map[string]int{} // fingerprints so far, for the occurrence count
	inv := sarif.NewInvocation().WithExecutionSuccessful(true)
	for i := range its {
		it := &its[i]
		level := severityLevel(it.severity, sarif.LevelError, sarif.LevelWarning, sarif.LevelNote)
		if it.rng == nil {
			inv.AddToolExecutionNotification(sarif.NewNotification().
				WithLevel(level).
				WithMessage(sarif.NewTextMessage(withDetail(it.message, it.detail))).
				WithAssociatedRule(sarif.NewReportingDescriptorReference().WithID(it.rule).WithIndex(index[it.rule])))
			continue
		}
		res := sarif.NewRuleResult(it.rule).
			WithRuleIndex(index[it.rule]).
			WithLevel(level).
			// The fix is in fixes, not in the message.
			WithMessage(sarif.NewTextMessage(withDetail(it.message, it.detail))).
			AddLocation(sarif.NewLocationWithPhysicalLocation(sarif.NewPhysicalLocation().
				WithArtifactLocation(artifactLocation(it.rng.Filename, root)).
				WithRegion(sarifRegion(r.Files, it.rng))))
		fp := fingerprint(it.rule, relativeURI(it.rng.Filename, root), r.Files, it.rng)
		res.WithPartialFingerprints(map[string]string{fingerprintKey: fmt.Sprintf("%s:%d", fp, seen[fp])})
		seen[fp]++
		if it.fix != nil && len(it.fix.Edits) > 0 {
			res.AddFixe(sarifFix(it.fix, it.rng.Filename, root))
		}
		run.AddResult(res)
	}
	run.AddInvocation(inv)

	log := sarif.NewReport()
	log.AddRun(run)
	var buf bytes.Buffer
	if err := log.Write(&buf); err != nil {
		return err
	}
	out, err := withoutPlaceholders(buf.Bytes())
	if err != nil {
		return err
	}
	_, err = w.Write(out)
	return err
}

// withoutPlaceholders re-indents the JSON of a SARIF log without the
// values that the SARIF library writes for properties nobody set: empty
// arrays and objects (but a run's results, whose empty array says that the
// run found nothing), and -1 for indexes, ids, offsets and ranks (which
// SARIF defines as "absent"), so that the log holds only what tofulint
// says.
func withoutPlaceholders(log []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(log))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	v, _ = prune(v)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// placeholderKeys are the properties whose -1 means "not set".
var placeholderKeys = map[string]bool{"index": true, "id": true, "byteOffset": true, "charOffset": true, "rank": true, "ruleIndex": true}

// prune returns v without placeholders, and whether anything is left.
func prune(v any) (any, bool) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if n, ok := e.(json.Number); ok && n == "-1" && placeholderKeys[k] {
				delete(v, k)
				continue
			}
			if pruned, ok := prune(e); ok || k == "results" { // no results: a clean run
				v[k] = pruned
			} else {
				delete(v, k)
			}
		}
		return v, len(v) > 0
	case []any:
		out := v[:0]
		for _, e := range v {
			if pruned, ok := prune(e); ok {
				out = append(out, pruned)
			}
		}
		return out, len(out) > 0
	}
	return v, true
}

// fingerprintKey names tofulint's partial fingerprint; its version changes
// when the way it is computed does.
const fingerprintKey = "tofulintFindingHash/v1"

// fingerprint identifies a finding across commits, whatever lines are
// added above it: a hash of the rule, the file's URI and the text of the
// finding's first line and of its range, with runs of white space made
// one space. Results with the same hash in one log are told apart by the
// occurrence count that writeSARIF appends.
func fingerprint(rule, uri string, files map[string]*hcl.File, rng *hcl.Range) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00", rule, uri)
	if f := files[rng.Filename]; f != nil && rng.Start.Byte >= 0 && rng.Start.Byte <= len(f.Bytes) {
		src := f.Bytes
		start := bytes.LastIndexByte(src[:rng.Start.Byte], '\n') + 1
		end := bytes.IndexByte(src[rng.Start.Byte:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += rng.Start.Byte
		}
		fmt.Fprintf(h, "%s\x00", strings.Join(strings.Fields(string(src[start:end])), " "))
		if rng.End.Byte >= rng.Start.Byte && rng.End.Byte <= len(src) {
			fmt.Fprintf(h, "%s", strings.Join(strings.Fields(string(src[rng.Start.Byte:rng.End.Byte])), " "))
		}
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

func withDetail(message, detail string) string {
	if detail == "" {
		return message
	}
	return message + "\n\n" + detail
}

// sarifRule describes a rule: its name as id, the first sentence of its
// doc as short description, the doc's first paragraph as full description,
// the whole doc (whose examples are indented code blocks) as help, and its
// default severity and state.
func sarifRule(rule *rules.Rule) *sarif.ReportingDescriptor {
	d := sarif.NewRule(rule.Name)
	if doc := strings.TrimSpace(rule.Doc); doc != "" {
		d.WithShortDescription(sarif.NewMultiformatMessageString().WithText(firstSentence(doc)))
		d.WithFullDescription(sarif.NewMultiformatMessageString().WithText(firstParagraph(doc)))
		d.WithHelp(sarif.NewMultiformatMessageString().WithText(doc).WithMarkdown(doc))
	}
	d.WithDefaultConfiguration(sarif.NewReportingConfiguration().
		WithEnabled(rule.Enabled).
		WithLevel(severityLevel(rule.Severity, sarif.LevelError, sarif.LevelWarning, sarif.LevelNote)))
	return d
}

// firstParagraph returns the text of doc up to its first empty line, on one
// line.
func firstParagraph(doc string) string {
	para, _, _ := strings.Cut(strings.ReplaceAll(doc, "\r\n", "\n"), "\n\n")
	return strings.Join(strings.Fields(para), " ")
}

// firstSentence returns the first sentence of doc's first paragraph: up to
// its first period followed by a blank, or all of it.
func firstSentence(doc string) string {
	para := firstParagraph(doc)
	if i := strings.Index(para, ". "); i >= 0 {
		return para[:i+1]
	}
	return para
}

// sarifRoot is the absolute directory that URIs are relative to: root,
// or the current directory.
func sarifRoot(root string) string {
	abs, err := filepath.Abs(cmp.Or(root, "."))
	if err != nil {
		return ""
	}
	return abs
}

// relativeURI gives a file name as a URI path relative to root, with
// forward slashes and escaped as a URI path needs, or "" when the file is
// not below root.
func relativeURI(name, root string) string {
	abs, err := filepath.Abs(name)
	if err != nil || root == "" {
		return ""
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return ""
	}
	uri := (&url.URL{Path: filepath.ToSlash(rel)}).EscapedPath()
	if first, _, _ := strings.Cut(uri, "/"); strings.Contains(first, ":") {
		// Without it, "a:b.tf" would read as a URI of scheme "a".
		uri = "./" + uri
	}
	return uri
}

// artifactLocation gives a file name as a URI: relative to root (the
// repository's root, which GitHub code scanning takes %SRCROOT% to be)
// when the file is below it, else as a file URI.
func artifactLocation(name, root string) *sarif.ArtifactLocation {
	if uri := relativeURI(name, root); uri != "" {
		return sarif.NewSimpleArtifactLocation(uri).WithURIBaseID(srcRoot)
	}
	p := filepath.ToSlash(name)
	if abs, err := filepath.Abs(name); err == nil {
		p = filepath.ToSlash(abs)
	}
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // a Windows volume: file:///C:/...
	}
	return sarif.NewSimpleArtifactLocation((&url.URL{Scheme: "file", Path: p}).String())
}

// sarifRegion gives a range as a SARIF region: its lines and, since both
// count from 1 and end after the range, its columns, in code points.
// Positions that do not make a region (a line before the first) are left
// out.
func sarifRegion(files map[string]*hcl.File, rng *hcl.Range) *sarif.Region {
	region := sarif.NewRegion()
	if rng.Start.Line < 1 {
		return region
	}
	var src []byte
	if f := files[rng.Filename]; f != nil {
		src = f.Bytes
	}
	region.WithStartLine(rng.Start.Line)
	startCol := sarifColumn(src, rng.Start)
	if startCol >= 1 {
		region.WithStartColumn(startCol)
	}
	if rng.End.Line < rng.Start.Line {
		return region
	}
	region.WithEndLine(rng.End.Line)
	if endCol := sarifColumn(src, rng.End); endCol >= 1 && (rng.End.Line > rng.Start.Line || endCol >= startCol) {
		region.WithEndColumn(endCol)
	}
	return region
}

// sarifColumn returns the column of pos in code points, counted in src
// from the start of pos's line; without the source (or when pos is not in
// it), hcl's column.
func sarifColumn(src []byte, pos hcl.Pos) int {
	if src == nil || pos.Byte < 0 || pos.Byte > len(src) {
		return pos.Column
	}
	start := bytes.LastIndexByte(src[:pos.Byte], '\n') + 1
	return utf8.RuneCount(src[start:pos.Byte]) + 1
}

// sarifFix gives a fix as artifact changes, one per file in the order the
// edits name them, each edit a replacement of a byte range. An edit that
// names no file edits file, the finding's.
func sarifFix(fix *rules.Fix, file, root string) *sarif.Fix {
	out := sarif.NewFix()
	if fix.Description != "" {
		out.WithDescription(sarif.NewTextMessage(fix.Description))
	}
	changes := map[string]*sarif.ArtifactChange{}
	for _, e := range fix.Edits {
		name := cmp.Or(e.Range.Filename, file)
		change := changes[name]
		if change == nil {
			change = sarif.NewArtifactChange().WithArtifactLocation(artifactLocation(name, root))
			changes[name] = change
			out.AddArtifactChange(change)
		}
		deleted := sarif.NewRegion().
			WithByteOffset(e.Range.Start.Byte).
			WithByteLength(max(e.Range.End.Byte-e.Range.Start.Byte, 0))
		rep := sarif.NewReplacement().WithDeletedRegion(deleted)
		if e.NewText != "" {
			rep.WithInsertedContent(sarif.NewArtifactContent().WithText(e.NewText))
		}
		change.AddReplacement(rep)
	}
	return out
}
