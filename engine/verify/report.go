package verify

import (
	"fmt"
	"io"
	"strings"
)

// Write prints differences for people: a line naming each difference
// (its kind, the instance or output, the stage and the paths that
// differ), then the unified diff of the two values, indented.
func Write(w io.Writer, diffs []Difference) error {
	for _, d := range diffs {
		line := string(d.Kind) + ": " + d.Subject
		if d.Stage != "" {
			line += " (" + d.Stage + ")"
		}
		if len(d.Paths) > 1 || len(d.Paths) == 1 && d.Paths[0] != "" {
			line += ": " + strings.Join(d.Paths, ", ")
		}
		if _, err := fmt.Fprintln(w, line); err != nil {
			return err
		}
		for l := range strings.Lines(d.Diff) {
			if _, err := fmt.Fprint(w, "    "+l); err != nil {
				return err
			}
		}
	}
	return nil
}
