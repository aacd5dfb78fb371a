package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"

	"github.com/tofucue/tofucue/rules"
)

// Sources of the sample report. The finding in "a b.tf" comes after "é"
// written as "e" and a combining accent: hcl counts one column for both,
// SARIF two code points.
const (
	srcA = "locals {\n  x = \"cafe\u0301\" # x\n}\n"
	srcB = "locals {\n  y = symbols.legacy.id\n}\n"
)

func rng(file string, sl, sc, sb, el, ec, eb int) hcl.Range {
	return hcl.Range{Filename: file, Start: hcl.Pos{Line: sl, Column: sc, Byte: sb}, End: hcl.Pos{Line: el, Column: ec, Byte: eb}}
}

// tricky holds what every format must escape: XML's markup characters,
// GitHub's command separators, percent signs, line breaks and a tab.
const tricky = `<a href="x">&amp;</a> 100% done: yes, it's "done"`

// sampleReport has findings of every severity, a fix that edits two files,
// a finding about no file, a loading error and a loading warning about no
// file, and a rule that is not in Rules.
func sampleReport() *Report {
	fix := &rules.Fix{Description: `Insert "resource."`, Edits: []rules.Edit{
		{Range: rng("b.tf", 2, 7, 15, 2, 7, 15), NewText: "resource."},
		{Range: rng("a b.tf", 2, 3, 11, 2, 4, 12), NewText: "z"},
		{Range: rng("b.tf", 1, 1, 0, 1, 7, 6)},
	}}
	return &Report{
		Version: "v1.2.3",
		Files: map[string]*hcl.File{
			"a b.tf":   {Bytes: []byte(srcA)},
			"b.tf":     {Bytes: []byte(srcB)},
			"clean.tf": {Bytes: []byte("")},
		},
		Rules: []*rules.Rule{rules.SymbolReference, rules.FutureSymbolConflict},
		Findings: []rules.Finding{
			{Rule: "symbol_reference", Severity: rules.Error, Message: "Reference to undefined symbol library",
				Detail: "There is no symbols block named \"legacy\".\n\nUse:\n    resource.symbols.legacy.id", Range: rng("b.tf", 2, 7, 15, 2, 21, 29), Fix: fix},
			{Rule: "future_symbol_conflict", Severity: rules.Notice, Message: tricky,
				Detail: "line one\r\nline two\twith a tab", Range: rng("a b.tf", 2, 14, 24, 2, 17, 27)},
			{Rule: "made_up", Severity: rules.Warning, Message: "About the whole run, no file"},
		},
		Diagnostics: hcl.Diagnostics{
			{Severity: hcl.DiagWarning, Summary: "No file at all", Detail: "Detail: " + tricky},
			{Severity: hcl.DiagError, Summary: "Unsupported block type", Detail: `Blocks of type "resources" are not expected here.`,
				Subject: new(rng("b.tf", 1, 1, 0, 1, 7, 6))},
		},
	}
}

func write(t *testing.T, format string, r *Report) string {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, format, r); err != nil {
		t.Fatalf("Write(%s): %v", format, err)
	}
	return buf.String()
}

func TestFormatsAreListed(t *testing.T) {
	want := []string{Text, JSON, SARIF, Checkstyle, JUnit, Compact, GitHub}
	if !slices.Equal(Formats, want) {
		t.Errorf("Formats = %v, want %v", Formats, want)
	}
	if err := Write(&bytes.Buffer{}, "xml", &Report{}); err == nil || !strings.Contains(err.Error(), "unknown output format") {
		t.Errorf("Write(xml) = %v, want an unknown format error", err)
	}
}

// TestDeterministic writes the same report many times, with its files in
// other orders (Go randomizes the order of maps) and, but for json, its
// findings and diagnostics in the reverse order, and wants the same bytes
// each time.
func TestDeterministic(t *testing.T) {
	for _, format := range Formats {
		t.Run(format, func(t *testing.T) {
			first := write(t, format, sampleReport())
			for range 20 {
				r := sampleReport()
				// JSON keeps the report's order; the others order by
				// file and position, and no two positions are equal
				// here.
				if format != JSON {
					slices.Reverse(r.Findings)
					slices.Reverse(r.Diagnostics)
				}
				if got := write(t, format, r); got != first {
					t.Fatalf("output changed between runs:\n%s\n---\n%s", first, got)
				}
			}
		})
	}
}

