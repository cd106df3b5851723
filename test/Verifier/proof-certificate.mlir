// --proof-certificate=DIR: one self-contained SMT-LIB2 file per proved
// obligation (online softmax, N = 4: four values and four divisors, all
// closed by the normalizer), each re-solved from scratch to unsat.
// RUN: rm -rf %t.dir
// RUN: %expect_exit 0 kproof-opt %inputs/cuda/ptx/softmax_online.sm80.O3.ptx --verify-equiv --contract=%s --proof-certificate=%t.dir | FileCheck %s --implicit-check-not="certificate of"
// RUN: kproof-smt --expect-unsat %t.dir | FileCheck %s --check-prefix=SOLVE --implicit-check-not=": sat" --implicit-check-not=": unknown" --implicit-check-not=": error"
// RUN: FileCheck %s --check-prefix=CERT --input-file=%t.dir/001-value_y_0_.smt2
// RUN: FileCheck %s --check-prefix=DIV --input-file %t.dir/005-*.smt2

// CHECK: obligations: 8 (8 proved)
// CHECK: PROVED

// Every file answers unsat (and nothing else: no sat, unknown or error).
// SOLVE: 001-value_y_0_.smt2: unsat
// SOLVE: 002-value_y_1_.smt2: unsat
// SOLVE: 003-value_y_2_.smt2: unsat
// SOLVE: 004-value_y_3_.smt2: unsat
// SOLVE: 005-non-zero_divisor_of_div_at_{{.*}}.smt2: unsat
// SOLVE: 006-non-zero_divisor_of_div_at_{{.*}}.smt2: unsat
// SOLVE: 007-non-zero_divisor_of_div_at_{{.*}}.smt2: unsat
// SOLVE: 008-non-zero_divisor_of_div_at_{{.*}}.smt2: unsat

// CERT: ; obligation: value y[0]
// CERT: ; proved by: normalizer
// CERT: ; expected: unsat
// CERT: (set-logic ALL)
// CERT: (set-info :status unsat)
// CERT-DAG: (declare-fun |x[0]| () Real)
// CERT-DAG: (declare-fun exp!0 () Real)
// CERT: :named goal))
// CERT-DAG: :named divisor_nonzero_0))
// CERT-DAG: :named exp_split_0))
// CERT-DAG: :named exp_pos!0))
// CERT: (check-sat)

// DIV: ; obligation: non-zero divisor of div at
// DIV: ; proved by: normalizer
kproof.contract @softmax4_certificate {
  kernel = "softmax_online_4", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 4>}
  ],
  spec = {builtin = "softmax", input = "x", output = "y"},
  assume = ["one thread computes the whole row"]
}
