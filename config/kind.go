package config

import "github.com/hashicorp/hcl/v2"

// Kind classifies a loader diagnostic that a tofulint rule reports under its
// own name, so that the rule's configuration (disabling it, changing its
// severity, ignore comments) applies to it. The loader stores the Kind in the
// diagnostic's Extra. Diagnostics without a Kind are plain loading errors.
type Kind string

// The kinds of diagnostic that rules claim.
const (
	// KindDefaultType: a variable default that does not conform to the
	// variable's type constraint (rule variable_default_type).
	KindDefaultType Kind = "default_type"
	// KindTypeConstraint: a malformed type constraint, such as optional()
	// outside an object attribute or with a default that does not convert
	// (rule optional_default_type).
	KindTypeConstraint Kind = "type_constraint"
	// KindLegacyType: the bare keyword set, which has no legacy meaning
	// (rule legacy_collection_type).
	KindLegacyType Kind = "legacy_type"
	// KindLossyDefault: a default that loses information when converted,
	// such as an object attribute the type does not declare (rule
	// lossy_default_conversion).
	KindLossyDefault Kind = "lossy_default"
	// KindMiddlewareBlock: a malformed middleware block (rule
	// middleware_block).
	KindMiddlewareBlock Kind = "middleware_block"
	// KindMiddlewareReference: a middleware list element that is not a
	// reference (rule middleware_reference).
	KindMiddlewareReference Kind = "middleware_reference"
)

// KindOf returns the Kind that the loader gave d, if any.
func KindOf(d *hcl.Diagnostic) (Kind, bool) {
	k, ok := d.Extra.(Kind)
	return k, ok
}

// reportKind reports diags, marking with k those that carry no Extra yet.
func (d *decoder) reportKind(k Kind, diags ...*hcl.Diagnostic) {
	for _, diag := range diags {
		if diag.Extra == nil {
			diag.Extra = k
		}
	}
	d.report(diags...)
}
