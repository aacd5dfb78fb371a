//go:build !linux

package middleware

// becomeSubreaper does nothing: only Linux has child subreapers.
func becomeSubreaper() {}

// killStrays does nothing here: what a middleware started outside its
// process group is not found (see the package documentation).
func killStrays(string) {}
