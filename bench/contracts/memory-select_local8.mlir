func.func @sel(%x: tensor<512xf32>, %sel: tensor<64xi32>) -> tensor<64xf32> {
  %e = tensor.empty() : tensor<64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%sel : tensor<64xi32>) outs(%e : tensor<64xf32>) {
  ^bb0(%s: i32, %o: f32):
    %i = linalg.index 0 : index
    %c7 = arith.constant 7 : i32
    %k = arith.andi %s, %c7 : i32
    %ki = arith.index_cast %k : i32 to index
    %c8 = arith.constant 8 : index
    %b = arith.muli %i, %c8 : index
    %j = arith.addi %b, %ki : index
    %v = tensor.extract %x[%j] : tensor<512xf32>
    %two = arith.constant 2.0 : f32
    %r2 = arith.mulf %two, %v : f32
    linalg.yield %r2 : f32
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}
kproof.contract @sel_c {kernel = "select_local8",
  grid = array<i64: 2, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 512>},
            {name = "sel", buffer = "in", space = "global", type = i32, shape = array<i64: 64>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 64>},
            {name = "n", scalar = i32, value = 64 : i32}],
  spec = {func = @sel, inputs = ["x", "sel"], output = "y"}, mode = "reals"}
