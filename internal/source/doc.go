// Package source holds what every reader of a module's source files must do
// before handing the bytes to a parser, so that hostile input gives a
// diagnostic rather than a crash or a hang.
//
// [ReadFile] (and [ReadFileIn], inside an [os.Root]) reads only regular
// files, after following symbolic links: a named pipe would block the read
// forever, a device such as /dev/zero never end. The kind of file is checked
// before it is opened, so that a device is never opened, and again on the
// opened file, which is opened without waiting for a pipe's writer, so that
// a file swapped for a pipe in between cannot block either. The module
// loader, the file functions (file, filemd5, templatefile, ...; hcl2cue
// convert works these out with them too), the module's own variables files,
// tofulint's configuration file and --fix's re-read all use it.
//
// [CheckNesting] refuses bracket nesting deeper than [MaxNesting]. The HCL
// parsers (native syntax, JSON, templates) are recursive descent parsers:
// tens of thousands of nested parentheses, brackets, braces or template
// interpolations overflow the goroutine stack, a fatal error that Go cannot
// recover from, and a few thousand already make every later stage (CUE
// conversion, evaluation, the plan's rendering and JSON encoding) slow or
// failing. The scan is one pass over the bytes, linear in their size, and
// reports the file, line and column of the first opener beyond the limit.
//
// The scan follows the native syntax well enough not to count what the
// parser does not nest: comments, the literal text of quoted strings and
// heredocs (only their ${ and %{ sequences open a level, and an if or for
// directive another until its end directive), and escaped $${ and %%{. In a
// JSON file every bracket counts, in strings too, but a string's levels end
// with it: a depth counted too high is then one string's unbalanced
// brackets, which MaxNesting leaves ample room for.
//
// Every parse of module source goes through it: the module loader
// (package config, which tofulint, hcl2cue convert, plan and verify and
// tofulint --fix use), the re-parse of a fixed file, templatefile and
// templatestring, variable files and -var values, mocks files and the
// linter's configuration file.
package source
