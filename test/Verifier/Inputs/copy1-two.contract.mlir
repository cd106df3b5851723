// Two contracts for the copy1 kernel: y = x (holds) and y = 2 x (does not).
kproof.contract @holds {
  kernel = "copy1", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [
    {name = "x", buffer = "in", type = f32, shape = array<i64: 1>},
    {name = "y", buffer = "out", type = f32, shape = array<i64: 1>}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}
func.func @twice(%x: tensor<1xf32>) -> tensor<1xf32> {
  %e = tensor.empty() : tensor<1xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<1xf32>) outs(%e : tensor<1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = arith.addf %a, %a : f32
    linalg.yield %t : f32
  } -> tensor<1xf32>
  return %r : tensor<1xf32>
}
kproof.contract @fails {
  kernel = "copy1", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [
    {name = "x", buffer = "in", type = f32, shape = array<i64: 1>},
    {name = "y", buffer = "out", type = f32, shape = array<i64: 1>}
  ],
  spec = {func = @twice, inputs = ["x"], output = "y"}
}
