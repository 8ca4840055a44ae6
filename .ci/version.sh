#!/usr/bin/env bash
# The binary's version comes from Go's build information, not a constant:
# built in this checkout it records HEAD's commit, and built at a tag vX.Y.Z
# it says vX.Y.Z (as `go install …@vX.Y.Z` does; "+dirty" when the tree has
# uncommitted changes). Needs git and a clone: in a git worktree, .git is a
# file and go stamps nothing, and the script says so and stops. Builds in
# place, so that only the link step is not already cached.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ ! -d .git ]]; then
	echo "not a clone (.git is not a directory): go records no VCS information here; skipped"
	exit 0
fi
work=$(mktemp -d)
tag=v0.99.99-ci.version
cleanup() { git tag -d "$tag" >/dev/null 2>&1 || true; rm -rf "$work"; }
trap cleanup EXIT
build() { GOFLAGS=-buildvcs=true go build -o "$work/textanalysis" ./cmd/textanalysis; }

rev=$(git rev-parse HEAD)
build
out=$("$work/textanalysis" version --json)
echo "$out"
grep -q "\"revision\": \"$rev\"" <<<"$out" || { echo "FAIL: version does not name HEAD ($rev)"; exit 1; }

git tag "$tag"
build
line=$("$work/textanalysis" --version)
echo "$line"
case "$line" in
"textanalysis version $tag (commit ${rev:0:12}, "* | "textanalysis version $tag+dirty (commit ${rev:0:12}, "*) ;;
*) echo "FAIL: a build at tag $tag says: $line"; exit 1 ;;
esac
