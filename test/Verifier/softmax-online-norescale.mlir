// The planted bug: the running denominator is never rescaled when the
// running max moves (d = d + exp(x - m') instead of d * exp(m - m') + ...).
// REFUTED on an input where the max moves: x[3] = 1 is larger than
// x[0..2] = 0, so the max changes at the last step. The kernel's y[0] is
// e^-1 / 4 = 0.0919... (d counted 1 + 1 + 1 + 1); the spec's is
// e^-1 / (3 e^-1 + 1) = 0.1748...; both with the true exp. (The input is
// a seeded random probe, shrunk: the same on every run.)
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/softmax_online_bug.sm80.O3.ptx --verify-equiv --contract=%s | FileCheck %s
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/softmax_online_bug.sm80.O3.ptx --verify-equiv --contract=%s 2>&1 >/dev/null | FileCheck %s --check-prefix=DIAG
// The failing store is also a diagnostic at its PTX location.
// DIAG: softmax_online_bug.sm80.O3.ptx:73:2: error: REFUTED: value mismatch at y[0]
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/softmax_online_bug.sm80.O3.ptx --verify-equiv --contract=%s --format=json | FileCheck %s --check-prefix=JSON

// CHECK: REFUTED: value y[0] -- counterexample confirmed
// CHECK: ERROR: value mismatch at y[0]
// CHECK-NEXT: at {{.*}}softmax_online_bug.sm80.O3.ptx:{{[0-9]+}}:{{[0-9]+}}
// CHECK: Example:
// CHECK-NEXT: x[0] = 0
// CHECK-NEXT: x[1] = 0
// CHECK-NEXT: x[2] = 0
// CHECK-NEXT: x[3] = 1
// CHECK: Kernel value: [9.19698602928{{[0-9]}}e-02, 9.19698602928{{[0-9]}}e-02]
// CHECK-NEXT: Spec value: [1.74877704527{{[0-9]}}e-01, 1.74877704527{{[0-9]}}e-01]
// CHECK: Replay: confirmed by replay (IEEE f32): kernel y[0] = 0.0919698{{[0-9]*}}, spec = 0.1748777{{[0-9]*}}
// CHECK: REFUTED

// JSON keys are sorted; the inputs are a list in index order.
// JSON: "buffers": [
// JSON: "name": "x",
// JSON-NEXT: "role": "in",
// JSON-NEXT: "shape": [
// JSON-NEXT: 4
// JSON-NEXT: ],
// JSON-NEXT: "type": "f32"
// JSON: "counterexample": {
// JSON-NEXT: "buffer": "y",
// JSON-NEXT: "confirmed": true,
// JSON-NEXT: "element": [
// JSON-NEXT: 0
// JSON-NEXT: ],
// JSON-NEXT: "index": 0,
// JSON-NEXT: "inputs": [
// JSON-NEXT: {
// JSON-NEXT: "buffer": "x",
// JSON-NEXT: "index": [
// JSON-NEXT: 0
// JSON-NEXT: ],
// JSON-NEXT: "name": "x[0]",
// JSON-NEXT: "value": "0"
// JSON-NEXT: },
// JSON: "name": "x[1]",
// JSON: "name": "x[2]",
// JSON: "name": "x[3]",
// JSON-NEXT: "value": "1"
// JSON: "property": "value mismatch at y[0]",
// JSON-NEXT: "replay": "confirmed by replay (IEEE f32): kernel y[0] = 0.0919698{{[0-9]*}}, spec = 0.1748777{{[0-9]*}}",
// JSON: "verdict": "REFUTED"

kproof.contract @softmax4bug {
  kernel = "softmax_online_bug_4", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 4>}
  ],
  spec = {builtin = "softmax", input = "x", output = "y"},
  assume = ["one thread computes the whole row"]
}
