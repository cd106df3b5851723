#!/usr/bin/env bash
# FlashAttention-2-style forward pass (test/Inputs/cuda/flash_fwd.cu, nvcc
# -O3 -lineinfo sm_80): --verify-equiv against naive attention at head
# dimension D = 16, 64 and 128, one thread per query row, key tiles of 16
# through shared memory; n = 16 (one tile, one CTA) and n = 32 (two tiles,
# two CTAs), and the planted bugs at D = 16; then the causal variant
# (flash_causal_*: keys j <= q + off, off = 4, whole tiles above the
# diagonal skipped) against the causal spec. Wall time, peak memory and
# verdict of one run each, under a time limit (default 300 s).
# Usage:
#   bench/flash-fwd.sh [BUILD_DIR]        (default: build)
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
opt=$build/bin/kproof-opt
limit=${LIMIT:-300}
[ -x "$opt" ] || { echo "build kproof-opt first: cmake --build $build --target kproof-opt" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ptx=test/Inputs/cuda/ptx/flash_fwd.sm80.O3.ptx
source bench/measure.sh
# contract FILE KERNEL N D CTAS [causal|lse]: against naive attention, or
# with the causal mask j <= q + off (off = 4; L is not written by these
# kernels), or (lse) causal with the logsumexp L as a second output.
contract() {
  local extra="" offparam="" mask='mask = "none"' role=in
  if [ "${6:-}" = causal ] || [ "${6:-}" = lse ]; then
    [ "${6:-}" = lse ] && role=out
    extra='
    {name = "L", buffer = "'$role'", type = f32, shape = array<i64: '"$3"'>},'
    offparam='
    {name = "off", scalar = i32, value = 4 : i32},'
    mask='mask = "causal", offset = "off"'
    [ "${6:-}" = lse ] && mask="$mask"', lse = "L"'
  fi
  cat > "$1" <<EOC
kproof.contract @flash {
  kernel = "$2", grid = array<i64: $5, 1, 1>, block = array<i64: 16, 1, 1>,
  params = [
    {name = "Q", buffer = "in", type = f32, shape = array<i64: $3, $4>},
    {name = "K", buffer = "in", type = f32, shape = array<i64: $3, $4>},
    {name = "V", buffer = "in", type = f32, shape = array<i64: $3, $4>},
    {name = "O", buffer = "out", type = f32, shape = array<i64: $3, $4>},$extra
    {name = "n", scalar = i32, value = $3 : i32},$offparam
    {name = "scale", scalar = f32, value = 0.125 : f32}
  ],
  spec = {builtin = "attention", q = "Q", k = "K", v = "V", output = "O",
          scale = 0.125 : f32, $mask}
}
EOC
}
printf '%-28s %-4s %-4s %-9s %9s %10s\n' kernel D n verdict seconds "peak MiB"
for spec in "flash_fwd_d16 16 16 1" "flash_fwd_d16 16 32 2" "flash_fwd_d16 16 24 2" \
            "flash_fwd_d64 64 16 1" "flash_fwd_d64 64 32 2" \
            "flash_fwd_d128 128 16 1" \
            "flash_fwd_no_l_rescale 16 32 2" "flash_fwd_no_acc_rescale 16 32 2" \
            "flash_fwd_mask_le 16 24 2" "flash_fwd_no_normalize 16 32 2"; do
  set -- $spec
  contract "$tmp/c.mlir" "$1" "$3" "$2" "$4"
  measure "$ptx" "$tmp/c.mlir" --verify-equiv
  printf '%-28s %-4s %-4s %-9s %9s %10s\n' "$1" "$2" "$3" "$VERDICT" "$SECS" "$MIB"
done
for spec in "flash_causal_d16 16 32 2" "flash_causal_d16 16 48 3" \
            "flash_causal_d64 64 32 2" "flash_causal_d128 128 16 1" \
            "flash_causal_mask_lt 16 32 2" "flash_causal_skip_floor 16 32 2" \
            "flash_causal_scale_twice 16 32 2"; do
  set -- $spec
  contract "$tmp/c.mlir" "$1" "$3" "$2" "$4" causal
  measure "$ptx" "$tmp/c.mlir" --verify-equiv
  printf '%-28s %-4s %-4s %-9s %9s %10s\n' "$1" "$2" "$3" "$VERDICT" "$SECS" "$MIB"
done
# The logsumexp as a second output (O and L against one spec).
for spec in "flash_causal_lse_d16 16 32 2" "flash_causal_lse_no_max 16 32 2"; do
  set -- $spec
  contract "$tmp/c.mlir" "$1" "$3" "$2" "$4" lse
  measure "$ptx" "$tmp/c.mlir" --verify-equiv
  printf '%-28s %-4s %-4s %-9s %9s %10s\n' "$1" "$2" "$3" "$VERDICT" "$SECS" "$MIB"
done
