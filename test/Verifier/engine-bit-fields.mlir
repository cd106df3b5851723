// Indices packed with bit-field instructions, as nvcc emits them: bfi
// (PTX ISA 9.7.8.11) and prmt with a constant selector (9.7.8.9). Each
// thread of 2 CTAs of 256 copies element ctaid * 256 + tid, its index
// built as bfi(ctaid, tid, 8, 24) or prmt(ctaid, tid, 0x2104) (byte 0 from
// tid, bytes 1-3 from ctaid's bytes 0-2); the index normal form reads both
// as 256 ctaid + tid, so the copy PROVES (coverage by inverting the
// layout). Selector 0x2105 takes byte 0 from tid's byte 1 instead: every
// thread of a CTA writes one element (a write-write race, REFUTED).
// Selector 0x210C replicates the sign of tid's byte 0 into byte 0 (0 for
// every tid below 128): threads 0 and 64 write one element, a race REFUTED
// and confirmed by replay.
// RUN: split-file %s %t
// RUN: kproof-opt %t/bfi.mlir --verify-equiv | FileCheck %s --check-prefix=OK
// RUN: kproof-opt %t/prmt.mlir --verify-equiv | FileCheck %s --check-prefix=OK
// RUN: %expect_exit 1 kproof-opt %t/prmt-bug.mlir --verify-equiv 2>&1 | FileCheck %s --check-prefix=BUG
// RUN: %expect_exit 1 kproof-opt %t/prmt-sign.mlir --verify-equiv 2>&1 | FileCheck %s --check-prefix=SIGN

// OK-NOT: UNKNOWN
// OK: {{^}}PROVED
// BUG: REFUTED: data race on global 'y'
// BUG: {{^}}REFUTED
// SIGN: REFUTED: data race on global 'y'
// SIGN: Replay: confirmed by replay (IEEE f32): race
// SIGN: {{^}}REFUTED

//--- bfi.mlir
kproof.kernel entry @k(%x: i64, %y: i64) {
  %t = kproof.sreg tid.x : i32
  %c = kproof.sreg ctaid.x : i32
  %p = kproof.constant 8 : i32
  %l = kproof.constant 24 : i32
  %i = kproof.bfi %c, %t, %p, %l : i32
  %i64 = kproof.cvt %i : i32 -> i64
  %c2 = kproof.constant 2 : i32
  %o = kproof.shift shl %i64, %c2 : i64
  %xa = kproof.ibin add %x, %o : i64
  %v = kproof.ld global %xa : i64 -> f32
  %ya = kproof.ibin add %y, %o : i64
  kproof.st global %ya, %v : i64, f32
  kproof.return
}
kproof.contract @c {kernel = "k", grid = array<i64: 2, 1, 1>, block = array<i64: 256, 1, 1>,
  params = [{name = "x", buffer = "in", type = f32, shape = array<i64: 512>},
            {name = "y", buffer = "out", type = f32, shape = array<i64: 512>}],
  spec = {builtin = "copy", input = "x", output = "y"}}

//--- prmt.mlir
kproof.kernel entry @k(%x: i64, %y: i64) {
  %t = kproof.sreg tid.x : i32
  %c = kproof.sreg ctaid.x : i32
  %s = kproof.constant 8452 : i32
  %i = kproof.prmt %c, %t, %s : i32
  %i64 = kproof.cvt %i : i32 -> i64
  %c2 = kproof.constant 2 : i32
  %o = kproof.shift shl %i64, %c2 : i64
  %xa = kproof.ibin add %x, %o : i64
  %v = kproof.ld global %xa : i64 -> f32
  %ya = kproof.ibin add %y, %o : i64
  kproof.st global %ya, %v : i64, f32
  kproof.return
}
kproof.contract @c {kernel = "k", grid = array<i64: 2, 1, 1>, block = array<i64: 256, 1, 1>,
  params = [{name = "x", buffer = "in", type = f32, shape = array<i64: 512>},
            {name = "y", buffer = "out", type = f32, shape = array<i64: 512>}],
  spec = {builtin = "copy", input = "x", output = "y"}}

//--- prmt-bug.mlir
kproof.kernel entry @k(%x: i64, %y: i64) {
  %t = kproof.sreg tid.x : i32
  %c = kproof.sreg ctaid.x : i32
  %s = kproof.constant 8453 : i32
  %i = kproof.prmt %c, %t, %s : i32
  %i64 = kproof.cvt %i : i32 -> i64
  %c2 = kproof.constant 2 : i32
  %o = kproof.shift shl %i64, %c2 : i64
  %xa = kproof.ibin add %x, %o : i64
  %v = kproof.ld global %xa : i64 -> f32
  %ya = kproof.ibin add %y, %o : i64
  kproof.st global %ya, %v : i64, f32
  kproof.return
}
kproof.contract @c {kernel = "k", grid = array<i64: 2, 1, 1>, block = array<i64: 256, 1, 1>,
  params = [{name = "x", buffer = "in", type = f32, shape = array<i64: 512>},
            {name = "y", buffer = "out", type = f32, shape = array<i64: 512>}],
  spec = {builtin = "copy", input = "x", output = "y"}}

//--- prmt-sign.mlir
kproof.kernel entry @k(%x: i64, %y: i64) {
  %t = kproof.sreg tid.x : i32
  %c = kproof.sreg ctaid.x : i32
  %s = kproof.constant 8460 : i32
  %i = kproof.prmt %c, %t, %s : i32
  %i64 = kproof.cvt %i : i32 -> i64
  %c2 = kproof.constant 2 : i32
  %o = kproof.shift shl %i64, %c2 : i64
  %xa = kproof.ibin add %x, %o : i64
  %v = kproof.ld global %xa : i64 -> f32
  %ya = kproof.ibin add %y, %o : i64
  kproof.st global %ya, %v : i64, f32
  kproof.return
}
kproof.contract @c {kernel = "k", grid = array<i64: 2, 1, 1>, block = array<i64: 256, 1, 1>,
  params = [{name = "x", buffer = "in", type = f32, shape = array<i64: 512>},
            {name = "y", buffer = "out", type = f32, shape = array<i64: 512>}],
  spec = {builtin = "copy", input = "x", output = "y"}}
