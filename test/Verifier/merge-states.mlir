// State merging at control-flow joins (--merge-states, on by default): the
// two states of a data-dependent branch meet again at the branch's
// immediate post-dominator and continue as one, their registers and stores
// ites over the branch condition. The kernels (test/Inputs/cuda/branchy.cu)
// keep their branches under nvcc -O3: an online softmax that updates its
// running max and denominator in an if/else (2^(N-1) paths), and a clamp to
// [0, 1] as an if/else-if chain with a store in each arm (3^64 paths).
//
// RUN: split-file %s %t
// RUN: %expect_exit 0 kproof-opt %inputs/cuda/ptx/branchy.sm80.O3.ptx --verify-equiv --contract=%t/softmax4.mlir | FileCheck %s --check-prefix=SM4
// RUN: %expect_exit 0 kproof-opt %inputs/cuda/ptx/branchy.sm80.G.ptx --verify-equiv --contract=%t/softmax4.mlir | FileCheck %s --check-prefix=SM4
// Without merging the 4-element row is 8 paths, still proved.
// RUN: %expect_exit 0 kproof-opt %inputs/cuda/ptx/branchy.sm80.O3.ptx --verify-equiv --contract=%t/softmax4.mlir --merge-states=false | FileCheck %s --check-prefix=SM4-SPLIT
// RUN: %expect_exit 0 kproof-opt %inputs/cuda/ptx/branchy.sm80.O3.ptx --verify-equiv --contract=%t/softmax32.mlir | FileCheck %s --check-prefix=SM32
// RUN: %expect_exit 3 kproof-opt %inputs/cuda/ptx/branchy.sm80.O3.ptx --verify-equiv --contract=%t/softmax32.mlir --merge-states=false | FileCheck %s --check-prefix=NOMERGE
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/branchy.sm80.O3.ptx --verify-equiv --contract=%t/softmax-bug.mlir 2>&1 | FileCheck %s --check-prefix=SMBUG
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/branchy.sm80.O3.ptx --verify-equiv --contract=%t/softmax-bug.mlir --probes=0 2>&1 | FileCheck %s --check-prefix=SMBUG-Z3
// RUN: %expect_exit 0 kproof-opt %inputs/cuda/ptx/branchy.sm80.O3.ptx --verify-equiv --contract=%t/clamp.mlir | FileCheck %s --check-prefix=CLAMP
// RUN: %expect_exit 0 kproof-opt %inputs/cuda/ptx/branchy.sm80.G.ptx --verify-equiv --contract=%t/clamp.mlir | FileCheck %s --check-prefix=CLAMP
// RUN: %expect_exit 3 kproof-opt %inputs/cuda/ptx/branchy.sm80.O3.ptx --verify-equiv --contract=%t/clamp.mlir --merge-states=false | FileCheck %s --check-prefix=NOMERGE
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/branchy.sm80.O3.ptx --verify-equiv --contract=%t/clamp-bug.mlir 2>&1 | FileCheck %s --check-prefix=CLAMPBUG
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/branchy.sm80.G.ptx --verify-equiv --contract=%t/clamp-bug.mlir 2>&1 | FileCheck %s --check-prefix=CLAMPBUG
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/branchy.sm80.O3.ptx --verify-equiv --contract=%t/clamp-bug.mlir --format=json 2>/dev/null | FileCheck %s --check-prefix=JSON
// Certificates of values proved by cases: one per case, one per pair of
// arms that agree, and one that these imply the value (with the ite
// evaluations the split applied); all re-solve to unsat.
// RUN: rm -rf %t.cert
// RUN: %expect_exit 0 kproof-opt %inputs/cuda/ptx/branchy.sm80.O3.ptx --verify-equiv --contract=%t/softmax4.mlir --proof-certificate=%t.cert | FileCheck %s --check-prefix=SM4 --implicit-check-not=certificate
// RUN: kproof-smt --expect-unsat %t.cert | FileCheck %s --check-prefix=CERT --implicit-check-not=": sat" --implicit-check-not=": unknown" --implicit-check-not=": error"

// SM4: kproof: softmax_online_branchy_4 against softmax(x) -> y (mode reals)
// SM4: paths: 1 (3 data-dependent branches, 3 merges where their sides meet again)
// SM4: obligations: 8 (8 proved)
// SM4: PROVED

// SM4-SPLIT-NOT: paths: 1
// SM4-SPLIT: paths: 8 (7 data-dependent branches, 0 merges where their sides meet again)
// SM4-SPLIT: obligations: 64 (64 proved)
// SM4-SPLIT: PROVED

// 31 branches merged into one path; each output's value is one case: at
// every branch both arms keep d * exp(m) equal to the running sum of
// exponentials, so the running max's branch condition does not matter.
// SM32: paths: 1 (31 data-dependent branches, 31 merges where their sides meet again)
// SM32: obligations: 64 (64 proved)
// SM32-NOT: UNKNOWN
// SM32: PROVED

