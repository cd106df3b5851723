// Contract errors: a clear error at the contract's location, exit 2.
// RUN: split-file %s %t
// RUN: %expect_exit 2 kproof-opt %inputs/cuda/ptx/softmax_online.sm80.O3.ptx --verify-equiv --contract=%t/unknown-kernel.mlir 2>&1 | FileCheck %s --check-prefix=KERNEL
// RUN: %expect_exit 2 kproof-opt %inputs/cuda/ptx/softmax_online.sm80.O3.ptx --verify-equiv --contract=%t/param-count.mlir 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: %expect_exit 2 kproof-opt %inputs/cuda/ptx/softmax_online.sm80.O3.ptx --verify-equiv --contract=%t/param-type.mlir 2>&1 | FileCheck %s --check-prefix=TYPE
// RUN: %expect_exit 2 kproof-opt %inputs/cuda/ptx/softmax_online.sm80.O3.ptx --verify-equiv --contract=%t/shape.mlir 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: %expect_exit 2 kproof-opt %inputs/cuda/ptx/softmax_online.sm80.O3.ptx --verify-equiv --contract=%t/malformed.mlir 2>&1 | FileCheck %s --check-prefix=MALFORMED
// RUN: %expect_exit 2 kproof-opt %inputs/cuda/ptx/softmax_online.sm80.O3.ptx --verify-equiv --contract=%t/misspelled.mlir 2>&1 | FileCheck %s --check-prefix=MISSPELLED
// RUN: %expect_exit 2 kproof-opt %inputs/cuda/ptx/softmax_online.sm80.O3.ptx --verify-equiv --contract=%t/param-key.mlir 2>&1 | FileCheck %s --check-prefix=PARAMKEY
// nonfinite: a non-empty list of distinct "-inf", "inf", "nan", on an in or
// inout float buffer.
// RUN: %expect_exit 2 kproof-opt %inputs/cuda/ptx/softmax_online.sm80.O3.ptx --verify-sync --contract=%t/nonfinite-value.mlir 2>&1 | FileCheck %s --check-prefix=NFVALUE
// RUN: %expect_exit 2 kproof-opt %inputs/cuda/ptx/softmax_online.sm80.O3.ptx --verify-sync --contract=%t/nonfinite-out.mlir 2>&1 | FileCheck %s --check-prefix=NFOUT
// RUN: %expect_exit 2 kproof-opt %inputs/cuda/ptx/softmax_online.sm80.O3.ptx --verify-sync --contract=%t/nonfinite-dup.mlir 2>&1 | FileCheck %s --check-prefix=NFVALUE
// NFVALUE: error: 'kproof.contract' op param 'x': 'nonfinite' must be a non-empty list of distinct "-inf", "inf", "nan"
// NFOUT: error: 'kproof.contract' op param 'y': 'nonfinite' applies to an in or inout buffer of floats
// Symbolic sizes: a range on an integer scalar without a value, non-empty;
// a shape names only such a scalar with lo >= 1.
// RUN: %expect_exit 2 kproof-opt %inputs/cuda/ptx/loop_rows.sm80.O3.ptx --verify-equiv --contract=%t/size-float.mlir 2>&1 | FileCheck %s --check-prefix=SIZEFLOAT
// RUN: %expect_exit 2 kproof-opt %inputs/cuda/ptx/loop_rows.sm80.O3.ptx --verify-equiv --contract=%t/size-empty.mlir 2>&1 | FileCheck %s --check-prefix=SIZEEMPTY
// RUN: %expect_exit 2 kproof-opt %inputs/cuda/ptx/loop_rows.sm80.O3.ptx --verify-equiv --contract=%t/size-unranged.mlir 2>&1 | FileCheck %s --check-prefix=SIZEFREE
// A scalar whose value names a size (a row stride equal to the row
// length): the name must be a symbolic size.
// RUN: %expect_exit 2 kproof-opt %inputs/cuda/ptx/loop_rows.sm80.O3.ptx --verify-equiv --contract=%t/value-name.mlir 2>&1 | FileCheck %s --check-prefix=VALUENAME
// Table preconditions no input satisfies: an i64 table whose elements are
// all >= 2^32 but <= an i32 scalar (any i32 value, at most 2^31 - 1); and
// the same with the scalar's value naming a size of at most 16.
// RUN: %expect_exit 2 kproof-opt %inputs/cuda/ptx/loop_rows.sm80.O3.ptx --verify-equiv --contract=%t/table-wide.mlir 2>&1 | FileCheck %s --check-prefix=TABLEWIDE
// RUN: %expect_exit 2 kproof-opt %inputs/cuda/ptx/loop_rows.sm80.O3.ptx --verify-equiv --contract=%t/table-size.mlir 2>&1 | FileCheck %s --check-prefix=TABLESIZE
// TABLEWIDE: table-wide.mlir:1:1: error: 'kproof.contract' op param 'idx': the preconditions contradict each other: 'range' [4294967296, 4294967297) puts every element at >= 4294967296, but 'at_most = "m"' puts it at <= m, which is at most 2147483647
// TABLESIZE: table-size.mlir:1:1: error: 'kproof.contract' op param 'idx': the preconditions contradict each other: 'range' [17, 20) puts every element at >= 17, but 'at_most = "m"' puts it at <= m, which is at most 16
// VALUENAME: value-name.mlir:1:1: error: 'kproof.contract' op param 'n': value "k" must name a symbolic size

