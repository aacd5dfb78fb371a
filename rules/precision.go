package rules

import (
	_ "embed"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// precisionFile holds the judgements of sampled corpus findings that
// scripts/precision asks for, and the number of findings of each
// default-on rule on the corpus. Its format:
//
//	# a comment
//	total RULE N
//	RULE PATH:LINE:COLUMN HASH VERDICT REASON...
//
// PATH is the file below the corpus, LINE and COLUMN where the finding
// starts, HASH
// the first 8 hex digits of the SHA-256 of its message; VERDICT is true
// (worth acting on), false (the finding's claim is wrong) or noise (true,
// but acting on it is not worth it, or not possible), and REASON says why,
// read from the source. TestPrecision (TOFUCUE_CORPUS=1) checks that the
// file matches the corpus findings of the current rules.
//
//go:embed precision.txt
var precisionFile string

// Verdicts are the judgements a sampled finding may get.
var Verdicts = []string{"true", "false", "noise"}

// Judgement is one line of precision.txt.
type Judgement struct {
	Rule, Path   string
	Line, Column int
	Hash         string
	Verdict      string
	Reason       string
}

// ID identifies the finding that a judgement is about.
func (j Judgement) ID() string { return FindingID(j.Rule, j.Path, j.Line, j.Column, j.Hash) }

// FindingID is how precision.txt names a finding.
func FindingID(rule, path string, line, column int, hash string) string {
	return fmt.Sprintf("%s %s:%d:%d %s", rule, path, line, column, hash)
}

// Precision is what precision.txt says of one rule.
type Precision struct {
	// Total is the number of findings on the corpus; Known tells whether
	// the file gives it.
	Total int
	Known bool
	// Judged counts the judged findings of the sample by verdict.
	Judged map[string]int
}

// Sampled is the number of judged findings.
func (p Precision) Sampled() int {
	n := 0
	for _, c := range p.Judged {
		n += c
	}
	return n
}

// Short is the precision as the README's rule table gives it.
func (p Precision) Short() string {
	switch {
	case !p.Known:
		return ""
	case p.Total == 0:
		return "no findings"
	case p.Sampled() == 0:
		return fmt.Sprintf("not judged (%s)", findings(p.Total))
	}
	return fmt.Sprintf("%d%% (%d of %d sampled, %s)", p.Judged["true"]*100/p.Sampled(), p.Judged["true"], p.Sampled(), findings(p.Total))
}

// Sentence is the precision as a rule's doc gives it.
func (p Precision) Sentence() string {
	switch {
	case !p.Known:
		return ""
	case p.Total == 0:
		return "Measured on the corpus of real modules (scripts/precision): no findings."
	case p.Sampled() == 0:
		return fmt.Sprintf("Measured on the corpus of real modules (scripts/precision): %s, none judged yet.", findings(p.Total))
	}
	return fmt.Sprintf("Measured on the corpus of real modules (scripts/precision): %s; of %d sampled, %d worth acting on (%d%%), %d false, %d noise.",
		findings(p.Total), p.Sampled(), p.Judged["true"], p.Judged["true"]*100/p.Sampled(), p.Judged["false"], p.Judged["noise"])
}

func findings(n int) string {
	if n == 1 {
		return "1 finding"
	}
	return fmt.Sprintf("%d findings", n)
}

// ParsePrecision reads the format of precision.txt.
func ParsePrecision(text string) (map[string]*Precision, []Judgement, error) {
	byRule := map[string]*Precision{}
	get := func(rule string) *Precision {
		if byRule[rule] == nil {
			byRule[rule] = &Precision{Judged: map[string]int{}}
		}
		return byRule[rule]
	}
	var judged []Judgement
	seen := map[string]bool{}
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		if fields[0] == "total" {
			if len(fields) != 3 {
				return nil, nil, fmt.Errorf("line %d: want total RULE N", i+1)
			}
			n, err := strconv.Atoi(fields[2])
			if err != nil {
				return nil, nil, fmt.Errorf("line %d: %w", i+1, err)
			}
			p := get(fields[1])
			p.Total, p.Known = n, true
			continue
		}
		if len(fields) < 5 {
			return nil, nil, fmt.Errorf("line %d: want RULE PATH:LINE:COLUMN HASH VERDICT REASON", i+1)
		}
		pos := strings.Split(fields[1], ":")
		var ln, col int
		var err1, err2 error
		if len(pos) == 3 {
			ln, err1 = strconv.Atoi(pos[1])
			col, err2 = strconv.Atoi(pos[2])
		}
		if len(pos) != 3 || err1 != nil || err2 != nil {
			return nil, nil, fmt.Errorf("line %d: %q is not PATH:LINE:COLUMN", i+1, fields[1])
		}
		j := Judgement{Rule: fields[0], Path: pos[0], Line: ln, Column: col, Hash: fields[2], Verdict: fields[3], Reason: strings.Join(fields[4:], " ")}
		if !slices.Contains(Verdicts, j.Verdict) {
			return nil, nil, fmt.Errorf("line %d: verdict %q: want true, false or noise", i+1, j.Verdict)
		}
		if seen[j.ID()] {
			return nil, nil, fmt.Errorf("line %d: %s judged twice", i+1, j.ID())
		}
		seen[j.ID()] = true
		get(j.Rule).Judged[j.Verdict]++
		judged = append(judged, j)
	}
	return byRule, judged, nil
}

// precisions is what precision.txt says, by rule; nil when it does not
// parse (TestPrecisionFile fails then).
var precisions, _, _ = ParsePrecision(precisionFile)

// PrecisionOf returns the measured precision of the rule named name.
func PrecisionOf(name string) Precision {
	if p := precisions[name]; p != nil {
		return *p
	}
	return Precision{}
}

// The doc of each rule that precision.txt measures says what it measured,
// after its first paragraph.
func init() {
	for _, r := range registered {
		s := PrecisionOf(r.Name).Sentence()
		if s == "" {
			continue
		}
		if i := strings.Index(r.Doc, "\n\n"); i >= 0 {
			r.Doc = r.Doc[:i] + "\n\n" + s + r.Doc[i:]
		} else {
			r.Doc += "\n\n" + s
		}
	}
}
