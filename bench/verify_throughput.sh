#!/usr/bin/env bash
# qsel verify's read speed on logs it cannot shortcut: blank lines, one repeated
# INFO line, and the real log fixtures repeated, each SIZE_MB large.
#
#   bench/verify_throughput.sh [--before OLD_QSEL] [--mb 50] [--runs 3]
#   QSEL=path/to/qsel bench/verify_throughput.sh       (default: build/qsel)
#
# Issue 26 asked for at least 50 MB/s on blank or repetitive lines (a 10 MB log of
# blank lines once took 139 s). Measured, not asserted: nothing here fails on a
# slow number and the tests never run it. Each figure is the median of --runs
# runs, qsel and --before interleaved run by run; MB/s is the log's size over
# the wall time of the whole command (start-up included), peak RSS from
# /usr/bin/time. With --before the ratio is before/after time.
set -euo pipefail
cd "$(dirname "$0")/.."
QSEL=${QSEL:-build/qsel}
BEFORE=""
MB=50
RUNS=3
while [ $# -gt 0 ]; do
  case "$1" in
    --before) BEFORE=$2; shift 2 ;;
    --mb) MB=$2; shift 2 ;;
    --runs) RUNS=$2; shift 2 ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) echo "verify_throughput: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bytes=$((MB * 1024 * 1024))
head -c "$bytes" /dev/zero | tr '\0' '\n' > "$work/blank.log"
# yes ends on SIGPIPE when head has its bytes: that status is not a failure here
yes "INFO 05-12 10:00:01 [model_runner.py:1110] Loading model weights took 3.71 GB" | head -c "$bytes" > "$work/repetitive.log" || true
: > "$work/real.log"
while [ "$(stat -c %s "$work/real.log")" -lt "$bytes" ]; do cat tests/fixtures/logs/*.log >> "$work/real.log"; done

# median wall time and peak RSS (KB) of `qsel verify --log FILE` over RUNS runs
measure() {
  local bin=$1 log=$2 times=() rss=0 t m
  for _ in $(seq "$RUNS"); do
    # verify exits 3 on these logs (nothing to settle); time writes that line first, the figures last
    /usr/bin/time -o "$work/time" -f "%e %M" "$bin" verify --log "$log" --format json > /dev/null 2>&1 || true
    read -r t m < <(tail -1 "$work/time")
    times+=("$t"); rss=$m
  done
  printf '%s\n' "${times[@]}" | sort -g | sed -n "$(( (RUNS + 1) / 2 ))p" | tr '\n' ' '
  echo "$rss"
}

printf '%-12s %8s %10s %10s' log MB "s" "MB/s"
[ -n "$BEFORE" ] && printf ' %10s %10s %8s' "before s" "before MB/s" ratio
printf '\n'
for kind in blank repetitive real; do
  log="$work/$kind.log"
  size=$(awk -v b="$(stat -c %s "$log")" 'BEGIN { printf "%.1f", b / 1048576 }')
  read -r t rss < <(measure "$QSEL" "$log")
  printf '%-12s %8s %10s %10s' "$kind" "$size" "$t" "$(awk -v s="$size" -v t="$t" 'BEGIN { printf "%.0f", s / (t > 0 ? t : 0.01) }')"
  if [ -n "$BEFORE" ]; then
    read -r bt _ < <(measure "$BEFORE" "$log")
    printf ' %10s %10s %7sx' "$bt" "$(awk -v s="$size" -v t="$bt" 'BEGIN { printf "%.0f", s / (t > 0 ? t : 0.01) }')" \
      "$(awk -v a="$bt" -v b="$t" 'BEGIN { printf "%.1f", a / (b > 0 ? b : 0.01) }')"
  fi
  printf '   (peak RSS %s KB)\n' "$rss"
done
