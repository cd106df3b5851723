// A multi-thread kernel (4 CTAs x 256 threads, out[i] = __expf(s * in[i]))
// against reference kernels (test/Inputs/cuda/ref_softmax_naive.cu):
// - ref_scaled_exp, launched with its own geometry (8 x 128): the writer of
//   element e is its inverted layout (tid.x = e % 128, ctaid.x = e / 128),
//   proved to be the one and only writer of e; PROVED;
// - ref_scaled_exp_loop, one thread looping over all 1024 elements: its
//   element at the kernel's symbolic index is the lifted family
//   x[e] * s -> exp (checked element by element); PROVED;
// - references that do not define the output: too few threads (coverage),
//   too many (a load past the end of x), a second thread dimension that the
//   layout ignores (two writers per element): UNKNOWN with the reason,
//   never PROVED.
// RUN: split-file %s %t
// RUN: cp %inputs/cuda/ptx/ref_softmax_naive.sm80.O3.ptx %t/ref.ptx
// RUN: %expect_exit 0 kproof-opt %inputs/cuda/ptx/elementwise_scaled_exp.sm80.O3.ptx --verify-equiv --contract=%t/threads.mlir | FileCheck %s --check-prefix=THREADS
// RUN: %expect_exit 0 kproof-opt %inputs/cuda/ptx/elementwise_scaled_exp.sm80.O3.ptx --verify-equiv --contract=%t/loop.mlir | FileCheck %s --check-prefix=LOOP
// RUN: %expect_exit 3 kproof-opt %inputs/cuda/ptx/elementwise_scaled_exp.sm80.O3.ptx --verify-equiv --contract=%t/few.mlir | FileCheck %s --check-prefix=FEW
// RUN: %expect_exit 3 kproof-opt %inputs/cuda/ptx/elementwise_scaled_exp.sm80.O3.ptx --verify-equiv --contract=%t/many.mlir | FileCheck %s --check-prefix=MANY
// RUN: %expect_exit 3 kproof-opt %inputs/cuda/ptx/elementwise_scaled_exp.sm80.O3.ptx --verify-equiv --contract=%t/twice.mlir | FileCheck %s --check-prefix=TWICE
// The planted off-by-one store against the one-thread reference: REFUTED.
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/elementwise_scaled_exp.sm80.O3.ptx --verify-equiv --contract=%t/bug.mlir 2>/dev/null | FileCheck %s --check-prefix=BUG

// THREADS: kproof: elementwise_scaled_exp against reference ref_scaled_exp(x, y, s) -> y (mode reals)
// THREADS-NOT: UNKNOWN
// THREADS: PROVED

// LOOP: kproof: elementwise_scaled_exp against reference ref_scaled_exp_loop(x, y, s, n) -> y (mode reals)
// LOOP-NOT: UNKNOWN
// LOOP: PROVED

// FEW: UNKNOWN: value y[i] written by the representative thread -- spec: reference kernel 'ref_scaled_exp' does not write every element of 'y' (or its writer thread is not proven) (for instance y[512])
// FEW: UNKNOWN: value y[i] written by the representative thread: spec:

// MANY: UNKNOWN: value y[i] written by the representative thread -- spec: reference kernel 'ref_scaled_exp': load from x inside its extent of 1024 elements at {{.*}}ref.ptx:{{[0-9]+}}:2 is not proven

// TWICE: UNKNOWN: value y[i] written by the representative thread -- spec: reference kernel 'ref_scaled_exp': a thread stores outside 'y' or to an element another thread writes, or the layout could not be inverted (for instance tid.x = {{[0-9]+}}, tid.y = 1, ctaid.x = {{[0-9]+}})

// BUG: REFUTED: value y[i] written by the representative thread -- counterexample confirmed
// BUG: REFUTED

//--- threads.mlir
kproof.contract @threads {
  kernel = "elementwise_scaled_exp", grid = array<i64: 4, 1, 1>, block = array<i64: 256, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 1024>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 1024>},
    {name = "s", scalar = f32},
    {name = "n", scalar = i32, value = 1024 : i32}
  ],
  spec = {reference = "ref_scaled_exp", file = "ref.ptx", params = ["x", "y", "s"], output = "y",
          grid = array<i64: 8, 1, 1>, block = array<i64: 128, 1, 1>}
}

//--- loop.mlir
kproof.contract @loop {
  kernel = "elementwise_scaled_exp", grid = array<i64: 4, 1, 1>, block = array<i64: 256, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 1024>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 1024>},
    {name = "s", scalar = f32},
    {name = "n", scalar = i32, value = 1024 : i32}
  ],
  spec = {reference = "ref_scaled_exp_loop", file = "ref.ptx", output = "y"}
}

//--- few.mlir
kproof.contract @few {
  kernel = "elementwise_scaled_exp", grid = array<i64: 4, 1, 1>, block = array<i64: 256, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 1024>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 1024>},
    {name = "s", scalar = f32},
    {name = "n", scalar = i32, value = 1024 : i32}
  ],
  spec = {reference = "ref_scaled_exp", file = "ref.ptx", params = ["x", "y", "s"], output = "y",
          grid = array<i64: 4, 1, 1>, block = array<i64: 128, 1, 1>}
}

//--- many.mlir
kproof.contract @many {
  kernel = "elementwise_scaled_exp", grid = array<i64: 4, 1, 1>, block = array<i64: 256, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 1024>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 1024>},
    {name = "s", scalar = f32},
    {name = "n", scalar = i32, value = 1024 : i32}
  ],
  spec = {reference = "ref_scaled_exp", file = "ref.ptx", params = ["x", "y", "s"], output = "y",
          grid = array<i64: 16, 1, 1>, block = array<i64: 128, 1, 1>}
}

//--- twice.mlir
kproof.contract @twice {
  kernel = "elementwise_scaled_exp", grid = array<i64: 4, 1, 1>, block = array<i64: 256, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 1024>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 1024>},
    {name = "s", scalar = f32},
    {name = "n", scalar = i32, value = 1024 : i32}
  ],
  spec = {reference = "ref_scaled_exp", file = "ref.ptx", params = ["x", "y", "s"], output = "y",
          grid = array<i64: 8, 1, 1>, block = array<i64: 64, 2, 1>}
}

//--- bug.mlir
kproof.contract @bug {
  kernel = "elementwise_scaled_exp_bug", grid = array<i64: 4, 1, 1>, block = array<i64: 256, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 1024>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 1024>},
    {name = "s", scalar = f32},
    {name = "n", scalar = i32, value = 1024 : i32}
  ],
  spec = {reference = "ref_scaled_exp_loop", file = "ref.ptx", output = "y"}
}
