#map = affine_map<(b, i) -> (b, i)>
#row = affine_map<(b, i) -> (b)>
func.func @rowsum(%x: tensor<?x256xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %x, %c0 : tensor<?x256xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %s = linalg.generic {indexing_maps = [#map, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<?x256xf32>) outs(%z : tensor<?xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  return %s : tensor<?xf32>
}
kproof.contract @cub_any {kernel = "block_sum_cub",
  grid_max = array<i64: 65535, 1, 1>, block = array<i64: 256, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = ["nctaid.x", 256]},
            {name = "y", buffer = "out", space = "global", type = f32, shape = ["nctaid.x"]}],
  spec = {func = @rowsum, inputs = ["x"], output = "y"}}
