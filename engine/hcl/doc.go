// Package hcl plans an OpenTofu module written in HCL as `tofu plan` and
// `tofu apply` would, against mock providers (engine/mock), and returns the
// result as a [plan.Plan].
//
// # What is evaluated
//
// [Load] reads the root module and every module it calls through a local
// source path; [Plan] then evaluates the tree twice. The first pass plans:
// each managed resource instance gets the mock provider's planned value,
// unknown wherever it depends on a computed attribute. The second pass
// applies: the same evaluation, with each instance's unknowns filled in by
// the mock provider, so that outputs come out concrete. Both passes are
// deterministic; so is the whole plan.
//
// Within a module instance every object (local value, resource, data
// source, ephemeral resource, module call, output, check) is evaluated
// once, on first use, after every object its expressions refer to (the
// references are read with refs/, as the linter reads them, opt-in
// reference symbols and the resource. prefix included). This visits the
// objects in dependency order; an object reached again while it is being
// evaluated closes a cycle, reported as "Cycle: a, b, ..." naming each
// object. Objects nobody refers to are evaluated in source order.
//
// A module call is one object: all its arguments are evaluated before the
// child module, and its value is the object of the child's outputs. A
// child output that depends on nothing the call passes in is therefore
// still evaluated after the call's arguments (a call that feeds one of its
// own outputs back into an argument is reported as a cycle, where OpenTofu,
// which plans each variable and output on its own, would accept it).
//
// # Rules it follows
//
//   - Before anything is evaluated, every reference in every module of the
//     tree is checked as tofu validate checks it (refs.CheckModule): a
//     reference to an undeclared variable, local, resource or module call is
//     an error even in a module called with count = 0, a resource that has
//     no instances or a dynamic block with no elements.
//   - Input variables come from engine/inputs: defaults, TF_VAR_, tfvars
//     files and --var, converted to their type constraints with optional
//     attribute defaults; sensitive ones are marked; validations run with
//     only the variable in scope. A module call's arguments are prepared the
//     same way for the child; an unexpected argument or a missing required
//     one is an error.
//   - count, for_each and lifecycle { enabled } give instances keyed by
//     index or key, with OpenTofu's messages for values that are unknown,
//     null, sensitive (for_each) or of the wrong type. A counted object is a
//     tuple of its instances, a for_each one an object by key, a disabled
//     one null.
//   - A resource body is expanded (hcl ext/dynblock) and decoded with the
//     schema of its type (hcldec); unsupported or missing arguments are the
//     errors a provider would give when the schema came from a file.
//     Attributes the schema marks sensitive are marked.
//   - Data sources are read while planning when their configuration is
//     wholly known and they (or their module call) have no depends_on on
//     anything but data sources; otherwise they are read during apply and
//     the plan shows a "read" change. Ephemeral resources are opened in
//     both passes and never appear in the plan.
//   - Preconditions, postconditions (with self) and variable validations
//     are errors when false; check block assertions are warnings; a
//     condition that is not yet known is skipped.
//   - A root output whose value is sensitive must be declared sensitive.
//   - Nothing is ever run. Provisioner blocks (with their connection
//     blocks) are evaluated after apply, with self the applied value, as
//     OpenTofu evaluates them when it runs them, and recorded in
//     plan.Instance.Provisioners for verify; the lifecycle arguments that
//     only matter for updates are not evaluated.
//   - Module calls find their modules through config.Sources: local
//     paths, the modules tofu init installed, --module-source mappings.
//     The planner never downloads anything: a call whose module is not
//     available is a warning, its outputs are unknown of dynamic type (as
//     TFLint's --call-module-type=local takes them), its resources are
//     absent and Plan.NotPlanned lists it (an error with
//     --strict-modules).
//   - Functions are OpenTofu's, from functions/: relative paths are resolved
//     against the root module's directory, the file functions read only
//     inside the directory that holds the whole module tree, path.module is
//     relative to the root module's directory, path.cwd is that directory,
//     terraform.workspace is "default". timestamp, uuid and bcrypt are
//     unknown in both passes (their values do not follow from the module):
//     an output of one stays unknown after apply, while a resource
//     attribute set from one is given a generated value at apply, as a
//     computed attribute is. plantimestamp is Options.Now, by default a
//     fixed [plan.DefaultNow]. Every function, where it comes from and its
//     status at plan time, is listed in the doc of package functions
//     (`go doc ./functions`).
//   - A plan makes at most Options.MaxInstances (by default
//     [MaxInstances]) resource and module instances.
//
// # Middleware
//
// With Options.Middleware enabled, the root module's middleware is
// started once the inputs are known (engine/middleware) and stopped
// before Plan returns. Each pass calls the stage hooks around it
// (plan-stage-start and -complete, apply-stage-start and -complete, the
// -complete ones with the number of instances); each managed and data
// instance gets pre-plan (with its configuration) and post-plan (with its
// planned value) while planning, and pre-apply (planned) and post-apply
// (applied) while applying. A failed hook is an error of the plan. The
// metadata returned is kept on the instance by metadata_key, the apply
// hooks' over the plan's; the stage hooks' on the plan.
//
// The result holds every planned and applied instance with its provider
// address, the root outputs and the input values (marking those that
// were synthesized).
//
// With Options.Inputs.Synthesize, a plan that fails because of a value made
// up is planned again with other values, at most MaxSynthesisPlans more
// times: each error is blamed on the root variables its expression reaches
// through locals, module calls and resource arguments, and those that were
// synthesized, or have a default that stands for none (null, "", or one
// that fails their own validations), take their next candidate
// (inputs.Candidates) until the error goes away. The chosen values are the
// plan's synthesized inputs, with a note; when none plan, a warning says
// so (planSynthesized). Errors do not stop the first pass, so that one run
// reports every problem; the apply pass runs only when planning succeeded.
package hcl
