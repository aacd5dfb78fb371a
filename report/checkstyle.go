package report

import (
	"encoding/xml"
	"io"
)

// checkstyleDoc is Checkstyle's XML report, as its XMLLogger writes it
// and as CI tools (reviewdog, Jenkins, GitLab's converters) read it.
type checkstyleDoc struct {
	XMLName xml.Name         `xml:"checkstyle"`
	Version string           `xml:"version,attr,omitempty"`
	Files   []checkstyleFile `xml:"file"`
}

type checkstyleFile struct {
	Name   string            `xml:"name,attr"`
	Errors []checkstyleError `xml:"error"`
}

type checkstyleError struct {
	Line     int    `xml:"line,attr"`
	Column   int    `xml:"column,attr,omitempty"`
	Severity string `xml:"severity,attr"`
	Message  string `xml:"message,attr"`
	Source   string `xml:"source,attr"`
}

// writeCheckstyle writes r as Checkstyle XML: every file of the report in
// name order, as Checkstyle lists every file it checked, each with its
// findings and loading diagnostics. What is about no file goes in a file
// element with an empty name, first.
func writeCheckstyle(w io.Writer, r *Report) error {
	its := items(r)
	doc := checkstyleDoc{Version: r.Version}
	byName := map[string]int{}
	file := func(name string) *checkstyleFile {
		i, ok := byName[name]
		if !ok {
			i = len(doc.Files)
			byName[name] = i
			doc.Files = append(doc.Files, checkstyleFile{Name: name})
		}
		return &doc.Files[i]
	}
	for i := range its {
		if its[i].rng == nil {
			file("")
			break
		}
	}
	for _, name := range fileNames(r, its) {
		file(name)
	}
	for i := range its {
		it := &its[i]
		e := checkstyleError{
			Severity: severityLevel(it.severity, "error", "warning", "info"),
			Message:  it.fullText(),
			Source:   it.rule,
		}
		name := ""
		if it.rng != nil {
			name = it.rng.Filename
			e.Line, e.Column = it.rng.Start.Line, it.rng.Start.Column
		}
		f := file(name)
		f.Errors = append(f.Errors, e)
	}
	return writeXML(w, doc)
}

// writeXML writes v as an indented XML document with its declaration and
// a final newline; encoding/xml escapes the text and attributes.
func writeXML(w io.Writer, v any) error {
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	if err := enc.Close(); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