// TestEmpty: a run without findings gives a valid, empty document in every
// format, and nothing at all in the formats for people and for logs.
func TestEmpty(t *testing.T) {
	for _, r := range []*Report{
		{},
		{Files: map[string]*hcl.File{"main.tf": {Bytes: []byte("")}}, Rules: rules.All(), Version: "v1"},
	} {
		for _, format := range Formats {
			out := write(t, format, r)
			switch format {
			case Text, Compact, GitHub:
				if out != "" {
					t.Errorf("%s: a clean run wrote %q", format, out)
				}
			case JSON:
				var doc jsonReport
				if err := json.Unmarshal([]byte(out), &doc); err != nil || doc.Issues == nil || doc.Errors == nil || len(doc.Issues)+len(doc.Errors) != 0 {
					t.Errorf("json: %v, %+v", err, doc)
				}
			case SARIF:
				log := validSARIF(t, out)
				if len(log.Runs) != 1 || len(log.Runs[0].Results) != 0 || len(log.Runs[0].Invocations[0].ToolExecutionNotifications) != 0 {
					t.Errorf("sarif: not an empty run:\n%s", out)
				}
				if got := len(log.Runs[0].Tool.Driver.Rules); got != len(r.Rules) {
					t.Errorf("sarif: %d rules, want %d", got, len(r.Rules))
				}
			case Checkstyle:
				doc := parseCheckstyle(t, out)
				if len(doc.Files) != len(r.Files) {
					t.Errorf("checkstyle: %d files, want %d:\n%s", len(doc.Files), len(r.Files), out)
				}
				for _, f := range doc.Files {
					if len(f.Errors) > 0 {
						t.Errorf("checkstyle: errors in %s", f.Name)
					}
				}
			case JUnit:
				doc := parseJUnit(t, out)
				if doc.Failures != 0 || doc.Tests != len(r.Files) {
					t.Errorf("junit: tests=%d failures=%d, want %d passing:\n%s", doc.Tests, doc.Failures, len(r.Files), out)
				}
			default:
				t.Errorf("format %s is not tested", format)
			}
		}
	}
}

func TestText(t *testing.T) {
	out := write(t, Text, sampleReport())
	for _, want := range []string{
		"Warning: No file at all\n",
		"b.tf\n\nError: Unsupported block type\n",
		"Error: Reference to undefined symbol library (symbol_reference)\n\n  on b.tf line 2, column 7:\n   2:   y = symbols.legacy.id\n",
		`Suggested fix: Insert "resource.".`,
		"a b.tf\n\nWarning: notice: " + tricky + " (future_symbol_conflict)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text output lacks %q:\n%s", want, out)
		}
	}
	if want := "2 errors, 2 warnings, 1 notice in 1 module\n"; !strings.HasSuffix(out, want) {
		t.Errorf("text output does not end with %q:\n%s", want, out)
	}
	if strings.Contains(out, "\x1b[") {
		t.Errorf("escape sequences without Color:\n%s", out)
	}

	// A rule explains itself once, unless verbose; colour when asked.
	r := &Report{Files: map[string]*hcl.File{}}
	for i, file := range []string{filepath.Join("m1", "a.tf"), filepath.Join("m1", "a.tf"), filepath.Join("m2", "b.tf")} {
		r.Findings = append(r.Findings, rules.Finding{Rule: "r", Severity: rules.Warning, Message: fmt.Sprint("m", i), Detail: "The explanation.",
			Range: rng(file, i+1, 1, i*10, i+1, 2, i*10+1), Fix: &rules.Fix{Description: "Do it"}})
	}
	if out := write(t, Text, r); strings.Count(out, "The explanation.") != 1 || strings.Count(out, "\nSuggested fix: Do it.\n") != 3 || !strings.HasSuffix(out, "3 warnings in 2 modules\n") {
		t.Errorf("text:\n%s", out)
	}
	r.Text = TextOptions{Verbose: true, Color: true}
	if out := write(t, Text, r); strings.Count(out, "The explanation.") != 3 || !strings.Contains(out, "\x1b[33mWarning\x1b[0m: m0 (r)") {
		t.Errorf("verbose, color:\n%q", out)
	}
}

func TestJSON(t *testing.T) {
	var doc jsonReport
	if err := json.Unmarshal([]byte(write(t, JSON, sampleReport())), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Issues) != 3 || len(doc.Errors) != 2 {
		t.Fatalf("%d issues and %d errors, want 3 and 2", len(doc.Issues), len(doc.Errors))
	}
	if doc.Issues[1].Message != tricky || doc.Issues[1].Severity != "notice" || !doc.Issues[0].Fixable || doc.Issues[1].Fixable {
		t.Errorf("issues = %+v", doc.Issues)
	}
}

