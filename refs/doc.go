// Package refs reads traversals as references: var.name, aws_instance.web[0],
// module.net.vpc_id, symbols.serverless.value, and every other root the
// language has. It implements the reference parsing of the opt-in reference
// symbols RFC.
//
// Parse needs a ParseRefContext: which features the module has enabled and
// which managed resource types and names it declares. A loaded
// *config.Module is one. A prefix that is the symbol of an opt-in feature
// (symbols., middleware., interface.) reads as the feature's symbol in a
// module that has opted in to it, and everywhere in that module alike. In a
// module that has not opted in, it reads as a managed resource type when the
// module declares a resource of that type, with today's rules; otherwise it
// reads as the feature's symbol, so that the error names what the author
// most likely meant. resource.TYPE.NAME always reads as a managed resource.
//
// Check reports a reference to something the module does not declare, in
// OpenTofu's words, and for a missing feature block in the RFC's:
//
//	Error: Reference to undefined symbol library
//
//	There is no symbols block named "anything_except_serverless" defined in this module.
//
//	Did you intend to refer to resource "symbols" "anything_except_serverless"? If so,
//	use the "resource." prefix:
//	    resource.symbols.anything_except_serverless.some_value
//
// The hint, with an Edit that adds the prefix, appears only when the module
// declares that resource.
//
// InExpr, InBody and InModule find the references in an expression, a body
// (with dynamic block iterators bound) and a whole module; CheckModule
// checks all of a module's references at once.
package refs
