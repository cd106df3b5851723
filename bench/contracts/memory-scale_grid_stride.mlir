func.func @scale(%x: tensor<1000xf32>) -> tensor<1000xf32> {
  %e = tensor.empty() : tensor<1000xf32>
  %two = arith.constant 2.0 : f32
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : tensor<1000xf32>) outs(%e : tensor<1000xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.mulf %two, %a : f32
    linalg.yield %v : f32
  } -> tensor<1000xf32>
  return %r : tensor<1000xf32>
}
kproof.contract @gs {kernel = "scale_grid_stride",
  grid = array<i64: 2, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 1000>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 1000>},
            {name = "n", scalar = i32, value = 1000 : i32}],
  spec = {func = @scale, inputs = ["x"], output = "y"}}