// sarifLog is the part of a SARIF log that the tests look at.
type sarifLog struct {
	Version string `json:"version"`
	Runs    []struct {
		ColumnKind string `json:"columnKind"`
		Tool       struct {
			Driver struct {
				Name           string `json:"name"`
				Version        string `json:"version"`
				InformationURI string `json:"informationUri"`
				Rules          []struct {
					ID               string     `json:"id"`
					ShortDescription jsonText   `json:"shortDescription"`
					FullDescription  jsonText   `json:"fullDescription"`
					Help             jsonText   `json:"help"`
					Default          jsonConfig `json:"defaultConfiguration"`
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		Invocations []struct {
			ExecutionSuccessful        bool `json:"executionSuccessful"`
			ToolExecutionNotifications []struct {
				Level          string   `json:"level"`
				Message        jsonText `json:"message"`
				AssociatedRule struct {
					ID    string `json:"id"`
					Index int    `json:"index"`
				} `json:"associatedRule"`
			} `json:"toolExecutionNotifications"`
		} `json:"invocations"`
		Results []struct {
			RuleID    string   `json:"ruleId"`
			RuleIndex int      `json:"ruleIndex"`
			Level     string   `json:"level"`
			Message   jsonText `json:"message"`
			Locations []struct {
				PhysicalLocation struct {
					ArtifactLocation jsonArtifact `json:"artifactLocation"`
					Region           jsonRegion   `json:"region"`
				} `json:"physicalLocation"`
			} `json:"locations"`
			Fixes []struct {
				Description     jsonText `json:"description"`
				ArtifactChanges []struct {
					ArtifactLocation jsonArtifact `json:"artifactLocation"`
					Replacements     []struct {
						DeletedRegion   jsonRegion `json:"deletedRegion"`
						InsertedContent *jsonText  `json:"insertedContent"`
					} `json:"replacements"`
				} `json:"artifactChanges"`
			} `json:"fixes"`
		} `json:"results"`
	} `json:"runs"`
}

type jsonText struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown"`
}

type jsonConfig struct {
	Enabled bool   `json:"enabled"`
	Level   string `json:"level"`
}

type jsonArtifact struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId"`
}

type jsonRegion struct {
	StartLine   int  `json:"startLine"`
	StartColumn int  `json:"startColumn"`
	EndLine     int  `json:"endLine"`
	EndColumn   int  `json:"endColumn"`
	ByteOffset  int  `json:"byteOffset"`
	ByteLength  *int `json:"byteLength"`
}

// within reports whether the JSON value a is in b: equal, or an object
// whose properties are all within b's.
func within(a, b any) bool {
	am, ok := a.(map[string]any)
	if !ok {
		if al, ok := a.([]any); ok {
			bl, ok := b.([]any)
			if !ok || len(al) != len(bl) {
				return false
			}
			for i := range al {
				if !within(al[i], bl[i]) {
					return false
				}
			}
			return true
		}
		return reflect.DeepEqual(a, b)
	}
	bm, ok := b.(map[string]any)
	if !ok {
		return false
	}
	for k, v := range am {
		if !within(v, bm[k]) {
			return false
		}
	}
	return true
}

// emptySlices sets the nil slices reachable from v to empty ones.
func emptySlices(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			emptySlices(v.Elem())
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				emptySlices(v.Field(i))
			}
		}
	case reflect.Slice:
		if v.IsNil() && v.CanSet() {
			v.Set(reflect.MakeSlice(v.Type(), 0, 0))
		}
		for i := range v.Len() {
			emptySlices(v.Index(i))
		}
	}
}

// validSARIF checks out against the SARIF 2.1.0 JSON schema (which the
// go-sarif module embeds) and returns it parsed. The schema validates the
// library's model of the log, so the test first checks that the model
// holds all of out: that what it writes back has every value of out (and
// more: the library writes properties nobody set, which out leaves out).
func validSARIF(t *testing.T, out string) *sarifLog {
	t.Helper()
	model, err := sarif.FromString(out, sarif.WithStrictValidation())
	if err != nil {
		t.Fatalf("sarif: %v\n%s", err, out)
	}
	again, err := json.Marshal(model)
	if err != nil {
		t.Fatal(err)
	}
	var raw, back any
	if err := json.Unmarshal([]byte(out), &raw); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(again, &back); err != nil {
		t.Fatal(err)
	}
	if !within(raw, back) {
		t.Fatalf("sarif: the go-sarif model does not hold the whole output:\n%s\n---\n%s", out, again)
	}
	// Read back, the properties out leaves out are nil slices, which the
	// library's validation rejects (it validates its model, whose
	// constructors set them empty): make them empty.
	emptySlices(reflect.ValueOf(model))
	if err := model.Validate(); err != nil {
		t.Fatalf("sarif: not valid against the SARIF 2.1.0 schema: %v\n%s", err, out)
	}
	var log sarifLog
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatal(err)
	}
	if log.Version != "2.1.0" || len(log.Runs) != 1 || len(log.Runs[0].Invocations) != 1 || !log.Runs[0].Invocations[0].ExecutionSuccessful {
		t.Fatalf("sarif: want version 2.1.0, one run with one successful invocation:\n%s", out)
	}
	return &log
}

