// Shared-memory bounds and benign races, on kernels written in the kproof
// dialect (32 threads, one CTA).
// RUN: split-file %s %t
// RUN: %expect_exit 1 kproof-opt %t/oob.mlir --verify-sync 2>&1 | FileCheck %s --check-prefix=OOB
// RUN: kproof-opt %t/inbounds.mlir --verify-sync 2>&1 | FileCheck %s --check-prefix=INB
// RUN: kproof-opt %t/benign.mlir --verify-equiv 2>&1 | FileCheck %s --check-prefix=BENIGN

// Thread t writes s[t + 1] of a 32-float variable: thread 31 writes past it.
// OOB: error: REFUTED: violated: shared store to s inside its 128 bytes
// OOB: tid.x = 31
// OOB: REFUTED
// INB-NOT: REFUTED
// INB: PROVED

// Every thread writes the same constant to s[0] (a benign race: a warning),
// then after a barrier copies it out: the value read is determined.
// BENIGN: warning: benign race (both threads write the same value): shared 's'
// BENIGN-NOT: UNKNOWN
// BENIGN: PROVED

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
kproof.contract @c {kernel = "oob", grid = array<i64: 1, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [{name = "x", buffer = "in", type = f32, shape = array<i64: 32>},
            {name = "y", buffer = "out", type = f32, shape = array<i64: 32>}],
  spec = {builtin = "copy", input = "x", output = "y"}}

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
            {name = "y", buffer = "out", type = f32, shape = array<i64: 32>}],
  spec = {builtin = "copy", input = "x", output = "y"}}

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
