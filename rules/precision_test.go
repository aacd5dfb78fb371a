package rules

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/internal/corpus"
)

var precisionReview = flag.String("precision-review", "", "TestPrecision writes the sampled findings with their source and judgement to this file")

// precisionSample is how many findings of each rule the harness samples,
// and precisionSeed orders them: the sample is the findings whose hash of
// seed and ID is smallest, so a finding that appears or goes away changes
// the sample by at most one.
const (
	precisionSample = 20
	precisionSeed   = "tofulint-precision-1"
)

// corpusFinding is a finding of a default-on rule on the corpus.
type corpusFinding struct {
	Finding
	dir  corpus.Dir
	path string // below the corpus
	id   string
}

// defaultFindings lints every corpus module with the rules that are on by
// default, as tofulint with no configuration does. Directories that are
// not modules or are templates (internal/corpus) are left out, as
// TestCorpus leaves them.
func defaultFindings(t *testing.T) []corpusFinding {
	sel, err := Config{}.Select()
	if err != nil {
		t.Fatal(err)
	}
	root := corpus.Shared(t, "corpus")
	sources := config.NewSources(config.SourceOptions{AllowRead: corpus.AllowRead(t)})
	var out []corpusFinding
	for _, dir := range corpus.ModuleDirs(t) {
		if dir.NotModule != "" || corpus.Templates[dir.Rel] != "" {
			continue
		}
		m, diags := config.Load(dir.Path)
		found := Run(m, diags, sel, Config{Sources: sources})
		for i := range found {
			f := &found[i]
			rel, err := filepath.Rel(root, f.Range.Filename)
			if err != nil {
				t.Fatal(err)
			}
			rel = filepath.ToSlash(rel)
			sum := sha256.Sum256([]byte(f.Message))
			id := FindingID(f.Rule, rel, f.Range.Start.Line, f.Range.Start.Column, hex.EncodeToString(sum[:4]))
			out = append(out, corpusFinding{Finding: *f, dir: dir, path: rel, id: id})
		}
	}
	return out
}

// sampleOf returns the sample of one rule's findings.
func sampleOf(fs []corpusFinding) []corpusFinding {
	key := func(f corpusFinding) string {
		sum := sha256.Sum256([]byte(precisionSeed + "\x00" + f.id))
		return hex.EncodeToString(sum[:])
	}
	fs = slices.Clone(fs)
	slices.SortFunc(fs, func(a, b corpusFinding) int { return cmp.Compare(key(a), key(b)) })
	if len(fs) > precisionSample {
		fs = fs[:precisionSample]
	}
	slices.SortFunc(fs, func(a, b corpusFinding) int { return cmp.Compare(a.id, b.id) })
	return fs
}

