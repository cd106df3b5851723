func.func @lse2(%a: tensor<1024xf32>, %b: tensor<1024xf32>) -> tensor<1024xf32> {
  %e = tensor.empty() : tensor<1024xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%a, %b : tensor<1024xf32>, tensor<1024xf32>) outs(%e : tensor<1024xf32>) {
  ^bb0(%x: f32, %z: f32, %o: f32):
    %m = arith.maximumf %x, %z : f32
    %d1 = arith.subf %x, %m : f32
    %d2 = arith.subf %z, %m : f32
    %e1 = math.exp %d1 : f32
    %e2 = math.exp %d2 : f32
    %s = arith.addf %e1, %e2 : f32
    %l = math.log %s : f32
    %r = arith.addf %m, %l : f32
    linalg.yield %r : f32
  } -> tensor<1024xf32>
  return %y : tensor<1024xf32>
}
kproof.contract @c {
  kernel = "lse_merge_base2", grid = array<i64: 4, 1, 1>, block = array<i64: 256, 1, 1>,
  params = [
    {name = "a", buffer = "in", space = "global", type = f32, shape = array<i64: 1024>},
    {name = "b", buffer = "in", space = "global", type = f32, shape = array<i64: 1024>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 1024>},
    {name = "n", scalar = i32, value = 1024 : i32}
  ],
  spec = {func = @lse2, inputs = ["a", "b"], output = "y"}
}
