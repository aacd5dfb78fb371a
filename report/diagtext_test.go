package report

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// parseDiags parses src as main.tf and returns its file and diagnostics.
func parseDiags(src []byte) (map[string]*hcl.File, hcl.Diagnostics) {
	f, diags := hclsyntax.ParseConfig(src, "main.tf", hcl.InitialPos)
	files := map[string]*hcl.File{}
	if f != nil {
		files["main.tf"] = f
	}
	return files, diags
}

// hclText is what hcl's own text writer prints.
func hclText(files map[string]*hcl.File, diags hcl.Diagnostics) string {
	var b bytes.Buffer
	_ = hcl.NewDiagnosticTextWriter(&b, files, 0, false).WriteDiagnostics(diags)
	return b.String()
}

func ourText(t testing.TB, files map[string]*hcl.File, diags hcl.Diagnostics) string {
	var b bytes.Buffer
	if err := WriteDiagnostics(&b, files, diags); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// The linear writer prints what hcl's writer prints, as long as no file
// has more than MaxPerFile diagnostics.
func TestDiagnosticWriterMatchesHCL(t *testing.T) {
	for _, src := range []string{
		"resource \"a\" \"b\" {\n  x = \n}\n",
		"a = 1\r\nb = \r\n",
		"x = \"${\"\n",
		"block {\n\n  = 2\n}",
		"",
		"}}}\n\n\n{{{",
		"a = [1,\n2,\n",
		"a = \"\xff\" +\n",
	} {
		files, diags := parseDiags([]byte(src))
		if len(diags) == 0 && src != "" {
			t.Fatalf("%q: no diagnostics to compare", src)
		}
		if got, want := ourText(t, files, diags), hclText(files, diags); got != want {
			t.Errorf("%q:\ngot:\n%s\nwant:\n%s", src, got, want)
		}
	}
	// A subject with a context over several lines, and an empty subject
	// at the end of the file.
	src := []byte("a = {\n  b = 1\n  c = 2\n}\n")
	files, _ := parseDiags(src)
	rng := func(s, e hcl.Pos) *hcl.Range { return &hcl.Range{Filename: "main.tf", Start: s, End: e} }
	diags := hcl.Diagnostics{
		{Severity: hcl.DiagError, Summary: "s", Detail: "d", Subject: rng(hcl.Pos{Line: 2, Column: 3, Byte: 8}, hcl.Pos{Line: 2, Column: 4, Byte: 9}), Context: rng(hcl.Pos{Line: 1, Column: 5, Byte: 4}, hcl.Pos{Line: 4, Column: 2, Byte: 27})},
		{Severity: hcl.DiagWarning, Summary: "w", Subject: rng(hcl.Pos{Line: 5, Column: 1, Byte: 28}, hcl.Pos{Line: 5, Column: 1, Byte: 28})},
		{Severity: hcl.DiagWarning, Summary: "no source", Subject: rng(hcl.Pos{Line: 1, Column: 1}, hcl.Pos{Line: 1, Column: 1})},
		{Severity: hcl.DiagError, Summary: "no file"},
	}
	diags[2].Subject.Filename = "other.tf"
	if got, want := ourText(t, files, diags), hclText(files, diags); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// Beyond MaxPerFile diagnostics about a file, the rest are counted.
func TestDiagnosticWriterCapsPerFile(t *testing.T) {
	var diags hcl.Diagnostics
	for i := range MaxPerFile + 3 {
		for _, name := range []string{"b.tf", "a.tf"} {
			r := hcl.Range{Filename: name, Start: hcl.Pos{Line: i + 1, Column: 1}, End: hcl.Pos{Line: i + 1, Column: 1}}
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: fmt.Sprint("d", i), Subject: &r})
		}
	}
	diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "about no file"})
	out := ourText(t, nil, diags)
	if n := strings.Count(out, "Error: d"); n != 2*MaxPerFile {
		t.Errorf("%d diagnostics shown, want %d", n, 2*MaxPerFile)
	}
	if !strings.Contains(out, "Error: about no file") {
		t.Error("a diagnostic about no file is not shown")
	}
	want := fmt.Sprintf("3 more diagnostics about a.tf not shown (the first %d are; --format json lists all).\n\n"+
		"3 more diagnostics about b.tf not shown (the first %d are; --format json lists all).\n\n", MaxPerFile, MaxPerFile)
	if !strings.HasSuffix(out, want) {
		t.Errorf("output ends with %q, want %q", out[max(len(out)-len(want), 0):], want)
	}
}

