package main

import (
	"bytes"
	"fmt"
	"strings"

	"cuelang.org/go/cue/scanner"
	"cuelang.org/go/cue/token"

	"github.com/tofucue/tofucue/cueform"
)

// Counts are what Count finds in CUE source; they add up over files.
type Counts struct {
	// Lines is the number of lines, blank and comment lines included, as
	// wc -l counts them (plus a last line that no newline ends).
	Lines int `json:"lines"`
	// Tokens is the number of tokens a person types: see Count.
	Tokens int `json:"tokens"`
	// The machine constructs: Bottom the _|_ tokens, Error the string
	// literals written exactly 'error', Index0 the indexes by 0 of a
	// list literal ([...][0], a selection), not of an index expression
	// (x[i][0], what a person writes for HCL's x[i][0]).
	Bottom int `json:"bottom"`
	Error  int `json:"error"`
	Index0 int `json:"index0"`
}

// Constructs is the number of machine constructs of c.
func (c Counts) Constructs() int { return c.Bottom + c.Error + c.Index0 }

// Add adds o to c.
func (c *Counts) Add(o Counts) {
	c.Lines += o.Lines
	c.Tokens += o.Tokens
	c.Bottom += o.Bottom
	c.Error += o.Error
	c.Index0 += o.Index0
}

// lexeme is a token Count keeps: its kind and, for literals, its text;
// list is set on a closing bracket that ends a list literal, rather than
// an index or a slice.
type lexeme struct {
	tok  token.Token
	lit  string
	list bool
}

// indexes reports whether a [ after prev opens an index or a slice of
// the operand prev ends (an identifier, a literal, or a closing
// bracket, parenthesis or brace), not a list literal. A string's
// segment that opens an interpolation (it ends in \( ) ends no operand.
func indexes(prev lexeme) bool {
	switch prev.tok {
	case token.STRING:
		return !strings.HasSuffix(prev.lit, "(")
	case token.IDENT, token.INT, token.FLOAT, token.RBRACK, token.RPAREN, token.RBRACE:
		return true
	}
	return false
}

// Count counts the CUE source src (a file named name, for errors) with
// cue/scanner, so that comments and the insides of strings never count.
// Its tokens are those the scanner returns without ScanComments (no
// comments), except EOF and the commas it inserts at the ends of lines
// (a COMMA whose literal is "\n"); an interpolated string "a \(x) b"
// counts its segments ("a \( and ) b") as one token each, its own
// parentheses being part of them, and the tokens of the expressions
// between. template reports whether the file is the template of a called
// module: its first declaration after the package clause and the
// imports is the field cueform.TemplateRoot (_module), which only the
// files convert writes for module calls have.
func Count(name string, src []byte) (c Counts, template bool, err error) {
	var errs []string
	handler := func(pos token.Pos, msg string, args []any) {
		errs = append(errs, fmt.Sprintf("%s: %s", pos, fmt.Sprintf(msg, args...)))
	}
	var s scanner.Scanner
	s.Init(token.NewFile(name, -1, len(src)), src, handler, 0)

	var lexs []lexeme
	var lists []bool // for each open bracket, whether it opens a list literal
	depth := 0       // open parentheses, those of interpolations included
	var interp []int // for each open interpolation, depth inside its \(
	openInterp := false
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		switch {
		case tok == token.COMMA && lit == "\n":
			continue // inserted at the end of a line
		case tok == token.INTERPOLATION:
			lexs = append(lexs, lexeme{tok: token.STRING, lit: lit})
			openInterp = true // the scanner returns the ( of \( next
			continue
		case tok == token.LPAREN:
			depth++
			if openInterp {
				openInterp = false
				interp = append(interp, depth)
				continue
			}
		case tok == token.RPAREN:
			if n := len(interp); n > 0 && interp[n-1] == depth {
				// The end of \(...): the string goes on.
				depth--
				interp = interp[:n-1]
				seg := s.ResumeInterpolation()
				lexs = append(lexs, lexeme{tok: token.STRING, lit: seg})
				openInterp = strings.HasSuffix(seg, "(")
				continue
			}
			depth--
		case tok == token.LBRACK:
			lists = append(lists, len(lexs) == 0 || !indexes(lexs[len(lexs)-1]))
		case tok == token.RBRACK:
			list := false
			if n := len(lists); n > 0 {
				list, lists = lists[n-1], lists[:n-1]
			}
			lexs = append(lexs, lexeme{tok: tok, lit: lit, list: list})
			continue
		}
		lexs = append(lexs, lexeme{tok: tok, lit: lit})
	}
	if len(errs) > 0 {
		return Counts{}, false, fmt.Errorf("%s", strings.Join(errs, "\n"))
	}

	c.Lines = countLines(src)
	c.Tokens = len(lexs)
	for i, l := range lexs {
		switch {
		case l.tok == token.BOTTOM:
			c.Bottom++
		case l.tok == token.STRING && l.lit == "'error'":
			c.Error++
		case l.tok == token.RBRACK && i >= 3 &&
			lexs[i-1].tok == token.INT && lexs[i-1].lit == "0" &&
			lexs[i-2].tok == token.LBRACK && lexs[i-3].tok == token.RBRACK && lexs[i-3].list:
			c.Index0++
		}
	}
	return c, isTemplate(lexs), nil
}

// isTemplate reports whether the first declaration of the file whose
// tokens are lexs, after its package clause and imports, is the field
// cueform.TemplateRoot.
func isTemplate(lexs []lexeme) bool {
	i := 0
	at := func(tok token.Token) bool { return i < len(lexs) && lexs[i].tok == tok }
	// keyword reports whether a clause starts at i: word (package and
	// import are identifiers to the scanner) not followed by a colon.
	keyword := func(word string) bool {
		return at(token.IDENT) && lexs[i].lit == word && i+1 < len(lexs) && lexs[i+1].tok != token.COLON
	}
	// skipTo moves past the next tok.
	skipTo := func(tok token.Token) {
		for i < len(lexs) && lexs[i].tok != tok {
			i++
		}
		i++
	}
	// Attributes may come before the package clause.
	for at(token.ATTRIBUTE) {
		i++
		if at(token.COMMA) {
			i++
		}
	}
	if keyword("package") {
		i += 2 // package NAME
		if at(token.COMMA) {
			i++
		}
	}
	for keyword("import") {
		i++
		if at(token.LPAREN) {
			skipTo(token.RPAREN)
		} else {
			skipTo(token.STRING)
		}
		if at(token.COMMA) {
			i++
		}
	}
	return i+1 < len(lexs) && lexs[i].tok == token.IDENT && lexs[i].lit == cueform.TemplateRoot && lexs[i+1].tok == token.COLON
}

// countLines is the number of lines of src as wc -l counts them, plus a
// last line that no newline ends (convert's CUE and HCL columns count
// lines so).
func countLines(src []byte) int {
	n := bytes.Count(src, []byte("\n"))
	if len(src) > 0 && src[len(src)-1] != '\n' {
		n++
	}
	return n
}
