// RUN: kproof-opt %s --split-input-file --verify-diagnostics

kproof.kernel entry @k(%a: i64) {
  // expected-error @below {{accesses 1, 2 or 4 elements (.v2/.v4), not 3}}
  %x:3 = kproof.ld global %a : i64 -> f32, f32, f32
  kproof.return
}

// -----

kproof.kernel entry @k(%a: i64) {
  // expected-error @below {{all elements of a vector access must have one type, got 'f32' and 'i32'}}
  %x, %y = kproof.ld global %a : i64 -> f32, i32
  kproof.return
}

// -----

kproof.kernel entry @k(%a: i32) {
  // expected-error @below {{.nc (non-coherent) loads only read .global, not .shared}}
  %x = kproof.ld shared %a {nc} : i32 -> f32
  kproof.return
}

// -----

kproof.kernel entry @k(%a: i64) {
  // expected-error @below {{.relaxed requires a scope}}
  %x = kproof.ld global %a sem relaxed : i64 -> f32
  kproof.return
}

// -----

kproof.kernel entry @k(%a: i64) {
  // expected-error @below {{a load cannot have .release semantics}}
  %x = kproof.ld global %a sem release scope gpu : i64 -> f32
  kproof.return
}

// -----

kproof.kernel entry @k(%a: i64, %v: f32) {
  // expected-error @below {{a store cannot have .acquire semantics}}
  kproof.st global %a, %v sem acquire scope gpu : i64, f32
  kproof.return
}

// -----

kproof.kernel entry @k(%a: i64, %v: f32) {
  // expected-error @below {{cannot store to the .const state space}}
  kproof.st const %a, %v : i64, f32
  kproof.return
}

// -----

kproof.kernel entry @k(%a: i64, %v: f32) {
  // expected-error @below {{a weak access takes no scope}}
  kproof.st global %a, %v scope cta : i64, f32
  kproof.return
}

// -----

kproof.kernel entry @k(%a: i64, %p: i1) {
  // expected-error @below {{a predicate (i1) cannot be loaded or stored directly}}
  kproof.st global %a, %p : i64, i1
  kproof.return
}

// -----

kproof.kernel entry @k() {
  // expected-error @below {{%tid.x is a 32-bit register, but the result is 'i64'}}
  %t = kproof.sreg tid.x : i64
  kproof.return
}

// -----

kproof.kernel entry @k() {
  // expected-error @below {{%clock64 is a 64-bit register, but the result is 'i32'}}
  %t = kproof.sreg clock64 : i32
  kproof.return
}

// -----

kproof.kernel entry @k() {
  %id = kproof.constant 16 : i32
  // expected-error @below {{barrier id must be in 0..15, got 16}}
  kproof.barrier sync id %id
  kproof.return
}

// -----

kproof.kernel entry @k() {
  %n = kproof.constant 48 : i32
  // expected-error @below {{thread count must be a positive multiple of the warp size (32), got 48}}
  kproof.barrier sync count %n
  kproof.return
}

// -----

kproof.kernel entry @k() {
  %id = kproof.constant 1 : i32
  // expected-error @below {{bar.arrive requires a thread count}}
  kproof.barrier arrive id %id
  kproof.return
}

// -----

kproof.kernel entry @k(%p: i1) {
  // expected-error @below {{bar.red.and produces 'i1', not 'i32'}}
  %r = kproof.barrier red op and, %p -> i32
  kproof.return
}

// -----

kproof.kernel entry @k(%p: i1) {
  // expected-error @below {{bar.red needs a reduction (popc, and, or)}}
  kproof.barrier red
  kproof.return
}

// -----

// expected-error @below {{a kernel (.entry) cannot return values, but has 1 result(s)}}
kproof.kernel entry @k() -> i32 {
  %c = kproof.constant 0 : i32
  kproof.return %c : i32
}

// -----

kproof.kernel func @f(%x: f32) -> i32 {
  // expected-error @below {{return value #0 has type 'f32' but @f declares 'i32'}}
  kproof.return %x : f32
}

// -----

kproof.kernel func @f() -> i32 {
  // expected-error @below {{returns 0 value(s) but the enclosing func @f declares 1}}
  kproof.return
}

// -----

// expected-error @below {{expected 'entry' or 'func', got 'kernel'}}
kproof.kernel kernel @f() {
  kproof.return
}

// -----

// expected-error @below {{only an .extern variable may have an unsized array type (dynamic shared memory)}}
kproof.global shared @s : i8 []

// -----

