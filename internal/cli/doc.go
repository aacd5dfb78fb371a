// Package cli implements the tofulint and hcl2cue command lines: argument
// and flag handling with cobra, finding the module directories that the
// paths name, and printing diagnostics as text or JSON. The main packages
// in cmd/ only call [Tofulint] or [Hcl2cue] and exit with the status they
// return.
package cli
