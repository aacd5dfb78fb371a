package cli

import (
	"encoding/json"
	"encoding/xml"
	"testing"

	"github.com/tofucue/tofucue/report"
)

// formatsModule has one finding: a future_symbol_conflict warning with a
// fix, on line 4.
const formatsModule = `resource "symbols" "legacy" {}

output "id" {
  value = symbols.legacy.id
}
`

// TestTofulintFormats runs tofulint with every --format over a module with
// a finding and over a clean one, from their parent directory so that the
// file names are relative, as in CI.
func TestTofulintFormats(t *testing.T) {
	root := writeTree(t, map[string]string{
		"mod/main.tf":   formatsModule,
		"clean/main.tf": "variable \"region\" {\n  type = string\n}\n",
	})
	t.Chdir(root)

	// One rule, so that rules added later do not change the outputs.
	const only = "future_symbol_conflict"
	const message = "symbols.legacy would change meaning with the symbols feature"
	found := map[string][]string{
		report.Text:       {"Warning: " + message + " (future_symbol_conflict)", "on mod/main.tf line 4"},
		report.JSON:       {`"rule": "future_symbol_conflict"`, `"filename": "mod/main.tf"`, `"fixable": true`},
		report.SARIF:      {`"version": "2.1.0"`, `"name": "tofulint"`, `"ruleId": "future_symbol_conflict"`, `"uri": "mod/main.tf"`, `"uriBaseId": "%SRCROOT%"`, `"text": "resource."`, `"version": "` + Version() + `"`},
		report.Checkstyle: {`<file name="mod/main.tf">`, `<error line="4" column="11" severity="warning"`, `source="future_symbol_conflict"`},
		report.JUnit:      {`<testcase name="future_symbol_conflict" classname="mod/main.tf" file="mod/main.tf" line="4"`, `<failure message="mod/main.tf:4:11: ` + message + `" type="warning">`},
		report.Compact:    {"1 issue(s) found:\n\nmod/main.tf:4:11: Warning - " + message + " (future_symbol_conflict)\n"},
		report.GitHub:     {"::warning file=mod/main.tf,line=4,col=11,endLine=4,endColumn=25,title=future_symbol_conflict::" + message + "%0A%0A"},
	}
	clean := map[string][]string{
		report.JSON:       {`"issues": []`},
		report.SARIF:      {`"results": []`},
		report.Checkstyle: {`<file name="clean/main.tf"></file>`},
		report.JUnit:      {`<testsuite name="clean" tests="1" failures="0" errors="0" time="0">`, `<testcase name="tofulint" classname="clean" time="0"></testcase>`},
	}
	var cases []cliCase
	for _, format := range report.Formats {
		if found[format] == nil {
			t.Errorf("format %s is not tested", format)
		}
		cases = append(cases,
			cliCase{name: format + " finding", args: []string{"--only", only, "--format", format, "mod"}, code: ExitFindings, stdout: found[format]},
			// A clean run prints a document in the formats that need
			// one, and nothing in the others (runCases checks).
			cliCase{name: format + " clean", args: []string{"--only", only, "--format", format, "clean"}, code: ExitOK, stdout: clean[format]},
		)
	}
	runCases(t, tofulint, cases)

	// The documents parse.
	for _, format := range []string{report.SARIF, report.Checkstyle, report.JUnit} {
		for _, dir := range []string{"mod", "clean"} {
			_, stdout, _ := run(t, tofulint, "--only", only, "--format", format, dir)
			var err error
			if format == report.SARIF {
				var v any
				err = json.Unmarshal([]byte(stdout), &v)
			} else {
				var v struct{}
				err = xml.Unmarshal([]byte(stdout), &v)
			}
			if err != nil {
				t.Errorf("%s of %s does not parse: %v\n%s", format, dir, err, stdout)
			}
		}
	}
}
