// Math that silently drops to bf16 is reported as a precision downgrade at
// each narrowing conversion: a warning by default (the reals model proves
// the math), a failure (exit 1) under --precision=strict.
// RUN: %expect_exit 0 kproof-opt %inputs/cuda/ptx/softmax_bf16_drop.sm90.O3.ptx --verify-equiv --contract=%s | FileCheck %s
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/softmax_bf16_drop.sm90.O3.ptx --verify-equiv --contract=%s --precision=strict | FileCheck %s --check-prefix=STRICT
// On sm_80 nvcc widens bf16 back to f32 by packing {0, bits} (mov.b32):
// the same real value, so the same verdict.
// RUN: %expect_exit 0 kproof-opt %inputs/cuda/ptx/softmax_bf16_drop.sm80.O3.ptx --verify-equiv --contract=%s | FileCheck %s --check-prefix=SM80
// SM80: warning: precision downgrade: conversion from f32 to bf16
// SM80: PROVED
// CHECK: warning: precision downgrade: conversion from f32 to bf16 at {{.*}}softmax_bf16_drop.sm90.O3.ptx:38:5
// CHECK: PROVED
// STRICT: warning: precision downgrade
// STRICT: REFUTED
kproof.contract @softmaxbf16 {
  kernel = "softmax_bf16_drop_4", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 4>}
  ],
  spec = {builtin = "softmax", input = "x", output = "y"},
  assume = ["one thread computes the whole row"]
}
