#!/usr/bin/env bash
# Contract test: a real `textanalysis serve` on a temporary SQLite store,
# driven from its own /openapi.json by .ci/contract/contract.mjs (fast-check
# generates valid and invalid requests, ajv checks every response against the
# document). Checks: no 5xx, every status declared, every body matching its
# schema, X-Request-Id on every response, X-Gw-Remaining/X-Gw-Reset on every
# response of an analysis path, 401 without a valid key, exact metering.
# Needs go, node (>= 20), npm, curl. Only 127.0.0.1 is ever contacted.
#
# Environment: CONTRACT_SEED (default 20261121), CONTRACT_RUNS (cases per
# operation, default 60), CONTRACT_PORT (default: a free port),
# CONTRACT_REPORT (write the full JSON report there), CONTRACT_VERBOSE=1.
# Exits non-zero on any violation.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
pid=
cleanup() {
	if [[ -n "$pid" ]]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
	rm -rf "$work"
}
trap cleanup EXIT

echo "building the CLI"
go build -o "$work/textanalysis" ./cmd/textanalysis

echo "installing fast-check and ajv (npm ci)"
( cd .ci/contract && npm ci --no-audit --no-fund --loglevel=error )

port="${CONTRACT_PORT:-$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')}"
base="http://127.0.0.1:$port"
export TEXTANALYSIS_DATABASE_URL="$work/c.db"

key=$(cd "$work" && ./textanalysis keys create --plan payg --email contract@example.com --json |
	node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const k=JSON.parse(s).key;if(!k)process.exit(1);process.stdout.write(k)})')
echo "key created: ${key:0:14}…"

( cd "$work" && exec ./textanalysis serve --addr "127.0.0.1:$port" --admin-addr off --rate-scale 1000 >"$work/serve.log" 2>&1 ) &
pid=$!
for _ in $(seq 1 150); do
	curl -fsS "$base/healthz" >/dev/null 2>&1 && break
	kill -0 "$pid" 2>/dev/null || { echo "FAIL: serve exited"; cat "$work/serve.log"; exit 1; }
	sleep 0.2
done
curl -fsS "$base/healthz" >/dev/null || { echo "FAIL: serve did not start"; tail -20 "$work/serve.log"; exit 1; }
echo "serving on $base"

status=0
node .ci/contract/contract.mjs --base "$base" --key "$key" || status=$?

# What the server logged as errors: the causes behind any 5xx (the 502s of
# pages that cannot be fetched, expected here, are only counted). Shrinking
# repeats failing requests, so the counts run higher than the summary's.
fetch502=$(grep '"level":"ERROR"' "$work/serve.log" | grep -c '"status":502' || true)
others=$(grep '"level":"ERROR"' "$work/serve.log" | grep -v '"status":502' || true)
echo
echo "server log: $fetch502 ERROR lines for 502 (pages that could not be fetched)"
if [[ -n "$others" ]]; then
	echo "server log: other ERROR lines, by cause:"
	sed -n 's/.*"status":\([0-9]*\),"err":"\(.\{0,160\}\).*/  \1 \2/p' <<<"$others" | sort | uniq -c | sort -rn | head -10
fi
if grep -qF "$key" "$work/serve.log"; then
	echo "FAIL: the key appears in the server log"; status=1
fi
if kill -0 "$pid" 2>/dev/null; then :; else
	echo "FAIL: serve died during the contract test"; tail -20 "$work/serve.log"; status=1
fi
exit "$status"