// TestPrecision (TOFUCUE_CORPUS=1) checks precision.txt against the
// corpus: each default-on rule's number of findings is the file's total,
// every finding of the sample has a judgement, and every judgement is of
// a finding in the sample. A change that adds or removes findings fails
// it until the file is brought up to date (scripts/precision writes the
// review file that helps). -precision-review FILE writes that file.
func TestPrecision(t *testing.T) {
	if os.Getenv("TOFUCUE_CORPUS") != "1" {
		t.Skip("set TOFUCUE_CORPUS=1 to lint the corpus (scripts/precision)")
	}
	_, judged, err := ParsePrecision(precisionFile)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]Judgement{}
	for _, j := range judged {
		byID[j.ID()] = j
	}
	perRule := map[string][]corpusFinding{}
	for _, f := range defaultFindings(t) {
		perRule[f.Rule] = append(perRule[f.Rule], f)
	}
	sampled := map[string]bool{}
	var review strings.Builder
	fmt.Fprintf(&review, "# tofulint precision review\n\nEvery default-on rule over the corpus; at most %d findings of each, sampled with seed %q.\nJudge each finding marked todo in rules/precision.txt: true (worth acting on), false (wrong), noise (true, but not worth acting on), with the reason.\n\n## totals\n\n```\n", precisionSample, precisionSeed)
	for _, r := range All() {
		if r.Enabled {
			fmt.Fprintf(&review, "total %s %d\n", r.Name, len(perRule[r.Name]))
		}
	}
	review.WriteString("```\n")
	for _, r := range All() {
		if !r.Enabled {
			continue
		}
		fs := perRule[r.Name]
		if p := PrecisionOf(r.Name); !p.Known || p.Total != len(fs) {
			t.Errorf("%s: %d findings on the corpus, rules/precision.txt says %d: run scripts/precision and review the sample", r.Name, len(fs), p.Total)
		}
		sample := sampleOf(fs)
		fmt.Fprintf(&review, "\n## %s: %d findings, %d sampled\n", r.Name, len(fs), len(sample))
		for _, f := range sample {
			sampled[f.id] = true
			j, ok := byID[f.id]
			line := f.id + " todo"
			if ok {
				line = f.id + " " + j.Verdict + " " + j.Reason
			} else {
				t.Errorf("not judged in rules/precision.txt: %s: %s", f.id, f.Message)
			}
			fmt.Fprintf(&review, "\n### %s\n\n```\n%s\n```\n\n%s: %s\n\n%s\n", f.path, line, f.Severity, f.Message, f.Detail)
			review.WriteString(findingContext(f))
		}
	}
	for _, j := range judged {
		if !sampled[j.ID()] {
			t.Errorf("rules/precision.txt judges a finding that is not in the sample any more: %s", j.ID())
		}
	}
	if *precisionReview != "" {
		if err := os.WriteFile(*precisionReview, []byte(review.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// placeRE finds the FILE:LINE places that a message names.
var placeRE = regexp.MustCompile(`at ([\w./-]+\.tf):(\d+)`)

// findingContext is the source around a finding and around the first
// places its message names, as fenced blocks.
func findingContext(f corpusFinding) string {
	var b strings.Builder
	show := func(file string, line int) {
		src, err := os.ReadFile(file)
		if err != nil {
			return
		}
		lines := strings.Split(string(src), "\n")
		from, to := max(line-4, 1), min(line+4, len(lines))
		fmt.Fprintf(&b, "\n%s:%d\n```hcl\n", filepath.Base(file), line)
		for i := from; i <= to; i++ {
			mark := "  "
			if i == line {
				mark = "> "
			}
			fmt.Fprintf(&b, "%s%4d %s\n", mark, i, lines[i-1])
		}
		b.WriteString("```\n")
	}
	show(f.Range.Filename, f.Range.Start.Line)
	seen := map[string]bool{}
	for _, m := range placeRE.FindAllStringSubmatch(f.Message, -1) {
		if len(seen) == 3 || seen[m[0]] {
			continue
		}
		seen[m[0]] = true
		n, _ := strconv.Atoi(m[2])
		show(filepath.Join(f.dir.Path, m[1]), n)
	}
	return b.String()
}

// TestPrecisionFile checks that precision.txt parses, gives a total for
// every default-on rule, and that the README's rule table shows each
// rule's measured precision as the rule's doc does.
func TestPrecisionFile(t *testing.T) {
	byRule, _, err := ParsePrecision(precisionFile)
	if err != nil {
		t.Fatal(err)
	}
	for name := range byRule {
		if Lookup(name) == nil {
			t.Errorf("rules/precision.txt names %s, which is no rule", name)
		}
	}
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range All() {
		p := PrecisionOf(r.Name)
		if !r.Enabled {
			if p.Known {
				t.Errorf("%s is off by default, but rules/precision.txt measures it", r.Name)
			}
			continue
		}
		if !p.Known {
			t.Errorf("%s: rules/precision.txt has no total", r.Name)
			continue
		}
		if !strings.Contains(r.Doc, p.Sentence()) {
			t.Errorf("%s: the doc does not say %q", r.Name, p.Sentence())
		}
		row := regexp.MustCompile("(?m)^\\| `" + r.Name + "` \\|.*$").Find(readme)
		if !strings.Contains(string(row), "| "+p.Short()+" |") {
			t.Errorf("README: the row of %s does not give its precision %q: %s", r.Name, p.Short(), row)
		}
	}
}
