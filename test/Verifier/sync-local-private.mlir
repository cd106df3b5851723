// A thread's .local memory is its own (PTX ISA 5.1.5): -G keeps a
// per-thread array in a .local depot (test/Inputs/cuda/soundness.cu,
// local_scratch_loop), and its accesses by two threads are not a race
// (they were REFUTED as races on "global '__local_depot'"). Both builds
// prove race-free and equal to the spec; a spec with one weight changed is
// REFUTED with a counterexample the replay confirms, so the values that
// pass through .local are modeled, not skipped.
// RUN: split-file %s %t
// RUN: kproof-opt %inputs/cuda/ptx/soundness.sm80.G.ptx --verify-sync --contract=%t/wsum.mlir | FileCheck %s --check-prefix=SYNC
// RUN: kproof-opt %inputs/cuda/ptx/soundness.sm80.G.ptx --verify-equiv --contract=%t/wsum.mlir | FileCheck %s
// RUN: kproof-opt %inputs/cuda/ptx/soundness.sm80.O3.ptx --verify-equiv --contract=%t/wsum.mlir | FileCheck %s
// RUN: grep -c '__local_depot' %inputs/cuda/ptx/soundness.sm80.G.ptx | FileCheck %s --check-prefix=DEPOT
// RUN: sed 's/%w4 = arith.constant 4.0/%w4 = arith.constant 5.0/' %t/wsum.mlir > %t/wrong.mlir
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/soundness.sm80.G.ptx --verify-equiv --contract=%t/wrong.mlir 2>/dev/null | FileCheck %s --check-prefix=WRONG
// DEPOT: {{[1-9]}}
// SYNC-NOT: data race
// SYNC-NOT: UNKNOWN
// SYNC: PROVED
// CHECK: kproof: local_scratch_loop against @wsum(in) -> out
// CHECK-NOT: REFUTED
// CHECK-NOT: UNKNOWN
// CHECK: PROVED
// WRONG: ERROR: value mismatch at out[{{[0-9]+}}]
// WRONG: Kernel value: [{{.*}}]
// WRONG: Spec value: [{{.*}}]
// WRONG: they differ
// WRONG: Replay: confirmed by replay (IEEE f32): kernel out[{{[0-9]+}}] = {{[-0-9.e+]+}}, spec = {{[-0-9.e+]+}}
// WRONG: REFUTED

//--- wsum.mlir
// out[g] = sum_k (k + 1) * in[g, k].
func.func @wsum(%x: tensor<64x4xf32>) -> tensor<64xf32> {
  %e = tensor.empty() : tensor<64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      outs(%e : tensor<64xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %w1 = arith.constant 1.0 : f32
    %w2 = arith.constant 2.0 : f32
    %w3 = arith.constant 3.0 : f32
    %w4 = arith.constant 4.0 : f32
    %z = arith.constant 0.0 : f32
    %a = tensor.extract %x[%i, %c0] : tensor<64x4xf32>
    %b = tensor.extract %x[%i, %c1] : tensor<64x4xf32>
    %c = tensor.extract %x[%i, %c2] : tensor<64x4xf32>
    %d = tensor.extract %x[%i, %c3] : tensor<64x4xf32>
    %pa = arith.mulf %a, %w1 : f32
    %pb = arith.mulf %b, %w2 : f32
    %pc = arith.mulf %c, %w3 : f32
    %pd = arith.mulf %d, %w4 : f32
    %s0 = arith.addf %z, %pa : f32
    %s1 = arith.addf %s0, %pb : f32
    %s2 = arith.addf %s1, %pc : f32
    %s3 = arith.addf %s2, %pd : f32
    linalg.yield %s3 : f32
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}
kproof.contract @local_scratch_loop_c {
  kernel = "local_scratch_loop",
  grid = array<i64: 2, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "in", buffer = "in", space = "global", type = f32, shape = array<i64: 64, 4>},
    {name = "out", buffer = "out", space = "global", type = f32, shape = array<i64: 64>}
  ],
  spec = {func = @wsum, inputs = ["in"], output = "out"}
}
