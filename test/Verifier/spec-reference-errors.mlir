// A reference kernel that does not fit the contract is a contract error
// (exit 2) at the contract's location, naming the problem.
// RUN: split-file %s %t
// RUN: cp %inputs/cuda/ptx/ref_softmax_naive.sm80.O3.ptx %t/ref.ptx
// RUN: %expect_exit 2 kproof-opt %inputs/cuda/ptx/softmax_online.sm80.O3.ptx --verify-equiv --contract=%t/unknown.mlir 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: %expect_exit 2 kproof-opt %inputs/cuda/ptx/softmax_online.sm80.O3.ptx --verify-equiv --contract=%t/notparam.mlir 2>&1 | FileCheck %s --check-prefix=NOTPARAM
// RUN: %expect_exit 2 kproof-opt %inputs/cuda/ptx/softmax_online.sm80.O3.ptx --verify-equiv --contract=%t/count.mlir 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: %expect_exit 2 kproof-opt %inputs/cuda/ptx/softmax_online.sm80.O3.ptx --verify-equiv --contract=%t/twice.mlir 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: %expect_exit 2 kproof-opt %inputs/cuda/ptx/elementwise_scaled_exp.sm80.O3.ptx --verify-equiv --contract=%t/type.mlir 2>&1 | FileCheck %s --check-prefix=TYPE
// RUN: %expect_exit 2 kproof-opt %inputs/cuda/ptx/elementwise_scaled_exp.sm80.O3.ptx --verify-equiv --contract=%t/address.mlir 2>&1 | FileCheck %s --check-prefix=SCALAR
// RUN: %expect_exit 2 kproof-opt %inputs/cuda/ptx/softmax_online.sm80.O3.ptx --verify-equiv --contract=%t/inmodule.mlir 2>&1 | FileCheck %s --check-prefix=ADDRESS
// RUN: %expect_exit 2 kproof-opt %inputs/cuda/ptx/elementwise_scaled_exp.sm80.O3.ptx --verify-equiv --contract=%t/scalarout.mlir 2>&1 | FileCheck %s --check-prefix=SCALAROUT
// RUN: %expect_exit 2 kproof-opt %inputs/cuda/ptx/softmax_online.sm80.O3.ptx --verify-equiv --contract=%t/notaken.mlir 2>&1 | FileCheck %s --check-prefix=NOTAKEN
// RUN: %expect_exit 2 kproof-opt %inputs/cuda/ptx/softmax_online.sm80.O3.ptx --verify-equiv --contract=%t/writes.mlir 2>&1 | FileCheck %s --check-prefix=WRITES
// RUN: %expect_exit 2 kproof-opt %inputs/cuda/ptx/softmax_online.sm80.O3.ptx --verify-equiv --contract=%t/nofile.mlir 2>&1 | FileCheck %s --check-prefix=NOFILE
// RUN: %expect_exit 2 kproof-opt %inputs/cuda/ptx/softmax_online.sm80.O3.ptx --verify-equiv --contract=%t/badfile.mlir 2>&1 | FileCheck %s --check-prefix=BADFILE
// RUN: %expect_exit 2 kproof-opt %inputs/cuda/ptx/softmax_online.sm80.O3.ptx --verify-equiv --contract=%t/grid.mlir 2>&1 | FileCheck %s --check-prefix=GRID

// UNKNOWN: unknown.mlir:1:1: error: no reference kernel (.entry with a body) named 'ref_softmax_naive_5' in 'ref.ptx'
// NOTPARAM: notparam.mlir:1:1: error: reference param #1 'out' is not a param of the contract
// COUNT: count.mlir:1:1: error: reference kernel 'ref_softmax_naive_4' has 2 parameter(s) but the spec binds 3
// TWICE: twice.mlir:1:1: error: reference param 'x' is bound twice (buffers do not alias)
// TYPE: type.mlir:1:1: error: reference param #2 'n' has type 'i32' but reference kernel parameter #2 has type 'f32'
// SCALAR: address.mlir:1:1: error: reference param #1 's' has type 'f32' but reference kernel parameter #1 has type 'i64'
// ADDRESS: inmodule.mlir:5:1: error: reference param #1 'y' is a buffer, but reference kernel parameter #1 has type 'f32', not an address
// SCALAROUT: scalarout.mlir:1:1: error: spec output 's' is not a buffer param of the contract
// NOTAKEN: notaken.mlir:5:1: error: reference kernel 'r1' does not take the output buffer 'y'
// WRITES: writes.mlir:1:1: error: reference kernel 'ref_softmax_writes_input' must not write its inputs: store to input buffer 'x'
// NOFILE: nofile.mlir:1:1: error: cannot read reference file '{{.*}}missing.ptx'
// BADFILE: bad.ptx:4:1: error: unknown directive '.bogus'
// BADFILE: badfile.mlir:1:1: error: reference file '{{.*}}bad.ptx' is not valid PTX
// GRID: grid.mlir:1:1: error: 'kproof.contract' op spec 'block' must be array<i64: x, y, z> with entries >= 1

