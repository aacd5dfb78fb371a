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
//
// Walk and WalkBody walk native syntax with the Scope in force at each
// expression: the names that for expressions and dynamic blocks bind, and
// the context objects (each, count, self) of the declaration. A Scope
// resolves a traversal either to a Binding, which names the collection it
// ranges over, or to a Reference, so that every interpreter of
// expressions (the reference finder, the mock's schema inference, the
// rules that follow a value) scopes names alike:
//
//	refs.Walk(expr, refs.NewScope(refs.Context{Each: true}, forEach), func(e hcl.Expression, s *refs.Scope) bool {
//		st, ok := e.(*hclsyntax.ScopeTraversalExpr)
//		if !ok {
//			return true
//		}
//		root, _ := s.Resolve(st.Traversal, module)
//		switch {
//		case root.Binding != nil:
//			// x.id in [for x in aws_subnet.a : x.id]: an element of
//			// root.Binding.Over, then root.Rest.
//		case root.Reference != nil:
//			// aws_subnet.a, or each.value: an element of s.ForEach().
//		}
//		return true
//	})
//
// An interpreter that evaluates bottom-up, in an order of its own, scopes
// its recursion with Scope.For and Scope.Dynamic instead, and keeps what it
// knows of each collection expression to follow a binding's Over to it.
package refs