// expected-error @below {{alignment must be a positive power of two, got 6}}
kproof.global shared @s : i8 [16] {align = 6 : i64}

// -----

// expected-error @below {{a module-scope variable lives in .global, .shared, .const or .local, not .param}}
kproof.global param @s : i8 [16]

// -----

// expected-error @below {{initializer has 3 element(s) but the variable has 2}}
kproof.global global @s : i8 [2] {init = [1 : i8, 2 : i8, 3 : i8]}

// -----

// expected-error @below {{initializer element 1 : i32 does not have the element type 'i8'}}
kproof.global global @s : i8 [2] {init = [1 : i32]}

// -----

kproof.kernel entry @k() {
  // expected-error @below {{'@nowhere' does not name a variable or function}}
  %a = kproof.addressof @nowhere : i64
  kproof.return
}

// -----

kproof.kernel entry @k(%d: i32, %a: i64) {
  // expected-error @below {{cp-size must be 4, 8 or 16 bytes, not 2}}
  kproof.cp_async %d, %a, 2 : i32, i64
  kproof.return
}

// -----

kproof.kernel entry @k(%d: i32, %a: i64) {
  // expected-error @below {{cp.async.cg copies 16 bytes, not 8}}
  kproof.cp_async %d, %a, 8 {bypass_l1} : i32, i64
  kproof.return
}

// -----

kproof.kernel entry @k(%d: i32, %a: i64, %p: i1) {
  %n = kproof.constant 4 : i32
  // expected-error @below {{takes src-size or ignore-src, not both}}
  kproof.cp_async %d, %a, 8 src_size %n ignore_src %p : i32, i64
  kproof.return
}

// -----

kproof.kernel entry @k(%d: i32, %a: i64) {
  %n = kproof.constant 12 : i32
  // expected-error @below {{src-size 12 is larger than the cp-size 8}}
  kproof.cp_async %d, %a, 8 src_size %n : i32, i64
  kproof.return
}

// -----

kproof.kernel entry @k() {
  // expected-error @below {{needs a group count (pending N) or all}}
  kproof.cp_async_wait
  kproof.return
}

// -----

kproof.kernel entry @k() {
  // expected-error @below {{wait_all takes no group count}}
  kproof.cp_async_wait pending 0 all
  kproof.return
}

// -----

kproof.kernel entry @k(%a: i32) {
  // expected-error @below {{'signed' applies to min and max only}}
  %r = kproof.redux add signed %a, %a : i32
  kproof.exit
}

// -----

kproof.kernel entry @k(%a: f32, %m: i32) {
  // expected-error @below {{operand #0 must be 32-bit signless integer or 64-bit signless integer}}
  %r, %p = kproof.match any %a, %m : f32
  kproof.exit
}

// -----

kproof.kernel entry @k(%a: i64, %n: i32) {
  // expected-error @below {{an mbarrier object is in .shared memory (or a generic address of it), not .global}}
  kproof.mbarrier_init global %a, %n : i64
  kproof.exit
}

// -----

kproof.kernel entry @k(%a: i32, %n: i32) {
  // expected-error @below {{the offset 4 of an 8-byte mbarrier object is not a multiple of 8}}
  kproof.mbarrier_arrive shared %a {offset = 4 : i64} : i32
  kproof.exit
}

// -----

kproof.kernel entry @k(%a: i32, %n: i32) {
  // expected-error @below {{mbarrier.arrive has scope .cta or .cluster}}
  kproof.mbarrier_arrive shared %a scope gpu : i32
  kproof.exit
}

// -----

kproof.kernel entry @k(%a: i32, %s: i64) {
  // expected-error @below {{the phase parity of a .parity wait is an i32}}
  %p = kproof.mbarrier_wait parity shared %a, %s : i32, i64
  kproof.exit
}

// -----

kproof.kernel entry @k(%a: i32, %n: i32) {
  // expected-error @below {{the state of a wait (an mbarrier_arrive result) is an i64}}
  %p = kproof.mbarrier_wait shared %a, %n : i32, i32
  kproof.exit
}

// -----

kproof.kernel entry @k(%a: i32, %s: i64, %n: i32) {
  // expected-error @below {{only try_wait takes a suspend-time hint}}
  %p = kproof.mbarrier_wait shared %a, %s hint %n : i32, i64
  kproof.exit
}

// -----

kproof.kernel entry @k(%a: i32) {
  // expected-error @below {{an mbarrier object is in .shared memory (or a generic address of it), not .local}}
  kproof.mbarrier_inval local %a : i32
  kproof.exit
}
