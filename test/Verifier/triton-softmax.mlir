// Triton's row softmax (test/Inputs/triton/kernels.py, softmax_row_kernel,
// compiled for sm_90a): masked loads with other=-inf, the row max and the
// sum of exponentials as butterfly shuffles (shfl.sync.bfly 16, 8, 4, 2, 1)
// and, with four warps, a second round through shared memory, in which
// every lane of a warp stores the warp's value to one slot.
//
// Each butterfly step op(a, shfl(a, 2^k)) is read as the reduction over the
// lanes of the span in lane order (Executor::combineButterfly), so a whole
// warp's max is one term that depends on the lane only through
// lane & ~31, and the CTA's max after the shared-memory round is a chain
// of concrete elements, the same as the spec's max once both are canonical
// chains (TermContext::canonicalChains). The lanes of one warp storing one
// slot store the same term up to index terms: a bit-vector question
// (bitVectorDifference). Coverage inverts the layout 4 * tid + j + 512 * h
// as a mixed-radix system whose last digit the row length (1000) cuts.
//
// BLOCK = 64 (one warp, two elements per lane) at n = 50 in 4 CTAs,
// BLOCK = 256 (two warps, four elements per lane) at n = 200 in 2 CTAs (the
// spec's row (200 ctaid + col) / 200 read as ctaid where col < 200), and
// BLOCK = 1024 (four warps, eight elements per lane) at n = 1000: PROVED.
// The twin passes n_cols = 49 for rows of 50: the last column is neither
// summed nor written, REFUTED with the element and replayed (at equal
// inputs the kernel's y is 1/49, the spec's 1/50).
// RUN: split-file %s %t
// RUN: kproof-opt %inputs/triton/ptx/softmax_row_b64.sm90.ptx --verify-equiv --contract=%t/b64.mlir | FileCheck %s --check-prefix=B64
// RUN: cp %t/b64.mlir %t/b64bug.mlir
// RUN: sed -i 's/{name = "n", scalar = i32, value = 50 : i32}/{name = "n", scalar = i32, value = 49 : i32}/' %t/b64bug.mlir
// RUN: %expect_exit 1 kproof-opt %inputs/triton/ptx/softmax_row_b64.sm90.ptx --verify-equiv --contract=%t/b64bug.mlir 2>/dev/null | FileCheck %s --check-prefix=BUG
// RUN: kproof-opt %inputs/triton/ptx/softmax_row_b256.sm90.ptx --verify-equiv --contract=%t/b256.mlir | FileCheck %s --check-prefix=B256
// RUN: kproof-opt %inputs/triton/ptx/softmax_row.sm90.ptx --verify-equiv --contract=%t/b1024.mlir | FileCheck %s --check-prefix=B1024
//
// A symbolic row length: BLOCK = 64 for every n_cols in [1, 64] at once
// (shape [4, "n"], row strides = n). Each lane's masked loads
// ite(c < n, x[row * n + c], -inf) are one-element ranges, and the
// butterfly's max and sum over the lanes join them into reductions over
// [0, smin(n, 64)) = [0, n) (TermContext::mergeRanges), the spec's
// max-over and sum. The spec's row (n * ctaid.x + col) / n is ctaid.x
// where col < n; coverage is decided row by row (ctaid.x = r, tid.x from
// the column's layout 2 tid + k). Twins: the odd column's exponent taken
// from the even element (a value bug, REFUTED with replay), and a range
// reaching n = 65, past BLOCK (column 64 is never written: REFUTED by
// coverage; the row sums miss it too, so the values of the other columns
// are wrong at n = 65, the error reported with its replay).
// RUN: kproof-opt %inputs/triton/ptx/softmax_row_b64.sm90.ptx --verify-equiv --contract=%t/b64n.mlir | FileCheck %s --check-prefix=B64N
// RUN: sed 's/sub.f32 \t%%r27, %%r3, %%r25/sub.f32 \t%%r27, %%r1, %%r25/' %inputs/triton/ptx/softmax_row_b64.sm90.ptx > %t/b64-odd-bug.ptx
// RUN: not grep -q 'sub.f32 \t%%r27, %%r3' %t/b64-odd-bug.ptx
// RUN: %expect_exit 1 kproof-opt %t/b64-odd-bug.ptx --verify-equiv --contract=%t/b64n.mlir 2>/dev/null | FileCheck %s --check-prefix=B64N-BUG
// RUN: sed 's/array<i64: 1, 65>/array<i64: 1, 66>/' %t/b64n.mlir > %t/b64n-over.mlir
// RUN: %expect_exit 1 kproof-opt %inputs/triton/ptx/softmax_row_b64.sm90.ptx --verify-equiv --contract=%t/b64n-over.mlir 2>/dev/null | FileCheck %s --check-prefix=B64N-OVER
// BLOCK = 256 (two warps, four elements per lane, a second round through
// shared memory) for every n_cols in [1, 256]: each warp's butterfly joins
// its lanes into [128 w, min(n, 128 w + 128)), the shared-memory round
// joins the two warps. Twin: a range reaching n = 257 (the kernel sums
// 256 elements), REFUTED at n = 257 with replay.
// RUN: kproof-opt %inputs/triton/ptx/softmax_row_b256.sm90.ptx --verify-equiv --contract=%t/b256n.mlir | FileCheck %s --check-prefix=B256N
// RUN: sed 's/array<i64: 1, 257>/array<i64: 1, 258>/' %t/b256n.mlir > %t/b256n-over.mlir
// RUN: %expect_exit 1 kproof-opt %inputs/triton/ptx/softmax_row_b256.sm90.ptx --verify-equiv --contract=%t/b256n-over.mlir 2>/dev/null | FileCheck %s --check-prefix=B256N-OVER
// BLOCK = 1024 (four warps, eight elements per lane in two chunks,
// 4 t + j and 512 + 4 t + j) for every n_cols in [1, 1024]: a lane's two
// chunks stay two ranges (TermContext::rangeParts, kept through the
// butterfly's substitutions) until the other lanes' chunks join them.
// Twin: a range reaching n = 1025, REFUTED with replay.
// RUN: sed 's/@tsm256n/@tsm1024n/; s/block = array<i64: 64, 1, 1>/block = array<i64: 128, 1, 1>/; s/array<i64: 1, 257>/array<i64: 1, 1025>/' %t/b256n.mlir > %t/b1024n.mlir
// RUN: kproof-opt %inputs/triton/ptx/softmax_row.sm90.ptx --verify-equiv --contract=%t/b1024n.mlir | FileCheck %s --check-prefix=B1024N
// RUN: sed 's/array<i64: 1, 1025>/array<i64: 1, 1026>/' %t/b1024n.mlir > %t/b1024n-over.mlir
// RUN: %expect_exit 1 kproof-opt %inputs/triton/ptx/softmax_row.sm90.ptx --verify-equiv --contract=%t/b1024n-over.mlir 2>/dev/null | FileCheck %s --check-prefix=B1024N-OVER

