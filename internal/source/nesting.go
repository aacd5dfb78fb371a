package source

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
)

// MaxNesting is the deepest bracket nesting that a source file may have:
// parentheses, brackets, braces (blocks and object expressions), template
// interpolations and the if and for directives of templates, each one
// level. Real modules stay far below it (the corpus's deepest file nests 26
// levels); the parsers take thousands before they crash.
const MaxNesting = 256

// Syntax is the syntax that a source is scanned as.
type Syntax int

const (
	// HCL is the native syntax: a configuration file or one expression.
	HCL Syntax = iota
	// JSON is the JSON syntax of .tf.json files (and .tfvars.json).
	JSON
	// Template is a template file's syntax: literal text with ${ } and %{ }.
	Template
)

// SyntaxOf tells the syntax of a configuration or variable file by its name.
func SyntaxOf(filename string) Syntax {
	if strings.HasSuffix(filename, ".json") {
		return JSON
	}
	return HCL
}

// CheckNesting returns an error diagnostic when src, read as syntax, nests
// deeper than MaxNesting, with the range of the first opener beyond the
// limit; otherwise nil.
func CheckNesting(src []byte, filename string, syntax Syntax) *hcl.Diagnostic {
	var at int
	if syntax == JSON {
		at = scanJSON(src, MaxNesting)
	} else {
		at = scanNative(src, syntax == Template, MaxNesting)
	}
	if at < 0 {
		return nil
	}
	start := positionOf(src, at)
	end := start
	end.Byte++
	end.Column++
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Nesting too deep",
		Detail: fmt.Sprintf("This file nests brackets, braces, parentheses or template sequences more than %d levels deep here, which this tool does not read. Real configurations need far fewer levels; split the expression with locals.",
			MaxNesting),
		Subject: &hcl.Range{Filename: filename, Start: start, End: end},
	}
}

// positionOf is the line and column (in characters) of byte offset at.
func positionOf(src []byte, at int) hcl.Pos {
	before := src[:at]
	line := bytes.Count(before, []byte{'\n'}) + 1
	lineStart := bytes.LastIndexByte(before, '\n') + 1
	return hcl.Pos{Line: line, Column: utf8.RuneCount(before[lineStart:]) + 1, Byte: at}
}

// scanJSON returns the offset of the first opener beyond limit, or -1.
// Outside strings [ and { open a level; inside one, where the HCL parser
// reads templates and expressions, every bracket does, until the string
// ends.
func scanJSON(src []byte, limit int) int {
	depth := 0
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '[', '{':
			depth++
			if depth > limit {
				return i
			}
		case ']', '}':
			if depth > 0 {
				depth--
			}
		case '"':
			base := depth
			for i++; i < len(src) && src[i] != '"'; i++ {
				switch src[i] {
				case '\\':
					i++
				case '(', '[', '{':
					depth++
					if depth > limit {
						return i
					}
				case ')', ']', '}':
					if depth > base {
						depth--
					}
				}
			}
			depth = base
		}
	}
	return -1
}

// frameKind is what one entry of the native scanner's stack opened.
type frameKind byte

const (
	bracket   frameKind = iota // ( [ { in an expression; counts
	interp                     // ${ or %{ in a template; counts
	directive                  // an if or for directive, until its end; counts
	quoted                     // a quoted string's template
	heredoc                    // a heredoc's template
)

type frame struct {
	kind frameKind
	// tmpl is the template that a directive belongs to: quoted, heredoc,
	// or bracket for the top level of a template file.
	tmpl frameKind
	// marker is a heredoc's closing marker, or that of the heredoc that a
	// directive belongs to.
	marker []byte
}

// counts tells whether the frame is a level of nesting.
func (f frame) counts() bool { return f.kind == bracket || f.kind == interp || f.kind == directive }

