#!/usr/bin/env bash
# Build the PTX front-end fuzzers with clang (libFuzzer + ASan + UBSan) and run
# a bounded fuzzing session over a seed corpus made from the PTX fixtures.
#
#   scripts/fuzz-ptx.sh [SECONDS] [parser|import|all]
#
# SECONDS (default 60) is the total fuzzing time; with `all` (the default) it
# is split evenly between ptx-parser-fuzzer and ptx-import-fuzzer. Exit status
# is 0 if no crash was found, 1 if a fuzzer found a crash (reproducer saved
# under fuzz/crashes/), 2 on a setup or build error. See docs/Fuzzing.md.
#
# Environment:
#   KPROOF_FUZZ_BUILD   build directory        (default: <repo>/build-fuzz)
#   KPROOF_FUZZ_CC/CXX  compilers              (default: clang-14/clang++-14)
#   KPROOF_FUZZ_ARGS    extra libFuzzer flags  (e.g. "-jobs=2 -workers=2")
#   KPROOF_FUZZ_CMAKE_ARGS  extra CMake flags for a new build dir
#                       (e.g. "-DKPROOF_FUZZ_ASSERTIONS=OFF")
set -euo pipefail

SECONDS_TOTAL=${1:-60}
WHICH=${2:-all}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${KPROOF_FUZZ_BUILD:-$ROOT/build-fuzz}
CC_BIN=${KPROOF_FUZZ_CC:-clang-14}
CXX_BIN=${KPROOF_FUZZ_CXX:-clang++-14}
CRASHES=$ROOT/fuzz/crashes

die() { echo "fuzz-ptx: $*" >&2; exit 2; }

[[ $SECONDS_TOTAL =~ ^[0-9]+$ && $SECONDS_TOTAL -gt 0 ]] ||
  die "SECONDS must be a positive integer, got '$SECONDS_TOTAL'"
case $WHICH in
  parser) TARGETS=(ptx-parser-fuzzer) ;;
  import) TARGETS=(ptx-import-fuzzer) ;;
  all) TARGETS=(ptx-parser-fuzzer ptx-import-fuzzer) ;;
  *) die "unknown target set '$WHICH' (parser, import or all)" ;;
esac
command -v "$CXX_BIN" >/dev/null ||
  die "$CXX_BIN not found: apt-get install -y clang-14 libclang-rt-14-dev"

# 1. Configure (when the build dir is new or not a fuzz build; afterwards
#    ninja re-runs CMake by itself when a CMakeLists.txt changes) and build.
if ! grep -qs '^KPROOF_ENABLE_FUZZERS:BOOL=ON' "$BUILD/CMakeCache.txt"; then
  mkdir -p "$BUILD"
  # shellcheck disable=SC2086 # KPROOF_FUZZ_CMAKE_ARGS is a list of flags
  cmake -S "$ROOT" -B "$BUILD" -G Ninja \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER="$CC_BIN" -DCMAKE_CXX_COMPILER="$CXX_BIN" \
    -DKPROOF_ENABLE_FUZZERS=ON -DKPROOF_ENABLE_GTEST=OFF \
    -DKPROOF_ENABLE_BENCH=OFF ${KPROOF_FUZZ_CMAKE_ARGS:-} >"$BUILD/configure.log" 2>&1 ||
    { cat "$BUILD/configure.log" >&2; die "cmake configure failed"; }
fi
cmake --build "$BUILD" --target "${TARGETS[@]}" || die "build failed"

# 2. Seed corpus: the PTX fixtures, copied fresh on every run. Each fuzzer
#    keeps what it discovers in its own working corpus across runs.
SEEDS=$BUILD/fuzz-corpus/seeds
rm -rf "$SEEDS"
mkdir -p "$SEEDS" "$CRASHES"
for f in "$ROOT"/test/Inputs/cuda/ptx/*.ptx "$ROOT"/test/Inputs/triton/ptx/*.ptx; do
  cp "$f" "$SEEDS/$(basename "$(dirname "$(dirname "$f")")")-$(basename "$f")"
done
echo "fuzz-ptx: $(find "$SEEDS" -type f | wc -l) seed inputs in $SEEDS"

# 3. Run each fuzzer for its share of the time.
PER=$(( SECONDS_TOTAL / ${#TARGETS[@]} ))
(( PER > 0 )) || PER=1
status=0
for t in "${TARGETS[@]}"; do
  corpus=$BUILD/fuzz-corpus/$t
  log=$BUILD/fuzz-corpus/$t.log
  mkdir -p "$corpus"
  echo "fuzz-ptx: running $t for ${PER}s (log: $log)"
  set +e
  # shellcheck disable=SC2086
  ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0} \
  UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
    "$BUILD/bin/$t" \
      -max_total_time="$PER" -max_len=65536 -timeout=25 -rss_limit_mb=4096 \
      -dict="$ROOT/fuzz/ptx.dict" -print_final_stats=1 \
      -artifact_prefix="$CRASHES/$t-" \
      ${KPROOF_FUZZ_ARGS:-} \
      "$corpus" "$SEEDS" 2>&1 | tee "$log" | grep -E '^#[0-9]+[[:space:]]+(INITED|DONE)|ERROR|WARNING|SUMMARY|Test unit written|^stat::|kproof-fuzz'
  rc=${PIPESTATUS[0]}
  set -e
  if (( rc != 0 )); then
    echo "fuzz-ptx: $t FAILED (exit $rc); reproducer(s) in $CRASHES, full log in $log" >&2
    status=1
  else
    echo "fuzz-ptx: $t: no crash in ${PER}s"
  fi
done
exit $status
