// Write-write races of equal values are data races under PTX's memory model
// (test/Inputs/cuda/soundness.cu): every CTA writing p[threadIdx.x] =
// threadIdx.x, and CTAs b and b+1 both writing the constant 1.0 to their
// shared boundary element. Both are REFUTED with the two CTAs, the element
// and a replay that shows the race (they used to be PROVED with a "benign
// race" warning). A contract with tolerate_equal_writes = true accepts the
// first: PROVED, with the warning and the assumption printed.
// RUN: split-file %s %t
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/soundness.sm80.O3.ptx --verify-sync --contract=%t/iota.mlir 2>/dev/null | FileCheck %s --check-prefix=IOTA
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/soundness.sm80.G.ptx --verify-sync --contract=%t/iota.mlir 2>/dev/null | FileCheck %s --check-prefix=IOTA
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/soundness.sm80.O3.ptx --verify-equiv --contract=%t/iota.mlir 2>/dev/null | FileCheck %s --check-prefix=IOTA
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/soundness.sm80.O3.ptx --verify-sync --contract=%t/overlap.mlir 2>/dev/null | FileCheck %s --check-prefix=OVERLAP
// RUN: sed 's/spec = {func/tolerate_equal_writes = true, spec = {func/' %t/iota.mlir > %t/tolerated.mlir
// RUN: kproof-opt %inputs/cuda/ptx/soundness.sm80.O3.ptx --verify-equiv --contract=%t/tolerated.mlir 2>/dev/null | FileCheck %s --check-prefix=TOL
// IOTA: ERROR: data race on global 'p' (byte {{[0-9]+}}): thread (tid.x=[[T:[0-9]+]], ctaid.x={{[0-9]}}) writes at {{.*}}soundness.cu:150:3), thread (tid.x=[[T]], ctaid.x={{[0-9]}}) writes at {{.*}}soundness.cu:150:3) (two CTAs: no barrier orders them) (both write the same value: still a data race; the contract may tolerate it with tolerate_equal_writes = true)
// IOTA: Replay: confirmed by replay (IEEE f32): race: write of p[{{[0-9]+}}] by thread ({{[0-9]+}},0,0) of CTA ({{[0-9]}},0,0) and write by thread ({{[0-9]+}},0,0) of CTA ({{[0-9]}},0,0) {{.*}}(both write the same value)
// IOTA: REFUTED
// OVERLAP: ERROR: data race on global 'y' (byte {{[0-9]+}}): thread {{.*}} (two CTAs: no barrier orders them) (both write the same value: still a data race
// OVERLAP: Replay: confirmed by replay (IEEE f32): race: write of y[{{[0-9]+}}]
// OVERLAP: REFUTED
// TOL: assuming: write-write races that store equal values are tolerated (tolerate_equal_writes)
// TOL: warning: tolerated race (both threads write the same value): global 'p'
// TOL-NOT: UNKNOWN
// TOL: PROVED

//--- iota.mlir
// p[i] = i for each of the 32 elements; every one of the 4 CTAs writes all.
func.func @iota() -> tensor<32xf32> {
  %e = tensor.empty() : tensor<32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      outs(%e : tensor<32xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.uitofp %ii : i32 to f32
    linalg.yield %f : f32
  } -> tensor<32xf32>
  return %r : tensor<32xf32>
}
kproof.contract @ww_same_value_c {
  kernel = "ww_same_value",
  grid = array<i64: 4, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "p", buffer = "out", space = "global", type = f32, shape = array<i64: 32>}
  ],
  spec = {func = @iota, inputs = [], output = "p"}
}

//--- overlap.mlir
// y[g] = 1.0 where g % 63 == 0 (CTA boundaries, written by two CTAs), else x[g].
func.func @overlap(%x: tensor<253xf32>) -> tensor<253xf32> {
  %e = tensor.empty() : tensor<253xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      outs(%e : tensor<253xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %c63 = arith.constant 63 : index
    %c0 = arith.constant 0 : index
    %one = arith.constant 1.0 : f32
    %m = arith.remui %i, %c63 : index
    %b = arith.cmpi eq, %m, %c0 : index
    %v = tensor.extract %x[%i] : tensor<253xf32>
    %y = arith.select %b, %one, %v : f32
    linalg.yield %y : f32
  } -> tensor<253xf32>
  return %r : tensor<253xf32>
}
kproof.contract @ww_overlap_equal_c {
  kernel = "ww_overlap_equal",
  grid = array<i64: 4, 1, 1>, block = array<i64: 64, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 253>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 253>}
  ],
  spec = {func = @overlap, inputs = ["x"], output = "y"}
}
