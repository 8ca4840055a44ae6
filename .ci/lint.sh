#!/usr/bin/env bash
# Checks the packaging files without a container runtime (CI has none, and
# cannot pull base images, so it cannot build the image):
#   - Dockerfile: dockerfile-utils lint, the validator behind the VS Code
#     Docker language server (instructions, their flags and arguments).
#   - compose.yaml: dclint, which validates against the compose-spec JSON
#     schema (YAML anchors resolved) and adds best-practice rules
#     (.ci/lint/.dclintrc turns off the key-order style rules: the file is in
#     start-up order); warnings fail.
#   - deploy/Caddyfile: caddy validate (Debian's caddy), which adapts and
#     provisions the proxy's configuration without listening.
# Both npm packages are pinned in .ci/lint/package-lock.json. The Go test
# cmd/textanalysis/compose_test.go checks that compose.yaml uses only
# commands and TEXTANALYSIS_ variables the binary accepts.
set -euo pipefail
cd "$(dirname "$0")/.."
( cd .ci/lint && npm ci --no-audit --no-fund --loglevel=error )
bin=.ci/lint/node_modules/.bin
echo "dockerfile-utils lint Dockerfile"
"$bin/dockerfile-utils" lint Dockerfile
echo "dclint compose.yaml"
"$bin/dclint" -c .ci/lint/.dclintrc --max-warnings 0 compose.yaml
echo "caddy validate deploy/Caddyfile"
caddy validate --adapter caddyfile --config deploy/Caddyfile 2>/dev/null