// scanNative returns the offset of the first opener beyond limit in
// native syntax, or -1. template says that src starts as a template's
// literal text rather than as an expression or body.
func scanNative(src []byte, template bool, limit int) int {
	var stack []frame
	depth := 0
	push := func(f frame) bool {
		stack = append(stack, f)
		if f.counts() {
			depth++
		}
		return depth > limit
	}
	pop := func() {
		if stack[len(stack)-1].counts() {
			depth--
		}
		stack = stack[:len(stack)-1]
	}
	// popTemplate ends the innermost quoted string or heredoc and the
	// directives left open in it.
	popTemplate := func() {
		for len(stack) > 0 {
			k := stack[len(stack)-1].kind
			pop()
			if k == quoted || k == heredoc {
				return
			}
		}
	}
	lineStart := true
	for i := 0; i < len(src); {
		// Where are we: in an expression, or in which template's text?
		inTemplate, tmpl := template, bracket
		var marker []byte
		if n := len(stack); n > 0 {
			switch top := stack[n-1]; top.kind {
			case bracket, interp:
				inTemplate = false
			case quoted, heredoc:
				inTemplate, tmpl, marker = true, top.kind, top.marker
			case directive:
				inTemplate, tmpl, marker = true, top.tmpl, top.marker
			}
		}
		c := src[i]
		if !inTemplate {
			lineStart = c == '\n'
			switch {
			case c == '#' || (c == '/' && at(src, i+1) == '/'):
				for i < len(src) && src[i] != '\n' {
					i++
				}
			case c == '/' && at(src, i+1) == '*':
				end := bytes.Index(src[i+2:], []byte("*/"))
				if end < 0 {
					return -1
				}
				i += 2 + end + 2
			case c == '"':
				push(frame{kind: quoted})
				i++
			case c == '<' && at(src, i+1) == '<':
				if m, next := heredocOpener(src, i); m != nil {
					push(frame{kind: heredoc, marker: m})
					i = next
					lineStart = true
				} else {
					i += 2
				}
			case c == '(' || c == '[' || c == '{':
				if push(frame{kind: bracket}) {
					return i
				}
				i++
			case c == ')' || c == ']' || c == '}':
				if n := len(stack); n > 0 && (stack[n-1].kind == bracket || (c == '}' && stack[n-1].kind == interp)) {
					pop()
				}
				i++
			default:
				i++
			}
			continue
		}
		// Template text.
		if tmpl == heredoc && lineStart {
			if n, ok := closesHeredoc(src[i:], marker); ok {
				popTemplate()
				i += n
				lineStart = false
				continue
			}
		}
		lineStart = c == '\n'
		switch {
		case tmpl == quoted && (c == '"' || c == '\n'):
			popTemplate()
			i++
		case tmpl == quoted && c == '\\':
			i++
			if i < len(src) && src[i] != '\n' {
				i++
			}
		case (c == '$' || c == '%') && at(src, i+1) == c && at(src, i+2) == '{':
			i += 3 // $${ and %%{ are literal text
		case c == '$' && at(src, i+1) == '{':
			if push(frame{kind: interp}) {
				return i
			}
			i += 2
		case c == '%' && at(src, i+1) == '{':
			switch directiveKeyword(src[i+2:]) {
			case "if", "for":
				if push(frame{kind: directive, tmpl: tmpl, marker: marker}) {
					return i
				}
			case "endif", "endfor":
				if n := len(stack); n > 0 && stack[n-1].kind == directive {
					pop()
				}
			}
			if push(frame{kind: interp}) {
				return i
			}
			i += 2
		default:
			i++
		}
	}
	return -1
}

// at is src[i], or 0 beyond its end.
func at(src []byte, i int) byte {
	if i < len(src) {
		return src[i]
	}
	return 0
}

// heredocOpener reads <<ID or <<-ID and its newline at src[i:], returning ID
// and the offset after the newline; nil when it is not one.
func heredocOpener(src []byte, i int) ([]byte, int) {
	j := i + 2
	if at(src, j) == '-' {
		j++
	}
	k := j
	for k < len(src) && isIdentByte(src[k], k == j) {
		k++
	}
	if k == j {
		return nil, 0
	}
	marker := src[j:k]
	if at(src, k) == '\r' {
		k++
	}
	if at(src, k) != '\n' {
		return nil, 0
	}
	return marker, k + 1
}

func isIdentByte(c byte, first bool) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80 ||
		(!first && (c == '-' || c >= '0' && c <= '9'))
}

// closesHeredoc tells whether line (from a line's start) is a heredoc's
// closing marker, indented or not, and returns its length without the
// newline.
func closesHeredoc(line []byte, marker []byte) (int, bool) {
	n := 0
	for n < len(line) && (line[n] == ' ' || line[n] == '\t') {
		n++
	}
	if !bytes.HasPrefix(line[n:], marker) {
		return 0, false
	}
	n += len(marker)
	if at(line, n) == '\r' {
		n++
	}
	if n < len(line) && line[n] != '\n' {
		return 0, false
	}
	return n, true
}

// directiveKeyword is the keyword that a %{ sequence's body starts with.
func directiveKeyword(body []byte) string {
	i := 0
	if at(body, i) == '~' {
		i++
	}
	for i < len(body) && (body[i] == ' ' || body[i] == '\t' || body[i] == '\n' || body[i] == '\r') {
		i++
	}
	j := i
	for j < len(body) && isIdentByte(body[j], j == i) {
		j++
	}
	return string(body[i:j])
}

// DataTooDeep reports whether a JSON or YAML document (yaml set) that a
// function decodes nests collections deeper than MaxNesting: the decoders
// recurse at each level, and go-yaml takes minutes over a few thousand
// nested flow sequences. For YAML every bracket and brace counts, in a
// scalar too, since a quote does not always start one; the count is then
// never below the document's depth.
func DataTooDeep(src string, yaml bool) bool {
	if !yaml {
		return scanJSON([]byte(src), MaxNesting) >= 0
	}
	depth := 0
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '[', '{':
			depth++
			if depth > MaxNesting {
				return true
			}
		case ']', '}':
			if depth > 0 {
				depth--
			}
		}
	}
	return false
}
