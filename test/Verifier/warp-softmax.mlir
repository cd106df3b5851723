// Warp softmax (test/Inputs/cuda/warp_softmax.cu): one row of 32 per warp,
// the row max and the sum of exponentials by xor-shuffle butterflies. Each
// lane's max is a tree of fmaxf over the 32 values in its own order; max
// and min nests are kept as canonical chains (operands flattened, sorted,
// deduplicated), so the 32 trees are one term and exp(x - m) cancels in
// the normal form: PROVED case by case over the lane, for 4 CTAs of 2
// warps (nvcc -O3 and -G). Before the chains, lane 0's value went to Z3
// and ended UNKNOWN after 40 s. The twin sums with __shfl_down_sync: only
// lane 0 gets the whole row's sum; REFUTED by a random probe at another
// lane, confirmed by replay.
// RUN: split-file %s %t
// RUN: kproof-opt %inputs/cuda/ptx/warp_softmax.sm80.O3.ptx --verify-equiv --contract=%t/ok.mlir | FileCheck %s
// RUN: kproof-opt %inputs/cuda/ptx/warp_softmax.sm90.G.ptx --verify-equiv --contract=%t/ok.mlir | FileCheck %s
// RUN: sed 's/"warp_softmax_rows"/"warp_softmax_rows_down_bug"/' %t/ok.mlir > %t/bug.mlir
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/warp_softmax.sm80.O3.ptx --verify-equiv --contract=%t/bug.mlir 2>/dev/null | FileCheck %s --check-prefix=BUG
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/warp_softmax.sm90.G.ptx --verify-equiv --contract=%t/bug.mlir 2>/dev/null | FileCheck %s --check-prefix=BUG

// CHECK: kproof: warp_softmax_rows against softmax(x) -> y
// CHECK-NOT: UNKNOWN
// CHECK: {{^}}PROVED

// BUG: kproof: warp_softmax_rows_down_bug against softmax(x) -> y
// BUG: REFUTED: value y[i] written by the representative thread -- counterexample confirmed (random input
// BUG: ERROR: value mismatch at y[6, 6] (row-major 198)
// BUG: Example:
// BUG-NEXT: ctaid.x = 3
// BUG-NEXT: tid.x = 6
// BUG-NEXT: x[6, 21] = 1
// BUG-NEXT: x[others] = 0
// BUG: Kernel value: [2.821944051013e-02, 2.821944051014e-02]
// BUG-NEXT: Spec value: [2.965750168076e-02, 2.965750168077e-02]
// BUG: Replay: confirmed by replay (IEEE f32): kernel y[198] = 0.0282194428, spec = 0.0296575017
// BUG: {{^}}REFUTED

//--- ok.mlir
kproof.contract @warp_softmax {
  kernel = "warp_softmax_rows", grid = array<i64: 4, 1, 1>, block = array<i64: 64, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 8, 32>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 8, 32>}
  ],
  spec = {builtin = "softmax", input = "x", output = "y"}
}