func TestSARIF(t *testing.T) {
	out := write(t, SARIF, sampleReport())
	log := validSARIF(t, out)
	run := log.Runs[0]
	d := run.Tool.Driver
	if d.Name != "tofulint" || d.Version != "v1.2.3" || d.InformationURI != InformationURI || run.ColumnKind != "unicodeCodePoints" {
		t.Errorf("driver = %s %s %s, columnKind %s", d.Name, d.Version, d.InformationURI, run.ColumnKind)
	}
	var ids []string
	for _, r := range d.Rules {
		ids = append(ids, r.ID)
	}
	// The rules that ran, then the others that results name, by name.
	if want := []string{"symbol_reference", "future_symbol_conflict", LoadError, "made_up"}; !slices.Equal(ids, want) {
		t.Errorf("rules = %v, want %v", ids, want)
	}
	sr := d.Rules[0]
	if !strings.HasPrefix(sr.ShortDescription.Text, "Reports a reference to an opt-in feature's block that does not exist") ||
		!strings.HasSuffix(sr.ShortDescription.Text, ".") || strings.Contains(sr.ShortDescription.Text, "\n") {
		t.Errorf("short description = %q", sr.ShortDescription.Text)
	}
	if sr.Help.Text != rules.SymbolReference.Doc || !strings.Contains(sr.Help.Markdown, "\nBad:\n\n    ") || strings.Contains(sr.FullDescription.Text, "Bad:") {
		t.Errorf("help = %q, full description = %q", sr.Help.Text, sr.FullDescription.Text)
	}
	if sr.Default != (jsonConfig{Enabled: true, Level: "error"}) || d.Rules[1].Default.Level != "warning" {
		t.Errorf("default configurations = %+v, %+v", sr.Default, d.Rules[1].Default)
	}

	type result struct {
		rule, level, uri, base string
		region                 jsonRegion
	}
	var got []result
	for _, r := range run.Results {
		if d.Rules[r.RuleIndex].ID != r.RuleID {
			t.Errorf("result of %s has ruleIndex %d, the index of %s", r.RuleID, r.RuleIndex, d.Rules[r.RuleIndex].ID)
		}
		if len(r.Locations) != 1 {
			t.Fatalf("result of %s has %d locations", r.RuleID, len(r.Locations))
		}
		loc := r.Locations[0].PhysicalLocation
		reg := loc.Region
		reg.ByteOffset = 0
		got = append(got, result{r.RuleID, r.Level, loc.ArtifactLocation.URI, loc.ArtifactLocation.URIBaseID, reg})
	}
	want := []result{
		// "a b.tf" sorts before "b.tf". Columns 14 and 17 in hcl's count
		// are 15 and 18 in code points.
		{"future_symbol_conflict", "note", "a%20b.tf", "%SRCROOT%", jsonRegion{StartLine: 2, StartColumn: 15, EndLine: 2, EndColumn: 18}},
		{LoadError, "error", "b.tf", "%SRCROOT%", jsonRegion{StartLine: 1, StartColumn: 1, EndLine: 1, EndColumn: 7}},
		{"symbol_reference", "error", "b.tf", "%SRCROOT%", jsonRegion{StartLine: 2, StartColumn: 7, EndLine: 2, EndColumn: 21}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("results =\n%+v\nwant\n%+v", got, want)
	}
	if msg := run.Results[0].Message.Text; msg != tricky+"\n\nline one\r\nline two\twith a tab" {
		t.Errorf("message = %q", msg)
	}

	// The fix: one artifact change per file, in the order of the edits.
	fixes := run.Results[2].Fixes
	if len(fixes) != 1 || fixes[0].Description.Text != `Insert "resource."` || len(fixes[0].ArtifactChanges) != 2 {
		t.Fatalf("fixes = %+v", fixes)
	}
	var edits []string
	for _, c := range fixes[0].ArtifactChanges {
		for _, r := range c.Replacements {
			ins := "(delete)"
			if r.InsertedContent != nil {
				ins = r.InsertedContent.Text
			}
			edits = append(edits, fmt.Sprintf("%s@%d+%d=%s", c.ArtifactLocation.URI, r.DeletedRegion.ByteOffset, *r.DeletedRegion.ByteLength, ins))
		}
	}
	if want := []string{"b.tf@15+0=resource.", "b.tf@0+6=(delete)", "a%20b.tf@11+1=z"}; !slices.Equal(edits, want) {
		t.Errorf("edits = %v, want %v", edits, want)
	}
	if len(run.Results[0].Fixes)+len(run.Results[1].Fixes) != 0 {
		t.Errorf("fixes on results without one")
	}

	// What is about no file is a notification, as code scanning would
	// reject a result without a location.
	var notes []string
	for _, n := range run.Invocations[0].ToolExecutionNotifications {
		if d.Rules[n.AssociatedRule.Index].ID != n.AssociatedRule.ID {
			t.Errorf("notification of %s has index %d", n.AssociatedRule.ID, n.AssociatedRule.Index)
		}
		notes = append(notes, n.Level+" "+n.AssociatedRule.ID+" "+n.Message.Text)
	}
	if want := []string{"warning " + LoadError + " No file at all\n\nDetail: " + tricky, "warning made_up About the whole run, no file"}; !slices.Equal(notes, want) {
		t.Errorf("notifications = %q, want %q", notes, want)
	}
}

// URIs are relative to the root (the repository's) whatever the current
// directory, and a file outside the root is a file URI.
func TestArtifactLocation(t *testing.T) {
	root := filepath.Join(t.TempDir(), "repo")
	tests := []struct{ name, uri, base string }{
		{"main.tf", "main.tf", srcRoot},
		{"./modules/net/main.tf", "modules/net/main.tf", srcRoot},
		{"a b/c%d#e?f.tf", "a%20b/c%25d%23e%3Ff.tf", srcRoot},
		{"web,app.tf", "web,app.tf", srcRoot},
		{"a:b.tf", "./a:b.tf", srcRoot},
		{"sub/../main.tf", "main.tf", srcRoot},
		{"../other/main.tf", "file://" + filepath.ToSlash(filepath.Dir(root)) + "/other/main.tf", ""},
	}
	for _, tt := range tests {
		for _, name := range []string{filepath.Join(root, tt.name), tt.name} {
			if name == tt.name {
				// A relative name is relative to the current directory.
				t.Chdir(t.TempDir())
				root, _ := filepath.Abs("repo")
				name = filepath.Join("repo", tt.name)
				if err := os.MkdirAll(root, 0o755); err != nil {
					t.Fatal(err)
				}
				loc := artifactLocation(name, root)
				if got := *loc.URI; tt.base != "" && got != tt.uri {
					t.Errorf("artifactLocation(%q) from the parent = %q, want %q", name, got, tt.uri)
				}
				continue
			}
			loc := artifactLocation(name, root)
			var base string
			if loc.URIBaseID != nil {
				base = *loc.URIBaseID
			}
			if *loc.URI != tt.uri || base != tt.base {
				t.Errorf("artifactLocation(%q) = %q against %q, want %q against %q", name, *loc.URI, base, tt.uri, tt.base)
			}
		}
	}
}

// A finding keeps its fingerprint when lines are added above it, and two
// findings on identical lines are told apart by their occurrence count.
func TestSARIFFingerprints(t *testing.T) {
	write := func(src string) []string {
		t.Helper()
		f := &hcl.File{Bytes: []byte(src)}
		var findings []rules.Finding
		for off := 0; ; {
			i := strings.Index(src[off:], "bad")
			if i < 0 {
				break
			}
			at := off + i
			line := strings.Count(src[:at], "\n") + 1
			findings = append(findings, rules.Finding{Rule: "made_up", Severity: rules.Warning, Message: "m",
				Range: hcl.Range{Filename: "main.tf", Start: hcl.Pos{Line: line, Column: 1, Byte: at}, End: hcl.Pos{Line: line, Column: 4, Byte: at + 3}}})
			off = at + 3
		}
		var b bytes.Buffer
		if err := Write(&b, SARIF, &Report{Findings: findings, Files: map[string]*hcl.File{"main.tf": f}}); err != nil {
			t.Fatal(err)
		}
		var log struct {
			Runs []struct {
				Results []struct{ PartialFingerprints map[string]string }
			}
		}
		if err := json.Unmarshal(b.Bytes(), &log); err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range log.Runs[0].Results {
			out = append(out, r.PartialFingerprints[fingerprintKey])
		}
		return out
	}
	before := write("a = bad\nb = bad\nc = bad\n")
	after := write("# a comment\n\na  =  bad\nb = bad\nc = bad\n")
	if len(before) != 3 || !slices.Equal(before, after) {
		t.Errorf("fingerprints changed when lines were added above:\n%q\n%q", before, after)
	}
	if before[1] == before[2] || before[0] == before[1] {
		t.Errorf("different findings share a fingerprint: %q", before)
	}
	same := write("x = bad\nx = bad\n")
	if !strings.HasSuffix(same[0], ":0") || !strings.HasSuffix(same[1], ":1") || same[0][:len(same[0])-2] != same[1][:len(same[1])-2] {
		t.Errorf("identical lines: %q", same)
	}
}

func TestFirstSentence(t *testing.T) {
	tests := []struct{ doc, want string }{
		{"Reports a thing.\nAnd more.\n\nBad:\n\n    x", "Reports a thing."},
		{"Writes the \"resource.\" prefix and\nwraps. Then more.", "Writes the \"resource.\" prefix and wraps."},
		{"X.name is one sentence without a final period", "X.name is one sentence without a final period"},
		{"One paragraph.\n\nAnother.", "One paragraph."},
	}
	for _, tt := range tests {
		if got := firstSentence(tt.doc); got != tt.want {
			t.Errorf("firstSentence(%q) = %q, want %q", tt.doc, got, tt.want)
		}
	}
}

// checkstyleXML and the types below read the documents back with
// encoding/xml, independently of the types that write them.
type checkstyleXML struct {
	XMLName xml.Name `xml:"checkstyle"`
	Version string   `xml:"version,attr"`
	Files   []struct {
		Name   string `xml:"name,attr"`
		Errors []struct {
			Line     int    `xml:"line,attr"`
			Column   int    `xml:"column,attr"`
			Severity string `xml:"severity,attr"`
			Message  string `xml:"message,attr"`
			Source   string `xml:"source,attr"`
		} `xml:"error"`
	} `xml:"file"`
}

func parseCheckstyle(t *testing.T, out string) *checkstyleXML {
	t.Helper()
	if !strings.HasPrefix(out, xml.Header) {
		t.Errorf("checkstyle: no XML declaration:\n%s", out)
	}
	var doc checkstyleXML
	if err := xml.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("checkstyle: %v\n%s", err, out)
	}
	return &doc
}

