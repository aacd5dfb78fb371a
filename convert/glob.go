package convert

import (
	"fmt"
	"path"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"
)

// maxGlobAlternatives bounds how many brace-free patterns a pattern's {a,b}
// alternatives may expand to; beyond it the pattern is refused.
const maxGlobAlternatives = 256

// globRegexp translates a constant fileset pattern into an RE2 regular
// expression (Go regexp syntax, also what CUE's regexp package takes) that
// matches exactly the slash-separated relative paths of the regular files
// that OpenTofu's fileset(dir, pattern) returns for that pattern, relative to
// dir. ok is false for a pattern it cannot translate exactly (why says why).
//
// OpenTofu's fileset (functions/filesystem.go here) joins the directory and
// the pattern with path.Join, which cleans the pattern ("./*.yaml" is
// "*.yaml", "a//b" is "a/b"), globs that with doublestar v4's Glob, keeps
// the regular files and removes the directory from their paths. In
// doublestar v4, as this reproduces:
//
//   - `*` is any run of characters but `/`, dotfiles included; `**` not a
//     whole path element is the same as `*`, and so are longer runs of
//     stars, except that three or more ending an element match at least
//     one character;
//   - `**` as a whole element is zero or more directories; as the last
//     element it is every file below (at any depth, dotfiles included);
//   - `?` is one character but `/`; `[...]` one character in the class (never
//     `/`), negated by a leading `^` or `!`, with ranges lo-hi;
//   - `{a,b}` are alternatives, nested or not, expanded textually (so they
//     may hold `/` and `**`); an empty alternative is the empty string,
//     except the last one, which Glob skips ("{,a}" is "" or "a", "{a,}"
//     only "a", and "{}" nothing);
//   - `\` makes the next character literal.
//
// Refused: the empty pattern, an absolute one, one with a ".." element or
// that is only ".", a malformed one (doublestar's ErrBadPattern), one whose
// alternatives give an empty, "." or ".." element, and spellings where
// doublestar is not consistent with itself: a `\` before anything but one of
// *?[]{} (a pattern without wildcards keeps such a backslash, one with them
// drops it), `/`, `{` or `}` inside a class (Glob looks for them
// without seeing the class), and {...} groups that Glob mishandles (see
// globAltsLeak). A directory name holding a `\` may also be
// mishandled by Glob under a `{...}` (it re-escapes such names but not `\`);
// that depends on the files, not the pattern, and is not modeled.
func globRegexp(pattern string) (re string, why string, ok bool) {
	switch {
	case pattern == "":
		return "", "the pattern is empty", false
	case !utf8.ValidString(pattern) || strings.ContainsRune(pattern, utf8.RuneError):
		return "", "the pattern is not valid UTF-8", false
	case strings.HasPrefix(pattern, "/"):
		return "", "the pattern is absolute", false
	}
	for _, el := range strings.Split(pattern, "/") {
		if el == ".." {
			return "", "the pattern leads out of the directory", false
		}
	}
	clean := path.Clean(pattern)
	if clean == "." {
		return "", "the pattern names the directory itself, not files in it", false
	}
	if !doublestar.ValidatePattern(clean) {
		return "", "the pattern is malformed (doublestar.ErrBadPattern)", false
	}
	if why := globUnsupported(clean); why != "" {
		return "", why, false
	}
	if why := globAltsLeak(clean); why != "" {
		return "", why, false
	}
	n := 0
	alts, ok := globExpand(clean, &n)
	if !ok {
		return "", fmt.Sprintf("the pattern has more than %d alternatives", maxGlobAlternatives), false
	}
	var parts []string
	seen := map[string]bool{}
	for _, alt := range alts {
		part, why, ok := globAltRegexp(alt)
		if !ok {
			return "", why, false
		}
		if !seen[part] {
			seen[part] = true
			parts = append(parts, part)
		}
	}
	if len(parts) == 0 {
		// "{}" or "x{}": no alternative at all, so nothing matches
		return `^[^\x00-\x{10FFFF}]$`, "", true
	}
	re = "^(?:" + strings.Join(parts, "|") + ")$"
	if _, err := regexp.Compile(re); err != nil {
		return "", "the regular expression does not compile: " + err.Error(), false
	}
	return re, "", true
}

// globUnsupported says why a valid pattern uses a spelling that doublestar
// treats inconsistently, or is "" when it has none.
func globUnsupported(p string) string {
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++ // ValidatePattern saw to it that a byte follows
			if !strings.ContainsRune("*?[]{}", rune(p[i])) {
				return "the pattern escapes a character other than *?[]{}"
			}
		case '[':
			// ValidatePattern saw to it that the class is closed and not
			// empty, so its first character is not the closing `]`
			i++
			if p[i] == '^' || p[i] == '!' {
				i++
			}
			for ; p[i] != ']'; i++ {
				if p[i] == '\\' {
					i++
				}
				if c := p[i]; c == '/' || c == '{' || c == '}' {
					return "the pattern has /, { or } in a character class"
				}
			}
		}
	}
	return ""
}

// globAltsLeak says why Glob may mishandle the {...} groups of a valid
// pattern, or is "" when it does not. Unless two characters or more follow
// a `**` (then Glob walks the tree with GlobWalk, which is sound),
// Glob's doGlob reuses the matches of earlier alternatives as directories to
// look in for later ones when an alternative holds `/` or `{`, or when one
// path element holds two groups (after the directory is joined in front):
// "mod/{a,{b,c}}" finds mod/a/b if mod/a is a directory. Those patterns are
// refused there.
func globAltsLeak(p string) string {
	for i := 0; i+3 < len(p); i++ {
		if p[i] == '\\' {
			i++
		} else if p[i] == '*' && p[i+1] == '*' {
			return "" // as hasMidDoubleStar: two characters or more follow
		}
	}
	depth, groups := 0, 0
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '[':
			i = skipClass(p, i)
		case '/':
			if depth > 0 {
				return "doublestar's Glob mishandles a / inside {...}"
			}
			groups = 0
		case '{':
			depth++
			groups++
			if depth > 1 {
				return "doublestar's Glob mishandles nested {...}"
			}
			if groups > 1 {
				return "doublestar's Glob mishandles two {...} in one path element"
			}
		case '}':
			depth--
		}
	}
	return ""
}

