// The natural log (math.log in specs): the row logsumexp
// m + log(sum exp(x - m)) over any n (logsumexp.cu). __logf compiles to
// lg2.approx(x) * 0f3F317218, read as log(x) (the constant read as ln(2));
// CUDA's precise logf at -O3 (exponent and mantissa split, a degree-8
// polynomial, special cases for 0, +inf, NaN and negative x) is read as
// log(x) with -inf at 0, and an obligation that x is not negative. Both
// PROVED against the spec; the twin that forgets to add the max back is
// REFUTED with a replayed counterexample. At -G logf is a .func whose
// branches the recognizer does not match: UNKNOWN, never a guess.
//
// RUN: split-file %s %t
// RUN: kproof-opt %inputs/cuda/ptx/logsumexp.sm80.O3.ptx --verify-equiv --contract=%t/fast.mlir | FileCheck %s --check-prefix=FAST
// RUN: kproof-opt %inputs/cuda/ptx/logsumexp.sm90.G.ptx --verify-equiv --contract=%t/fast.mlir | FileCheck %s --check-prefix=FAST
// FAST: idiom: f32 constant 0f3F317218 read as ln(2) (relative error 2.7e-09)
// FAST-NOT: UNKNOWN
// FAST-NOT: REFUTED
// FAST: PROVED
// RUN: sed 's/"logsumexp_rows_fast"/"logsumexp_rows_fast_nomax"/' %t/fast.mlir > %t/nomax.mlir
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/logsumexp.sm80.O3.ptx --verify-equiv --contract=%t/nomax.mlir 2>/dev/null | FileCheck %s --check-prefix=NOMAX
// NOMAX: Replay: confirmed by replay (IEEE f32): kernel y[63] = 1.09861231, spec = 3.09861229
// NOMAX: REFUTED
// RUN: sed 's/"logsumexp_rows_fast"/"logsumexp_rows_precise"/' %t/fast.mlir > %t/precise.mlir
// RUN: kproof-opt %inputs/cuda/ptx/logsumexp.sm80.O3.ptx --verify-equiv --contract=%t/precise.mlir | FileCheck %s --check-prefix=PRECISE
// PRECISE: idiom: nvcc expf range reduction
// PRECISE: idiom: nvcc logf (exponent and mantissa split, degree-8 polynomial) read as log(x), -inf at 0
// PRECISE-NOT: UNKNOWN
// PRECISE-NOT: REFUTED
// PRECISE: PROVED
// RUN: %expect_exit 3 kproof-opt %inputs/cuda/ptx/logsumexp.sm90.G.ptx --verify-equiv --contract=%t/precise.mlir 2>/dev/null | FileCheck %s --check-prefix=PRECISE-G
// PRECISE-G: UNKNOWN: bit operation on a register holding a real value is not modeled

//--- fast.mlir
func.func @lse(%x: tensor<64x?xf32>) -> tensor<64xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %z = arith.constant 0.0 : f32
  %c1 = arith.constant 1 : index
  %e = tensor.empty() : tensor<64xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x?xf32>) outs(%mi : tensor<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %si = linalg.fill ins(%z : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%x, %m : tensor<64x?xf32>, tensor<64xf32>) outs(%si : tensor<64xf32>) {
  ^bb0(%a: f32, %mm: f32, %acc: f32):
    %d = arith.subf %a, %mm : f32
    %ex = math.exp %d : f32
    %r = arith.addf %acc, %ex : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%m, %s : tensor<64xf32>, tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%mm: f32, %ss: f32, %o: f32):
    %l = math.log %ss : f32
    %r = arith.addf %mm, %l : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  return %y : tensor<64xf32>
}
kproof.contract @c {
  kernel = "logsumexp_rows_fast", grid = array<i64: 2, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = [64, "n"]},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 64>},
    {name = "n", scalar = i32, range = array<i64: 1, 1048577>}
  ],
  spec = {func = @lse, inputs = ["x"], output = "y"}
}
