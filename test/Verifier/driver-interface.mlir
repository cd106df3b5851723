// The driver's interface: --help, usage errors, --version, JSON in every
// outcome, --timeout, --progress, --quiet.
// RUN: split-file %s %t
//
// --help lists kproof's options before the MLIR driver's and hides LLVM's
// backend flags; --help-all lists them too.
// RUN: kproof-opt --help | FileCheck %s --check-prefix=HELP --implicit-check-not=x86-asm-syntax
// HELP: --help-all
// HELP: kproof options:
// HELP: --timeout=<seconds>
// HELP: --verify-equiv
// HELP: mlir-opt options
// HELP: --pass-pipeline
// RUN: kproof-opt --help-all | FileCheck %s --check-prefix=HELPALL
// HELPALL: --x86-asm-syntax
// HELPALL: kproof options:
//
// A malformed command line is a usage error: exit 2, never 1 (REFUTED).
// RUN: %expect_exit 2 kproof-opt %inputs/cuda/ptx/softmax_online.sm80.O3.ptx --verify-equiv --contract=%t/two.mlir --no-such-flag 2>&1 | FileCheck %s --check-prefix=USAGE
// RUN: %expect_exit 2 kproof-opt %inputs/cuda/ptx/softmax_online.sm80.O3.ptx --verify-equiv --contract=%t/two.mlir --format=yaml 2>&1 | FileCheck %s --check-prefix=USAGE
// USAGE: kproof-opt: {{.*}}
// RUN: kproof-opt --version | FileCheck %s --check-prefix=VERSION
// VERSION: kproof {{[0-9]+\.[0-9]+\.[0-9]+}}
//
// Text and JSON name the contract, the time and the tool.
// RUN: kproof-opt %inputs/cuda/ptx/softmax_online.sm80.O3.ptx --verify-equiv --contract=%t/one.mlir | FileCheck %s --check-prefix=TEXT
// TEXT: kproof: softmax_online_4 against softmax(x) -> y (mode reals)
// TEXT-NEXT: contract @ok, {{[0-9]+\.[0-9][0-9]}} s, kproof {{[0-9.]+}}
// TEXT: PROVED
// RUN: kproof-opt %inputs/cuda/ptx/softmax_online.sm80.O3.ptx --verify-equiv --contract=%t/one.mlir --format=json > %t/one.json
// RUN: python3 %S/Inputs/check_verdict_json.py %t/one.json 1 | FileCheck %s --check-prefix=JSON1
// JSON1: ok PROVED
//
// A counterexample over a 2-D output (Triton's row softmax passing n = 49
// for rows of 50): the launch and the buffer shapes are printed, and the
// element and inputs are indexed as the contract's shape gives them.
// RUN: sed 's/{name = "n", scalar = i32, value = 50 : i32}/{name = "n", scalar = i32, value = 49 : i32}/' %t/tsm64.mlir > %t/tsm64bug.mlir
// RUN: %expect_exit 1 kproof-opt %inputs/triton/ptx/softmax_row_b64.sm90.ptx --verify-equiv --contract=%t/tsm64bug.mlir 2>/dev/null | FileCheck %s --check-prefix=SHAPED
// SHAPED: launch: grid (4, 1, 1) x block (32, 1, 1); buffers: y out f32[4, 50], x in f32[4, 50]
// SHAPED: ERROR: value mismatch at y[3, 28]
// RUN: %expect_exit 1 kproof-opt %inputs/triton/ptx/softmax_row_b64.sm90.ptx --verify-equiv --contract=%t/tsm64bug.mlir --format=json > %t/shaped.json 2>/dev/null
// RUN: python3 %S/Inputs/check_verdict_json.py %t/shaped.json 1 | FileCheck %s --check-prefix=SHAPEDJSON
// SHAPEDJSON: tsm64 REFUTED
// RUN: FileCheck %s --check-prefix=SHAPEDKEYS < %t/shaped.json
// SHAPEDKEYS: "element": [
// SHAPEDKEYS-NEXT: 3,
// SHAPEDKEYS-NEXT: 28
// SHAPEDKEYS-NEXT: ],
// SHAPEDKEYS-NEXT: "index": 178,
//
// JSON stays valid when a contract is wrong: the contracts checked before it
// keep their objects, the wrong one becomes an error object (verdict ERROR
// and the message, at the field), the array is closed; exit 2.
// RUN: %expect_exit 2 kproof-opt %inputs/cuda/ptx/softmax_online.sm80.O3.ptx --verify-equiv --contract=%t/two.mlir --format=json > %t/two.json 2>/dev/null
// RUN: python3 %S/Inputs/check_verdict_json.py %t/two.json 2 | FileCheck %s --check-prefix=JSON2
// JSON2: ok PROVED
// JSON2-NEXT: wrong ERROR two.mlir:2:1: no kernel (.entry with a body) named 'softmax_online_5'
// A bad option value, a missing input file: one error object on stdout.
// RUN: %expect_exit 2 kproof-opt %inputs/cuda/ptx/softmax_online.sm80.O3.ptx --verify-equiv --contract=%t/one.mlir --format=json --timeout=abc > %t/badopt.json 2>/dev/null
// RUN: python3 %S/Inputs/check_verdict_json.py %t/badopt.json 1 | FileCheck %s --check-prefix=JSONOPT
// JSONOPT: - ERROR invalid command line (the reason is on stderr)
// RUN: %expect_exit 2 kproof-opt %t/no-such-kernel.ptx --verify-equiv --contract=%t/one.mlir --format=json > %t/noinput.json 2>/dev/null
// RUN: python3 %S/Inputs/check_verdict_json.py %t/noinput.json 1 | FileCheck %s --check-prefix=JSONNOINPUT
// JSONNOINPUT: - ERROR {{.*}}no-such-kernel.ptx{{.*}}
// -o keeps the verdict whatever it is (here REFUTED, exit 1).
// RUN: rm -f %t/kept.json
// RUN: %expect_exit 1 kproof-opt %inputs/triton/ptx/softmax_row_b64.sm90.ptx --verify-equiv --contract=%t/tsm64bug.mlir --format=json -o %t/kept.json 2>/dev/null
// RUN: python3 %S/Inputs/check_verdict_json.py %t/kept.json 1 | FileCheck %s --check-prefix=SHAPEDJSON
// A malformed contract file and malformed PTX: one error object.
// RUN: %expect_exit 2 kproof-opt %inputs/cuda/ptx/softmax_online.sm80.O3.ptx --verify-equiv --contract=%t/malformed.mlir --format=json > %t/bad.json 2>/dev/null
// RUN: python3 %S/Inputs/check_verdict_json.py %t/bad.json 1 | FileCheck %s --check-prefix=JSONBAD
// JSONBAD: - ERROR malformed.mlir:1:{{[0-9]+}}: {{.+}}
// RUN: %expect_exit 2 kproof-opt %t/bad.ptx --verify-equiv --contract=%t/one.mlir --format=json > %t/badptx.json 2>/dev/null
// RUN: python3 %S/Inputs/check_verdict_json.py %t/badptx.json 1 | FileCheck %s --check-prefix=JSONPTX
// JSONPTX: - ERROR bad.ptx:{{[0-9]+}}:{{[0-9]+}}: {{.+}}
//
// --timeout: a proof that needs about 20 s (a causal FlashAttention-style
// forward over 48 keys, 3 CTAs) ends UNKNOWN naming the limit, exit 3: the running Z3
// check is interrupted and the values not yet normalized are not begun
// (or, past the limit and a 3 s grace, kproof-opt prints the verdict so
// far itself); --progress=always prints progress lines meanwhile.
// RUN: %expect_exit 3 kproof-opt %inputs/cuda/ptx/flash_fwd.sm80.O3.ptx --verify-equiv --contract=%t/causal48.mlir --timeout=2 --progress=always > %t/timeout.txt 2> %t/progress.txt
// RUN: FileCheck %s --check-prefix=TIMEOUT < %t/timeout.txt
// RUN: FileCheck %s --check-prefix=PROGRESS < %t/progress.txt
// TIMEOUT: kproof: flash_causal_d16 against attention(Q, K, V, causal, offset 4) -> O
// TIMEOUT-NEXT: contract @causal48, {{[0-9]+\.[0-9][0-9]}} s
// TIMEOUT-NEXT: launch: grid (3, 1, 1) x block (16, 1, 1)
// TIMEOUT: UNKNOWN: {{.*}}time limit of 2 s reached {{(during symbolic execution )?}}(--timeout)
// PROGRESS: kproof-opt: causal48: {{[0-9.]+}} s, {{[0-9]+}} obligation(s) decided, now: {{.+}}
// Without --timeout nothing is cut, and without a terminal (or with
// --quiet) no progress line is printed.
// RUN: kproof-opt %inputs/cuda/ptx/softmax_online.sm80.O3.ptx --verify-equiv --contract=%t/one.mlir --progress=always --quiet 2>&1 >/dev/null | FileCheck %s --allow-empty --check-prefix=QUIET
// QUIET-NOT: {{.}}
// --quiet drops warnings (here: an unmodeled instruction) from stderr.
// RUN: kproof-opt %inputs/cuda/ptx/device_calls.sm80.O3.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOUD
// LOUD: warning: unmodeled PTX instruction
// RUN: kproof-opt %inputs/cuda/ptx/device_calls.sm80.O3.ptx -o /dev/null --quiet 2>&1 | FileCheck %s --allow-empty --check-prefix=QUIET

