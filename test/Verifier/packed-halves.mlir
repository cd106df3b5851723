// Packed halves (PTX ISA 5.2.1: f16x2 / bf16x2 in one .b32 register):
// vectorized loads and stores of f16 and bf16 buffers (ld/st .v2.u32,
// .v4.u32), the halves unpacked with mov.b32 {lo, hi}, cvt.rn.f16x2.f32
// packing two f32 values, and packed arithmetic (add.f16x2, fma.rn.f16x2),
// for any grid (test/Inputs/cuda/half_vectors.cu). Each half is its
// element's real value; the bits of a real in one format are read back
// only in that format.
// RUN: split-file %s %t
// RUN: sed -i 's|@INPUTS@|%inputs|' %t/scale.mlir %t/swap.mlir %t/add.mlir %t/fma.mlir %t/bf16.mlir %t/bfhalf.mlir %t/bf16-sm80.mlir
// RUN: kproof-opt %inputs/cuda/ptx/half_vectors.sm80.O3.ptx --verify-equiv --contract=%t/scale.mlir | FileCheck %s --check-prefix=SCALE
// RUN: kproof-opt %inputs/cuda/ptx/half_vectors.sm90.O3.ptx --verify-equiv --contract=%t/scale.mlir | FileCheck %s --check-prefix=SCALE
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/half_vectors.sm80.O3.ptx --verify-equiv --contract=%t/swap.mlir 2>&1 | FileCheck %s --check-prefix=SWAP
// RUN: kproof-opt %inputs/cuda/ptx/half_vectors.sm80.O3.ptx --verify-equiv --contract=%t/add.mlir | FileCheck %s --check-prefix=ADD
// RUN: kproof-opt %inputs/cuda/ptx/half_vectors.sm80.O3.ptx --verify-equiv --contract=%t/fma.mlir | FileCheck %s --check-prefix=FMA
// RUN: kproof-opt %inputs/cuda/ptx/half_vectors.sm90.O3.ptx --verify-equiv --contract=%t/bf16.mlir | FileCheck %s --check-prefix=BF16
// RUN: kproof-opt %inputs/cuda/ptx/half_vectors.sm80.O3.ptx --verify-equiv --contract=%t/bf16-sm80.mlir | FileCheck %s --check-prefix=BF16
// RUN: %expect_exit 3 kproof-opt %inputs/cuda/ptx/half_vectors.sm80.O3.ptx --verify-equiv --contract=%t/bfhalf.mlir | FileCheck %s --check-prefix=BFHALF
// RUN: %expect_exit 3 kproof-opt %t/copy.ptx --verify-equiv --contract=%t/copy.mlir | FileCheck %s --check-prefix=COPY
// RUN: cd %t && %expect_exit 3 kproof-opt fmt.ptx --verify-equiv --contract=raw_copy.mlir | FileCheck %s --check-prefix=RAWCOPY
// RUN: cd %t && %expect_exit 3 kproof-opt fmt.ptx --verify-equiv --contract=via_shared.mlir | FileCheck %s --check-prefix=VIAMEM
// RUN: cd %t && %expect_exit 3 kproof-opt fmt.ptx --verify-equiv --contract=via_local.mlir | FileCheck %s --check-prefix=VIAMEM
// RUN: cd %t && kproof-opt fmt.ptx --verify-equiv --contract=shared_ok.mlir | FileCheck %s --check-prefix=SHAREDOK
// RUN: cd %t && kproof-opt ops.ptx --verify-equiv --contract=ops.mlir | FileCheck %s --check-prefix=OPS
// RUN: cd %t && sed 's/min.f16x2 %%r5/max.f16x2 %%r5/' ops.ptx > ops-bug.ptx && sed 's/ops.ptx/ops-bug.ptx/' ops.mlir > ops-bug.mlir
// RUN: cd %t && %expect_exit 1 kproof-opt ops-bug.ptx --verify-equiv --contract=ops-bug.mlir 2>&1 | FileCheck %s --check-prefix=OPSBUG
// RUN: cd %t && kproof-opt relu.ptx --verify-equiv --contract=relu.mlir | FileCheck %s --check-prefix=RELU
// RUN: cd %t && sed 's/%%r2, %%f2, %%f1/%%r2, %%f1, %%f2/' relu.ptx > relu-bug.ptx && sed 's/relu.ptx/relu-bug.ptx/' relu.mlir > relu-bug.mlir
// RUN: cd %t && %expect_exit 1 kproof-opt relu-bug.ptx --verify-equiv --contract=relu-bug.mlir 2>&1 | FileCheck %s --check-prefix=RELUBUG

