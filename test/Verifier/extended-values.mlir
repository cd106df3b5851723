// Values that are -inf on some inputs only: a causal row softmax whose
// masked scores are -INFINITY at thread-dependent positions
// (test/Inputs/cuda/causal_softmax.cu, one thread per row i of 16 x 16,
// key j visible iff j <= i). Each score register is ite(j <= i, x, -inf);
// the engine lifts the max, the subtraction and exp over those cases
// (exp(-inf - m) = 0), so the row sum is finite and provably positive, and
// the kernel is PROVED at -O3 and -G against a linalg spec that masks with
// -inf the same way. Twins: the strict mask j < i (row 0 has no visible
// key: NaN; the other rows lose their diagonal) and a sum over the
// unmasked row are REFUTED, confirmed by replay.
// RUN: split-file %s %t
// RUN: kproof-opt %inputs/cuda/ptx/causal_softmax.sm80.O3.ptx --verify-equiv --contract=%t/causal.mlir | FileCheck %s --check-prefix=PROVED
// RUN: kproof-opt %inputs/cuda/ptx/causal_softmax.sm90.G.ptx --verify-equiv --contract=%t/causal.mlir | FileCheck %s --check-prefix=PROVED
// RUN: sed 's/"causal_softmax_rows"/"causal_softmax_rows_strict"/' %t/causal.mlir > %t/strict.mlir
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/causal_softmax.sm80.O3.ptx --verify-equiv --contract=%t/strict.mlir 2>&1 | FileCheck %s --check-prefixes=REFUTED,STRICT80
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/causal_softmax.sm90.G.ptx --verify-equiv --contract=%t/strict.mlir 2>&1 | FileCheck %s --check-prefixes=REFUTED,STRICT90
// RUN: sed 's/"causal_softmax_rows"/"causal_softmax_rows_nomask_sum"/' %t/causal.mlir > %t/nomask.mlir
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/causal_softmax.sm80.O3.ptx --verify-equiv --contract=%t/nomask.mlir 2>&1 | FileCheck %s --check-prefixes=REFUTED,NOMASK

// PROVED-NOT: UNKNOWN
// PROVED: obligations: [[N:[0-9]+]] ([[N]] proved)
// PROVED: {{^}}PROVED
// With x all 0, row i's visible entries are 1/(i + 1) each: the strict
// mask gives 1/i (row 3: 1/3 against 1/4), the unmasked sum 1/16. (The
// probes' draws are seeded by the obligation's name, file directories
// left out, so these examples do not depend on where the tree is.)
// REFUTED: ERROR: value mismatch at y[{{[0-9]+}}, {{[0-9]+}}] (row-major {{[0-9]+}})
// STRICT80: tid.x = 3{{$}}
// STRICT90: tid.x = 10{{$}}
// NOMASK: tid.x = 7{{$}}
// STRICT80: Replay: confirmed by replay (IEEE f32): kernel y[48] = 0.333333343, spec = 0.25
// STRICT90: Replay: confirmed by replay (IEEE f32): kernel y[160] = 0.100000001, spec = 0.0909090909
// NOMASK: Replay: confirmed by replay (IEEE f32): kernel y[112] = 0.0625, spec = 0.125
// REFUTED: {{^}}REFUTED

//--- causal.mlir
func.func @causal_softmax(%x: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %z = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<16xf32>
  %minit = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<16xf32>) -> tensor<16xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x16xf32>) outs(%minit : tensor<16xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %vis = arith.cmpi ule, %j, %i : index
    %t = arith.select %vis, %v, %ninf : f32
    %r = arith.maximumf %acc, %t : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %linit = linalg.fill ins(%z : f32) outs(%e1 : tensor<16xf32>) -> tensor<16xf32>
  %l = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x, %m : tensor<16x16xf32>, tensor<16xf32>) outs(%linit : tensor<16xf32>) {
  ^bb0(%v: f32, %mi: f32, %acc: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %vis = arith.cmpi ule, %j, %i : index
    %t = arith.select %vis, %v, %ninf : f32
    %d = arith.subf %t, %mi : f32
    %ex = math.exp %d : f32
    %r = arith.addf %acc, %ex : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %e2 = tensor.empty() : tensor<16x16xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %m, %l : tensor<16x16xf32>, tensor<16xf32>, tensor<16xf32>) outs(%e2 : tensor<16x16xf32>) {
  ^bb0(%v: f32, %mi: f32, %li: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %vis = arith.cmpi ule, %j, %i : index
    %t = arith.select %vis, %v, %ninf : f32
    %d = arith.subf %t, %mi : f32
    %ex = math.exp %d : f32
    %p = arith.divf %ex, %li : f32
    linalg.yield %p : f32
  } -> tensor<16x16xf32>
  return %y : tensor<16x16xf32>
}
kproof.contract @causal {kernel = "causal_softmax_rows",
  grid = array<i64: 1, 1, 1>, block = array<i64: 16, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 16, 16>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 16, 16>}],
  spec = {func = @causal_softmax, inputs = ["x"], output = "y"}, mode = "reals"}
