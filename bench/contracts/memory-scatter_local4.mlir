func.func @scatter(%x: tensor<64x4xf32>, %perm: tensor<64x4xi32>) -> tensor<64x4xf32> {
  %e = tensor.empty() : tensor<64x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>],
                       iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<64x4xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %k = linalg.index 1 : index
    %k32 = arith.index_cast %k : index to i32
    %c3 = arith.constant 3 : i32
    %v0 = arith.constant 0.0 : f32
    %j0 = arith.constant 0 : index
    %p0 = tensor.extract %perm[%i, %j0] : tensor<64x4xi32>
    %m0 = arith.andi %p0, %c3 : i32
    %h0 = arith.cmpi eq, %m0, %k32 : i32
    %x0 = tensor.extract %x[%i, %j0] : tensor<64x4xf32>
    %v1 = arith.select %h0, %x0, %v0 : f32
    %j1 = arith.constant 1 : index
    %p1 = tensor.extract %perm[%i, %j1] : tensor<64x4xi32>
    %m1 = arith.andi %p1, %c3 : i32
    %h1 = arith.cmpi eq, %m1, %k32 : i32
    %x1 = tensor.extract %x[%i, %j1] : tensor<64x4xf32>
    %v2 = arith.select %h1, %x1, %v1 : f32
    %j2 = arith.constant 2 : index
    %p2 = tensor.extract %perm[%i, %j2] : tensor<64x4xi32>
    %m2 = arith.andi %p2, %c3 : i32
    %h2 = arith.cmpi eq, %m2, %k32 : i32
    %x2 = tensor.extract %x[%i, %j2] : tensor<64x4xf32>
    %v3 = arith.select %h2, %x2, %v2 : f32
    %j3 = arith.constant 3 : index
    %p3 = tensor.extract %perm[%i, %j3] : tensor<64x4xi32>
    %m3 = arith.andi %p3, %c3 : i32
    %h3 = arith.cmpi eq, %m3, %k32 : i32
    %x3 = tensor.extract %x[%i, %j3] : tensor<64x4xf32>
    %v4 = arith.select %h3, %x3, %v3 : f32
    linalg.yield %v4 : f32
  } -> tensor<64x4xf32>
  return %r : tensor<64x4xf32>
}
kproof.contract @scatter_c {kernel = "scatter_local4",
  grid = array<i64: 2, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 64, 4>},
            {name = "perm", buffer = "in", space = "global", type = i32, shape = array<i64: 64, 4>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 64, 4>},
            {name = "n", scalar = i32, value = 64 : i32}],
  spec = {func = @scatter, inputs = ["x", "perm"], output = "y"}, mode = "reals"}
