package cli

import (
	"runtime/debug"
)

// Version returns the version of the running binary: the main module's
// version from its build information, "(devel)" when there is none, and the
// VCS revision it was built from when recorded.
func Version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return versionOf(nil)
	}
	return versionOf(info)
}

func versionOf(info *debug.BuildInfo) string {
	const devel = "(devel)"
	if info == nil {
		return devel
	}
	v := info.Main.Version
	if v == "" {
		v = devel
	}
	var revision string
	var modified bool
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			revision = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if revision != "" {
		v += " (revision " + revision
		if modified {
			v += ", modified"
		}
		v += ")"
	}
	return v
}
