package rules

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/refs"
)

// staticUses finds the references to input variables and local values
// that refs.InModule does not visit because they are not in ordinary
// expressions: in the backend, cloud and encryption blocks of the terraform
// block (OpenTofu evaluates variables and locals there before it plans) and
// in the instance keys of import targets. Other roots there are not
// references to the module's declarations (an encryption block's
// key_provider.TYPE.NAME names its own blocks), so they are left out.
func staticUses(m *config.Module) []refs.Use {
	var out []refs.Use
	add := func(in string, found []*refs.Reference) {
		for _, r := range found {
			switch r.Subject.(type) {
			case refs.InputVariable, refs.LocalValue:
				out = append(out, refs.Use{Reference: r, In: in})
			}
		}
	}
	t := m.Terraform
	var bodies []hcl.Body
	for _, b := range []*config.Backend{t.Backend, t.Cloud} {
		if b != nil {
			bodies = append(bodies, b.Config)
		}
	}
	if t.Encryption != nil {
		bodies = append(bodies, t.Encryption.Body)
	}
	for _, b := range bodies {
		found, _ := refs.InBody(b, m)
		add("terraform", found)
	}
	for _, im := range m.Imports {
		if im.To != nil {
			found, _ := refs.InExpr(im.To, m)
			add("import", found)
		}
	}
	return out
}

// rangeKey identifies a source range by file and start and end offsets.
type rangeKey struct {
	file       string
	start, end int
}

func keyOf(r hcl.Range) rangeKey { return rangeKey{r.Filename, r.Start.Byte, r.End.Byte} }

// rangeWithin reports whether inner lies inside outer.
func rangeWithin(outer, inner hcl.Range) bool {
	return outer.Filename == inner.Filename && outer.Start.Byte <= inner.Start.Byte && inner.End.Byte <= outer.End.Byte
}
