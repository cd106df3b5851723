// RUN: kproof-opt %s --verify-roundtrip | FileCheck %s
// RUN: kproof-opt %s | kproof-opt | FileCheck %s

// CHECK: kproof.global shared @tile : f32[256] {align = 4 : i64}
kproof.global shared @tile : f32 [256] {align = 4 : i64}
// CHECK: kproof.global shared @dyn : i8[] {align = 16 : i64, external}
kproof.global shared @dyn : i8[] {align = 16 : i64, external}
// CHECK: kproof.global global @msg : i8[3] {init = [104 : i8, 105 : i8, 0 : i8]}
kproof.global global @msg : i8[3] {init = [104 : i8, 105 : i8, 0 : i8]}

// CHECK-LABEL: kproof.kernel entry @copy
// CHECK-SAME: (%[[OUT:.+]]: i64 {kproof.ptx_type = "u64"}, %[[IN:.+]]: i64 {kproof.ptx_type = "u64"})
kproof.kernel entry @copy(%out: i64 {kproof.ptx_type = "u64"}, %in: i64 {kproof.ptx_type = "u64"}) attributes {kproof.reqntid = array<i32: 256, 1, 1>} {
  // CHECK: %[[TID:.+]] = sreg tid.x : i32
  %tid = kproof.sreg tid.x : i32
  // CHECK: sreg clock64 : i64
  %clk = kproof.sreg clock64 : i64
  // CHECK: %[[V:.+]] = ld global %[[IN]] {nc, offset = 16 : i64} : i64 -> f32
  %v = kproof.ld global %in {nc, offset = 16 : i64} : i64 -> f32
  // CHECK: %[[S:.+]] = addressof @tile : i32
  %s = kproof.addressof @tile : i32
  // CHECK: st shared %[[S]], %[[V]] : i32, f32
  kproof.st shared %s, %v : i32, f32
  // CHECK: barrier sync {aligned}
  kproof.barrier sync {aligned}
  // CHECK: ld shared %[[S]] sem relaxed scope cta : i32 -> i32, i32
  %a, %b = kproof.ld shared %s sem relaxed scope cta : i32 -> i32, i32
  // CHECK: ld global %[[IN]] {cache = ["L1::evict_last"]} : i64 -> f32, f32, f32, f32
  %q:4 = kproof.ld global %in {cache = ["L1::evict_last"]} : i64 -> f32, f32, f32, f32
  %id = kproof.constant 1 : i32
  %n = kproof.constant 64 : i32
  // CHECK: barrier arrive id %{{.+}} count %{{.+}}
  kproof.barrier arrive id %id count %n
  %p = kproof.constant true
  // CHECK: barrier red op popc, %{{.+}} {aligned} -> i32
  %r = kproof.barrier red op popc, %p {aligned} -> i32
  // cp.async and its groups (PTX ISA: cp.async).
  // CHECK: cp_async %[[S]], %[[IN]], 4 : i32, i64
  kproof.cp_async %s, %in, 4 : i32, i64
  %sz = kproof.constant 8 : i32
  // CHECK: cp_async %[[S]], %[[IN]], 16 src_size %{{.+}} {bypass_l1, dst_offset = 16 : i64, src_offset = 32 : i64} : i32, i64
  kproof.cp_async %s, %in, 16 src_size %sz {bypass_l1, dst_offset = 16 : i64, src_offset = 32 : i64} : i32, i64
  // CHECK: cp_async %[[S]], %[[IN]], 8 ignore_src %{{.+}} : i32, i64
  kproof.cp_async %s, %in, 8 ignore_src %p : i32, i64
  // CHECK: cp_async_commit
  kproof.cp_async_commit
  // CHECK: cp_async_wait pending 1
  kproof.cp_async_wait pending 1
  // Warp collectives: redux.sync, match.sync, elect.sync.
  %full = kproof.constant -1 : i32
  // CHECK: redux add %[[TID]], %{{.+}} : i32
  %rs = kproof.redux add %tid, %full : i32
  // CHECK: redux max signed %[[TID]], %{{.+}} : i32
  %rm = kproof.redux max signed %tid, %full : i32
  // CHECK: match any %[[TID]], %{{.+}} : i32
  %peers, %eq1 = kproof.match any %tid, %full : i32
  // CHECK: match all %[[IN]], %{{.+}} : i64
  %same, %eq2 = kproof.match all %in, %full : i64
  // CHECK: elect %{{.+}}
  %lane, %leader = kproof.elect %full
  // CHECK: cp_async_wait all
  kproof.cp_async_wait all
  // mbarrier objects (PTX ISA 9.7.13.15).
  // CHECK: mbarrier_init shared %[[S]], %{{.+}} : i32
  kproof.mbarrier_init shared %s, %sz : i32
  // CHECK: mbarrier_arrive shared %[[S]] : i32
  kproof.mbarrier_arrive shared %s : i32
  // CHECK: %[[ST:.+]] = mbarrier_arrive generic %{{.+}} count %{{.+}} scope cluster {offset = 8 : i64} : i64 -> i64
  %st = kproof.mbarrier_arrive generic %in count %sz scope cluster {offset = 8 : i64} : i64 -> i64
  // CHECK: mbarrier_wait try parity shared %[[S]], %{{.+}} hint %{{.+}} : i32, i32
  %w0 = kproof.mbarrier_wait try parity shared %s, %sz hint %sz : i32, i32
  // CHECK: mbarrier_wait shared %[[S]], %[[ST]] : i32, i64
  %w1 = kproof.mbarrier_wait shared %s, %st : i32, i64
  // CHECK: mbarrier_inval shared %[[S]] : i32
  kproof.mbarrier_inval shared %s : i32
  // CHECK: st global %[[OUT]], %[[V]] sem release scope gpu : i64, f32
  kproof.st global %out, %v sem release scope gpu : i64, f32
  // CHECK: constant 1.44269502 : f32
  %l = kproof.constant 1.44269502 : f32
  // CHECK: return
  kproof.return
}

// CHECK-LABEL: kproof.kernel func @twice
// CHECK-SAME: -> f32
kproof.kernel func @twice(%x: f32) -> f32 {
  cf.br ^bb1(%x : f32)
^bb1(%y: f32):
  // CHECK: return %{{.+}} : f32
  kproof.return %y : f32
}

// CHECK-LABEL: kproof.kernel entry @stop
kproof.kernel entry @stop() {
  // CHECK: exit
  kproof.exit
}

// A .extern .func declaration (vprintf) has no body.
// CHECK: kproof.kernel func private @vprintf(i64, i64) -> i32
kproof.kernel func private @vprintf(i64, i64) -> i32
