// Regression: a reference kernel that stores -inf on one side of a branch
// (a logsumexp of an empty row, n == 0) crashed kproof-opt (SIGSEGV in
// RefSpec): the ite of -inf and a finite value had no term, and the null
// element went on unchecked. It was then UNKNOWN with that reason. Values
// that are -inf on some inputs only are now modeled (ites with extended
// leaves): the kernel equals each reference (one thread, multi-thread, and
// a one-thread reference read at a symbolic index), PROVED; references
// that store +inf or 0 instead of -inf for the empty row are REFUTED, the
// replay showing the kernel's -inf.
// RUN: split-file %s %t
// RUN: kproof-opt %t/kernel.ptx --verify-equiv --contract=%t/one.mlir | FileCheck %s --check-prefix=PROVED
// RUN: kproof-opt %t/kernel.ptx --verify-equiv --contract=%t/multi.mlir | FileCheck %s --check-prefix=PROVED
// RUN: kproof-opt %t/kernel.ptx --verify-equiv --contract=%t/chain.mlir | FileCheck %s --check-prefix=PROVED
// RUN: sed '/entry ref_lse(/,/^}/s/0fFF800000/0f7F800000/' %t/kernel.ptx > %t/ref-posinf.ptx
// RUN: sed 's/"kernel.ptx"/"ref-posinf.ptx"/' %t/one.mlir > %t/one-posinf.mlir
// RUN: %expect_exit 1 kproof-opt %t/kernel.ptx --verify-equiv --contract=%t/one-posinf.mlir 2>&1 | FileCheck %s --check-prefix=POSINF
// RUN: sed '/entry ref_lse2(/,/^}/s/0fFF800000/0f00000000/' %t/kernel.ptx > %t/ref-zero.ptx
// RUN: sed 's/"kernel.ptx"/"ref-zero.ptx"/' %t/multi.mlir > %t/multi-zero.mlir
// RUN: %expect_exit 1 kproof-opt %t/kernel.ptx --verify-equiv --contract=%t/multi-zero.mlir 2>&1 | FileCheck %s --check-prefix=ZERO

// PROVED-NOT: UNKNOWN
// PROVED: {{^}}PROVED
// POSINF: REFUTED: value y[0]
// POSINF: n = 0
// POSINF: Kernel value: [-inf, -inf]
// POSINF-NEXT: Spec value:   [inf, inf]
// POSINF: Replay: confirmed by replay
// POSINF: {{^}}REFUTED
// ZERO: REFUTED: value y[
// ZERO: n = 0
// ZERO: Kernel value: [-inf, -inf]
// ZERO: Replay: confirmed by replay
// ZERO: {{^}}REFUTED

//--- kernel.ptx
.version 8.0
.target sm_80
.address_size 64

// y[tid] = n == 0 ? -inf : x[tid]
.visible .entry lse(.param .u64 x, .param .u64 y, .param .u32 n)
{
	.reg .f32 	%f<4>;
	.reg .b64 	%rd<8>;
	.reg .b32 	%r<4>;
	.reg .pred 	%p<2>;
	ld.param.u64 	%rd1, [x];
	ld.param.u64 	%rd2, [y];
	ld.param.u32 	%r1, [n];
	mov.u32 	%r2, %tid.x;
	mul.wide.u32 	%rd3, %r2, 4;
	add.s64 	%rd4, %rd1, %rd3;
	add.s64 	%rd5, %rd2, %rd3;
	setp.eq.s32 	%p1, %r1, 0;
	@%p1 bra 	$L_empty;
	ld.global.f32 	%f1, [%rd4];
	st.global.f32 	[%rd5], %f1;
	ret;
$L_empty:
	mov.f32 	%f2, 0fFF800000;
	st.global.f32 	[%rd5], %f2;
	ret;
}

