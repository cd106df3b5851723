// Asynchronous copies global -> shared (cp.async, cp.async.commit_group,
// cp.async.wait_group / wait_all; PTX ISA: cp.async) in kernels of
// test/Inputs/cuda/cp_async.cu. A copy is a write that may be performed
// at any point from its issue until the issuing thread's wait that
// completes it: it races with every other thread's access of those
// barrier phases, and with the thread's own accesses before the wait; the
// copied values are the source elements (zeros past src-size).
// RUN: split-file %s %t
// RUN: kproof-opt %inputs/cuda/ptx/cp_async.sm80.O3.ptx --verify-equiv --contract=%t/rotate.mlir | FileCheck %s --check-prefix=ROTATE
// RUN: kproof-opt %inputs/cuda/ptx/cp_async.sm90.O3.ptx --verify-equiv --contract=%t/rotate.mlir | FileCheck %s --check-prefix=ROTATE
// RUN: kproof-opt %inputs/cuda/ptx/cp_async.sm80.O3.ptx --verify-sync --contract=%t/rotate.mlir --format=json | FileCheck %s --check-prefix=ROTATESYNC
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/cp_async.sm80.O3.ptx --verify-sync --contract=%t/nowait.mlir 2>&1 | FileCheck %s --check-prefix=NOWAIT
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/cp_async.sm80.O3.ptx --verify-sync --contract=%t/early.mlir 2>&1 | FileCheck %s --check-prefix=EARLY
// RUN: kproof-opt %inputs/cuda/ptx/cp_async.sm80.O3.ptx --verify-equiv --contract=%t/masked.mlir | FileCheck %s --check-prefix=MASKED
// RUN: sed 's/\[%%r3\], \[%%rd1\], 4, 0;/[%%r3], [%%rd1], 4, 4;/' %inputs/cuda/ptx/cp_async.sm80.O3.ptx > %t/no-zero-fill.ptx
// RUN: %expect_exit 1 kproof-opt %t/no-zero-fill.ptx --verify-equiv --contract=%t/masked.mlir 2>&1 | FileCheck %s --check-prefix=NOFILL
// RUN: kproof-opt %inputs/cuda/ptx/cp_async.sm80.O3.ptx --verify-equiv --contract=%t/double.mlir | FileCheck %s --check-prefix=DOUBLE
// RUN: kproof-opt %inputs/cuda/ptx/cp_async.sm90.O3.ptx --verify-equiv --contract=%t/double.mlir | FileCheck %s --check-prefix=DOUBLE
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/cp_async.sm80.O3.ptx --verify-sync --contract=%t/double-last.mlir 2>&1 | FileCheck %s --check-prefix=LAST
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/cp_async.sm80.O3.ptx --verify-sync --contract=%t/no-commit.mlir 2>&1 | FileCheck %s --check-prefix=NOCOMMIT
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/cp_async.sm80.O3.ptx --verify-sync --contract=%t/handoff-nowait.mlir 2>&1 | FileCheck %s --check-prefix=HANDOFF
// RUN: kproof-opt %inputs/cuda/ptx/cp_async.sm80.O3.ptx --verify-sync --contract=%t/handoff-wait.mlir | FileCheck %s --check-prefix=HANDOFFOK
// RUN: kproof-opt %inputs/cuda/ptx/cp_async.sm80.O3.ptx --verify-equiv --contract=%t/src-size-4.mlir | FileCheck %s --check-prefix=SRC4
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/cp_async.sm80.O3.ptx --verify-equiv --contract=%t/src-size-8.mlir 2>&1 | FileCheck %s --check-prefix=SRC8
// RUN: %expect_exit 3 kproof-opt %inputs/cuda/ptx/cp_async.sm80.O3.ptx --verify-sync --contract=%t/source-overwrite.mlir 2>&1 | FileCheck %s --check-prefix=OVERWRITE
// RUN: kproof-opt %inputs/cuda/ptx/cp_async.sm80.O3.ptx --verify-equiv --contract=%t/block-stride.mlir | FileCheck %s --check-prefix=STRIDE

