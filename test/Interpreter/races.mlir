// A missing barrier shows dynamically: each thread writes its element to
// shared memory and reads its neighbour's. Without the barrier the read
// races with the neighbour's write (and, in this order, reads memory no
// thread has written yet); with it the run is clean and matches the spec.
// RUN: split-file %s %t
// RUN: %expect_exit 0 kproof-run %t/ok.mlir --contract=%t/contract.mlir --inputs=%t/in.json | FileCheck %s --check-prefix=OK
// RUN: %expect_exit 0 kproof-run %t/ok.mlir --contract=%t/contract.mlir --inputs=%t/in.json --schedule=random:42 | FileCheck %s --check-prefix=OK
// RUN: %expect_exit 1 kproof-run %t/bug.mlir --contract=%t/contract.mlir --inputs=%t/in.json | FileCheck %s --check-prefix=BUG
// RUN: %expect_exit 1 kproof-run %t/bug.mlir --contract=%t/contract.mlir --inputs=%t/in.json --schedule=reversed | FileCheck %s --check-prefix=REV

// y[i] = x[(i + 1) mod 8] with x = 10, 11, ..., 17.
// OK: "y": [
// OK-NEXT: 11,
// OK-NEXT: 12,
// OK: 10
// OK: "findings": [],
// OK: "result": "ok"

// In order, thread 0 reads buf[1] before thread 1 has written it.
// BUG-DAG: "kind": "uninitialized read",
// BUG-DAG: "message": "thread (0,0,0) of CTA (0,0,0) reads 'buf' at byte 4 (shared memory), which no thread has written",
// BUG-DAG: "kind": "race",
// BUG-DAG: "message": "race: write of 'buf' at byte 4 by thread (1,0,0) of CTA (0,0,0) and read by thread (0,0,0) of CTA (0,0,0) in the same barrier phase",
// BUG: "result": "finding"
// Reversed, thread i reads buf[i + 1] after thread i + 1 wrote it (the
// value is right), except thread 7, which reads buf[0] first; both show as
// races.
// REV: "y": [
// REV-NEXT: 11,
// REV: "kind": "uninitialized read",
// REV-NEXT: "message": "thread (7,0,0) of CTA (0,0,0) reads 'buf' at byte 0 (shared memory), which no thread has written",
// REV: "kind": "race",
// REV-NEXT: "message": "race: read of 'buf' at byte 28 by thread (6,0,0) of CTA (0,0,0) and write by thread (7,0,0) of CTA (0,0,0) in the same barrier phase",
// REV-NEXT: "location": "{{.*}}bug.mlir:18:8",
// REV-NEXT: "other": "{{.*}}bug.mlir:11:3"
// REV: "result": "finding"

//--- in.json
{"x": [10, 11, 12, 13, 14, 15, 16, 17]}
//--- contract.mlir
func.func @rotate(%x: tensor<8xf32>) -> tensor<8xf32> {
  %init = tensor.empty() : tensor<8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> ((i + 1) mod 8)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%a: f32, %unused: f32):
    linalg.yield %a : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}
kproof.contract @c {
  kernel = "rotate", grid = array<i64: 1, 1, 1>, block = array<i64: 8, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 8>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 8>}
  ],
  spec = {func = @rotate, inputs = ["x"], output = "y"}
}
//--- ok.mlir
kproof.global shared @buf : f32 [8] {align = 4 : i64}
kproof.kernel entry @rotate(%in: i64, %out: i64) {
  %t = sreg tid.x : i32
  %four = constant 4 : i32
  %off = mul_wide %t, %four : i32 -> i64
  %pin = ibin add %in, %off : i64
  %v = ld global %pin : i64 -> f32
  %b = addressof @buf : i32
  %o = ibin mul_lo %t, %four : i32
  %sa = ibin add %b, %o : i32
  st shared %sa, %v : i32, f32
  barrier sync {aligned}
  %one = constant 1 : i32
  %t1 = ibin add %t, %one : i32
  %seven = constant 7 : i32
  %n = ibin and %t1, %seven : i32
  %o2 = ibin mul_lo %n, %four : i32
  %sb = ibin add %b, %o2 : i32
  %w = ld shared %sb : i32 -> f32
  %pout = ibin add %out, %off : i64
  st global %pout, %w : i64, f32
  return
}
//--- bug.mlir
kproof.global shared @buf : f32 [8] {align = 4 : i64}
kproof.kernel entry @rotate(%in: i64, %out: i64) {
  %t = sreg tid.x : i32
  %four = constant 4 : i32
  %off = mul_wide %t, %four : i32 -> i64
  %pin = ibin add %in, %off : i64
  %v = ld global %pin : i64 -> f32
  %b = addressof @buf : i32
  %o = ibin mul_lo %t, %four : i32
  %sa = ibin add %b, %o : i32
  st shared %sa, %v : i32, f32
  %one = constant 1 : i32
  %t1 = ibin add %t, %one : i32
  %seven = constant 7 : i32
  %n = ibin and %t1, %seven : i32
  %o2 = ibin mul_lo %n, %four : i32
  %sb = ibin add %b, %o2 : i32
  %w = ld shared %sb : i32 -> f32
  %pout = ibin add %out, %off : i64
  st global %pout, %w : i64, f32
  return
}
