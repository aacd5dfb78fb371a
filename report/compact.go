package report

import (
	"fmt"
	"io"
	"strings"
)

// writeCompact writes r in TFLint's compact format: a line "N issue(s)
// found:" and an empty line, then one line per finding or loading
// diagnostic, "FILE:LINE:COL: Severity - Message (rule)", where a loading
// diagnostic's message is its summary and detail. A clean report writes
// nothing.
func writeCompact(w io.Writer, r *Report) error {
	its := items(r)
	if len(its) == 0 {
		return nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d issue(s) found:\n\n", len(its))
	for i := range its {
		b.WriteString(compactLine(&its[i], its[i].oneLine()))
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// compactLine is "FILE:LINE:COL: Severity - MESSAGE (rule)", without the
// position for an item about no file.
func compactLine(it *item, message string) string {
	line := severityLevel(it.severity, "Error", "Warning", "Notice") + " - " + message + " (" + it.rule + ")"
	if pos := it.position(); pos != "" {
		line = pos + ": " + line
	}
	return line
}