// Copy, commit, wait, barrier, read the neighbour's element: race-free
// and equal to its spec for every grid.
// ROTATE: obligations: {{[0-9]+}} ({{[0-9]+}} proved)
// ROTATE: PROVED
// ROTATESYNC: "name": "race-free: shared 'copy_rotate::tile', one CTA, phase 0 (a cp.async in flight): write at {{.*}} / write at
// ROTATESYNC-NEXT: "verdict": "PROVED"
// ROTATESYNC-NOT: UNKNOWN
// ROTATESYNC-NOT: REFUTED
// ROTATESYNC: "verdict": "PROVED",

// No wait before the barrier: the neighbour's copy may still be in flight
// when it is read.
// NOWAIT: ERROR: data race on shared 'copy_rotate_nowait::tile' (byte {{[0-9]+}}): thread (tid.x={{[0-9]+}}, ctaid.x={{[0-9]+}}) {{writes \(cp.async, in flight until a cp.async.wait completes it\)|reads}} at {{.*}}, thread (tid.x={{[0-9]+}}, ctaid.x={{[0-9]+}}) {{writes \(cp.async, in flight until a cp.async.wait completes it\)|reads}} at {{.*}} while the copy may be in flight (no cp.async.wait and barrier between)
// NOWAIT: Replay: confirmed by replay (IEEE f32): race: read of {{.*}} while the cp.async of thread {{.*}} may still be in flight
// NOWAIT: REFUTED

// The thread reads its own slot before its wait: a race with its own copy
// (and the value it reads is not the copy's).
// EARLY: REFUTED: no data race with the thread's own cp.async at {{.*}}cp_async.sm80.O3.ptx:{{[0-9]+}}:2 {{.*}} (not yet completed by a cp.async.wait): read of shared 'copy_rotate_early::tile' at {{.*}}cp_async.sm80.O3.ptx:{{[0-9]+}}:2 (test/Inputs/cuda/cp_async.cu:{{[0-9]+}}:3) -- counterexample confirmed
// EARLY: REFUTED

// src-size 0 past n: the slot is zero-filled and the source not read.
// MASKED: paths: 2
// MASKED: PROVED
// Without the zero fill the masked threads copy in[0]: out[199] is 2 * in[0], not 0.
// NOFILL: ERROR: value mismatch
// NOFILL: Replay: confirmed by replay (IEEE f32): kernel out[{{[0-9]+}}] = {{.*}}, spec = 0
// NOFILL: REFUTED

// Two-stage pipeline, one group per iteration (empty in the last):
// wait_group 1 leaves only the next tile in flight.
// DOUBLE: obligations: {{[0-9]+}} ({{[0-9]+}} proved)
// DOUBLE: PROVED

// A group only when a tile is copied: in the last iteration wait_group 1
// leaves the last tile itself in flight (wait_group 0 is needed).
// LAST: ERROR: data race on shared 'double_buffer_last::buf' {{.*}} while the copy may be in flight (no cp.async.wait and barrier between)
// LAST: Replay: confirmed by replay (IEEE f32): race:
// LAST: REFUTED

// A copy never committed: wait_group 0 does not wait for it.
// NOCOMMIT: ERROR: data race on shared 'no_commit::tile' {{.*}} while the copy may be in flight
// NOCOMMIT: Replay: confirmed by replay (IEEE f32): race:
// NOCOMMIT: REFUTED

// Producers copy and bar.arrive without waiting: the counted barrier does
// not order a copy that may land after it.
// HANDOFF: ERROR: data race on shared 'handoff_nowait::tile' {{.*}} while the copy may be in flight
// HANDOFF: Replay: confirmed by replay (IEEE f32): race:
// HANDOFF: REFUTED
// With the wait before bar.arrive: race-free.
// HANDOFFOK: obligations: {{[0-9]+}} ({{[0-9]+}} proved)
// HANDOFFOK: PROVED

