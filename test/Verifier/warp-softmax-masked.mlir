// A warp softmax over rows shorter than the warp, masked lanes holding
// -inf (test/Inputs/cuda/warp_softmax_masked.cu: one warp per row, 20 of 32
// lanes hold a column). The butterfly max over -inf lanes is -inf only
// when no lane holds a column, which the path refutes (thread-id query);
// per lane case the lane conditions fold (the low 5 bits of 32 * w + l are
// l), so the value is the spec's; the divisor, a sum of masked exp terms,
// is positive because some lane's guard holds; coverage inverts row * 20 +
// lane with lane's radix narrowed to 20 by the guard (the witness is
// checked). PROVED at -O3 and -G. Twins: masked lanes filled with 0 (the
// max of a negative row becomes 0) and a shfl.down sum are REFUTED,
// replayed.
// RUN: split-file %s %t
// RUN: kproof-opt %inputs/cuda/ptx/warp_softmax_masked.sm80.O3.ptx --verify-equiv --contract=%t/c.mlir | FileCheck %s --check-prefix=PROVED
// RUN: kproof-opt %inputs/cuda/ptx/warp_softmax_masked.sm90.G.ptx --verify-equiv --contract=%t/c.mlir | FileCheck %s --check-prefix=PROVED
// RUN: sed 's/"warp_softmax_masked"/"warp_softmax_masked_zero_fill"/' %t/c.mlir > %t/zero.mlir
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/warp_softmax_masked.sm80.O3.ptx --verify-equiv --contract=%t/zero.mlir 2>&1 | FileCheck %s --check-prefixes=REFUTED,ZERO
// RUN: sed 's/"warp_softmax_masked"/"warp_softmax_masked_down_sum"/' %t/c.mlir > %t/down.mlir
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/warp_softmax_masked.sm90.G.ptx --verify-equiv --contract=%t/down.mlir 2>&1 | FileCheck %s --check-prefixes=REFUTED,DOWN

// PROVED-NOT: UNKNOWN
// PROVED: obligations: [[N:[0-9]+]] ([[N]] proved)
// PROVED: {{^}}PROVED
// Row 7 (x all 0), lane 6: the spec's 1/20; zero fill gives 1/32 (12 more
// lanes of exp(0)), the shfl.down sum 1/18 at this lane.
// REFUTED: ERROR: value mismatch at y[{{[0-9]+}}, {{[0-9]+}}] (row-major {{[0-9]+}})
// ZERO: Replay: confirmed by replay (IEEE f32): kernel y[146] = 0.03125, spec = 0.05
// DOWN: Replay: confirmed by replay (IEEE f32): kernel y[146] = 0.055555556, spec = 0.05
// REFUTED: {{^}}REFUTED

//--- c.mlir
kproof.contract @wm {
  kernel = "warp_softmax_masked", grid = array<i64: 8, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 8, 20>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 8, 20>},
    {name = "n", scalar = i32, value = 20 : i32}
  ],
  spec = {builtin = "softmax", input = "x", output = "y"}
}
