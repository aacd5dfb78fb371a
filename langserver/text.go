package langserver

import (
	"bytes"
	"fmt"
	"unicode/utf16"
	"unicode/utf8"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// text is a file's content with the byte offset of each line's start,
// which converts between byte offsets (what hcl.Range holds) and LSP
// positions (a line and a column in UTF-16 code units, the protocol's
// default and the only encoding LSP 3.16 has).
type text struct {
	src   []byte
	lines []int // byte offset of the start of each line
}

func newText(src []byte) *text {
	t := &text{src: src, lines: []int{0}}
	for i, b := range src {
		// The protocol's line breaks: \n, \r\n and a lone \r.
		if b == '\n' || b == '\r' && (i+1 == len(src) || src[i+1] != '\n') {
			t.lines = append(t.lines, i+1)
		}
	}
	return t
}

// position returns the LSP position of byte offset off (clamped to the
// text). An offset inside a multi-byte character counts from the
// character's start.
func (t *text) position(off int) protocol.Position {
	off = max(0, min(off, len(t.src)))
	line := lineOf(t.lines, off)
	col := 0
	for i := t.lines[line]; i < off; {
		r, n := utf8.DecodeRune(t.src[i:])
		if i+n > off {
			break
		}
		col += utf16.RuneLen(r) // an invalid byte decodes as U+FFFD: one unit
		i += n
	}
	return protocol.Position{Line: protocol.UInteger(line), Character: protocol.UInteger(col)}
}

// offset returns the byte offset of an LSP position. A line beyond the
// last is the end of the text and a column beyond the line's end is the
// line's end, as the protocol says; a column inside a surrogate pair is
// the start of its character.
func (t *text) offset(p protocol.Position) int {
	line := int(p.Line)
	if line >= len(t.lines) {
		return len(t.src)
	}
	end := len(t.src)
	if line+1 < len(t.lines) {
		end = t.lines[line+1] - 1 // the line break's last byte
		if t.src[end] == '\n' && end > t.lines[line] && t.src[end-1] == '\r' {
			end--
		}
	}
	i, col := t.lines[line], 0
	for i < end && col < int(p.Character) {
		r, n := utf8.DecodeRune(t.src[i:])
		w := utf16.RuneLen(r)
		if col+w > int(p.Character) {
			break
		}
		col += w
		i += n
	}
	return i
}

// lspRange converts a byte range.
func (t *text) lspRange(start, end int) protocol.Range {
	return protocol.Range{Start: t.position(start), End: t.position(end)}
}

// lineStart returns the byte offset of the start of the line holding off
// and the blank characters that indent it.
func (t *text) lineStart(off int) (int, string) {
	start := t.lines[lineOf(t.lines, max(0, min(off, len(t.src))))]
	indent := start
	for indent < len(t.src) && (t.src[indent] == ' ' || t.src[indent] == '\t') {
		indent++
	}
	return start, string(t.src[start:indent])
}

func lineOf(lines []int, off int) int {
	lo, hi := 0, len(lines)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if lines[mid] <= off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// applyChange applies one content change of textDocument/didChange: the
// whole text, or a range replaced.
func applyChange(src []byte, change any) ([]byte, error) {
	switch c := change.(type) {
	case protocol.TextDocumentContentChangeEventWhole:
		return []byte(c.Text), nil
	case protocol.TextDocumentContentChangeEvent:
		if c.Range == nil {
			return []byte(c.Text), nil
		}
		t := newText(src)
		start, end := t.offset(c.Range.Start), t.offset(c.Range.End)
		if end < start {
			return nil, fmt.Errorf("change range ends (%d:%d) before it starts (%d:%d)", c.Range.End.Line, c.Range.End.Character, c.Range.Start.Line, c.Range.Start.Character)
		}
		var b bytes.Buffer
		b.Grow(len(src) - (end - start) + len(c.Text))
		b.Write(src[:start])
		b.WriteString(c.Text)
		b.Write(src[end:])
		return b.Bytes(), nil
	}
	return nil, fmt.Errorf("unknown content change %T", change)
}
