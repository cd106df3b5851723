// 2-D launches (grid 2 x 2, block 8 x 4: an 8 x 16 matrix, one element per
// thread). Coverage inverts the layout: for the copy, element e is written
// by tid.x = e % 8, ctaid.x = e / 8 % 2, tid.y = e / 16 % 4,
// ctaid.y = e / 64 % 2; for the transpose (y[col * 8 + row]) the witness
// swaps the roles of x and y. Both PROVED; the transpose checked against
// the copy spec is REFUTED.
// RUN: split-file %s %t
// RUN: %expect_exit 0 kproof-opt %inputs/cuda/ptx/grid2d_copy_transpose.sm80.O3.ptx --verify-equiv --contract=%t/copy.mlir | FileCheck %s --check-prefix=COPY
// RUN: %expect_exit 0 kproof-opt %inputs/cuda/ptx/grid2d_copy_transpose.sm80.O3.ptx --verify-equiv --contract=%t/transpose.mlir | FileCheck %s --check-prefix=TRANSPOSE
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/grid2d_copy_transpose.sm80.O3.ptx --verify-equiv --contract=%t/wrong.mlir 2>/dev/null | FileCheck %s --check-prefix=WRONG

// COPY: kproof: grid2d_copy against copy(x) -> y
// COPY-NOT: UNKNOWN
// COPY: PROVED
// TRANSPOSE: kproof: grid2d_transpose against permute[1, 0](x) -> y
// TRANSPOSE-NOT: UNKNOWN
// TRANSPOSE: PROVED
// WRONG: REFUTED: value y[i] written by the representative thread -- counterexample confirmed
// WRONG: Replay: confirmed by replay ({{[^)]*}}): kernel y[{{[0-9]+}}] = {{.*}}, spec = {{.*}}
// WRONG: REFUTED

//--- copy.mlir
kproof.contract @copy {
  kernel = "grid2d_copy", grid = array<i64: 2, 2, 1>, block = array<i64: 8, 4, 1>,
  params = [
    {name = "x", buffer = "in", type = f32, shape = array<i64: 8, 16>},
    {name = "y", buffer = "out", type = f32, shape = array<i64: 8, 16>},
    {name = "M", scalar = i32, value = 8 : i32},
    {name = "N", scalar = i32, value = 16 : i32}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}
//--- transpose.mlir
kproof.contract @transpose {
  kernel = "grid2d_transpose", grid = array<i64: 2, 2, 1>, block = array<i64: 8, 4, 1>,
  params = [
    {name = "x", buffer = "in", type = f32, shape = array<i64: 8, 16>},
    {name = "y", buffer = "out", type = f32, shape = array<i64: 16, 8>},
    {name = "M", scalar = i32, value = 8 : i32},
    {name = "N", scalar = i32, value = 16 : i32}
  ],
  spec = {builtin = "permute", input = "x", output = "y", perm = array<i64: 1, 0>}
}
//--- wrong.mlir
kproof.contract @wrong {
  kernel = "grid2d_transpose", grid = array<i64: 2, 2, 1>, block = array<i64: 8, 4, 1>,
  params = [
    {name = "x", buffer = "in", type = f32, shape = array<i64: 8, 16>},
    {name = "y", buffer = "out", type = f32, shape = array<i64: 8, 16>},
    {name = "M", scalar = i32, value = 8 : i32},
    {name = "N", scalar = i32, value = 16 : i32}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}
