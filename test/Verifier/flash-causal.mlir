// A causal FlashAttention-2-style forward pass with a query-position offset
// (test/Inputs/cuda/flash_fwd.cu, flash_causal_*: query q sees keys
// j <= q + off; a CTA runs the key tiles up to its last row's horizon,
// min(n, 16 ctaid + 16 + off), and masks keys with -inf in every tile)
// against naive causal attention, two CTAs of 16 threads, D = 16, n = 32,
// off = 4: the second key tile is the diagonal tile of the first CTA
// (keys 16..19 visible to its rows 12..15 only) and of the second.
// Every mask condition `k0 + j <= 16 ctaid + tid + 4` of the representative
// thread is a branch of its value; the thread-id bounds leave only the
// cases of rows that exist (a few dozen of 2^32), and decide the spec's own mask
// `j <= row + 4` in each. Against the non-causal spec the kernel is
// REFUTED. The planted bugs are REFUTED with replayed counterexamples:
// the diagonal key masked out (k < q + off), the tile count rounded down
// (the partial diagonal tile of the first CTA skipped: a row in 12..15),
// and the scale applied twice. The spec's offset names the kernel's
// integer param `off` (fixed at 4 here; a free size in a range starting at
// 0 or above is accepted too); another param or an unknown name is a
// contract error.
// RUN: split-file %s %t
// RUN: kproof-opt %inputs/cuda/ptx/flash_fwd.sm80.O3.ptx --verify-equiv --contract=%t/causal.mlir | FileCheck %s --check-prefix=CAUSAL
// RUN: sed 's/mask = "causal", offset = "off"/mask = "none"/' %t/causal.mlir > %t/none.mlir
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/flash_fwd.sm80.O3.ptx --verify-equiv --contract=%t/none.mlir 2>&1 | FileCheck %s --check-prefix=BUG
// RUN: sed 's/flash_causal_d16/flash_causal_mask_lt/' %t/causal.mlir > %t/mask-lt.mlir
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/flash_fwd.sm80.O3.ptx --verify-equiv --contract=%t/mask-lt.mlir 2>&1 | FileCheck %s --check-prefix=BUG
// RUN: sed 's/flash_causal_d16/flash_causal_skip_floor/' %t/causal.mlir > %t/skip.mlir
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/flash_fwd.sm80.O3.ptx --verify-equiv --contract=%t/skip.mlir 2>&1 | FileCheck %s --check-prefix=SKIP
// RUN: sed 's/flash_causal_d16/flash_causal_scale_twice/' %t/causal.mlir > %t/scale.mlir
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/flash_fwd.sm80.O3.ptx --verify-equiv --contract=%t/scale.mlir 2>&1 | FileCheck %s --check-prefix=BUG

// The logsumexp as a second output (flash_causal_lse_d16 stores
// L[q] = m + __logf(l)): the spec's `lse = "L"` defines
// L[i] = m_i + log(sum_j exp(s_ij - m_i)) over the visible keys. The
// kernel's running max and the spec's max are two frames of one value
// (log of a sum of exponentials, less the frame); lg2's operand is a
// positive sum of exponentials. The twin that stores log(l) without the
// running max is REFUTED at L, confirmed by replay.
// RUN: kproof-opt %inputs/cuda/ptx/flash_fwd.sm80.O3.ptx --verify-equiv --contract=%t/lse.mlir | FileCheck %s --check-prefix=LSE
// RUN: kproof-opt %inputs/cuda/ptx/flash_fwd.sm90.O3.ptx --verify-equiv --contract=%t/lse.mlir | FileCheck %s --check-prefix=LSE
// RUN: sed 's/flash_causal_lse_d16/flash_causal_lse_no_max/' %t/lse.mlir > %t/lse-no-max.mlir
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/flash_fwd.sm80.O3.ptx --verify-equiv --contract=%t/lse-no-max.mlir 2>&1 | FileCheck %s --check-prefix=LSE-BUG
// RUN: sed 's/{name = "L", buffer = "out"/{name = "L", buffer = "in"/' %t/lse.mlir > %t/lse-in.mlir
// RUN: %expect_exit 2 kproof-opt %inputs/cuda/ptx/flash_fwd.sm80.O3.ptx --verify-equiv --contract=%t/lse-in.mlir 2>&1 | FileCheck %s --check-prefix=LSE-ROLE
// RUN: sed 's/lse = "L"/lse = "O"/' %t/lse.mlir > %t/lse-o.mlir
// RUN: %expect_exit 2 kproof-opt %inputs/cuda/ptx/flash_fwd.sm80.O3.ptx --verify-equiv --contract=%t/lse-o.mlir 2>&1 | FileCheck %s --check-prefix=LSE-ROLE
// RUN: sed 's/lse = "L"/lse = "lse"/' %t/lse.mlir > %t/lse-name.mlir
// RUN: %expect_exit 2 kproof-opt %inputs/cuda/ptx/flash_fwd.sm80.O3.ptx --verify-equiv --contract=%t/lse-name.mlir 2>&1 | FileCheck %s --check-prefix=LSE-NAME

// LSE: kproof: flash_causal_lse_d16 against attention(Q, K, V, causal, offset 4) -> O; logsumexp(Q, K, causal, offset 4) -> L
// LSE-NOT: UNKNOWN
// LSE-NOT: REFUTED
// LSE: {{^}}PROVED

