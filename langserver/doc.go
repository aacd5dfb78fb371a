// Package langserver is tofulint as a language server: the Language
// Server Protocol (3.16) over a stream, which `tofulint --langserver`
// serves on stdin and stdout. The protocol's types are those of
// github.com/tliron/glsp and its JSON-RPC transport is
// github.com/sourcegraph/jsonrpc2.
//
// The server handles:
//
//   - initialize, initialized (where the client can, it registers file
//     watchers for the module and configuration files), shutdown, exit;
//   - textDocument/didOpen, didChange (full and incremental
//     synchronization; positions in UTF-16 code units), didSave, didClose;
//   - workspace/didChangeWatchedFiles: a changed module file relints its
//     module, a changed .tofulint.hcl or .tflint.hcl every open module
//     below it;
//   - textDocument/codeAction: for each diagnostic in the range, its fix
//     (preferred) and an "ignore" quick fix that inserts a
//     "# tofulint-ignore: RULE" comment above the line;
//
// and sends textDocument/publishDiagnostics for every file of the module
// that holds the changed document, open buffers standing for the files on
// disk: a rule's finding has the rule's name as its code and a link to its
// documentation; loading errors have no code. Only the files whose
// diagnostics changed are published again.
//
// A module is linted by one run at a time. An edit that arrives while a
// run is under way cancels it (the run stops after loading, before the
// rules run) and makes one more run when it ends; the superseded run's
// results are dropped, never published, so a burst of keystrokes costs at
// most two runs.
package langserver
