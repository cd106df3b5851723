#!/usr/bin/env bash
# PTX import throughput and peak memory (docs/benchmarks.md, "PTX import").
#
#   bench/import-throughput.sh [BUILD_DIR]
#
# Builds kproof-bench-import and kproof-opt in BUILD_DIR (default
# <repo>/build-bench, configured as a g++ Release build if new), then measures
# on (1) the largest PTX fixture and (2) a synthetic ~MB-megabyte module
# generated at run time from it (bench/make-large-ptx.py; not committed):
#
#   parse    lexer + parser only                 (kproof-bench-import --mode=parse)
#   import   parser + importer, verified IR      (kproof-bench-import --mode=import)
#   read     loading the file only: the memory baseline of the process
#   opt      kproof-opt FILE -o /dev/null: import + verify + print, end to end
#
# Times are the median of REPS repetitions (in one process for parse/import,
# REPS processes for opt); MB/s uses MB = 10^6 bytes of PTX text. Peak memory
# is the process's maximum RSS as reported by /usr/bin/time -v.
#
# Environment: REPS (default 5), MB (synthetic size, default 15),
#              FIXTURE (default: the largest test/Inputs/*/ptx/*.ptx).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${1:-$ROOT/build-bench}
REPS=${REPS:-5}
MB=${MB:-15}
TIME=/usr/bin/time

[[ -x $TIME ]] || { echo "import-throughput: $TIME missing (apt-get install -y time)" >&2; exit 2; }

if [[ ! -f $BUILD/CMakeCache.txt ]]; then
  cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DKPROOF_ENABLE_BENCH=ON >/dev/null
fi
cmake --build "$BUILD" --target kproof-bench-import kproof-opt >/dev/null

# shellcheck disable=SC2012 # fixture names are plain
FIXTURE=${FIXTURE:-$(ls -S "$ROOT"/test/Inputs/*/ptx/*.ptx | head -1)}
LARGE=$BUILD/bench/large.ptx
mkdir -p "$BUILD/bench"
python3 "$ROOT/bench/make-large-ptx.py" "$FIXTURE" "$LARGE" --mb "$MB" >&2

BENCH=$BUILD/bin/kproof-bench-import
OPT=$BUILD/bin/kproof-opt

# Maximum RSS in MiB from a /usr/bin/time -v log.
rss_mib() { awk -F': ' '/Maximum resident set size/ { printf "%.1f", $2 / 1024 }' "$1"; }

median() { sort -g | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

echo "machine: $(nproc) cores, $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "commit: $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$ROOT" diff --quiet 2>/dev/null || echo ' (+ uncommitted changes)')"
echo "reps: $REPS"
printf '\n| input | size (MB) | mode | median time (s) | min-max (s) | throughput (MB/s) | peak RSS (MiB) |\n'
printf '|---|---|---|---|---|---|---|\n'

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for input in "$FIXTURE" "$LARGE"; do
  name=$(basename "$input")
  [[ $input == "$LARGE" ]] && name="synthetic ($name, from $(basename "$FIXTURE"))"
  bytes=$(stat -c %s "$input")
  size=$(awk -v b="$bytes" 'BEGIN { printf "%.3f", b / 1e6 }')

  for mode in read parse import; do
    reps=$REPS
    [[ $mode == read ]] && reps=1
    "$TIME" -v -o "$tmp/time" "$BENCH" --mode=$mode --repeat="$reps" --quiet "$input" >"$tmp/out"
    line=$(cat "$tmp/out")
    get() { sed -n "s/.* $1=\\([^ ]*\\).*/\\1/p" <<<"$line"; }
    if [[ $mode == read ]]; then
      printf '| %s | %s | %s | - | - | - | %s |\n' "$name" "$size" "read (baseline)" "$(rss_mib "$tmp/time")"
    else
      printf '| %s | %s | %s | %s | %s-%s | %s | %s |\n' "$name" "$size" "$mode" \
        "$(get median_s)" "$(get min_s)" "$(get max_s)" "$(get median_MBps)" "$(rss_mib "$tmp/time")"
    fi
  done

  # End to end through the driver, one process per repetition.
  : >"$tmp/walls"
  peak=0
  for ((i = 0; i < REPS; i++)); do
    # Wall time in ns around the run (time -v itself rounds to 10 ms).
    t0=$(date +%s%N)
    "$TIME" -v -o "$tmp/time" "$OPT" "$input" -o /dev/null 2>"$tmp/err" ||
      { cat "$tmp/err" >&2; echo "import-throughput: kproof-opt failed on $input" >&2; exit 1; }
    t1=$(date +%s%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f\n", (b - a) / 1e9 }' >>"$tmp/walls"
    r=$(rss_mib "$tmp/time")
    peak=$(awk -v a="$peak" -v b="$r" 'BEGIN { print (b > a) ? b : a }')
  done
  wall=$(median <"$tmp/walls")
  lo=$(sort -g "$tmp/walls" | head -1)
  hi=$(sort -g "$tmp/walls" | tail -1)
  printf '| %s | %s | %s | %s | %s-%s | %s | %s |\n' "$name" "$size" "kproof-opt (import+verify+print, wall)" \
    "$wall" "$lo" "$hi" "$(awk -v b="$bytes" -v s="$wall" 'BEGIN { printf "%.2f", (s > 0 ? b / 1e6 / s : 0) }')" "$peak"
done
