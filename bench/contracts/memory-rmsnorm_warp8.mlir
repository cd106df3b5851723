#id2 = affine_map<(r, i) -> (r, i)>
#row = affine_map<(r, i) -> (r)>
#col = affine_map<(r, i) -> (i)>
func.func @rmsnorm(%x: tensor<4x256xf32>, %w: tensor<256xf32>, %eps: f32) -> tensor<4x256xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 256.0 : f32
  %e1 = tensor.empty() : tensor<4xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %ss = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x256xf32>) outs(%s0 : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %v = arith.addf %acc, %sq : f32
    linalg.yield %v : f32
  } -> tensor<4xf32>
  %e = tensor.empty() : tensor<4x256xf32>
  %y = linalg.generic {indexing_maps = [#id2, #row, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ss, %w : tensor<4x256xf32>, tensor<4xf32>, tensor<256xf32>) outs(%e : tensor<4x256xf32>) {
  ^bb0(%a: f32, %s: f32, %wi: f32, %o: f32):
    %mean = arith.divf %s, %n : f32
    %me = arith.addf %mean, %eps : f32
    %r = math.rsqrt %me : f32
    %xr = arith.mulf %a, %r : f32
    %v = arith.mulf %xr, %wi : f32
    linalg.yield %v : f32
  } -> tensor<4x256xf32>
  return %y : tensor<4x256xf32>
}
kproof.contract @rms {kernel = "rmsnorm_warp8",
  grid = array<i64: 2, 1, 1>, block = array<i64: 64, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4, 256>},
            {name = "w", buffer = "in", space = "global", type = f32, shape = array<i64: 256>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 4, 256>},
            {name = "eps", scalar = f32, value = 1.0e-05 : f32}],
  spec = {func = @rmsnorm, inputs = ["x", "w", "eps"], output = "y"}, mode = "reals"}
