package golden

import "github.com/tofucue/tofucue/internal/udiff"

// Diff returns the line diff from want to got in unified hunks, "" when
// they are equal.
func Diff(want, got string) string { return udiff.Hunks(want, got) }
