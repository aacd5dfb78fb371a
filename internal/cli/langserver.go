package cli

import (
	"errors"
	"io"

	"github.com/spf13/cobra"

	"github.com/tofucue/tofucue/langserver"
	"github.com/tofucue/tofucue/lint"
)

// serveLanguage runs the language server on the command's input and
// output until the editor sends exit (or closes them, or a signal comes).
func serveLanguage(cmd *cobra.Command, opts lint.Options) error {
	rwc := stdio{Reader: cmd.InOrStdin(), Writer: cmd.OutOrStdout()}
	// The command's context ends at SIGINT or SIGTERM (see execute).
	err := langserver.Serve(cmd.Context(), rwc, langserver.Options{Lint: opts, Version: Version()})
	if errors.Is(err, langserver.ErrNoShutdown) {
		return &exitError{code: ExitFindings, err: err}
	}
	return err
}

// stdio is the command's input and output as one stream; closing it
// closes neither.
type stdio struct {
	io.Reader
	io.Writer
}

func (stdio) Close() error { return nil }
