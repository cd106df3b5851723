// The tiled-attention fixture of attention-tiled.mlir (same contracts) as
// nvcc -G compiles it for sm_90: every intermediate through local memory,
// no unrolling. The full and the partial last tile PROVED; the twin that
// admits the padding key j = n REFUTED, confirmed by replay. (A separate
// file so that lit runs it beside the -O3 runs: about 15 s each.)
// RUN: split-file %S/attention-tiled.mlir %t
// RUN: kproof-opt %inputs/cuda/ptx/attention_tiled.sm90.G.ptx --verify-equiv --contract=%t/full.mlir | FileCheck %s --check-prefix=FULL
// RUN: kproof-opt %inputs/cuda/ptx/attention_tiled.sm90.G.ptx --verify-equiv --contract=%t/partial.mlir | FileCheck %s --check-prefix=PARTIAL
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/attention_tiled.sm90.G.ptx --verify-equiv --contract=%t/mask-bug.mlir 2>&1 | FileCheck %s --check-prefix=BUG

// FULL: kproof: attention_tiled_fwd against attention
// FULL-NOT: UNKNOWN
// FULL: {{^}}PROVED

// PARTIAL-NOT: UNKNOWN
// PARTIAL: {{^}}PROVED

// BUG: REFUTED: value mismatch at O[{{[0-9]+}}, {{[0-9]+}}] (row-major {{[0-9]+}})
// BUG: Replay: confirmed by replay ({{[^)]*}}): kernel O[{{[0-9]+}}] = {{[^,]+}}, spec = {{.+}}
// BUG: {{^}}REFUTED
