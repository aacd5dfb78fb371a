// Package inputs turns what a user gives into the values of a module's
// input variables, as OpenTofu does, for both evaluators (HCL and CUE).
// Nothing here depends on how the rest of a module is evaluated: values
// from the command line, the environment and variables files are constant
// expressions, and validation conditions are evaluated with the context the
// caller gives.
//
// # Precedence
//
// [Collect] gathers the root module's values. Later sources override
// earlier ones, whole values at a time (maps and objects are not merged):
//
//  1. the variable's default;
//  2. TF_VAR_name environment variables ([Sources].Environ), in order;
//  3. with [Sources].AutoFiles, terraform.tfvars, then terraform.tfvars.json,
//     then every *.auto.tfvars and *.auto.tfvars.json file of the module
//     directory in lexical order of their names;
//  4. --var and --var-file options in command-line order ([Sources].Args;
//     when Args is nil, every VarFiles entry and then every Vars entry).
//
// Only the winning value of each variable is parsed and converted, so a
// malformed TF_VAR_ value that a --var overrides is no error; a syntax error
// in a variables file is reported whether or not its values win.
//
// # Parsing
//
// A variables file is JSON when its name ends in .json, or when it ends in
// neither .json nor .tfvars and its text starts with "{"; it is HCL
// otherwise. Each top-level attribute defines one variable, evaluated as a
// constant expression (no variables and no functions; in JSON, strings are
// taken literally). A variable block in a variables file is the error
// "Variable declaration in .tfvars file"; any other block is an error too.
//
// A --var value ("name=value", split at the first "=") or TF_VAR_ value is
// taken as a literal string when the variable has no type constraint, a
// primitive one (string, number, bool; conversion then turns "15" into 15
// and "true" into true), or the legacy quoted "string"; for every other
// constraint (any, list, map, set, object, tuple, and the bare list and map
// keywords) it is parsed as an HCL expression, in a pseudo-file named
// "<value for var.NAME>", so that --var 'ids=["a","b"]' and
// TF_VAR_tags='{env = "prod"}' work and a syntax error has a line and a
// column. A --var without "=" or whose name ends in a space is an "Invalid
// --var option" error.
//
// # Undeclared and missing variables
//
// A value for a variable the module does not declare is an error when it
// comes from --var, a warning when it comes from a file (the first two by
// name, then one warning counting the rest), and is ignored when it comes
// from TF_VAR_. A required variable (no default) without a value is the
// error "No value for required variable", unless [Sources].Synthesize is
// set, when it gets [Synthesize]'s value instead (Source "synthesized").
//
// # Conversion
//
// [Prepare] (which Collect uses for every value) converts a value to the
// type constraint as OpenTofu does: first the defaults of optional object
// attributes are applied, top-down, with typeexpr.Defaults.Apply (a null or
// absent optional attribute takes its default, and the default is itself
// completed by the defaults nested in its type), then the value is
// converted with go-cty's convert, which gives the primitive conversions
// (true and "true", 15 and "15"), the structural ones (tuple to list or set,
// object to map or object, extra object attributes dropped, missing
// optional ones null) and the unification of any. One rule of OpenTofu's
// type-constraints document that go-cty's conversion does not implement is
// applied just before it: a list or set given where the type wants a tuple
// becomes a tuple when it has exactly the tuple's number of elements (a set
// in its order: strings lexically). A null value is left alone by the
// defaults; it stays null for a nullable variable, and for a variable with
// nullable = false it becomes the default, or the error "Required variable
// not set" when there is none. A conversion error is
// "Invalid value for input variable", with OpenTofu's detail: the value's
// source (the --var option, the TF_VAR_ variable, or the declaration and
// the range of the file value), and for a sensitive variable a message that
// points at the declaration rather than the value. Unknown values stay
// unknown, of the variable's type. Sensitive variables are not marked
// here: the caller marks them.
//
// # Validation
//
// [Validate] runs the validation blocks as OpenTofu does: an unknown
// condition is skipped, a null one or one that is not a bool is "Invalid
// variable validation result", a false one is "Invalid value for
// variable" with the error_message (trimmed; a message that cannot be
// evaluated in a JSON file is taken literally, with a warning; a sensitive
// one is not shown) and the range of the validation block. The diagnostic's
// subject is the condition.
//
// # Synthesis
//
// [Synthesize] makes a value from the type constraint alone:
//
//   - string: the name of the variable, or of the object attribute that
//     holds it;
//   - number: 1; bool: true;
//   - list and set: one element; map: one element, keyed "example";
//   - object: every required attribute; optional attributes are left out,
//     so that their defaults apply;
//   - tuple: each element;
//   - any: an empty object for a variable declared with type = any, a
//     string for a variable without a type (its command-line values are
//     strings) and inside a collection or structure.
//
// When the variable has validation blocks, that value is the start of a
// search. The conditions give candidates: their string literals (the
// values of contains([...], var.x) among them), strings that match the
// patterns of regex and regexall (generated from the RE2 syntax tree with
// every repetition at its minimum, then one and three more; anchors and
// word boundaries are kept, and a pattern they cannot be kept in gives
// nothing), strings with the prefixes and suffixes of startswith and
// endswith, strings of several parts for split, strings of the
// lengths that the number literals give, their number literals with one
// either side and the midpoints between them, collection lengths around
// them, and a few common shapes (a CIDR block, an address, a timestamp,
// JSON, base64) when a condition calls a function that wants one; then
// general fallbacks. The search changes one thing at a time (a primitive's
// choice, a collection's length, whether an optional attribute is
// present), in a fixed order, primitives before structure, and keeps a
// change only when fewer conditions fail, counting each part of a
// top-level && chain separately (and each part of an && inside
// alltrue([for ...])). When no single change helps it tries each change of
// structure followed by one more change, for rules such as "exactly one of
// these optional attributes, and that one complete". It stops when every
// condition holds or its budget (4000 evaluations) is spent, and returns
// the best value found (which then may not pass [Validate]). Elements added
// to a collection copy the first one with each choice moved on by the
// element's index, so that set elements and map keys stay distinct. Every
// step is deterministic: the same declaration always gets the same value.
//
// # Candidates
//
// A value can meet its validations and still not plan: a null default in a
// template, a string a child module's validation or a precondition
// rejects, a list too short for an index. [Candidates] lists other values
// to try for a variable, for a planner that knows which variables an error
// involves (engine/hcl): the value Synthesize makes when the current one is
// another (a null is followed by a value of the type), then that value with
// one choice changed, as the search above changes them. [Candidates.Hint]
// adds the expressions of the errors: the values they suggest, found as
// the validations' are, come first among each primitive's alternatives, and
// the choices in the parts of the value they name (var.NAME.a.b) before
// the others. [Candidates.Accept] keeps the last value tried, and the
// next candidates change it. No value is listed twice, and none fails
// more validations than the accepted one.
//
// # Differences from OpenTofu
//
//   - Messages name this tool's options, --var and --var-file, where
//     OpenTofu's name -var and -var-file; the undeclared-variable warning
//     does not mention -compact-warnings, which this tool does not have.
//   - The auto-loaded files are read from the module directory (OpenTofu
//     reads them from the working directory, which is the module directory
//     when it plans).
//   - A value that cannot be parsed is reported once; OpenTofu then also
//     reports a required variable as having no value.
//   - Which undeclared file values get the first two warnings is decided by
//     name, not by map order.
//   - The validation error's subject is the condition (OpenTofu points at
//     the module call argument or the variable declaration).
//   - A list or set converts to a tuple of the same length, as the
//     type-constraints document says; OpenTofu's conversion (go-cty's)
//     rejects it with "tuple required".
//   - Errors name the variable var.NAME, also for a child module's
//     variable (OpenTofu writes module.CALL.var.NAME), since Prepare does
//     not know the module's path.
package inputs
