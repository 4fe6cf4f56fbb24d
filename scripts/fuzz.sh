#!/usr/bin/env bash
# Runs every libFuzzer harness in tests/fuzz for SECONDS each (default 600),
# seeded from data/, the YAML test suite (read in place when it is there),
# examples/, the log fixtures, the detection fixtures, Hub answers and cache
# entries, and generated GGUF/safetensors files. Needs the
# sanitizer build (scripts/sanitize.sh builds it). Crashes land in build-san/fuzz/<harness>/.
#   scripts/fuzz.sh [SECONDS] [HARNESS…]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
shift || true
harnesses=("$@")
[ ${#harnesses[@]} -gt 0 ] || harnesses=(record_loader config_json gguf safetensors log_patterns hub checkpoint_folder hub_cache url detect)
build=${QSEL_FUZZ_BUILD:-build-san}
[ -x "$build/tests/fuzz/fuzz_record_loader" ] || { echo "fuzz: build $build first (scripts/sanitize.sh)"; exit 2; }
seeds="$build/fuzz/seeds"
rm -rf "$seeds" && mkdir -p "$seeds"/{record_loader,config_json,gguf,safetensors,log_patterns,hub,checkpoint_folder,hub_cache,url,detect}
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
# Hub cache entries (first byte: 0 a file list entry, 1 a file's meta, 2 a name or an ETag, 3 a list entry on disk).
listing='{"sha":"0123456789abcdef0123456789abcdef01234567","gated":"","siblings":[{"rfilename":"config.json","size":700},{"rfilename":"m-Q4_K_M.gguf","size":5}]}'
for sel in 0 3; do
  { printf "\\$(printf '%03o' "$sel")"; printf '{"fetched":1700000000,"etag":"\\"abc\\"","listing":%s}' "$listing"; } > "$seeds/hub_cache/listing-$sel"
  { printf "\\$(printf '%03o' "$sel")"; printf '{"fetched":"x","etag":"","listing":{}}'; } > "$seeds/hub_cache/bad-type-$sel"
done
{ printf '\001'; printf '%s' '{"size":1048576,"complete":false,"etag":"W/\"x\""}'; } > "$seeds/hub_cache/meta"
{ printf '\001'; printf '%s' '{"size":"abc"}'; } > "$seeds/hub_cache/meta-bad"
{ printf '\002'; printf '%s' 'Q2_K/m-Q2_K-00001-of-00002.gguf'; } > "$seeds/hub_cache/name"
{ printf '\002'; printf '"a\r\nX-Evil: 1"'; } > "$seeds/hub_cache/etag-crlf"
# URLs: credentials, case, ports, paths, and shapes libcurl refuses.
n=0
for url in 'https://alice:s%3Acret@Mirror.Example:8443/hf/?x=1#f' 'HTTP://HuggingFace.co' 'http://[::1]:8080/a' 'https://u:p@exa mple.com/x' \
           'https://huggingface.co/org/name/resolve/main/x.gguf' 'ftp://x/y' 'https://:@/'; do
  printf '%s' "$url" > "$seeds/url/url-$n"; n=$((n + 1))
done
# What the machine's tools print (first byte: 0 nvidia-smi CSV, 1 its table, 2 amd-smi, 3 rocm-smi, 4 sysctl + system_profiler,
# 5 meminfo, 6 sysctl hw.memsize; +128: the GPUs read are matched to the corpus too).
{ printf '\000'; printf 'NVIDIA GeForce RTX 3090, 24576 MiB, 8.6\nNVIDIA H100 80GB HBM3, 81559, 9.0\n'; } > "$seeds/detect/nvidia-csv"
{ printf '\200'; printf 'NVIDIA GeForce RTX 3090, 24576 MiB, 8.6\nNVIDIA H100 80GB HBM3, 81559, 9.0\n'; } > "$seeds/detect/nvidia-csv-matched"
{ printf '\000'; cat tests/fixtures/detect/nvidia-smi/titan-v-rtx-5880-ada-query.csv.txt; } > "$seeds/detect/nvidia-csv-header"
for f in tests/fixtures/detect/nvidia-smi/*-x*.txt; do { printf '\001'; cat "$f"; } > "$seeds/detect/nvidia-$(basename "$f")"; done
for f in tests/fixtures/detect/amd-smi/*; do { printf '\002'; cat "$f"; } > "$seeds/detect/amd-$(basename "$f")"; done
for f in tests/fixtures/detect/rocm-smi/*; do { printf '\003'; cat "$f"; } > "$seeds/detect/rocm-$(basename "$f")"; done
for f in tests/fixtures/detect/sysctl/*; do
  { printf '\004'; cat "$f"; printf '\n--8<--\n'; cat tests/fixtures/detect/system_profiler/cpufetch-183-m1pro-16gb-SPHardwareDataType-mini.txt; } > "$seeds/detect/apple-$(basename "$f")"
done
{ printf '\005'; printf 'MemTotal:       65536000 kB\nMemFree: 1 kB\n'; } > "$seeds/detect/meminfo"
{ printf '\006'; printf 'hw.memsize: 68719476736\n'; } > "$seeds/detect/sysctl"
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
