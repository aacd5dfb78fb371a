package refs

import "github.com/hashicorp/hcl/v2"

// Context is what a place in a module gives its expressions besides
// declarations: each where its block sets for_each (a resource, a data
// source, a module call, a provider, an import), count.index where its
// block sets count, self in a resource's postconditions, provisioners and
// connection blocks.
type Context struct {
	Each, Count, Self bool
}

// CheckContext reports a reference to each, count or self where its place
// does not give it, as tofu validate does; nil for any other reference.
func CheckContext(u Use) *hcl.Diagnostic {
	given := false
	switch u.Subject.(type) {
	case EachAttr:
		given = u.Context.Each
	case CountAttr:
		given = u.Context.Count
	case Self:
		given = u.Context.Self
	default:
		return nil
	}
	if given {
		return nil
	}
	summary, detail := OutOfContext(u.Subject)
	rng := u.Traversal.SourceRange()
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: &rng}
}

// OutOfContext is OpenTofu's diagnostic for each, count or self used where
// its place does not give it, for every consumer (tofulint, the HCL
// planner, the converter); "" for another subject.
func OutOfContext(s Subject) (summary, detail string) {
	switch s.(type) {
	case EachAttr:
		return `Reference to "each" in context without for_each`, `The "each" object can be used only in "module" or "resource" blocks, and only when the "for_each" argument is set.`
	case CountAttr:
		return `Reference to "count" in non-counted context`, `The "count" object can only be used in "module", "resource", and "data" blocks, and only when the "count" argument is set.`
	case Self:
		return `Invalid "self" reference`, `The "self" object is not available in this context. This object can be used only in resource provisioner, connection, and postcondition blocks.`
	}
	return "", ""
}
