// Attention with batch and head dimensions, and grouped-query attention
// (GQA): the built-in attention spec over q [..., M, D], k [..., N, D],
// v [..., N, Dv], output [..., M, Dv] (and the logsumexp [..., M]); a
// leading extent of k smaller than q's groups query heads onto KV heads
// (query head h reads KV head h / (Hq / Hk)).
// - flash_fwd_d16 (test/Inputs/cuda/flash_fwd.cu, blockIdx.y = head) over
//   3 heads: one proof for the 6 CTAs;
// - the causal kernel with its logsumexp, L [3, 32];
// - flash_gqa_d16 (test/Inputs/cuda/flash_gqa.cu): Q, O [2, 4, 32, 16],
//   K, V [2, 2, 32, 16], blockIdx.z = batch, 16 CTAs; its twin that reads
//   KV head h % 2 instead of h / 2 is REFUTED at a query head whose two
//   readings differ (h = 1 or 2), confirmed by replay;
// - shapes whose leading extents do not divide are a contract error;
// - a size parameter in a shape with leading dimensions is UNKNOWN (the
//   rows would be split by its upper bound, not its value).
// RUN: split-file %s %t
// RUN: kproof-opt %inputs/cuda/ptx/flash_fwd.sm80.O3.ptx --verify-equiv --contract=%t/heads.mlir | FileCheck %s --check-prefix=HEADS
// RUN: kproof-opt %inputs/cuda/ptx/flash_fwd.sm80.O3.ptx --verify-equiv --contract=%t/causal-lse.mlir | FileCheck %s --check-prefix=LSE
// RUN: kproof-opt %inputs/cuda/ptx/flash_gqa.sm80.O3.ptx --verify-equiv --contract=%t/gqa.mlir | FileCheck %s --check-prefix=GQA
// RUN: kproof-opt %inputs/cuda/ptx/flash_gqa.sm90.O3.ptx --verify-equiv --contract=%t/gqa.mlir | FileCheck %s --check-prefix=GQA
// RUN: sed 's/flash_gqa_d16/flash_gqa_head_mod/' %t/gqa.mlir > %t/gqa-mod.mlir
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/flash_gqa.sm80.O3.ptx --verify-equiv --contract=%t/gqa-mod.mlir 2>&1 | FileCheck %s --check-prefix=MOD
// RUN: sed 's/array<i64: 2, 2, 32, 16>/array<i64: 2, 3, 32, 16>/g' %t/gqa.mlir > %t/bad-groups.mlir
// RUN: %expect_exit 2 kproof-opt %inputs/cuda/ptx/flash_gqa.sm80.O3.ptx --verify-equiv --contract=%t/bad-groups.mlir 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: sed 's/kernel = "flash_fwd_d16"/kernel = "flash_fwd_d16"/; s/shape = array<i64: 3, 32, 16>}/shape = [3, "n", 16]}/g; s/{name = "n", scalar = i32, value = 32 : i32}/{name = "n", scalar = i32, range = array<i64: 1, 33>}/' %t/heads.mlir > %t/free-n.mlir
// RUN: %expect_exit 3 kproof-opt %inputs/cuda/ptx/flash_fwd.sm80.O3.ptx --verify-equiv --contract=%t/free-n.mlir --timeout=120 2>&1 | FileCheck %s --check-prefix=FREE
// FREE: attention with batch or head dimensions needs concrete extents (a size parameter in the shape of 'Q')
// FREE-NOT: {{^}}PROVED

// HEADS: kproof: flash_fwd_d16 against attention(Q, K, V) -> O
// HEADS: buffers: Q in f32[3, 32, 16], K in f32[3, 32, 16], V in f32[3, 32, 16], O out f32[3, 32, 16]
// HEADS-NOT: UNKNOWN
// HEADS: {{^}}PROVED

// LSE: kproof: flash_causal_lse_d16 against attention(Q, K, V, causal, offset 4) -> O; logsumexp(Q, K, causal, offset 4) -> L
// LSE-NOT: UNKNOWN
// LSE: {{^}}PROVED

// GQA: kproof: flash_gqa_d16 against attention(Q, K, V) -> O
// GQA-NOT: UNKNOWN
// GQA: {{^}}PROVED

// MOD: error: REFUTED: value mismatch at O[{{[01]}}, {{[12]}}, {{[0-9]+}}, {{[0-9]+}}]
// MOD: Replay: confirmed by replay ({{[^)]*}}): kernel O[{{[0-9]+}}] = {{[^,]+}}, spec = {{.+}}
// MOD: {{^}}REFUTED

// SHAPE: error: attention spec shape mismatch: need q [..., M, D], k [..., N, D], v [..., N, Dv], output [..., M, Dv] of one rank, the leading (batch, head) extents of q and output equal, those of k and v equal, and each of k's dividing q's (grouped-query attention)

//--- heads.mlir
kproof.contract @flash_heads {
  kernel = "flash_fwd_d16", grid = array<i64: 2, 3, 1>, block = array<i64: 16, 1, 1>,
  params = [
    {name = "Q", buffer = "in", type = f32, shape = array<i64: 3, 32, 16>},
    {name = "K", buffer = "in", type = f32, shape = array<i64: 3, 32, 16>},
    {name = "V", buffer = "in", type = f32, shape = array<i64: 3, 32, 16>},
    {name = "O", buffer = "out", type = f32, shape = array<i64: 3, 32, 16>},
    {name = "n", scalar = i32, value = 32 : i32},
    {name = "scale", scalar = f32, value = 0.25 : f32}
  ],
  spec = {builtin = "attention", q = "Q", k = "K", v = "V", output = "O",
          scale = 0.25 : f32}
}

//--- causal-lse.mlir
kproof.contract @flash_causal_lse_heads {
  kernel = "flash_causal_lse_d16", grid = array<i64: 2, 3, 1>, block = array<i64: 16, 1, 1>,
  params = [
    {name = "Q", buffer = "in", type = f32, shape = array<i64: 3, 32, 16>},
    {name = "K", buffer = "in", type = f32, shape = array<i64: 3, 32, 16>},
    {name = "V", buffer = "in", type = f32, shape = array<i64: 3, 32, 16>},
    {name = "O", buffer = "out", type = f32, shape = array<i64: 3, 32, 16>},
    {name = "L", buffer = "out", type = f32, shape = array<i64: 3, 32>},
    {name = "n", scalar = i32, value = 32 : i32},
    {name = "off", scalar = i32, value = 4 : i32},
    {name = "scale", scalar = f32, value = 0.25 : f32}
  ],
  spec = {builtin = "attention", q = "Q", k = "K", v = "V", output = "O",
          scale = 0.25 : f32, mask = "causal", offset = "off", lse = "L"}
}

//--- gqa.mlir
kproof.contract @flash_gqa {
  kernel = "flash_gqa_d16", grid = array<i64: 2, 4, 2>, block = array<i64: 16, 1, 1>,
  params = [
    {name = "Q", buffer = "in", type = f32, shape = array<i64: 2, 4, 32, 16>},
    {name = "K", buffer = "in", type = f32, shape = array<i64: 2, 2, 32, 16>},
    {name = "V", buffer = "in", type = f32, shape = array<i64: 2, 2, 32, 16>},
    {name = "O", buffer = "out", type = f32, shape = array<i64: 2, 4, 32, 16>},
    {name = "n", scalar = i32, value = 32 : i32},
    {name = "hk", scalar = i32, value = 2 : i32},
    {name = "scale", scalar = f32, value = 0.25 : f32}
  ],
  spec = {builtin = "attention", q = "Q", k = "K", v = "V", output = "O",
          scale = 0.25 : f32}
}
