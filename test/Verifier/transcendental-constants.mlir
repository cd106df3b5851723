// Transcendental constants read as the values they round: a logsumexp
// merge computed in base 2 (lse_merge.cu: x * log2(e), exp2f, __log2f,
// then * ln(2) or / log2(e)) against log(exp(a) + exp(b)) in its stable
// form. Read as rationals, 0f3FB8AA3B * 0f3F317218 is 1 - 2.6e-8 and the
// correct kernel was REFUTED at a relative difference of 1e-8; read as
// log2(e) = 1 / ln(2) and ln(2), the conversions cancel exactly. Every
// reading is listed with the constant and its relative error. The twins
// (no conversion back; ln(2) applied twice) are REFUTED and replayed; a
// constant two ulps from ln(2) is not read as ln(2), so the kernel is
// REFUTED in the exact reals model (its IEEE replay agrees within the
// tolerance, and says so).
//
// RUN: split-file %s %t
// RUN: %expect_exit 0 kproof-opt %inputs/cuda/ptx/lse_merge.sm80.O3.ptx --verify-equiv --contract=%t/merge.mlir | FileCheck %s --check-prefix=MERGE
// RUN: %expect_exit 0 kproof-opt %inputs/cuda/ptx/lse_merge.sm90.G.ptx --verify-equiv --contract=%t/merge.mlir | FileCheck %s --check-prefix=MERGE
// One line per reading, with its sites:
// MERGE: idiom: f32 constant 0f3FB8AA3B read as log2(e) (relative error 1.3e-08) at {{.*}}lse_merge.cu:25:5), {{.*}}lse_merge.cu:26:5)
// MERGE: idiom: f32 constant 0f3F317218 read as ln(2) (relative error 2.7e-09) at {{.*}}lse_merge.cu:31:7)
// MERGE-NOT: read as log2(e)
// MERGE-NOT: UNKNOWN
// MERGE-NOT: REFUTED
// MERGE: PROVED
// RUN: sed 's/"lse_merge_base2"/"lse_merge_base2_div"/' %t/merge.mlir > %t/div.mlir
// RUN: %expect_exit 0 kproof-opt %inputs/cuda/ptx/lse_merge.sm80.O3.ptx --verify-equiv --contract=%t/div.mlir | FileCheck %s --check-prefix=DIV
// RUN: %expect_exit 0 kproof-opt %inputs/cuda/ptx/lse_merge.sm90.G.ptx --verify-equiv --contract=%t/div.mlir | FileCheck %s --check-prefix=DIV
// DIV: idiom: f32 constant 0f3FB8AA3B read as log2(e) (relative error 1.3e-08) at {{.*}}lse_merge.cu:33:7)
// DIV-NOT: REFUTED
// DIV: PROVED
// RUN: sed 's/"lse_merge_base2"/"lse_merge_noconv"/' %t/merge.mlir > %t/noconv.mlir
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/lse_merge.sm80.O3.ptx --verify-equiv --contract=%t/noconv.mlir 2>/dev/null | FileCheck %s --check-prefix=NOCONV
// NOCONV: Replay: confirmed by replay (IEEE f32): kernel y[{{[0-9]+}}] = 1, spec = 0.693147181
// NOCONV: REFUTED
// RUN: sed 's/"lse_merge_base2"/"lse_merge_ln2_twice"/' %t/merge.mlir > %t/twice.mlir
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/lse_merge.sm90.G.ptx --verify-equiv --contract=%t/twice.mlir 2>/dev/null | FileCheck %s --check-prefix=TWICE
// TWICE: Replay: confirmed by replay (IEEE f32): kernel y[{{[0-9]+}}] = 0.480453014, spec = 0.693147181
// TWICE: REFUTED
// Two ulps from ln(2): the rational 0f3F31721A.
// RUN: sed 's/0f3F317218/0f3F31721A/g' %inputs/cuda/ptx/lse_merge.sm80.O3.ptx > %t/off.ptx
// RUN: %expect_exit 1 kproof-opt %t/off.ptx --verify-equiv --contract=%t/merge.mlir 2>/dev/null | FileCheck %s --check-prefix=OFF
// OFF-NOT: read as ln(2)
// OFF: Kernel value: [6.931473016738e-01, 6.931473016739e-01]
// OFF: in IEEE f32 kernel y[{{[0-9]+}}] = 0.693147302, spec = 0.693147181, equal within atol
// OFF: REFUTED
// The spec's constants are read alike: a spec that writes ln(2) as an f32
// constant proves against the same kernel.
// RUN: %expect_exit 0 kproof-opt %inputs/cuda/ptx/lse_merge.sm80.O3.ptx --verify-equiv --contract=%t/specconst.mlir | FileCheck %s --check-prefix=SPEC
// SPEC: idiom: spec: f32 constant 0f3F317218 read as ln(2) (relative error 2.7e-09) at
// SPEC: PROVED

//--- merge.mlir
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
//--- specconst.mlir
// log(s) written as log2(s) * ln(2), ln(2) as the f32 constant.
func.func @lse2(%a: tensor<1024xf32>, %b: tensor<1024xf32>) -> tensor<1024xf32> {
  %e = tensor.empty() : tensor<1024xf32>
  %ln2 = arith.constant 0.693147182 : f32
  %y = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%a, %b : tensor<1024xf32>, tensor<1024xf32>) outs(%e : tensor<1024xf32>) {
  ^bb0(%x: f32, %z: f32, %o: f32):
    %m = arith.maximumf %x, %z : f32
    %d1 = arith.subf %x, %m : f32
    %d2 = arith.subf %z, %m : f32
    %e1 = math.exp %d1 : f32
    %e2 = math.exp %d2 : f32
    %s = arith.addf %e1, %e2 : f32
    %l2 = math.log2 %s : f32
    %l = arith.mulf %l2, %ln2 : f32
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