// One 8-byte load of four halves, f32 math, two cvt.rn.f16x2.f32, one
// 8-byte store; the narrowing is reported as a precision downgrade.
// SCALE: kproof: scale_half4 against reference ref_scale_half
// SCALE: warning: precision downgrade: conversion from f32 to f16
// SCALE-NOT: UNKNOWN
// SCALE: PROVED

// The second pair packed in the wrong order: y[4i+2] and y[4i+3] swapped.
// SWAP: error: REFUTED: value mismatch at y[[[E:[0-9]+]]]
// SWAP: Kernel value: [[[K0:[-0-9.e+]+]], [[K1:[-0-9.e+]+]]]
// SWAP-NEXT: Spec value: [[[S0:[-0-9.e+]+]], [[S1:[-0-9.e+]+]]]
// SWAP: Replay: confirmed by replay (IEEE f16): kernel y[[[E]]] =
// SWAP: REFUTED

// __hadd2 and __hfma2: one packed instruction for two elements.
// ADD: kproof: add_half2 against reference ref_add_half
// ADD-NOT: UNKNOWN
// ADD: PROVED
// FMA: kproof: fma_half2 against reference ref_fma_half
// FMA-NOT: UNKNOWN
// FMA: PROVED

// Eight bf16 through one 16-byte load and store (sm_90: cvt.f32.bf16; sm_80:
// the bits widened by mov.b32 {0, h}).
// BF16: kproof: scale_bf16x8 against reference ref_scale_bf16
// BF16-NOT: UNKNOWN
// BF16: PROVED

// bf16 data read as f16: another value, not the element (was PROVED).
// BFHALF: UNKNOWN: the bits of a real value of one float type read as another (bf16 as f16, or f16 as bf16)
// COPY: UNKNOWN: the bits of a real value of one float type read as another (bf16 as f16, or f16 as bf16)

// Every packed f16x2 operation against its f32 reference; the twin takes
// max where the kernel takes min.
// OPS: kproof: packed_ops against reference ref_ops
// OPS-NOT: UNKNOWN
// OPS: PROVED
// OPSBUG: Kernel value: [{{-?[0-9.e+-]+}}, {{-?[0-9.e+-]+}}]
// OPSBUG-NEXT: Spec value: [{{-?[0-9.e+-]+}}, {{-?[0-9.e+-]+}}]
// OPSBUG: Replay: confirmed by replay (IEEE f16): kernel y[{{[0-9]+}}] = {{-?[0-9.e+-]+}}, spec = {{-?[0-9.e+-]+}}
// OPSBUG: REFUTED

// cvt.rn.relu.bf16x2.f32 packs two f32 values clamped at 0; the twin packs
// them in the wrong order.
// RELU: warning: precision downgrade: conversion from f32 to bf16
// RELU: PROVED
// RELUBUG: Kernel value: [{{-?[0-9.e+-]+}}, {{-?[0-9.e+-]+}}]
// RELUBUG-NEXT: Spec value: [{{-?[0-9.e+-]+}}, {{-?[0-9.e+-]+}}]
// RELUBUG: Replay: confirmed by replay (IEEE bf16): kernel y[{{[0-9]+}}] = {{-?[0-9.e+-]+}}, spec = {{-?[0-9.e+-]+}}
// RELUBUG: REFUTED