// B64: kproof: softmax_row_kernel against softmax(x) -> y
// B64: idiom: f32 constant 0f3FB8AA3B read as log2(e)
// B64-NOT: UNKNOWN
// B64: {{^}}PROVED

// BUG: kproof: softmax_row_kernel against softmax(x) -> y
// BUG: ERROR: value mismatch at y[3, 28] (row-major 178)
// BUG: Kernel value: [2.040816326530e-02, 2.040816326531e-02]
// BUG-NEXT: Spec value: [1.999999999999e-02, 2.000000000001e-02]
// BUG: Replay: confirmed by replay (IEEE f32): kernel y[178] = 0.0204081628, spec = 0.02
// BUG: {{^}}REFUTED

// B64N: kproof: softmax_row_kernel against softmax(x) -> y
// B64N: launch: grid (4, 1, 1) x block (32, 1, 1); buffers: y out f32[4, n], x in f32[4, n]
// B64N: assuming: precondition: 'n' is in [1, 65) (contract: range)
// B64N-NOT: UNKNOWN
// B64N: obligations: [[N:[0-9]+]] ([[N]] proved)
// B64N: {{^}}PROVED

// B64N-BUG: REFUTED: value y[i] written by the representative thread (store 1 of 2
// B64N-BUG: ERROR: value mismatch at y[2, 54] (row-major 182)
// B64N-BUG: Example:
// B64N-BUG-NEXT: ctaid.x = 2
// B64N-BUG-NEXT: n = 64
// B64N-BUG-NEXT: tid.x = 27
// B64N-BUG-NEXT: x[2, 62] = 1
// B64N-BUG-NEXT: x[others] = 0
// B64N-BUG: Kernel value: [1.482875084038e-02, 1.482875084039e-02]
// B64N-BUG-NEXT: Spec value:   [1.521646598446e-02, 1.521646598447e-02]
// B64N-BUG: Replay: confirmed by replay (IEEE f32): kernel y[182] = 0.0148287518, spec = 0.015216466
// B64N-BUG: {{^}}REFUTED

// B64N-OVER: REFUTED: coverage: every element of 'y' is written -- no thread writes y[64] on any path
// B64N-OVER: ERROR: value mismatch at y[{{[0-9]+}}, {{[0-9]+}}] (row-major {{[0-9]+}})
// B64N-OVER: Example:
// B64N-OVER: n = 65
// B64N-OVER: Replay: confirmed by replay (IEEE f32): kernel y[{{[0-9]+}}] = {{.*}}, spec = {{.*}}
// B64N-OVER: {{^}}REFUTED

// B256N: launch: grid (2, 1, 1) x block (64, 1, 1); buffers: y out f32[2, n], x in f32[2, n]
// B256N: assuming: precondition: 'n' is in [1, 257) (contract: range)
// B256N-NOT: UNKNOWN
// B256N: obligations: [[N:[0-9]+]] ([[N]] proved)
// B256N: {{^}}PROVED

