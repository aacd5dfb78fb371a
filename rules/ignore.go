package rules

import (
	"bytes"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// An ignore comment silences findings:
//
//	# tofulint-ignore: rule_a, rule_b     (on the line above the finding,
//	                                        or at the end of its line)
//	# tofulint-ignore-file: rule_a        (among the comments at the top
//	                                        of a file: the whole file)
//
// "all" names every rule. Text after the names, such as "# reason", is
// ignored. // comments work the same; JSON files have no comments.
var ignorePattern = regexp.MustCompile(`^(?:#|//|/\*)\s*tofulint-ignore(-file)?:\s*([A-Za-z0-9_]+(?:\s*,\s*[A-Za-z0-9_]+)*)`)

// ignoreMarker is in every ignore comment.
var ignoreMarker = []byte("tofulint-ignore")

// ignore is one ignore comment.
type ignore struct {
	rules []string
	// line is the line whose findings it silences; 0 for a whole file.
	line  int
	rng   hcl.Range
	used  map[string]bool
	valid bool // a file ignore after the first token of the file is not
}

// ignores holds the ignore comments of a module's files, by file name.
type ignores map[string][]*ignore

// findIgnores reads the ignore comments of every native syntax file.
func findIgnores(files map[string]*hcl.File) ignores {
	out := ignores{}
	for name, f := range files {
		// Most files have no ignore comment; lexing is only worth it for
		// those that name the marker.
		if strings.HasSuffix(name, ".json") || !bytes.Contains(f.Bytes, ignoreMarker) {
			continue
		}
		tokens, _ := hclsyntax.LexConfig(f.Bytes, name, hcl.InitialPos)
		seenCode := false
		lastCodeLine := 0
		for _, tok := range tokens {
			switch tok.Type {
			case hclsyntax.TokenNewline, hclsyntax.TokenEOF:
				continue
			case hclsyntax.TokenComment:
			default:
				seenCode = true
				lastCodeLine = tok.Range.End.Line
				continue
			}
			m := ignorePattern.FindSubmatch(tok.Bytes)
			if m == nil {
				continue
			}
			ig := &ignore{rng: commentRange(tok), used: map[string]bool{}, valid: true}
			for _, r := range strings.Split(string(m[2]), ",") {
				ig.rules = append(ig.rules, strings.TrimSpace(r))
			}
			switch {
			case len(m[1]) > 0: // -file
				ig.valid = !seenCode
			case lastCodeLine == tok.Range.Start.Line: // at the end of a line of code
				ig.line = tok.Range.Start.Line
			case strings.HasPrefix(string(tok.Bytes), "/*"):
				ig.line = tok.Range.End.Line + 1
			default:
				ig.line = tok.Range.Start.Line + 1
			}
			out[name] = append(out[name], ig)
		}
	}
	return out
}

// commentRange is the range of a comment without the newline that ends a
// line comment.
func commentRange(tok hclsyntax.Token) hcl.Range {
	rng := tok.Range
	text := strings.TrimRight(string(tok.Bytes), "\r\n")
	if len(text) < len(tok.Bytes) {
		rng.End = hcl.Pos{Line: rng.Start.Line, Column: rng.Start.Column + utf8.RuneCountInString(text), Byte: rng.Start.Byte + len(text)}
	}
	return rng
}

// silences reports whether an ignore comment silences the finding, and
// marks the comments that do as used.
func (igs ignores) silences(f *Finding) bool {
	silenced := false
	for _, ig := range igs[f.Range.Filename] {
		if !ig.valid || (ig.line != 0 && ig.line != f.Range.Start.Line) {
			continue
		}
		for _, r := range ig.rules {
			if r == f.Rule || r == "all" {
				ig.used[r] = true
				silenced = true
			}
		}
	}
	return silenced
}

// unused returns a finding for every rule name of an ignore comment that
// silenced nothing.
func (igs ignores) unused() []Finding {
	var out []Finding
	for _, list := range igs {
		for _, ig := range list {
			if !ig.valid {
				out = append(out, Finding{Rule: UnusedIgnore, Severity: Warning, Range: ig.rng,
					Message: "Misplaced tofulint-ignore-file",
					Detail:  "A tofulint-ignore-file comment must come before the first block of the file; this one silences nothing."})
				continue
			}
			for _, r := range ig.rules {
				if !ig.used[r] {
					out = append(out, Finding{Rule: UnusedIgnore, Severity: Warning, Range: ig.rng,
						Message: "Unused ignore for " + r,
						Detail:  "No " + r + " finding is reported where this comment applies; remove " + r + " from it."})
				}
			}
		}
	}
	return out
}

// UnusedIgnore is the rule name of the findings about ignore comments that
// silence nothing (see Config.ReportUnusedIgnores).
const UnusedIgnore = "unused_ignore"
