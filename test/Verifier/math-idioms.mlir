// CUDA's precise expf (no --use_fast_math) compiles to a range reduction on
// the float's bits (cvt.sat, fma.rm with 1.5 * 2^23, the bits of the result
// shifted into an exponent field, ex2.approx of the reduced argument):
// --kproof-recognize-math-idioms tags the sequence, and the engine reads it
// as exp(x), reporting the idiom with its location (softmax_expf.cu). A
// three-pass row softmax over any n, a warp softmax with butterflies and a
// causal softmax with -inf scores (expf(-inf) = 0) PROVED at -O3 (inlined)
// and -G (a call of the .func expf); each twin REFUTED, its counterexample
// confirmed by the interpreter, which runs the bit-level sequence in IEEE.
//
// RUN: split-file %s %t
// RUN: kproof-opt %inputs/cuda/ptx/softmax_expf.sm80.O3.ptx --verify-equiv --contract=%t/rows.mlir | FileCheck %s --check-prefix=ROWS
// RUN: kproof-opt %inputs/cuda/ptx/softmax_expf.sm90.G.ptx --verify-equiv --contract=%t/rows.mlir | FileCheck %s --check-prefix=ROWS
// ROWS: idiom: nvcc expf range reduction (cvt.sat, fma.rm, shl 23, ex2) read as exp(x) at
// ROWS-NOT: UNKNOWN
// ROWS-NOT: REFUTED
// ROWS: PROVED
//
// RUN: sed 's/"softmax_rows_expf"/"softmax_rows_expf_nomax"/' %t/rows.mlir > %t/nomax.mlir
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/softmax_expf.sm80.O3.ptx --verify-equiv --contract=%t/nomax.mlir 2>/dev/null | FileCheck %s --check-prefix=NOMAX
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/softmax_expf.sm90.G.ptx --verify-equiv --contract=%t/nomax.mlir 2>/dev/null | FileCheck %s --check-prefix=NOMAX
// NOMAX: ERROR: value mismatch at y[11, 133] (row-major 2036)
// NOMAX: Replay: confirmed by replay (IEEE f32): kernel y[2036] = 1.25908923, spec = 0.463193083
// NOMAX: REFUTED
//
// RUN: kproof-opt %inputs/cuda/ptx/softmax_expf.sm80.O3.ptx --verify-equiv --contract=%t/warp.mlir | FileCheck %s --check-prefix=WARP
// RUN: kproof-opt %inputs/cuda/ptx/softmax_expf.sm90.G.ptx --verify-equiv --contract=%t/warp.mlir | FileCheck %s --check-prefix=WARP
// WARP: idiom: nvcc expf
// WARP-NOT: UNKNOWN
// WARP-NOT: REFUTED
// WARP: PROVED
// RUN: sed 's/"warp_softmax_expf"/"warp_softmax_expf_down_sum"/' %t/warp.mlir > %t/down.mlir
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/softmax_expf.sm90.G.ptx --verify-equiv --contract=%t/down.mlir 2>/dev/null | FileCheck %s --check-prefix=DOWN
// DOWN: ERROR: value mismatch at y[6, 6] (row-major 198)
// DOWN: Replay: confirmed by replay (IEEE f32): kernel y[198] = 0.0282194428, spec = 0.0296575017
// DOWN: REFUTED
//
// RUN: kproof-opt %inputs/cuda/ptx/softmax_expf.sm80.O3.ptx --verify-equiv --contract=%t/causal.mlir | FileCheck %s --check-prefix=CAUSAL
// RUN: kproof-opt %inputs/cuda/ptx/softmax_expf.sm90.G.ptx --verify-equiv --contract=%t/causal.mlir | FileCheck %s --check-prefix=CAUSAL
// CAUSAL: idiom: nvcc expf
// CAUSAL-NOT: UNKNOWN
// CAUSAL-NOT: REFUTED
// CAUSAL: PROVED
// RUN: sed 's/"causal_softmax_expf"/"causal_softmax_expf_strict"/' %t/causal.mlir > %t/strict.mlir
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/softmax_expf.sm90.G.ptx --verify-equiv --contract=%t/strict.mlir 2>/dev/null | FileCheck %s --check-prefix=STRICT
// STRICT: ERROR: value mismatch at y[14, 0] (row-major 224)
// STRICT: Replay: confirmed by replay (IEEE f32): kernel y[224] = 0.0714285746, spec = 0.0666666667
// STRICT: REFUTED
//
// A copy of the -O3 PTX with one constant of the sequence off by one ulp
// (0f3BBB989D -> 0f3BBB989E) is not the idiom: the bit operation on a real
// stays unmodeled (UNKNOWN), never read as exp.
// RUN: sed 's/0f3BBB989D/0f3BBB989E/' %inputs/cuda/ptx/softmax_expf.sm80.O3.ptx > %t/wrong-constant.ptx
// RUN: %expect_exit 3 kproof-opt %t/wrong-constant.ptx --verify-equiv --contract=%t/rows.mlir 2>/dev/null | FileCheck %s --check-prefix=WRONG
// WRONG-NOT: idiom: nvcc expf
// WRONG: UNKNOWN: bit operation on a register holding a real value is not modeled

//--- rows.mlir
kproof.contract @rows {
  kernel = "softmax_rows_expf", grid = array<i64: 2, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = [64, "n"]},
    {name = "y", buffer = "out", space = "global", type = f32, shape = [64, "n"]},
    {name = "n", scalar = i32, range = array<i64: 1, 1048577>}
  ],
  spec = {builtin = "softmax", input = "x", output = "y"}
}
//--- warp.mlir
kproof.contract @warp {
  kernel = "warp_softmax_expf", grid = array<i64: 4, 1, 1>, block = array<i64: 64, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 8, 32>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 8, 32>}
  ],
  spec = {builtin = "softmax", input = "x", output = "y"}
}
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
kproof.contract @causal {kernel = "causal_softmax_expf",
  grid = array<i64: 1, 1, 1>, block = array<i64: 16, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 16, 16>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 16, 16>}],
  spec = {func = @causal_softmax, inputs = ["x"], output = "y"}, mode = "reals"}
