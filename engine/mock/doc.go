// Package mock is the mock providers that both evaluators (engine/hcl and
// engine/cue) plan and apply against: resource schemas, loaded from
// `tofu providers schema -json` files or inferred from configuration, and
// deterministic values for what a real provider would compute.
//
// # Schemas
//
// LoadSchemas reads the JSON that `tofu providers schema -json` prints
// (format_version 1.x; provider_schemas keyed by provider address, each
// with resource_schemas, data_source_schemas and
// ephemeral_resource_schemas). Attributes keep their type, their
// required/optional/computed/sensitive flags and, for nested attribute
// types, their nested attributes (Attribute.NestedType). Errors name the
// file, with the line and column of the offending JSON value. When two
// providers describe the same type, the first one read wins, with a
// warning.
//
// Block.DecoderSpec decodes a resource body (after dynblock.Expand) as
// OpenTofu's configschema does, so that the problems a provider's schema
// would reveal are diagnostics with source ranges: "Unsupported argument"
// and "Unsupported block type", "Missing required argument", "Incorrect
// attribute value type", too few or too many blocks, and "Value for
// unconfigurable attribute" for a computed-only attribute that is set.
// Nested list blocks with dynamically typed contents decode as tuples and
// map blocks with such contents as objects; an absent group block is its
// empty value.
//
// # Inferred schemas
//
// Schemas.Infer gives every resource type that the modules declare (per
// mode: resource, data, ephemeral, and the data sources of check blocks)
// and no schema file describes a schema built from the configuration:
//
//   - Every argument set anywhere in a block of the type, across all the
//     modules given (including override files, the "_" escape block and
//     nested blocks), is an Optional attribute of type
//     cty.DynamicPseudoType: its value is kept as written. An argument
//     that every block sets from a variable (var.name and nothing more)
//     whose type constraints are one type, known in full, is of that
//     type (without its optional attribute markers): the value generated
//     for it where the variable is null is then of the variable's type
//     (a list for list(string)), as a provider's would be.
//   - Every nested block is a NestingList block type whose schema is
//     inferred the same way; `dynamic "x" { content {...} }` makes x a
//     nested block with content's arguments. A block written with labels
//     (or a dynamic block with labels) is a NestingMap block instead. In
//     JSON files a property is a nested block only when native syntax
//     uses it as one; otherwise it is an argument.
//   - An attribute that is referenced but never set is Computed; one that
//     is set and also referenced is Optional and Computed (left null, as
//     most such provider attributes, the provider chooses it). The
//     references (read as the refs package reads them) are aws_x.y.attr,
//     aws_x.y[0].attr, aws_x.y["k"].attr, self.attr in the resource's own
//     provisioners, connection and conditions, and also splats
//     (aws_x.y[*].attr), the element variable of a for expression over a
//     resource or an attribute, and the iterator of a dynamic block whose
//     for_each is one. A reference through a nested block
//     (aws_x.y.ebs[0].volume_id) makes the attribute computed in that
//     block. A local value, a called module's output or a variable of a
//     called module (with InferTree: what each call gives it) whose
//     value is a resource or a reference into one reaches it too:
//     local.vpc.arn with local.vpc = aws_vpc.v, or the attributes of
//     module.subnets.subnets where the module outputs its subnetworks
//     whole. A value that may be one of several reaches each: the
//     branches of a conditional, the arguments of try and coalesce, the
//     elements of merge's and concat's arguments; so do x[*] and
//     {for v in x : k => v}, which keep x's elements, and distinct,
//     tolist, toset, tomap, sort, reverse and slice of x. An element of
//     a for expression's result reaches what its value reaches ([for v
//     in x : merge(v, {...})][0].name), and an element of an object or
//     tuple constructor what the value its constant key or index names
//     reaches (any of them for another key). Other calls reach nothing.
//   - The type of a computed attribute follows from its uses: a further
//     [number] step, a splat, or iteration by for makes it a list of the
//     type the next steps call for; an attribute step makes it an object
//     with those attributes (with any ["string"] keys also as attributes);
//     ["string"] steps alone make it a map. With no further step it is a
//     list when a function takes it as one (concat, element, contains,
//     flatten, toset, tolist, distinct, compact, sort, reverse, slice,
//     index, chunklist, one, sum, zipmap, coalescelist, the set
//     functions, join's lists), a map when one takes it as a map (keys,
//     values, lookup, tomap, transpose, merge) or it is for_each's value,
//     a number when arithmetic, a comparison, count or a numeric function
//     (min, max, abs, ceil, floor, signum, pow, log, range, tonumber)
//     takes it, a bool when a condition, !, && or || (or tobool, or an
//     argument named enabled or condition) does, and a string otherwise.
//   - id is always a Computed string of managed resources and data
//     sources; where configuration sets id it is Optional and Computed.
//   - A name set as an argument in one place and as a block in another is
//     a block.
//
// Inference is per type, not per resource: an attribute set in one block
// of a type is an argument in all of them (null where not set).
//
// # Generated values
//
// Value(addr, path, ty) is the value generated for the attribute at path
// (for example .ebs[0].volume_id) of the instance addr. It is a pure
// function of its arguments. Let H be the SHA-256 of addr, a zero byte and
// PathString(path), and NAME the last attribute name of the path in lower
// case ("value" if there is none):
//
//   - string: NAME-HEX, where HEX is the first 4 bytes of H in hex
//     ("id-3fa2c1d0", "vpc_id-09be11aa"); except for these names (alone or
//     after an underscore, as in assume_role_policy): json, policy: "{}";
//     anything with cidr:
//     "10.H4.0.0/16" (with ipv6: "fd00:H4H5::/64"); ip, ip_address,
//     ipv4_address: "10.H4.H5.(1+H6 mod 254)"; arn:
//     "arn:aws:mock:us-east-1:123456789012:NAME/HEX"; url:
//     "https://HEX.example.com/"; dns_name, fqdn, hostname, domain_name:
//     "HEX.example.com". (Hn is byte n of H.)
//   - number: 1 + (bytes 8 to 15 of H, big-endian) mod 9, a whole number
//     from 1 to 9.
//   - bool: true when byte 16 of H is odd.
//   - list and set: one element, generated at [0]; map: one element with
//     the key "key"; object: every attribute, at .attr; tuple: every
//     element, at [i].
//   - dynamic (cty.DynamicPseudoType): as a string.
//
// For inferred computed attributes the uses shape the value further: a
// list has as many elements as its highest index used needs (at least
// one), a map has exactly the keys used (or "key" when none is used), and
// a string taken by cidrsubnet, cidrsubnets, cidrhost or cidrnetmask is a
// CIDR as above, by jsondecode or yamldecode "{}", by base64decode
// "bW9jaw==", by timeadd or formatdate "2024-01-01T00:00:00Z". The uses of
// an inferred argument shape the value generated for it in the same way
// when its configuration is still unknown at apply.
//
// PathString writes paths as the language does: .name, [0], ["key"];
// elements of sets and of nested block collections are at [i] in
// iteration order, those of maps and map blocks at ["key"].
//
// # Mocks files
//
// LoadMocks reads files in OpenTofu's test syntax (HCL, or JSON when the
// name ends in .json):
//
//	mock_provider "aws" {
//	  alias           = "west"   # optional; for_each is accepted only with alias
//	  override_during = plan     # optional, plan or apply (default apply)
//	  mock_resource "aws_s3_bucket" {
//	    defaults        = { arn = "arn:aws:s3:::b" }
//	    override_during = plan   # optional, default: the provider's
//	  }
//	  mock_data "aws_caller_identity" { defaults = { account_id = "123" } }
//	  override_resource { target = aws_s3_bucket.logs, values = {...} }
//	  override_data     { target = data.aws_ami.ubuntu, values = {...} }
//	}
//	override_resource { target = module.net.aws_subnet.a["x"], values = {...}, override_during = plan }
//	override_data     { target = data.aws_ami.ubuntu[*], values = {...} }
//	override_module   { target = module.dns, outputs = {...} }
//
// mock_resource and mock_data set values for every instance of a type
// whose provider configuration is the mock provider's (Request.Provider
// "aws" for mock_provider "aws", "aws.west" with alias "west").
// override_resource and override_data set values for the instances their
// target matches: a target without an instance key (or with [*]) matches
// every instance, one with a key only that instance; module steps match
// likewise. Inside a mock_provider they apply to its resources only; at
// the top level, to every provider's. When several match, the one naming
// more instance keys wins, then a top-level one over a mock_provider's.
// override_module gives a module call's outputs (Mocks.ModuleOverride).
// run, variables and provider blocks, so that a whole .tftest.hcl file can
// be given, are ignored with a warning; any other block or argument is an
// error at its range, as are duplicate blocks, targets that are not
// addresses of the right kind, and values that are not constant objects.
//
// As in OpenTofu, mock values apply only to computed attributes that the
// configuration leaves null; a value for anything else, or one that does
// not convert to the attribute's type, is ignored with a warning (once per
// provider) at the values argument. Values for a nested block are an
// object applied to every block of that type.
//
// # Plan, apply and read
//
// Plan returns the planned state of a resource being created: the
// configuration as given, each computed attribute it leaves null unknown
// (at every nesting level, including inside nested attribute types).
// Apply replaces every unknown: a computed attribute left null takes the
// value of the override for the instance, else the mock_resource defaults
// of its type, else the generated value; a configuration value that was
// unknown at plan takes the value in Request.Config when the caller passes
// the configuration evaluated at apply, a generated value otherwise (and
// nested blocks whose dynamic for_each was never known are one generated
// block, at [0]). Read
// (data sources and ephemeral resources) fills computed attributes the
// same way, from override_data, mock_data and generated values, when the
// configuration is wholly known, and leaves them unknown otherwise.
//
// OpenTofu's own mock providers compute every value during plan. Here the
// default is the plan a real provider gives: computed values are unknown
// until apply, so that planned values show what depends on them. An
// override or mock defaults with override_during = plan (directly, or
// from their mock_provider) makes Plan use the values Apply would, for
// the instances they apply to.
//
// The built-in terraform_data resource is planned and applied as
// OpenTofu's own provider (BuiltinProvider) does, whatever the mocks say:
// its schema is input and triggers_replace (optional, of any type) and
// output and id (computed), unless a schema file describes it. Plan leaves
// output null where input is null and unknown (of input's type)
// otherwise, and id unknown; Apply makes output input and id a UUID made
// from the instance's address, the same in every run.
//
// Request.Config is a value of Block.ImpliedType(); attributes it leaves
// out are taken as null, and a value that does not convert to the type is
// an error.
//
// Sensitive attributes are not marked here: the caller marks them from the
// schema (Attribute.Sensitive). Marks on the configuration are kept where
// its values are kept. Diagnostics about a request have no subject except
// those that point into a mocks file; the caller knows the resource block.
package mock