// SIZEFLOAT: size-float.mlir:1:1: error: 'kproof.contract' op param 's': 'range' applies to an integer scalar without a 'value'
// SIZEEMPTY: size-empty.mlir:1:1: error: 'kproof.contract' op param 'n': 'range' [5, 5) is empty: no input satisfies it
// SIZEFREE: size-unranged.mlir:1:1: error: 'kproof.contract' op param 'x': shape factor 'n' is neither a positive integer, a launch extent

// KERNEL: unknown-kernel.mlir:1:1: error: no kernel (.entry with a body) named 'softmax_online_5'
// COUNT: param-count.mlir:1:1: error: kernel 'softmax_online_4' has 2 parameter(s) but the contract binds 3
// TYPE: param-type.mlir:1:1: error: param #1 'y' has type 'f32' but kernel parameter #1 has type 'i64'
// SHAPE: shape.mlir:1:1: error: spec shape mismatch: softmax of 'x' has 4 element(s) but 'y' has 3
// MALFORMED: malformed.mlir:1:1: error: 'kproof.contract' op param 'y' must be either a buffer or a scalar
// A misspelled field is an error, never ignored.
// MISSPELLED: misspelled.mlir:1:1: error: 'kproof.contract' op unknown contract field 'asume' (fields: kernel, grid, block, grid_max, block_max, max_threads, params, spec, assume, mode, dynamic_shared, tolerate_equal_writes, finite_inputs)
// PARAMKEY: param-key.mlir:1:1: error: 'kproof.contract' op unknown key 'shap' in param 'y'


