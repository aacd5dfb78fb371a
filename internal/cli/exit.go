package cli

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/tofucue/tofucue/internal/interrupt"
)

// Exit statuses shared by both commands.
const (
	ExitOK       = 0 // nothing to report
	ExitFindings = 1 // error diagnostics (tofulint) or a difference (hcl2cue verify)
	ExitError    = 2 // usage, I/O or internal error
	// ExitSIGINT and ExitSIGTERM end a command that a signal interrupted
	// (interrupt.Status), as a shell reports a process the signal killed.
	ExitSIGINT  = 130
	ExitSIGTERM = 143
	// ExitMemory ends a command whose heap passed --max-memory: an error.
	ExitMemory = ExitError
)

// exitStatusHelp is the sentence on interrupts that every command's help
// ends its exit statuses with.
const exitStatusHelp = `SIGINT or SIGTERM stops the command within a second, with status 130 or
143, leaving no half-written file and no middleware process behind; so
does a heap that passes --max-memory, with status 2.`

// exitError ends a command with a status. A nil err means that the
// command has printed everything it had to say.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// execute runs cmd with args and maps its outcome to an exit status. Errors
// other than an exitError (bad flags, wrong number of arguments, unknown
// subcommands) are usage errors. The command's context ends at SIGINT or
// SIGTERM; the status is then ExitSIGINT or ExitSIGTERM, whatever the
// command returned.
func execute(cmd *cobra.Command, args []string, stdout, stderr io.Writer) int {
	cmd.SetArgs(args)
	cmd.SetOut(stdout)
	cmd.SetErr(stderr)
	cmd.SilenceErrors = true
	cmd.SilenceUsage = true
	limit := addMemoryBudget(cmd)
	interrupted := func(status int) {
		if status == ExitMemory {
			fmt.Fprintf(stderr, "%s: stopped: the memory in use passed the budget of %s (--max-memory)\n", cmd.Name(), limit)
			return
		}
		fmt.Fprintf(stderr, "%s: interrupted (%s)\n", cmd.Name(), map[int]string{ExitSIGINT: "SIGINT", ExitSIGTERM: "SIGTERM"}[status])
	}
	ctx, stop := interrupt.Notify(context.Background(), interrupted)
	defer stop()
	err := cmd.ExecuteContext(ctx)
	if status := interrupt.Status(ctx); status != 0 {
		interrupted(status)
		return status
	}
	if err == nil {
		return ExitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", cmd.Name(), ee.err)
		}
		return ee.code
	}
	fmt.Fprintf(stderr, "%s: %v\nRun '%s --help' for usage.\n", cmd.Name(), err, cmd.Name())
	return ExitError
}
