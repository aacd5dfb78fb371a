package report

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
)

// writeGitHub writes r as GitHub Actions workflow commands, one per
// finding or loading diagnostic:
//
//	::error file=F,line=L,col=C,endLine=EL,endColumn=EC,title=RULE::MESSAGE
//
// with ::warning and ::notice for the other severities, which GitHub shows
// as annotations on the files of the run and of its pull request. The
// message holds the summary, the detail and the suggested fix. A clean
// report writes nothing.
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
		fmt.Fprintf(&b, "::%s %s::%s\n", level, strings.Join(props, ","), escapeData(it.fullText()))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// dataEscaper escapes a workflow command's message, which the runner
// unescapes.
var dataEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")

// propertyEscaper escapes a workflow command's property value: as a
// message, and also the ":" and "," that end a property.
var propertyEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")

func escapeData(s string) string     { return dataEscaper.Replace(s) }
func escapeProperty(s string) string { return propertyEscaper.Replace(s) }