func TestCheckstyle(t *testing.T) {
	doc := parseCheckstyle(t, write(t, Checkstyle, sampleReport()))
	if doc.Version != "v1.2.3" {
		t.Errorf("version = %q", doc.Version)
	}
	var got []string
	for _, f := range doc.Files {
		got = append(got, "file "+f.Name)
		for _, e := range f.Errors {
			got = append(got, fmt.Sprintf("%d:%d %s %s %s", e.Line, e.Column, e.Severity, e.Source, e.Message))
		}
	}
	want := []string{
		"file ",
		"0:0 warning " + LoadError + " No file at all\n\nDetail: " + tricky,
		"0:0 warning made_up About the whole run, no file",
		"file a b.tf",
		"2:14 info future_symbol_conflict " + tricky + "\n\nline one\r\nline two\twith a tab",
		"file b.tf",
		"1:1 error " + LoadError + " Unsupported block type\n\nBlocks of type \"resources\" are not expected here.",
		"2:7 error symbol_reference Reference to undefined symbol library\n\nThere is no symbols block named \"legacy\".\n\nUse:\n    resource.symbols.legacy.id\n\nSuggested fix: Insert \"resource.\".",
		"file clean.tf",
	}
	if !slices.Equal(got, want) {
		t.Errorf("checkstyle =\n%q\nwant\n%q", got, want)
	}
}

