// The solver's resource limit (Z3's rlimit, --solver-rlimit) decides an
// UNKNOWN, never the machine's speed: a limit too small for the race
// queries of the rotate-by-one kernel gives the same UNKNOWN, naming the
// limit, on every run. The wall-clock guard (--solver-guard, default
// 300 s) only backs the rlimit; when it fires, the reason says so.
// RUN: split-file %s %t
// RUN: %expect_exit 3 kproof-opt %inputs/cuda/ptx/sync_bugs.sm80.O3.ptx --verify-sync --contract=%t/rotate.mlir --solver-rlimit=1 > %t/run1.txt
// RUN: %expect_exit 3 kproof-opt %inputs/cuda/ptx/sync_bugs.sm80.O3.ptx --verify-sync --contract=%t/rotate.mlir --solver-rlimit=1 --solver-guard=0 > %t/run2.txt
// The reports are the same but for the line with the time.
// RUN: grep -v "^  contract @" %t/run1.txt > %t/run1.cmp
// RUN: grep -v "^  contract @" %t/run2.txt > %t/run2.cmp
// RUN: diff %t/run1.cmp %t/run2.cmp
// RUN: FileCheck %s < %t/run1.txt
// RUN: kproof-opt %inputs/cuda/ptx/sync_bugs.sm80.O3.ptx --verify-sync --contract=%t/rotate.mlir | FileCheck %s --check-prefix=DEFAULT
// CHECK: UNKNOWN: race-free: {{.*}} -- solver: resource limit reached (rlimit 1, --solver-rlimit)
// CHECK-NOT: wall-clock
// CHECK: UNKNOWN
// DEFAULT-NOT: UNKNOWN
// DEFAULT: PROVED

//--- rotate.mlir
func.func @rotate(%x: tensor<4x256xf32>) -> tensor<4x256xf32> {
  %e = tensor.empty() : tensor<4x256xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, i) -> (b, i)>],
                       iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<4x256xf32>) {
  ^bb0(%out: f32):
    %b = linalg.index 0 : index
    %i = linalg.index 1 : index
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %i1 = arith.addi %i, %c1 : index
    %j = arith.remui %i1, %c256 : index
    %v = tensor.extract %x[%b, %j] : tensor<4x256xf32>
    linalg.yield %v : f32
  } -> tensor<4x256xf32>
  return %r : tensor<4x256xf32>
}
kproof.contract @rotate_by_one {
  kernel = "rotate_smem",
  grid = array<i64: 4, 1, 1>, block = array<i64: 256, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4, 256>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 4, 256>}
  ],
  spec = {func = @rotate, inputs = ["x"], output = "y"}
}

