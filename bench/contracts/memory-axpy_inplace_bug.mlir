func.func @axpy(%x: tensor<256xf32>, %y: tensor<256xf32>, %a: f32) -> tensor<256xf32> {
  %e = tensor.empty() : tensor<256xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%x, %y : tensor<256xf32>, tensor<256xf32>) outs(%e : tensor<256xf32>) {
  ^bb0(%xv: f32, %yv: f32, %o: f32):
    %m = arith.mulf %a, %xv : f32
    %s = arith.addf %m, %yv : f32
    linalg.yield %s : f32
  } -> tensor<256xf32>
  return %r : tensor<256xf32>
}
kproof.contract @axpy_c {kernel = "axpy_inplace_bug",
  grid = array<i64: 4, 1, 1>, block = array<i64: 64, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 256>},
            {name = "y", buffer = "inout", space = "global", type = f32, shape = array<i64: 256>},
            {name = "a", scalar = f32},
            {name = "n", scalar = i32, value = 256 : i32}],
  spec = {func = @axpy, inputs = ["x", "y", "a"], output = "y"}, mode = "reals"}
