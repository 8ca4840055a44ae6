#!/usr/bin/env bash
# Runs every fuzz target briefly (their seed corpora also run in go test).
set -euo pipefail
cd "$(dirname "$0")/.."
secs="${FUZZTIME:-10s}"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for pkg in $(go list ./...); do
	dir=$(go list -f '{{.Dir}}' "$pkg")
	for fn in $(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/^func //' | sort -u); do
		echo "fuzz $pkg $fn ($secs)"
		go test -run='^$' -fuzz="^${fn}\$" -fuzztime="$secs" "$pkg" >"$log" 2>&1 || { cat "$log"; exit 1; }
	done
done
