// CUDA's precise tanhf (no --use_fast_math), -O3 and -G: 1 - 2 / (exp(2|x|) + 1)
// with the sign of x above 0.6 (saturated to 1 at 9.01), an odd polynomial
// below. As exact reals the polynomial is not tanh, so the sequence is read
// as tanh(x) as a whole (--kproof-recognize-math-idioms tags it), reported
// as an idiom with its location (activations.cu). tanhf itself and the tanh
// approximation of GELU PROVED over any launch, sm_80 and sm_90; GELU with
// a mistyped cubic coefficient REFUTED, its counterexample confirmed by the
// interpreter, which runs the instructions themselves.
//
// RUN: split-file %s %t
// RUN: kproof-opt %inputs/cuda/ptx/activations.sm80.O3.ptx --verify-equiv --contract=%t/tanh.mlir | FileCheck %s --check-prefix=TANH
// RUN: kproof-opt %inputs/cuda/ptx/activations.sm90.O3.ptx --verify-equiv --contract=%t/tanh.mlir | FileCheck %s --check-prefix=TANH
// RUN: kproof-opt %inputs/cuda/ptx/activations.sm80.O3.ptx --verify-equiv --contract=%t/gelu.mlir | FileCheck %s --check-prefix=GELU
// RUN: kproof-opt %inputs/cuda/ptx/activations.sm90.O3.ptx --verify-equiv --contract=%t/gelu.mlir | FileCheck %s --check-prefix=GELU
// RUN: kproof-opt %inputs/cuda/ptx/activations.sm80.G.ptx --verify-equiv --contract=%t/tanh.mlir | FileCheck %s --check-prefix=TANHG
// RUN: kproof-opt %inputs/cuda/ptx/activations.sm90.G.ptx --verify-equiv --contract=%t/gelu.mlir | FileCheck %s --check-prefix=TANHG
// RUN: sed 's/\(setp.ge.f32 \t%%p1, %%f1, 0f41102CB4;\)/\1\n\t@%%p1 trap;/' %inputs/cuda/ptx/activations.sm80.G.ptx > %t/trap.ptx
// RUN: %expect_exit 1 kproof-opt %t/trap.ptx --verify-equiv --contract=%t/tanh.mlir 2>/dev/null | FileCheck %s --check-prefix=TRAP
// RUN: sed 's/@gelu_tanh {/@gelu_tanh_bug {/; s/kernel = "gelu_tanh"/kernel = "gelu_tanh_bug"/' %t/gelu.mlir > %t/bug.mlir
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/activations.sm80.O3.ptx --verify-equiv --contract=%t/bug.mlir 2>/dev/null | FileCheck %s --check-prefix=BUG

// TANH: idiom: nvcc tanhf (1 - 2 / (exp(2|x|) + 1) with the sign of x above 0.6, saturated at 9.01; an odd polynomial below) read as tanh(x) at {{.*}}activations.cu:14:3)
// TANH-NOT: UNKNOWN
// TANH-NOT: REFUTED
// TANH: PROVED

// GELU: idiom: nvcc tanhf {{.*}} read as tanh(x) at {{.*}}activations.cu:22:3)
// GELU-NOT: UNKNOWN
// GELU-NOT: REFUTED
// GELU: PROVED

// -G: a call of the .func tanhf, its selects as branches and joins.
// TANHG: idiom: nvcc tanhf {{.*}} read as tanh(x) at {{.*}}activations.sm{{[89]}}0.G.ptx:{{[0-9]+}}:2
// TANHG-NOT: UNKNOWN
// TANHG-NOT: REFUTED
// TANHG: PROVED

// The ops of the sequence still run with their own semantics (only the
// root is read as tanh(x)): a trap under the saturation test of the -G
// .func (|x| >= 9.01) is reached, not skipped.
// TRAP: ERROR: violated: no trap (the kernel never aborts)
// TRAP: Replay: confirmed by replay (IEEE f32): trap:
// TRAP: REFUTED

// BUG: ERROR: value mismatch at y[{{[0-9]+}}]
// BUG: Replay: confirmed by replay (IEEE f32): kernel y[{{[0-9]+}}] = {{.*}}, spec = {{.*}}
// BUG: REFUTED

//--- tanh.mlir
func.func @tanh(%x: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = math.tanh %a : f32
    linalg.yield %t : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}
kproof.contract @tanh_rows {
  kernel = "tanh_rows",
  grid_max = array<i64: 65536, 1, 1>, block_max = array<i64: 1024, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = ["nctaid.x * ntid.x"]},
    {name = "y", buffer = "out", space = "global", type = f32, shape = ["nctaid.x * ntid.x"]}
  ],
  spec = {func = @tanh, inputs = ["x"], output = "y"}
}
//--- gelu.mlir
func.func @gelu(%x: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %k = arith.constant 0.7978845608 : f32
  %c = arith.constant 0.044715 : f32
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%v: f32, %o: f32):
    %v2 = arith.mulf %v, %v : f32
    %v3 = arith.mulf %v2, %v : f32
    %cv3 = arith.mulf %c, %v3 : f32
    %s = arith.addf %v, %cv3 : f32
    %in = arith.mulf %k, %s : f32
    %t = math.tanh %in : f32
    %t1 = arith.addf %one, %t : f32
    %hv = arith.mulf %half, %v : f32
    %y = arith.mulf %hv, %t1 : f32
    linalg.yield %y : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}
kproof.contract @gelu_tanh {
  kernel = "gelu_tanh",
  grid_max = array<i64: 65536, 1, 1>, block_max = array<i64: 1024, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = ["nctaid.x * ntid.x"]},
    {name = "y", buffer = "out", space = "global", type = f32, shape = ["nctaid.x * ntid.x"]}
  ],
  spec = {func = @gelu, inputs = ["x"], output = "y"}
}