// LSE-BUG: error: REFUTED: value mismatch at L[{{[0-9]+}}]
// LSE-BUG: Replay: confirmed by replay ({{[^)]*}}): kernel L[{{[0-9]+}}] = {{[^,]+}}, spec = {{.+}}
// LSE-BUG: {{^}}REFUTED

// LSE-ROLE: error: attention spec 'lse' must name an output buffer param [..., M] of floats, one element per query row, other than 'output'
// LSE-NAME: error: 'kproof.contract' op attention spec 'lse' must name a param (the logsumexp output)

// RUN: sed 's/offset = "off"/offset = "scale"/' %t/causal.mlir > %t/float-offset.mlir
// RUN: %expect_exit 2 kproof-opt %inputs/cuda/ptx/flash_fwd.sm80.O3.ptx --verify-equiv --contract=%t/float-offset.mlir 2>&1 | FileCheck %s --check-prefix=OFFSET
// OFFSET: error: attention spec 'offset': 'scale' is not an integer scalar param
// RUN: sed 's/offset = "off"/offset = 1.5 : f32/' %t/causal.mlir > %t/float-offset2.mlir
// RUN: %expect_exit 2 kproof-opt %inputs/cuda/ptx/flash_fwd.sm80.O3.ptx --verify-equiv --contract=%t/float-offset2.mlir 2>&1 | FileCheck %s --check-prefix=OFFSET2
// OFFSET2: error: attention spec 'offset' must be an integer or the name of an integer scalar param
// RUN: sed 's/offset = "off"/offset = "nope"/' %t/causal.mlir > %t/unknown-offset.mlir
// RUN: %expect_exit 2 kproof-opt %inputs/cuda/ptx/flash_fwd.sm80.O3.ptx --verify-equiv --contract=%t/unknown-offset.mlir 2>&1 | FileCheck %s --check-prefix=OFFSET3
// OFFSET3: error: attention spec 'offset': 'nope' is not an integer scalar param
// An integer param without a value or range is not an offset.
// RUN: sed 's/{name = "off", scalar = i32, value = 4 : i32}/{name = "off", scalar = i32}/' %t/causal.mlir > %t/free-offset.mlir
// RUN: %expect_exit 2 kproof-opt %inputs/cuda/ptx/flash_fwd.sm80.O3.ptx --verify-equiv --contract=%t/free-offset.mlir 2>&1 | FileCheck %s --check-prefix=OFFSET4
// OFFSET4: error: attention spec 'offset': 'off' needs a fixed value or a 'range' within [0, 2^31)

// CAUSAL: kproof: flash_causal_d16 against attention(Q, K, V, causal, offset 4) -> O
// CAUSAL-NOT: UNKNOWN
// CAUSAL-NOT: REFUTED
// CAUSAL: {{^}}PROVED

// BUG: REFUTED: value mismatch at O[{{[0-9]+}}, {{[0-9]+}}] (row-major {{[0-9]+}})
// BUG: Replay: confirmed by replay ({{[^)]*}}): kernel O[{{[0-9]+}}] = {{[^,]+}}, spec = {{.+}}
// BUG: {{^}}REFUTED

// The rows that lose keys 16..19 are 12..15 of the first CTA.
// SKIP: REFUTED: value mismatch at O[1{{[2-5]}}, {{[0-9]+}}] (row-major {{[0-9]+}})
// SKIP: Replay: confirmed by replay ({{[^)]*}}): kernel O[{{[0-9]+}}] = {{[^,]+}}, spec = {{.+}}
// SKIP: {{^}}REFUTED

//--- causal.mlir
kproof.contract @flash_causal {
  kernel = "flash_causal_d16", grid = array<i64: 2, 1, 1>, block = array<i64: 16, 1, 1>,
  params = [
    {name = "Q", buffer = "in", type = f32, shape = array<i64: 32, 16>},
    {name = "K", buffer = "in", type = f32, shape = array<i64: 32, 16>},
    {name = "V", buffer = "in", type = f32, shape = array<i64: 32, 16>},
    {name = "O", buffer = "out", type = f32, shape = array<i64: 32, 16>},
    // L (the logsumexp output of flash_causal_lse_*) is not written here.
    {name = "L", buffer = "in", type = f32, shape = array<i64: 32>},
    {name = "n", scalar = i32, value = 32 : i32},
    {name = "off", scalar = i32, value = 4 : i32},
    {name = "scale", scalar = f32, value = 0.25 : f32}
  ],
  spec = {builtin = "attention", q = "Q", k = "K", v = "V", output = "O",
          scale = 0.25 : f32, mask = "causal", offset = "off"}
}

//--- lse.mlir
kproof.contract @flash_causal_lse {
  kernel = "flash_causal_lse_d16", grid = array<i64: 2, 1, 1>, block = array<i64: 16, 1, 1>,
  params = [
    {name = "Q", buffer = "in", type = f32, shape = array<i64: 32, 16>},
    {name = "K", buffer = "in", type = f32, shape = array<i64: 32, 16>},
    {name = "V", buffer = "in", type = f32, shape = array<i64: 32, 16>},
    {name = "O", buffer = "out", type = f32, shape = array<i64: 32, 16>},
    {name = "L", buffer = "out", type = f32, shape = array<i64: 32>},
    {name = "n", scalar = i32, value = 32 : i32},
    {name = "off", scalar = i32, value = 4 : i32},
    {name = "scale", scalar = f32, value = 0.25 : f32}
  ],
  spec = {builtin = "attention", q = "Q", k = "K", v = "V", output = "O",
          scale = 0.25 : f32, mask = "causal", offset = "off", lse = "L"}
}
