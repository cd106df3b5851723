// Layer norm with 8 elements per lane: one warp per 256-wide row
// (layernorm_warp8, nvcc -O3 and -G), the contracts of
// memory-layernorm.mlir widened to rows of 256 (every 128 there, the row
// length and the spec's divisor, becomes 256). PROVED lane by lane; the
// planted bug adds the bias of the next column block: REFUTED at the first
// store (-G; -O3 in the bench), confirmed by replay. About 20 s and 1.8 GiB each: the variance's
// normal form has (8 x 32)^2 cross terms per lane before it closes.
// RUN: split-file %S/memory-layernorm.mlir %t
// RUN: sed 's/128/256/g; s/"layernorm_warp4"/"layernorm_warp8"/' %t/ln.mlir > %t/ln8.mlir
// RUN: sed 's/"layernorm_warp8"/"layernorm_warp8_bug"/' %t/ln8.mlir > %t/ln8-bug.mlir
// RUN: kproof-opt %inputs/cuda/ptx/memory_layouts.sm80.O3.ptx --verify-equiv --contract=%t/ln8.mlir | FileCheck %s
// RUN: kproof-opt %inputs/cuda/ptx/memory_layouts.sm90.G.ptx --verify-equiv --contract=%t/ln8.mlir | FileCheck %s
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/memory_layouts.sm90.G.ptx --verify-equiv --contract=%t/ln8-bug.mlir 2>&1 | FileCheck %s --check-prefix=BUG

// CHECK: kproof: layernorm_warp8 against @layernorm(x, w, b, eps) -> y
// CHECK: buffers: x in f32[4, 256], w in f32[256], b in f32[256], y out f32[4, 256]
// CHECK-NOT: UNKNOWN
// CHECK: {{^}}PROVED

// BUG: error: REFUTED: value mismatch at y[
// BUG: kproof: layernorm_warp8_bug against @layernorm(x, w, b, eps) -> y
// BUG: REFUTED: value y[i] written by the representative thread (store 1 of 8
// BUG: Replay: confirmed by replay ({{[^)]*}}): kernel {{[a-z_]+}}[{{[0-9]+}}] = {{-?[0-9.e+-]+}}, spec = {{-?[0-9.e+-]+}}
// BUG: {{^}}REFUTED
