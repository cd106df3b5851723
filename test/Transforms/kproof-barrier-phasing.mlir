// RUN: kproof-opt %s --split-input-file --kproof-barrier-phasing --verify-diagnostics | FileCheck %s

// A loop whose body fills a shared tile, waits at a barrier, and reads it,
// with no trailing barrier: the fill of the next iteration runs in the same
// phase as the read (both may follow barrier 0), the loop-carried race the
// verifier reports. The store after the loop follows barrier 0 only.
kproof.global shared @tile : f32[128] {align = 4 : i64}
// CHECK-LABEL: kproof.kernel entry @tile_loop
kproof.kernel entry @tile_loop(%y: i64) {
  %t = kproof.sreg tid.x : i32
  %c0 = kproof.constant 0 : i32
  %c1 = kproof.constant 1 : i32
  %c4 = kproof.constant 4 : i32
  %base = kproof.addressof @tile : i32
  %off = kproof.shift shl %t, %c4 : i32
  %a = kproof.ibin add %base, %off : i32
  %v = kproof.constant 1.0 : f32
  cf.br ^loop(%c0 : i32)
^loop(%k: i32):
  // CHECK: st shared {{.*}} {kproof.phase = array<i64: -1, 0>}
  kproof.st shared %a, %v : i32, f32
  // CHECK: barrier sync id {{.*}} {aligned, kproof.barrier_index = 0 : i64, kproof.barrier_kind = "cta"}
  kproof.barrier sync id %c0 {aligned}
  // CHECK: ld shared {{.*}} {kproof.phase = array<i64: 0>}
  %r = kproof.ld shared %a : i32 -> f32
  %k1 = kproof.ibin add %k, %c1 : i32
  %more = kproof.cmp lt %k1, %c4 : i32
  cf.cond_br %more, ^loop(%k1 : i32), ^done
^done:
  // CHECK: st global {{.*}} {kproof.phase = array<i64: 0>}
  kproof.st global %y, %r : i64, f32
  kproof.return
}

// -----

// A producer/consumer hand-off through a counted barrier: barrier 1 is
// counted (bar.arrive and a thread count), so it does not end the CTA phase;
// the consumer's read follows barrier op 1 of id 1, the producer's write
// follows none (-1). A named barrier without a count (id 2) is CTA-wide.
kproof.global shared @tile : f32[128] {align = 4 : i64}
// CHECK-LABEL: kproof.kernel entry @handoff
kproof.kernel entry @handoff(%y: i64) {
  %t = kproof.sreg tid.x : i32
  %c1 = kproof.constant 1 : i32
  %c2 = kproof.constant 2 : i32
  %c4 = kproof.constant 4 : i32
  %c128 = kproof.constant 128 : i32
  %c256 = kproof.constant 256 : i32
  %base = kproof.addressof @tile : i32
  %off = kproof.shift shl %t, %c4 : i32
  %a = kproof.ibin add %base, %off : i32
  %v = kproof.constant 1.0 : f32
  %p = kproof.cmp lt %t, %c128 : i32
  cf.cond_br %p, ^producer, ^consumer
^producer:
  // CHECK: st shared {{.*}} {kproof.counted_phase = {"1" = array<i64: -1>}, kproof.phase = array<i64: -1>}
  kproof.st shared %a, %v : i32, f32
  // CHECK: barrier arrive id {{.*}} count {{.*}} {aligned, kproof.barrier_index = 0 : i64, kproof.barrier_kind = "counted"}
  kproof.barrier arrive id %c1 count %c256 {aligned}
  kproof.return
^consumer:
  // CHECK: barrier sync id {{.*}} count {{.*}} {aligned, kproof.barrier_index = 1 : i64, kproof.barrier_kind = "counted"}
  kproof.barrier sync id %c1 count %c256 {aligned}
  // CHECK: ld shared {{.*}} {kproof.counted_phase = {"1" = array<i64: 1>}, kproof.phase = array<i64: -1>}
  %r = kproof.ld shared %a : i32 -> f32
  // CHECK: barrier sync id {{.*}} {aligned, kproof.barrier_index = 2 : i64, kproof.barrier_kind = "cta"}
  kproof.barrier sync id %c2 {aligned}
  // CHECK: st global {{.*}} {kproof.counted_phase = {"1" = array<i64: 1>}, kproof.phase = array<i64: 2>}
  kproof.st global %y, %r : i64, f32
  kproof.return
}

// -----

// A barrier id in a register is numbered but not modeled: a warning.
// CHECK-LABEL: kproof.kernel entry @named
kproof.kernel entry @named(%id: i32) {
  %c64 = kproof.constant 64 : i32
  // CHECK: barrier sync id {{.*}} {aligned, kproof.barrier_index = 0 : i64, kproof.barrier_unmodeled}
  // expected-warning @below {{barrier id or thread count in a register: not modeled by the verifier}}
  kproof.barrier sync id %id count %c64 {aligned}
  kproof.return
}
