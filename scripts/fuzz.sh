#!/usr/bin/env bash
# Runs every libFuzzer harness in tests/fuzz for SECONDS each (default 600),
# seeded from data/, the YAML test suite (read in place when it is there),
# examples/, the log fixtures and generated GGUF/safetensors files. Needs the
# sanitizer build (scripts/sanitize.sh builds it). Crashes land in build-san/fuzz/<harness>/.
#   scripts/fuzz.sh [SECONDS] [HARNESS…]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
shift || true
harnesses=("$@")
[ ${#harnesses[@]} -gt 0 ] || harnesses=(record_loader config_json gguf safetensors log_patterns hub checkpoint_folder)
build=${QSEL_FUZZ_BUILD:-build-san}
[ -x "$build/tests/fuzz/fuzz_record_loader" ] || { echo "fuzz: build $build first (scripts/sanitize.sh)"; exit 2; }
seeds="$build/fuzz/seeds"
rm -rf "$seeds" && mkdir -p "$seeds"/{record_loader,config_json,gguf,safetensors,log_patterns,hub,checkpoint_folder}
# Record files, each prefixed with its kind's index (the harness's first byte picks the kind).
i=0
for kind in formats accelerators targets kernels engines matrices benchmarks gotchas models techniques facts questions; do
  for f in data/"$kind"/*.yaml; do
    [ -f "$f" ] || continue
    { printf "\\$(printf '%03o' "$i")"; cat "$f"; } > "$seeds/record_loader/$kind-$(basename "$f")"
  done
  i=$((i + 1))
done
suite="${QSEL_YAML_TEST_SUITE:-../shared/third_party/yaml-test-suite}"
if [ -d "$suite" ]; then
  n=0
  while IFS= read -r -d '' f; do
    { printf '\000'; cat "$f"; } > "$seeds/record_loader/suite-$n.yaml"; n=$((n + 1))
  done < <(find "$suite" -name 'in.yaml' -print0 | head -z -n 400)
fi
cp examples/*/config.json "$seeds/config_json/" 2>/dev/null || true
for f in examples/*/config.json; do [ -f "$f" ] && cp "$f" "$seeds/config_json/$(basename "$(dirname "$f")").json"; done
QSEL_CROSSCHECK_OUT="$seeds/generated" "$build/tests/qsel_tests" "[.crosscheck]" >/dev/null
cp "$seeds"/generated/*.gguf "$seeds/gguf/"
cp "$seeds"/generated/*.safetensors "$seeds/safetensors/"
# Deep nesting (issue 26: 200,000 '[' once overflowed the stack): under and over the limit.
{ printf '{"quantization_config":{"x":'; head -c 60 /dev/zero | tr '\0' '['; head -c 60 /dev/zero | tr '\0' ']'; printf '}}'; } > "$seeds/config_json/deep-60.json"
{ printf '{"text_config":'; head -c 5000 /dev/zero | tr '\0' '['; printf '}'; } > "$seeds/config_json/deep-5000.json"
# Checkpoint folders: config.json, an index naming two shards, and the two shard headers,
# cut at "\n--8<--\n" lines (fuzz_checkpoint_folder.cc).
n=0
for cfg in examples/*/config.json; do
  [ -f "$cfg" ] || continue
  for st in "$seeds"/generated/*.safetensors; do
    # the second shard empty (a header of "{}"), so the read gets past the duplicate check
    { cat "$cfg"; printf '\n--8<--\n{"weight_map": {"a": "s1.safetensors", "b": "s2.safetensors"}}\n--8<--\n'; cat "$st"; printf '\n--8<--\n'
      printf '\002\000\000\000\000\000\000\000{}'; } > "$seeds/checkpoint_folder/folder-$n"
    # the same shard twice: a tensor in two files
    { cat "$cfg"; printf '\n--8<--\n{}\n--8<--\n'; cat "$st"; printf '\n--8<--\n'; cat "$st"; } > "$seeds/checkpoint_folder/twice-$n"
    n=$((n + 1))
    [ "$n" -lt 12 ] || break 2
  done
done
cp tests/fixtures/logs/*.log "$seeds/log_patterns/"
# Hub names (first byte 0) and a Hub file list (first byte 1).
n=0
for name in 'Qwen/Qwen3-32B-AWQ' 'unsloth/Llama-3.1-8B-Instruct-GGUF@refs/pr/1:Q4_K_M' \
            'https://huggingface.co/bartowski/X-GGUF/resolve/main/sub/X-Q8_0.gguf?download=true' 'https://example.com/m.gguf'; do
  { printf '\000'; printf '%s' "$name"; } > "$seeds/hub/name-$n"; n=$((n + 1))
done
{ printf '\001'; printf '%s' '{"id":"org/name","sha":"0123456789abcdef0123456789abcdef01234567","gated":false,"siblings":[{"rfilename":"config.json","size":700},{"rfilename":"Q2_K/m-Q2_K-00001-of-00002.gguf","lfs":{"size":9}},{"rfilename":"m-Q4_K_M.gguf","size":5}]}'; } > "$seeds/hub/listing"
status=0
for h in "${harnesses[@]}"; do
  work="$build/fuzz/$h"
  mkdir -p "$work/corpus"
  if [ "$seconds" = 0 ]; then  # replay the seeds once (a libFuzzer build with -runs=0, or the standalone main)
    echo "fuzz: $h replays its seeds"
    (cd "$work" && "../../tests/fuzz/fuzz_$h" -runs=0 "../seeds/$h" > log.txt 2>&1) || { echo "fuzz: $h FAILED — see $work/log.txt"; tail -30 "$work/log.txt"; status=1; }
    tail -1 "$work/log.txt"
    continue
  fi
  echo "fuzz: $h for ${seconds}s"
  if ! (cd "$work" && "../../tests/fuzz/fuzz_$h" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
          -print_final_stats=1 corpus "../seeds/$h" > log.txt 2>&1); then
    echo "fuzz: $h FAILED — see $work/log.txt"; tail -30 "$work/log.txt"; status=1
  fi
  grep -E "stat::number_of_executed_units|cov: |stat::peak_rss_mb" "$work/log.txt" | tail -3
done
exit $status
