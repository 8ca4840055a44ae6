package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/urfave/cli/v2"
)

// buildVersion is what this binary knows of its own version, read from the
// build information the Go toolchain embeds: the main module's version
// (v0.3.1 after `go install …@v0.3.1`; a tag or a pseudo-version when built
// with `go build` in a git checkout; "(devel)" without either) and, when
// built in a checkout, the commit, its time and whether the tree had
// uncommitted changes. No constant in the source says it.
type buildVersion struct {
	Version   string `json:"version"`
	Revision  string `json:"revision,omitempty"`
	Time      string `json:"time,omitempty"`
	Modified  bool   `json:"modified,omitempty"`
	GoVersion string `json:"go"`
	Platform  string `json:"platform"`
}

// develVersion is the main module's version when the toolchain knows none.
const develVersion = "(devel)"

// versionFrom reads a buildVersion out of info (nil when the binary has
// none, as with some build systems).
func versionFrom(info *debug.BuildInfo) buildVersion {
	v := buildVersion{Version: develVersion, GoVersion: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if info == nil {
		return v
	}
	if info.GoVersion != "" {
		v.GoVersion = info.GoVersion
	}
	if mv := info.Main.Version; mv != "" {
		v.Version = mv
	}
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Revision = s.Value
		case "vcs.time":
			v.Time = s.Value
		case "vcs.modified":
			v.Modified = s.Value == "true"
		}
	}
	return v
}

// currentVersion is this binary's buildVersion.
func currentVersion() buildVersion {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		info = nil
	}
	return versionFrom(info)
}

// String is the one-line form --version prints: the version, then the
// commit (12 hex digits), its time and "modified" when known.
func (v buildVersion) String() string {
	var extra []string
	if v.Revision != "" {
		extra = append(extra, "commit "+v.Revision[:min(12, len(v.Revision))])
	}
	if v.Time != "" {
		extra = append(extra, v.Time)
	}
	if v.Modified {
		extra = append(extra, "modified")
	}
	if len(extra) == 0 {
		return v.Version
	}
	return v.Version + " (" + strings.Join(extra, ", ") + ")"
}

func versionCommand() *cli.Command {
	return &cli.Command{
		Name:  "version",
		Usage: "print this binary's version, commit and Go version, from its build information",
		Description: `The version is the module version the Go toolchain recorded: v0.3.1 for a
binary made with go install github.com/textanalysis/go-textanalysis/cmd/textanalysis@v0.3.1,
the tag or a pseudo-version for go build in a git checkout (with the commit, its
time, and "modified" when the tree had uncommitted changes), else (devel).`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "print a JSON object"},
		},
		Action: func(c *cli.Context) error {
			v := currentVersion()
			if c.Bool("json") {
				return writeJSONTo(c.App.Writer, v)
			}
			_, err := fmt.Fprintf(c.App.Writer, "textanalysis %s\n%s %s\n", v, v.GoVersion, v.Platform)
			return err
		},
	}
}
