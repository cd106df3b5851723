// Varlen max over cu_seqlens (varlen_seq_max), bench/memory-kernels.sh; spec as in test/Verifier/memory-varlen.mlir.
func.func @seq_max(%x: tensor<?xf32>, %cu: tensor<9xi32>, %total: i32) -> tensor<8xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %c1 = arith.constant 1 : index
  %e = tensor.empty() : tensor<8xf32>
  %init = linalg.fill ins(%ninf : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, i) -> (i)>, affine_map<(b, i) -> (b)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<?xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %b = linalg.index 0 : index
    %i = linalg.index 1 : index
    %b1 = arith.addi %b, %c1 : index
    %lo = tensor.extract %cu[%b] : tensor<9xi32>
    %hi = tensor.extract %cu[%b1] : tensor<9xi32>
    %ii = arith.index_cast %i : index to i32
    %ge = arith.cmpi sge, %ii, %lo : i32
    %lt = arith.cmpi slt, %ii, %hi : i32
    %in = arith.andi %ge, %lt : i1
    %t = arith.select %in, %v, %ninf : f32
    %m = arith.maximumf %acc, %t : f32
    linalg.yield %m : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}
kproof.contract @varlen_max {kernel = "varlen_seq_max",
  grid = array<i64: 8, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = ["total"]},
            {name = "cu_seqlens", buffer = "in", space = "global", type = i32, shape = array<i64: 9>, range = array<i64: 0, 1048577>, at_most = "total"},
            {name = "out", buffer = "out", space = "global", type = f32, shape = array<i64: 8>},
            {name = "total", scalar = i32, range = array<i64: 1, 1048577>}],
  spec = {func = @seq_max, inputs = ["x", "cu_seqlens", "total"], output = "out"}, mode = "reals"}