// NOMERGE: UNKNOWN: more than 256 paths (data-dependent control flow)

// The max-moves branch forgets the rescale: the counterexample's running
// max moves (x[3] above the others), and the true-exp evaluation and the
// replay confirm the difference. A seeded random input finds it before the
// solver is asked; the shrinking leaves only the input that matters.
// SMBUG: error: REFUTED: value mismatch at y[0]
// SMBUG: REFUTED: value y[0] -- counterexample confirmed (random input 1 of 16)
// SMBUG: ERROR: value mismatch at y[0]
// SMBUG: Example:
// SMBUG-NEXT: x[0] = 0
// SMBUG-NEXT: x[1] = 0
// SMBUG-NEXT: x[2] = 0
// SMBUG-NEXT: x[3] = 1
// SMBUG: Kernel value: [9.196986029{{[0-9]*}}e-02
// SMBUG-NEXT: Spec value:   [1.748777045{{[0-9]*}}e-01
// SMBUG: Replay: confirmed by replay
// SMBUG: REFUTED
// Without probes the solver finds it, case by case over the merged states.
// SMBUG-Z3: REFUTED: value y[0] -- counterexample confirmed (in one of 8 cases over the branch conditions of merged states)
// SMBUG-Z3: Replay: confirmed by replay (IEEE f32)
// SMBUG-Z3: {{^}}REFUTED

// CLAMP: kproof: clamp01_64 against @clamp01(x) -> y (mode reals)
// CLAMP: paths: 1 (128 data-dependent branches, 128 merges where their sides meet again)
// CLAMP: obligations: 64 (64 proved)
// CLAMP: PROVED

// The upper arm stores 0.1: the counterexample is above 1, and the failing
// store is the one of that arm (branchy.cu line 92), not the merged three.
// CLAMPBUG: paths: 1
// CLAMPBUG: REFUTED: value y[0] -- counterexample confirmed (random input 3 of 16)
// CLAMPBUG: ERROR: value mismatch at y[0]
// CLAMPBUG-NEXT: at {{.*}}branchy.sm80.{{O3|G}}.ptx:{{[0-9]+}}:2 (test/Inputs/cuda/branchy.cu:92:7)
// CLAMPBUG: Example:
// CLAMPBUG-NEXT: x[0] = 3
// CLAMPBUG: Kernel value: [1.0000000149{{[0-9]*}}e-01
// CLAMPBUG-NEXT: Spec value:   [1.000000000000e+00
// CLAMPBUG: Replay: confirmed by replay (IEEE f32): kernel y[0] = 0.100000001, spec = 1
// CLAMPBUG: REFUTED

// CERT: 001-value_y_0__case_1.smt2: unsat
// CERT: 002-value_y_0__arms_agree_1.smt2: unsat
// CERT: 005-value_y_0__by_cases.smt2: unsat
// CERT: non-zero_divisor{{.*}}: unsat

// JSON: "branches": 128,
// JSON: "merges": 128,
// JSON: "paths": 1,

//--- softmax4.mlir
kproof.contract @softmax4 {
  kernel = "softmax_online_branchy_4", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 4>}
  ],
  spec = {builtin = "softmax", input = "x", output = "y"}
}

//--- softmax32.mlir
kproof.contract @softmax32 {
  kernel = "softmax_online_branchy_32", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 32>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 32>}
  ],
  spec = {builtin = "softmax", input = "x", output = "y"}
}

//--- softmax-bug.mlir
kproof.contract @softmax_bug {
  kernel = "softmax_online_branchy_bug_4", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 4>}
  ],
  spec = {builtin = "softmax", input = "x", output = "y"}
}

//--- clamp.mlir
// y[i] = min(max(x[i], 0), 1)
func.func @clamp01(%x: tensor<64xf32>) -> tensor<64xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%v: f32, %out: f32):
    %lo = arith.maximumf %v, %zero : f32
    %c = arith.minimumf %lo, %one : f32
    linalg.yield %c : f32
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}
kproof.contract @clamp {
  kernel = "clamp01_64", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 64>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 64>}
  ],
  spec = {func = @clamp01, inputs = ["x"], output = "y"}
}

//--- clamp-bug.mlir
func.func @clamp01(%x: tensor<64xf32>) -> tensor<64xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%v: f32, %out: f32):
    %lo = arith.maximumf %v, %zero : f32
    %c = arith.minimumf %lo, %one : f32
    linalg.yield %c : f32
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}
kproof.contract @clamp_bug {
  kernel = "clamp01_bug_64", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 64>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 64>}
  ],
  spec = {func = @clamp01, inputs = ["x"], output = "y"}
}
