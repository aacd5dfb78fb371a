// Package lib holds the tofu CUE package: the OpenTofu functions that CUE's
// standard library has no equivalent of, written in pure CUE so that the
// stock cue tool evaluates a converted module. hcl2cue writes these files
// into the tofu directory of every converted module that uses them.
//
// A function is a definition called in CUE's usual way:
//
//	(tofu.#cidrsubnet & {#args: ["10.0.0.0/16", 8, 2]}).out
package lib

import "embed"

// Files are the library's CUE files.
//
//go:embed *.cue
var Files embed.FS
