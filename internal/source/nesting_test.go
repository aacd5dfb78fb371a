package source

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/json"

	"github.com/tofucue/tofucue/internal/corpus"
)

// nest wraps inner in n levels of open and close.
func nest(n int, opener, closer, inner string) string {
	return strings.Repeat(opener, n) + inner + strings.Repeat(closer, n)
}

func TestCheckNesting(t *testing.T) {
	deep := MaxNesting + 1
	for _, tc := range []struct {
		name   string
		syntax Syntax
		src    string
		// want is the line and column of the diagnostic, 0 for none.
		line, col int
	}{
		{"parens at the limit", HCL, "x = " + nest(MaxNesting, "(", ")", "1") + "\n", 0, 0},
		{"parens beyond", HCL, "x = " + nest(deep, "(", ")", "1") + "\n", 1, 5 + MaxNesting},
		{"blocks count", HCL, "a {\n" + nest(MaxNesting-1, "b {\n", "}\n", "") + "}\n", 0, 0},
		{"blocks beyond", HCL, "a {\n" + nest(MaxNesting, "b {\n", "}\n", "") + "}\n", MaxNesting + 1, 3},
		{"lists after a multibyte character", HCL, "# é\nx = \"é\" == " + nest(deep, "[", "]", "") + "\n", 2, 12 + MaxNesting},
		{"sequential levels do not add up", HCL, strings.Repeat("x = [[[1]]]\n", 1000), 0, 0},
		{"brackets in a quoted string", HCL, `x = "` + strings.Repeat("((([[{", 1000) + "\"\n", 0, 0},
		{"escaped quote in a string", HCL, `x = "\"` + strings.Repeat("(", 1000) + "\"\n", 0, 0},
		{"brackets in comments", HCL, "# " + strings.Repeat("(", 1000) + "\n// " + strings.Repeat("[", 1000) + "\n/* " + strings.Repeat("{", 1000) + " */\nx = 1\n", 0, 0},
		{"brackets in a heredoc", HCL, "x = <<-EOT\n  " + strings.Repeat("({[", 1000) + "\n  EOT\ny = 1\n", 0, 0},
		{"interpolations in a string", HCL, "x = \"" + nest(deep, "${", "}", "1") + "\"\n", 1, 7 + 2*MaxNesting},
		{"escaped interpolations", HCL, "x = \"" + strings.Repeat("$${", 1000) + strings.Repeat("%%{", 1000) + "\"\n", 0, 0},
		{"strings inside interpolations", HCL, "x = " + nest(deep, `"${`, `}"`, "1") + "\n", 1, 6 + 3*MaxNesting},
		{"interpolations in a heredoc", HCL, "x = <<EOT\n" + nest(deep, "${", "}", "1") + "\nEOT\n", 2, 2 + 2*MaxNesting},
		{"a heredoc ends at its marker", HCL, "x = <<EOT\n((((\nEOT\ny = " + nest(deep, "(", ")", "1") + "\n", 4, 5 + MaxNesting},
		{"a string ends at its line's end", HCL, "x = \"abc\ny = " + nest(deep, "(", ")", "1") + "\n", 2, 5 + MaxNesting},
		{"if directives nest", HCL, "x = \"" + nest(deep, "%{if true}", "%{endif}", "") + "\"\n", 1, 6 + 10*(MaxNesting-1)},
		{"sequential directives do not add up", HCL, "x = \"" + strings.Repeat("%{if true}a%{else}b%{endif}", 1000) + "\"\n", 0, 0},
		{"template file", Template, strings.Repeat("(((", 1000) + nest(deep, "${", "}", "1"), 1, 3002 + 2*MaxNesting},
		{"template file literal text", Template, strings.Repeat("(((", 1000), 0, 0},
		{"json arrays", JSON, `{"a": ` + nest(MaxNesting, "[", "]", "") + "}", 1, 7 + MaxNesting - 1},
		{"json strings end their levels", JSON, `{"a": [` + strings.Repeat(`"${(((((",`, 1000) + `"x"]}`, 0, 0},
		{"json string template", JSON, `{"a": "` + nest(MaxNesting, "${", "}", "1") + `"}`, 1, 9 + 2*(MaxNesting-1)},
		{"json escaped quote", JSON, `{"a": "\"` + strings.Repeat("(", 10) + `"}`, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := CheckNesting([]byte(tc.src), "f.tf", tc.syntax)
			if tc.line == 0 {
				if d != nil {
					t.Fatalf("got %s at %d:%d, want none", d.Summary, d.Subject.Start.Line, d.Subject.Start.Column)
				}
				return
			}
			if d == nil {
				t.Fatalf("got no diagnostic, want one at %d:%d", tc.line, tc.col)
			}
			if d.Severity != hcl.DiagError || d.Subject.Filename != "f.tf" || d.Subject.Start.Line != tc.line || d.Subject.Start.Column != tc.col {
				t.Fatalf("got %s at %s:%d:%d, want an error at f.tf:%d:%d", d.Summary, d.Subject.Filename, d.Subject.Start.Line, d.Subject.Start.Column, tc.line, tc.col)
			}
			if b := d.Subject.Start.Byte; b >= len(tc.src) || !strings.ContainsRune("([{$%", rune(tc.src[b])) {
				t.Fatalf("the diagnostic's byte offset %d is not at an opener", b)
			}
		})
	}
}

