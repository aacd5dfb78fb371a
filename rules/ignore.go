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
//
// TFLint's comments work as TFLint reads them: "tflint-ignore: NAMES"
// anywhere in a comment silences the findings on the line where the
// comment starts and on the next one; "tflint-ignore-file: NAMES" must
// start the file (line 1, column 1). NAMES end at a newline, "*", "/" or
// "#". Rules are named by their tofulint or their TFLint names in both
// kinds; a name of a TFLint rule that tofulint does not have silences
// nothing and is never reported unused, since the comment is for TFLint
// too.
var ignorePattern = regexp.MustCompile(`^(?:#|//|/\*)\s*tofulint-ignore(-file)?:\s*([A-Za-z0-9_]+(?:\s*,\s*[A-Za-z0-9_]+)*)`)

// tflintIgnorePattern is TFLint's annotation syntax.
var tflintIgnorePattern = regexp.MustCompile(`tflint-ignore(-file)?: ([^\n*/#]+)`)

// ignoreMarkers are in every ignore comment.
var ignoreMarkers = [][]byte{[]byte("tofulint-ignore"), []byte("tflint-ignore")}

// ignore is one ignore comment.
type ignore struct {
	// rules are the names as written; resolved are their tofulint names
	// (the name as written when it names no tofulint rule).
	rules    []string
	resolved []string
	// first and last are the lines whose findings it silences; 0 for a
	// whole file.
	first, last int
	rng         hcl.Range
	used        map[string]bool
	valid       bool // a file ignore after the first token of the file is not
	tflint      bool // a TFLint annotation
}

// ignores holds the ignore comments of a module's files, by file name.
type ignores map[string][]*ignore

// findIgnores reads the ignore comments of every native syntax file.
func findIgnores(files map[string]*hcl.File) ignores {
	out := ignores{}
	for name, f := range files {
		// Most files have no ignore comment; lexing is only worth it for
		// those that name the marker.
		if strings.HasSuffix(name, ".json") || !bytes.Contains(f.Bytes, ignoreMarkers[0]) && !bytes.Contains(f.Bytes, ignoreMarkers[1]) {
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
			if ig := tofulintIgnore(tok, seenCode, lastCodeLine); ig != nil {
				out[name] = append(out[name], ig)
			} else if ig := tflintIgnore(tok); ig != nil {
				out[name] = append(out[name], ig)
			}
		}
	}
	return out
}

// tofulintIgnore reads a tofulint-ignore comment, or returns nil.
func tofulintIgnore(tok hclsyntax.Token, seenCode bool, lastCodeLine int) *ignore {
	m := ignorePattern.FindSubmatch(tok.Bytes)
	if m == nil {
		return nil
	}
	ig := newIgnore(tok, string(m[2]))
	line := 0
	switch {
	case len(m[1]) > 0: // -file
		ig.valid = !seenCode
	case lastCodeLine == tok.Range.Start.Line: // at the end of a line of code
		line = tok.Range.Start.Line
	case strings.HasPrefix(string(tok.Bytes), "/*"):
		line = tok.Range.End.Line + 1
	default:
		line = tok.Range.Start.Line + 1
	}
	ig.first, ig.last = line, line
	return ig
}

// tflintIgnore reads a TFLint annotation, or returns nil.
func tflintIgnore(tok hclsyntax.Token) *ignore {
	m := tflintIgnorePattern.FindSubmatch(tok.Bytes)
	if m == nil {
		return nil
	}
	ig := newIgnore(tok, string(m[2]))
	ig.tflint = true
	if len(m[1]) > 0 { // -file
		ig.valid = tok.Range.Start.Line == 1 && tok.Range.Start.Column == 1
	} else {
		ig.first, ig.last = tok.Range.Start.Line, tok.Range.Start.Line+1
	}
	return ig
}

func newIgnore(tok hclsyntax.Token, names string) *ignore {
	ig := &ignore{rng: commentRange(tok), used: map[string]bool{}, valid: true}
	for _, r := range strings.Split(names, ",") {
		r = strings.TrimSpace(r)
		resolved := r
		if canonical, err := Resolve(r); err == nil {
			resolved = canonical
		}
		ig.rules = append(ig.rules, r)
		ig.resolved = append(ig.resolved, resolved)
	}
	return ig
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
		if !ig.valid || (ig.first != 0 && (f.Range.Start.Line < ig.first || f.Range.Start.Line > ig.last)) {
			continue
		}
		for i, r := range ig.resolved {
			if r == f.Rule || r == "all" {
				ig.used[ig.rules[i]] = true
				silenced = true
			}
		}
	}
	return silenced
}

// unused returns a finding for every rule name of an ignore comment that
// silenced nothing although its rule ran (ran, by tofulint name): an
// ignore of a rule the configuration leaves off may serve where it is
// on (another configuration, TFLint).
func (igs ignores) unused(ran map[string]bool) []Finding {
	var out []Finding
	for _, list := range igs {
		for _, ig := range list {
			if !ig.valid {
				msg, detail := "Misplaced tofulint-ignore-file", "A tofulint-ignore-file comment must come before the first block of the file; this one silences nothing."
				if ig.tflint {
					msg, detail = "Misplaced tflint-ignore-file", "A tflint-ignore-file comment must start the file, at line 1, column 1; this one silences nothing."
				}
				out = append(out, Finding{Rule: UnusedIgnore, Severity: Warning, Range: ig.rng, Message: msg, Detail: detail})
				continue
			}
			for i, r := range ig.rules {
				if ig.used[r] || ig.tflint && r != "all" && Lookup(ig.resolved[i]) == nil {
					continue
				}
				if rule := Lookup(ig.resolved[i]); r != "all" && rule != nil && !ran[rule.Name] {
					continue
				}
				out = append(out, Finding{Rule: UnusedIgnore, Severity: Warning, Range: ig.rng,
					Message: "Unused ignore for " + r,
					Detail:  "No " + r + " finding is reported where this comment applies; remove " + r + " from it."})
			}
		}
	}
	return out
}

// UnusedIgnore is the rule name of the findings about ignore comments that
// silence nothing (see Config.ReportUnusedIgnores).
const UnusedIgnore = "unused_ignore"
