// The textbook tiled transpose: a 32x32 tile through shared memory, a 32x8
// block, 4 elements per thread, out = in^T for a 64x64 matrix (2x2 CTAs).
// Each thread's 4 shared stores, 4 shared reads of other threads' writes
// and 4 global stores are resolved and checked: PROVED against the permute
// spec, unpadded (-O3, -G) and with the bank-conflict padding tile[32][33].
// Reading the tile back untransposed is REFUTED at a value, dropping the
// barrier is REFUTED as a shared-memory race; both confirmed by replay.
// RUN: split-file %s %t
// RUN: kproof-opt %inputs/cuda/ptx/transpose_tiled.sm80.O3.ptx --verify-equiv --contract=%t/tr.mlir | FileCheck %s --check-prefix=TR
// RUN: kproof-opt %inputs/cuda/ptx/transpose_tiled.sm90.G.ptx --verify-equiv --contract=%t/tr.mlir | FileCheck %s --check-prefix=TR
// RUN: kproof-opt %inputs/cuda/ptx/transpose_tiled.sm80.O3.ptx --verify-equiv --contract=%t/padded.mlir | FileCheck %s --check-prefix=TR
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/transpose_tiled.sm80.O3.ptx --verify-equiv --contract=%t/bug.mlir 2>&1 | FileCheck %s --check-prefix=BUG
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/transpose_tiled.sm80.O3.ptx --verify-equiv --contract=%t/nosync.mlir 2>&1 | FileCheck %s --check-prefix=NOSYNC
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/transpose_tiled.sm90.G.ptx --verify-equiv --contract=%t/bug.mlir 2>&1 | FileCheck %s --check-prefix=BUG
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/transpose_tiled.sm90.G.ptx --verify-equiv --contract=%t/nosync.mlir 2>&1 | FileCheck %s --check-prefix=NOSYNC
// The padded tile (tile[32][33]) at -G, and its own twins at -O3 and -G.
// RUN: kproof-opt %inputs/cuda/ptx/transpose_tiled.sm90.G.ptx --verify-equiv --contract=%t/padded.mlir | FileCheck %s --check-prefix=TR
// RUN: sed 's/"transpose_smem_padded"/"transpose_smem_padded_bug"/' %t/padded.mlir > %t/padded-bug.mlir
// RUN: sed 's/"transpose_smem_padded"/"transpose_smem_padded_nosync"/' %t/padded.mlir > %t/padded-nosync.mlir
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/transpose_tiled.sm80.O3.ptx --verify-equiv --contract=%t/padded-bug.mlir 2>&1 | FileCheck %s --check-prefixes=BUG,PBUG
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/transpose_tiled.sm90.G.ptx --verify-equiv --contract=%t/padded-bug.mlir 2>&1 | FileCheck %s --check-prefixes=BUG,PBUG
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/transpose_tiled.sm80.O3.ptx --verify-equiv --contract=%t/padded-nosync.mlir 2>&1 | FileCheck %s --check-prefixes=NOSYNC,PNOSYNC
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/transpose_tiled.sm90.G.ptx --verify-equiv --contract=%t/padded-nosync.mlir 2>&1 | FileCheck %s --check-prefixes=NOSYNC,PNOSYNC

// TR-NOT: UNKNOWN
// TR: {{^}}PROVED
// BUG: error: REFUTED: value mismatch at y[
// PBUG: kproof: transpose_smem_padded_bug against
// BUG: Replay: confirmed by replay ({{[^)]*}}): kernel {{[a-z_]+}}[{{[0-9]+}}] = {{-?[0-9.e+-]+}}, spec = {{-?[0-9.e+-]+}}
// BUG: {{^}}REFUTED
// NOSYNC: error: REFUTED: data race on shared {{.*}}::tile' (byte {{[0-9]+}}): thread {{.*}} writes at {{.*}}, thread {{.*}} reads at {{.*}} in the same barrier phase
// PNOSYNC: kproof: transpose_smem_padded_nosync against
// NOSYNC: Replay: confirmed by replay (IEEE f32): race
// NOSYNC: {{^}}REFUTED

//--- tr.mlir
kproof.contract @tr {kernel = "transpose_smem",
  grid = array<i64: 2, 2, 1>, block = array<i64: 32, 8, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 64, 64>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 64, 64>},
            {name = "W", scalar = i32, value = 64 : i32},
            {name = "H", scalar = i32, value = 64 : i32}],
  spec = {builtin = "permute", input = "x", output = "y", perm = array<i64: 1, 0>}}
//--- padded.mlir
kproof.contract @tr {kernel = "transpose_smem_padded",
  grid = array<i64: 2, 2, 1>, block = array<i64: 32, 8, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 64, 64>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 64, 64>},
            {name = "W", scalar = i32, value = 64 : i32},
            {name = "H", scalar = i32, value = 64 : i32}],
  spec = {builtin = "permute", input = "x", output = "y", perm = array<i64: 1, 0>}}
//--- bug.mlir
kproof.contract @tr {kernel = "transpose_smem_bug",
  grid = array<i64: 2, 2, 1>, block = array<i64: 32, 8, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 64, 64>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 64, 64>},
            {name = "W", scalar = i32, value = 64 : i32},
            {name = "H", scalar = i32, value = 64 : i32}],
  spec = {builtin = "permute", input = "x", output = "y", perm = array<i64: 1, 0>}}
//--- nosync.mlir
kproof.contract @tr {kernel = "transpose_smem_nosync",
  grid = array<i64: 2, 2, 1>, block = array<i64: 32, 8, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 64, 64>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 64, 64>},
            {name = "W", scalar = i32, value = 64 : i32},
            {name = "H", scalar = i32, value = 64 : i32}],
  spec = {builtin = "permute", input = "x", output = "y", perm = array<i64: 1, 0>}}
