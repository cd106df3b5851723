// Threads that write several elements: float4 vector loads and stores, and
// four stores per thread at stride blockDim.x (an unrolled loop). Each
// final store is compared with the spec at its own index; the stores of
// one thread are proved to write distinct elements; coverage inverts the
// layout with the store counter as one more mixed-radix digit. Each
// planted bug is REFUTED with a replayed counterexample.
// RUN: split-file %s %t
// RUN: kproof-opt %inputs/cuda/ptx/memory_layouts.sm80.O3.ptx --verify-equiv --contract=%t/vec4.mlir | FileCheck %s --check-prefix=VEC4
// RUN: kproof-opt %inputs/cuda/ptx/memory_layouts.sm80.O3.ptx --verify-equiv --contract=%t/vec4.mlir --format=json | FileCheck %s --check-prefix=VEC4-JSON
// RUN: kproof-opt %inputs/cuda/ptx/memory_layouts.sm90.G.ptx --verify-equiv --contract=%t/vec4.mlir | FileCheck %s --check-prefix=VEC4
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/memory_layouts.sm80.O3.ptx --verify-equiv --contract=%t/vec4-bug.mlir 2>&1 | FileCheck %s --check-prefix=VEC4-BUG
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/memory_layouts.sm90.G.ptx --verify-equiv --contract=%t/vec4-bug.mlir 2>&1 | FileCheck %s --check-prefix=VEC4-BUG
// RUN: kproof-opt %inputs/cuda/ptx/memory_layouts.sm80.O3.ptx --verify-equiv --contract=%t/four.mlir | FileCheck %s --check-prefix=FOUR
// RUN: kproof-opt %inputs/cuda/ptx/memory_layouts.sm80.O3.ptx --verify-equiv --contract=%t/four.mlir --format=json | FileCheck %s --check-prefix=FOUR-JSON
// RUN: kproof-opt %inputs/cuda/ptx/memory_layouts.sm90.G.ptx --verify-equiv --contract=%t/four.mlir | FileCheck %s --check-prefix=FOUR
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/memory_layouts.sm80.O3.ptx --verify-equiv --contract=%t/four-bug.mlir 2>&1 | FileCheck %s --check-prefix=FOUR-BUG

// A grid-stride loop (y[i] = 2 x[i], 256 threads over 1000 elements, so
// threads run 3 or 4 iterations): PROVED. The bug starts at i + 1, so no
// thread writes y[0]: coverage REFUTED (no thread of the launch writes it
// on any path), confirmed by replay.
// RUN: kproof-opt %inputs/cuda/ptx/memory_layouts.sm80.O3.ptx --verify-equiv --contract=%t/stride.mlir | FileCheck %s --check-prefix=STRIDE
// RUN: kproof-opt %inputs/cuda/ptx/memory_layouts.sm90.G.ptx --verify-equiv --contract=%t/stride.mlir | FileCheck %s --check-prefix=STRIDE
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/memory_layouts.sm80.O3.ptx --verify-equiv --contract=%t/stride-bug.mlir 2>&1 | FileCheck %s --check-prefix=STRIDE-BUG

// STRIDE-NOT: UNKNOWN
// STRIDE: {{^}}PROVED
// STRIDE-BUG: error: REFUTED: coverage: no thread writes y[0]
// STRIDE-BUG: REFUTED: coverage: every element of 'y' is written -- no thread writes y[0] on any path (z3: unsat)
// STRIDE-BUG: Replay: confirmed by replay (IEEE f32): the kernel never writes y[0]
// STRIDE-BUG: {{^}}REFUTED

// VEC4: kproof: copy_vec4 against copy(x) -> y
// VEC4-NOT: UNKNOWN
// VEC4: {{^}}PROVED
// VEC4-JSON: "name": "stores of one thread to 'y' write distinct elements",
// VEC4-JSON-NEXT: "verdict": "PROVED"
// VEC4-JSON: "name": "value y[i] written by the representative thread (stores 1-4 of 4, from
// VEC4-JSON-NEXT: "verdict": "PROVED"
// VEC4-JSON: "how": "z3 (unsat) with witness store.k0 = (e - 0) / 1 % 4, tid.x = (e - 0) / 4 % 64, ctaid.x = (e - 0) / 256 % 4",
// VEC4-JSON-NEXT: "name": "coverage: every element of 'y' is written",
// VEC4-JSON-NEXT: "verdict": "PROVED"