// skipClass returns the index of the `]` closing the class opened at p[i],
// as doublestar's alternative scanners find it.
func skipClass(p string, i int) int {
	for i++; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case ']':
			return i
		}
	}
	return len(p)
}

// globExpand expands the first {a,b} group of p, recursively, into
// brace-free patterns; *n counts them, and ok is false past
// maxGlobAlternatives. p is valid, so braces are balanced.
func globExpand(p string, n *int) (out []string, ok bool) {
	open := -1
	for i := 0; i < len(p) && open < 0; i++ {
		switch p[i] {
		case '\\':
			i++
		case '[':
			i = skipClass(p, i)
		case '{':
			open = i
		}
	}
	if open < 0 {
		*n++
		if *n > maxGlobAlternatives {
			return nil, false
		}
		return []string{p}, true
	}
	// split the group at its top-level commas
	var alts []string
	depth, start := 1, open+1
	end := open + 1
	for ; depth > 0; end++ {
		switch p[end] {
		case '\\':
			end++
		case '[':
			end = skipClass(p, end)
		case '{':
			depth++
		case '}':
			// Glob's globAlts skips an empty last alternative: "{a,}"
			// is "a" and "{}" nothing, while "{,a}" is "" or "a"
			depth--
			if depth == 0 && start < end {
				alts = append(alts, p[start:end])
			}
		case ',':
			if depth == 1 {
				alts = append(alts, p[start:end])
				start = end + 1
			}
		}
	}
	for _, alt := range alts {
		more, ok := globExpand(p[:open]+alt+p[end:], n)
		if !ok {
			return nil, false
		}
		out = append(out, more...)
	}
	return out, true
}

// globAltRegexp translates a brace-free pattern element by element.
func globAltRegexp(p string) (part, why string, ok bool) {
	els := strings.Split(p, "/")
	var b strings.Builder
	for i, el := range els {
		last := i == len(els)-1
		switch el {
		case "", ".", "..":
			return "", "an alternative gives an empty, \".\" or \"..\" path element", false
		case "**":
			if last {
				b.WriteString(`[^/]+(?:/[^/]+)*`) // every file below
			} else {
				b.WriteString(`(?:[^/]+/)*`) // zero or more directories
			}
			continue
		}
		globElemRegexp(&b, el)
		if !last {
			b.WriteByte('/')
		}
	}
	return b.String(), "", true
}

// globElemRegexp writes the regexp of one path element other than `**`,
// which matches one name as doublestar's Match does.
func globElemRegexp(b *strings.Builder, el string) {
	for i := 0; i < len(el); {
		switch el[i] {
		case '*':
			// `**` inside an element is a `*`. But doublestar lets a run of
			// stars ending the element match nothing only when it is `*` or
			// `**` (isZeroLengthPattern): `a***` does not match "a".
			start := i
			for i < len(el) && el[i] == '*' {
				i++
			}
			if i == len(el) && i-start > 2 {
				b.WriteString(`[^/]+`)
			} else {
				b.WriteString(`[^/]*`)
			}
			continue
		case '?':
			b.WriteString(`[^/]`)
			i++
			continue
		case '[':
			i = globClass(b, el, i)
			continue
		case '\\':
			i++
		}
		r, size := utf8.DecodeRuneInString(el[i:])
		b.WriteString(regexp.QuoteMeta(string(r)))
		i += size
	}
}

// globClass writes the class opened at el[i] as doublestar matches it, and
// returns the index after its `]`. Read left to right: an item is a
// character (`\` escapes), and an item followed by `-` and a character other
// than `]` is a range, after which a `-` is a character again; a range
// lo > hi matches lo only. A class never matches `/`, negated or not.
func globClass(b *strings.Builder, el string, i int) (next int) {
	i++
	negate := el[i] == '^' || el[i] == '!'
	if negate {
		i++
	}
	var items strings.Builder
	readRune := func() rune {
		if el[i] == '\\' {
			i++
		}
		r, size := utf8.DecodeRuneInString(el[i:])
		i += size
		return r
	}
	for el[i] != ']' {
		lo := readRune()
		hi := lo
		if i+1 < len(el) && el[i] == '-' && el[i+1] != ']' {
			i++
			hi = readRune()
		}
		if lo > hi {
			// doublestar compares lo on its own before it sees the `-`,
			// so a range lo > hi still matches lo
			hi = lo
		}
		// a name has no `/`, so a range over it is cut in two
		if lo < '/' {
			classRange(&items, lo, min(hi, '/'-1))
		}
		if hi > '/' {
			classRange(&items, max(lo, '/'+1), hi)
		}
	}
	i++
	// lo is never `/` (refused in a class), so items is never empty
	if negate {
		b.WriteString(`[^/` + items.String() + `]`)
	} else {
		b.WriteString(`[` + items.String() + `]`)
	}
	return i
}

// classRange writes the class item for the runes lo to hi.
func classRange(items *strings.Builder, lo, hi rune) {
	if lo == hi {
		fmt.Fprintf(items, `\x{%x}`, lo)
	} else {
		fmt.Fprintf(items, `\x{%x}-\x{%x}`, lo, hi)
	}
}
