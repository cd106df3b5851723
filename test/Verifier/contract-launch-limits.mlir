// A concrete launch must be one CUDA can run and whose thread count does
// not wrap: every grid and block dimension within CUDA's limits, at most
// 1024 threads per CTA, at most 2^63 - 1 threads in all; the same for a
// reference spec's launch. A grid of [2^32, 2^32, 1] had 2^64 threads,
// counted as 0: a single-thread proof, and a replay that ran nothing.
// RUN: split-file %s %t
// RUN: %expect_exit 2 kproof-opt %S/copy1.ptx --verify-equiv --contract=%t/wrap.mlir 2>&1 | FileCheck %s --check-prefix=WRAP
// RUN: %expect_exit 2 kproof-opt %S/copy1.ptx --verify-equiv --contract=%t/total.mlir 2>&1 | FileCheck %s --check-prefix=TOTAL
// RUN: %expect_exit 2 kproof-opt %S/copy1.ptx --verify-equiv --contract=%t/cta.mlir 2>&1 | FileCheck %s --check-prefix=CTA
// RUN: %expect_exit 2 kproof-opt %S/copy1.ptx --verify-equiv --contract=%t/blockz.mlir 2>&1 | FileCheck %s --check-prefix=BLOCKZ
// RUN: %expect_exit 2 kproof-opt %S/copy1.ptx --verify-equiv --contract=%t/ref.mlir 2>&1 | FileCheck %s --check-prefix=REF

// WRAP: wrap.mlir:1:1: error: 'kproof.contract' op 'grid' dimension x exceeds the CUDA limit of 2147483647
// TOTAL: total.mlir:1:1: error: 'kproof.contract' op the launch has more than 2^63 - 1 threads (grid 2147483647 x 65535 x 65535, block 1024 x 1 x 1)
// CTA: cta.mlir:1:1: error: 'kproof.contract' op 'block' has 2048 threads; a CTA has at most 1024 (PTX ISA 5.2.2)
// BLOCKZ: blockz.mlir:1:1: error: 'kproof.contract' op 'block' dimension z exceeds the CUDA limit of 64
// REF: ref.mlir:1:1: error: 'kproof.contract' op 'spec grid' dimension y exceeds the CUDA limit of 65535

//--- wrap.mlir
kproof.contract @c {kernel = "copy1", grid = array<i64: 4294967296, 4294967296, 1>, block = array<i64: 1, 1, 1>, params = [{name = "x", buffer = "in", type = f32, shape = array<i64: 1>}, {name = "y", buffer = "out", type = f32, shape = array<i64: 1>}], spec = {builtin = "copy", input = "x", output = "y"}}
//--- total.mlir
kproof.contract @c {kernel = "copy1", grid = array<i64: 2147483647, 65535, 65535>, block = array<i64: 1024, 1, 1>, params = [{name = "x", buffer = "in", type = f32, shape = array<i64: 1>}, {name = "y", buffer = "out", type = f32, shape = array<i64: 1>}], spec = {builtin = "copy", input = "x", output = "y"}}
//--- cta.mlir
kproof.contract @c {kernel = "copy1", grid = array<i64: 1, 1, 1>, block = array<i64: 32, 32, 2>, params = [{name = "x", buffer = "in", type = f32, shape = array<i64: 1>}, {name = "y", buffer = "out", type = f32, shape = array<i64: 1>}], spec = {builtin = "copy", input = "x", output = "y"}}
//--- blockz.mlir
kproof.contract @c {kernel = "copy1", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 65>, params = [{name = "x", buffer = "in", type = f32, shape = array<i64: 1>}, {name = "y", buffer = "out", type = f32, shape = array<i64: 1>}], spec = {builtin = "copy", input = "x", output = "y"}}
//--- ref.mlir
kproof.contract @c {kernel = "copy1", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>, params = [{name = "x", buffer = "in", type = f32, shape = array<i64: 1>}, {name = "y", buffer = "out", type = f32, shape = array<i64: 1>}], spec = {reference = "copy1", output = "y", grid = array<i64: 1, 4294967296, 1>}}
