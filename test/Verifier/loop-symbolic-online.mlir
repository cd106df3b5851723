// The one-pass ("online") softmax over a row length n that is a kernel
// parameter (test/Inputs/cuda/loop_online.cu), one thread per row of
// x [64, n], for every n in [1, 2^20] at once. The loop's denominator
// d' = d * exp(m - m') + exp(x[j] - m') is a sum rescaled by the running
// max m' = max(m, x[j]): summarized by d_k = sum_{j<k} exp(x[j] - m_k),
// and the stores of the second loop are a store family. The spec's row of
// the stored element, (row * n + k) / n, is read as row (k < n, proved), so
// the spec's row max and the kernel's running max are one reduction.
// The twin that forgets the rescale has no invariant the engine states:
// the proof over every n is UNKNOWN, and the bounded checks at small n
// (--small-sizes, default n = 1..4) REFUTE it at n = 2 with a replayed
// counterexample. --small-sizes=0 leaves it UNKNOWN.
//
// RUN: split-file %s %t
// RUN: kproof-opt %inputs/cuda/ptx/loop_online.sm90.G.ptx --verify-equiv --contract=%t/online.mlir | FileCheck %s --check-prefix=ONLINE
// RUN: kproof-opt %inputs/cuda/ptx/loop_online.sm80.G.ptx --verify-equiv --contract=%t/online.mlir | FileCheck %s --check-prefix=ONLINE
// RUN: kproof-opt %inputs/cuda/ptx/loop_online.sm80.O3.ptx --verify-equiv --contract=%t/online.mlir | FileCheck %s --check-prefix=ONLINE
// RUN: sed 's/"softmax_online_rows"/"softmax_online_rows_norescale"/' %t/online.mlir > %t/norescale.mlir
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/loop_online.sm80.O3.ptx --verify-equiv --contract=%t/norescale.mlir 2>/dev/null | FileCheck %s --check-prefixes=BUG,BUG80
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/loop_online.sm90.G.ptx --verify-equiv --contract=%t/norescale.mlir 2>/dev/null | FileCheck %s --check-prefixes=BUG,BUG90
// RUN: %expect_exit 3 kproof-opt %inputs/cuda/ptx/loop_online.sm90.G.ptx --verify-equiv --contract=%t/norescale.mlir --small-sizes=0 | FileCheck %s --check-prefix=NOSMALL
// Decode attention (one query, n keys, d = 64, a thread per output column)
// with the online recurrence: the denominator and the V accumulator are
// both rescaled sums of the running max; against the built-in attention
// spec over a symbolic number of keys it proves for every n. The twin that
// rescales the denominator but not the accumulator is REFUTED at n = 2. At
// -G the dot product over d stays an inner loop with a constant trip count:
// the symbolic iteration runs it (its branches fold to constants).
// RUN: kproof-opt %inputs/cuda/ptx/loop_online.sm80.O3.ptx --verify-equiv --contract=%t/decode.mlir | FileCheck %s --check-prefix=DECODE
// RUN: sed 's/"decode_attn_online"/"decode_attn_online_stale_acc"/' %t/decode.mlir > %t/stale.mlir
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/loop_online.sm80.O3.ptx --verify-equiv --contract=%t/stale.mlir 2>/dev/null | FileCheck %s --check-prefix=STALE
// RUN: kproof-opt %inputs/cuda/ptx/loop_online.sm90.G.ptx --verify-equiv --contract=%t/decode.mlir --small-sizes=0 | FileCheck %s --check-prefix=DECODE
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/loop_online.sm90.G.ptx --verify-equiv --contract=%t/stale.mlir 2>/dev/null | FileCheck %s --check-prefix=STALE
// d = 128 (one CTA of 128 threads).
// RUN: sed 's/decode_attn_online"/decode_attn_online_128"/; s/array<i64: 64, 1, 1>/array<i64: 128, 1, 1>/; s/array<i64: 1, 64>/array<i64: 1, 128>/g; s/"n", 64\]/"n", 128]/g' %t/decode.mlir > %t/decode128.mlir
// RUN: kproof-opt %inputs/cuda/ptx/loop_online.sm90.G.ptx --verify-equiv --contract=%t/decode128.mlir | FileCheck %s --check-prefix=DECODE
// The causal length off by one (keys j < n - 1: the newest token dropped):
// REFUTED with a replayed counterexample: at n = 1 the divisor is 0 (no
// key attended), at n = 2 the value misses the second key. At -G this run once crashed in the value's case split (an arm
// of the split had no term: -inf - -inf); it is now REFUTED.
// RUN: sed 's/"decode_attn_online"/"decode_attn_online_len_minus1"/' %t/decode.mlir > %t/short.mlir
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/loop_online.sm80.O3.ptx --verify-equiv --contract=%t/short.mlir 2>&1 | FileCheck %s --check-prefix=SHORT
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/loop_online.sm90.G.ptx --verify-equiv --contract=%t/short.mlir 2>&1 | FileCheck %s --check-prefix=SHORT
// A causal mask over a symbolic number of keys is not modeled by the spec.
// RUN: sed 's/scale = 0.125 : f32}/scale = 0.125 : f32, mask = "causal"}/' %t/decode.mlir > %t/causal.mlir
// RUN: %expect_exit 3 kproof-opt %inputs/cuda/ptx/loop_online.sm80.O3.ptx --verify-equiv --contract=%t/causal.mlir --small-sizes=0 | FileCheck %s --check-prefix=CAUSAL

