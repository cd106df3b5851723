// Shared memory with an XOR-swizzled layout (test/Inputs/cuda/
// transpose_swizzle.cu): the tiled transpose with element (r, c) of the
// tile at tile[r][c ^ r] instead of padding. The writer of a shared read is
// found by inverting the address over GF(2) (each thread-id bit is the xor
// of some address bits; the match offset(writer) == address is an
// obligation, so a wrong inverse could only lose the proof). PROVED against
// the permute spec; forgetting the swizzle on the way out is REFUTED and
// replayed.
// RUN: split-file %s %t
// RUN: kproof-opt %inputs/cuda/ptx/transpose_swizzle.sm80.O3.ptx --verify-equiv --contract=%t/xor.mlir | FileCheck %s --check-prefix=XOR
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/transpose_swizzle.sm80.O3.ptx --verify-equiv --contract=%t/bug.mlir 2>&1 | FileCheck %s --check-prefix=BUG

// XOR-NOT: UNKNOWN
// XOR: {{^}}PROVED
// BUG: error: REFUTED: value mismatch at y[
// BUG: Replay: confirmed by replay (IEEE f32): kernel y[{{[0-9]+}}] =
// BUG: {{^}}REFUTED

//--- xor.mlir
kproof.contract @tr {kernel = "transpose_xor",
  grid = array<i64: 2, 2, 1>, block = array<i64: 32, 8, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 64, 64>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 64, 64>},
            {name = "W", scalar = i32, value = 64 : i32},
            {name = "H", scalar = i32, value = 64 : i32}],
  spec = {builtin = "permute", input = "x", output = "y", perm = array<i64: 1, 0>}}
//--- bug.mlir
kproof.contract @tr {kernel = "transpose_xor_bug",
  grid = array<i64: 2, 2, 1>, block = array<i64: 32, 8, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 64, 64>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 64, 64>},
            {name = "W", scalar = i32, value = 64 : i32},
            {name = "H", scalar = i32, value = 64 : i32}],
  spec = {builtin = "permute", input = "x", output = "y", perm = array<i64: 1, 0>}}
