// Package lib holds the tofu CUE package: the OpenTofu functions that CUE's
// standard library has no equivalent of, written in pure CUE so that the
// stock cue tool evaluates a converted module. hcl2cue writes into the
// tofu directory of a converted module the definitions it uses and those
// they use, and nothing else (Select).
//
// A function is a definition called in CUE's usual way:
//
//	(tofu.#cidrsubnet & {#args: ["10.0.0.0/16", 8, 2]}).out
//
// A definition whose result is an error for empty argument lists has its
// #args required (#args!): cue vet evaluates each definition with its
// arguments open, which CUE takes for empty lists, and a required field
// not given makes the result incomplete, not an error.
package lib

import "embed"

// Files are the library's CUE files.
//
//go:embed *.cue
var Files embed.FS
