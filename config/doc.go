// Package config loads an OpenTofu module directory into a [Module]: the one
// loader that the linter, the converter and the evaluators share.
//
// A module is the set of configuration files directly inside one directory:
// files ending in .tf, .tf.json, .tofu and .tofu.json. A .tofu (or .tofu.json)
// file hides the .tf (or .tf.json) file of the same base name. Files named
// override.tf or *_override.tf (in any of the four suffixes) are override
// files: they are decoded with relaxed schemas and merged into the primary
// declarations after all primary files are read, in lexical order, the way
// OpenTofu merges them. Sub-directories and hidden or editor backup files are
// not part of the module.
//
// Every block type of the current OpenTofu language is decoded, with its
// source ranges kept: terraform, language, variable, locals, output,
// resource, data, ephemeral, module, provider, moved, import, removed, check,
// and the middleware block of the middleware RFC. Bodies that belong to a
// provider or a child module (resource arguments, module inputs, backend
// settings) are kept as [hcl.Body] values for later stages to decode against
// a schema they know.
//
// Every user mistake is reported as an [hcl.Diagnostic] with a summary, a
// detail and a subject range. Where OpenTofu reports the same mistake, the
// summary is OpenTofu's, so that a user sees the words they already know.
// Loading never stops at the first error: a module with errors still yields
// every declaration that could be decoded.
package config

// LanguageVersion is the OpenTofu version whose language this loader
// implements. Version constraints in language { compatible_with { ... } }
// and in terraform { required_version } of .tofu files are checked against it.
const LanguageVersion = "1.12.0"

// FirstEdition is the only language edition that OpenTofu currently knows.
const FirstEdition = "tofu2024"
