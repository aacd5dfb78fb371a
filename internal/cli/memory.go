package cli

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tofucue/tofucue/internal/interrupt"
)

// The memory budget of every command (issue 35): a hand-edited CUE form
// that unrolls a count of a billion, or an input that no other budget
// bounds, must end with a message and a status rather than with the
// machine's memory. The planners' own budgets (--max-instances,
// --max-values) stop such inputs first, at the expression; this one
// stops what they do not see, such as one long CUE evaluation.

// defaultMaxMemory is the budget without --max-memory: three quarters of
// the machine's memory, at most 8 GiB.
func defaultMaxMemory() uint64 {
	const most = 8 << 30
	if total := physicalMemory(); total > 0 {
		return min(most, total/4*3)
	}
	return most
}

// physicalMemory is the machine's memory from /proc/meminfo; 0 where
// that cannot be read.
func physicalMemory() uint64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 0
}

// byteSize is the value of --max-memory: bytes, written as a number with
// an optional unit (KiB, MiB, GiB, TiB, or K, M, G, T for the same); 0
// means no budget.
type byteSize uint64

func (b *byteSize) String() string { return formatBytes(uint64(*b)) }
func (b *byteSize) Type() string   { return "size" }

func (b *byteSize) Set(s string) error {
	t := strings.TrimSpace(s)
	units := []struct {
		suffix string
		shift  uint
	}{{"TiB", 40}, {"GiB", 30}, {"MiB", 20}, {"KiB", 10}, {"T", 40}, {"G", 30}, {"M", 20}, {"K", 10}}
	shift := uint(0)
	for _, u := range units {
		if rest, ok := strings.CutSuffix(t, u.suffix); ok {
			t, shift = strings.TrimSpace(rest), u.shift
			break
		}
	}
	n, err := strconv.ParseUint(t, 10, 64)
	if err != nil || n > (1<<63-1)>>shift {
		return fmt.Errorf("%q: want a size such as 4GiB, 512MiB or a number of bytes", s)
	}
	*b = byteSize(n << shift)
	return nil
}

// formatBytes writes n in the largest binary unit that divides it, or
// with one decimal in GiB or MiB.
func formatBytes(n uint64) string {
	switch {
	case n == 0:
		return "0"
	case n%(1<<30) == 0:
		return fmt.Sprintf("%dGiB", n>>30)
	case n%(1<<20) == 0:
		return fmt.Sprintf("%dMiB", n>>20)
	case n >= 1<<30:
		return fmt.Sprintf("%.1fGiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1fMiB", float64(n)/(1<<20))
	}
	return strconv.FormatUint(n, 10)
}

// addMemoryBudget gives cmd, a root command, --max-memory, applied before
// any of its commands runs. It returns the flag's value.
func addMemoryBudget(cmd *cobra.Command) *byteSize {
	limit := byteSize(defaultMaxMemory())
	cmd.PersistentFlags().Var(&limit, "max-memory", "stop with status 2 when the heap passes this size (0: no budget; default: 3/4 of the machine's memory, at most 8GiB)")
	cmd.PersistentPreRunE = func(c *cobra.Command, _ []string) error {
		interrupt.LimitMemory(c.Context(), uint64(limit), ExitMemory)
		return nil
	}
	return &limit
}