// TestCheckNestingCrashDepth checks that the depth which crashes the
// parsers (tens of thousands of levels) is refused fast.
func TestCheckNestingCrashDepth(t *testing.T) {
	const n = 70000
	for _, src := range []string{
		"x = " + nest(n, "(", ")", "1"),
		"x = " + nest(n, "[", "]", ""),
		"x = " + nest(n, "{a=", "}", "1"),
		nest(n, "a {\n", "}\n", ""),
		"x = \"" + nest(n, "${", "}", "1") + "\"",
	} {
		if d := CheckNesting([]byte(src), "f.tf", HCL); d == nil {
			t.Errorf("%.20s...: not refused", src)
		}
	}
}

// TestCorpusNesting checks that no corpus file comes near the limit and
// says how deep the deepest one nests.
func TestCorpusNesting(t *testing.T) {
	corpus.Require(t)
	root := corpus.Shared(t, "corpus")
	deepest, where, files := 0, "", 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		syntax := SyntaxOf(path)
		switch {
		case strings.HasSuffix(path, ".tf"), strings.HasSuffix(path, ".tofu"), strings.HasSuffix(path, ".tf.json"), strings.HasSuffix(path, ".tfvars"):
		case strings.HasSuffix(path, ".tftpl"), strings.HasSuffix(path, ".tpl"):
			syntax = Template
		default:
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files++
		depth := 0
		for limit := 0; ; limit++ {
			var at int
			if syntax == JSON {
				at = scanJSON(src, limit)
			} else {
				at = scanNative(src, syntax == Template, limit)
			}
			if at < 0 {
				depth = limit
				break
			}
		}
		if depth > deepest {
			deepest, where = depth, path
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d files; the deepest nests %d levels: %s", files, deepest, where)
	if deepest > MaxNesting/4 {
		t.Errorf("a corpus file nests %d levels, too near MaxNesting (%d): %s", deepest, MaxNesting, where)
	}
}

// FuzzCheckNesting checks that the scan never panics and that what it lets
// through the parsers parse without crashing.
func FuzzCheckNesting(f *testing.F) {
	f.Add([]byte("x = [(1), {a = \"${b}\"}]\n"), byte(0))
	f.Add([]byte("x = <<-EOT\n  %{ if a }${b}%{ endif }\n  EOT\n"), byte(0))
	f.Add([]byte(`{"a": ["${x}"]}`), byte(1))
	f.Add([]byte("a %{for x in y}${x}%{endfor}"), byte(2))
	f.Fuzz(func(t *testing.T, src []byte, s byte) {
		syntax := Syntax(s % 3)
		if d := CheckNesting(src, "f", syntax); d != nil {
			if d.Subject.Start.Byte >= len(src) {
				t.Fatalf("offset %d beyond the source", d.Subject.Start.Byte)
			}
			return
		}
		switch syntax {
		case HCL:
			_, _ = hclsyntax.ParseConfig(src, "f", hcl.InitialPos)
		case JSON:
			_, _ = json.Parse(src, "f")
		case Template:
			_, _ = hclsyntax.ParseTemplate(src, "f", hcl.InitialPos)
		}
	})
}

func TestDataTooDeep(t *testing.T) {
	deep := strings.Repeat("[", MaxNesting+1) + strings.Repeat("]", MaxNesting+1)
	limit := strings.Repeat("[", MaxNesting) + strings.Repeat("]", MaxNesting)
	for _, c := range []struct {
		src  string
		yaml bool
		want bool
	}{
		{deep, false, true},
		{deep, true, true},
		{limit, false, false},
		{limit, true, false},
		{`{"a": [1, {"b": "]]]]"}]}`, false, false},
		{"a: [1, {b: c}]\nd:\n  - e\n", true, false},
		// A quote in a YAML plain scalar starts no string: the brackets
		// after it count.
		{`a"b: ` + deep, true, true},
	} {
		if got := DataTooDeep(c.src, c.yaml); got != c.want {
			t.Errorf("DataTooDeep(%.40q, yaml %v) = %v, want %v", c.src, c.yaml, got, c.want)
		}
	}
}
