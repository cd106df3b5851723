// KNOWN FALSE PROVED (found 2026-12-06 by review; present since loop
// summaries of running maxima): a max over a loop that may run zero times
// (n = 0 is in the contract's range) is -inf, but the summary's MaxOver
// term is treated as a finite atom by the arithmetic folds, so m - m
// normalizes to 0 and y = x + (m - m) is PROVED equal to x, while the
// kernel writes NaN at n = 0 (kproof-run --launch=n=0 shows it). The fix:
// a max/min over a range not provably non-empty is ite(lo < hi, R, -inf)
// (an extended value, Term.h). This test expects the correct verdict (not
// PROVED) and is marked XFAIL until then; when it passes, remove XFAIL.
// XFAIL: *
// RUN: split-file %s %t
// RUN: kproof-opt %t/k.ptx --verify-equiv --contract=%t/c.mlir 2>&1 | FileCheck %s
// CHECK-NOT: {{^}}PROVED
// CHECK: {{^}}{{REFUTED|UNKNOWN}}

//--- c.mlir
kproof.contract @c {
  kernel = "k", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 1>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 1>},
    {name = "n", scalar = i32, range = array<i64: 0, 9>}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}
//--- k.ptx
.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 x, .param .u64 y, .param .u32 n)
{
	.reg .f32 	%f<20>;
	.reg .b64 	%rd<8>;
	.reg .b32 	%r<8>;
	.reg .pred 	%p<4>;
	ld.param.u64 	%rd1, [x];
	ld.param.u64 	%rd2, [y];
	ld.param.u32 	%r1, [n];
	ld.global.f32 	%f1, [%rd1];
	mov.f32 %f2, 0fFF800000;
	mov.u32 %r2, 0;
HEAD:
	setp.ge.s32 %p1, %r2, %r1;
	@%p1 bra DONE;
	ld.global.f32 %f3, [%rd1];
	max.f32 %f2, %f2, %f3;
	add.s32 %r2, %r2, 1;
	bra HEAD;
DONE:
	sub.f32 %f4, %f2, %f2;
	add.f32 %f9, %f1, %f4;
	st.global.f32 	[%rd2], %f9;
	ret;
}
