// RMSnorm, one warp per 128-wide row, 4 elements per lane (nvcc -O3 and
// -G): y[r, i] = x[r, i] * rsqrt(mean_j x[r, j]^2 + eps) * w[i], the sum of
// squares by xor shuffles, the weights loaded interleaved with the stores
// to y. Index terms are read as exact linear forms within the launch
// bounds (bfi(row, lane, 7, 25) = 128 row + lane), the sum of squares a
// reduction over the warp's lanes in lane order (the butterfly read as a
// whole: the value closes in the normal form for a symbolic lane; it was
// split over the 32 lanes of tid.x), and the layout inverted with the lane, the warp and the store counter
// as mixed-radix digits. The planted bug reads the weight of the next
// column block: REFUTED, confirmed by replay.
// RUN: split-file %s %t
// RUN: kproof-opt %inputs/cuda/ptx/memory_layouts.sm80.O3.ptx --verify-equiv --contract=%t/rms.mlir | FileCheck %s --check-prefix=RMS
// RUN: kproof-opt %inputs/cuda/ptx/memory_layouts.sm90.G.ptx --verify-equiv --contract=%t/rms.mlir | FileCheck %s --check-prefix=RMS
// RUN: kproof-opt %inputs/cuda/ptx/memory_layouts.sm80.O3.ptx --verify-equiv --contract=%t/rms.mlir --format=json | FileCheck %s --check-prefix=JSON
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/memory_layouts.sm80.O3.ptx --verify-equiv --contract=%t/rms-bug.mlir 2>&1 | FileCheck %s --check-prefix=BUG
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/memory_layouts.sm90.G.ptx --verify-equiv --contract=%t/rms-bug.mlir 2>&1 | FileCheck %s --check-prefix=BUG
// With 8 elements per lane (rmsnorm_warp8, rows of 256: the same
// contracts with every 128 widened to 256), PROVED at -O3 and -G, its twin
// (the weight of the next column block) REFUTED and replayed.
// RUN: sed 's/128/256/g; s/"rmsnorm_warp4"/"rmsnorm_warp8"/' %t/rms.mlir > %t/rms8.mlir
// RUN: sed 's/"rmsnorm_warp8"/"rmsnorm_warp8_bug"/' %t/rms8.mlir > %t/rms8-bug.mlir
// RUN: kproof-opt %inputs/cuda/ptx/memory_layouts.sm80.O3.ptx --verify-equiv --contract=%t/rms8.mlir | FileCheck %s --check-prefix=RMS8
// RUN: kproof-opt %inputs/cuda/ptx/memory_layouts.sm90.G.ptx --verify-equiv --contract=%t/rms8.mlir | FileCheck %s --check-prefix=RMS8
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/memory_layouts.sm80.O3.ptx --verify-equiv --contract=%t/rms8-bug.mlir 2>&1 | FileCheck %s --check-prefix=BUG8
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/memory_layouts.sm90.G.ptx --verify-equiv --contract=%t/rms8-bug.mlir 2>&1 | FileCheck %s --check-prefix=BUG8

// RMS: kproof: rmsnorm_warp4 against @rmsnorm(x, w, eps) -> y
// RMS-NOT: UNKNOWN
// RMS: {{^}}PROVED

// JSON-NOT: cases over the lane
// The four stores of a lane are one store at a column k (proved once).
// JSON: "name": "value y[i] written by the representative thread (stores 1-4 of 4, from {{.*}}, as one store at a column k < 4)"
// JSON: "how": "z3 (unsat) with witness tid.x%32 = (e - 0) / 1 % 32, store.k0 = (e - 0) / 32 % 4, tid.x/32 = (e - 0) / 128 % 2, ctaid.x = (e - 0) / 256 % 2",
// JSON-NEXT: "name": "coverage: every element of 'y' is written",

// RMS8: kproof: rmsnorm_warp8 against @rmsnorm(x, w, eps) -> y
// RMS8: buffers: x in f32[4, 256], w in f32[256], y out f32[4, 256]
// RMS8-NOT: UNKNOWN
// RMS8: {{^}}PROVED

