#!/usr/bin/env bash
# The differential harness's release run (docs/benchmarks.md): random PTX
# programs, the executor's terms against the interpreter's exact execution.
# Usage: bench/differential.sh [BUILD_DIR] [COUNT]   (default: build 5000)
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
count=${2:-5000}
tool=$build/bin/kproof-difftest
[ -x "$tool" ] || { echo "build it first: cmake --build $build --target kproof-difftest" >&2; exit 2; }
start=$(date +%s.%N)
"$tool" --seed=1 --count="$count" --samples=4 --keep=/tmp/kproof-difftest -v
rc=$?
end=$(date +%s.%N)
printf 'wall %.1f s\n' "$(echo "$end - $start" | bc)"
exit $rc
