func.func @paged(%kc: tensor<8x4x2xf32>, %bt: tensor<2x3xi32>) -> tensor<2x12x2xf32> {
  %e = tensor.empty() : tensor<2x12x2xf32>
  %c4 = arith.constant 4 : index
  %r = linalg.generic {indexing_maps = [affine_map<(b, j, c) -> (b, j, c)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%e : tensor<2x12x2xf32>) {
  ^bb0(%o: f32):
    %b = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c = linalg.index 2 : index
    %pj = arith.divui %j, %c4 : index
    %slot = arith.remui %j, %c4 : index
    %pg = tensor.extract %bt[%b, %pj] : tensor<2x3xi32>
    %pgi = arith.index_cast %pg : i32 to index
    %v = tensor.extract %kc[%pgi, %slot, %c] : tensor<8x4x2xf32>
    linalg.yield %v : f32
  } -> tensor<2x12x2xf32>
  return %r : tensor<2x12x2xf32>
}
kproof.contract @paged_c {kernel = "paged_kv_gather",
  grid = array<i64: 3, 1, 1>, block = array<i64: 16, 1, 1>,
  params = [{name = "k_cache", buffer = "in", space = "global", type = f32, shape = array<i64: 8, 4, 2>},
            {name = "block_table", buffer = "in", space = "global", type = i32, shape = array<i64: 2, 3>, range = array<i64: 0, 8>},
            {name = "k_out", buffer = "out", space = "global", type = f32, shape = array<i64: 2, 12, 2>},
            {name = "max_pages", scalar = i32, value = 3 : i32},
            {name = "n", scalar = i32, value = 12 : i32}],
  spec = {func = @paged, inputs = ["k_cache", "block_table"], output = "k_out"}}
