// A loop over tiles whose last tile is padded, summarized over a symbolic
// length (test/Inputs/cuda/flash_keys.cu, tiled_rowsum: a row sum in tiles
// of 4 elements, `k0 + j < n ? x[...] : 0`, the tile loop kept rolled). Its
// reduction has one element per tile and ends past n; it is matched with
// the spec's sum over j < n when Z3 proves that the tiles cover [0, n) and
// that each tile's element is the sum of its 4 elements of the spec's, 0
// past n ("sum over tiles of 4 elements, the last padded"). PROVED for
// every n in [1, 2^20]; the twin adding 3 elements per tile is REFUTED
// over every n (no bounded check), replayed.
// RUN: split-file %s %t
// RUN: kproof-opt %inputs/cuda/ptx/flash_keys.sm80.O3.ptx --verify-equiv --contract=%t/tiled.mlir --small-sizes=0 --format=json | FileCheck %s --check-prefix=JSON
// RUN: kproof-opt %inputs/cuda/ptx/flash_keys.sm90.O3.ptx --verify-equiv --contract=%t/tiled.mlir --small-sizes=0 | FileCheck %s --check-prefix=PROVED
// RUN: sed 's/"tiled_rowsum"/"tiled_rowsum_skip"/' %t/tiled.mlir > %t/skip.mlir
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/flash_keys.sm80.O3.ptx --verify-equiv --contract=%t/skip.mlir --small-sizes=0 2>/dev/null | FileCheck %s --check-prefix=SKIP

// JSON: sum over tiles of 4 elements, the last padded, equal to the spec's
// JSON: "verdict": "PROVED"

// PROVED: kproof: tiled_rowsum against sum(x) -> y
// PROVED-NOT: UNKNOWN
// PROVED: {{^}}PROVED

// SKIP-NOT: bounded check
// SKIP: REFUTED: value y[i] {{.*}}counterexample confirmed
// SKIP: n = 15
// SKIP: x[others] = 5/4
// SKIP: Replay: confirmed by replay (IEEE f32): kernel y[26] = 15, spec = 18.75
// SKIP: {{^}}REFUTED

//--- tiled.mlir
kproof.contract @tiled {
  kernel = "tiled_rowsum", grid = array<i64: 2, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "x", buffer = "in", type = f32, shape = [64, "n"]},
    {name = "y", buffer = "out", type = f32, shape = array<i64: 64>},
    {name = "n", scalar = i32, range = array<i64: 1, 1048577>}
  ],
  spec = {builtin = "sum", input = "x", output = "y"}
}