// One thread: y[0] = n != 0 ? x[0] : -inf.
.visible .entry ref_lse(.param .u64 x, .param .u64 y, .param .u32 n)
{
	.reg .f32 	%f<4>;
	.reg .b64 	%rd<4>;
	.reg .b32 	%r<4>;
	.reg .pred 	%p<2>;
	ld.param.u64 	%rd1, [x];
	ld.param.u64 	%rd2, [y];
	ld.param.u32 	%r1, [n];
	setp.ne.s32 	%p1, %r1, 0;
	@%p1 bra 	$L_full;
	mov.f32 	%f2, 0fFF800000;
	st.global.f32 	[%rd2], %f2;
	ret;
$L_full:
	ld.global.f32 	%f1, [%rd1];
	st.global.f32 	[%rd2], %f1;
	ret;
}

// One thread, two elements: y[i] = n != 0 ? x[i] : -inf.
.visible .entry ref_pair(.param .u64 x, .param .u64 y, .param .u32 n)
{
	.reg .f32 	%f<4>;
	.reg .b64 	%rd<4>;
	.reg .b32 	%r<4>;
	.reg .pred 	%p<2>;
	ld.param.u64 	%rd1, [x];
	ld.param.u64 	%rd2, [y];
	ld.param.u32 	%r1, [n];
	setp.ne.s32 	%p1, %r1, 0;
	@%p1 bra 	$L_full;
	mov.f32 	%f2, 0fFF800000;
	st.global.f32 	[%rd2], %f2;
	st.global.f32 	[%rd2+4], %f2;
	ret;
$L_full:
	ld.global.f32 	%f1, [%rd1];
	st.global.f32 	[%rd2], %f1;
	ld.global.f32 	%f1, [%rd1+4];
	st.global.f32 	[%rd2+4], %f1;
	ret;
}

// One thread per element, as lse.
.visible .entry ref_lse2(.param .u64 x, .param .u64 y, .param .u32 n)
{
	.reg .f32 	%f<4>;
	.reg .b64 	%rd<8>;
	.reg .b32 	%r<4>;
	.reg .pred 	%p<2>;
	ld.param.u64 	%rd1, [x];
	ld.param.u64 	%rd2, [y];
	ld.param.u32 	%r1, [n];
	mov.u32 	%r2, %tid.x;
	mul.wide.u32 	%rd3, %r2, 4;
	add.s64 	%rd4, %rd1, %rd3;
	add.s64 	%rd5, %rd2, %rd3;
	setp.ne.s32 	%p1, %r1, 0;
	@%p1 bra 	$L_full;
	mov.f32 	%f2, 0fFF800000;
	st.global.f32 	[%rd5], %f2;
	ret;
$L_full:
	ld.global.f32 	%f1, [%rd4];
	st.global.f32 	[%rd5], %f1;
	ret;
}

//--- one.mlir
kproof.contract @one {kernel = "lse", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [{name = "x", buffer = "in", type = f32, shape = array<i64: 1>},
            {name = "y", buffer = "out", type = f32, shape = array<i64: 1>},
            {name = "n", scalar = i32}],
  spec = {reference = "ref_lse", file = "kernel.ptx", output = "y"}}

//--- multi.mlir
kproof.contract @multi {kernel = "lse", grid = array<i64: 1, 1, 1>, block = array<i64: 2, 1, 1>,
  params = [{name = "x", buffer = "in", type = f32, shape = array<i64: 2>},
            {name = "y", buffer = "out", type = f32, shape = array<i64: 2>},
            {name = "n", scalar = i32}],
  spec = {reference = "ref_lse2", file = "kernel.ptx", output = "y",
          block = array<i64: 2, 1, 1>}}

//--- chain.mlir
kproof.contract @chain {kernel = "lse", grid = array<i64: 1, 1, 1>, block = array<i64: 2, 1, 1>,
  params = [{name = "x", buffer = "in", type = f32, shape = array<i64: 2>},
            {name = "y", buffer = "out", type = f32, shape = array<i64: 2>},
            {name = "n", scalar = i32}],
  spec = {reference = "ref_pair", file = "kernel.ptx", output = "y"}}
