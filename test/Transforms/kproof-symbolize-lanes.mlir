// RUN: kproof-opt %s --kproof-symbolize-lanes | FileCheck %s

// %laneid becomes the linear thread id masked to 5 bits; %warpid and
// %clock reads are tagged as a fresh value per read. The proof engine runs
// the same rewrite before executing a kernel (test/Verifier/
// symbolize-lanes-consumed.mlir shows it reads the result).
// CHECK-LABEL: kproof.kernel entry @lanes
// CHECK-NOT: kproof.thread_ids
kproof.kernel entry @lanes(%y: i64) {
  // CHECK-NOT: sreg laneid
  // CHECK: %[[TZ:.+]] = sreg tid.z : i32
  // CHECK: %[[NY:.+]] = sreg ntid.y : i32
  // CHECK: %[[A:.+]] = ibin mul_lo %[[NY]], %[[TZ]] : i32
  // CHECK: %[[TY:.+]] = sreg tid.y : i32
  // CHECK: %[[B:.+]] = ibin add %[[TY]], %[[A]] : i32
  // CHECK: %[[NX:.+]] = sreg ntid.x : i32
  // CHECK: %[[C:.+]] = ibin mul_lo %[[NX]], %[[B]] : i32
  // CHECK: %[[TX:.+]] = sreg tid.x : i32
  // CHECK: %[[LIN:.+]] = ibin add %[[TX]], %[[C]] : i32
  // CHECK: %[[M:.+]] = constant 31 : i32
  // CHECK: %[[LANE:.+]] = ibin and %[[LIN]], %[[M]] : i32
  %lane = kproof.sreg laneid : i32
  // CHECK: sreg warpid {kproof.fresh_per_read} : i32
  %w = kproof.sreg warpid : i32
  // CHECK: sreg clock {kproof.fresh_per_read} : i32
  %c = kproof.sreg clock : i32
  // CHECK: ibin add %[[LANE]]
  %s = kproof.ibin add %lane, %w : i32
  %t = kproof.ibin add %s, %c : i32
  kproof.st global %y, %t : i64, i32
  kproof.return
}

kproof.contract @lanes_any {
  kernel = "lanes",
  grid_max = array<i64: 4096, 1, 1>, block_max = array<i64: 1024, 1, 1>,
  max_threads = 1048576,
  params = [{name = "y", buffer = "out", space = "global", type = i32, shape = ["nctaid.x*ntid.x"]}],
  spec = {builtin = "copy", input = "y", output = "y"}
}
