// QK scores pair by pair at the stress shape of published attention
// provers (test/Inputs/cuda/qk_pairs.cu): 4,096 CTAs, one per (query, key)
// pair of a 64 x 64 tile, 128 lanes each publishing one partial product of
// the D = 128 dot product through shared memory, lane 0 summing them. One
// representative lane and CTA stand for all 524,288 threads: the sum's 128
// shared reads resolve to their writer lanes, and nvcc's signed `pair / 64`
// and `pair % 64` (shift, mask and sign-correction idioms) read as the
// spec's quotient and remainder. PROVED at -O3 and -G; the twin that drops
// the last partial is REFUTED with a replayed counterexample, and the twin
// without the barrier is a race REFUTED with both lanes.
// RUN: split-file %s %t
// RUN: kproof-opt %inputs/cuda/ptx/qk_pairs.sm80.O3.ptx --verify-equiv --contract=%t/qk.mlir | FileCheck %s
// RUN: kproof-opt %inputs/cuda/ptx/qk_pairs.sm90.G.ptx --verify-equiv --contract=%t/qk.mlir | FileCheck %s
// RUN: sed 's/kernel = "qk_pairs"/kernel = "qk_pairs_drop_last"/' %t/qk.mlir > %t/drop.mlir
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/qk_pairs.sm80.O3.ptx --verify-equiv --contract=%t/drop.mlir 2>&1 | FileCheck %s --check-prefix=DROP
// RUN: sed 's/kernel = "qk_pairs"/kernel = "qk_pairs_no_sync"/' %t/qk.mlir > %t/nosync.mlir
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/qk_pairs.sm80.O3.ptx --verify-sync --contract=%t/nosync.mlir 2>&1 | FileCheck %s --check-prefix=RACE
// CHECK: kproof: qk_pairs against @qk(Q, K) -> S
// CHECK: launch: grid (4096, 1, 1) x block (128, 1, 1)
// CHECK-NOT: UNKNOWN
// CHECK: {{^}}PROVED
// DROP: ERROR: value mismatch at S[{{[0-9]+}}, {{[0-9]+}}] (row-major {{[0-9]+}})
// DROP: Replay: confirmed by replay (IEEE f32): kernel S[{{[0-9]+}}] = {{.*}}, spec = {{.*}}
// DROP: {{^}}REFUTED
// RACE: ERROR: data race on shared 'qk_pairs_no_sync::part' (byte {{[0-9]+}}): thread (tid.x={{[0-9]+}}, ctaid.x={{[0-9]+}}) writes at {{.*}}, thread (tid.x=0, ctaid.x={{[0-9]+}}) reads at
// RACE: Replay: confirmed by replay
// RACE: {{^}}REFUTED

//--- qk.mlir
#q = affine_map<(i, j, t) -> (i, t)>
#k = affine_map<(i, j, t) -> (j, t)>
#s = affine_map<(i, j, t) -> (i, j)>
// S = Q K^T over the head dimension.
func.func @qk(%q: tensor<64x128xf32>, %k: tensor<64x128xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %r = linalg.generic {indexing_maps = [#q, #k, #s], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<64x128xf32>, tensor<64x128xf32>) outs(%z : tensor<64x64xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
kproof.contract @qk_pairs {
  kernel = "qk_pairs", grid = array<i64: 4096, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [
    {name = "Q", buffer = "in", type = f32, shape = array<i64: 64, 128>},
    {name = "K", buffer = "in", type = f32, shape = array<i64: 64, 128>},
    {name = "S", buffer = "out", type = f32, shape = array<i64: 64, 64>}
  ],
  spec = {func = @qk, inputs = ["Q", "K"], output = "S"}
}
