// The solver's resource limit (Z3's rlimit, --solver-rlimit) decides an
// UNKNOWN, never the machine's speed: a limit too small for the queries
// of the shared-tile loop (each thread reads its neighbour's element, so
// that the read is initialized is a query; the race pairs are decided on
// the thread ids' linear forms without one) gives the same UNKNOWN, naming
// the limit, on every run. The wall-clock guard (--solver-guard, default
// 300 s) only backs the rlimit; when it fires, the reason says so.
// RUN: split-file %s %t
// RUN: %expect_exit 3 kproof-opt %inputs/cuda/ptx/sync_bugs.sm80.O3.ptx --verify-sync --contract=%t/tile.mlir --solver-rlimit=1 > %t/run1.txt
// RUN: %expect_exit 3 kproof-opt %inputs/cuda/ptx/sync_bugs.sm80.O3.ptx --verify-sync --contract=%t/tile.mlir --solver-rlimit=1 --solver-guard=0 > %t/run2.txt
// The reports are the same but for the line with the time.
// RUN: grep -v "^  contract @" %t/run1.txt > %t/run1.cmp
// RUN: grep -v "^  contract @" %t/run2.txt > %t/run2.cmp
// RUN: diff %t/run1.cmp %t/run2.cmp
// RUN: FileCheck %s < %t/run1.txt
// RUN: kproof-opt %inputs/cuda/ptx/sync_bugs.sm80.O3.ptx --verify-sync --contract=%t/tile.mlir | FileCheck %s --check-prefix=DEFAULT
// CHECK: UNKNOWN: initialized: {{.*}} -- solver: resource limit reached (rlimit 1, --solver-rlimit)
// CHECK-NOT: wall-clock
// CHECK: UNKNOWN
// DEFAULT-NOT: UNKNOWN
// DEFAULT: PROVED

//--- tile.mlir
// y[t] = sum over the four tiles k of x[k, (t + 1) % 128].
func.func @tiles(%x: tensor<4x128xf32>) -> tensor<128xf32> {
  %e = tensor.empty() : tensor<128xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      outs(%e : tensor<128xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c128 = arith.constant 128 : index
    %i1 = arith.addi %i, %c1 : index
    %j = arith.remui %i1, %c128 : index
    %v0 = tensor.extract %x[%c0, %j] : tensor<4x128xf32>
    %v1 = tensor.extract %x[%c1, %j] : tensor<4x128xf32>
    %v2 = tensor.extract %x[%c2, %j] : tensor<4x128xf32>
    %v3 = tensor.extract %x[%c3, %j] : tensor<4x128xf32>
    %z = arith.constant 0.0 : f32
    %s0 = arith.addf %v0, %z : f32
    %s1 = arith.addf %s0, %v1 : f32
    %s2 = arith.addf %s1, %v2 : f32
    %s3 = arith.addf %s2, %v3 : f32
    linalg.yield %s3 : f32
  } -> tensor<128xf32>
  return %r : tensor<128xf32>
}
kproof.contract @tile {
  kernel = "tile_loop",
  grid = array<i64: 1, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4, 128>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 128>}
  ],
  spec = {func = @tiles, inputs = ["x"], output = "y"}
}
