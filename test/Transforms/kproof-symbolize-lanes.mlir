// RUN: kproof-opt %s --kproof-symbolize-lanes | FileCheck %s

// %laneid becomes the linear thread id masked to 5 bits; %warpid and
// %clock reads are tagged as a fresh value per read; the kernel lists the
// thread variables with their range facts.
// CHECK-LABEL: kproof.kernel entry @lanes
// CHECK-SAME: kproof.thread_ids = ["0 <= tid.x < ntid.x", "0 <= ctaid.x < nctaid.x"
// CHECK-SAME: "lane = (tid.x + ntid.x * (tid.y + ntid.y * tid.z)) mod 32"
// CHECK-SAME: "ntid.x * ntid.y * ntid.z <= 1024"
// The launch bounds of the module's contracts for this kernel.
// CHECK-SAME: "contract @lanes_any: 1 <= ntid.x <= 1024", "contract @lanes_any: ntid.y = 1"
// CHECK-SAME: "contract @lanes_any: 1 <= nctaid.x <= 4096"
// CHECK-SAME: "contract @lanes_any: nctaid.x * nctaid.y * nctaid.z * ntid.x * ntid.y * ntid.z <= 1048576"
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
