#!/usr/bin/env bash
# Drives one long-running textanalysis process as a worker: write a line,
# read its answer, repeat, without a process start per text.
set -euo pipefail
coproc WORKER { textanalysis sentiment --input -; }
for text in "I love this" "This is terrible" "It is a chair"; do
	printf '{"id":"%s","text":"%s"}\n' "$text" "$text" >&"${WORKER[1]}"
	IFS= read -r answer <&"${WORKER[0]}"
	echo "$answer"
done
exec {WORKER[1]}>&-
wait
