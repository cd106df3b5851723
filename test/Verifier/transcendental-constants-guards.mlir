// Where reading constants as exact values could change what a kernel
// computes, kproof does not read them (a review found these as false
// PROVEDs of the first version). Each kernel should store 0 (the spec
// y = a - a):
// - closed arithmetic that the reading makes ill-conditioned (c * c - 2
//   with c = 0f3FB504F3 read as sqrt(2) is 0, the float result -6.9e-8: a
//   flipped branch, a hidden NaN of sqrt; the f32 and the f64 ln(2) read as
//   one value, their difference scaled by 2^30): UNKNOWN, naming the reason;
// - only the value rounded to nearest is read: its other float neighbour is
//   a different number (a * (0f3F317218 - 0f3F317217) * 2^24 = a): REFUTED;
// - a well-conditioned product of readings (log2(e) * ln(2) = 1): PROVED.
// The __logf product with ln(2) from a .const table is read as log, as an
// immediate is.
//
// RUN: split-file %s %t
// RUN: %expect_exit 3 kproof-opt %t/branch.ptx --verify-equiv --contract=%t/zero.mlir 2>&1 | FileCheck %s --check-prefix=ILL
// RUN: %expect_exit 3 kproof-opt %t/sqrtnan.ptx --verify-equiv --contract=%t/zero.mlir 2>&1 | FileCheck %s --check-prefix=ILL
// RUN: %expect_exit 3 kproof-opt %t/precisions.ptx --verify-equiv --contract=%t/zero.mlir 2>&1 | FileCheck %s --check-prefix=ILL
// ILL: UNKNOWN: arithmetic on constants read as transcendental values depends on the reading
// RUN: %expect_exit 1 kproof-opt %t/neighbours.ptx --verify-equiv --contract=%t/zero.mlir 2>/dev/null | FileCheck %s --check-prefix=NEIGHBOURS
// NEIGHBOURS-NOT: 0f3F317217 read as
// NEIGHBOURS: Replay: confirmed by replay (IEEE f32)
// NEIGHBOURS: REFUTED
// RUN: %expect_exit 0 kproof-opt %t/product.ptx --verify-equiv --contract=%t/zero.mlir | FileCheck %s --check-prefix=PRODUCT
// PRODUCT: read as log2(e)
// PRODUCT: read as ln(2)
// PRODUCT: PROVED
// RUN: %expect_exit 0 kproof-opt %t/constlog.ptx --verify-equiv --contract=%t/log.mlir | FileCheck %s --check-prefix=CONST
// CONST: idiom: f32 constant 0f3F317218 read as ln(2)
// CONST: PROVED

//--- branch.ptx
.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 py)
{
	.reg .pred %p<8>;
	.reg .f32 	%f<40>;
	.reg .f64 	%fd<40>;
	.reg .b64 	%rd<4>;
	ld.param.u64 	%rd1, [pa];
	ld.param.u64 	%rd2, [pb];
	ld.param.u64 	%rd3, [py];
	ld.global.f32 	%f1, [%rd1];
	ld.global.f32 	%f2, [%rd2];
	// fma(c, c, -2) = -6.9e-8 for c = 0f3FB504F3, but 0 with c read as sqrt(2)
	fma.rn.f32 %f4, 0f3FB504F3, 0f3FB504F3, 0fC0000000;
	setp.lt.f32 %p1, %f4, 0f00000000;
	selp.f32 %f9, %f1, 0f00000000, %p1;
	st.global.f32 	[%rd3], %f9;
	ret;
}

//--- sqrtnan.ptx
.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 py)
{
	.reg .pred %p<8>;
	.reg .f32 	%f<40>;
	.reg .f64 	%fd<40>;
	.reg .b64 	%rd<4>;
	ld.param.u64 	%rd1, [pa];
	ld.param.u64 	%rd2, [pb];
	ld.param.u64 	%rd3, [py];
	ld.global.f32 	%f1, [%rd1];
	ld.global.f32 	%f2, [%rd2];
	// sqrt of the negative -6.9e-8 is NaN; with the reading sqrt(0) = 0
	fma.rn.f32 %f4, 0f3FB504F3, 0f3FB504F3, 0fC0000000;
	sqrt.rn.f32 %f5, %f4;
	mul.f32 %f9, %f5, %f1;
	st.global.f32 	[%rd3], %f9;
	ret;
}

