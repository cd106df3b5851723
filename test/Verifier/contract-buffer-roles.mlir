// Contract mistakes the kernel's code shows (which pointer parameters its
// loads and stores go through). A kernel that stores through an 'in'
// buffer is REFUTED (kernels that write their inputs are a real bug), and
// when no store writes the 'out' buffer the message says the contract may
// have them swapped.
// RUN: split-file %s %t
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/softmax_online.sm80.O3.ptx --verify-equiv --contract=%t/swapped.mlir 2>&1 | FileCheck %s --check-prefix=SWAPPED
// SWAPPED: REFUTED: never: store to input buffer 'x' (the contract may have the buffers swapped: the kernel stores through 'x', declared 'in', and no store writes 'y', declared 'out')
// SWAPPED: {{^}}REFUTED{{$}}
// The same in --verify-sync, and in the -G build (its pointers pass
// through more registers).
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/softmax_online.sm80.O3.ptx --verify-sync --contract=%t/swapped.mlir 2>&1 | FileCheck %s --check-prefix=SWAPPED
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/softmax_online.sm80.G.ptx --verify-equiv --contract=%t/swapped.mlir 2>&1 | FileCheck %s --check-prefix=SWAPPED
// An 'out' buffer no store can write, with no input stored through: a
// contract error (exit 2) at the param's field, with what the kernel does
// with it.
// RUN: %expect_exit 2 kproof-opt %inputs/cuda/ptx/softmax_online.sm80.O3.ptx --verify-equiv --contract=%t/two-outs.mlir 2>&1 | FileCheck %s --check-prefix=TWOOUTS
// TWOOUTS: two-outs.mlir:2:14: error: param 'x' is an 'out' buffer, but no store of kernel 'softmax_online_4' writes through it (the kernel only loads from it); declare it 'in' if the kernel only reads it, or check the order of the params
// The analysis makes no claim where a store's address may come from memory:
// here y's pointer is written to shared memory as an atom.cas swap operand
// and read back as two u32 halves (no contract error; the atomic itself is
// not modeled in a one-thread launch: UNKNOWN).
// RUN: %expect_exit 3 kproof-opt %t/cas-pointer.ptx --verify-equiv --contract=%t/cas-pointer.mlir 2>&1 | FileCheck %s --check-prefix=CAS --implicit-check-not="is an 'out' buffer"
// CAS: UNKNOWN: atomics are not yet modeled
// A kernel that never writes its output, without a sign of a mix-up (it
// neither loads y nor stores an input): a kernel bug, REFUTED by coverage,
// not a contract error.
// RUN: %expect_exit 1 kproof-opt %t/no-store.ptx --verify-equiv --contract=%t/no-store.mlir 2>&1 | FileCheck %s --check-prefix=NOSTORE --implicit-check-not="is an 'out' buffer"
// NOSTORE: REFUTED: coverage
// NOSTORE: Replay: confirmed by replay (IEEE f32): the kernel never writes y[0]
// A contract without a spec is for --verify-sync; --verify-equiv and
// kproof-run say so (exit 2).
// RUN: kproof-opt %inputs/cuda/ptx/softmax_online.sm80.O3.ptx --verify-sync --contract=%t/nospec.mlir | FileCheck %s --check-prefix=NOSPEC
// NOSPEC: {{^}}PROVED{{$}}
// RUN: %expect_exit 2 kproof-opt %inputs/cuda/ptx/softmax_online.sm80.O3.ptx --verify-equiv --contract=%t/nospec.mlir 2>&1 | FileCheck %s --check-prefix=NOSPECEQ
// NOSPECEQ: error: contract @nospec has no 'spec': --verify-equiv compares the kernel with one (--verify-sync needs none)
// RUN: %expect_exit 2 kproof-run %inputs/cuda/ptx/softmax_online.sm80.O3.ptx --contract=%t/nospec.mlir --random=1 2>&1 | FileCheck %s --check-prefix=NOSPECINTERP
// NOSPECINTERP: kproof-run: error: contract @nospec has no 'spec': kproof-run compares the kernel's outputs with it
// The right contract proves.
// RUN: kproof-opt %inputs/cuda/ptx/softmax_online.sm80.O3.ptx --verify-equiv --contract=%t/right.mlir | FileCheck %s --check-prefix=RIGHT
// RIGHT: PROVED

//--- swapped.mlir
kproof.contract @swapped {kernel = "softmax_online_4", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [{name = "y", buffer = "out", type = f32, shape = array<i64: 4>},
            {name = "x", buffer = "in", type = f32, shape = array<i64: 4>}],
  spec = {builtin = "softmax", input = "x", output = "y"}}
//--- two-outs.mlir
kproof.contract @twoouts {kernel = "softmax_online_4", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [{name = "x", buffer = "out", type = f32, shape = array<i64: 4>},
            {name = "y", buffer = "out", type = f32, shape = array<i64: 4>}],
  spec = {builtin = "copy", input = "x", output = "y"}}
//--- right.mlir
kproof.contract @right {kernel = "softmax_online_4", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [{name = "x", buffer = "in", type = f32, shape = array<i64: 4>},
            {name = "y", buffer = "out", type = f32, shape = array<i64: 4>}],
  spec = {builtin = "softmax", input = "x", output = "y"}}
//--- nospec.mlir
kproof.contract @nospec {kernel = "softmax_online_4", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [{name = "x", buffer = "in", type = f32, shape = array<i64: 4>},
            {name = "y", buffer = "out", type = f32, shape = array<i64: 4>}]}
//--- cas-pointer.ptx
.version 8.0
.target sm_80
.address_size 64
.visible .entry k5b(.param .u64 x, .param .u64 y)
{
  .shared .align 8 .b8 d[8];
  .reg .b64 %rd<10>; .reg .b32 %r<4>; .reg .f32 %f<2>;
  ld.param.u64 %rd1, [x]; ld.param.u64 %rd2, [y];
  mov.u64 %rd3, d;
  atom.shared.cas.b64 %rd9, [%rd3], 0, %rd2;
  ld.shared.v2.u32 {%r1, %r2}, [%rd3];
  mov.b64 %rd4, {%r1, %r2};
  cvta.to.global.u64 %rd5, %rd1; cvta.to.global.u64 %rd6, %rd4;
  ld.global.f32 %f1, [%rd5];
  st.global.f32 [%rd6], %f1;
  ret;
}
//--- cas-pointer.mlir
kproof.contract @c5b {kernel = "k5b", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [{name = "x", buffer = "in", type = f32, shape = array<i64: 1>},
            {name = "y", buffer = "out", type = f32, shape = array<i64: 1>}],
  spec = {builtin = "copy", input = "x", output = "y"}}
//--- no-store.ptx
.version 8.0
.target sm_80
.address_size 64
.visible .entry k10(.param .u64 x, .param .u64 y)
{
  .reg .b64 %rd<10>; .reg .f32 %f<2>;
  ld.param.u64 %rd1, [x]; ld.param.u64 %rd2, [y];
  cvta.to.global.u64 %rd5, %rd1;
  ld.global.f32 %f1, [%rd5];
  ret;
}
//--- no-store.mlir
kproof.contract @copy {kernel = "k10", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [{name = "x", buffer = "in", type = f32, shape = array<i64: 1>},
            {name = "y", buffer = "out", type = f32, shape = array<i64: 1>}],
  spec = {builtin = "copy", input = "x", output = "y"}}
