#!/usr/bin/env bash
# qsel lint at scale, against ajv-cli 5 validating the same files with the same schemas.
#
#   bench/lint_scale.sh [--before OLD_QSEL] [--src DIR] [--sizes "1000 5000 20000 50000"] [--runs 3] [--no-ajv]
#   QSEL=path/to/qsel bench/lint_scale.sh          (default: build/qsel)
#   bench/lint_scale.sh --make-corpus N DIR        (only write the N-record corpus to DIR)
#
# The synthetic corpus of N records is data/ as it is, plus copies of
# data/benchmarks/*.yaml and data/gotchas/*.yaml under new ids (the id field and
# the file name both get -copyK), so every copy is as valid as its original.
# --src takes data/ and schemas/ from another tree (e.g. a worktree at the
# commit the binaries embed). ajv-cli and ajv-formats are installed from the npm
# registry into a cache folder ($QSEL_BENCH_CACHE, default ~/.cache/qsel-bench),
# never into the repository; without node/npm the ajv columns are skipped.
#
# Measured, not asserted: nothing here fails on a slow number, and the tests
# never run it. Each figure is the median of --runs runs; qsel and ajv (and
# --before) are interleaved run by run so a noisy neighbour hurts them alike.
# Wall time and peak RSS come from /usr/bin/time -f "%e %M". With --before the
# two binaries' `lint --format json` outputs are also compared at every size.
set -euo pipefail
cd "$(dirname "$0")/.."
QSEL=${QSEL:-build/qsel}
BEFORE=""
SRC=.
SIZES="1000 5000 20000 50000"
RUNS=3
AJV=1
while [ $# -gt 0 ]; do
  case "$1" in
    --before) BEFORE=$2; shift 2 ;;
    --src) SRC=$2; shift 2 ;;
    --sizes) SIZES=$2; shift 2 ;;
    --runs) RUNS=$2; shift 2 ;;
    --no-ajv) AJV=0; shift ;;
    --make-corpus) MAKE_N=$2; MAKE_DIR=$3; AJV=0; shift 3 ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "lint_scale: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
[ -n "${MAKE_N:-}" ] || [ -x "$QSEL" ] || { echo "lint_scale: $QSEL not built" >&2; exit 2; }
[ -z "$BEFORE" ] || [ -x "$BEFORE" ] || { echo "lint_scale: --before $BEFORE is not an executable" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "lint_scale: needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
command -v perl >/dev/null || { echo "lint_scale: needs perl" >&2; exit 2; }
[ -d "$SRC/data" ] && [ -d "$SRC/schemas" ] || { echo "lint_scale: $SRC has no data/ and schemas/" >&2; exit 2; }
[ -n "${MAKE_N:-}" ] || QSEL=$(realpath "$QSEL"); [ -z "$BEFORE" ] || BEFORE=$(realpath "$BEFORE")
SRC=$(realpath "$SRC")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ---- ajv-cli 5, in a cache folder ------------------------------------------------
ajv=""
if [ "$AJV" = 1 ]; then
  if command -v node >/dev/null && command -v npm >/dev/null; then
    cache=${QSEL_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/qsel-bench}
    if [ ! -x "$cache/node_modules/.bin/ajv" ] || [ ! -d "$cache/node_modules/ajv-formats" ]; then
      echo "lint_scale: installing ajv-cli@5 and ajv-formats into $cache" >&2
      mkdir -p "$cache"
      npm install --prefix "$cache" --no-audit --no-fund --loglevel=error ajv-cli@5 ajv-formats@2 >&2 ||
        echo "lint_scale: npm install failed; skipping ajv" >&2
    fi
    [ -x "$cache/node_modules/.bin/ajv" ] && ajv="$cache/node_modules/.bin/ajv"
  else
    echo "lint_scale: node/npm not found; skipping the ajv columns" >&2
  fi
fi

# kind (schema file name) and its folder: the schema's "kind" is the singular of the folder
kinds=()
for s in "$SRC"/schemas/*.schema.json; do
  k=$(basename "$s" .schema.json)
  for d in "$SRC"/data/*/; do
    p=$(basename "$d")
    case "$p" in "$k"s|"$k"es|"${k%y}ies") kinds+=("$k:$p") ;; esac
  done
done

