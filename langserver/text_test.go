package langserver

import (
	"testing"
	"unicode/utf8"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

func pos(line, char int) protocol.Position {
	return protocol.Position{Line: protocol.UInteger(line), Character: protocol.UInteger(char)}
}

func TestTextPositions(t *testing.T) {
	src := "a = \"é😀x\"\r\nb\n\xffz"
	tx := newText([]byte(src))
	for _, c := range []struct {
		off int
		pos protocol.Position
	}{
		{0, pos(0, 0)},
		{5, pos(0, 5)},   // é: one unit, two bytes
		{7, pos(0, 6)},   // 😀: two units, four bytes
		{11, pos(0, 8)},  // x
		{13, pos(0, 10)}, // the \r is on line 0
		{15, pos(1, 0)},
		{17, pos(2, 0)},
		{18, pos(2, 1)}, // an invalid byte is one unit
		{19, pos(2, 2)}, // the end
	} {
		if got := tx.position(c.off); got != c.pos {
			t.Errorf("position(%d) = %v, want %v", c.off, got, c.pos)
		}
		if got := tx.offset(c.pos); got != c.off {
			t.Errorf("offset(%v) = %d, want %d", c.pos, got, c.off)
		}
	}
	for _, c := range []struct {
		pos protocol.Position
		off int
	}{
		{pos(0, 99), 13}, // beyond the line's end: its end, before \r\n
		{pos(1, 5), 16},  // beyond a short line's end
		{pos(9, 0), 19},  // beyond the last line: the end of the text
		{pos(0, 7), 7},   // inside the surrogate pair: the emoji's start
		{pos(0, 6), 7},   // just after é
		{pos(0, 5), 5},   // just after the quote
		{pos(2, 1), 18},  // after the invalid byte
	} {
		if got := tx.offset(c.pos); got != c.off {
			t.Errorf("offset(%v) = %d, want %d", c.pos, got, c.off)
		}
	}
	lone := newText([]byte("a\rbc\r\nd"))
	if got := lone.position(3); got != pos(1, 1) {
		t.Errorf("after a lone \\r: position(3) = %v", got)
	}
	if got := lone.offset(pos(1, 9)); got != 4 {
		t.Errorf("after a lone \\r: offset(1:9) = %d", got)
	}
	if start, indent := newText([]byte("a {\n\t  b = 1\n}")).lineStart(9); start != 4 || indent != "\t  " {
		t.Errorf("lineStart = %d, %q", start, indent)
	}
}

func TestApplyChange(t *testing.T) {
	src := []byte("x = 1\ny = \"😀\"\n")
	r := protocol.Range{Start: pos(1, 5), End: pos(1, 7)}
	got, err := applyChange(src, protocol.TextDocumentContentChangeEvent{Range: &r, Text: "ok"})
	if err != nil || string(got) != "x = 1\ny = \"ok\"\n" {
		t.Errorf("range change: %q, %v", got, err)
	}
	got, err = applyChange(src, protocol.TextDocumentContentChangeEventWhole{Text: "z"})
	if err != nil || string(got) != "z" {
		t.Errorf("whole change: %q, %v", got, err)
	}
	back := protocol.Range{Start: pos(1, 2), End: pos(0, 1)}
	if _, err := applyChange(src, protocol.TextDocumentContentChangeEvent{Range: &back, Text: ""}); err == nil {
		t.Error("a range that ends before it starts was applied")
	}
}

// FuzzTextPositions: position and offset are inverse on every character
// boundary, and offset never leaves the text, whatever the bytes.
func FuzzTextPositions(f *testing.F) {
	f.Add([]byte("a = \"é😀x\"\r\nb\n\xffz"), uint(3), uint(7))
	f.Fuzz(func(t *testing.T, src []byte, line, char uint) {
		tx := newText(src)
		for off := 0; off <= len(src); {
			if off > 0 && off < len(src) && src[off-1] == '\r' && src[off] == '\n' {
				off++ // inside a line break: not a position
				continue
			}
			if got := tx.offset(tx.position(off)); got != off {
				t.Fatalf("offset(position(%d)) = %d in %q", off, got, src)
			}
			if off == len(src) {
				break
			}
			_, n := utf8.DecodeRune(src[off:])
			off += n
		}
		p := protocol.Position{Line: protocol.UInteger(line % 1000), Character: protocol.UInteger(char % 1000)}
		if off := tx.offset(p); off < 0 || off > len(src) || off < len(src) && off > 0 && !utf8.RuneStart(src[off]) && utf8.Valid(src) {
			t.Fatalf("offset(%v) = %d in %q", p, off, src)
		}
	})
}
