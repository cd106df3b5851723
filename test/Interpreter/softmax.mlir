// kproof-run on nvcc's online softmax (test/Inputs/cuda/softmax_online.cu)
// and its planted bug (no rescale of the running denominator).
// RUN: split-file %s %t
// RUN: %expect_exit 0 kproof-run %inputs/cuda/ptx/softmax_online.sm80.O3.ptx --contract=%t/ok.mlir --inputs=%t/ramp.json | FileCheck %s
// RUN: %expect_exit 0 kproof-run %inputs/cuda/ptx/softmax_online.sm80.O3.ptx --contract=%t/ok.mlir --inputs=%t/ramp.json --mode=exact | FileCheck %s --check-prefix=EXACT
// RUN: %expect_exit 1 kproof-run %inputs/cuda/ptx/softmax_online_bug.sm80.O3.ptx --contract=%t/bug.mlir --inputs=%t/cex.json | FileCheck %s --check-prefix=BUG
// RUN: %expect_exit 1 kproof-run %inputs/cuda/ptx/softmax_online_bug.sm80.O3.ptx --contract=%t/bug.mlir --inputs=%t/cex.json --mode=exact | FileCheck %s --check-prefix=BUGX

// softmax([1, 2, 3, 4]) = e^(i-4) / (1 + e^-1 + e^-2 + e^-3): 0.0320586,
// 0.0871443, 0.2368828, 0.6439142 (hand-computed); f32 with ex2.approx is
// within 1e-6 of it.
// CHECK: "mode": "ieee",
// CHECK: "outputs": {
// CHECK-NEXT: "y": [
// CHECK-NEXT: 0.03205860{{[0-9]*}},
// CHECK-NEXT: 0.0871443{{[0-9]*}},
// CHECK-NEXT: 0.236882{{[0-9]*}},
// CHECK-NEXT: 0.643914{{[0-9]*}}
// CHECK: "values": [
// CHECK-NEXT: 0.03205860328008498{{[0-9]*}},
// CHECK: "max_abs_error": {{[0-9.]+}}e-0{{[78]}},
// CHECK: "first_mismatch": null
// CHECK: "findings": [],
// CHECK: "result": "ok"

// Exact mode is the reals model: the same values to 20 digits.
// EXACT: "y": [
// EXACT-NEXT: 0.032058603280084988{{[0-9]*}},
// EXACT-NEXT: 0.087144318742032567{{[0-9]*}},
// EXACT: "max_abs_error": {{[0-9.]+}}e-7{{[0-9]}},

// The prover's counterexample: y[0] = e^-1 / 4 = 0.0919699 in the kernel,
// e^-1 / (3 e^-1 + 1) = 0.1748777 in the spec.
// BUG: "y": [
// BUG-NEXT: 0.0919698{{[0-9]*}},
// BUG: "values": [
// BUG-NEXT: 0.1748777045271{{[0-9]*}},
// BUG: "max_abs_error": 0.22536688{{[0-9]*}},
// BUG: "first_mismatch": 0
// BUG: "result": "mismatch"
// BUGX: "y": [
// BUGX-NEXT: 0.091969860292860580{{[0-9]*}},

//--- ramp.json
{"x": [1, 2, 3, 4]}
//--- cex.json
{"x": ["-2", -2.0, "-4/2", -1]}
//--- ok.mlir
kproof.contract @softmax4 {
  kernel = "softmax_online_4", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 4>}
  ],
  spec = {builtin = "softmax", input = "x", output = "y"}
}
//--- bug.mlir
kproof.contract @softmax4bug {
  kernel = "softmax_online_bug_4", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 4>}
  ],
  spec = {builtin = "softmax", input = "x", output = "y"}
}
