package report

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/tofucue/tofucue/rules"
)

// writeGitHub writes r as GitHub Actions workflow commands, one per
// finding or loading diagnostic:
//
//	::error file=F,line=L,col=C,endLine=EL,endColumn=EC,title=RULE::MESSAGE
//
// with ::warning and ::notice for the other severities, which GitHub shows
// as annotations on the files of the run and of its pull request. The
// message is annotationText's. A clean report writes nothing.
func writeGitHub(w io.Writer, r *Report) error {
	var b strings.Builder
	its := items(r)
	for i := range its {
		it := &its[i]
		var props []string
		if it.rng != nil {
			rng := it.rng
			props = append(props, "file="+escapeProperty(filepath.ToSlash(rng.Filename)))
			if rng.Start.Line >= 1 {
				props = append(props, fmt.Sprintf("line=%d", rng.Start.Line))
				if rng.Start.Column >= 1 {
					props = append(props, fmt.Sprintf("col=%d", rng.Start.Column))
				}
				if rng.End.Line >= rng.Start.Line {
					props = append(props, fmt.Sprintf("endLine=%d", rng.End.Line))
					if rng.End.Column >= 1 {
						props = append(props, fmt.Sprintf("endColumn=%d", rng.End.Column))
					}
				}
			}
		}
		props = append(props, "title="+escapeProperty(it.rule))
		level := severityLevel(it.severity, "error", "warning", "notice")
		fmt.Fprintf(&b, "::%s %s::%s\n", level, strings.Join(props, ","), escapeData(annotationText(it)))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// annotationText is what an annotation says: the message, the fix it
// suggests, and a link to the rule's documentation; the detail, which
// explains at length, only for a loading diagnostic, whose summary alone
// ("Unsupported block type") does not say what is wrong.
func annotationText(it *item) string {
	s := it.message
	if it.rule == LoadError && it.detail != "" {
		s += "\n\n" + it.detail
	}
	if it.fix != nil && it.fix.Description != "" {
		s += "\n\nSuggested fix: " + it.fix.Description + "."
	}
	return s + "\n\n" + RuleDocURL(it.rule)
}

// RuleDocURL is where a rule is documented: its file in rules/, whose
// Doc is its documentation, for a registered rule; the README's table of
// rules for the others (load_error, unused_ignore).
func RuleDocURL(name string) string {
	if r := rules.Lookup(name); r != nil {
		return InformationURI + "/blob/main/rules/" + r.Name + ".go"
	}
	return InformationURI + "#tofulint-rules"
}

// dataEscaper escapes a workflow command's message, which the runner
// unescapes.
var dataEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")

// propertyEscaper escapes a workflow command's property value: as a
// message, and also the ":" and "," that end a property.
var propertyEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")

func escapeData(s string) string     { return dataEscaper.Replace(s) }
func escapeProperty(s string) string { return propertyEscaper.Replace(s) }