# ---- the synthetic corpora ---------------------------------------------------------
# $1 = records wanted, $2 = folder. Copies are written by one perl process: a
# process per file would take longer than the lint it feeds.
make_corpus() {
  cp -r "$SRC/data" "$2"
  local have; have=$(find "$2" -name '*.yaml' | wc -l)
  [ "$1" -gt "$have" ] || return 0
  perl -e '
    use strict; use warnings;
    my ($need, $dir, @src) = @ARGV;
    my (@text, @id, %taken);
    for my $f (@src) {
      open(my $in, "<", $f) or die "$f: $!"; local $/; my $t = <$in>; close $in;
      $t =~ /^id: (\S+)$/m or die "$f: no id line";
      my $id = $1; (my $base = $f) =~ s{.*/}{}; $base =~ s/\.ya?ml$//;
      $id eq $base or die "$f: id $id does not match its file name";
      push @text, $t; push @id, $id;
    }
    my $n = 0;
    for (my $k = 1; $n < $need; ++$k) {
      for my $i (0 .. $#src) {
        last if $n >= $need;
        my $suffix = "-copy$k";
        my $new = substr($id[$i], 0, 80 - length $suffix); $new =~ s/[.-]+$//; $new .= $suffix;
        die "id clash: $new" if $taken{$new}++;
        (my $t = $text[$i]) =~ s/^id: \S+$/id: $new/m;
        (my $out = $src[$i]) =~ s{.*/([^/]+)/[^/]+$}{$dir/$1/$new.yaml};
        open(my $o, ">", $out) or die "$out: $!"; print $o $t; close $o; ++$n;
      }
    }' "$(( $1 - have ))" "$2" "$SRC"/data/benchmarks/*.yaml "$SRC"/data/gotchas/*.yaml
}

if [ -n "${MAKE_N:-}" ]; then
  [ ! -e "$MAKE_DIR" ] || { echo "lint_scale: $MAKE_DIR exists" >&2; exit 2; }
  make_corpus "$MAKE_N" "$MAKE_DIR"
  echo "$(find "$MAKE_DIR" -name '*.yaml' | wc -l) records in $MAKE_DIR"
  exit 0
fi

