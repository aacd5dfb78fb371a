package convert

import (
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/bmatcuk/doublestar/v4"
)

// globTable is the table of TestGlobRegexp: a pattern and its regexp, or ""
// for a refused pattern.
var globTable = []struct{ pattern, re string }{
	{"*.yaml", `^(?:[^/]*\.yaml)$`},
	{"**/*.yaml", `^(?:(?:[^/]+/)*[^/]*\.yaml)$`},
	{"**/**/.config.yaml", `^(?:(?:[^/]+/)*(?:[^/]+/)*\.config\.yaml)$`},
	{"*", `^(?:[^/]*)$`},
	{"**", `^(?:[^/]+(?:/[^/]+)*)$`},
	{"a/**", `^(?:a/[^/]+(?:/[^/]+)*)$`},
	{"x**.md", `^(?:x[^/]*\.md)$`},
	{"a**", `^(?:a[^/]*)$`},
	{"a***/b*", `^(?:a[^/]+/b[^/]*)$`},
	{"***", `^(?:[^/]+)$`},
	{"conf/*.json", `^(?:conf/[^/]*\.json)$`},
	{"{a,b}/*.txt", `^(?:a/[^/]*\.txt|b/[^/]*\.txt)$`},
	{"x{,y}.md", `^(?:x\.md|xy\.md)$`},
	{"x{y,}.md", `^(?:xy\.md)$`},
	{"{0,}ab", `^(?:0ab)$`},
	{"**/x{y,{}}.md", `^(?:(?:[^/]+/)*xy\.md)$`},
	{"*.{yaml,yml}", `^(?:[^/]*\.yaml|[^/]*\.yml)$`},
	{"x{}.md", `^[^\x00-\x{10FFFF}]$`},
	{"{a/**,*}.md", `^(?:a/[^/]*\.md|[^/]*\.md)$`},
	{"x?.md", `^(?:x[^/]\.md)$`},
	{"[a-c]*.tf", `^(?:[\x{61}-\x{63}][^/]*\.tf)$`},
	{"[!a]*", `^(?:[^/\x{61}][^/]*)$`},
	{"[z-a]", `^(?:[\x{7a}])$`},
	{"[a-0]b", `^(?:[\x{61}]b)$`},
	{"a[.-7]*", `^(?:a[\x{2e}\x{30}-\x{37}][^/]*)$`},
	{"a[!.-0]", `^(?:a[^/\x{2e}\x{30}])$`},
	{`\*.txt`, `^(?:\*\.txt)$`},
	{"./*.yaml", `^(?:[^/]*\.yaml)$`},
	{"a//b/*", `^(?:a/b/[^/]*)$`},
	{"a/./b", `^(?:a/b)$`},
	{"{a,}/b/{c,}", `^(?:a/b/c)$`},

	{"../*", ""},
	{"/etc/*", ""},
	{"a/../b", ""},
	{"", ""},
	{".", ""},
	{"./", ""},
	{"[", ""},
	{"[]", ""},
	{"{a", ""},
	{"a}", ""},
	{`a\`, ""},
	{`\a`, ""},
	{"[/]", ""},
	{"a/{,b}/c", ""},
	{"{..,a}/b", ""},
	{"**/{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}{o,p}{q,r}", ""},
	{"x{y,{}}.md", ""},
	{"{a,{b,0}}", ""},
	{"*{,{,0}}", ""},
	{"{*}{,*}***", ""},
	{"{a,{b,0}}**x", ""},
	{"{a,{b,0}}**/x", `^(?:a[^/]*/x|b[^/]*/x|0[^/]*/x)$`},
	{"{a,b}{c,d}", ""},
	{"{a/b,c}", ""},
}

func TestGlobRegexp(t *testing.T) {
	for _, tc := range globTable {
		re, why, ok := globRegexp(tc.pattern)
		switch {
		case tc.re == "" && ok:
			t.Errorf("globRegexp(%q) = %q, want refused", tc.pattern, re)
		case tc.re == "" && why == "":
			t.Errorf("globRegexp(%q) refused without a reason", tc.pattern)
		case tc.re != "" && !ok:
			t.Errorf("globRegexp(%q) refused: %s", tc.pattern, why)
		case tc.re != "" && re != tc.re:
			t.Errorf("globRegexp(%q) = %q, want %q", tc.pattern, re, tc.re)
		}
	}
}

// globTree is a file tree with dotfiles, nested directories and names with
// spaces, brackets, braces, commas, wildcards and non-ASCII letters.
var globTree = fstest.MapFS{
	"a.yaml":                    {},
	".hidden.yaml":              {},
	".config.yaml":              {},
	"b.yml":                     {},
	"x1.md":                     {},
	"xy.md":                     {},
	"x.md":                      {},
	"xyz.md":                    {},
	"main.tf":                   {},
	"c-d.tf":                    {},
	"ab":                        {},
	"a":                         {Mode: fs.ModeDir},
	"a/b":                       {},
	"a/c.txt":                   {},
	"a/.d.txt":                  {},
	"a/x/y/z.md":                {},
	"a/x/.config.yaml":          {},
	"b/c.txt":                   {},
	"b/d.json":                  {},
	"conf/app.json":             {},
	"conf/sub/app.json":         {},
	".git/config":               {},
	".git/objects/ab/cd":        {},
	"with space/file name.txt":  {},
	"brackets/[x].txt":          {},
	"brackets/x.txt":            {},
	"braces/{a,b}.txt":          {},
	"braces/a.txt":              {},
	"star*.txt":                 {},
	"*.txt":                     {},
	"q?.md":                     {},
	"ünï/çødé.yaml":             {},
	"ünï/日本.txt":                {},
	"deep/1/2/3/4/.config.yaml": {},
	"deep/1/2/3/4/5.yaml":       {},
	"-/!^.txt":                  {},
	"new\nline/x.yaml":          {},
	"m[1]{2},3*/x.txt":          {},
	"m[1]{2},3*/y/x.txt":        {},
}

// globDiffPatterns are patterns for the differential test, beside the table.
var globDiffPatterns = []string{
	"*.md", "*/*", "*/*/*", ".*", "**/.*", "**/.*/**", "**/*.json",
	"a/**", "a/**/*.md", "**/x/**", "**/a/**/*", "*/**/*.txt",
	"deep/**/4/*", "deep/**/**/5.yaml", "**.txt", "a**/*", "*a**b*",
	"x[0-9].md", "x[!0-9].md", "x[^0-9y].md", "[-a]*", "[a-]*", "[--.]*",
	`[\]x]*`, `brackets/\[x\].txt`, "brackets/[[]*", `braces/\{a,b\}.txt`,
	"braces/{a,b}.txt", "**/braces/{{a,b}.txt,x}", "{a,b,conf}/{*.txt,*.json}",
	"{**/,}*.yaml", "{a/x,deep/1}/**/*", "{*,x}*/c.txt", "with space/*",
	"ünï/*", "ünï/??.txt", "*/[ç]*", "q\\?.md", "star\\*.txt", "*\\*.txt",
	"-/*", "-/[!^]^.txt", "new\nline/*", "new?line/*", "a/{b,c.txt}",
	"a/b", "a", "a/x", "{a,b}", "{a/b,b/c.txt,**/x.md}", "**/{b,c.txt}",
	"**/{a,b/,}c.txt", "[a-c]/**", "**/[.]*",
	"*/{x,y}.txt", "**/m*/{x,y/x}.txt", "m\\[1\\]\\{2\\},3\\*/**", "**/{m*,a}/{y/,}x.txt", "{a,b}/*.txt", "*{.md,.txt}",
}

// globFiles lists the regular files of fsys, slash-separated.
func globFiles(t testing.TB, fsys fs.FS) []string {
	var files []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// globSubTree is globTree moved under "mod", beside a file of its own.
var globSubTree = func() fstest.MapFS {
	sub := fstest.MapFS{"other.yaml": {}, "mod.yaml": {}}
	for name, f := range globTree {
		sub["mod/"+name] = f
	}
	return sub
}()

// filesetGlob is what OpenTofu's fileset(dir, pattern) does in fsys: Glob
// path.Join(dir, pattern), keep the regular files, and cut dir off them.
func filesetGlob(t *testing.T, fsys fs.FS, dir, pattern string) []string {
	t.Helper()
	matches, err := doublestar.Glob(fsys, path.Join(dir, pattern))
	if err != nil {
		t.Fatalf("doublestar.Glob(%q): %v (the pattern was not refused)", path.Join(dir, pattern), err)
	}
	var out []string
	for _, m := range matches {
		if fi, err := fs.Stat(fsys, m); err == nil && fi.Mode().IsRegular() {
			if dir != "." {
				m = strings.TrimPrefix(m, dir+"/")
			}
			out = append(out, m)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// checkGlob compares, for one pattern, the regular files fileset finds in
// globTree (and in globSubTree's "mod") with those that pattern's regexp
// matches.
func checkGlob(t *testing.T, files []string, pattern string) {
	t.Helper()
	re, _, ok := globRegexp(pattern)
	if !ok {
		return
	}
	rx, err := regexp.Compile(re)
	if err != nil {
		t.Fatalf("globRegexp(%q) = %q, which does not compile: %v", pattern, re, err)
	}
	var got []string
	for _, f := range files {
		if rx.MatchString(f) {
			got = append(got, f)
		}
	}
	slices.Sort(got)
	if want := filesetGlob(t, globTree, ".", pattern); !slices.Equal(got, want) {
		t.Errorf("pattern %q, regexp %q:\n got %q\nwant %q", pattern, re, got, want)
	}
	if want := filesetGlob(t, globSubTree, "mod", pattern); !slices.Equal(got, want) {
		t.Errorf("pattern %q under mod, regexp %q:\n got %q\nwant %q", pattern, re, got, want)
	}
}

func TestGlobRegexpDoublestar(t *testing.T) {
	files := globFiles(t, globTree)
	for _, tc := range globTable {
		checkGlob(t, files, tc.pattern)
	}
	for _, p := range globDiffPatterns {
		if _, why, ok := globRegexp(p); !ok {
			t.Errorf("globRegexp(%q) refused: %s", p, why)
			continue
		}
		checkGlob(t, files, p)
	}
}

func FuzzGlobRegexp(f *testing.F) {
	for _, tc := range globTable {
		f.Add(tc.pattern)
	}
	for _, p := range globDiffPatterns {
		f.Add(p)
	}
	files := globFiles(f, globTree)
	f.Fuzz(func(t *testing.T, pattern string) {
		if _, _, ok := globRegexp(pattern); !ok {
			t.Skip()
		}
		checkGlob(t, files, pattern)
	})
}