//--- unknown.mlir
kproof.contract @c {kernel = "softmax_online_4", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 4>}],
  spec = {reference = "ref_softmax_naive_5", file = "ref.ptx", output = "y"}}

//--- notparam.mlir
kproof.contract @c {kernel = "softmax_online_4", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 4>}],
  spec = {reference = "ref_softmax_naive_4", file = "ref.ptx", params = ["x", "out"], output = "y"}}

//--- count.mlir
kproof.contract @c {kernel = "softmax_online_4", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 4>}],
  spec = {reference = "ref_softmax_naive_4", file = "ref.ptx", params = ["x", "y", "y"], output = "y"}}

//--- twice.mlir
kproof.contract @c {kernel = "softmax_online_4", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 4>}],
  spec = {reference = "ref_softmax_naive_4", file = "ref.ptx", params = ["x", "x"], output = "y"}}

//--- type.mlir
kproof.contract @c {kernel = "elementwise_scaled_exp", grid = array<i64: 4, 1, 1>, block = array<i64: 256, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 1024>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 1024>},
            {name = "s", scalar = f32}, {name = "n", scalar = i32, value = 1024 : i32}],
  spec = {reference = "ref_scaled_exp", file = "ref.ptx", params = ["x", "y", "n"], output = "y"}}

//--- address.mlir
kproof.contract @c {kernel = "elementwise_scaled_exp", grid = array<i64: 4, 1, 1>, block = array<i64: 256, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 1024>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 1024>},
            {name = "s", scalar = f32}, {name = "n", scalar = i32, value = 1024 : i32}],
  spec = {reference = "ref_scaled_exp", file = "ref.ptx", params = ["x", "s", "y"], output = "y"}}

//--- inmodule.mlir
// Without `file`, the reference is looked up next to the contract.
kproof.kernel entry @r(%x: i64, %y: f32) {
  kproof.return
}
kproof.contract @c {kernel = "softmax_online_4", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 4>}],
  spec = {reference = "r", output = "y"}}

//--- scalarout.mlir
kproof.contract @c {kernel = "elementwise_scaled_exp", grid = array<i64: 4, 1, 1>, block = array<i64: 256, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 1024>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 1024>},
            {name = "s", scalar = f32}, {name = "n", scalar = i32, value = 1024 : i32}],
  spec = {reference = "ref_scaled_exp", file = "ref.ptx", params = ["x", "y", "s"], output = "s"}}

//--- notaken.mlir
// A reference that reads x only cannot define y.
kproof.kernel entry @r1(%x: i64) {
  kproof.return
}
kproof.contract @c {kernel = "softmax_online_4", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 4>}],
  spec = {reference = "r1", params = ["x"], output = "y"}}

//--- writes.mlir
kproof.contract @c {kernel = "softmax_online_4", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 4>}],
  spec = {reference = "ref_softmax_writes_input", file = "ref.ptx", output = "y"}}

//--- nofile.mlir
kproof.contract @c {kernel = "softmax_online_4", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 4>}],
  spec = {reference = "ref_softmax_naive_4", file = "missing.ptx", output = "y"}}

//--- badfile.mlir
kproof.contract @c {kernel = "softmax_online_4", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 4>}],
  spec = {reference = "ref_softmax_naive_4", file = "bad.ptx", output = "y"}}

//--- bad.ptx
.version 8.0
.target sm_80
.address_size 64
.bogus
.visible .entry ref_softmax_naive_4(.param .u64 x, .param .u64 y)
{
	ret;
}

//--- grid.mlir
kproof.contract @c {kernel = "softmax_online_4", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 4>}],
  spec = {reference = "ref_softmax_naive_4", file = "ref.ptx", output = "y", block = array<i64: 0, 1, 1>}}
