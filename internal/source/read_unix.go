//go:build unix

package source

import (
	"os"
	"syscall"
)

// openFlags opens without waiting: a named pipe's open would otherwise
// block until a writer comes.
const openFlags = os.O_RDONLY | syscall.O_NONBLOCK