// DECODE: assuming: precondition: 'n' is in [1, 1048577) (contract: range)
// DECODE: obligations: [[N:[0-9]+]] ([[N]] proved)
// DECODE: {{^}}PROVED{{$}}
// STALE: this REFUTED is the kernel at n = 2
// STALE: ERROR: value mismatch at out[{{[0-9]+}}, {{[0-9]+}}] (row-major {{[0-9]+}})
// STALE: n = 2
// STALE: Replay: confirmed by replay (IEEE f32)
// STALE: {{^}}REFUTED{{$}}
// (-O3 reports the value at n = 2 first, -G the divisor at n = 1.)
// SHORT: kproof: decode_attn_online_len_minus1 against attention(q, k, v) -> out
// SHORT: REFUTED: non-zero divisor of div at {{.*}} -- counterexample confirmed
// SHORT: Example:
// SHORT: n = {{[12]}}
// SHORT: Replay: confirmed by replay (IEEE f32)
// SHORT: {{^}}REFUTED{{$}}
// CAUSAL: UNKNOWN: value out[i] written by the representative thread -- spec: causal attention over a symbolic number of keys is not yet modeled

// ONLINE: assuming: precondition: 'n' is in [1, 1048577) (contract: range)
// ONLINE: obligations: [[N:[0-9]+]] ([[N]] proved)
// ONLINE: {{^}}PROVED{{$}}
// BUG: warning: the proof over every n in the contract's range is UNKNOWN ({{.*}}has no invariant the engine states{{.*}}); this REFUTED is the kernel at n = 2 (a bounded check at small sizes, --small-sizes)
// BUG: ERROR: value mismatch at y[{{[0-9]+}}, {{[0-9]+}}] (row-major {{[0-9]+}})
// A row of two: (x, 0) with x = -2 (O3) or (0, 1) (G); the kernel's
// denominator misses the rescale by exp(m_old - m_new).
// BUG: Example:
// BUG: n = 2
// BUG80: x[15, 0] = -2
// BUG90: x[33, 1] = 1
// BUG80: Replay: confirmed by replay (IEEE f32): kernel y[30] = 0.0676676{{[0-9]+}}, spec = 0.119202{{[0-9]+}}
// BUG90: Replay: confirmed by replay (IEEE f32): kernel y[66] = 0.18393{{[0-9]+}}, spec = 0.26894{{[0-9]+}}
// BUG: {{^}}REFUTED{{$}}
// NOSMALL-NOT: bounded check
// NOSMALL: UNKNOWN: more than 256 paths {{.*}}not summarized: loop at {{.*}}has no invariant the engine states

//--- online.mlir
kproof.contract @online {
  kernel = "softmax_online_rows", grid = array<i64: 2, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = [64, "n"]},
    {name = "y", buffer = "out", space = "global", type = f32, shape = [64, "n"]},
    {name = "n", scalar = i32, range = array<i64: 1, 1048577>}
  ],
  spec = {builtin = "softmax", input = "x", output = "y"}
}
//--- decode.mlir
kproof.contract @decode {
  kernel = "decode_attn_online", grid = array<i64: 1, 1, 1>, block = array<i64: 64, 1, 1>,
  params = [
    {name = "q", buffer = "in", space = "global", type = f32, shape = array<i64: 1, 64>},
    {name = "k", buffer = "in", space = "global", type = f32, shape = ["n", 64]},
    {name = "v", buffer = "in", space = "global", type = f32, shape = ["n", 64]},
    {name = "out", buffer = "out", space = "global", type = f32, shape = array<i64: 1, 64>},
    {name = "n", scalar = i32, range = array<i64: 1, 1048577>}
  ],
  spec = {builtin = "attention", q = "q", k = "k", v = "v", output = "out", scale = 0.125 : f32}
}
