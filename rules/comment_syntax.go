package rules

import (
	"maps"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// CommentSyntax is the rule comment_syntax.
var CommentSyntax = &Rule{
	Name:   "comment_syntax",
	TFLint: "terraform_comment_syntax",
	Doc: `Reports comments written with // or as a /* */ block over several
lines, rather than with #, as TFLint's terraform_comment_syntax does. All
are valid; # is the one the style conventions use. A /* */ comment on one
line is not reported (it may sit inside an expression). The fix writes #
for //, and turns a block comment that has its lines to itself into #
lines (TFLint's conversion: /* and */ taken off, # before each line); a
block comment with code before or after it on its lines is reported
without a fix, since # would comment that code out. JSON files are not
checked. The rule is off by default.

Bad:

    // the region
    variable "region" { type = string }

    /*
      Copyright 2026 Example
    */

Good:

    # the region
    variable "region" { type = string }

    #
    #  Copyright 2026 Example
    #`,
	Severity: Notice,
	Fixes:    true,
	Check: func(p *Pass) {
		for _, name := range slices.Sorted(maps.Keys(p.Module.Files)) {
			f := p.Module.Files[name]
			if _, ok := f.Body.(*hclsyntax.Body); !ok {
				continue
			}
			tokens, _ := hclsyntax.LexConfig(f.Bytes, name, hcl.InitialPos)
			for _, tok := range tokens {
				if tok.Type != hclsyntax.TokenComment {
					continue
				}
				text := string(tok.Bytes)
				switch {
				case strings.HasPrefix(text, "//"):
					slashes := tok.Range
					slashes.End = hcl.Pos{Line: slashes.Start.Line, Column: slashes.Start.Column + 2, Byte: slashes.Start.Byte + 2}
					p.Report(Finding{
						Message: "Single-line comment written with //",
						Detail:  "Write # for single-line comments, as the style conventions do.",
						Range:   slashes,
						Fix:     &Fix{Description: "Replace // with #", Edits: []Edit{{Range: slashes, NewText: "#"}}},
					})
				case strings.HasPrefix(text, "/*") && strings.Contains(text, "\n"):
					f := Finding{
						Message: "Block comment written with /* */",
						Detail:  "Write # before each line of a comment, as the style conventions do.",
						Range:   tok.Range,
					}
					if ownLines(f.Range, p.Module.Files[name].Bytes) {
						f.Fix = &Fix{Description: "Write the block comment as # lines", Edits: []Edit{{Range: tok.Range, NewText: hashLines(text)}}}
					}
					p.Report(f)
				}
			}
		}
	},
}

// ownLines reports whether only spaces and tabs come before rng on its
// first line and after it on its last: a block comment there can become
// # lines without commenting code out.
func ownLines(rng hcl.Range, src []byte) bool {
	for i := rng.Start.Byte - 1; i >= 0 && src[i] != '\n'; i-- {
		if src[i] != ' ' && src[i] != '\t' {
			return false
		}
	}
	for i := rng.End.Byte; i < len(src) && src[i] != '\n' && src[i] != '\r'; i++ {
		if src[i] != ' ' && src[i] != '\t' {
			return false
		}
	}
	return true
}

// hashLines is a /* */ comment as # lines, as TFLint converts it: /* and
// */ taken off and # put before each line.
func hashLines(comment string) string {
	comment = strings.TrimSuffix(strings.TrimPrefix(comment, "/*"), "*/")
	lines := strings.Split(comment, "\n")
	for i, l := range lines {
		lines[i] = "#" + l
	}
	return strings.Join(lines, "\n")
}