//--- precisions.ptx
.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 py)
{
	.reg .pred %p<8>;
	.reg .f32 	%f<40>;
	.reg .f64 	%fd<40>;
	.reg .b64 	%rd<4>;
	ld.param.u64 	%rd1, [pa];
	ld.param.u64 	%rd2, [pb];
	ld.param.u64 	%rd3, [py];
	ld.global.f32 	%f1, [%rd1];
	ld.global.f32 	%f2, [%rd2];
	// ln(2) in f32 minus ln(2) in f64, scaled by 2^30: 2.05, not 0
	mov.f32 %f3, 0f3F317218;
	cvt.f64.f32 %fd1, %f3;
	sub.f64 %fd2, %fd1, 0d3FE62E42FEFA39EF;
	mul.f64 %fd3, %fd2, 0d41D0000000000000;
	cvt.rn.f32.f64 %f4, %fd3;
	mul.f32 %f9, %f4, %f1;
	st.global.f32 	[%rd3], %f9;
	ret;
}

//--- neighbours.ptx
.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 py)
{
	.reg .pred %p<8>;
	.reg .f32 	%f<40>;
	.reg .f64 	%fd<40>;
	.reg .b64 	%rd<4>;
	ld.param.u64 	%rd1, [pa];
	ld.param.u64 	%rd2, [pb];
	ld.param.u64 	%rd3, [py];
	ld.global.f32 	%f1, [%rd1];
	ld.global.f32 	%f2, [%rd2];
	// ln(2) rounded to nearest and its other neighbour: a * ulp * 2^24 = a
	mul.f32 %f3, %f1, 0f3F317218;
	mul.f32 %f4, %f1, 0f3F317217;
	sub.f32 %f5, %f3, %f4;
	mul.f32 %f9, %f5, 0f4B800000;
	st.global.f32 	[%rd3], %f9;
	ret;
}

//--- product.ptx
.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 py)
{
	.reg .pred %p<8>;
	.reg .f32 	%f<40>;
	.reg .f64 	%fd<40>;
	.reg .b64 	%rd<4>;
	ld.param.u64 	%rd1, [pa];
	ld.param.u64 	%rd2, [pb];
	ld.param.u64 	%rd3, [py];
	ld.global.f32 	%f1, [%rd1];
	ld.global.f32 	%f2, [%rd2];
	// log2(e) * ln(2) = 1 exactly under the readings, well conditioned
	mul.f32 %f3, 0f3FB8AA3B, 0f3F317218;
	mul.f32 %f4, %f3, %f1;
	sub.f32 %f9, %f4, %f1;
	st.global.f32 	[%rd3], %f9;
	ret;
}
//--- zero.mlir
func.func @s(%x: tensor<1xf32>, %z: tensor<1xf32>) -> tensor<1xf32> {
  %e = tensor.empty() : tensor<1xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x, %z : tensor<1xf32>, tensor<1xf32>) outs(%e : tensor<1xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.subf %a, %a : f32
    linalg.yield %r : f32
  } -> tensor<1xf32>
  return %y : tensor<1xf32>
}
kproof.contract @c {
  kernel = "k", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [
    {name = "pa", buffer = "in", type = f32, shape = array<i64: 1>},
    {name = "pb", buffer = "in", type = f32, shape = array<i64: 1>},
    {name = "py", buffer = "out", type = f32, shape = array<i64: 1>}
  ],
  spec = {func = @s, inputs = ["pa", "pb"], output = "py"}
}
//--- constlog.ptx
.version 8.0
.target sm_80
.address_size 64
.const .align 4 .f32 ln2c = 0f3F317218;
.visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 py)
{
	.reg .f32 	%f<40>;
	.reg .b64 	%rd<4>;
	ld.param.u64 	%rd1, [pa];
	ld.param.u64 	%rd3, [py];
	ld.global.f32 	%f1, [%rd1];
	fma.rn.f32 %f4, %f1, %f1, 0f3F800000;
	lg2.approx.f32 %f3, %f4;
	ld.const.f32 %f5, [ln2c];
	mul.f32 %f9, %f3, %f5;
	st.global.f32 	[%rd3], %f9;
	ret;
}
//--- log.mlir
func.func @s(%x: tensor<1xf32>, %z: tensor<1xf32>) -> tensor<1xf32> {
  %e = tensor.empty() : tensor<1xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x, %z : tensor<1xf32>, tensor<1xf32>) outs(%e : tensor<1xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %c = arith.constant 1.0 : f32
    %q = arith.mulf %a, %a : f32
    %s = arith.addf %q, %c : f32
    %r = math.log %s : f32
    linalg.yield %r : f32
  } -> tensor<1xf32>
  return %y : tensor<1xf32>
}
kproof.contract @c {
  kernel = "k", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [
    {name = "pa", buffer = "in", type = f32, shape = array<i64: 1>},
    {name = "pb", buffer = "in", type = f32, shape = array<i64: 1>},
    {name = "py", buffer = "out", type = f32, shape = array<i64: 1>}
  ],
  spec = {func = @s, inputs = ["pa", "pb"], output = "py"}
}
