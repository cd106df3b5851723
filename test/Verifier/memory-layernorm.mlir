// Layer norm, one warp per 128-wide row, 4 elements per lane (nvcc -O3 and
// -G): mean and variance by xor shuffles, y = (x - mean) * rsqrt(var + eps)
// * w + b (8 elements per lane: memory-layernorm8.mlir). PROVED lane by lane (the variance's normal form has about 8k
// monomials per lane). The planted bug adds the bias of the next column
// block: REFUTED at the first store (-O3 and -G), confirmed by replay; the thread's
// other stores are then not checked (one counterexample is enough).
// RUN: split-file %s %t
// RUN: kproof-opt %inputs/cuda/ptx/memory_layouts.sm80.O3.ptx --verify-equiv --contract=%t/ln.mlir | FileCheck %s
// RUN: kproof-opt %inputs/cuda/ptx/memory_layouts.sm90.G.ptx --verify-equiv --contract=%t/ln.mlir | FileCheck %s
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/memory_layouts.sm80.O3.ptx --verify-equiv --contract=%t/ln-bug.mlir 2>&1 | FileCheck %s --check-prefix=BUG
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/memory_layouts.sm90.G.ptx --verify-equiv --contract=%t/ln-bug.mlir 2>&1 | FileCheck %s --check-prefix=BUG

// BUG: error: REFUTED: value mismatch at y[
// BUG: REFUTED: value y[i] written by the representative thread (store 1 of 4
// BUG: UNKNOWN: value y[i] written by the representative thread (store 2 of 4) -- not checked: store 1 of this thread is REFUTED
// BUG: Replay: confirmed by replay ({{[^)]*}}): kernel {{[a-z_]+}}[{{[0-9]+}}] = {{-?[0-9.e+-]+}}, spec = {{-?[0-9.e+-]+}}
// BUG: {{^}}REFUTED

// CHECK: kproof: layernorm_warp4 against @layernorm(x, w, b, eps) -> y
// CHECK-NOT: UNKNOWN
// CHECK: {{^}}PROVED

//--- ln.mlir
#id2 = affine_map<(r, i) -> (r, i)>
#row = affine_map<(r, i) -> (r)>
#col = affine_map<(r, i) -> (i)>
func.func @layernorm(%x: tensor<4x128xf32>, %w: tensor<128xf32>, %b: tensor<128xf32>, %eps: f32) -> tensor<4x128xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 128.0 : f32
  %e1 = tensor.empty() : tensor<4xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x128xf32>) outs(%s0 : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %v = arith.addf %acc, %a : f32
    linalg.yield %v : f32
  } -> tensor<4xf32>
  %mean = linalg.generic {indexing_maps = [affine_map<(r) -> (r)>, affine_map<(r) -> (r)>], iterator_types = ["parallel"]}
      ins(%sum : tensor<4xf32>) outs(%e1 : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.divf %a, %n : f32
    linalg.yield %v : f32
  } -> tensor<4xf32>
  %var = linalg.generic {indexing_maps = [#id2, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %mean : tensor<4x128xf32>, tensor<4xf32>) outs(%s0 : tensor<4xf32>) {
  ^bb0(%a: f32, %m: f32, %acc: f32):
    %d = arith.subf %a, %m : f32
    %sq = arith.mulf %d, %d : f32
    %v = arith.addf %acc, %sq : f32
    linalg.yield %v : f32
  } -> tensor<4xf32>
  %e = tensor.empty() : tensor<4x128xf32>
  %y = linalg.generic {indexing_maps = [#id2, #row, #row, #col, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean, %var, %w, %b : tensor<4x128xf32>, tensor<4xf32>, tensor<4xf32>, tensor<128xf32>, tensor<128xf32>) outs(%e : tensor<4x128xf32>) {
  ^bb0(%a: f32, %m: f32, %q: f32, %wi: f32, %bi: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %vq = arith.divf %q, %n : f32
    %ve = arith.addf %vq, %eps : f32
    %r = math.rsqrt %ve : f32
    %t = arith.mulf %d, %r : f32
    %tw = arith.mulf %t, %wi : f32
    %v = arith.addf %tw, %bi : f32
    linalg.yield %v : f32
  } -> tensor<4x128xf32>
  return %y : tensor<4x128xf32>
}
kproof.contract @ln {kernel = "layernorm_warp4",
  grid = array<i64: 2, 1, 1>, block = array<i64: 64, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4, 128>},
            {name = "w", buffer = "in", space = "global", type = f32, shape = array<i64: 128>},
            {name = "b", buffer = "in", space = "global", type = f32, shape = array<i64: 128>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 4, 128>},
            {name = "eps", scalar = f32, value = 1.0e-05 : f32}],
  spec = {func = @layernorm, inputs = ["x", "w", "b", "eps"], output = "y"}}
//--- ln-bug.mlir
#id2 = affine_map<(r, i) -> (r, i)>
#row = affine_map<(r, i) -> (r)>
#col = affine_map<(r, i) -> (i)>
func.func @layernorm(%x: tensor<4x128xf32>, %w: tensor<128xf32>, %b: tensor<128xf32>, %eps: f32) -> tensor<4x128xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 128.0 : f32
  %e1 = tensor.empty() : tensor<4xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x128xf32>) outs(%s0 : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %v = arith.addf %acc, %a : f32
    linalg.yield %v : f32
  } -> tensor<4xf32>
  %mean = linalg.generic {indexing_maps = [affine_map<(r) -> (r)>, affine_map<(r) -> (r)>], iterator_types = ["parallel"]}
      ins(%sum : tensor<4xf32>) outs(%e1 : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.divf %a, %n : f32
    linalg.yield %v : f32
  } -> tensor<4xf32>
  %var = linalg.generic {indexing_maps = [#id2, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %mean : tensor<4x128xf32>, tensor<4xf32>) outs(%s0 : tensor<4xf32>) {
  ^bb0(%a: f32, %m: f32, %acc: f32):
    %d = arith.subf %a, %m : f32
    %sq = arith.mulf %d, %d : f32
    %v = arith.addf %acc, %sq : f32
    linalg.yield %v : f32
  } -> tensor<4xf32>
  %e = tensor.empty() : tensor<4x128xf32>
  %y = linalg.generic {indexing_maps = [#id2, #row, #row, #col, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean, %var, %w, %b : tensor<4x128xf32>, tensor<4xf32>, tensor<4xf32>, tensor<128xf32>, tensor<128xf32>) outs(%e : tensor<4x128xf32>) {
  ^bb0(%a: f32, %m: f32, %q: f32, %wi: f32, %bi: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %vq = arith.divf %q, %n : f32
    %ve = arith.addf %vq, %eps : f32
    %r = math.rsqrt %ve : f32
    %t = arith.mulf %d, %r : f32
    %tw = arith.mulf %t, %wi : f32
    %v = arith.addf %tw, %bi : f32
    linalg.yield %v : f32
  } -> tensor<4x128xf32>
  return %y : tensor<4x128xf32>
}
kproof.contract @ln {kernel = "layernorm_warp4_bug",
  grid = array<i64: 2, 1, 1>, block = array<i64: 64, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4, 128>},
            {name = "w", buffer = "in", space = "global", type = f32, shape = array<i64: 128>},
            {name = "b", buffer = "in", space = "global", type = f32, shape = array<i64: 128>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 4, 128>},
            {name = "eps", scalar = f32, value = 1.0e-05 : f32}],
  spec = {func = @layernorm, inputs = ["x", "w", "b", "eps"], output = "y"}}