// src-size from a parameter: 4 (the whole element) proves; 8 is larger than
// the cp-size, undefined behaviour (the interpreter stops there).
// SRC4: PROVED
// SRC8: REFUTED: src-size of the cp.async at most its cp-size of 4 bytes (larger is undefined behaviour) at {{.*}}cp_async.cu:{{[0-9]+}}:{{[0-9]+}})
// SRC8: Replay: not confirmed by replay (IEEE f32): the interpreter stopped: cp.async src-size 8 is larger than its cp-size 4: undefined behaviour
// SRC8: REFUTED

// A source that the kernel writes (inout) is not modeled by the prover;
// kproof-run reports the overwrite (test/Interpreter/cp-async.mlir).
// OVERWRITE: UNKNOWN: cp.async from 'buf', which is not an input buffer of the contract, is not modeled

// A 256-element tile copied by 128 threads in a block-stride loop with a
// 64-bit counter, its shared offset a truncation (cvt.u32.u64) that the
// writer inversion reads as the linear form it equals; two outputs per
// thread.
// STRIDE: PROVED

//--- rotate.mlir
func.func @rotate2(%x: tensor<?x128xf32>) -> tensor<?x128xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %two = arith.constant 2.0 : f32
  %d0 = tensor.dim %x, %c0 : tensor<?x128xf32>
  %e = tensor.empty(%d0) : tensor<?x128xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, i) -> (b, i)>],
                       iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<?x128xf32>) {
  ^bb0(%out: f32):
    %b = linalg.index 0 : index
    %i = linalg.index 1 : index
    %i1 = arith.addi %i, %c1 : index
    %j = arith.remui %i1, %c128 : index
    %v = tensor.extract %x[%b, %j] : tensor<?x128xf32>
    %w = arith.mulf %two, %v : f32
    linalg.yield %w : f32
  } -> tensor<?x128xf32>
  return %r : tensor<?x128xf32>
}
kproof.contract @copy_rotate {
  kernel = "copy_rotate",
  grid_max = array<i64: 65536, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [
    {name = "in", buffer = "in", space = "global", type = f32, shape = ["nctaid.x", 128]},
    {name = "out", buffer = "out", space = "global", type = f32, shape = ["nctaid.x", 128]}
  ],
  spec = {func = @rotate2, inputs = ["in"], output = "out"}
}
//--- nowait.mlir
func.func @rotate2(%x: tensor<?x128xf32>) -> tensor<?x128xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %two = arith.constant 2.0 : f32
  %d0 = tensor.dim %x, %c0 : tensor<?x128xf32>
  %e = tensor.empty(%d0) : tensor<?x128xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, i) -> (b, i)>],
                       iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<?x128xf32>) {
  ^bb0(%out: f32):
    %b = linalg.index 0 : index
    %i = linalg.index 1 : index
    %i1 = arith.addi %i, %c1 : index
    %j = arith.remui %i1, %c128 : index
    %v = tensor.extract %x[%b, %j] : tensor<?x128xf32>
    %w = arith.mulf %two, %v : f32
    linalg.yield %w : f32
  } -> tensor<?x128xf32>
  return %r : tensor<?x128xf32>
}
kproof.contract @copy_rotate_nowait {
  kernel = "copy_rotate_nowait",
  grid_max = array<i64: 65536, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [
    {name = "in", buffer = "in", space = "global", type = f32, shape = ["nctaid.x", 128]},
    {name = "out", buffer = "out", space = "global", type = f32, shape = ["nctaid.x", 128]}
  ],
  spec = {func = @rotate2, inputs = ["in"], output = "out"}
}
//--- early.mlir
func.func @rotate2(%x: tensor<?x128xf32>) -> tensor<?x128xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %two = arith.constant 2.0 : f32
  %d0 = tensor.dim %x, %c0 : tensor<?x128xf32>
  %e = tensor.empty(%d0) : tensor<?x128xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, i) -> (b, i)>],
                       iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<?x128xf32>) {
  ^bb0(%out: f32):
    %b = linalg.index 0 : index
    %i = linalg.index 1 : index
    %i1 = arith.addi %i, %c1 : index
    %j = arith.remui %i1, %c128 : index
    %v = tensor.extract %x[%b, %j] : tensor<?x128xf32>
    %w = arith.mulf %two, %v : f32
    linalg.yield %w : f32
  } -> tensor<?x128xf32>
  return %r : tensor<?x128xf32>
}
kproof.contract @copy_rotate_early {
  kernel = "copy_rotate_early",
  grid_max = array<i64: 65536, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [
    {name = "in", buffer = "in", space = "global", type = f32, shape = ["nctaid.x", 128]},
    {name = "out", buffer = "out", space = "global", type = f32, shape = ["nctaid.x", 128]}
  ],
  spec = {func = @rotate2, inputs = ["in"], output = "out"}
}
//--- masked.mlir
func.func @rotate_padded(%x: tensor<200xf32>) -> tensor<256xf32> {
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %c200 = arith.constant 200 : index
  %two = arith.constant 2.0 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      outs(%e : tensor<256xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %b = arith.divui %i, %c128 : index
    %t = arith.remui %i, %c128 : index
    %t1 = arith.addi %t, %c1 : index
    %tn = arith.remui %t1, %c128 : index
    %base = arith.muli %b, %c128 : index
    %j = arith.addi %base, %tn : index
    %in = arith.cmpi ult, %j, %c200 : index
    %c0 = arith.constant 0 : index
    %jc = arith.select %in, %j, %c0 : index
    %v = tensor.extract %x[%jc] : tensor<200xf32>
    %d = arith.mulf %two, %v : f32
    %w = arith.select %in, %d, %zero : f32
    linalg.yield %w : f32
  } -> tensor<256xf32>
  return %r : tensor<256xf32>
}
kproof.contract @copy_masked {
  kernel = "copy_masked",
  grid = array<i64: 2, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [
    {name = "in", buffer = "in", space = "global", type = f32, shape = array<i64: 200>},
    {name = "out", buffer = "out", space = "global", type = f32, shape = array<i64: 256>},
    {name = "n", scalar = i32, value = 200 : i32}
  ],
  spec = {func = @rotate_padded, inputs = ["in"], output = "out"}
}
//--- double.mlir
func.func @tilesum(%x: tensor<3x2x128xf32>) -> tensor<2x128xf32> {
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x128xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x128xf32>) -> tensor<2x128xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, i, k) -> (k, b, i)>, affine_map<(b, i, k) -> (b, i)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<3x2x128xf32>) outs(%z : tensor<2x128xf32>) {
  ^bb0(%unused: f32, %acc: f32):
    %b = linalg.index 0 : index
    %i = linalg.index 1 : index
    %k = linalg.index 2 : index
    %i1 = arith.addi %i, %c1 : index
    %j = arith.remui %i1, %c128 : index
    %v = tensor.extract %x[%k, %b, %j] : tensor<3x2x128xf32>
    %s = arith.addf %acc, %v : f32
    linalg.yield %s : f32
  } -> tensor<2x128xf32>
  return %r : tensor<2x128xf32>
}
kproof.contract @double_buffer {
  kernel = "double_buffer",
  grid = array<i64: 2, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [
    {name = "in", buffer = "in", space = "global", type = f32, shape = array<i64: 3, 2, 128>},
    {name = "out", buffer = "out", space = "global", type = f32, shape = array<i64: 2, 128>},
    {name = "tiles", scalar = i32, value = 3 : i32}
  ],
  spec = {func = @tilesum, inputs = ["in"], output = "out"}
}
//--- double-last.mlir
func.func @tilesum(%x: tensor<3x2x128xf32>) -> tensor<2x128xf32> {
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x128xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x128xf32>) -> tensor<2x128xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, i, k) -> (k, b, i)>, affine_map<(b, i, k) -> (b, i)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<3x2x128xf32>) outs(%z : tensor<2x128xf32>) {
  ^bb0(%unused: f32, %acc: f32):
    %b = linalg.index 0 : index
    %i = linalg.index 1 : index
    %k = linalg.index 2 : index
    %i1 = arith.addi %i, %c1 : index
    %j = arith.remui %i1, %c128 : index
    %v = tensor.extract %x[%k, %b, %j] : tensor<3x2x128xf32>
    %s = arith.addf %acc, %v : f32
    linalg.yield %s : f32
  } -> tensor<2x128xf32>
  return %r : tensor<2x128xf32>
}
kproof.contract @double_buffer_last {
  kernel = "double_buffer_last",
  grid = array<i64: 2, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [
    {name = "in", buffer = "in", space = "global", type = f32, shape = array<i64: 3, 2, 128>},
    {name = "out", buffer = "out", space = "global", type = f32, shape = array<i64: 2, 128>},
    {name = "tiles", scalar = i32, value = 3 : i32}
  ],
  spec = {func = @tilesum, inputs = ["in"], output = "out"}
}
//--- no-commit.mlir
func.func @rotate2(%x: tensor<?x128xf32>) -> tensor<?x128xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %two = arith.constant 2.0 : f32
  %d0 = tensor.dim %x, %c0 : tensor<?x128xf32>
  %e = tensor.empty(%d0) : tensor<?x128xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, i) -> (b, i)>],
                       iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<?x128xf32>) {
  ^bb0(%out: f32):
    %b = linalg.index 0 : index
    %i = linalg.index 1 : index
    %i1 = arith.addi %i, %c1 : index
    %j = arith.remui %i1, %c128 : index
    %v = tensor.extract %x[%b, %j] : tensor<?x128xf32>
    %w = arith.mulf %two, %v : f32
    linalg.yield %w : f32
  } -> tensor<?x128xf32>
  return %r : tensor<?x128xf32>
}
kproof.contract @no_commit {
  kernel = "no_commit",
  grid_max = array<i64: 65536, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [
    {name = "in", buffer = "in", space = "global", type = f32, shape = ["nctaid.x", 128]},
    {name = "out", buffer = "out", space = "global", type = f32, shape = ["nctaid.x", 128]}
  ],
  spec = {func = @rotate2, inputs = ["in"], output = "out"}
}
//--- handoff-nowait.mlir
kproof.contract @c {
  kernel = "handoff_nowait", grid = array<i64: 4, 1, 1>, block = array<i64: 256, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 512>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 512>}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}
