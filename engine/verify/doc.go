// Package verify compares the plan of an HCL module with the plan of its
// CUE form, made with the same inputs and the same mock providers: the
// heart of `hcl2cue verify`.
//
// [Compare] matches resource instances by address and reports, in address
// order, instances that only one side plans, a different action (a data
// source read while planning on one side and during apply on the other),
// and planned and applied values that differ, then root outputs. Values
// are compared path by path: an unknown equals only an unknown (a path
// known on one side only is "unknown vs known"), numbers compare by value,
// an absent attribute equals a null one (the schema decides which
// attributes a value has), and sensitive marks are not compared. [Write]
// prints each difference with the paths that differ and a unified diff of
// the two values (github.com/sergi/go-diff, through internal/udiff).
package verify
