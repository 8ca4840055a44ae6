#!/usr/bin/env bash
# Runs every fuzz target briefly (their seed corpora also run in go test).
#
# Go 1.26's fuzz coordinator can report a bare "context deadline exceeded"
# when -fuzztime ends while a worker is mid-input (golang/go#75804, fixed in
# Go 1.27). Such a run writes no reproducer. We retry that case once with an
# execution-count budget, which has no wall-clock deadline to race; any other
# failure, or a written reproducer, fails at once.
set -euo pipefail
cd "$(dirname "$0")/.."
secs="${FUZZTIME:-10s}"
log=$(mktemp)
trap 'rm -f "$log"' EXIT

is_deadline_flake() {
	grep -q 'context deadline exceeded' "$log" &&
		! grep -qE 'Failing input written|panic:|_test\.go:[0-9]+:' "$log"
}

for pkg in $(go list ./...); do
	dir=$(go list -f '{{.Dir}}' "$pkg")
	for fn in $(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/^func //' | sort -u); do
		echo "fuzz $pkg $fn ($secs)"
		if go test -run='^$' -fuzz="^${fn}\$" -fuzztime="$secs" -fuzzminimizetime=3s "$pkg" >"$log" 2>&1; then
			continue
		fi
		if ! is_deadline_flake; then
			cat "$log"
			exit 1
		fi
		execs=$(grep -oE 'execs: [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+' || echo 10000)
		[ "$execs" -ge 1000 ] || execs=1000
		echo "  coordinator deadline race without a reproducer (golang/go#75804); again with -fuzztime=${execs}x"
		go test -run='^$' -fuzz="^${fn}\$" -fuzztime="${execs}x" -fuzzminimizetime=3s "$pkg" >"$log" 2>&1 || { cat "$log"; exit 1; }
	done
done
