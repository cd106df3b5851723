func.func @accum(%x: tensor<4x64xf32>, %w: tensor<4xf32>, %y: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %e = tensor.empty() : tensor<4x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(k, i) -> (k, i)>, affine_map<(k, i) -> (k)>,
                                        affine_map<(k, i) -> (k, i)>, affine_map<(k, i) -> (k, i)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %w, %y : tensor<4x64xf32>, tensor<4xf32>, tensor<4x64xf32>) outs(%e : tensor<4x64xf32>) {
  ^bb0(%xv: f32, %wv: f32, %yv: f32, %o: f32):
    %m = arith.mulf %xv, %wv : f32
    %s = arith.addf %yv, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x64xf32>
  return %r : tensor<4x64xf32>
}
kproof.contract @accum_c {kernel = "accum4_inplace_bug",
  grid = array<i64: 2, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4, 64>},
            {name = "w", buffer = "in", space = "global", type = f32, shape = array<i64: 4>},
            {name = "y", buffer = "inout", space = "global", type = f32, shape = array<i64: 4, 64>},
            {name = "n", scalar = i32, value = 64 : i32}],
  spec = {func = @accum, inputs = ["x", "w", "y"], output = "y"}, mode = "reals"}