// B256N-OVER: ERROR: value mismatch at y[0, [[E:[0-9]+]]] (row-major [[E]])
// B256N-OVER: Example:
// B256N-OVER-NEXT: ctaid.x = 0
// B256N-OVER-NEXT: n = 257
// B256N-OVER-NEXT: tid.x = {{[0-9]+}}
// B256N-OVER-NEXT: x[0, [[E]]] = 0
// B256N-OVER-NEXT: x[others] = 3
// B256N-OVER: Replay: confirmed by replay (exact, 256 bits): kernel y[[[E]]] = 0.00019520529281805741747
// B256N-OVER: {{^}}REFUTED

// B1024N: launch: grid (2, 1, 1) x block (128, 1, 1); buffers: y out f32[2, n], x in f32[2, n]
// B1024N: assuming: precondition: 'n' is in [1, 1025) (contract: range)
// B1024N-NOT: UNKNOWN
// B1024N: obligations: [[N:[0-9]+]] ([[N]] proved)
// B1024N: {{^}}PROVED

// B1024N-OVER: ERROR: value mismatch at
// B1024N-OVER: n = 1025
// B1024N-OVER: Replay: confirmed by replay (exact, 256 bits)
// B1024N-OVER: {{^}}REFUTED

// B256: kproof: softmax_row_kernel against softmax(x) -> y
// B256-NOT: UNKNOWN
// B256: {{^}}PROVED

// B1024: kproof: softmax_row_kernel against softmax(x) -> y
// B1024: warning: tolerated race (both threads write the same value): shared 'global_smem'
// B1024-NOT: UNKNOWN
// B1024: obligations: {{[0-9]+}} ({{[0-9]+}} proved)
// B1024: {{^}}PROVED

//--- b64.mlir
kproof.contract @tsm64 {
  kernel = "softmax_row_kernel", grid = array<i64: 4, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 4, 50>},
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4, 50>},
    {name = "x_row_stride", scalar = i32, value = 50 : i32},
    {name = "y_row_stride", scalar = i32, value = 50 : i32},
    {name = "n", scalar = i32, value = 50 : i32},
    {name = "global_scratch", scalar = i64, value = 0 : i64},
    {name = "profile_scratch", scalar = i64, value = 0 : i64}
  ],
  spec = {builtin = "softmax", input = "x", output = "y"}
}

//--- b64n.mlir
kproof.contract @tsm64n {
  kernel = "softmax_row_kernel", grid = array<i64: 4, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "y", buffer = "out", space = "global", type = f32, shape = [4, "n"]},
    {name = "x", buffer = "in", space = "global", type = f32, shape = [4, "n"]},
    {name = "x_row_stride", scalar = i32, value = "n"},
    {name = "y_row_stride", scalar = i32, value = "n"},
    {name = "n", scalar = i32, range = array<i64: 1, 65>},
    {name = "global_scratch", scalar = i64, value = 0 : i64},
    {name = "profile_scratch", scalar = i64, value = 0 : i64}
  ],
  spec = {builtin = "softmax", input = "x", output = "y"}
}

//--- b1024.mlir
kproof.contract @tsm1024 {
  kernel = "softmax_row_kernel", grid = array<i64: 1, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 1, 1000>},
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 1, 1000>},
    {name = "x_row_stride", scalar = i32, value = 1000 : i32},
    {name = "y_row_stride", scalar = i32, value = 1000 : i32},
    {name = "n", scalar = i32, value = 1000 : i32},
    {name = "global_scratch", scalar = i64, value = 0 : i64},
    {name = "profile_scratch", scalar = i64, value = 0 : i64}
  ],
  dynamic_shared = 16,
  tolerate_equal_writes = true,
  spec = {builtin = "softmax", input = "x", output = "y"}
}

//--- b256n.mlir
kproof.contract @tsm256n {
  kernel = "softmax_row_kernel", grid = array<i64: 2, 1, 1>, block = array<i64: 64, 1, 1>,
  params = [
    {name = "y", buffer = "out", space = "global", type = f32, shape = [2, "n"]},
    {name = "x", buffer = "in", space = "global", type = f32, shape = [2, "n"]},
    {name = "x_row_stride", scalar = i32, value = "n"},
    {name = "y_row_stride", scalar = i32, value = "n"},
    {name = "n", scalar = i32, range = array<i64: 1, 257>},
    {name = "global_scratch", scalar = i64, value = 0 : i64},
    {name = "profile_scratch", scalar = i64, value = 0 : i64}
  ],
  dynamic_shared = 16,
  tolerate_equal_writes = true,
  spec = {builtin = "softmax", input = "x", output = "y"}
}

//--- b256.mlir
kproof.contract @tsm256 {
  kernel = "softmax_row_kernel", grid = array<i64: 2, 1, 1>, block = array<i64: 64, 1, 1>,
  params = [
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 2, 200>},
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 2, 200>},
    {name = "x_row_stride", scalar = i32, value = 200 : i32},
    {name = "y_row_stride", scalar = i32, value = 200 : i32},
    {name = "n", scalar = i32, value = 200 : i32},
    {name = "global_scratch", scalar = i64, value = 0 : i64},
    {name = "profile_scratch", scalar = i64, value = 0 : i64}
  ],
  dynamic_shared = 16,
  tolerate_equal_writes = true,
  spec = {builtin = "softmax", input = "x", output = "y"}
}
