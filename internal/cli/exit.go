package cli

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"
)

// Exit statuses shared by both commands.
const (
	ExitOK       = 0 // nothing to report
	ExitFindings = 1 // error diagnostics (tofulint) or a difference (hcl2cue verify)
	ExitError    = 2 // usage, I/O or internal error
)

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
// subcommands) are usage errors.
func execute(cmd *cobra.Command, args []string, stdout, stderr io.Writer) int {
	cmd.SetArgs(args)
	cmd.SetOut(stdout)
	cmd.SetErr(stderr)
	cmd.SilenceErrors = true
	cmd.SilenceUsage = true
	err := cmd.Execute()
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
