// Package rules is tofulint's rule engine and its rules.
//
// A Rule is a small value, modeled on golang.org/x/tools/go/analysis: a
// name, a doc with a bad and a good example, a default severity, whether it
// runs by default, and a Check function over a Pass. The pass gives the
// loaded module, its loader diagnostics and every reference of the module
// (found once for all rules); the rule reports Findings, which may carry a
// Fix made of text edits on byte ranges.
//
// Config selects the rules and their severities; Run runs them over a
// module, drops the findings that ignore comments silence
// (# tofulint-ignore: rule on the line above or at the end of the line,
// # tofulint-ignore-file: rule at the top of a file, and TFLint's
// tflint-ignore comments as TFLint reads them) and can report the ignore
// comments that silence nothing. A rule is named by its name or its TFLint
// name (Resolve); tflint.go holds the table of TFLint's rule names.
//
// Each rule lives in the file named after it; registry.go lists them.
package rules
