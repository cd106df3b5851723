// The CUB-style block sum: shuffles within each warp, one partial per warp
// in shared memory (warp_sums[tid >> 5], written by lane 0), a barrier, and
// warp 0 reducing the partials (lane < 8 ? warp_sums[lane] : 0). The shared
// read resolves to its writer (the warp's slot from the address, the lane
// from `lane == 0`), the one-sided shared write is kept under its guard when
// the two sides of `if (lane == 0)` merge, and lane 0 of warp 0 is pinned
// by its lane and warp conditions. PROVED for 2 CTAs and for any grid of up
// to 65535 CTAs (a symbolic launch with a func spec over ["nctaid.x", 256]);
// the bug drops the last partial: REFUTED, confirmed by replay.
// RUN: split-file %s %t
// RUN: kproof-opt %inputs/cuda/ptx/block_reduce_cub.sm80.O3.ptx --verify-equiv --contract=%t/cub.mlir | FileCheck %s --check-prefix=CUB
// RUN: kproof-opt %inputs/cuda/ptx/block_reduce_cub.sm90.G.ptx --verify-equiv --contract=%t/cub.mlir | FileCheck %s --check-prefix=CUB
// RUN: kproof-opt %inputs/cuda/ptx/block_reduce_cub.sm80.O3.ptx --verify-equiv --contract=%t/any-grid.mlir | FileCheck %s --check-prefix=ANY
// RUN: kproof-opt %inputs/cuda/ptx/block_reduce_cub.sm90.G.ptx --verify-equiv --contract=%t/any-grid.mlir | FileCheck %s --check-prefix=ANY
// RUN: kproof-opt %inputs/cuda/ptx/block_reduce_cub.sm80.O3.ptx --verify-sync --contract=%t/cub.mlir | FileCheck %s --check-prefix=SYNC
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/block_reduce_cub.sm80.O3.ptx --verify-equiv --contract=%t/cub-bug.mlir 2>&1 | FileCheck %s --check-prefix=BUG
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/block_reduce_cub.sm90.G.ptx --verify-equiv --contract=%t/cub-bug.mlir 2>&1 | FileCheck %s --check-prefix=BUG

// CUB: kproof: block_sum_cub against sum(x) -> y
// CUB-NOT: UNKNOWN
// CUB: {{^}}PROVED
// ANY: assuming: symbolic launch: ntid.x = 256, nctaid.x in [1, 65535]
// ANY-NOT: UNKNOWN
// ANY: {{^}}PROVED
// SYNC-NOT: UNKNOWN
// SYNC: {{^}}PROVED
// BUG: error: REFUTED: value mismatch at y[0]
// BUG: Replay: confirmed by replay ({{[^)]*}}): kernel {{[a-z_]+}}[{{[0-9]+}}] = {{-?[0-9.e+-]+}}, spec = {{-?[0-9.e+-]+}}
// BUG: {{^}}REFUTED

//--- cub.mlir
kproof.contract @cub {kernel = "block_sum_cub",
  grid = array<i64: 2, 1, 1>, block = array<i64: 256, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 2, 256>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 2>}],
  spec = {builtin = "sum", input = "x", output = "y"}}
//--- cub-bug.mlir
kproof.contract @cub {kernel = "block_sum_cub_bug",
  grid = array<i64: 2, 1, 1>, block = array<i64: 256, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 2, 256>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 2>}],
  spec = {builtin = "sum", input = "x", output = "y"}}
//--- any-grid.mlir
#map = affine_map<(b, i) -> (b, i)>
#row = affine_map<(b, i) -> (b)>
func.func @rowsum(%x: tensor<?x256xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %x, %c0 : tensor<?x256xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %s = linalg.generic {indexing_maps = [#map, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<?x256xf32>) outs(%z : tensor<?xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  return %s : tensor<?xf32>
}
kproof.contract @cub_any {kernel = "block_sum_cub",
  grid_max = array<i64: 65535, 1, 1>, block = array<i64: 256, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = ["nctaid.x", 256]},
            {name = "y", buffer = "out", space = "global", type = f32, shape = ["nctaid.x"]}],
  spec = {func = @rowsum, inputs = ["x"], output = "y"}}
