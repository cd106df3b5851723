// A writer chosen by a guard, not by the address alone: each group of 16
// consecutive threads sums its 16 elements by xor shuffles (8, 4, 2, 1),
// and only the group's first thread writes y[t >> 4] (t % 16 == 0): of
// the 16 threads whose address is y[g], the guard keeps one. One writer per
// element and coverage follow from inverting the layout under the guard;
// PROVED at -O3 and -G for 2 CTAs of 128 threads. The twin's guard is
// t % 8 == 0: two threads of each group write the same element, a race
// REFUTED with both threads, replayed (they write the same value: still a
// race unless the contract says tolerate_equal_writes).
// RUN: split-file %s %t
// RUN: kproof-opt %inputs/cuda/ptx/memory_layouts.sm80.O3.ptx --verify-equiv --contract=%t/g16.mlir | FileCheck %s
// RUN: kproof-opt %inputs/cuda/ptx/memory_layouts.sm90.G.ptx --verify-equiv --contract=%t/g16.mlir | FileCheck %s
// RUN: kproof-opt %inputs/cuda/ptx/memory_layouts.sm80.O3.ptx --verify-equiv --contract=%t/g16.mlir --format=json | FileCheck %s --check-prefix=JSON
// RUN: sed 's/"group16_sum"/"group16_sum_bug"/' %t/g16.mlir > %t/g16-bug.mlir
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/memory_layouts.sm80.O3.ptx --verify-equiv --contract=%t/g16-bug.mlir 2>&1 | FileCheck %s --check-prefix=BUG
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/memory_layouts.sm90.G.ptx --verify-equiv --contract=%t/g16-bug.mlir 2>&1 | FileCheck %s --check-prefix=BUG

// CHECK: kproof: group16_sum against @group_sum(x) -> y
// CHECK-NOT: UNKNOWN
// CHECK: {{^}}PROVED

// JSON: "name": "race-free: global 'y', one CTA, phase 0: write at
// JSON-NEXT: "verdict": "PROVED"
// JSON: "name": "race-free: global 'y', two CTAs: write at
// JSON-NEXT: "verdict": "PROVED"
// JSON: "name": "value y[i] written by the representative thread"
// JSON-NEXT: "verdict": "PROVED"
// JSON: "name": "coverage: every element of 'y' is written"
// JSON-NEXT: "verdict": "PROVED"

// BUG: error: REFUTED: data race on global 'y' (byte {{[0-9]+}}): thread (tid.x={{[0-9]+}}, ctaid.x={{[0-9]+}}) writes at {{.*}}memory_layouts.cu:{{[0-9]+}}:{{[0-9]+}}), thread (tid.x={{[0-9]+}}, ctaid.x={{[0-9]+}}) writes
// BUG: kproof: group16_sum_bug against @group_sum(x) -> y
// BUG: Replay: confirmed by replay (IEEE f32): race: write of y[{{[0-9]+}}] by thread
// BUG: {{^}}REFUTED

//--- g16.mlir
#in = affine_map<(g, i) -> (g, i)>
#out = affine_map<(g, i) -> (g)>
func.func @group_sum(%x: tensor<16x16xf32>) -> tensor<16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %s = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x16xf32>) outs(%s0 : tensor<16xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %v = arith.addf %acc, %a : f32
    linalg.yield %v : f32
  } -> tensor<16xf32>
  return %s : tensor<16xf32>
}
kproof.contract @g16 {kernel = "group16_sum",
  grid = array<i64: 2, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 16, 16>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 16>}],
  spec = {func = @group_sum, inputs = ["x"], output = "y"}}
