package inputs

import (
	"regexp"
	"testing"
	"unicode/utf8"
)

// TestGenerate checks the strings generated for patterns of every kind of
// node: what each gives at the minimum, and that it matches.
func TestGenerate(t *testing.T) {
	tests := []struct {
		pattern string
		extra   int
		want    string
	}{
		{`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`, 0, "aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa"},
		{`^[0-9A-F]{8}(-[0-9A-F]{4}){3}-[0-9A-F]{12}$`, 0, "00000000-0000-0000-0000-000000000000"},
		{`^[a-z][a-z0-9-]{2,10}$`, 0, "aaa"},
		{`^[a-z][a-z0-9-]{2,10}$`, 1, "aaaa"},
		{`^[a-z][a-z0-9-]{2,10}$`, 3, "aaaaaa"},
		{`^(t3|m5)\.(micro|large)$`, 0, "t3.micro"},
		{`^arn:aws:iam::\d{12}:role/.+$`, 0, "arn:aws:iam::000000000000:role/a"},
		{`(?i)^Hello$`, 0, "hello"},
		{`^[^a-z]{2}$`, 0, "00"},
		{`\bword\b`, 0, "word"},
		{`^$`, 0, ""},
		{`x*`, 0, ""},
		{`x*`, 3, "xxx"},
		{`^ab?c$`, 0, "ac"},
		{`^ab?c$`, 1, "abc"},
		{`(?m)^a$`, 0, "a"},
		{`(?s)a.b`, 0, "aab"},
		{`^\p{Greek}+$`, 0, "Ͱ"},
	}
	for _, tc := range tests {
		got, ok := generate(tc.pattern, tc.extra)
		if !ok || got != tc.want {
			t.Errorf("generate(%q, %d) = %q, %v; want %q", tc.pattern, tc.extra, got, ok, tc.want)
			continue
		}
		if !regexp.MustCompile(tc.pattern).MatchString(got) {
			t.Errorf("%q does not match %q", tc.pattern, got)
		}
	}
}

// TestGenerateGivesUp checks that patterns the generator cannot meet, or
// that nothing matches, give nothing, and that the bad ones do not parse.
func TestGenerateGivesUp(t *testing.T) {
	for _, p := range []string{
		`[`,                                   // does not parse
		`a^b`,                                 // ^ after a character
		`a$b`,                                 // $ before one
		`\Aa\Ab`,                              // \A in the middle
		`a\bb`,                                // no word boundary between two letters
		`\Ba`,                                 // a word character at the start is a boundary
		`[^\x00-\x{10FFFF}]`,                  // an empty class
		`(?m)a$b`,                             // a line end not followed by a line break
		`x{1000}y{1000}z{1000}a{1000}b{1000}`, // longer than maxGenerated
	} {
		if s, ok := generate(p, 0); ok {
			t.Errorf("generate(%q) = %q, want to give up", p, s)
		}
		if got := stringsMatching(p); len(got) != 0 {
			t.Errorf("stringsMatching(%q) = %q", p, got)
		}
	}
	// An alternative that cannot be written is passed over.
	if s, ok := generate(`^(a^|b)$`, 0); !ok || s != "b" {
		t.Errorf("alternation: %q, %v", s, ok)
	}
	// A repetition beyond the minimum that cannot be written is left out.
	if s, ok := generate(`^a(b$)*`, 3); !ok || !regexp.MustCompile(`^a(b$)*`).MatchString(s) {
		t.Errorf("repetition: %q, %v", s, ok)
	}
}

// FuzzGenerate: for any pattern, generate never panics, gives up on a
// pattern that does not parse, and any string it claims to match is
// matched by the pattern and bounded in length.
func FuzzGenerate(f *testing.F) {
	for _, seed := range []string{
		`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`,
		`^(t3|m5)\.(micro|large)-[0-9]{2}[A-Z]?$`, `\bword\b`, `a\bb`, `(?m)^a$\n^b$`, `(?i)k[^k]`,
		`^(?:[0-9]{1,3}\.){3}[0-9]{1,3}/\d+$`, `[\x{1F600}-\x{1F64F}]+`, `x{2,}?y*?`, `(a|ab)(c|bcd)(d*)`,
		`\B\w\b`, `^$`, `$^`, `[^\n]`, `\pN\PL`, `(?U)a+`, `[[:alpha:]][[:^digit:]]`,
	} {
		f.Add(seed, uint8(0))
	}
	f.Fuzz(func(t *testing.T, pattern string, extra uint8) {
		compiled, err := regexp.Compile(pattern)
		for _, n := range []int{0, int(extra % 5)} {
			s, ok := generate(pattern, n)
			if !ok {
				continue
			}
			if err != nil {
				t.Fatalf("generate(%q) = %q for a pattern that does not compile: %v", pattern, s, err)
			}
			if !utf8.ValidString(s) || utf8.RuneCountInString(s) > maxGenerated {
				t.Fatalf("generate(%q) = %q: not valid UTF-8 or too long", pattern, s)
			}
			if !compiled.MatchString(s) {
				t.Fatalf("generate(%q, %d) = %q, which it does not match", pattern, n, s)
			}
		}
	})
}
