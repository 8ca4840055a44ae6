#!/usr/bin/env bash
# MCP interoperability: the official TypeScript SDK client from npm
# (@modelcontextprotocol/sdk, pinned in .ci/mcp/package-lock.json) against a
# real `textanalysis serve`: list the tools without a key, call
# analyze_sentiment with the key in a header and in the path, and check that
# X-Gw-Remaining went down by exactly two. Needs go, node (>= 20), npm, curl.
# Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
port="${MCP_INTEROP_PORT:-18081}"
work=$(mktemp -d)
pid=
cleanup() {
	if [[ -n "$pid" ]]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
	rm -rf "$work"
}
trap cleanup EXIT

echo "building the CLI"
go build -o "$work/textanalysis" ./cmd/textanalysis

echo "installing the TypeScript SDK (npm ci)"
( cd .ci/mcp && npm ci --no-audit --no-fund --loglevel=error )

# The key and the server share the SQLite store in the temp dir.
key=$(cd "$work" && ./textanalysis keys create --plan free --email interop@example.com --json |
	node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const k=JSON.parse(s).key;if(!k)process.exit(1);process.stdout.write(k)})')
echo "key created: ${key:0:14}…"

( cd "$work" && exec ./textanalysis serve --addr "127.0.0.1:$port" --admin-addr off >"$work/serve.log" 2>&1 ) &
pid=$!
base="http://127.0.0.1:$port"
for _ in $(seq 1 150); do
	curl -fsS "$base/healthz" >/dev/null 2>&1 && break
	kill -0 "$pid" 2>/dev/null || { echo "FAIL: serve exited"; cat "$work/serve.log"; exit 1; }
	sleep 0.2
done
curl -fsS "$base/healthz" >/dev/null || { echo "FAIL: serve did not start"; cat "$work/serve.log"; exit 1; }

remaining() { # X-Gw-Remaining of a response that is not metered
	curl -fsS -o /dev/null -D - -H "X-API-Key: $key" "$base/healthz" |
		tr -d '\r' | awk -F': ' 'tolower($1)=="x-gw-remaining"{print $2}'
}
before=$(remaining)
echo "X-Gw-Remaining before: $before"

status=0
node .ci/mcp/interop.mjs "$base" "$key" || status=$?

after=$(remaining)
echo "X-Gw-Remaining after:  $after"
if [[ "$status" != 0 ]]; then
	echo "FAIL: the TypeScript client's checks failed (exit $status)"; tail -20 "$work/serve.log"; exit 1
fi
if [[ -z "$before" || -z "$after" || $((before - after)) != 2 ]]; then
	echo "FAIL: X-Gw-Remaining went from '$before' to '$after', want down by exactly 2"; exit 1
fi
if grep -qF "$key" "$work/serve.log"; then
	echo "FAIL: the key appears in the server log"; exit 1
fi
echo "MCP interoperability: ok"