// 16-bit values keep their format through stores, shared memory and .local
// arrays (a review found all three PROVED): f16 bits stored raw into a
// bf16 buffer, and bf16 data read back from shared or local memory and
// converted as f16, are not copies; read back as bf16 it is one.
// RAWCOPY: UNKNOWN: the bits of a real value of one float type stored into a buffer of another (bf16 and f16)
// VIAMEM: UNKNOWN: the bits of a real value of one float type read as another (bf16 as f16, or f16 as bf16)
// SHAREDOK-NOT: UNKNOWN
// SHAREDOK: PROVED

//--- scale.mlir
kproof.contract @scale {
  kernel = "scale_half4", grid = array<i64: 4, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f16, shape = array<i64: 512>},
    {name = "y", buffer = "out", space = "global", type = f16, shape = array<i64: 512>},
    {name = "s", scalar = f32}
  ],
  spec = {reference = "ref_scale_half", output = "y", file = "@INPUTS@/cuda/ptx/half_vectors.sm80.O3.ptx", grid = array<i64: 4, 1, 1>, block = array<i64: 128, 1, 1>}
}
//--- swap.mlir
kproof.contract @swap {
  kernel = "scale_half4_swap", grid = array<i64: 4, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f16, shape = array<i64: 512>},
    {name = "y", buffer = "out", space = "global", type = f16, shape = array<i64: 512>},
    {name = "s", scalar = f32}
  ],
  spec = {reference = "ref_scale_half", output = "y", file = "@INPUTS@/cuda/ptx/half_vectors.sm80.O3.ptx", grid = array<i64: 4, 1, 1>, block = array<i64: 128, 1, 1>}
}
//--- add.mlir
kproof.contract @add {
  kernel = "add_half2", grid = array<i64: 4, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "a", buffer = "in", space = "global", type = f16, shape = array<i64: 256>},
    {name = "b", buffer = "in", space = "global", type = f16, shape = array<i64: 256>},
    {name = "y", buffer = "out", space = "global", type = f16, shape = array<i64: 256>}
  ],
  spec = {reference = "ref_add_half", output = "y", file = "@INPUTS@/cuda/ptx/half_vectors.sm80.O3.ptx", grid = array<i64: 4, 1, 1>, block = array<i64: 64, 1, 1>}
}
//--- fma.mlir
kproof.contract @fma {
  kernel = "fma_half2", grid = array<i64: 4, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "a", buffer = "in", space = "global", type = f16, shape = array<i64: 256>},
    {name = "b", buffer = "in", space = "global", type = f16, shape = array<i64: 256>},
    {name = "c", buffer = "in", space = "global", type = f16, shape = array<i64: 256>},
    {name = "y", buffer = "out", space = "global", type = f16, shape = array<i64: 256>}
  ],
  spec = {reference = "ref_fma_half", output = "y", file = "@INPUTS@/cuda/ptx/half_vectors.sm80.O3.ptx", grid = array<i64: 4, 1, 1>, block = array<i64: 64, 1, 1>}
}
//--- bf16.mlir
kproof.contract @bf16 {
  kernel = "scale_bf16x8", grid = array<i64: 4, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = bf16, shape = array<i64: 1024>},
    {name = "y", buffer = "out", space = "global", type = bf16, shape = array<i64: 1024>},
    {name = "s", scalar = f32}
  ],
  spec = {reference = "ref_scale_bf16", output = "y", file = "@INPUTS@/cuda/ptx/half_vectors.sm90.O3.ptx", grid = array<i64: 4, 1, 1>, block = array<i64: 256, 1, 1>}
}
//--- bf16-sm80.mlir
kproof.contract @bf16 {
  kernel = "scale_bf16x8", grid = array<i64: 4, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = bf16, shape = array<i64: 1024>},
    {name = "y", buffer = "out", space = "global", type = bf16, shape = array<i64: 1024>},
    {name = "s", scalar = f32}
  ],
  spec = {reference = "ref_scale_bf16", output = "y", file = "@INPUTS@/cuda/ptx/half_vectors.sm80.O3.ptx", grid = array<i64: 4, 1, 1>, block = array<i64: 256, 1, 1>}
}
//--- bfhalf.mlir
kproof.contract @bfhalf {
  kernel = "bf16_as_half", grid = array<i64: 4, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = bf16, shape = array<i64: 256>},
    {name = "y", buffer = "out", space = "global", type = bf16, shape = array<i64: 256>},
    {name = "s", scalar = f32}
  ],
  spec = {reference = "ref_scale_bf16", output = "y", file = "@INPUTS@/cuda/ptx/half_vectors.sm80.O3.ptx", grid = array<i64: 4, 1, 1>, block = array<i64: 64, 1, 1>}
}
//--- copy.mlir
kproof.contract @copy {
  kernel = "bf_as_h", grid = array<i64: 1, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = bf16, shape = array<i64: 32>},
    {name = "y", buffer = "out", space = "global", type = bf16, shape = array<i64: 32>}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}
