package convert

import (
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// commentSet is the comments of one source file, handed out to the
// declarations and arguments they belong to, each once. A comment belongs
// to the first declaration or argument after it; one at the end of a line
// belongs to what the line holds.
type commentSet struct {
	list []hclComment
	used []bool
}

type hclComment struct {
	rng   hcl.Range
	lines []string
}

func newCommentSet(filename string, src []byte) *commentSet {
	list := lexComments(filename, src)
	return &commentSet{list: list, used: make([]bool, len(list))}
}

// lexComments are the comments of src, in order.
func lexComments(filename string, src []byte) []hclComment {
	tokens, _ := hclsyntax.LexConfig(src, filename, hcl.InitialPos)
	var list []hclComment
	for _, t := range tokens {
		if t.Type != hclsyntax.TokenComment {
			continue
		}
		list = append(list, hclComment{rng: t.Range, lines: commentLines(string(t.Bytes))})
	}
	return list
}

// commentCache keeps the comments of the files a batch converts, which
// it lexes once: a module the roots share (config.Sources.Sharing) is
// converted again by each family that cannot take its template from
// another (see templates.go), and lexing took a twentieth of the corpus's
// CPU time, more than half of it for files lexed before. Its lists are
// read, never changed.
type commentCache struct {
	mu sync.Mutex
	m  map[commentKey][]hclComment
}

// commentKey is a file as converted: the Files of a shared module are
// the same for every family, and the name is that of the ranges.
type commentKey struct {
	file *hcl.File
	name string
}

func newCommentCache() *commentCache {
	return &commentCache{m: map[commentKey][]hclComment{}}
}

// of is the commentSet of the file f, named filename; cc may be nil.
func (cc *commentCache) of(filename string, f *hcl.File) *commentSet {
	if cc == nil {
		return newCommentSet(filename, f.Bytes)
	}
	k := commentKey{f, filename}
	cc.mu.Lock()
	list, ok := cc.m[k]
	cc.mu.Unlock()
	if !ok {
		// Two jobs may lex a file at once; either list will do.
		list = lexComments(filename, f.Bytes)
		cc.mu.Lock()
		cc.m[k] = list
		cc.mu.Unlock()
	}
	return &commentSet{list: list, used: make([]bool, len(list))}
}

// commentLines is the text of a comment without its markers, one entry a
// line.
func commentLines(text string) []string {
	text = strings.TrimRight(text, "\r\n")
	switch {
	case strings.HasPrefix(text, "#"):
		return []string{strings.TrimPrefix(text, "#")}
	case strings.HasPrefix(text, "//"):
		return []string{strings.TrimPrefix(text, "//")}
	case strings.HasPrefix(text, "/*"):
		text = strings.TrimSuffix(strings.TrimPrefix(text, "/*"), "*/")
		var out []string
		for _, l := range strings.Split(text, "\n") {
			l = strings.TrimRight(l, " \t\r")
			t := strings.TrimLeft(l, " \t")
			if strings.HasPrefix(t, "*") {
				l = strings.TrimPrefix(t, "*")
			}
			out = append(out, l)
		}
		for len(out) > 0 && strings.TrimSpace(out[0]) == "" {
			out = out[1:]
		}
		for len(out) > 0 && strings.TrimSpace(out[len(out)-1]) == "" {
			out = out[:len(out)-1]
		}
		return out
	}
	return []string{text}
}

// before takes the unused comments that end before byte offset, the ones
// for a declaration or argument starting there.
func (cs *commentSet) before(offset int) []string {
	if cs == nil {
		return nil
	}
	var out []string
	for i, cm := range cs.list {
		if cs.used[i] || cm.rng.End.Byte > offset {
			continue
		}
		cs.used[i] = true
		out = append(out, cm.lines...)
	}
	return out
}

// within takes the unused comments inside a range: those left at the end
// of a block's body.
func (cs *commentSet) within(rng hcl.Range) []string {
	if cs == nil {
		return nil
	}
	var out []string
	for i, cm := range cs.list {
		if cs.used[i] || cm.rng.Start.Byte < rng.Start.Byte || cm.rng.End.Byte > rng.End.Byte {
			continue
		}
		cs.used[i] = true
		out = append(out, cm.lines...)
	}
	return out
}

// lineEnd takes a one-line comment that starts on line after byte offset
// end.
func (cs *commentSet) lineEnd(line, end int) (string, bool) {
	if cs == nil {
		return "", false
	}
	for i, cm := range cs.list {
		if cs.used[i] || cm.rng.Start.Line != line || cm.rng.Start.Byte < end || len(cm.lines) != 1 {
			continue
		}
		cs.used[i] = true
		return cm.lines[0], true
	}
	return "", false
}

// rest takes every comment not handed out yet.
func (cs *commentSet) rest() []string {
	return cs.before(1 << 62)
}
