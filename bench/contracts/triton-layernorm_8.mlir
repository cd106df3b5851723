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
