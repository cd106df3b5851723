// --explain: a value obligation left UNKNOWN shows what was left to show,
// the kernel's and the spec's terms and the path condition, in infix form
// (under the obligation in the text report, as its "residual" in JSON). The
// kernel is Triton's row softmax (BLOCK = 64, symbolic n_cols) with the odd
// column's exponent taken from the even element; with the probes and the
// bounded checks off and a tiny solver limit nothing refutes it, and the
// residual (the first case of the value's branch conditions left open)
// shows the defect: the row sum counts each even element twice
// (2 * exp(x[row] - max) where n <= 2) and no odd one.
// RUN: split-file %s %t
// RUN: sed 's/sub.f32 \t%%r27, %%r3, %%r25/sub.f32 \t%%r27, %%r1, %%r25/' %inputs/triton/ptx/softmax_row_b64.sm90.ptx > %t/odd-bug.ptx
// RUN: %expect_exit 3 kproof-opt %t/odd-bug.ptx --verify-equiv --contract=%t/b64n.mlir --probes=0 --small-sizes=0 --solver-rlimit=1 --explain 2>/dev/null | FileCheck %s --check-prefix=TEXT
// RUN: %expect_exit 3 kproof-opt %t/odd-bug.ptx --verify-equiv --contract=%t/b64n.mlir --probes=0 --small-sizes=0 --solver-rlimit=1 --explain --format=json 2>/dev/null | FileCheck %s --check-prefix=JSON
// RUN: %expect_exit 3 kproof-opt %t/odd-bug.ptx --verify-equiv --contract=%t/b64n.mlir --probes=0 --small-sizes=0 --solver-rlimit=1 --explain --format=json -o %t/explain.json 2>/dev/null
// RUN: python3 %S/Inputs/check_verdict_json.py %t/explain.json 1 | FileCheck %s --check-prefix=SCHEMA
// SCHEMA: tsm64n UNKNOWN
// Without --explain: no residual.
// RUN: %expect_exit 3 kproof-opt %t/odd-bug.ptx --verify-equiv --contract=%t/b64n.mlir --probes=0 --small-sizes=0 --solver-rlimit=1 2>/dev/null | FileCheck %s --check-prefix=PLAIN

// TEXT: UNKNOWN: value y[i] written by the representative thread (store 1 of 2, at {{.*}}) -- solver: resource limit reached {{.*}} (in one of {{[0-9]+}} cases over the branch conditions of merged states; {{[0-9]+}} more the thread-id and size bounds exclude)
// TEXT-NEXT: left to show: kernel == spec, where
// TEXT-NEXT: kernel: exp(x[(tid.x * 2) + (n * ctaid.x)] + (-1 * (max_{j1 in [0, n)} x[(ctaid.x * n) + j1]))) / (2 * exp(x[n * ctaid.x] + (-1 * (max_{j1 in [0, n)} x[(ctaid.x * n) + j1]))))
// TEXT-NEXT: spec: exp(x[(tid.x * 2) + (n * ctaid.x)] + (-1 * (max_{j1 in [0, n)} x[(ctaid.x * n) + j1]))) / (sum_{j2 in [0, n)} exp(x[(ctaid.x * n) + j2] + (-1 * (max_{j1 in [0, n)} x[(ctaid.x * n) + j1]))))
// TEXT-NEXT: under: (1 <= n) && (n <= 64) && (ctaid.x <u 4) && (tid.x <u 32) && (((tid.x << 1) & 62) < n)
// TEXT: {{^}}UNKNOWN

// JSON: "name": "value y[i] written by the representative thread (store 1 of 2, at {{.*}}(test/Inputs/triton/kernels.py:31:5))",
// JSON-NEXT: "residual": {
// JSON-NEXT: "condition": "(1 <= n) && (n <= 64)
// JSON-NEXT: "kernel": "exp(x[(tid.x * 2) + (n * ctaid.x)] + (-1 * (max_{j1 in [0, n)} x[(ctaid.x * n) + j1]))) / (2 * exp(
// JSON-NEXT: "spec": "exp(x[(tid.x * 2) + (n * ctaid.x)] + (-1 * (max_{j1 in [0, n)} x[(ctaid.x * n) + j1]))) / (sum_{j2 in [0, n)}
// JSON-NEXT: },
// JSON-NEXT: "verdict": "UNKNOWN"

// PLAIN: UNKNOWN: value y[i] written by the representative thread (store 1 of 2
// PLAIN-NOT: left to show
// PLAIN: {{^}}UNKNOWN

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