//--- copy.ptx
// A bf16 element converted as if it were f16 (cvt.f32.f16), then back.
.version 8.0
.target sm_80
.address_size 64
.visible .entry bf_as_h(.param .u64 px, .param .u64 py)
{
  .reg .b16 %rs<3>;
  .reg .f32 %f<3>;
  .reg .b32 %r<3>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [px];
  ld.param.u64 %rd2, [py];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 2;
  add.s64 %rd4, %rd1, %rd3;
  add.s64 %rd5, %rd2, %rd3;
  ld.global.u16 %rs1, [%rd4];
  cvt.f32.f16 %f1, %rs1;
  cvt.rn.f16.f32 %rs2, %f1;
  st.global.u16 [%rd5], %rs2;
  ret;
}
//--- ops.mlir
kproof.contract @ops {
  kernel = "packed_ops", grid = array<i64: 1, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [ {name = "a", buffer = "in", space = "global", type = f16, shape = array<i64: 64>},
             {name = "b", buffer = "in", space = "global", type = f16, shape = array<i64: 64>},
             {name = "y", buffer = "out", space = "global", type = f16, shape = array<i64: 64>} ],
  spec = {reference = "ref_ops", output = "y", file = "ops.ptx", block = array<i64: 64, 1, 1>}
}
//--- ops.ptx
.version 8.0
.target sm_90
.address_size 64
.visible .entry packed_ops(.param .u64 pa, .param .u64 pb, .param .u64 py)
{
  .reg .b32 %r<20>;
  .reg .b64 %rd<10>;
  ld.param.u64 %rd1, [pa];
  ld.param.u64 %rd2, [pb];
  ld.param.u64 %rd3, [py];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd4, %r1, 4;
  add.s64 %rd5, %rd1, %rd4;
  add.s64 %rd6, %rd2, %rd4;
  add.s64 %rd7, %rd3, %rd4;
  ld.global.b32 %r2, [%rd5];
  ld.global.b32 %r3, [%rd6];
  sub.f16x2 %r4, %r2, %r3;
  min.f16x2 %r5, %r4, %r2;
  max.f16x2 %r6, %r5, %r3;
  mul.f16x2 %r7, %r6, %r6;
  fma.rn.f16x2 %r8, %r7, %r2, %r3;
  neg.f16x2 %r9, %r8;
  st.global.b32 [%rd7], %r9;
  ret;
}
.visible .entry ref_ops(.param .u64 pa, .param .u64 pb, .param .u64 py)
{
  .reg .b16 %h<4>;
  .reg .f32 %f<20>;
  .reg .b32 %r<20>;
  .reg .b64 %rd<10>;
  ld.param.u64 %rd1, [pa];
  ld.param.u64 %rd2, [pb];
  ld.param.u64 %rd3, [py];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd4, %r1, 2;
  add.s64 %rd5, %rd1, %rd4;
  add.s64 %rd6, %rd2, %rd4;
  add.s64 %rd7, %rd3, %rd4;
  ld.global.b16 %h1, [%rd5];
  ld.global.b16 %h2, [%rd6];
  cvt.f32.f16 %f1, %h1;
  cvt.f32.f16 %f2, %h2;
  sub.f32 %f3, %f1, %f2;
  min.f32 %f4, %f3, %f1;
  max.f32 %f5, %f4, %f2;
  mul.f32 %f6, %f5, %f5;
  fma.rn.f32 %f7, %f6, %f1, %f2;
  neg.f32 %f8, %f7;
  cvt.rn.f16.f32 %h3, %f8;
  st.global.b16 [%rd7], %h3;
  ret;
}
//--- relu.mlir
kproof.contract @relu {
  kernel = "relu_pack", grid = array<i64: 1, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [ {name = "a", buffer = "in", space = "global", type = f32, shape = array<i64: 64>},
             {name = "y", buffer = "out", space = "global", type = bf16, shape = array<i64: 64>} ],
  spec = {reference = "ref_relu", output = "y", file = "relu.ptx", block = array<i64: 64, 1, 1>}
}
//--- relu.ptx
.version 8.0
.target sm_90
.address_size 64
.visible .entry relu_pack(.param .u64 pa, .param .u64 py)
{
  .reg .f32 %f<4>;
  .reg .b32 %r<20>;
  .reg .b64 %rd<10>;
  ld.param.u64 %rd1, [pa];
  ld.param.u64 %rd3, [py];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd4, %r1, 8;
  add.s64 %rd5, %rd1, %rd4;
  mul.wide.u32 %rd6, %r1, 4;
  add.s64 %rd7, %rd3, %rd6;
  ld.global.v2.f32 {%f1, %f2}, [%rd5];
  cvt.rn.relu.bf16x2.f32 %r2, %f2, %f1;
  st.global.b32 [%rd7], %r2;
  ret;
}
.visible .entry ref_relu(.param .u64 pa, .param .u64 py)
{
  .reg .b16 %h<4>;
  .reg .f32 %f<20>;
  .reg .b32 %r<20>;
  .reg .b64 %rd<10>;
  ld.param.u64 %rd1, [pa];
  ld.param.u64 %rd3, [py];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd4, %r1, 4;
  add.s64 %rd5, %rd1, %rd4;
  mul.wide.u32 %rd6, %r1, 2;
  add.s64 %rd7, %rd3, %rd6;
  ld.global.f32 %f1, [%rd5];
  max.f32 %f2, %f1, 0f00000000;
  cvt.rn.bf16.f32 %h3, %f2;
  st.global.b16 [%rd7], %h3;
  ret;
}
//--- raw_copy.mlir
kproof.contract @c {
  kernel = "raw_copy", grid = array<i64: 1, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [ {name = "x", buffer = "in", space = "global", type = f16, shape = array<i64: 32>},
             {name = "y", buffer = "out", space = "global", type = bf16, shape = array<i64: 32>} ],
  spec = {builtin = "copy", input = "x", output = "y"}
}
//--- via_shared.mlir
kproof.contract @c {
  kernel = "via_shared", grid = array<i64: 1, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [ {name = "x", buffer = "in", space = "global", type = bf16, shape = array<i64: 32>},
             {name = "y", buffer = "out", space = "global", type = bf16, shape = array<i64: 32>} ],
  spec = {builtin = "copy", input = "x", output = "y"}
}
//--- via_local.mlir
kproof.contract @c {
  kernel = "via_local", grid = array<i64: 1, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [ {name = "x", buffer = "in", space = "global", type = bf16, shape = array<i64: 32>},
             {name = "y", buffer = "out", space = "global", type = bf16, shape = array<i64: 32>} ],
  spec = {builtin = "copy", input = "x", output = "y"}
}
//--- shared_ok.mlir
kproof.contract @c {
  kernel = "shared_ok", grid = array<i64: 1, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [ {name = "x", buffer = "in", space = "global", type = bf16, shape = array<i64: 32>},
             {name = "y", buffer = "out", space = "global", type = bf16, shape = array<i64: 32>} ],
  spec = {builtin = "copy", input = "x", output = "y"}
}
//--- fmt.ptx
// Raw 16-bit bits moved between formats: none of these is a copy.
.version 8.0
.target sm_80
.address_size 64
// f16 bits stored as they are into a bf16 buffer.
.visible .entry raw_copy(.param .u64 px, .param .u64 py)
{
  .reg .b16 %h<3>;
  .reg .b32 %r<3>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [px];
  ld.param.u64 %rd2, [py];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 2;
  add.s64 %rd4, %rd1, %rd3;
  add.s64 %rd5, %rd2, %rd3;
  ld.global.b16 %h1, [%rd4];
  st.global.b16 [%rd5], %h1;
  ret;
}
// bf16 through shared memory, then converted as if it were f16.
.visible .entry via_shared(.param .u64 px, .param .u64 py)
{
  .reg .b16 %h<3>;
  .reg .f32 %f<3>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<8>;
  .shared .align 4 .b8 sm[64];
  ld.param.u64 %rd1, [px];
  ld.param.u64 %rd2, [py];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 2;
  add.s64 %rd4, %rd1, %rd3;
  add.s64 %rd5, %rd2, %rd3;
  ld.global.b16 %h1, [%rd4];
  mov.u32 %r2, sm;
  shl.b32 %r3, %r1, 1;
  add.u32 %r4, %r2, %r3;
  st.shared.b16 [%r4], %h1;
  bar.sync 0;
  ld.shared.b16 %h2, [%r4];
  cvt.f32.f16 %f1, %h2;
  cvt.rn.bf16.f32 %h2, %f1;
  st.global.b16 [%rd5], %h2;
  ret;
}
// The same through a .local array.
.visible .entry via_local(.param .u64 px, .param .u64 py)
{
  .reg .b16 %h<3>;
  .reg .f32 %f<3>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<8>;
  .local .align 4 .b8 buf[4];
  ld.param.u64 %rd1, [px];
  ld.param.u64 %rd2, [py];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 2;
  add.s64 %rd4, %rd1, %rd3;
  add.s64 %rd5, %rd2, %rd3;
  ld.global.b16 %h1, [%rd4];
  st.local.b16 [buf+2], %h1;
  ld.local.b16 %h2, [buf+2];
  cvt.f32.f16 %f1, %h2;
  cvt.rn.bf16.f32 %h2, %f1;
  st.global.b16 [%rd5], %h2;
  ret;
}
// Correct: bf16 through shared memory and back, read as bf16.
.visible .entry shared_ok(.param .u64 px, .param .u64 py)
{
  .reg .b16 %h<3>;
  .reg .f32 %f<3>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<8>;
  .shared .align 4 .b8 sm[64];
  ld.param.u64 %rd1, [px];
  ld.param.u64 %rd2, [py];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 2;
  add.s64 %rd4, %rd1, %rd3;
  add.s64 %rd5, %rd2, %rd3;
  ld.global.b16 %h1, [%rd4];
  mov.u32 %r2, sm;
  shl.b32 %r3, %r1, 1;
  add.u32 %r4, %r2, %r3;
  st.shared.b16 [%r4], %h1;
  bar.sync 0;
  ld.shared.b16 %h2, [%r4];
  cvt.f32.bf16 %f1, %h2;
  cvt.rn.bf16.f32 %h2, %f1;
  st.global.b16 [%rd5], %h2;
  ret;
}
