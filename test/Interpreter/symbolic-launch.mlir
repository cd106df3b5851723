// kproof-run on a contract with a symbolic launch (grid_max/block_max):
// --launch instantiates it (extents not named are 1); buffer shapes that
// name launch extents take their values. rotate_smem rotates each CTA's
// row of 3 elements by one: out = [1, 2, 0, 4, 5, 3].
// RUN: split-file %s %t
// RUN: %expect_exit 0 kproof-run %inputs/cuda/ptx/sync_bugs.sm80.O3.ptx --contract=%t/rotate.mlir --launch=ntid.x=3,nctaid.x=2 --inputs=%t/ramp6.json | FileCheck %s --check-prefix=ROT
// RUN: %expect_exit 2 kproof-run %inputs/cuda/ptx/sync_bugs.sm80.O3.ptx --contract=%t/rotate.mlir --inputs=%t/ramp6.json 2>&1 | FileCheck %s --check-prefix=NOLAUNCH
// RUN: %expect_exit 2 kproof-run %inputs/cuda/ptx/sync_bugs.sm80.O3.ptx --contract=%t/rotate.mlir --launch=ntid.x=2048 --random=1 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: %expect_exit 2 kproof-run %inputs/cuda/ptx/sync_bugs.sm80.O3.ptx --contract=%t/rotate.mlir --launch=ntid.q=3 --random=1 2>&1 | FileCheck %s --check-prefix=NAME
// RUN: %expect_exit 2 kproof-run %inputs/cuda/ptx/sync_bugs.sm80.O3.ptx --contract=%t/rotate.mlir --launch=ntid.x=three --random=1 2>&1 | FileCheck %s --check-prefix=VALUE
// RUN: %expect_exit 2 kproof-run %inputs/cuda/ptx/sync_bugs.sm80.O3.ptx --contract=%t/rotate.mlir --launch=ntid.x=3,nctaid.x=2 --inputs=%t/ramp4.json 2>&1 | FileCheck %s --check-prefix=COUNT

// ROT: "y": [
// ROT-NEXT: 1,
// ROT-NEXT: 2,
// ROT-NEXT: 0,
// ROT-NEXT: 4,
// ROT-NEXT: 5,
// ROT-NEXT: 3
// ROT: "result": "ok"

// NOLAUNCH: error: the contract's launch is symbolic (ntid.x in [1, 1024], nctaid.x in [1, 64]{{.*}}); give its extents with --launch=ntid.x=N,nctaid.x=M
// RANGE: error: launch extent ntid.x = 2048 is outside the contract's range [1, 1024]
// NAME: error: --launch entry 'ntid.q=3' names no launch extent
// VALUE: error: --launch entry 'ntid.x=three' is not NAME=INTEGER
// COUNT: error: {{.*}}'x'{{.*}}6

//--- rotate.mlir
func.func @rotate(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, i) -> (b, i)>],
                       iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<?x?xf32>) {
  ^bb0(%out: f32):
    %b = linalg.index 0 : index
    %i = linalg.index 1 : index
    %n = tensor.dim %x, %c1 : tensor<?x?xf32>
    %i1 = arith.addi %i, %c1 : index
    %j = arith.remui %i1, %n : index
    %v = tensor.extract %x[%b, %j] : tensor<?x?xf32>
    linalg.yield %v : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
kproof.contract @rotate_any {
  kernel = "rotate_smem",
  grid_max = array<i64: 64, 1, 1>, block_max = array<i64: 1024, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = ["nctaid.x", "ntid.x"]},
    {name = "y", buffer = "out", space = "global", type = f32, shape = ["nctaid.x", "ntid.x"]}
  ],
  spec = {func = @rotate, inputs = ["x"], output = "y"}
}

//--- ramp6.json
{"x": [0, 1, 2, 3, 4, 5]}

//--- ramp4.json
{"x": [0, 1, 2, 3]}
