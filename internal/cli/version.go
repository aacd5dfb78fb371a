package cli

import (
	"runtime"
	"runtime/debug"
	"strings"
)

// Version returns what the running binary was built from: the main
// module's version from its build information ("devel" when it was built
// from a work tree rather than installed at a version), then in
// parentheses the VCS revision and ", modified" when the build recorded
// them, and for a devel build the Go version, so that it never says a bare
// "(devel)": "v0.3.0", "devel (revision 0123abc, modified, go1.25.1)".
func Version() string {
	info, _ := debug.ReadBuildInfo()
	return versionOf(info, runtime.Version())
}

func versionOf(info *debug.BuildInfo, goVersion string) string {
	v := ""
	var notes []string
	if info != nil {
		v = info.Main.Version
		if info.GoVersion != "" {
			goVersion = info.GoVersion
		}
		revision, modified := "", false
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				revision = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
		if revision != "" {
			notes = append(notes, "revision "+revision)
			if modified {
				notes = append(notes, "modified")
			}
		}
	}
	if v == "" || v == "(devel)" {
		v = "devel"
		notes = append(notes, goVersion)
	}
	if len(notes) == 0 {
		return v
	}
	return v + " (" + strings.Join(notes, ", ") + ")"
}
