#!/usr/bin/env bash
# Starts the service exactly as the README says, waits for it, calls every
# operation once over GET and POST, and saves the OpenAPI document for the
# validator. Fails on any status other than the expected one.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .ci/out
# A free port: a server left over from another run must not answer for us.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
admin_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
work=$(mktemp -d)
go build -o "$work/textanalysis" ./cmd/textanalysis
# A key for the calls, made on the same embedded store the server uses.
key=$(cd "$work" && ./textanalysis keys create --plan free --email smoke@example.com --json | sed -n 's/.*"key": "\([^"]*\)".*/\1/p')
[[ "$key" == ta_live_* ]] || { echo "keys create gave no key"; exit 1; }
# The calls come faster than the Free plan's 5/s, so the limit is raised.
# No SMTP here: the developer site's mails go whole to files in mail/, so
# that the sign-up below can follow its confirmation link; the log keeps
# only redacted copies.
( cd "$work" && TEXTANALYSIS_MAIL_DIR="$work/mail" TEXTANALYSIS_RATE_SCALE=100 TEXTANALYSIS_ADDR="127.0.0.1:$port" TEXTANALYSIS_ADMIN_ADDR="127.0.0.1:$admin_port" exec ./textanalysis serve >"$work/serve.log" 2>&1 ) &
pid=$!
trap 'kill $pid 2>/dev/null || true; wait $pid 2>/dev/null || true' EXIT
base="http://127.0.0.1:$port"
for _ in $(seq 1 300); do
	curl -fsS "$base/healthz" >/dev/null 2>&1 && break
	kill -0 $pid 2>/dev/null || { echo "serve exited:"; cat "$work/serve.log"; exit 1; }
	sleep 0.2
done
curl -fsS "$base/openapi.json" -o .ci/out/openapi.json

check() { # expected-status method path [body]
	local want=$1 method=$2 path=$3 body=${4:-}
	local got
	if [[ -n "$body" ]]; then
		got=$(curl -s -o "$work/body" -w '%{http_code}' -H "X-API-Key: ${KEY-$key}" -X "$method" -d "$body" "$base$path")
	else
		got=$(curl -s -o "$work/body" -w '%{http_code}' -H "X-API-Key: ${KEY-$key}" -X "$method" "$base$path")
	fi
	if [[ "$got" != "$want" ]]; then
		echo "FAIL $method $path: status $got, want $want"; cat "$work/body"; echo; cat "$work/serve.log" | tail -20; exit 1
	fi
	echo "ok   $got $method $path"
}
check 200 GET "/"
check 200 GET "/docs"
check 200 GET "/docs.md"
check 200 GET "/docs/analyze_ner.md"
check 200 GET "/ner?text=Ada+Lovelace+was+born+in+London."
check 200 POST "/ner" '{"text":"Ada Lovelace was born in London."}'
check 200 GET "/ner/display?text=Ada+Lovelace+was+born+in+London."
check 200 POST "/ner/display" '{"text":"Ada was born in London.","spans":"0:3:PERSON"}'
check 200 GET "/sentiment?text=What+a+great+day"
check 200 POST "/sentiment" '{"text":"What a great day"}'
check 200 GET "/qa?question=Where+was+Ada+born%3F&context=Ada+was+born+in+London."
check 200 POST "/qa" '{"question":"Where was Ada born?","context":"Ada was born in London."}'
# No network here: a URL fetch of this machine itself must be refused (422).
check 422 GET "/text?url=http://127.0.0.1:$port/"
check 422 POST "/text" '{"url":"http://169.254.169.254/latest/meta-data/"}'
check 422 GET "/ner"
check 422 POST "/qa" '{"question":"q"}'
KEY="" check 401 GET "/ner?text=no+key"
check 200 GET "/developer/"

# Sign-up: no key before the address is confirmed; the mailed link's GET
# only shows a button; its POST shows the key, once.
got=$(curl -s -o "$work/body" -w '%{http_code}' -d 'email=signup@example.com' "$base/developer/signup")
[[ "$got" == 200 ]] || { echo "FAIL sign-up: status $got"; cat "$work/body"; exit 1; }
grep -q 'ta_live_' "$work/body" && { echo "FAIL sign-up showed a key before confirmation"; exit 1; }
path=$(cat "$work"/mail/*.eml | grep -o '/developer/signup/confirm?token=[0-9a-f]*' | tail -1)
[[ -n "$path" ]] || { echo "FAIL no confirmation link in the mail"; ls "$work/mail"; tail -20 "$work/serve.log"; exit 1; }
grep -q "${path##*token=}" "$work/serve.log" && { echo "FAIL the log holds a confirmation link's token"; exit 1; }
curl -fsS "$base$path" -o "$work/body"
grep -q 'name="token"' "$work/body" || { echo "FAIL the link's page has no button"; cat "$work/body"; exit 1; }
grep -q 'ta_live_' "$work/body" && { echo "FAIL the link's GET showed a key"; exit 1; }
curl -fsS -d "token=${path##*token=}" "$base/developer/signup/confirm" -o "$work/body"
newkey=$(grep -o 'ta_live_[0-9A-Za-z]\{32\}' "$work/body" | head -1)
[[ -n "$newkey" ]] || { echo "FAIL confirming showed no key"; cat "$work/body"; exit 1; }
echo "ok   sign-up: key shown only after confirmation"
KEY="$newkey" check 200 GET "/sentiment?text=Signed+up"
got=$(curl -s -o /dev/null -w '%{http_code}' -d "token=${path##*token=}" "$base/developer/signup/confirm")
[[ "$got" == 404 ]] || { echo "FAIL a confirmation link worked twice: status $got"; exit 1; }
got=$(curl -s -o /dev/null -w '%{http_code}' -H 'Sec-Fetch-Site: cross-site' -d 'email=x@example.com' "$base/developer/signup")
[[ "$got" == 403 ]] || { echo "FAIL a cross-site sign-up got $got, want 403"; exit 1; }
echo "ok   403 cross-site POST /developer/signup"

check 404 GET "/metrics"
# The operator endpoints answer on the admin address only.
curl -fsS "http://127.0.0.1:$admin_port/metrics" -o "$work/metrics" && grep -q '^textanalysis_http_requests_total' "$work/metrics" || { echo "FAIL: no metrics on the admin address"; exit 1; }
echo "ok   200 GET admin /metrics"
grep -q "$key" "$work/serve.log" && { echo "the key appears in the log"; exit 1; }
grep -q "$newkey" "$work/serve.log" && { echo "the signed-up key appears in the log"; exit 1; }
echo "service answered every operation"
