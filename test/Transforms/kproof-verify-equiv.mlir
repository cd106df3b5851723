// RUN: kproof-opt %s --split-input-file --kproof-verify-equiv --verify-diagnostics
// The pass reports each contract's verdict at the contract; the kernels are
// written in the kproof dialect directly.

// y[0] = x[0] + x[1] against the sum reduction: PROVED.
kproof.kernel entry @sum2(%x: i64, %y: i64) {
  %a = kproof.ld global %x : i64 -> f32
  %b = kproof.ld global %x {offset = 4 : i64} : i64 -> f32
  %s = kproof.fbin add %a, %b : f32
  kproof.st global %y, %s : i64, f32
  kproof.return
}
// expected-remark @below {{PROVED: sum2 against sum(x) -> y}}
kproof.contract @c {kernel = "sum2", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [{name = "x", buffer = "in", type = f32, shape = array<i64: 1, 2>},
            {name = "y", buffer = "out", type = f32, shape = array<i64: 1>}],
  spec = {builtin = "sum", input = "x", output = "y"}}

// -----

// y[0] = x[0] - x[1]: REFUTED, with the inputs and both values.
kproof.kernel entry @sub2(%x: i64, %y: i64) {
  %a = kproof.ld global %x : i64 -> f32
  %b = kproof.ld global %x {offset = 4 : i64} : i64 -> f32
  %s = kproof.fbin sub %a, %b : f32
  // The failing store gets its own diagnostic.
  // expected-error @below {{REFUTED: value mismatch at y[0]}}
  kproof.st global %y, %s : i64, f32
  kproof.return
}
// expected-error @below {{REFUTED: value mismatch at y[0]; inputs: x[0] = 0 x[1] = 1; kernel [-1.000000000000e+00, -1.000000000000e+00], spec [1.000000000000e+00, 1.000000000000e+00]}}
kproof.contract @c {kernel = "sub2", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [{name = "x", buffer = "in", type = f32, shape = array<i64: 1, 2>},
            {name = "y", buffer = "out", type = f32, shape = array<i64: 1>}],
  spec = {builtin = "sum", input = "x", output = "y"}}

// -----

// An unmodeled instruction: UNKNOWN, never PROVED.
kproof.kernel entry @opaque2(%x: i64, %y: i64) {
  %a = kproof.ld global %x : i64 -> f32
  %b = kproof.opaque "nanosleep.u32 100"() {opcode = "nanosleep"} : () -> f32
  kproof.st global %y, %b : i64, f32
  kproof.return
}
// expected-warning @below {{UNKNOWN: unmodeled PTX instruction 'nanosleep.u32 100'}}
kproof.contract @c {kernel = "opaque2", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [{name = "x", buffer = "in", type = f32, shape = array<i64: 1>},
            {name = "y", buffer = "out", type = f32, shape = array<i64: 1>}],
  spec = {builtin = "copy", input = "x", output = "y"}}
