#in = affine_map<(g, i) -> (g, i)>
#out = affine_map<(g, i) -> (g)>
func.func @group_sum(%x: tensor<16x16xf32>) -> tensor<16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %s = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x16xf32>) outs(%s0 : tensor<16xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %v = arith.addf %acc, %a : f32
    linalg.yield %v : f32
  } -> tensor<16xf32>
  return %s : tensor<16xf32>
}
kproof.contract @g16 {kernel = "group16_sum",
  grid = array<i64: 2, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 16, 16>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 16>}],
  spec = {func = @group_sum, inputs = ["x"], output = "y"}}
