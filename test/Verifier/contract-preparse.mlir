// Regression: a contract nested 10,000 levels deep overflowed the stack in
// MLIR's parser (SIGSEGV). Input nested deeper than 1000 levels of brackets
// is an error at the bracket past the limit, before anything is parsed: the
// --contract file, the input module (with or without --verify-equiv), and
// kproof-run's contract. 1000 levels still parse.
// RUN: python3 -c "d = 10000; print('kproof.contract @c {kernel = \"copy1\", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>, params = [{name = \"x\", buffer = \"in\", type = f32, shape = array<i64: 1>}, {name = \"y\", buffer = \"out\", type = f32, shape = array<i64: 1>}], assume = ' + '[' * d + ']' * d + ', spec = {builtin = \"copy\", input = \"x\", output = \"y\"}}')" > %t.arrays.mlir
// RUN: python3 -c "d = 10000; print('kproof.contract @c {kernel = \"copy1\", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>, params = [], spec = ' + '{a = ' * d + '1' + '}' * d + '}')" > %t.dicts.mlir
// RUN: python3 -c "d = 1000; print('module attributes {test.deep = ' + '[' * (d - 1) + '1' + ']' * (d - 1) + '} {}')" > %t.limit.mlir
// RUN: python3 -c "d = 1001; print('module attributes {test.deep = ' + '[' * (d - 1) + '1' + ']' * (d - 1) + '} {}')" > %t.over.mlir
// RUN: %expect_exit 2 kproof-opt %S/copy1.ptx --verify-equiv --contract=%t.arrays.mlir 2>&1 | FileCheck %s --check-prefix=ARRAYS
// RUN: %expect_exit 2 kproof-opt %S/copy1.ptx --verify-equiv --contract=%t.dicts.mlir 2>&1 | FileCheck %s --check-prefix=DICTS
// RUN: %expect_exit 2 kproof-opt %t.dicts.mlir --verify-equiv 2>&1 | FileCheck %s --check-prefix=DICTS
// RUN: %expect_exit 2 kproof-run %S/copy1.ptx --contract=%t.arrays.mlir 2>&1 | FileCheck %s --check-prefix=ARRAYS
// RUN: %expect_exit 0 kproof-opt %t.limit.mlir | FileCheck %s --check-prefix=LIMIT
// RUN: %expect_exit 2 kproof-opt %t.over.mlir 2>&1 | FileCheck %s --check-prefix=OVER

// The 1000th '[' of `assume` opens level 1001 (the contract's '{' is level 1).
// ARRAYS: arrays.mlir:1:{{[0-9]+}}: error: nesting deeper than 1000 levels of brackets ('(', '[', '{', '<') is not parsed
// ARRAYS-NOT: PLEASE submit a bug report
// DICTS: dicts.mlir:1:{{[0-9]+}}: error: nesting deeper than 1000 levels of brackets
// LIMIT: test.deep = {{\[+}}1{{\]+}}
// OVER: over.mlir:1:1031: error: nesting deeper than 1000 levels of brackets

// MLIR 22's parser crashes on a dense array of index elements (a contract
// with `block = array<index: 32, 1, 1>`, found by fuzz/contract-mutate.py):
// refused before parsing too.
// RUN: echo 'kproof.contract @c {kernel = "copy1", grid = array<i64: 1, 1, 1>, block = array< index: 1, 1, 1>, params = [], spec = {builtin = "copy", input = "x", output = "y"}}' > %t.index.mlir
// RUN: %expect_exit 2 kproof-opt %S/copy1.ptx --verify-equiv --contract=%t.index.mlir 2>&1 | FileCheck %s --check-prefix=INDEX
// INDEX: index.mlir:1:80: error: a dense array of 'index' elements is not parsed (MLIR's parser crashes on it); use i64
