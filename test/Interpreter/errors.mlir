// Bad input is an error with a location (exit 2); so is an instruction the
// interpreter does not execute.
// RUN: split-file %s %t
// RUN: %expect_exit 2 kproof-run %t/k.mlir --contract=%t/c.mlir --inputs=%t/malformed.json 2>&1 | FileCheck %s --check-prefix=JSON
// RUN: %expect_exit 2 kproof-run %t/k.mlir --contract=%t/c.mlir --inputs=%t/unknown.json 2>&1 | FileCheck %s --check-prefix=KEY
// RUN: %expect_exit 2 kproof-run %t/k.mlir --contract=%t/c.mlir --inputs=%t/short.json 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: %expect_exit 2 kproof-run %t/k.mlir --contract=%t/c.mlir --inputs=%t/badnum.json 2>&1 | FileCheck %s --check-prefix=NUM
// RUN: %expect_exit 2 kproof-run %t/k.mlir --contract=%t/c.mlir 2>&1 | FileCheck %s --check-prefix=NOIN
// RUN: %expect_exit 2 kproof-run %t/opaque.mlir --contract=%t/c.mlir --inputs=%t/ok.json 2>&1 | FileCheck %s --check-prefix=OPAQUE
// RUN: %expect_exit 2 kproof-run %t/k.mlir --contract=%t/badcontract.mlir --inputs=%t/ok.json 2>&1 | FileCheck %s --check-prefix=CONTRACT
// RUN: %expect_exit 2 kproof-run %t/k.mlir --contract=%t/c.mlir --inputs=%t/ok.json --schedule=sideways 2>&1 | FileCheck %s --check-prefix=SCHED
// RUN: %expect_exit 0 kproof-run %t/k.mlir --contract=%t/c.mlir --inputs=%t/ok.json | FileCheck %s --check-prefix=OK

// JSON: malformed.json: error: malformed JSON: [2:0, byte=13]: Expected , or } after object property
// KEY: unknown.json: error: key "z": no contract parameter of that name
// COUNT: short.json: error: key "x": 1 element(s), but the contract gives 'x' 2
// NUM: badnum.json: error: key "x", element 1: malformed number 'one'
// NOIN: error: no value for input buffer 'x' (give --inputs=FILE.json or --random=N)
// OPAQUE: opaque.mlir:3:8: error: kproof-run: unmodeled PTX instruction 'wgmma.fence.sync.aligned' (wgmma): kproof.opaque is not executable
// CONTRACT: badcontract.mlir:1:1: error: kernel 'copy2' has 2 parameter(s) but the contract binds 1
// SCHED: error: --schedule must be inorder, reversed, warp-rr or random[:SEED], not 'sideways'
// OK: "y": [
// OK-NEXT: 0.5,
// OK-NEXT: "inf"

//--- malformed.json
{"x": [1, 2]
//--- unknown.json
{"x": [1, 2], "z": 3}
//--- short.json
{"x": [1]}
//--- badnum.json
{"x": [1, "one"]}
//--- ok.json
{"x": ["1/2", "inf"]}
//--- k.mlir
kproof.kernel entry @copy2(%x: i64, %y: i64) {
  %a, %b = ld global %x : i64 -> f32, f32
  st global %y, %a, %b : i64, f32, f32
  return
}
//--- opaque.mlir
kproof.kernel entry @copy2(%x: i64, %y: i64) {
  %a, %b = ld global %x : i64 -> f32, f32
  %r = opaque "wgmma.fence.sync.aligned" () {opcode = "wgmma", tier2} : () -> (i32)
  st global %y, %a, %b : i64, f32, f32
  return
}
//--- c.mlir
kproof.contract @c {
  kernel = "copy2", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 2>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 2>}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}
//--- badcontract.mlir
kproof.contract @c {
  kernel = "copy2", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 2>}
  ],
  spec = {builtin = "copy", input = "x", output = "x"}
}
