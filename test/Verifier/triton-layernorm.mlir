// Triton's layer norm forward (test/Inputs/triton/kernels.py,
// layernorm_fwd_kernel, BLOCK = 1024, four warps, compiled for sm_90a):
// one program per row, masked loads with other = 0, the mean and the
// variance as two block reductions (butterfly shuffles, then one partial
// per warp through shared memory), and three outputs: y, and the row's
// mean and rstd. One func.func spec with three results defines all three
// (`outputs = ["y", "mean", "rstd"]`). Rows of 8 and of 64 columns (the
// rest of the 1024-wide block masked) PROVED, 2 rows. The twin passes
// n_cols = 7 for rows of 8: the last column is neither in the statistics
// nor written, REFUTED (y, mean and rstd differ; y[.., 7] is never
// written), confirmed by replay. `tolerate_equal_writes`: Triton's block
// reduction has every lane of a warp store the warp's partial to one
// shared slot (equal values, a write-write race the PTX memory model does
// not excuse); without it the contract is REFUTED at that store.
// RUN: split-file %s %t
// RUN: kproof-opt %inputs/triton/ptx/layernorm_fwd.sm90.ptx --verify-equiv --contract=%t/ln.mlir | FileCheck %s
// RUN: sed 's/2x8x/2x64x/g; s/tensor<8x/tensor<64x/g; s/8.0 : f32/64.0 : f32/; s/array<i64: 2, 8>/array<i64: 2, 64>/g; s/array<i64: 8>/array<i64: 64>/g; s/value = 8 : i32/value = 64 : i32/g' %t/ln.mlir > %t/ln64.mlir
// RUN: kproof-opt %inputs/triton/ptx/layernorm_fwd.sm90.ptx --verify-equiv --contract=%t/ln64.mlir | FileCheck %s --check-prefix=LN64
// RUN: sed 's/{name = "n_cols", scalar = i32, value = 8 : i32}/{name = "n_cols", scalar = i32, value = 7 : i32}/' %t/ln.mlir > %t/ln-bug.mlir
// RUN: %expect_exit 1 kproof-opt %inputs/triton/ptx/layernorm_fwd.sm90.ptx --verify-equiv --contract=%t/ln-bug.mlir 2>&1 | FileCheck %s --check-prefix=BUG

// CHECK: kproof: layernorm_fwd_kernel against @layernorm(x, w, b, eps) -> y; @layernorm(x, w, b, eps) -> mean; @layernorm(x, w, b, eps) -> rstd
// CHECK: buffers: x in f32[2, 8], y out f32[2, 8], w in f32[8], b in f32[8], mean out f32[2], rstd out f32[2]
// CHECK-NOT: UNKNOWN
// CHECK: {{^}}PROVED

// LN64: buffers: x in f32[2, 64], y out f32[2, 64]
// LN64-NOT: UNKNOWN
// LN64: {{^}}PROVED

// BUG: error: REFUTED: value mismatch at y[
// BUG: error: REFUTED: value mismatch at mean[
// BUG: error: REFUTED: value mismatch at rstd[
// BUG: error: REFUTED: coverage: no thread writes y[{{[01]}}, 7]
// BUG: Replay: confirmed by replay (IEEE f32): kernel y[{{[0-9]+}}] = {{-?[0-9.e+-]+}}, spec = {{-?[0-9.e+-]+}}
// BUG: {{^}}REFUTED

//--- ln.mlir
#id2 = affine_map<(r, i) -> (r, i)>
#row = affine_map<(r, i) -> (r)>
#col = affine_map<(r, i) -> (i)>
#r1 = affine_map<(r) -> (r)>
func.func @layernorm(%x: tensor<2x8xf32>, %w: tensor<8xf32>, %b: tensor<8xf32>, %eps: f32)
    -> (tensor<2x8xf32>, tensor<2xf32>, tensor<2xf32>) {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 8.0 : f32
  %e1 = tensor.empty() : tensor<2xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2xf32>) -> tensor<2xf32>
  %sum = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<2x8xf32>) outs(%s0 : tensor<2xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %v = arith.addf %acc, %a : f32
    linalg.yield %v : f32
  } -> tensor<2xf32>
  %mean = linalg.generic {indexing_maps = [#r1, #r1], iterator_types = ["parallel"]}
      ins(%sum : tensor<2xf32>) outs(%e1 : tensor<2xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.divf %a, %n : f32
    linalg.yield %v : f32
  } -> tensor<2xf32>
  %var = linalg.generic {indexing_maps = [#id2, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %mean : tensor<2x8xf32>, tensor<2xf32>) outs(%s0 : tensor<2xf32>) {
  ^bb0(%a: f32, %m: f32, %acc: f32):
    %d = arith.subf %a, %m : f32
    %sq = arith.mulf %d, %d : f32
    %v = arith.addf %acc, %sq : f32
    linalg.yield %v : f32
  } -> tensor<2xf32>
  %rstd = linalg.generic {indexing_maps = [#r1, #r1], iterator_types = ["parallel"]}
      ins(%var : tensor<2xf32>) outs(%e1 : tensor<2xf32>) {
  ^bb0(%q: f32, %o: f32):
    %vq = arith.divf %q, %n : f32
    %ve = arith.addf %vq, %eps : f32
    %r = math.rsqrt %ve : f32
    linalg.yield %r : f32
  } -> tensor<2xf32>
  %e = tensor.empty() : tensor<2x8xf32>
  %y = linalg.generic {indexing_maps = [#id2, #row, #row, #col, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean, %rstd, %w, %b : tensor<2x8xf32>, tensor<2xf32>, tensor<2xf32>, tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<2x8xf32>) {
  ^bb0(%a: f32, %m: f32, %r: f32, %wi: f32, %bi: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %t = arith.mulf %d, %r : f32
    %tw = arith.mulf %t, %wi : f32
    %v = arith.addf %tw, %bi : f32
    linalg.yield %v : f32
  } -> tensor<2x8xf32>
  return %y, %mean, %rstd : tensor<2x8xf32>, tensor<2xf32>, tensor<2xf32>
}
kproof.contract @tln {kernel = "layernorm_fwd_kernel",
  grid = array<i64: 2, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 2, 8>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 2, 8>},
            {name = "w", buffer = "in", space = "global", type = f32, shape = array<i64: 8>},
            {name = "b", buffer = "in", space = "global", type = f32, shape = array<i64: 8>},
            {name = "mean", buffer = "out", space = "global", type = f32, shape = array<i64: 2>},
            {name = "rstd", buffer = "out", space = "global", type = f32, shape = array<i64: 2>},
            {name = "row_stride", scalar = i32, value = 8 : i32},
            {name = "n_cols", scalar = i32, value = 8 : i32},
            {name = "eps", scalar = f32, value = 1.0e-05 : f32},
            {name = "global_scratch", scalar = i64, value = 0 : i64},
            {name = "profile_scratch", scalar = i64, value = 0 : i64}],
  dynamic_shared = 16,
  tolerate_equal_writes = true,
  spec = {func = @layernorm, inputs = ["x", "w", "b", "eps"], outputs = ["y", "mean", "rstd"]}}
