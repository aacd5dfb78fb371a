package golden_test

import (
	"bufio"
	"bytes"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/tofucue/tofucue/config"
	"github.com/tofucue/tofucue/golden"
	"github.com/tofucue/tofucue/report"
	"github.com/tofucue/tofucue/rules"
)

// reportVersion is the tofulint version that the cases' reports record.
const reportVersion = "(devel)"

// TestReport lints the modules of each case in report/ and writes the
// report in every output format: want/text, want/json, want/sarif, ...
//
// A case's modules are its directories that hold configuration files,
// linted in name order as tofulint DIR/... would, from the case's
// directory so that file names are relative. Its rules.txt names the rules
// that run, one per line, each optionally followed by the severity that
// the configuration gives it ("future_symbol_conflict notice"); unused
// ignore comments are reported.
func TestReport(t *testing.T) {
	golden.Run(t, "report", func(t *testing.T, c *golden.Case) map[string]string {
		cfg := reportConfig(t, c)
		dir := c.Materialize(t)
		out := map[string]string{}
		// In a subtest of its own, so that the working directory is back
		// when Run writes the archive.
		t.Run("lint", func(t *testing.T) {
			t.Chdir(dir)
			rep := lintModules(t, cfg)
			for _, format := range report.Formats {
				var buf bytes.Buffer
				if err := report.Write(&buf, format, rep); err != nil {
					t.Fatalf("%s: %v", format, err)
				}
				out[format] = buf.String()
			}
		})
		return out
	})
}

// reportConfig reads the case's rules.txt.
func reportConfig(t *testing.T, c *golden.Case) rules.Config {
	t.Helper()
	src, ok := c.Input("rules.txt")
	if !ok {
		t.Fatalf("%s: no rules.txt", c.Path)
	}
	cfg := rules.Config{Rules: map[string]rules.RuleConfig{}, ReportUnusedIgnores: true}
	sc := bufio.NewScanner(strings.NewReader(src))
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		cfg.Only = append(cfg.Only, fields[0])
		if len(fields) > 1 {
			sev, err := rules.ParseSeverity(fields[1])
			if err != nil {
				t.Fatalf("%s: rules.txt: %v", c.Path, err)
			}
			cfg.Rules[fields[0]] = rules.RuleConfig{Severity: &sev}
		}
	}
	return cfg
}

// lintModules lints every module directory below the working directory,
// the way the tofulint command does, and returns the report.
func lintModules(t *testing.T, cfg rules.Config) *report.Report {
	t.Helper()
	selected, err := cfg.Select()
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	err = filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && isConfigFile(path) {
			dirs = append(dirs, filepath.Dir(path))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(dirs)
	dirs = slices.Compact(dirs)

	rep := &report.Report{Files: map[string]*hcl.File{}, Version: reportVersion}
	for _, s := range selected {
		rep.Rules = append(rep.Rules, s.Rule)
	}
	for _, dir := range dirs {
		mod, diags := config.Load(dir)
		own := rules.LoadErrors(diags)
		if mod != nil && !own.HasErrors() {
			rep.Findings = append(rep.Findings, rules.Run(mod, diags, selected, cfg)...)
		}
		report.SortDiagnostics(own)
		rep.Diagnostics = append(rep.Diagnostics, own...)
		if mod != nil {
			for name, f := range mod.Files {
				rep.Files[name] = f
			}
		}
	}
	return rep
}

func isConfigFile(path string) bool {
	for _, ext := range []string{".tf", ".tofu", ".tf.json", ".tofu.json"} {
		if strings.HasSuffix(path, ext) {
			return true
		}
	}
	return false
}
