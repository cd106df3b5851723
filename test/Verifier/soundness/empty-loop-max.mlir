// Regression (a false PROVED found 2026-12-06 by review, present since loop
// summaries of running maxima): a max over a loop that may run zero times
// (n = 0 is in the contract's range) is -inf, but the summary's max term
// was a finite atom to the arithmetic folds, so m - m normalized to 0 and
// y = x + (m - m) was PROVED equal to x, while the kernel writes NaN at
// n = 0. A max (min) over a range not known to be non-empty is now
// ite(lo < hi, max, -inf) (an extended value): every form below is REFUTED
// at n = 0, confirmed by replay. Also 0 * m (0 * -inf), x * ex2(m) / ex2(m)
// (a zero divisor), max(m, -m) - max(m, -m) (inf - inf), and the same
// shape in a spec (a linalg max over a masked range that is empty for
// b = 0, then m - m). A correct use (m < +inf selects x) stays PROVED.
// RUN: split-file %s %t
// RUN: %expect_exit 1 kproof-opt %t/k.ptx --verify-equiv --contract=%t/c.mlir 2>&1 | FileCheck %s --check-prefix=NAN
// RUN: sed 's/sub.f32 %%f4, %%f2, %%f2;/mul.f32 %%f4, %%f2, 0f00000000;/' %t/k.ptx > %t/mul0.ptx
// RUN: %expect_exit 1 kproof-opt %t/mul0.ptx --verify-equiv --contract=%t/c.mlir 2>&1 | FileCheck %s --check-prefix=NAN
// RUN: sed 's/sub.f32 %%f4, %%f2, %%f2;/neg.f32 %%f5, %%f2; max.f32 %%f6, %%f2, %%f5; sub.f32 %%f4, %%f6, %%f6;/' %t/k.ptx > %t/infinf.ptx
// RUN: %expect_exit 1 kproof-opt %t/infinf.ptx --verify-equiv --contract=%t/c.mlir 2>&1 | FileCheck %s --check-prefix=NAN
// RUN: sed 's/sub.f32 %%f4, %%f2, %%f2;/ex2.approx.f32 %%f5, %%f2; mul.f32 %%f6, %%f1, %%f5; div.rn.f32 %%f4, %%f6, %%f5; sub.f32 %%f1, %%f1, %%f1;/' %t/k.ptx > %t/div.ptx
// RUN: %expect_exit 1 kproof-opt %t/div.ptx --verify-equiv --contract=%t/c.mlir 2>&1 | FileCheck %s --check-prefix=DIV
// RUN: sed 's/sub.f32 %%f4, %%f2, %%f2;/setp.lt.f32 %%p2, %%f2, 0f7F800000; selp.f32 %%f4, 0f00000000, %%f2, %%p2;/' %t/k.ptx > %t/ok.ptx
// RUN: kproof-opt %t/ok.ptx --verify-equiv --contract=%t/c.mlir | FileCheck %s --check-prefix=OK
// RUN: %expect_exit 1 kproof-opt %t/zero.ptx --verify-equiv --contract=%t/spec.mlir 2>&1 | FileCheck %s --check-prefix=SPEC
// A second review: the loop bound n + 1 wraps to INT_MIN at n = INT_MAX (the
// loop then runs zero times); the bounds of a narrow add must not assume it
// does not wrap.
// RUN: sed 's/mov.u32 %%r2, 0;/mov.u32 %%r2, 0; add.s32 %%r3, %%r1, 1;/; s/setp.ge.s32 %%p1, %%r2, %%r1;/setp.ge.s32 %%p1, %%r2, %%r3;/' %t/k.ptx > %t/wrap.ptx
// RUN: sed 's/array<i64: 0, 9>/array<i64: 0, 2147483648>/' %t/c.mlir > %t/cwrap.mlir
// RUN: %expect_exit 3 kproof-opt %t/wrap.ptx --verify-equiv --contract=%t/cwrap.mlir 2>&1 | FileCheck %s --check-prefix=WRAP
// WRAP-NOT: {{^}}PROVED
// WRAP: {{^}}UNKNOWN
// NAN-NOT: PROVED
// NAN: REFUTED: value y[0]
// NAN: n = 0
// NAN: Kernel value: [nan, nan]
// NAN: Replay: confirmed by replay (IEEE f32): kernel y[0] = nan
// NAN: {{^}}REFUTED
// DIV: REFUTED: non-zero divisor of div
// DIV: n = 0
// DIV: {{^}}REFUTED
// OK: {{^}}PROVED
// SPEC: REFUTED: value y[i]
// SPEC: ctaid.x = 0
// SPEC: Spec value:   [nan, nan]
// SPEC: Replay: confirmed by replay
// SPEC: {{^}}REFUTED

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
//--- spec.mlir
func.func @s(%x: tensor<?xf32>, %total: i32) -> tensor<8xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e1 = tensor.empty() : tensor<8xf32>
  %minit = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<8xf32>) -> tensor<8xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(b, i) -> (i)>, affine_map<(b, i) -> (b)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<?xf32>) outs(%minit : tensor<8xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %b = linalg.index 0 : index
    %i = linalg.index 1 : index
    %bb = arith.index_cast %b : index to i32
    %ii = arith.index_cast %i : index to i32
    %vis = arith.cmpi slt, %ii, %bb : i32
    %t = arith.select %vis, %v, %ninf : f32
    %r = arith.maximumf %acc, %t : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %e2 = tensor.empty() : tensor<8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(b) -> (b)>, affine_map<(b) -> (b)>],
                       iterator_types = ["parallel"]}
      ins(%m : tensor<8xf32>) outs(%e2 : tensor<8xf32>) {
  ^bb0(%mi: f32, %o: f32):
    %d = arith.subf %mi, %mi : f32
    linalg.yield %d : f32
  } -> tensor<8xf32>
  return %y : tensor<8xf32>
}
kproof.contract @c {kernel = "k",
  grid = array<i64: 8, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = ["total"]},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 8>},
            {name = "total", scalar = i32, range = array<i64: 8, 1048577>}],
  spec = {func = @s, inputs = ["x", "total"], output = "y"}, mode = "reals"}
//--- zero.ptx
.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 x, .param .u64 y, .param .u32 total)
{
	.reg .f32 	%f<20>;
	.reg .b64 	%rd<8>;
	.reg .b32 	%r<8>;
	ld.param.u64 	%rd2, [y];
	mov.u32 %r1, %ctaid.x;
	mul.wide.u32 %rd3, %r1, 4;
	add.s64 %rd5, %rd2, %rd3;
	mov.f32 %f1, 0f00000000;
	st.global.f32 	[%rd5], %f1;
	ret;
}
