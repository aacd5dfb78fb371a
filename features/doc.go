// Package features is the registry of opt-in language features and the rules
// that decide which of them a module has enabled.
//
// It implements the "opt-in reference symbols" RFC. A new language feature
// that brings a top-level block type and a reference prefix of the same name
// (symbols "x" {...} and symbols.x) cannot simply take over that prefix: until
// now any unknown prefix was a managed resource type, so symbols.x had to
// keep meaning resource "symbols" "x" in every module that was written before
// the feature existed. Each module therefore opts in to each feature, and the
// reference parser (package refs) asks whether it has.
//
// A Feature is in one of three states:
//
//   - Experiment: enabled only when the module names it in
//     terraform { experiments = [name] } (or in language { experiments },
//     OpenTofu's own place for experiment keywords).
//   - Selectable: enabled by the presence of at least one block of its type
//     anywhere in the module. Naming it in experiments is a warning that
//     explains the block opt-in; naming it enables nothing.
//   - Removed: not available at all. Naming it is an error that carries the
//     feature's conclusion message.
//
// Language editions are packs of features: language { edition = tofu2024 }
// enables every feature of that edition. The default edition applies to a
// module that does not name one.
//
// Adding a feature is adding one value to the list that Default is built
// from; nothing else in the toolchain needs to change for the loader to
// decode its block, for the reference parser to read its prefix, and for the
// diagnostics to name it.
//
// Resolve turns what a module declares (experiment keywords, its edition,
// its feature blocks) into a Set of enabled features, each with the reasons
// it is enabled, and the diagnostics of the opt-in. The config package calls
// it when it loads a module; Module.ActiveFeatures gives the result.
package features
