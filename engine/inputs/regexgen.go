package inputs

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"unicode"
)

// maxGenerated bounds the length of a string generated from a pattern, and
// maxGenerateSteps the nodes visited making it: a failing alternative is
// undone and the next tried, so nested repetitions of failing alternatives
// would otherwise take time exponential in the pattern's nesting.
const (
	maxGenerated     = 4096
	maxGenerateSteps = 100000
)

// stringsMatching returns a few strings that match pattern (RE2 syntax, as
// OpenTofu's regex functions use), shortest first: every repetition at its
// minimum, then with one and three more where the pattern allows. Nothing
// is returned for a pattern that does not parse or that generate gives up
// on; each string is checked against the compiled pattern all the same.
func stringsMatching(pattern string) []string {
	compiled, err := regexp.Compile(pattern)
	if err != nil {
		return nil
	}
	var out []string
	for _, extra := range []int{0, 1, 3} {
		s, ok := generate(pattern, extra)
		if !ok || !compiled.MatchString(s) {
			continue
		}
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// generate makes a string that pattern matches, walking its syntax tree:
// a literal as written (in lower case where it folds case), a character class's
// first lower-case letter, digit, upper-case letter or printable rune, any
// character as "a", the first alternative that can be written, and each
// repetition extra times more than its minimum, within its maximum.
// Assertions are kept, not assumed: ^ and \A hold only at the start, $ and
// \z end the string (nothing may be written after them), a line anchor
// needs the start of the string or a line break, and \b and \B are checked
// once the string is complete. It gives up (false) on what it cannot
// write: an empty class, a pattern that matches nothing, an assertion that
// does not hold, a string longer than maxGenerated, more than
// maxGenerateSteps nodes to visit. When it returns true,
// the pattern matches the string.
func generate(pattern string, extra int) (string, bool) {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return "", false
	}
	g := &generator{extra: extra}
	if !g.write(re, 0) {
		return "", false
	}
	out := g.b
	for _, a := range g.boundaries {
		if wordAt(out, a.pos-1) != wordAt(out, a.pos) != a.want {
			return "", false
		}
	}
	return string(out), true
}

// wordAt reports whether s[i] is an ASCII word character, as \b sees
// them; false outside s.
func wordAt(s []rune, i int) bool {
	if i < 0 || i >= len(s) {
		return false
	}
	r := s[i]
	return r == '_' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
}

type generator struct {
	extra int
	steps int
	b     []rune
	// ended is set by $ and \z: nothing more may be written.
	ended bool
	// boundaries are the \b (want) and \B (!want) met, by rune
	// position.
	boundaries []boundary
}

type boundary struct {
	pos  int
	want bool
}

func (g *generator) emit(rs ...rune) bool {
	if len(rs) == 0 {
		return true
	}
	if g.ended || len(g.b)+len(rs) > maxGenerated {
		return false
	}
	g.b = append(g.b, rs...)
	return true
}

func (g *generator) write(re *syntax.Regexp, depth int) bool {
	g.steps++
	if depth > 200 || g.steps > maxGenerateSteps {
		return false
	}
	switch re.Op {
	case syntax.OpEmptyMatch:
		return true
	case syntax.OpBeginText:
		return len(g.b) == 0
	case syntax.OpBeginLine:
		return len(g.b) == 0 || g.b[len(g.b)-1] == '\n'
	case syntax.OpEndText, syntax.OpEndLine:
		g.ended = true
		return true
	case syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		g.boundaries = append(g.boundaries, boundary{pos: len(g.b), want: re.Op == syntax.OpWordBoundary})
		return true
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase == 0 {
			return g.emit(re.Rune...)
		}
		for _, r := range re.Rune {
			if !g.emit(foldLower(r)) {
				return false
			}
		}
		return true
	case syntax.OpCharClass:
		r, ok := pickRune(re.Rune)
		return ok && g.emit(r)
	case syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		return g.emit('a')
	case syntax.OpCapture:
		return len(re.Sub) == 1 && g.write(re.Sub[0], depth+1)
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		if len(re.Sub) != 1 {
			return false
		}
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
		for i := range n {
			mark := g.save()
			if !g.write(re.Sub[0], depth+1) {
				if i < minN {
					return false
				}
				// Repetitions beyond the minimum are optional.
				g.restore(mark)
				break
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
			mark := g.save()
			if g.write(sub, depth+1) {
				return true
			}
			g.restore(mark)
		}
		return false
	}
	// OpNoMatch, and any operation a later Go adds.
	return false
}

// foldLower is r in lower case when that is one of the runes that r
// matches under case folding, else r.
func foldLower(r rune) rune {
	lower := unicode.ToLower(r)
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		if f == lower {
			return lower
		}
	}
	return r
}

type mark struct {
	n, boundaries int
	ended         bool
}

func (g *generator) save() mark { return mark{len(g.b), len(g.boundaries), g.ended} }

func (g *generator) restore(m mark) {
	g.b = g.b[:m.n]
	g.boundaries = g.boundaries[:m.boundaries]
	g.ended = m.ended
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
