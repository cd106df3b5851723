// A func.func spec over dynamic tensors (`?` extents) against a kernel
// under a symbolic launch: `?` binds a launch-dependent buffer extent
// (shape = ["nctaid.x", "ntid.x"]), and element e of the output is
// lowered with e / ntid.x and e % ntid.x. rotate_smem rotates each CTA's
// row by one for any block size: proved against @rotate, refuted against a
// copy. A reduction over a launch-dependent extent is a reduction term
// (sum_j over [0, ntid.x)): the rotation against a row-sum spec is REFUTED,
// confirmed by replay. A static extent bound to a launch-dependent one is
// an error.
// RUN: split-file %s %t
// RUN: kproof-opt %inputs/cuda/ptx/sync_bugs.sm80.O3.ptx --verify-equiv --contract=%t/rotate.mlir | FileCheck %s --check-prefix=ROTATE
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/sync_bugs.sm80.O3.ptx --verify-equiv --contract=%t/copy.mlir 2>&1 | FileCheck %s --check-prefix=COPY
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/sync_bugs.sm80.O3.ptx --verify-equiv --contract=%t/rowsum.mlir 2>&1 | FileCheck %s --check-prefix=ROWSUM
// RUN: %expect_exit 2 kproof-opt %inputs/cuda/ptx/sync_bugs.sm80.O3.ptx --verify-equiv --contract=%t/static.mlir 2>&1 | FileCheck %s --check-prefix=STATIC

// ROTATE: kproof: rotate_smem against @rotate(x) -> y (mode reals)
// ROTATE: assuming: symbolic launch: ntid.x in [1, 1024], nctaid.x in [1, 2147483647]; at most 1024 threads per CTA; at most 2147483648 threads in all
// ROTATE-NOT: UNKNOWN
// ROTATE: PROVED

// The counterexample's launch is shrunk to a small one, so the
// interpreter replays it.
// COPY: REFUTED: value mismatch
// COPY: nctaid.x = {{[0-9]}}
// COPY: ntid.x = {{[0-9]}}
// COPY: Replay: confirmed by replay
// COPY: REFUTED

// ROWSUM: REFUTED: value mismatch
// ROWSUM: ntid.x = {{[0-9]}}
// ROWSUM: Replay: confirmed by replay
// ROWSUM: {{^}}REFUTED

// STATIC: error: spec @rotate argument #0 has shape [8x8] but buffer 'x' has shape ["nctaid.x", "ntid.x"]

//--- rotate.mlir
// y[b, i] = x[b, (i + 1) % ntid.x], for every block size up to 1024 and
// every grid of at most 2^31 threads (the kernel's 32-bit index
// ctaid.x * ntid.x + tid.x does not wrap).
func.func @rotate(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, i) -> (b, i)>],
                       iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<?x?xf32>) {
  ^bb0(%out: f32):
    %b = linalg.index 0 : index
    %i = linalg.index 1 : index
    %n = tensor.dim %x, %c1 : tensor<?x?xf32>
    %i1 = arith.addi %i, %c1 : index
    %j = arith.remui %i1, %n : index
    %v = tensor.extract %x[%b, %j] : tensor<?x?xf32>
    linalg.yield %v : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
kproof.contract @rotate_any {
  kernel = "rotate_smem",
  grid_max = array<i64: 2147483647, 1, 1>, block_max = array<i64: 1024, 1, 1>,
  max_threads = 2147483648,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = ["nctaid.x", "ntid.x"]},
    {name = "y", buffer = "out", space = "global", type = f32, shape = ["nctaid.x", "ntid.x"]}
  ],
  spec = {func = @rotate, inputs = ["x"], output = "y"}, mode = "reals"
}

//--- copy.mlir
func.func @copy(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  return %x : tensor<?x?xf32>
}
kproof.contract @rotate_any {
  kernel = "rotate_smem",
  grid_max = array<i64: 2147483647, 1, 1>, block_max = array<i64: 1024, 1, 1>,
  max_threads = 2147483648,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = ["nctaid.x", "ntid.x"]},
    {name = "y", buffer = "out", space = "global", type = f32, shape = ["nctaid.x", "ntid.x"]}
  ],
  spec = {func = @copy, inputs = ["x"], output = "y"}, mode = "reals"
}

//--- rowsum.mlir
// y[b, i] = sum_j x[b, j]: a reduction over ntid.x elements.
func.func @rowsum(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %z = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, j)>,
                                        affine_map<(b, i, j) -> (b, i)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<?x?xf32>) outs(%f : tensor<?x?xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
kproof.contract @rotate_any {
  kernel = "rotate_smem",
  grid_max = array<i64: 2147483647, 1, 1>, block_max = array<i64: 1024, 1, 1>,
  max_threads = 2147483648,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = ["nctaid.x", "ntid.x"]},
    {name = "y", buffer = "out", space = "global", type = f32, shape = ["nctaid.x", "ntid.x"]}
  ],
  spec = {func = @rowsum, inputs = ["x"], output = "y"}, mode = "reals"
}

//--- static.mlir
func.func @rotate(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  return %x : tensor<8x8xf32>
}
kproof.contract @rotate_any {
  kernel = "rotate_smem",
  grid_max = array<i64: 2147483647, 1, 1>, block_max = array<i64: 1024, 1, 1>,
  max_threads = 2147483648,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = ["nctaid.x", "ntid.x"]},
    {name = "y", buffer = "out", space = "global", type = f32, shape = ["nctaid.x", "ntid.x"]}
  ],
  spec = {func = @rotate, inputs = ["x"], output = "y"}, mode = "reals"
}