type junitXML struct {
	XMLName  xml.Name `xml:"testsuites"`
	Tests    int      `xml:"tests,attr"`
	Failures int      `xml:"failures,attr"`
	Suites   []struct {
		Name     string `xml:"name,attr"`
		Tests    int    `xml:"tests,attr"`
		Failures int    `xml:"failures,attr"`
		Cases    []struct {
			Name      string `xml:"name,attr"`
			Classname string `xml:"classname,attr"`
			File      string `xml:"file,attr"`
			Failure   *struct {
				Message string `xml:"message,attr"`
				Type    string `xml:"type,attr"`
				Text    string `xml:",chardata"`
			} `xml:"failure"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

func parseJUnit(t *testing.T, out string) *junitXML {
	t.Helper()
	if !strings.HasPrefix(out, xml.Header) {
		t.Errorf("junit: no XML declaration:\n%s", out)
	}
	var doc junitXML
	if err := xml.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("junit: %v\n%s", err, out)
	}
	tests, failures := 0, 0
	for _, s := range doc.Suites {
		n := 0
		for _, c := range s.Cases {
			if c.Failure != nil {
				n++
			}
		}
		if s.Tests != len(s.Cases) || s.Failures != n {
			t.Errorf("junit: suite %s says %d tests, %d failures; has %d, %d", s.Name, s.Tests, s.Failures, len(s.Cases), n)
		}
		tests += s.Tests
		failures += s.Failures
	}
	if doc.Tests != tests || doc.Failures != failures {
		t.Errorf("junit: testsuites says %d tests, %d failures; suites have %d, %d", doc.Tests, doc.Failures, tests, failures)
	}
	return &doc
}

func TestJUnit(t *testing.T) {
	doc := parseJUnit(t, write(t, JUnit, sampleReport()))
	var got []string
	for _, s := range doc.Suites {
		got = append(got, "suite "+s.Name)
		for _, c := range s.Cases {
			line := fmt.Sprintf("%s %s file=%q", c.Name, c.Classname, c.File)
			if f := c.Failure; f != nil {
				line += fmt.Sprintf(" %s %q %q", f.Type, f.Message, f.Text)
			}
			got = append(got, line)
		}
	}
	want := []string{
		"suite tofulint",
		fmt.Sprintf("%s tofulint file=\"\" warning %q %q", LoadError, "No file at all", "Warning - No file at all (load_error)\n\nDetail: "+tricky),
		fmt.Sprintf("made_up tofulint file=\"\" warning %q %q", "About the whole run, no file", "Warning - About the whole run, no file (made_up)"),
		"suite .",
		fmt.Sprintf("future_symbol_conflict a b.tf file=\"a b.tf\" notice %q %q", "a b.tf:2:14: "+tricky, "a b.tf:2:14: Notice - "+tricky+" (future_symbol_conflict)\n\nline one\r\nline two\twith a tab"),
		fmt.Sprintf("%s b.tf file=\"b.tf\" error %q %q", LoadError, "b.tf:1:1: Unsupported block type", "b.tf:1:1: Error - Unsupported block type (load_error)\n\nBlocks of type \"resources\" are not expected here."),
		fmt.Sprintf("symbol_reference b.tf file=\"b.tf\" error %q %q", "b.tf:2:7: Reference to undefined symbol library", "b.tf:2:7: Error - Reference to undefined symbol library (symbol_reference)\n\nThere is no symbols block named \"legacy\".\n\nUse:\n    resource.symbols.legacy.id\n\nSuggested fix: Insert \"resource.\"."),
	}
	if !slices.Equal(got, want) {
		t.Errorf("junit =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// One suite per module: a clean module passes with one testcase.
	r := &Report{
		Findings: []rules.Finding{{Rule: "r", Severity: rules.Warning, Message: "m", Range: rng(filepath.Join("m1", "a.tf"), 1, 1, 0, 1, 2, 1)}},
		Files:    map[string]*hcl.File{filepath.Join("m1", "a.tf"): {}, filepath.Join("m1", "b.tf"): {}, filepath.Join("m2", "c.tf"): {}},
	}
	got = nil
	for _, s := range parseJUnit(t, write(t, JUnit, r)).Suites {
		got = append(got, fmt.Sprintf("%s: %d tests, %d failures", s.Name, s.Tests, s.Failures))
	}
	if want := []string{"m1: 1 tests, 1 failures", "m2: 1 tests, 0 failures"}; !slices.Equal(got, want) {
		t.Errorf("suites = %q, want %q", got, want)
	}
}

func TestCompact(t *testing.T) {
	out := write(t, Compact, sampleReport())
	want := "5 issue(s) found:\n\n" +
		"Warning - No file at all: Detail: " + tricky + " (load_error)\n" +
		"Warning - About the whole run, no file (made_up)\n" +
		"a b.tf:2:14: Notice - " + tricky + " (future_symbol_conflict)\n" +
		"b.tf:1:1: Error - Unsupported block type: Blocks of type \"resources\" are not expected here. (load_error)\n" +
		"b.tf:2:7: Error - Reference to undefined symbol library (symbol_reference)\n"
	if out != want {
		t.Errorf("compact =\n%s\nwant\n%s", out, want)
	}
	// A message over several lines stays on one.
	r := &Report{Findings: []rules.Finding{{Rule: "r", Severity: rules.Warning, Message: "one\n  two\r\nthree", Range: rng("x.tf", 1, 1, 0, 1, 2, 1)}}}
	if got := write(t, Compact, r); got != "1 issue(s) found:\n\nx.tf:1:1: Warning - one two three (r)\n" {
		t.Errorf("compact = %q", got)
	}
}

// githubCommand is a workflow command as the Actions runner reads it.
type githubCommand struct {
	command string
	props   map[string]string
	data    string
}

var githubCommandLine = regexp.MustCompile(`^::([a-z]+)(?: ([^:]*))?::(.*)$`)

// parseGitHub reads workflow commands the way the runner does: the
// properties up to "::", split at "," and at their first "=", and each
// value and the data unescaped.
func parseGitHub(t *testing.T, out string) []githubCommand {
	t.Helper()
	unescapeData := strings.NewReplacer("%0D", "\r", "%0A", "\n", "%25", "%")
	unescapeProp := strings.NewReplacer("%0D", "\r", "%0A", "\n", "%3A", ":", "%2C", ",", "%25", "%")
	var cmds []githubCommand
	for line := range strings.Lines(out) {
		line = strings.TrimSuffix(line, "\n")
		m := githubCommandLine.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("github: not a workflow command: %q", line)
		}
		c := githubCommand{command: m[1], props: map[string]string{}, data: unescapeData.Replace(m[3])}
		for p := range strings.SplitSeq(m[2], ",") {
			k, v, ok := strings.Cut(p, "=")
			if !ok {
				t.Fatalf("github: property %q in %q", p, line)
			}
			c.props[k] = unescapeProp.Replace(v)
		}
		cmds = append(cmds, c)
	}
	return cmds
}

func TestGitHub(t *testing.T) {
	r := sampleReport()
	// A file name with every character that ends a property.
	r.Findings = append(r.Findings, rules.Finding{Rule: "r,x", Severity: rules.Warning, Message: "m%0A",
		Range: rng("d,1%:2.tf", 3, 1, 20, 4, 2, 30)})
	cmds := parseGitHub(t, write(t, GitHub, r))
	var got []string
	for _, c := range cmds {
		keys := slices.Sorted(func(yield func(string) bool) {
			for k := range c.props {
				if !yield(k) {
					return
				}
			}
		})
		var props []string
		for _, k := range keys {
			props = append(props, k+"="+c.props[k])
		}
		got = append(got, c.command+" "+strings.Join(props, " ")+" | "+c.data)
	}
	readme := "\n\n" + InformationURI + "#tofulint-rules"
	want := []string{
		"warning title=load_error | No file at all\n\nDetail: " + tricky + readme,
		"warning title=made_up | About the whole run, no file" + readme,
		"notice col=14 endColumn=17 endLine=2 file=a b.tf line=2 title=future_symbol_conflict | " + tricky + "\n\n" + InformationURI + "/blob/main/rules/future_symbol_conflict.go",
		"error col=1 endColumn=7 endLine=1 file=b.tf line=1 title=load_error | Unsupported block type\n\nBlocks of type \"resources\" are not expected here." + readme,
		"error col=7 endColumn=21 endLine=2 file=b.tf line=2 title=symbol_reference | Reference to undefined symbol library\n\nSuggested fix: Insert \"resource.\".\n\n" + InformationURI + "/blob/main/rules/symbol_reference.go",
		"warning col=1 endColumn=2 endLine=4 file=d,1%:2.tf line=3 title=r,x | m%0A" + readme,
	}
	if !slices.Equal(got, want) {
		t.Errorf("github =\n%q\nwant\n%q", got, want)
	}
}

// Every rule's documentation link names a file that exists.
func TestRuleDocURL(t *testing.T) {
	for _, r := range rules.All() {
		path, ok := strings.CutPrefix(RuleDocURL(r.Name), InformationURI+"/blob/main/")
		if !ok {
			t.Fatalf("%s: %s", r.Name, RuleDocURL(r.Name))
		}
		if _, err := os.Stat(filepath.Join("..", path)); err != nil {
			t.Errorf("%s: %v", r.Name, err)
		}
	}
}

// TestBadInput: findings and diagnostics with missing or impossible
// positions, unknown severities and control characters give valid
// documents, never a panic.
func TestBadInput(t *testing.T) {
	r := &Report{
		Files: map[string]*hcl.File{"x.tf": {Bytes: []byte("ab")}, "nil.tf": nil},
		Rules: []*rules.Rule{nil, rules.SymbolReference},
		Findings: []rules.Finding{
			{Rule: "a", Severity: 0, Message: "zero range", Range: hcl.Range{Filename: "x.tf"}},
			{Rule: "b", Severity: 7, Message: "beyond the source \x00\x1b", Range: rng("x.tf", 9, 9, 900, 2, 1, 1000)},
			{Rule: "c", Severity: rules.Error, Message: "bad fix", Range: rng("nil.tf", 1, 1, 0, 1, 1, 0),
				Fix: &rules.Fix{Edits: []rules.Edit{{Range: hcl.Range{Start: hcl.Pos{Byte: 5}, End: hcl.Pos{Byte: 2}}}}}},
		},
		Diagnostics: hcl.Diagnostics{{Severity: hcl.DiagInvalid, Summary: ""}},
	}
	for _, format := range Formats {
		out := write(t, format, r)
		switch format {
		case SARIF:
			validSARIF(t, out)
		case Checkstyle:
			parseCheckstyle(t, out)
		case JUnit:
			parseJUnit(t, out)
		case GitHub:
			parseGitHub(t, out)
		}
	}
}