//--- handoff-wait.mlir
kproof.contract @c {
  kernel = "handoff_wait", grid = array<i64: 4, 1, 1>, block = array<i64: 256, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 512>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 512>}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}
//--- src-size-4.mlir
func.func @rotate2(%x: tensor<?x128xf32>) -> tensor<?x128xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %two = arith.constant 2.0 : f32
  %d0 = tensor.dim %x, %c0 : tensor<?x128xf32>
  %e = tensor.empty(%d0) : tensor<?x128xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, i) -> (b, i)>],
                       iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<?x128xf32>) {
  ^bb0(%out: f32):
    %b = linalg.index 0 : index
    %i = linalg.index 1 : index
    %i1 = arith.addi %i, %c1 : index
    %j = arith.remui %i1, %c128 : index
    %v = tensor.extract %x[%b, %j] : tensor<?x128xf32>
    %w = arith.mulf %two, %v : f32
    linalg.yield %w : f32
  } -> tensor<?x128xf32>
  return %r : tensor<?x128xf32>
}
kproof.contract @src_size_param {
  kernel = "src_size_param",
  grid_max = array<i64: 65536, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [
    {name = "in", buffer = "in", space = "global", type = f32, shape = ["nctaid.x", 128]},
    {name = "out", buffer = "out", space = "global", type = f32, shape = ["nctaid.x", 128]},
    {name = "bytes", scalar = i32, value = 4 : i32}
  ],
  spec = {func = @rotate2, inputs = ["in"], output = "out"}
}
//--- src-size-8.mlir
func.func @rotate2(%x: tensor<?x128xf32>) -> tensor<?x128xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %two = arith.constant 2.0 : f32
  %d0 = tensor.dim %x, %c0 : tensor<?x128xf32>
  %e = tensor.empty(%d0) : tensor<?x128xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, i) -> (b, i)>],
                       iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<?x128xf32>) {
  ^bb0(%out: f32):
    %b = linalg.index 0 : index
    %i = linalg.index 1 : index
    %i1 = arith.addi %i, %c1 : index
    %j = arith.remui %i1, %c128 : index
    %v = tensor.extract %x[%b, %j] : tensor<?x128xf32>
    %w = arith.mulf %two, %v : f32
    linalg.yield %w : f32
  } -> tensor<?x128xf32>
  return %r : tensor<?x128xf32>
}
kproof.contract @src_size_param {
  kernel = "src_size_param",
  grid_max = array<i64: 65536, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [
    {name = "in", buffer = "in", space = "global", type = f32, shape = ["nctaid.x", 128]},
    {name = "out", buffer = "out", space = "global", type = f32, shape = ["nctaid.x", 128]},
    {name = "bytes", scalar = i32, value = 8 : i32}
  ],
  spec = {func = @rotate2, inputs = ["in"], output = "out"}
}
//--- source-overwrite.mlir
kproof.contract @source_overwrite {
  kernel = "source_overwrite", grid = array<i64: 1, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [
    {name = "buf", buffer = "inout", space = "global", type = f32, shape = array<i64: 128>},
    {name = "out", buffer = "out", space = "global", type = f32, shape = array<i64: 128>}
  ],
  spec = {builtin = "copy", input = "buf", output = "out"}
}
//--- block-stride.mlir
func.func @spec(%x: tensor<?x256xf32>) -> tensor<?x256xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %c129 = arith.constant 129 : index
  %c256 = arith.constant 256 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x256xf32>
  %e = tensor.empty(%d0) : tensor<?x256xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, i) -> (b, i)>],
                       iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<?x256xf32>) {
  ^bb0(%out: f32):
    %b = linalg.index 0 : index
    %i = linalg.index 1 : index
    %t = arith.remui %i, %c128 : index
    %t1 = arith.addi %t, %c1 : index
    %j1 = arith.remui %t1, %c256 : index
    %t2 = arith.addi %t, %c129 : index
    %j2 = arith.remui %t2, %c256 : index
    %v1 = tensor.extract %x[%b, %j1] : tensor<?x256xf32>
    %v2 = tensor.extract %x[%b, %j2] : tensor<?x256xf32>
    %lo = arith.cmpi ult, %i, %c128 : index
    %s1 = arith.addf %v1, %v2 : f32
    %s2 = arith.addf %v2, %v1 : f32
    %w = arith.select %lo, %s1, %s2 : f32
    linalg.yield %w : f32
  } -> tensor<?x256xf32>
  return %r : tensor<?x256xf32>
}
kproof.contract @block_stride_rotate {
  kernel = "block_stride_rotate",
  grid_max = array<i64: 65536, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [
    {name = "in", buffer = "in", space = "global", type = f32, shape = ["nctaid.x", 256]},
    {name = "out", buffer = "out", space = "global", type = f32, shape = ["nctaid.x", 256]}
  ],
  spec = {func = @spec, inputs = ["in"], output = "out"}
}
