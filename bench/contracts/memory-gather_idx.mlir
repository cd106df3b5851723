func.func @gather(%x: tensor<1000xf32>, %idx: tensor<128xi32>) -> tensor<128xf32> {
  %e = tensor.empty() : tensor<128xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%idx : tensor<128xi32>) outs(%e : tensor<128xf32>) {
  ^bb0(%j: i32, %o: f32):
    %ji = arith.index_cast %j : i32 to index
    %v = tensor.extract %x[%ji] : tensor<1000xf32>
    linalg.yield %v : f32
  } -> tensor<128xf32>
  return %r : tensor<128xf32>
}
kproof.contract @gather_c {kernel = "gather_idx",
  grid = array<i64: 2, 1, 1>, block = array<i64: 64, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 1000>},
            {name = "idx", buffer = "in", space = "global", type = i32, shape = array<i64: 128>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 128>},
            {name = "n", scalar = i32, value = 128 : i32}],
  spec = {func = @gather, inputs = ["x", "idx"], output = "y"}, mode = "reals"}
