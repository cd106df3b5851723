// The tiny-attention shape of the soundness work (test/Inputs/cuda/
// soundness.cu, attn_tile_4thr: 4 threads, lane-partial dot products
// through shared memory, lane 0 reduces, online softmax with a -inf
// literal as the initial max): PROVED by --verify-sync and --verify-equiv.
// Under --verify-sync the inputs may be non-finite; `-inf - max(-inf, s)`
// stays -inf (folding arithmetic keeps only finite constants open), so
// the proof is not lost to "infinities meet". bench/soundness-shapes.sh
// times it.
// RUN: kproof-opt %inputs/cuda/ptx/soundness.sm80.O3.ptx --verify-sync --contract=%s | FileCheck %s
// RUN: kproof-opt %inputs/cuda/ptx/soundness.sm80.G.ptx --verify-sync --contract=%s | FileCheck %s
// RUN: kproof-opt %inputs/cuda/ptx/soundness.sm80.O3.ptx --verify-equiv --contract=%s | FileCheck %s
// CHECK: assuming: floats are exact reals
// CHECK-NOT: UNKNOWN
// CHECK: {{^}}PROVED{{$}}
kproof.contract @attn_tile_4thr_c {
  kernel = "attn_tile_4thr",
  grid = array<i64: 1, 1, 1>, block = array<i64: 4, 1, 1>,
  params = [
    {name = "q", buffer = "in", space = "global", type = f32, shape = array<i64: 1, 4>},
    {name = "k", buffer = "in", space = "global", type = f32, shape = array<i64: 2, 4>},
    {name = "v", buffer = "in", space = "global", type = f32, shape = array<i64: 2, 4>},
    {name = "out", buffer = "out", space = "global", type = f32, shape = array<i64: 1, 4>},
    {name = "scale", scalar = f32}
  ],
  spec = {builtin = "attention", q = "q", k = "k", v = "v", output = "out", scale = "scale", mask = "none"}
}
