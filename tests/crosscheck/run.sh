#!/bin/sh
# Cross-checks qsel's GGUF reader against @huggingface/gguf (npm), an independent
# implementation, on files the spec-following writer in tests/ generates.
# Usage: run.sh QSEL_BINARY QSEL_TESTS_BINARY WORK_DIR. Exits 77 (CTest: skipped)
# when Node or the package is not available; never a build or runtime dependency.
set -u
qsel=$1 tests=$2 work=$3
command -v node >/dev/null 2>&1 || { echo "node not found: cross-check skipped"; exit 77; }
command -v npm >/dev/null 2>&1 || { echo "npm not found: cross-check skipped"; exit 77; }
mkdir -p "$work"
if [ ! -d "$work/node_modules/@huggingface/gguf" ]; then
  npm install --prefix "$work" --no-audit --no-fund --no-save --loglevel=error @huggingface/gguf@0.4.6 >"$work/npm.log" 2>&1 ||
    { echo "npm install @huggingface/gguf failed (offline?): cross-check skipped"; tail -3 "$work/npm.log"; exit 77; }
fi
rm -rf "$work/files"
QSEL_CROSSCHECK_OUT="$work/files" "$tests" "[.crosscheck]" >/dev/null || { echo "writing the GGUF files failed"; exit 1; }
cp "$(dirname "$0")/gguf_crosscheck.mjs" "$work/"
exec node "$work/gguf_crosscheck.mjs" "$qsel" "$work/files"