// A long line is shown as a window around what the diagnostic marks, and
// a subject over many lines as its first lines and a count of the rest.
func TestDiagnosticWriterCuts(t *testing.T) {
	src := "a = \"" + strings.Repeat("é", 5000) + "\" + x + \"" + strings.Repeat("b", 5000) + "\"\n" +
		"b = <<EOT\n" + strings.Repeat("line\n", 100) + "EOT\n"
	files, _ := parseDiags([]byte(src))
	at := strings.Index(src, "x")
	bAt := strings.Index(src, "b = ")
	rng := func(s, e hcl.Pos) *hcl.Range { return &hcl.Range{Filename: "main.tf", Start: s, End: e} }
	diags := hcl.Diagnostics{
		{Severity: hcl.DiagError, Summary: "long line", Subject: rng(hcl.Pos{Line: 1, Column: 5008, Byte: at}, hcl.Pos{Line: 1, Column: 5009, Byte: at + 1})},
		{Severity: hcl.DiagError, Summary: "many lines", Subject: rng(hcl.Pos{Line: 2, Column: 1, Byte: bAt}, hcl.Pos{Line: 103, Column: 4, Byte: len(src) - 1})},
	}
	out := ourText(t, files, diags)
	for _, line := range strings.Split(out, "\n") {
		if len(line) > MaxLineBytes+20 {
			t.Errorf("a line of %d bytes:\n%.300s", len(line), line)
		}
	}
	if !utf8.ValidString(out) {
		t.Error("a character was cut in two")
	}
	for _, want := range []string{"   1: …", `é" + x + "b`, "b…\n", "      (90 more lines)\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
}

func FuzzDiagnosticWriter(f *testing.F) {
	for _, s := range []string{"a = \n", "x {\r\n y = [\n", "\"${", "a = 1\nb = 2\n}\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		files, diags := parseDiags(src)
		got := ourText(t, files, diags)
		// hcl's writer counts invalid UTF-8 into the next byte, which can
		// take a line's newline into the snippet: there the outputs differ
		// by design; and it counts a lone carriage return as a line break
		// where the parser and this writer do not.
		lone := bytes.Contains(bytes.ReplaceAll(src, []byte("\r\n"), nil), []byte("\r"))
		// Long lines and long snippets are cut (TestDiagnosticWriterCuts).
		cut := slices.ContainsFunc(bytes.Split(src, []byte("\n")), func(l []byte) bool { return len(l) > MaxLineBytes }) ||
			slices.ContainsFunc(diags, func(d *hcl.Diagnostic) bool {
				return d.Subject != nil && d.Subject.End.Line-d.Subject.Start.Line+3 > MaxSnippetLines
			})
		if len(diags) <= MaxPerFile && utf8.Valid(src) && !lone && !cut {
			if want := hclText(files, diags); got != want {
				t.Fatalf("got:\n%s\nwant:\n%s", got, want)
			}
		}
	})
}

// randomSource is n bytes of pseudo-random printable text and newlines,
// which gives thousands of parse diagnostics.
func randomSource(n int) []byte {
	r := rand.New(rand.NewPCG(1, 2))
	const chars = "abc{}[]()=\"$%#/*,.:?!<>\n  "
	b := make([]byte, n)
	for i := range b {
		b[i] = chars[r.IntN(len(chars))]
	}
	return b
}

// BenchmarkDiagnosticWriter compares the linear writer with hcl's on the
// same random file: go test -bench DiagnosticWriter ./report
func BenchmarkDiagnosticWriter(b *testing.B) {
	src := randomSource(20_000)
	files, diags := parseDiags(src)
	b.Logf("%d diagnostics", len(diags))
	b.Run("linear", func(b *testing.B) {
		for range b.N {
			_ = WriteDiagnostics(&bytes.Buffer{}, files, diags)
		}
	})
	b.Run("hcl", func(b *testing.B) {
		for range b.N {
			_ = hcl.NewDiagnosticTextWriter(&bytes.Buffer{}, files, 0, false).WriteDiagnostics(diags)
		}
	})
}
