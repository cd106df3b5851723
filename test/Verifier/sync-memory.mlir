// Shared-memory bounds and write-write races of equal values, on kernels
// written in the kproof dialect (32 threads, one CTA).
// RUN: split-file %s %t
// RUN: %expect_exit 1 kproof-opt %t/oob.mlir --verify-sync 2>&1 | FileCheck %s --check-prefix=OOB
// RUN: kproof-opt %t/inbounds.mlir --verify-sync 2>&1 | FileCheck %s --check-prefix=INB
// RUN: %expect_exit 1 kproof-opt %t/benign.mlir --verify-equiv 2>&1 | FileCheck %s --check-prefix=EQUAL
// RUN: %expect_exit 1 kproof-opt %t/benign.mlir --verify-sync 2>&1 | FileCheck %s --check-prefix=EQUAL
// RUN: sed 's/spec = {func/tolerate_equal_writes = true, spec = {func/' %t/benign.mlir > %t/tolerated.mlir
// RUN: kproof-opt %t/tolerated.mlir --verify-equiv 2>&1 | FileCheck %s --check-prefix=BENIGN
// RUN: kproof-run %t/tolerated.mlir --random=3 --seed=1 2>&1 | FileCheck %s --check-prefix=RUN-TOL
// RUN: %expect_exit 1 kproof-run %t/benign.mlir --random=3 --seed=1 2>&1 | FileCheck %s --check-prefix=RUN-RACE

// Thread t writes s[t + 1] of a 32-float variable: thread 31 writes past it.
// OOB: error: REFUTED: violated: shared store to s inside its 128 bytes
// OOB: tid.x = 31
// OOB: REFUTED
// INB-NOT: REFUTED
// INB: PROVED

// Every thread writes the same constant to s[0], then after a barrier
// copies it out. The two writes are still a data race under PTX's memory
// model (conflicting, unordered, not morally strong): REFUTED, with both
// threads, unless the contract tolerates equal-value writes; then a
// warning, the assumption printed, and the value read is determined.
// EQUAL: error: REFUTED: data race on shared 's' (byte 0): thread (tid.x={{[0-9]+}}) writes at {{.*}}benign.mlir:7:3, thread (tid.x={{[0-9]+}}) writes at {{.*}}benign.mlir:7:3 in the same barrier phase (both write the same value: still a data race; the contract may tolerate it with tolerate_equal_writes = true)
// EQUAL: Replay: confirmed by replay {{.*}}race: write of 's' at byte 0 {{.*}} (both write the same value)
// EQUAL: REFUTED
// BENIGN: assuming: {{.*}}write-write races that store equal values are tolerated (tolerate_equal_writes)
// BENIGN: warning: tolerated race (both threads write the same value): shared 's'
// BENIGN-NOT: UNKNOWN
// BENIGN: PROVED
// RUN-TOL: "findings": []
// RUN-TOL: "tolerated race (both write the same value): write of 's' at byte 0
// RUN-TOL: "result": "ok"
// RUN-RACE: "kind": "race"
// RUN-RACE-NEXT: "message": "race: write of 's' at byte 0 {{.*}} (both write the same value)"

//--- oob.mlir
kproof.global shared @s : f32[32] {align = 4 : i64}
kproof.kernel entry @oob(%x: i64, %y: i64) {
  %t = kproof.sreg tid.x : i32
  %c1 = kproof.constant 1 : i32
  %c2 = kproof.constant 2 : i32
  %t1 = kproof.ibin add %t, %c1 : i32
  %off = kproof.shift shl %t1, %c2 : i32
  %base = kproof.addressof @s : i32
  %a = kproof.ibin add %base, %off : i32
  %v = kproof.constant 1.0 : f32
  kproof.st shared %a, %v : i32, f32
  kproof.return
}
// A --verify-sync contract needs no spec.
kproof.contract @c {kernel = "oob", grid = array<i64: 1, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [{name = "x", buffer = "in", type = f32, shape = array<i64: 32>},
            {name = "y", buffer = "in", type = f32, shape = array<i64: 32>}]}

//--- inbounds.mlir
kproof.global shared @s : f32[32] {align = 4 : i64}
kproof.kernel entry @inb(%x: i64, %y: i64) {
  %t = kproof.sreg tid.x : i32
  %c2 = kproof.constant 2 : i32
  %off = kproof.shift shl %t, %c2 : i32
  %base = kproof.addressof @s : i32
  %a = kproof.ibin add %base, %off : i32
  %v = kproof.constant 1.0 : f32
  kproof.st shared %a, %v : i32, f32
  kproof.return
}
kproof.contract @c {kernel = "inb", grid = array<i64: 1, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [{name = "x", buffer = "in", type = f32, shape = array<i64: 32>},
            {name = "y", buffer = "in", type = f32, shape = array<i64: 32>}]}

//--- benign.mlir
kproof.global shared @s : f32[32] {align = 4 : i64}
kproof.kernel entry @benign(%x: i64, %y: i64) {
  %t = kproof.sreg tid.x : i32
  %c0 = kproof.constant 0 : i32
  %base = kproof.addressof @s : i32
  %v = kproof.constant 2.0 : f32
  kproof.st shared %base, %v : i32, f32
  kproof.barrier sync id %c0 {aligned}
  %r = kproof.ld shared %base : i32 -> f32
  %t64 = kproof.cvt %t : i32 -> i64
  %c2 = kproof.constant 2 : i32
  %o = kproof.shift shl %t64, %c2 : i64
  %ya = kproof.ibin add %y, %o : i64
  kproof.st global %ya, %r : i64, f32
  kproof.return
}
func.func @twos(%x: tensor<32xf32>) -> tensor<32xf32> {
  %c = arith.constant 2.0 : f32
  %e = tensor.empty() : tensor<32xf32>
  %r = linalg.fill ins(%c : f32) outs(%e : tensor<32xf32>) -> tensor<32xf32>
  return %r : tensor<32xf32>
}
kproof.contract @c {kernel = "benign", grid = array<i64: 1, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [{name = "x", buffer = "in", type = f32, shape = array<i64: 32>},
            {name = "y", buffer = "out", type = f32, shape = array<i64: 32>}],
  spec = {func = @twos, inputs = ["x"], output = "y"}}
