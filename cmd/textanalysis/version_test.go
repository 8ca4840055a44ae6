package main

import (
	"encoding/json"
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestVersionFromBuildInfo(t *testing.T) {
	vcs := []debug.BuildSetting{
		{Key: "-buildmode", Value: "exe"},
		{Key: "vcs", Value: "git"},
		{Key: "vcs.revision", Value: "3daed1d03915aa2b9c0e1f4d5e6a7b8c9d0e1f2a"},
		{Key: "vcs.time", Value: "2026-11-24T14:56:26Z"},
	}
	for _, tc := range []struct {
		name string
		info *debug.BuildInfo
		want buildVersion
		line string
	}{
		{"no build info", nil, buildVersion{Version: "(devel)"}, "(devel)"},
		{"go install at a tag", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/textanalysis/go-textanalysis", Version: "v0.3.1"}},
			buildVersion{Version: "v0.3.1", GoVersion: "go1.26.8"}, "v0.3.1"},
		{"go build in a clean checkout at a tag", &debug.BuildInfo{Main: debug.Module{Version: "v0.3.1"}, Settings: append(vcs, debug.BuildSetting{Key: "vcs.modified", Value: "false"})},
			buildVersion{Version: "v0.3.1", Revision: "3daed1d03915aa2b9c0e1f4d5e6a7b8c9d0e1f2a", Time: "2026-11-24T14:56:26Z"},
			"v0.3.1 (commit 3daed1d03915, 2026-11-24T14:56:26Z)"},
		{"go build with uncommitted changes", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261124145626-3daed1d03915+dirty"}, Settings: append(vcs, debug.BuildSetting{Key: "vcs.modified", Value: "true"})},
			buildVersion{Version: "v0.0.0-20261124145626-3daed1d03915+dirty", Revision: "3daed1d03915aa2b9c0e1f4d5e6a7b8c9d0e1f2a", Time: "2026-11-24T14:56:26Z", Modified: true},
			"v0.0.0-20261124145626-3daed1d03915+dirty (commit 3daed1d03915, 2026-11-24T14:56:26Z, modified)"},
		{"go build -buildvcs=false", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, buildVersion{Version: "(devel)"}, "(devel)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := versionFrom(tc.info)
			if tc.want.GoVersion == "" {
				tc.want.GoVersion = runtime.Version()
			}
			tc.want.Platform = runtime.GOOS + "/" + runtime.GOARCH
			assert.Equal(t, tc.want, got)
			assert.Equal(t, tc.line, got.String())
		})
	}
}

// --version and the version command both report this binary's build
// information, not a constant.
func TestVersionCommand(t *testing.T) {
	want := currentVersion()
	out, _, code := run(t, "", "--version")
	require.Equal(t, exitOK, code)
	assert.Equal(t, "textanalysis version "+want.String()+"\n", out)

	out, _, code = run(t, "", "version")
	require.Equal(t, exitOK, code)
	assert.Equal(t, "textanalysis "+want.String()+"\n"+want.GoVersion+" "+want.Platform+"\n", out)

	out, _, code = run(t, "", "version", "--json")
	require.Equal(t, exitOK, code)
	var got buildVersion
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	assert.Equal(t, want, got)
	assert.Equal(t, runtime.Version(), got.GoVersion)
}
