// Attention computed by one thread (q [2, 2], k [3, 2], v [3, 2], scale
// 1/sqrt(2) as the f32 constant 0f3F3504F3) against the built-in attention
// spec: causal with a query-position offset of 1 (key j visible to query i
// iff j <= i + 1), and without a mask. PROVED: the constants are read as
// the values they round (0f3F3504F3 as sqrt(2) / 2, the contract's
// 0.70710677 alike; 0f3FB8AA3B as log2(e)), so ex2((s - m) * log2(e)) is
// exp(s - m) with the scaled score s, and the running max cancels.
// Swapping the two contracts REFUTES both.
// RUN: split-file %s %t
// RUN: %expect_exit 0 kproof-opt %inputs/cuda/ptx/attention_1thread.sm80.O3.ptx --verify-equiv --contract=%t/causal.mlir | FileCheck %s --check-prefix=CAUSAL
// RUN: %expect_exit 0 kproof-opt %inputs/cuda/ptx/attention_1thread.sm80.O3.ptx --verify-equiv --contract=%t/nomask.mlir | FileCheck %s --check-prefix=NOMASK
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/attention_1thread.sm80.O3.ptx --verify-equiv --contract=%t/swapped.mlir 2>/dev/null | FileCheck %s --check-prefix=SWAPPED
// The scale as a constant expression: "1/sqrt(2)" is sqrt(2) / 2 exactly,
// the value the kernel's 0f3F3504F3 is read as; a malformed expression is
// a contract error.
// RUN: sed 's|scale = 0.70710677 : f32|scale = "1/sqrt(2)"|' %t/causal.mlir > %t/expr.mlir
// RUN: %expect_exit 0 kproof-opt %inputs/cuda/ptx/attention_1thread.sm80.O3.ptx --verify-equiv --contract=%t/expr.mlir | FileCheck %s --check-prefix=EXPR
// EXPR: idiom: f32 constant 0f3F3504F3 read as sqrt(2) / 2 (relative error
// EXPR-NOT: spec: scale
// EXPR: PROVED
// RUN: sed 's|scale = 0.70710677 : f32|scale = "1/sqrt(d)"|' %t/causal.mlir > %t/badexpr.mlir
// RUN: %expect_exit 2 kproof-opt %inputs/cuda/ptx/attention_1thread.sm80.O3.ptx --verify-equiv --contract=%t/badexpr.mlir 2>&1 | FileCheck %s --check-prefix=BADEXPR
// BADEXPR: error: attention spec 'scale': '1/sqrt(d)' is not a constant expression

// CAUSAL: kproof: attention_1thread_causal against attention(q, k, v, causal, offset 1) -> o
// CAUSAL: idiom: spec: scale f32 constant 0f3F3504F3 read as sqrt(2) / 2
// CAUSAL: obligations: 8 (8 proved)
// CAUSAL: PROVED
// NOMASK: kproof: attention_1thread_nomask against attention(q, k, v) -> o
// NOMASK: PROVED
// The causal kernel against the unmasked spec: query 0 must not see key 2.
// SWAPPED: REFUTED: value o[0] -- counterexample confirmed
// SWAPPED: Replay: confirmed by replay (IEEE f32): kernel o[0] = 0, spec = -0.333333333
// SWAPPED: REFUTED

//--- causal.mlir
kproof.contract @causal {
  kernel = "attention_1thread_causal", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [
    {name = "q", buffer = "in", type = f32, shape = array<i64: 2, 2>},
    {name = "k", buffer = "in", type = f32, shape = array<i64: 3, 2>},
    {name = "v", buffer = "in", type = f32, shape = array<i64: 3, 2>},
    {name = "o", buffer = "out", type = f32, shape = array<i64: 2, 2>}
  ],
  spec = {builtin = "attention", q = "q", k = "k", v = "v", output = "o",
          scale = 0.70710677 : f32, mask = "causal", offset = 1 : i64}
}
//--- nomask.mlir
kproof.contract @nomask {
  kernel = "attention_1thread_nomask", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [
    {name = "q", buffer = "in", type = f32, shape = array<i64: 2, 2>},
    {name = "k", buffer = "in", type = f32, shape = array<i64: 3, 2>},
    {name = "v", buffer = "in", type = f32, shape = array<i64: 3, 2>},
    {name = "o", buffer = "out", type = f32, shape = array<i64: 2, 2>}
  ],
  spec = {builtin = "attention", q = "q", k = "k", v = "v", output = "o",
          scale = 0.70710677 : f32, mask = "none"}
}
//--- swapped.mlir
kproof.contract @swapped {
  kernel = "attention_1thread_causal", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [
    {name = "q", buffer = "in", type = f32, shape = array<i64: 2, 2>},
    {name = "k", buffer = "in", type = f32, shape = array<i64: 3, 2>},
    {name = "v", buffer = "in", type = f32, shape = array<i64: 3, 2>},
    {name = "o", buffer = "out", type = f32, shape = array<i64: 2, 2>}
  ],
  spec = {builtin = "attention", q = "q", k = "k", v = "v", output = "o",
          scale = 0.70710677 : f32, mask = "none"}
}
