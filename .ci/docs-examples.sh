#!/usr/bin/env bash
# Runs every curl example of the markdown reference (/docs.md and
# /docs/{operation_id}.md) as printed, against a server started as the
# smoke step starts it, and fails unless each answers 200. Examples that
# fetch a page from the internet say so in a comment and show their answer
# instead; they are skipped here (no network in CI), but their answer must
# be on the page.
set -euo pipefail
cd "$(dirname "$0")/.."
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
admin_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
work=$(mktemp -d)
go build -o "$work/textanalysis" ./cmd/textanalysis
API_KEY=$(cd "$work" && ./textanalysis keys create --plan free --email docs@example.com --json 2>/dev/null | sed -n 's/.*"key": "\([^"]*\)".*/\1/p')
[[ "$API_KEY" == ta_live_* ]] || { echo "keys create gave no key"; exit 1; }
export API_KEY
base="http://127.0.0.1:$port"
( cd "$work" && TEXTANALYSIS_RATE_SCALE=100 TEXTANALYSIS_ADDR="127.0.0.1:$port" TEXTANALYSIS_BASE_URL="$base" \
	TEXTANALYSIS_ADMIN_ADDR="127.0.0.1:$admin_port" exec ./textanalysis serve >"$work/serve.log" 2>&1 ) &
pid=$!
trap 'kill $pid 2>/dev/null || true; wait $pid 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 300); do
	curl -fsS "$base/healthz" >/dev/null 2>&1 && break
	kill -0 $pid 2>/dev/null || { echo "serve exited:"; cat "$work/serve.log"; exit 1; }
	sleep 0.2
done

pages=(/docs.md)
for id in $(curl -fsS "$base/" | python3 -c 'import json,sys; print(" ".join(o["operation_id"] for o in json.load(sys.stdin)["operations"]))'); do
	pages+=("/docs/$id.md")
done

# curl as the examples call it, but quiet, with the body kept and the
# status printed, so that each example is checked as a reader would run it.
cat >"$work/curl" <<SH
#!/usr/bin/env bash
exec $(command -v curl) -sS -o "$work/answer" -w '%{http_code}' "\$@"
SH
chmod +x "$work/curl"

ran=0 skipped=0 failed=0
declare -A seen=()
for page in "${pages[@]}"; do
	curl -fsS "$base$page" -o "$work/page.md"
	# Each ```sh block, with its line continuations, as one NUL-ended command.
	python3 - "$work/page.md" >"$work/blocks" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
for block in re.findall(r"```sh\n(.*?)```", text, re.S):
    sys.stdout.write(block.replace("\\\n", " ").strip() + "\0")
PY
	[[ -s "$work/blocks" ]] || { echo "FAIL $page has no example"; exit 1; }
	while IFS= read -r -d '' cmd; do
		if [[ "$cmd" == *"from the internet"* ]]; then
			grep -q '"final_url": ' "$work/page.md" || { echo "FAIL $page: an example that needs the internet shows no answer"; failed=$((failed + 1)); }
			skipped=$((skipped + 1))
			continue
		fi
		[[ -n "${seen[$cmd]:-}" ]] && continue
		seen[$cmd]=1
		status=$(PATH="$work:$PATH" bash -c "$cmd" 2>"$work/err") || true
		if [[ "$status" == 200 ]]; then
			echo "ok   $page: ${cmd:0:100}"
			ran=$((ran + 1))
		else
			echo "FAIL $page: status ${status:-none}: $cmd"
			cat "$work/answer" 2>/dev/null; cat "$work/err"; echo
			failed=$((failed + 1))
		fi
	done <"$work/blocks"
done
echo "docs examples: $ran ran, $skipped shown with their answer (need the internet), $failed failed"
((failed == 0 && ran > 0))