//--- one.mlir
kproof.contract @ok {kernel = "softmax_online_4", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>, params = [{name = "x", buffer = "in", type = f32, shape = array<i64: 4>}, {name = "y", buffer = "out", type = f32, shape = array<i64: 4>}], spec = {builtin = "softmax", input = "x", output = "y"}}
//--- two.mlir
kproof.contract @ok {kernel = "softmax_online_4", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>, params = [{name = "x", buffer = "in", type = f32, shape = array<i64: 4>}, {name = "y", buffer = "out", type = f32, shape = array<i64: 4>}], spec = {builtin = "softmax", input = "x", output = "y"}}
kproof.contract @wrong {kernel = "softmax_online_5", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>, params = [{name = "x", buffer = "in", type = f32, shape = array<i64: 4>}, {name = "y", buffer = "out", type = f32, shape = array<i64: 4>}], spec = {builtin = "softmax", input = "x", output = "y"}}
//--- malformed.mlir
kproof.contract @c {kernel = "softmax_online_4", grid = array<i64: 1, 1, 1>
//--- bad.ptx
.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 p)
{
  mov.u32 %r1, ;
}
//--- causal48.mlir
kproof.contract @causal48 {
  kernel = "flash_causal_d16", grid = array<i64: 3, 1, 1>, block = array<i64: 16, 1, 1>,
  params = [
    {name = "Q", buffer = "in", type = f32, shape = array<i64: 48, 16>},
    {name = "K", buffer = "in", type = f32, shape = array<i64: 48, 16>},
    {name = "V", buffer = "in", type = f32, shape = array<i64: 48, 16>},
    {name = "O", buffer = "out", type = f32, shape = array<i64: 48, 16>},
    {name = "L", buffer = "in", type = f32, shape = array<i64: 48>},
    {name = "n", scalar = i32, value = 48 : i32},
    {name = "off", scalar = i32, value = 4 : i32},
    {name = "scale", scalar = f32, value = 0.125 : f32}
  ],
  spec = {builtin = "attention", q = "Q", k = "K", v = "V", output = "O",
          scale = 0.125 : f32, mask = "causal", offset = "off"}
}
//--- tsm64.mlir
kproof.contract @tsm64 {
  kernel = "softmax_row_kernel", grid = array<i64: 4, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 4, 50>},
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4, 50>},
    {name = "x_row_stride", scalar = i32, value = 50 : i32},
    {name = "y_row_stride", scalar = i32, value = 50 : i32},
    {name = "n", scalar = i32, value = 50 : i32},
    {name = "global_scratch", scalar = i64, value = 0 : i64},
    {name = "profile_scratch", scalar = i64, value = 0 : i64}
  ],
  spec = {builtin = "softmax", input = "x", output = "y"}
}
