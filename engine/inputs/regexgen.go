package inputs

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"unicode"
)

// maxGenerated bounds the length of a string generated from a pattern.
const maxGenerated = 4096

// stringsMatching returns a few strings that match pattern (RE2 syntax, as
// OpenTofu's regex functions use), shortest first: every repetition at its
// minimum, then with one and three more where the pattern allows. Each is
// checked against the compiled pattern; nothing is returned for a pattern
// that does not parse.
func stringsMatching(pattern string) []string {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil
	}
	compiled, err := regexp.Compile(pattern)
	if err != nil {
		return nil
	}
	re = re.Simplify()
	var out []string
	for _, extra := range []int{0, 1, 3} {
		g := &generator{extra: extra}
		s, ok := g.gen(re)
		if !ok || len(s) > maxGenerated || !compiled.MatchString(s) {
			continue
		}
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

type generator struct {
	extra int
	b     strings.Builder
}

func (g *generator) gen(re *syntax.Regexp) (string, bool) {
	if !g.write(re, 0) {
		return "", false
	}
	return g.b.String(), true
}

func (g *generator) write(re *syntax.Regexp, depth int) bool {
	if depth > 200 || g.b.Len() > maxGenerated {
		return false
	}
	switch re.Op {
	case syntax.OpNoMatch:
		return false
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return true
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			g.b.WriteRune(r)
		}
		return true
	case syntax.OpCharClass:
		r, ok := pickRune(re.Rune)
		if !ok {
			return false
		}
		g.b.WriteRune(r)
		return true
	case syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		g.b.WriteByte('a')
		return true
	case syntax.OpCapture:
		return len(re.Sub) == 1 && g.write(re.Sub[0], depth+1)
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		minN, maxN := 0, -1
		switch re.Op {
		case syntax.OpPlus:
			minN = 1
		case syntax.OpQuest:
			maxN = 1
		case syntax.OpRepeat:
			minN, maxN = re.Min, re.Max
		}
		n := minN + g.extra
		if maxN >= 0 && n > maxN {
			n = maxN
		}
		for range n {
			if len(re.Sub) != 1 || !g.write(re.Sub[0], depth+1) {
				return false
			}
		}
		return true
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			if !g.write(sub, depth+1) {
				return false
			}
		}
		return true
	case syntax.OpAlternate:
		for _, sub := range re.Sub {
			mark := g.b.Len()
			if g.write(sub, depth+1) {
				return true
			}
			s := g.b.String()[:mark]
			g.b.Reset()
			g.b.WriteString(s)
		}
		return false
	}
	return false
}

// pickRune chooses a rune from a character class (pairs of inclusive
// ranges), preferring a lower-case letter, then a digit, then an
// upper-case letter, then any printable rune.
func pickRune(ranges []rune) (rune, bool) {
	in := func(r rune) bool {
		for i := 0; i+1 < len(ranges); i += 2 {
			if ranges[i] <= r && r <= ranges[i+1] {
				return true
			}
		}
		return false
	}
	for _, want := range []string{"abcdefghijklmnopqrstuvwxyz", "0123456789", "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "-_.:/"} {
		for _, r := range want {
			if in(r) {
				return r, true
			}
		}
	}
	for i := 0; i+1 < len(ranges); i += 2 {
		for r := ranges[i]; r <= ranges[i+1] && r-ranges[i] < 256; r++ {
			if unicode.IsPrint(r) {
				return r, true
			}
		}
	}
	if len(ranges) >= 2 {
		return ranges[0], true
	}
	return 0, false
}
