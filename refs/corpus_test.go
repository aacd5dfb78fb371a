package refs

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/internal/corpus"
)

// corpusDefects are the reference errors that the corpus modules really
// have, each read by hand, as "module: file:line: summary". They sit in
// dynamic blocks whose for_each is empty unless an optional input is set,
// so OpenTofu does not reach them until someone sets it; or in template
// files that a script renders into a module.
var corpusDefects = map[string]string{
	"GoogleCloudPlatform__cloud-foundation-fabric/modules/ai-applications: chat_agent.tf:68: Reference to undeclared resource": "no google_storage_bucket.bucket in the module",
	"GoogleCloudPlatform__cloud-foundation-fabric/modules/cloudsql-instance: main.tf:362: Reference to undeclared local value": "local.psc_consumer_network is never defined",
	"GoogleCloudPlatform__cloud-foundation-fabric/modules/cloudsql-instance: main.tf:363: Reference to undeclared local value": "local.psc_consumer_service_project_id is never defined",
	"GoogleCloudPlatform__cloud-foundation-fabric/modules/managed-kafka: main.tf:41: Reference to undeclared input variable":   "var.rebalance_config, where the iterator rebalance_config.value was meant",
}

// TestCorpus finds and checks every reference of every corpus module. The
// modules are published and work, so a failure here is a parser or walker
// bug (a dynamic block iterator read as a resource, a for variable read as
// a reference, a missed declaration), apart from the defects listed above,
// which must be found exactly.
func TestCorpus(t *testing.T) {
	start := time.Now()
	modules, uses := 0, 0
	found := map[string]bool{}
	for _, dir := range corpus.ModuleDirs(t) {
		if dir.NotModule != "" || corpus.Templates[dir.Rel] != "" {
			continue
		}
		m, diags := config.Load(dir.Path)
		if diags.HasErrors() {
			t.Fatalf("%s: %s", dir.Rel, diags.Error())
		}
		modules++
		all, _ := InModule(m)
		uses += len(all)
		for _, d := range CheckModule(m) {
			key := fmt.Sprintf("%s: %s:%d: %s", dir.Rel, filepath.Base(d.Subject.Filename), d.Subject.Start.Line, d.Summary)
			if _, known := corpusDefects[key]; !known {
				t.Errorf("%s: %s", dir.Rel, d)
			}
			found[key] = true
		}
	}
	for key, why := range corpusDefects {
		if !found[key] {
			t.Errorf("known defect not found: %s (%s)", key, why)
		}
	}
	fmt.Printf("refs corpus: %d references in %d modules checked in %s; %d known defects found\n", uses, modules, time.Since(start).Round(time.Millisecond), len(found))
}

func corpusModules(b *testing.B) []*config.Module {
	var mods []*config.Module
	for _, dir := range corpus.ModuleDirs(b) {
		if dir.NotModule != "" {
			continue
		}
		m, _ := config.Load(dir.Path)
		mods = append(mods, m)
	}
	return mods
}

// BenchmarkCheckCorpus finds and checks every reference of the corpus's
// loaded modules once per iteration. BenchmarkLoadCorpus is its baseline:
// loading the same modules, which every user of refs does first.
func BenchmarkCheckCorpus(b *testing.B) {
	mods := corpusModules(b)
	b.ResetTimer()
	for b.Loop() {
		for _, m := range mods {
			_ = CheckModule(m)
		}
	}
}

func BenchmarkLoadCorpus(b *testing.B) {
	dirs := corpus.ModuleDirs(b)
	b.ResetTimer()
	for b.Loop() {
		for _, dir := range dirs {
			if dir.NotModule == "" {
				_, _ = config.Load(dir.Path)
			}
		}
	}
}