// Lanes z and w swapped: y[4i+2] = x[4i+3].
// VEC4-BUG: REFUTED: value y[i] written by the representative thread (store 3 of 4
// VEC4-BUG: Replay: confirmed by replay
// VEC4-BUG: {{^}}REFUTED

// FOUR: kproof: copy_4per_thread against copy(x) -> y
// FOUR-NOT: UNKNOWN
// FOUR-JSON: "how": "z3 (unsat) with witness tid.x = (e - 0) / 1 % 32, store.k0 = (e - 0) / 32 % 4, ctaid.x = (e - 0) / 128 % 8",
// FOUR-JSON-NEXT: "name": "coverage: every element of 'y' is written",
// FOUR: {{^}}PROVED

// The fourth store lands on the third one's element (which is then final
// with the wrong value), and the fourth block of 32 is never written.
// FOUR-BUG: REFUTED: value y[i] written by the representative thread (store 3 of 3
// FOUR-BUG: UNKNOWN: coverage: every element of 'y' is written
// FOUR-BUG: Replay: confirmed by replay ({{[^)]*}}): kernel {{[a-z_]+}}[{{[0-9]+}}] = {{-?[0-9.e+-]+}}, spec = {{-?[0-9.e+-]+}}
// FOUR-BUG: {{^}}REFUTED

//--- vec4.mlir
kproof.contract @copy_vec4 {kernel = "copy_vec4",
  grid = array<i64: 4, 1, 1>, block = array<i64: 64, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 1024>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 1024>},
            {name = "n4", scalar = i32, value = 256 : i32}],
  spec = {builtin = "copy", input = "x", output = "y"}}

//--- vec4-bug.mlir
kproof.contract @copy_vec4_bug {kernel = "copy_vec4_bug",
  grid = array<i64: 4, 1, 1>, block = array<i64: 64, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 1024>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 1024>},
            {name = "n4", scalar = i32, value = 256 : i32}],
  spec = {builtin = "copy", input = "x", output = "y"}}

//--- four.mlir
kproof.contract @copy4 {kernel = "copy_4per_thread",
  grid = array<i64: 8, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 1024>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 1024>}],
  spec = {builtin = "copy", input = "x", output = "y"}}

//--- four-bug.mlir
kproof.contract @copy4 {kernel = "copy_4per_thread_bug",
  grid = array<i64: 8, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 1024>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 1024>}],
  spec = {builtin = "copy", input = "x", output = "y"}}

//--- stride.mlir
func.func @scale(%x: tensor<1000xf32>) -> tensor<1000xf32> {
  %e = tensor.empty() : tensor<1000xf32>
  %two = arith.constant 2.0 : f32
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : tensor<1000xf32>) outs(%e : tensor<1000xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.mulf %two, %a : f32
    linalg.yield %v : f32
  } -> tensor<1000xf32>
  return %r : tensor<1000xf32>
}
kproof.contract @gs {kernel = "scale_grid_stride",
  grid = array<i64: 2, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 1000>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 1000>},
            {name = "n", scalar = i32, value = 1000 : i32}],
  spec = {func = @scale, inputs = ["x"], output = "y"}}

//--- stride-bug.mlir
func.func @scale(%x: tensor<1000xf32>) -> tensor<1000xf32> {
  %e = tensor.empty() : tensor<1000xf32>
  %two = arith.constant 2.0 : f32
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : tensor<1000xf32>) outs(%e : tensor<1000xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.mulf %two, %a : f32
    linalg.yield %v : f32
  } -> tensor<1000xf32>
  return %r : tensor<1000xf32>
}
kproof.contract @gs {kernel = "scale_grid_stride_bug",
  grid = array<i64: 2, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 1000>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 1000>},
            {name = "n", scalar = i32, value = 1000 : i32}],
  spec = {func = @scale, inputs = ["x"], output = "y"}}
