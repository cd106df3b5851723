// Spec form (c): a second, naive kernel as the spec. The online softmax of
// 4 floats (nvcc -O3 and -G) against the textbook three-pass softmax
// (test/Inputs/cuda/ref_softmax_naive.cu, compiled by nvcc): PROVED; the
// planted bug (the denominator is not rescaled): REFUTED with a confirmed
// counterexample; a reference of 4 threads, each writing its own element:
// PROVED as well.
// RUN: split-file %s %t
// RUN: cp %inputs/cuda/ptx/ref_softmax_naive.sm80.O3.ptx %t/ref.ptx
// RUN: cp %inputs/cuda/ptx/ref_softmax_naive.sm90.G.ptx %t/refG.ptx
// RUN: %expect_exit 0 kproof-opt %inputs/cuda/ptx/softmax_online.sm80.O3.ptx --verify-equiv --contract=%t/ok.mlir | FileCheck %s
// RUN: %expect_exit 0 kproof-opt %inputs/cuda/ptx/softmax_online.sm80.G.ptx --verify-equiv --contract=%t/ok.mlir | FileCheck %s
// RUN: %expect_exit 0 kproof-opt %inputs/cuda/ptx/softmax_online.sm80.O3.ptx --verify-equiv --contract=%t/okG.mlir | FileCheck %s --check-prefix=REFG
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/softmax_online_bug.sm80.O3.ptx --verify-equiv --contract=%t/bug.mlir 2>%t/bug.err | FileCheck %s --check-prefix=BUG
// RUN: FileCheck %s --check-prefix=BUGDIAG < %t/bug.err
// RUN: %expect_exit 0 kproof-opt %inputs/cuda/ptx/softmax_online.sm80.O3.ptx --verify-equiv --contract=%t/threads.mlir | FileCheck %s --check-prefix=THREADS
// RUN: %expect_exit 0 kproof-opt %inputs/cuda/ptx/softmax_online.sm80.O3.ptx --verify-equiv --contract=%t/ok.mlir --format=json | FileCheck %s --check-prefix=JSON

// CHECK: kproof: softmax_online_4 against reference ref_softmax_naive_4(x, y) -> y (mode reals)
// CHECK: assuming: the reference is the textbook softmax
// Four values and four divisors, all closed by the normalizer: the
// reference's terms are the kernel's own input terms.
// CHECK: obligations: 8 (8 proved)
// CHECK-NOT: UNKNOWN
// CHECK: PROVED

// REFG: against reference ref_softmax_naive_4(x, y) -> y
// REFG: obligations: 8 (8 proved)
// REFG: PROVED

// Only x[3] > the others matters: the online max moves, the denominator is
// not rescaled, and every element differs from the reference's.
// BUG: kproof: softmax_online_bug_4 against reference ref_softmax_naive_4(x, y) -> y
// BUG: REFUTED: value y[0] -- counterexample confirmed
// BUG: ERROR: value mismatch at y[0]
// BUG-NEXT: at {{.*}}softmax_online_bug.sm80.O3.ptx:73:2 (test/Inputs/cuda/softmax_online_bug.cu:29:5)
// BUG: Example:
// BUG-NEXT: x[0] = 0
// BUG-NEXT: x[1] = 0
// BUG-NEXT: x[2] = 0
// BUG-NEXT: x[3] = 1
// BUG: Kernel value: [9.196986029286e-02, 9.196986029287e-02]
// BUG-NEXT: Spec value:   [1.748777045271e-01, 1.748777045272e-01]
// BUG: REFUTED
// BUGDIAG: softmax_online_bug.sm80.O3.ptx:73:2: error: REFUTED: value mismatch at y[0]

// THREADS: against reference ref_softmax_naive_threads_4(x, y) -> y
// THREADS: obligations: 8 (8 proved)
// THREADS: PROVED

// JSON: "spec": "reference ref_softmax_naive_4(x, y) -> y"
// JSON: "verdict": "PROVED"

//--- ok.mlir
// `file` is relative to this contract; `params` binds the reference's
// parameters, in its order, to the contract's by name.
kproof.contract @softmax4 {
  kernel = "softmax_online_4", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 4>}
  ],
  spec = {reference = "ref_softmax_naive_4", file = "ref.ptx", params = ["x", "y"], output = "y"},
  assume = ["the reference is the textbook softmax"]
}

//--- okG.mlir
// Without `params`, the reference takes the contract's params in order.
kproof.contract @softmax4 {
  kernel = "softmax_online_4", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 4>}
  ],
  spec = {reference = "ref_softmax_naive_4", file = "refG.ptx", output = "y"}
}

//--- bug.mlir
kproof.contract @softmax4_bug {
  kernel = "softmax_online_bug_4", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 4>}
  ],
  spec = {reference = "ref_softmax_naive_4", file = "ref.ptx", params = ["x", "y"], output = "y"}
}

//--- threads.mlir
// The reference runs with its own launch: thread i writes y[i], so the
// writer of element e is tid.x = e (its layout, inverted).
kproof.contract @softmax4_threads {
  kernel = "softmax_online_4", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 4>}
  ],
  spec = {reference = "ref_softmax_naive_threads_4", file = "ref.ptx", output = "y",
          block = array<i64: 4, 1, 1>}
}