// BUG8: kproof: rmsnorm_warp8_bug against @rmsnorm(x, w, eps) -> y
// BUG8: REFUTED: value y[i] written by the representative thread (store 1 of 8, {{.*}} -- counterexample confirmed
// BUG8: Replay: confirmed by replay ({{[^)]*}}): kernel {{[a-z_]+}}[{{[0-9]+}}] = {{-?[0-9.e+-]+}}, spec = {{-?[0-9.e+-]+}}
// BUG8: {{^}}REFUTED

// BUG: REFUTED: value y[i] written by the representative thread (store 1 of 4, {{.*}} -- counterexample confirmed
// BUG: Replay: confirmed by replay ({{[^)]*}}): kernel {{[a-z_]+}}[{{[0-9]+}}] = {{-?[0-9.e+-]+}}, spec = {{-?[0-9.e+-]+}}
// BUG: {{^}}REFUTED

//--- rms.mlir
#id2 = affine_map<(r, i) -> (r, i)>
#row = affine_map<(r, i) -> (r)>
#col = affine_map<(r, i) -> (i)>
func.func @rmsnorm(%x: tensor<4x128xf32>, %w: tensor<128xf32>, %eps: f32) -> tensor<4x128xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 128.0 : f32
  %e1 = tensor.empty() : tensor<4xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %ss = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x128xf32>) outs(%s0 : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %v = arith.addf %acc, %sq : f32
    linalg.yield %v : f32
  } -> tensor<4xf32>
  %e = tensor.empty() : tensor<4x128xf32>
  %y = linalg.generic {indexing_maps = [#id2, #row, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ss, %w : tensor<4x128xf32>, tensor<4xf32>, tensor<128xf32>) outs(%e : tensor<4x128xf32>) {
  ^bb0(%a: f32, %s: f32, %wi: f32, %o: f32):
    %mean = arith.divf %s, %n : f32
    %me = arith.addf %mean, %eps : f32
    %r = math.rsqrt %me : f32
    %xr = arith.mulf %a, %r : f32
    %v = arith.mulf %xr, %wi : f32
    linalg.yield %v : f32
  } -> tensor<4x128xf32>
  return %y : tensor<4x128xf32>
}
kproof.contract @rms {kernel = "rmsnorm_warp4",
  grid = array<i64: 2, 1, 1>, block = array<i64: 64, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4, 128>},
            {name = "w", buffer = "in", space = "global", type = f32, shape = array<i64: 128>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 4, 128>},
            {name = "eps", scalar = f32, value = 1.0e-05 : f32}],
  spec = {func = @rmsnorm, inputs = ["x", "w", "eps"], output = "y"}, mode = "reals"}

//--- rms-bug.mlir
#id2 = affine_map<(r, i) -> (r, i)>
#row = affine_map<(r, i) -> (r)>
#col = affine_map<(r, i) -> (i)>
func.func @rmsnorm(%x: tensor<4x128xf32>, %w: tensor<128xf32>, %eps: f32) -> tensor<4x128xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 128.0 : f32
  %e1 = tensor.empty() : tensor<4xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %ss = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x128xf32>) outs(%s0 : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %v = arith.addf %acc, %sq : f32
    linalg.yield %v : f32
  } -> tensor<4xf32>
  %e = tensor.empty() : tensor<4x128xf32>
  %y = linalg.generic {indexing_maps = [#id2, #row, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ss, %w : tensor<4x128xf32>, tensor<4xf32>, tensor<128xf32>) outs(%e : tensor<4x128xf32>) {
  ^bb0(%a: f32, %s: f32, %wi: f32, %o: f32):
    %mean = arith.divf %s, %n : f32
    %me = arith.addf %mean, %eps : f32
    %r = math.rsqrt %me : f32
    %xr = arith.mulf %a, %r : f32
    %v = arith.mulf %xr, %wi : f32
    linalg.yield %v : f32
  } -> tensor<4x128xf32>
  return %y : tensor<4x128xf32>
}
kproof.contract @rms {kernel = "rmsnorm_warp4_bug",
  grid = array<i64: 2, 1, 1>, block = array<i64: 64, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4, 128>},
            {name = "w", buffer = "in", space = "global", type = f32, shape = array<i64: 128>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 4, 128>},
            {name = "eps", scalar = f32, value = 1.0e-05 : f32}],
  spec = {func = @rmsnorm, inputs = ["x", "w", "eps"], output = "y"}, mode = "reals"}
