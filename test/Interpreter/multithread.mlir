// kproof-run on nvcc's multi-thread fixtures: warp shuffles, shared memory
// with barriers, dynamic shared memory, atomics, a 2-D grid. Inputs are
// chosen so the expected outputs are hand-computed and exact in f32.
// RUN: split-file %s %t
// RUN: %expect_exit 0 kproof-run %inputs/cuda/ptx/reduce_warp_shfl.sm80.O3.ptx --contract=%t/shfl-down.mlir --inputs=%t/ramp32.json | FileCheck %s --check-prefix=DOWN
// RUN: %expect_exit 0 kproof-run %inputs/cuda/ptx/reduce_warp_shfl.sm90.G.ptx --contract=%t/shfl-xor.mlir --inputs=%t/ramp32.json --schedule=warp-rr | FileCheck %s --check-prefix=XOR
// RUN: %expect_exit 0 kproof-run %inputs/cuda/ptx/reduce_block_smem.sm80.O3.ptx --contract=%t/block.mlir --random=3 --seed=7 --schedule=random:5 --rtol=1e-5 | FileCheck %s --check-prefix=BLOCK
// RUN: %expect_exit 0 kproof-run %inputs/cuda/ptx/reduce_block_smem.sm80.O3.ptx --contract=%t/block.mlir --inputs=%t/ones512.json --schedule=reversed | FileCheck %s --check-prefix=BLOCK1
// RUN: %expect_exit 0 kproof-run %inputs/cuda/ptx/dynamic_smem.sm80.O3.ptx --contract=%t/reverse.mlir --inputs=%t/ramp16.json --dynamic-smem=32 | FileCheck %s --check-prefix=REV
// RUN: %expect_exit 1 kproof-run %inputs/cuda/ptx/dynamic_smem.sm80.O3.ptx --contract=%t/reverse.mlir --inputs=%t/ramp16.json | FileCheck %s --check-prefix=NOSMEM
// RUN: %expect_exit 0 kproof-run %inputs/cuda/ptx/histogram_atomics.sm80.O3.ptx --contract=%t/atomic-sum.mlir --inputs=%t/atomic-in.json --schedule=random:3 | FileCheck %s --check-prefix=ATOM
// RUN: %expect_exit 0 kproof-run %inputs/cuda/ptx/grid2d_copy_transpose.sm80.O3.ptx --contract=%t/transpose.mlir --random=2 | FileCheck %s --check-prefix=T2D

// Warp sum of 0..31 = 496, by shfl.down (lane 0 writes it).
// DOWN: "out": [
// DOWN-NEXT: 496
// DOWN: "result": "ok"
// shfl.bfly: every lane holds 496 (-G build, round-robin schedule).
// XOR: "all": [
// XOR-NEXT: 496,
// XOR-COUNT-30: 496,
// XOR-NEXT: 496
// XOR: "result": "ok"

// Tree reduction in shared memory over 2 CTAs of 256 threads.
// BLOCK: "samples": 3,
// BLOCK: "found": false,
// BLOCK: "summary": "not found in 3 samples"
// BLOCK: "findings": [],
// BLOCK: "result": "ok"
// BLOCK1: "out": [
// BLOCK1-NEXT: 256,
// BLOCK1-NEXT: 256
// BLOCK1: "findings": [],

// Each CTA of 8 threads reverses its 8 elements through dynamic shared
// memory: out = [7, 6, ..., 0, 15, ..., 8].
// REV: "out": [
// REV-NEXT: 7,
// REV-NEXT: 6,
// REV: "findings": [],
// REV: "result": "ok"
// Without dynamic shared memory every access is out of bounds.
// NOSMEM: "kind": "out-of-bounds access",
// NOSMEM: "result": "finding"

// atomicAdd of 1..8 into total (inout, initialized to 0): 36.
// ATOM: "outputs": {
// ATOM-NEXT: "total": [
// ATOM-NEXT: 36{{ *$}}
// ATOM: "result": "ok"

// T2D: "samples": 2,
// T2D: "found": false,

//--- ramp32.json
{"in": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31]}
//--- ramp16.json
{"in": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]}
//--- atomic-in.json
{"in": [1, 2, 3, 4, 5, 6, 7, 8], "total": [0]}
//--- ones512.json
{"in": [[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
        [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]]}
//--- shfl-down.mlir
kproof.contract @down {
  kernel = "reduce_warp_shfl_down", grid = array<i64: 1, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "in", buffer = "in", space = "global", type = f32, shape = array<i64: 32>},
    {name = "out", buffer = "out", space = "global", type = f32, shape = array<i64: 1>}
  ],
  spec = {builtin = "sum", input = "in", output = "out"}
}
//--- shfl-xor.mlir
kproof.contract @xor {
  kernel = "reduce_warp_shfl_xor", grid = array<i64: 1, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "in", buffer = "in", space = "global", type = f32, shape = array<i64: 32>},
    {name = "out", buffer = "out", space = "global", type = f32, shape = array<i64: 1>},
    {name = "all", buffer = "out", space = "global", type = f32, shape = array<i64: 32>}
  ],
  spec = {builtin = "sum", input = "in", output = "out"}
}
//--- block.mlir
kproof.contract @block {
  kernel = "reduce_block_smem_256", grid = array<i64: 2, 1, 1>, block = array<i64: 256, 1, 1>,
  params = [
    {name = "in", buffer = "in", space = "global", type = f32, shape = array<i64: 2, 256>},
    {name = "out", buffer = "out", space = "global", type = f32, shape = array<i64: 2>},
    {name = "n", scalar = i32, value = 512 : i32}
  ],
  spec = {builtin = "sum", input = "in", output = "out"}
}
//--- reverse.mlir
func.func @rev(%x: tensor<16xf32>) -> tensor<16xf32> {
  %init = tensor.empty() : tensor<16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i - (i mod 8) * 2 + 7)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<16xf32>) outs(%init : tensor<16xf32>) {
  ^bb0(%a: f32, %unused: f32):
    linalg.yield %a : f32
  } -> tensor<16xf32>
  return %r : tensor<16xf32>
}
kproof.contract @reverse {
  kernel = "dynamic_smem_reverse", grid = array<i64: 2, 1, 1>, block = array<i64: 8, 1, 1>,
  params = [
    {name = "in", buffer = "in", space = "global", type = f32, shape = array<i64: 16>},
    {name = "out", buffer = "out", space = "global", type = f32, shape = array<i64: 16>},
    {name = "n", scalar = i32, value = 16 : i32}
  ],
  spec = {func = @rev, inputs = ["in"], output = "out"}
}
//--- atomic-sum.mlir
kproof.contract @atomic {
  kernel = "sum_atomic_f32", grid = array<i64: 2, 1, 1>, block = array<i64: 4, 1, 1>,
  params = [
    {name = "in", buffer = "in", space = "global", type = f32, shape = array<i64: 8>},
    {name = "total", buffer = "inout", space = "global", type = f32, shape = array<i64: 1>},
    {name = "n", scalar = i32, value = 8 : i32}
  ],
  spec = {builtin = "sum", input = "in", output = "total"}
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
