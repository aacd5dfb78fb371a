package rules

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/internal/corpus"
)

// corpusErrors are the error-level findings that the corpus modules really
// have, each read by hand, as "module: file:line: rule: message", with
// why each is a defect. Every other error-level finding on the corpus is a
// false positive and fails the test; so does one of these going missing.
var corpusErrors = map[string]string{
	"GoogleCloudPlatform__cloud-foundation-fabric/modules/bigquery-dataset: main.tf:112: context_reference: Reference to \"each\" in context without for_each":       "each.value inside a dynamic \"access\" block of a resource without for_each: access.value was meant, as the sibling blocks read it",
	"GoogleCloudPlatform__cloud-foundation-fabric/modules/bigquery-dataset: main.tf:114: context_reference: Reference to \"each\" in context without for_each":       "each.value inside a dynamic \"access\" block of a resource without for_each: access.value was meant, as the sibling blocks read it",
	"GoogleCloudPlatform__cloud-foundation-fabric/modules/bigquery-dataset: main.tf:115: context_reference: Reference to \"each\" in context without for_each":       "each.value inside a dynamic \"access\" block of a resource without for_each: access.value was meant, as the sibling blocks read it",
	"GoogleCloudPlatform__cloud-foundation-fabric/modules/bigquery-dataset: main.tf:125: context_reference: Reference to \"each\" in context without for_each":       "each.value inside a dynamic \"access\" block of a resource without for_each: access.value was meant, as the sibling blocks read it",
	"GoogleCloudPlatform__cloud-foundation-fabric/modules/bigquery-dataset: main.tf:127: context_reference: Reference to \"each\" in context without for_each":       "each.value inside a dynamic \"access\" block of a resource without for_each: access.value was meant, as the sibling blocks read it",
	"GoogleCloudPlatform__cloud-foundation-fabric/modules/bigquery-dataset: main.tf:138: context_reference: Reference to \"each\" in context without for_each":       "each.value inside a dynamic \"access\" block of a resource without for_each: access.value was meant, as the sibling blocks read it",
	"GoogleCloudPlatform__cloud-foundation-fabric/modules/bigquery-dataset: main.tf:140: context_reference: Reference to \"each\" in context without for_each":       "each.value inside a dynamic \"access\" block of a resource without for_each: access.value was meant, as the sibling blocks read it",
	"GoogleCloudPlatform__cloud-foundation-fabric/modules/bigquery-dataset: main.tf:141: context_reference: Reference to \"each\" in context without for_each":       "each.value inside a dynamic \"access\" block of a resource without for_each: access.value was meant, as the sibling blocks read it",
	"GoogleCloudPlatform__cloud-foundation-fabric/modules/ai-applications: chat_agent.tf:68: undefined_reference: Reference to undeclared resource":                  "no google_storage_bucket.bucket in the module; the dynamic block is empty unless an optional input is set, so OpenTofu does not reach it until then",
	"GoogleCloudPlatform__cloud-foundation-fabric/modules/cloudsql-instance: main.tf:362: undefined_reference: Reference to undeclared local value":                  "local.psc_consumer_network is never defined",
	"GoogleCloudPlatform__cloud-foundation-fabric/modules/cloudsql-instance: main.tf:363: undefined_reference: Reference to undeclared local value":                  "local.psc_consumer_service_project_id is never defined",
	"GoogleCloudPlatform__cloud-foundation-fabric/modules/managed-kafka: main.tf:41: undefined_reference: Reference to undeclared input variable":                    "var.rebalance_config, where the iterator rebalance_config.value was meant",
	"GoogleCloudPlatform__cloud-foundation-fabric/modules/net-lb-int/recipe-ilb-next-hop: gateways.tf:57: undefined_reference: Reference to undeclared output value": "module.service-accounts.emails: the called modules/iam-service-account declares email, not emails; the try(..., null) around it hides the error, so the VM silently gets no service account",
}

// TestCorpus runs every rule, also those off by default, over every corpus
// module: it must not crash, and it prints the findings per rule (each
// warning and notice with -v). The corpus modules predate the opt-in
// features, so a finding of the feature rules there would be a false
// positive; error-level findings must be exactly corpusErrors. Template
// directories (corpus.Templates) are not modules and are skipped.
func TestCorpus(t *testing.T) {
	cfg := Config{Rules: map[string]RuleConfig{}, ReportUnusedIgnores: true, Sources: config.NewSources(config.SourceOptions{AllowRead: corpus.AllowRead(t)})}
	on := true
	for _, r := range All() {
		cfg.Rules[r.Name] = RuleConfig{Enabled: &on}
	}
	sel, err := cfg.Select()
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	perRule := map[string]int{}
	found := map[string]bool{}
	modules := 0
	for _, dir := range corpus.ModuleDirs(t) {
		if dir.NotModule != "" || corpus.Templates[dir.Rel] != "" {
			continue
		}
		m, diags := config.Load(dir.Path)
		modules++
		for _, f := range Run(m, diags, sel, cfg) {
			perRule[f.Rule]++
			key := fmt.Sprintf("%s: %s:%d: %s: %s", dir.Rel, filepath.Base(f.Range.Filename), f.Range.Start.Line, f.Rule, f.Message)
			switch {
			case slices.Contains(featureRules, Lookup(f.Rule)):
				t.Errorf("feature rule on a module that predates the features: %s", key)
			case f.Severity == Error:
				if _, known := corpusErrors[key]; !known {
					t.Errorf("error-level finding not known to be a real defect: %s; %s", key, f.Detail)
				}
				found[key] = true
			default:
				t.Logf("%s %s", f.Severity, key)
			}
		}
	}
	for key, why := range corpusErrors {
		if !found[key] {
			t.Errorf("known defect not found: %s (%s)", key, why)
		}
	}
	var counts []string
	for _, r := range All() {
		counts = append(counts, fmt.Sprintf("%s=%d", r.Name, perRule[r.Name]))
	}
	sort.Strings(counts)
	fmt.Printf("rules corpus: %d modules, %d rules, findings %s, in %s\n", modules, len(sel), strings.Join(counts, " "), time.Since(start).Round(time.Millisecond))
}