//--- unknown-kernel.mlir
kproof.contract @c {kernel = "softmax_online_5", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>, params = [{name = "x", buffer = "in", type = f32, shape = array<i64: 4>}, {name = "y", buffer = "out", type = f32, shape = array<i64: 4>}], spec = {builtin = "softmax", input = "x", output = "y"}}
//--- param-count.mlir
kproof.contract @c {kernel = "softmax_online_4", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>, params = [{name = "x", buffer = "in", type = f32, shape = array<i64: 4>}, {name = "y", buffer = "out", type = f32, shape = array<i64: 4>}, {name = "n", scalar = i32}], spec = {builtin = "softmax", input = "x", output = "y"}}
//--- param-type.mlir
kproof.contract @c {kernel = "softmax_online_4", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>, params = [{name = "x", buffer = "in", type = f32, shape = array<i64: 4>}, {name = "y", scalar = f32}], spec = {builtin = "copy", input = "x", output = "x"}}
//--- shape.mlir
kproof.contract @c {kernel = "softmax_online_4", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>, params = [{name = "x", buffer = "in", type = f32, shape = array<i64: 4>}, {name = "y", buffer = "out", type = f32, shape = array<i64: 3>}], spec = {builtin = "softmax", input = "x", output = "y"}}
//--- malformed.mlir
kproof.contract @c {kernel = "softmax_online_4", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>, params = [{name = "x", buffer = "in", type = f32, shape = array<i64: 4>}, {name = "y"}], spec = {builtin = "softmax", input = "x", output = "y"}}
//--- misspelled.mlir
kproof.contract @c {kernel = "softmax_online_4", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>, params = [{name = "x", buffer = "in", type = f32, shape = array<i64: 4>}, {name = "y", buffer = "out", type = f32, shape = array<i64: 4>}], spec = {builtin = "softmax", input = "x", output = "y"}, asume = ["x is small"]}
//--- param-key.mlir
kproof.contract @c {kernel = "softmax_online_4", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>, params = [{name = "x", buffer = "in", type = f32, shape = array<i64: 4>}, {name = "y", buffer = "out", type = f32, shape = array<i64: 4>, shap = 1}], spec = {builtin = "softmax", input = "x", output = "y"}}
//--- size-float.mlir
kproof.contract @c {kernel = "row_sum", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>, params = [{name = "x", buffer = "in", type = f32, shape = array<i64: 4>}, {name = "y", buffer = "out", type = f32, shape = array<i64: 1>}, {name = "s", scalar = f32, range = array<i64: 1, 4>}], spec = {builtin = "sum", input = "x", output = "y"}}
//--- size-empty.mlir
kproof.contract @c {kernel = "row_sum", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>, params = [{name = "x", buffer = "in", type = f32, shape = [1, "n"]}, {name = "y", buffer = "out", type = f32, shape = array<i64: 1>}, {name = "n", scalar = i32, range = array<i64: 5, 5>}], spec = {builtin = "sum", input = "x", output = "y"}}
//--- size-unranged.mlir
kproof.contract @c {kernel = "row_sum", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>, params = [{name = "x", buffer = "in", type = f32, shape = [1, "n"]}, {name = "y", buffer = "out", type = f32, shape = array<i64: 1>}, {name = "n", scalar = i32}], spec = {builtin = "sum", input = "x", output = "y"}}
//--- nonfinite-value.mlir
kproof.contract @c {kernel = "softmax_online_4", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>, params = [{name = "x", buffer = "in", type = f32, shape = array<i64: 4>, nonfinite = ["-INF"]}, {name = "y", buffer = "out", type = f32, shape = array<i64: 4>}], spec = {builtin = "softmax", input = "x", output = "y"}}
//--- nonfinite-out.mlir
kproof.contract @c {kernel = "softmax_online_4", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>, params = [{name = "x", buffer = "in", type = f32, shape = array<i64: 4>}, {name = "y", buffer = "out", type = f32, shape = array<i64: 4>, nonfinite = ["nan"]}], spec = {builtin = "softmax", input = "x", output = "y"}}
//--- nonfinite-dup.mlir
kproof.contract @c {kernel = "softmax_online_4", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>, params = [{name = "x", buffer = "in", type = f32, shape = array<i64: 4>, nonfinite = ["-inf", "-inf"]}, {name = "y", buffer = "out", type = f32, shape = array<i64: 4>}], spec = {builtin = "softmax", input = "x", output = "y"}}
//--- value-name.mlir
kproof.contract @c {kernel = "row_sum", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>, params = [{name = "x", buffer = "in", type = f32, shape = array<i64: 1, 4>}, {name = "y", buffer = "out", type = f32, shape = array<i64: 1>}, {name = "n", scalar = i32, value = "k"}], spec = {builtin = "sum", input = "x", output = "y"}}
//--- table-wide.mlir
kproof.contract @c {kernel = "row_sum", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>, params = [{name = "idx", buffer = "in", type = i64, shape = array<i64: 4>, range = array<i64: 4294967296, 4294967297>, at_most = "m"}, {name = "y", buffer = "out", type = f32, shape = array<i64: 1>}, {name = "m", scalar = i32}], spec = {builtin = "sum", input = "idx", output = "y"}}
//--- table-size.mlir
kproof.contract @c {kernel = "row_sum", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>, params = [{name = "idx", buffer = "in", type = i32, shape = array<i64: 4>, range = array<i64: 17, 20>, at_most = "m"}, {name = "n", scalar = i32, range = array<i64: 1, 17>}, {name = "m", scalar = i32, value = "n"}], spec = {builtin = "sum", input = "idx", output = "y"}}
