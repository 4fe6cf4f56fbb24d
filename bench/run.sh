#!/usr/bin/env bash
# qsel benchmarks. Machines here are noisy, so every figure is a ratio of two
# things measured side by side in the same run, interleaved, best of N.
#   bench/run.sh [path/to/qsel]      (default: build/qsel)
set -euo pipefail
cd "$(dirname "$0")/.."
QSEL=${1:-build/qsel}
ROUNDS=${ROUNDS:-15}
[ -x "$QSEL" ] || { echo "bench: $QSEL not built (run scripts/bootstrap.sh)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# best-of-N wall time in microseconds of a command (stdout/stderr discarded)
best() {
  local best=999999999 t0 t1 dt
  for _ in $(seq "$ROUNDS"); do
    t0=$(date +%s%N); "$@" >/dev/null 2>&1 || true; t1=$(date +%s%N)
    dt=$(( (t1 - t0) / 1000 )); [ "$dt" -lt "$best" ] && best=$dt
  done
  echo "$best"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

echo "== start-up: embedded (precompiled MessagePack) vs parsing and validating data/ YAML"
emb=$(best "$QSEL" list formats)
yaml=$(best "$QSEL" --data data list formats)
echo "embedded ${emb} us, --data data ${yaml} us: YAML/embedded = $(ratio "$yaml" "$emb")x"

echo "== recommend vs list (the rule engine's share of a query)"
rec=$(best "$QSEL" recommend --gpu h100 --model-size 70b --format json)
echo "recommend ${rec} us, list ${emb} us: recommend/list = $(ratio "$rec" "$emb")x"

echo "== lint throughput and scaling on a synthetic corpus (copies of data/ under fresh ids)"
make_corpus() {  # $1 = copies, $2 = dir
  mkdir -p "$2"
  for kind in data/*/; do
    k=$(basename "$kind"); mkdir -p "$2/$k"
    for f in "$kind"*.yaml; do
      id=$(basename "$f" .yaml)
      for i in $(seq "$1"); do
        # fresh ids; references keep pointing at copy 1's ids, which exist
        if [ "$i" -eq 1 ]; then cp "$f" "$2/$k/$id.yaml"
        else sed "s/^id: $id\$/id: $id-c$i/" "$f" > "$2/$k/$id-c$i.yaml"; fi
      done
    done
  done
}
make_corpus 1 "$tmp/x1"; make_corpus 4 "$tmp/x4"; make_corpus 16 "$tmp/x16"
n1=$(find "$tmp/x1" -name '*.yaml' | wc -l); n4=$(find "$tmp/x4" -name '*.yaml' | wc -l); n16=$(find "$tmp/x16" -name '*.yaml' | wc -l)
ROUNDS=5
l1=$(best "$QSEL" lint --format json "$tmp/x1"); l4=$(best "$QSEL" lint --format json "$tmp/x4"); l16=$(best "$QSEL" lint --format json "$tmp/x16")
echo "records: $n1 / $n4 / $n16; time: ${l1} / ${l4} / ${l16} us"
echo "scaling x4 records: $(ratio "$l4" "$l1")x time; x16 records: $(ratio "$l16" "$l1")x time (linear would be 4 and 16)"
echo "throughput: $(awk -v n="$n16" -v t="$l16" 'BEGIN { printf "%.0f", n / (t / 1e6) }') records/s at $n16 records"
