// A store that goes to the wrong element on one side of a branch: the two
// sides wrote different cells, so they stay separate paths, and on the
// side that took the branch y[1] is never written. The coverage
// counterexample is a positive x[1], and the replay confirms that the
// kernel never writes y[1] there.
// RUN: split-file %s %t
// RUN: %expect_exit 1 kproof-opt %t/k.ptx --verify-equiv --contract=%t/c.mlir 2>&1 | FileCheck %s
// RUN: %expect_exit 1 kproof-opt %t/k.ptx --verify-equiv --contract=%t/c.mlir --format=json 2>/dev/null | FileCheck %s --check-prefix=JSON
// The interpreter on the same input: y[1] is never written (null).
// RUN: %expect_exit 1 kproof-run %t/k.ptx --contract=%t/c.mlir --inputs=%t/in.json | FileCheck %s --check-prefix=INTERP

// Elements 2 and 3 branch on both paths: 6 forks, 5 merges, 2 paths.
// CHECK: paths: 2 (6 data-dependent branches, 5 merges where their sides meet again)
// CHECK: REFUTED: coverage: y[1] is written -- counterexample confirmed
// CHECK: ERROR: violated: coverage: y[1] is written
// CHECK: Example:
// CHECK-NEXT: x[1] = {{[1-2]}}
// CHECK: Replay: confirmed by replay (IEEE f32): the kernel never writes y[1] (spec = {{[1-2]}})
// CHECK: REFUTED

// INTERP: "outputs": {
// INTERP-NEXT: "y": [
// INTERP-NEXT: 1,
// INTERP-NEXT: null,
// INTERP: "result": "mismatch"

// JSON: "buffer": "y",
// JSON: "index": 1,

//--- k.ptx
// relu over 4 elements with a branch per element; the positive arm of
// element 1 stores to y[3] (+12) instead of y[1] (+4).
.version 8.0
.target sm_80
.address_size 64
.visible .entry relu4(.param .u64 x, .param .u64 y)
{
	.reg .pred %p<4>;
	.reg .f32 %f<4>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [x];
	ld.param.u64 %rd2, [y];
	ld.global.f32 %f0, [%rd1];
	setp.gt.f32 %p0, %f0, 0f00000000;
	@%p0 bra P0;
	st.global.f32 [%rd2], 0f00000000;
	bra.uni J0;
P0:
	st.global.f32 [%rd2], %f0;
J0:
	ld.global.f32 %f1, [%rd1+4];
	setp.gt.f32 %p1, %f1, 0f00000000;
	@%p1 bra P1;
	st.global.f32 [%rd2+4], 0f00000000;
	bra.uni J1;
P1:
	st.global.f32 [%rd2+12], %f1;
J1:
	ld.global.f32 %f2, [%rd1+8];
	setp.gt.f32 %p2, %f2, 0f00000000;
	@%p2 bra P2;
	st.global.f32 [%rd2+8], 0f00000000;
	bra.uni J2;
P2:
	st.global.f32 [%rd2+8], %f2;
J2:
	ld.global.f32 %f3, [%rd1+12];
	setp.gt.f32 %p3, %f3, 0f00000000;
	@%p3 bra P3;
	st.global.f32 [%rd2+12], 0f00000000;
	bra.uni J3;
P3:
	st.global.f32 [%rd2+12], %f3;
J3:
	ret;
}

//--- c.mlir
func.func @relu(%x: tensor<4xf32>) -> tensor<4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%v: f32, %out: f32):
    %y = arith.maximumf %v, %zero : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
kproof.contract @relu_contract {
  kernel = "relu4", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 4>}
  ],
  spec = {func = @relu, inputs = ["x"], output = "y"}
}

//--- in.json
{"x": [1, 1, 1, 1]}
