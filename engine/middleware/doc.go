// Package middleware runs the middleware of the OpenTofu middleware RFC
// (seeds/rfc-middleware.txt): external programs, in any language, that
// the planner calls at plan and apply over JSON-RPC 2.0 on their standard
// input and output. A middleware can fail an operation and return
// metadata; it cannot change anything.
//
// # Configuration
//
// A module declares middleware in middleware blocks and attaches them in
// the terraform block (project level) and in provider blocks:
//
//	middleware "cost_estimator" {
//	  metadata_key   = "cost"
//	  command        = "python3"
//	  args           = ["cost_estimator.py"]
//	  env            = { API_KEY = var.cost_api_key }
//	  send_sensitive = false
//	}
//	terraform { middleware = [middleware.naming] }
//	provider "aws" { middleware = [middleware.cost_estimator] }
//
// [FromModule] reads them into a [Spec]; command, args and env are
// evaluated in the planner's evaluation context (Options.EvalContext).
// Only the middleware blocks of the root module count. A missing
// metadata_key defaults to the middleware's name (the linter's
// middleware_block rule reports it).
//
// Nothing runs unless the user asks: [Start] starts processes only with
// Options.Enabled (--middleware) or Options.Only (--middleware-only
// NAME). Otherwise it evaluates nothing, and [Chain.Note] tells the plan
// which middleware was declared and not run. A declared middleware that
// no list attaches is never started.
//
// # Process lifecycle
//
// Each selected middleware is started once per command, all at once, in
// the module's directory, with the tool's environment plus env and
// TOFUCUE_MIDDLEWARE_RUN set to a value of its own, in a process group of
// its own. Its stderr is passed through to Options.Stderr, each line
// prefixed with "[NAME] "; it is read to its end whatever the length of a
// line, and a line longer than 64 KiB is shown cut, with the number of
// bytes left out. The processes live until [Chain.Close], which closes
// each one's standard input (the signal to exit, as for MCP's stdio
// servers; the RFC defines no shutdown message), waits
// Options.ShutdownGrace, sends SIGTERM, waits again, sends SIGKILL, and
// finally kills whatever else is left in the process group, so that
// nothing the middleware started outlives the command. On Linux it also
// kills what the middleware started outside its group (with setsid, say):
// the tool is the child subreaper of everything it starts, so such a
// process, once its parent exits, becomes the tool's child; Close kills
// and reaps every child of the tool that is not a running middleware nor
// in the tool's own process group, and every process whose environment
// holds the middleware's
// TOFUCUE_MIDDLEWARE_RUN value. Elsewhere, and for a process that both
// clears its environment and keeps its parent alive past the middleware,
// only the process group is killed. When the context given to Start ends
// (an interrupt), the chain closes itself with a grace of 100 ms instead,
// and a command that package interrupt must end before that is done kills
// every middleware's group and what it started first.
// The chain closes itself in the same way when the context given to
// Start ends (an interrupt). Close reaps every process before it
// returns.
//
// # Messages
//
// Every message is one JSON object on one line (newline-delimited JSON,
// as MCP's stdio transport); blank lines are skipped. The tool sends
// requests with integer ids counting from 1. The first is initialize:
//
//	→ {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"version":"1.0","name":"cost_estimator"}}
//	← {"jsonrpc":"2.0","id":1,"result":{"capabilities":["pre-plan","post-plan"],"concurrent":false}}
//
// capabilities (required) lists the hooks the middleware handles; a hook
// it does not list is never sent to it; a name that is no hook gets a
// warning and is ignored. concurrent (an extension, default false) says
// it may be sent several requests before answering; it then answers each
// by its id, in any order. Otherwise the tool sends one request at a time
// to it. An optional version in the result must have the major version 1.
//
// Resource-level hooks are pre-plan, post-plan, pre-apply, post-apply,
// pre-refresh and post-refresh ([Chain.ResourceHook]):
//
//	→ {"jsonrpc":"2.0","id":2,"method":"post-plan","params":{
//	     "provider":"registry.opentofu.org/hashicorp/aws",
//	     "resource_type":"aws_instance","resource_name":"web",
//	     "resource_mode":"managed","resource_address":"aws_instance.web",
//	     "planned_action":"Create",
//	     "before":null,"after":{...},"config":{...},
//	     "after_sensitive":{"user_data":true},"after_unknown":{"id":true}}}
//
// resource_mode is managed, data or ephemeral; planned_action is the
// RFC's word (Create, Read, NoOp, Update, Delete); post-apply adds
// applied_action. Values are in the JSON form of `tofu show -json`:
// unknown values are null, and before_unknown, after_unknown and
// config_unknown mark them; before_sensitive, after_sensitive and
// config_sensitive mark the sensitive parts. Each companion is present
// only when something is unknown or sensitive.
//
// Operation-level hooks are plan-stage-start, plan-stage-complete,
// apply-stage-start and apply-stage-complete (and the RFC's
// init-stage-start and init-stage-complete, which the planner has no use
// for) ([Chain.StageHook]); their params are what the caller gives.
//
// Every hook is answered with
//
//	← {"jsonrpc":"2.0","id":2,"result":{"status":"success","message":"...","metadata":{...}}}
//
// status is "success" (or "pass", as the RFC's SDK example writes) or
// "fail"; message and metadata are optional; metadata must be an object.
// A JSON-RPC error answer is an error of the middleware. Notifications
// that a middleware sends are ignored; a request that it sends is
// answered with error -32601.
//
// # Order, failures and metadata
//
// A resource hook goes to the project-level middleware first, then to
// those of the resource's provider configuration, each in list order; a
// middleware attached twice runs twice. A stage hook goes to every
// running middleware once, project first, then by provider key. In
// pre-hooks (pre-* and *-start) the first fail stops the chain; in
// post-hooks every middleware runs. Each fail is an error diagnostic
// whose summary names the middleware and the hook and whose detail is
// the middleware's message (prefixed with the resource address); the
// caller turns it into a failed operation and a non-zero exit.
//
// Metadata is returned keyed by metadata_key; a later middleware with the
// same key overwrites an earlier one. The record is the middleware's
// metadata object with these fields set by the tool: middleware, action
// (the hook), resource (type, name, provider, mode, address),
// planned_action or applied_action, and message when there is one. A
// middleware's own field of one of these names is replaced, with a
// warning. The caller stores the records under __middleware_metadata__
// in the plan and the applied state.
//
// # Sensitive values
//
// Unless a middleware has send_sensitive = true, every sensitive part of
// before, after and config is replaced by the string [Redacted],
// "(sensitive value)". Sensitivity is the union over the three values:
// a part that is sensitive in after but not in before (it became
// sensitive) is redacted in before too, and so is one that is sensitive
// only in the configuration. A middleware with send_sensitive gets the
// real values, with the *_sensitive companions still telling which they
// are.
//
// # Errors
//
// A middleware that cannot be started, exits, writes a line that is not
// a JSON-RPC 2.0 object, answers with an id that no request awaits, or
// does not answer within Options.Timeout (DefaultTimeout, 30s, per
// request) gives an error diagnostic that names it, the hook and the
// resource, and says what happened: an exit quotes the exit status and
// the last lines of the middleware's stderr. Such a middleware is killed
// at once and every later call to it fails immediately with the same
// reason, so that no call waits longer than the timeout. A call whose
// context ends returns at once ("the operation was interrupted"). In a
// pre-hook such an error stops the chain like a fail.
//
// # Concurrency
//
// A Chain's hooks may be called from several goroutines. Requests to a
// middleware that declared concurrent are multiplexed by id; requests to
// one that did not are sent one at a time (waiting for the middleware to
// be free does not count against the timeout).
package middleware
