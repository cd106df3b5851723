// The engine runs the lane symbolization (the rewrite of
// --kproof-symbolize-lanes) before executing a kernel and reads its result:
// %laneid is the linear thread id's low 5 bits, so y[t] = %laneid proves
// against y[i] = i mod 32 for a CTA of 64 threads; %warpid is tagged
// kproof.fresh_per_read, an arbitrary value at each read (PTX ISA: a
// physical warp slot, not tid / 32), so y[t] = %warpid against
// y[i] = i / 32 has a counterexample in the model that the interpreter
// (which numbers warps by tid / 32) does not show: UNKNOWN, never PROVED.
// RUN: split-file %s %t
// RUN: kproof-opt %t/lanes.mlir --verify-equiv | FileCheck %s --check-prefix=LANES
// RUN: %expect_exit 3 kproof-opt %t/warp.mlir --verify-equiv | FileCheck %s --check-prefix=WARP
// The refuted instruction is reported (error: REFUTED on stderr) only once
// the replay confirms the counterexample; here it does not, so stderr says
// nothing of a REFUTED.
// RUN: %expect_exit 3 kproof-opt %t/warp.mlir --verify-equiv 2>&1 >/dev/null | FileCheck %s --allow-empty --check-prefix=NOERR
// NOERR-NOT: REFUTED

// LANES-NOT: UNKNOWN
// LANES: {{^}}PROVED

// WARP-NOT: ERROR:
// WARP: Candidate (not a counterexample: replaying the kernel did not reproduce it): value mismatch at y[{{[0-9]+}}]
// WARP: (the model's values, which the replay of the kernel does not reproduce)
// WARP: Replay: not confirmed by replay
// WARP: {{^}}UNKNOWN: the counterexample was not confirmed by replaying the kernel

//--- lanes.mlir
kproof.kernel entry @lanes(%y: i64) {
  %lane = kproof.sreg laneid : i32
  %tid = kproof.sreg tid.x : i32
  %c4 = kproof.constant 4 : i32
  %off = kproof.ibin mul_lo %tid, %c4 : i32
  %off64 = kproof.cvt %off : i32 -> i64
  %a = kproof.ibin add %y, %off64 : i64
  kproof.st global %a, %lane : i64, i32
  kproof.return
}
func.func @lane_of() -> tensor<64xi32> {
  %e = tensor.empty() : tensor<64xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      outs(%e : tensor<64xi32>) {
  ^bb0(%o: i32):
    %i = linalg.index 0 : index
    %c32 = arith.constant 32 : index
    %l = arith.remui %i, %c32 : index
    %li = arith.index_cast %l : index to i32
    linalg.yield %li : i32
  } -> tensor<64xi32>
  return %r : tensor<64xi32>
}
kproof.contract @c {kernel = "lanes",
  grid = array<i64: 1, 1, 1>, block = array<i64: 64, 1, 1>,
  params = [{name = "y", buffer = "out", space = "global", type = i32, shape = array<i64: 64>}],
  spec = {func = @lane_of, inputs = [], output = "y"}, mode = "reals"}
//--- warp.mlir
kproof.kernel entry @lanes(%y: i64) {
  %lane = kproof.sreg warpid : i32
  %tid = kproof.sreg tid.x : i32
  %c4 = kproof.constant 4 : i32
  %off = kproof.ibin mul_lo %tid, %c4 : i32
  %off64 = kproof.cvt %off : i32 -> i64
  %a = kproof.ibin add %y, %off64 : i64
  kproof.st global %a, %lane : i64, i32
  kproof.return
}
func.func @lane_of() -> tensor<64xi32> {
  %e = tensor.empty() : tensor<64xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      outs(%e : tensor<64xi32>) {
  ^bb0(%o: i32):
    %i = linalg.index 0 : index
    %c32 = arith.constant 32 : index
    %l = arith.divui %i, %c32 : index
    %li = arith.index_cast %l : index to i32
    linalg.yield %li : i32
  } -> tensor<64xi32>
  return %r : tensor<64xi32>
}
kproof.contract @c {kernel = "lanes",
  grid = array<i64: 1, 1, 1>, block = array<i64: 64, 1, 1>,
  params = [{name = "y", buffer = "out", space = "global", type = i32, shape = array<i64: 64>}],
  spec = {func = @lane_of, inputs = [], output = "y"}, mode = "reals"}