# ---- measuring ------------------------------------------------------------------
# "seconds peak_KiB" of one run (stdout/stderr discarded, exit status ignored)
measure() {
  /usr/bin/time -f "%e %M" -o "$tmp/time" "$@" >/dev/null 2>&1 || true
  tail -1 "$tmp/time"
}
# all kinds, one ajv process each: "summed seconds max_peak_KiB"
measure_ajv() {
  local corpus=$1 total=0 peak=0 kp k p t m
  for kp in "${kinds[@]}"; do
    k=${kp%%:*}; p=${kp#*:}
    read -r t m < <(measure "$ajv" validate --spec=draft7 --strict=false -c ajv-formats --errors=line \
                      -s "$SRC/schemas/$k.schema.json" -d "$corpus/$p/*.yaml")
    total=$(awk -v a="$total" -v b="$t" 'BEGIN { printf "%.2f", a + b }')
    [ "$m" -gt "$peak" ] && peak=$m
  done
  echo "$total $peak"
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# ajv's verdict on a corpus: how many files it rejected (0 = it agrees every file is valid)
ajv_rejects() {
  local corpus=$1 kp k p bad=0 n
  for kp in "${kinds[@]}"; do
    k=${kp%%:*}; p=${kp#*:}
    n=$("$ajv" validate --spec=draft7 --strict=false -c ajv-formats --errors=line \
          -s "$SRC/schemas/$k.schema.json" -d "$corpus/$p/*.yaml" 2>&1 | grep -c ' invalid' || true)
    bad=$((bad + n))
  done
  echo "$bad"
}

f2() { awk -v a="$1" 'BEGIN { printf "%.2f", a }'; }
div() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else printf "-" }'; }

rows=()
notes=()
for n in $SIZES; do
  corpus="$tmp/c$n"
  make_corpus "$n" "$corpus"
  records=$(find "$corpus" -name '*.yaml' | wc -l)
  bytes=$(find "$corpus" -name '*.yaml' -print0 | du -cb --files0-from=- | tail -1 | cut -f1)
  qt=(); qm=(); bt=(); bm=(); at=(); am=()
  for _ in $(seq "$RUNS"); do
    read -r t m < <(measure "$QSEL" lint "$corpus"); qt+=("$t"); qm+=("$m")
    if [ -n "$BEFORE" ]; then read -r t m < <(measure "$BEFORE" lint "$corpus"); bt+=("$t"); bm+=("$m"); fi
    if [ -n "$ajv" ]; then read -r t m < <(measure_ajv "$corpus"); at+=("$t"); am+=("$m"); fi
  done
  q_s=$(printf '%s\n' "${qt[@]}" | median); q_k=$(printf '%s\n' "${qm[@]}" | median)
  row="$(printf '%6d %7.1f %7s' "$records" "$(div "$bytes" 1048576)" "$(f2 "$q_s")")"
  if [ -n "$BEFORE" ]; then
    b_s=$(printf '%s\n' "${bt[@]}" | median); b_k=$(printf '%s\n' "${bm[@]}" | median)
    row+="$(printf ' %8s' "$(f2 "$b_s")")"
  fi
  if [ -n "$ajv" ]; then
    a_s=$(printf '%s\n' "${at[@]}" | median); a_k=$(printf '%s\n' "${am[@]}" | median)
    row+="$(printf ' %7s %8s' "$(f2 "$a_s")" "$(div "$a_s" "$q_s")")"
    [ -n "$BEFORE" ] && row+="$(printf ' %9s' "$(div "$a_s" "$b_s")")"
  fi
  row+="$(printf ' %9.0f' "$(div "$q_k" 1024)")"
  [ -n "$BEFORE" ] && row+="$(printf ' %10.0f' "$(div "$b_k" 1024)")"
  [ -n "$ajv" ] && row+="$(printf ' %8.0f' "$(div "$a_k" 1024)")"
  row+="$(printf ' %8s' "$(div "$((q_k * 1024))" "$bytes")")"
  [ -n "$BEFORE" ] && row+="$(printf ' %9s' "$(div "$((b_k * 1024))" "$bytes")")"
  rows+=("$row")
  if [ -n "$BEFORE" ]; then
    "$QSEL" lint --format json "$corpus" > "$tmp/after.json" 2>/dev/null || true
    "$BEFORE" lint --format json "$corpus" > "$tmp/before.json" 2>/dev/null || true
    if cmp -s "$tmp/after.json" "$tmp/before.json"; then notes+=("$records records: lint --format json output identical before/after")
    else notes+=("$records records: lint --format json output DIFFERS before/after"); fi
  fi
  if [ -n "$ajv" ] && [ "$n" = "$(echo "$SIZES" | awk '{ print $1 }')" ]; then
    notes+=("ajv rejects $(ajv_rejects "$corpus") of $records files at $records records (qsel: $("$QSEL" lint "$corpus" 2>/dev/null | tail -1))")
  fi
  rm -rf "$corpus"
done

# ---- start-up: the embedded corpus ------------------------------------------------
# median of 10 wall times in ms
startup() {
  local i t0 t1
  for i in $(seq 10); do
    t0=$(date +%s%N); "$@" >/dev/null 2>&1 || true; t1=$(date +%s%N)
    echo $(( (t1 - t0) / 1000 ))
  done | median | awk '{ printf "%.1f", $1 / 1000 }'
}

echo
echo "qsel lint vs ajv-cli 5 (median of $RUNS; times in s, peak RSS in MiB; $(nproc) cores)"
echo "qsel: $QSEL"
[ -n "$BEFORE" ] && echo "before: $BEFORE"
[ -n "$ajv" ] && echo "ajv: ajv-cli $(node -p "require('$cache/node_modules/ajv-cli/package.json').version"), one process per kind, times summed"
hdr="$(printf '%6s %7s %7s' records "MB" "qsel s")"
[ -n "$BEFORE" ] && hdr+="$(printf ' %8s' "before s")"
[ -n "$ajv" ] && hdr+="$(printf ' %7s %8s' "ajv s" "ajv/qsel")"
[ -n "$ajv" ] && [ -n "$BEFORE" ] && hdr+="$(printf ' %9s' "ajv/before")"
hdr+="$(printf ' %9s' "qsel MiB")"
[ -n "$BEFORE" ] && hdr+="$(printf ' %10s' "before MiB")"
[ -n "$ajv" ] && hdr+="$(printf ' %8s' "ajv MiB")"
hdr+="$(printf ' %8s' "RSS/size")"
[ -n "$BEFORE" ] && hdr+="$(printf ' %9s' "before R/S")"
echo "$hdr"
printf '%s\n' "${rows[@]}"
for note in "${notes[@]}"; do echo "  $note"; done
v=$(startup "$QSEL" --version); r=$(startup "$QSEL" recommend --gpu h100 --model-size 70b)
echo "start-up (median of 10, ms): --version $v, recommend --gpu h100 --model-size 70b $r: $(div "$r" "$v")x"
if [ -n "$BEFORE" ]; then
  v=$(startup "$BEFORE" --version); r=$(startup "$BEFORE" recommend --gpu h100 --model-size 70b)
  echo "start-up before (ms): --version $v, recommend $r: $(div "$r" "$v")x"
fi
