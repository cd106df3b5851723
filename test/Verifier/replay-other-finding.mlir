// A REFUTED whose own counterexample the replay does not reproduce stays
// REFUTED when the replay run shows a violation that another REFUTED
// obligation of the verdict states. Here the grid-stride copy of
// loop_stores.cu scales its index by 3 bytes instead of 4: its loads and
// stores are misaligned (REFUTED), and the model's first finding, a race
// between two threads of one CTA, is not what the interpreter reaches
// first: the run stops at the misaligned load. The verdict is REFUTED on
// the alignment obligation the run confirms (the example's headline names
// it, with the model's inputs); the race obligation the run did not
// reproduce is UNKNOWN. (Only the first such multiply, grid_stride_copy's,
// is mutated: grid_stride_scaled_exp has the same line.)
//
// RUN: sed '0,/mul.wide.s32 \t%rd5, %r10, 4;/s//mul.wide.s32 \t%rd5, %r10, 3;/' %inputs/cuda/ptx/loop_stores.sm80.O3.ptx > %t.ptx
// RUN: grep -c '%rd5, %r10, 3;' %t.ptx | FileCheck %s --check-prefix=MUTATED
// RUN: %expect_exit 1 kproof-opt %t.ptx --verify-equiv --contract=%s 2>/dev/null | FileCheck %s
// MUTATED: 1
// CHECK: REFUTED: alignment of the load from x at {{.*}}.ptx:{{[0-9]+}}:2 (test/Inputs/cuda/loop_stores.cu:68:5) -- counterexample confirmed
// CHECK: ERROR: violated: alignment of the load from x at {{.*}}.ptx:[[LINE:[0-9]+]]:2
// CHECK: Example:
// CHECK-NEXT: n = {{[0-9]+}}
// CHECK: Replay: confirmed by replay: misaligned access at {{.*}}.ptx:[[LINE]]:2 {{.*}}(the obligation 'alignment of
// CHECK-NOT: UNKNOWN: the counterexample was not confirmed
// CHECK: REFUTED

kproof.contract @gs {
  kernel = "grid_stride_copy", grid = array<i64: 4, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = ["n"]},
    {name = "y", buffer = "out", space = "global", type = f32, shape = ["n"]},
    {name = "n", scalar = i32, range = array<i64: 1, 1048577>}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}
