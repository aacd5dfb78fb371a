package rules

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tofucue/tofucue/config"
)

// ModuleShallowClone is the rule module_shallow_clone.
var ModuleShallowClone = &Rule{
	Name:   "module_shallow_clone",
	TFLint: "terraform_module_shallow_clone",
	Doc: `Reports a module call whose git source names a ref that is not a commit
and does not ask for a shallow clone, as TFLint's
terraform_module_shallow_clone does: with depth=1, tofu init fetches the
one commit it needs instead of the repository's whole history. A ref that
is a commit hash cannot be cloned shallowly and is not reported, nor is a
source without a ref or without a host (a local repository). The fix
inserts depth=1& before ref= in a source written as a plain string. The
rule is off by default.

Bad:

    module "vpc" {
      source = "git::https://example.com/vpc.git?ref=v1.2.0"
    }

Good:

    module "vpc" {
      source = "git::https://example.com/vpc.git?depth=1&ref=v1.2.0"
    }`,
	Severity: Warning,
	Fixes:    true,
	Check: func(p *Pass) {
		for _, mc := range config.InOrder(p.Module.ModuleCalls) {
			if mc.SourceAddr == nil || mc.Source == nil {
				continue
			}
			raw := mc.SourceAddr.Raw
			if repositoryKind(raw) != "git" || gitHost(raw) == "" {
				continue
			}
			query := url.Values{}
			if _, q, ok := strings.Cut(raw, "?"); ok {
				query, _ = url.ParseQuery(q)
			}
			ref := query.Get("ref")
			if ref == "" || commitHash.MatchString(ref) || query.Get("depth") == "1" {
				continue
			}
			f := Finding{
				Message: fmt.Sprintf("Module source %q should enable shallow cloning by adding \"depth=1\" parameter", raw),
				Detail:  "With depth=1, tofu init clones only the commit of the ref instead of the whole history.",
				Range:   mc.Source.Range(),
			}
			f.Fix = shallowCloneFix(p.Module, mc.Source)
			p.Report(f)
		}
	},
}

// commitHash is a ref that is (a prefix of) a commit hash, which git
// cannot fetch shallowly by name.
var commitHash = regexp.MustCompile(`^[a-f0-9]{4,64}$`)

// gitHost returns the host of a git source address, "" for a local
// repository (git::file:///..., git::/path).
func gitHost(raw string) string {
	s := strings.TrimPrefix(raw, "git::")
	if user, rest, ok := strings.Cut(s, "@"); ok && !strings.Contains(user, "/") && !strings.Contains(user, ":") {
		// scp-like: git@host:path
		host, _, _ := strings.Cut(rest, ":")
		host, _, _ = strings.Cut(host, "/")
		return host
	}
	if !strings.Contains(s, "://") {
		// github.com/org/repo, bitbucket.org/org/repo
		host, _, _ := strings.Cut(s, "/")
		return host
	}
	u, err := url.Parse(s)
	if err != nil {
		return ""
	}
	return u.Hostname()
}

// shallowCloneFix inserts "depth=1&" before "ref=" in a source written as
// one literal string in HCL.
func shallowCloneFix(m *config.Module, expr hcl.Expression) *Fix {
	tmpl, ok := expr.(*hclsyntax.TemplateExpr)
	if !ok || len(tmpl.Parts) != 1 {
		return nil
	}
	if _, ok := tmpl.Parts[0].(*hclsyntax.LiteralValueExpr); !ok {
		return nil
	}
	rng := expr.Range()
	f := m.Files[rng.Filename]
	if f == nil {
		return nil
	}
	text := srcText(f.Bytes, rng)
	i := strings.Index(text, "?ref=")
	if i < 0 {
		i = strings.Index(text, "&ref=")
	}
	if i < 0 {
		return nil
	}
	at := rng.Start
	at.Byte += i + 1
	at.Column += i + 1
	return &Fix{Description: `Insert "depth=1&"`, Edits: []Edit{{Range: insertionAt(rng.Filename, at), NewText: "depth=1&"}}}
}
