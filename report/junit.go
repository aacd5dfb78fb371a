package report

import (
	"encoding/xml"
	"io"
	"path/filepath"
	"slices"
)

// The JUnit XML that CI systems read (GitLab's test reports, Jenkins,
// GitHub actions that publish test results): testsuites holding
// testsuites holding testcases, a failing testcase holding a failure.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	File      string        `xml:"file,attr,omitempty"`
	Line      int           `xml:"line,attr,omitempty"`
	Time      string        `xml:"time,attr"`
	Failure   *junitFailure `xml:"failure"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// junitPassing names the testcase of a file without findings.
const junitPassing = "tofulint"

// writeJUnit writes r as JUnit XML: a testsuite per module (the directory
// of its files) in name order, named by the directory, with a failing
// testcase per finding or loading diagnostic (named by its rule, classname
// and file the file; every severity fails, as in TFLint's report, the
// failure's type saying which) and, for a module without any, one passing
// testcase, so that a clean module is a passing report and not an empty
// one. What is about no file is in a testsuite
// named "tofulint", first. Times are 0: tofulint does not time its rules,
// and the same report always gives the same bytes.
// moduleOf names the module of a file: its directory.
func moduleOf(file string) string { return filepath.Dir(file) }

func writeJUnit(w io.Writer, r *Report) error {
	its := items(r)
	doc := junitSuites{Name: "tofulint", Time: "0"}
	byName := map[string]int{}
	suite := func(name string) *junitSuite {
		i, ok := byName[name]
		if !ok {
			i = len(doc.Suites)
			byName[name] = i
			doc.Suites = append(doc.Suites, junitSuite{Name: name, Time: "0"})
		}
		return &doc.Suites[i]
	}
	for i := range its {
		if its[i].rng == nil {
			suite(junitPassing)
			break
		}
	}
	var modules []string
	for _, name := range fileNames(r, its) {
		modules = append(modules, moduleOf(name))
	}
	slices.Sort(modules)
	for _, m := range slices.Compact(modules) {
		suite(m)
	}
	for i := range its {
		it := &its[i]
		c := junitCase{Name: it.rule, Time: "0"}
		where, text := "", compactLine(it, flatten(it.message))
		name := junitPassing
		if it.rng != nil {
			name = it.rng.Filename
			c.File, c.Line = name, it.rng.Start.Line
			where = it.position() + ": "
		}
		c.Classname = name
		if it.detail != "" {
			text += "\n\n" + it.detail
		}
		if it.fix != nil && it.fix.Description != "" {
			text += "\n\nSuggested fix: " + it.fix.Description + "."
		}
		c.Failure = &junitFailure{
			Message: where + flatten(it.message),
			Type:    severityLevel(it.severity, "error", "warning", "notice"),
			Text:    text,
		}
		suiteName := junitPassing
		if it.rng != nil {
			suiteName = moduleOf(name)
		}
		s := suite(suiteName)
		s.Cases = append(s.Cases, c)
		s.Tests++
		s.Failures++
	}
	for i := range doc.Suites {
		s := &doc.Suites[i]
		if len(s.Cases) == 0 {
			s.Cases = append(s.Cases, junitCase{Name: junitPassing, Classname: s.Name, Time: "0"})
			s.Tests++
		}
		doc.Tests += s.Tests
		doc.Failures += s.Failures
	}
	return writeXML(w, doc)
}
