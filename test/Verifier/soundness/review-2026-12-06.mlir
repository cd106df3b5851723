// Regressions (two false PROVEDs found by review, 2026-12-06).
// 1. Known low bits: a shift asks for fewer low bits of its operand; the
//    answer was memoized per term and returned to a later query for more
//    bits. ((u << 1) - u) & 7 with u = (a << 2) | 1 folded to 1 (it is 5
//    for odd a): PROVED against y = 1. The memo is keyed by (term, bits):
//    REFUTED, confirmed by replay.
// 2. A guessed writer of a shared slot (lane 0 of the slot's warp, when no
//    lane condition elects one): lanes >= 16 overwrite the slot in a second
//    phase; lane 0 does not, so its match folded to false and the write was
//    skipped, the read seeing the first phase's x[0]: PROVED against
//    y = x[0]. The write is kept and the obligation asks whether another
//    writer hits the slot where the witness misses: UNKNOWN.
// 3. A spec's x / 256 read as the sum of the addends whose coefficient 256
//    divides, from a form whose "negative" coefficient 2^32 - 256 wraps:
//    (256 a - 256 b + e) / 256 was read as a + 16777215 b (it is a - b), so
//    a kernel storing a + 16777215 b was PROVED. Now only non-negative
//    addends whose upper bounds sum below 2^32: REFUTED; the kernel
//    storing a - b is PROVED.
// RUN: split-file %s %t
// RUN: %expect_exit 1 kproof-opt %t/lowbits.ptx --verify-equiv --contract=%t/lowbits.mlir 2>&1 | FileCheck %s --check-prefix=LOWBITS
// RUN: %expect_exit 3 kproof-opt %t/twophase.ptx --verify-equiv --contract=%t/twophase.mlir 2>&1 | FileCheck %s --check-prefix=SLOT
// RUN: %expect_exit 1 kproof-opt %t/negk.ptx --verify-equiv --contract=%t/negk.mlir 2>&1 | FileCheck %s --check-prefix=NEGK
// RUN: sed 's/mul.lo.s32 %%r4, %%r2, 16777215;/neg.s32 %%r4, %%r2;/' %t/negk.ptx > %t/negk_ok.ptx
// RUN: kproof-opt %t/negk_ok.ptx --verify-equiv --contract=%t/negk.mlir 2>&1 | FileCheck %s --check-prefix=NEGKOK
// NEGK: Replay: confirmed by replay (IEEE i32): kernel y[{{[0-9]+}}] = 16777221, spec = 5
// NEGK: {{^}}REFUTED
// NEGKOK: {{^}}PROVED
// LOWBITS: Replay: confirmed by replay (IEEE f32): kernel y[{{[0-9]+}}] = 5, spec = 1
// LOWBITS: {{^}}REFUTED
// SLOT-NOT: PROVED
// SLOT: UNKNOWN: the writer of the shared read of 'twophase.slot' is unique or writes the same value
// SLOT-NOT: PROVED

//--- lowbits.ptx
.version 9.0
.target sm_80
.address_size 64

.visible .entry lowbits(
	.param .u64 lowbits_param_0,
	.param .u64 lowbits_param_1
)
{
	.reg .b32 %r<12>;
	.reg .f32 %f<3>;
	.reg .b64 %rd<8>;

	ld.param.u64 %rd1, [lowbits_param_0];
	ld.param.u64 %rd2, [lowbits_param_1];
	cvta.to.global.u64 %rd3, %rd1;
	cvta.to.global.u64 %rd6, %rd2;
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd4, %r1, 4;
	add.s64 %rd5, %rd3, %rd4;
	ld.global.u32 %r2, [%rd5];
	shl.b32 %r3, %r2, 2;
	or.b32 %r4, %r3, 1;
	shl.b32 %r5, %r4, 1;
	sub.s32 %r6, %r5, %r4;
	and.b32 %r7, %r6, 7;
	cvt.rn.f32.u32 %f1, %r7;
	add.s64 %rd7, %rd6, %rd4;
	st.global.f32 [%rd7], %f1;
	ret;
}
//--- lowbits.mlir
func.func @one(%a: tensor<32xi32>) -> tensor<32xf32> {
  %c = arith.constant 1.0 : f32
  %s = tensor.splat %c : tensor<32xf32>
  return %s : tensor<32xf32>
}
kproof.contract @c {
  kernel = "lowbits", grid = array<i64: 1, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "a", buffer = "in", space = "global", type = i32, shape = array<i64: 32>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 32>}
  ],
  spec = {func = @one, inputs = ["a"], output = "y"}
}
//--- twophase.ptx
.version 9.0
.target sm_80
.address_size 64

.visible .entry twophase(
	.param .u64 twophase_param_0,
	.param .u64 twophase_param_1
)
{
	.reg .pred %p<4>;
	.reg .f32 %f<5>;
	.reg .b32 %r<10>;
	.reg .b64 %rd<8>;
	.shared .align 4 .b8 slot[8];

	ld.param.u64 %rd1, [twophase_param_0];
	ld.param.u64 %rd2, [twophase_param_1];
	cvta.to.global.u64 %rd3, %rd1;
	cvta.to.global.u64 %rd6, %rd2;
	mov.u32 %r1, %tid.x;
	ld.global.f32 %f1, [%rd3];
	ld.global.f32 %f2, [%rd3+4];
	shr.u32 %r2, %r1, 3;
	and.b32 %r3, %r2, 536870908;
	mov.u32 %r4, slot;
	add.s32 %r5, %r4, %r3;
	st.shared.f32 [%r5], %f1;
	bar.sync 0;
	and.b32 %r6, %r1, 31;
	setp.lt.u32 %p1, %r6, 16;
	@%p1 bra $L1;
	st.shared.f32 [%r5], %f2;
$L1:
	bar.sync 0;
	ld.shared.f32 %f3, [%r5];
	mul.wide.u32 %rd4, %r1, 4;
	add.s64 %rd7, %rd6, %rd4;
	st.global.f32 [%rd7], %f3;
	ret;
}
//--- twophase.mlir
func.func @bcast(%x: tensor<2xf32>) -> tensor<64xf32> {
  %c0 = arith.constant 0 : index
  %v = tensor.extract %x[%c0] : tensor<2xf32>
  %s = tensor.splat %v : tensor<64xf32>
  return %s : tensor<64xf32>
}
kproof.contract @c {
  kernel = "twophase", grid = array<i64: 1, 1, 1>, block = array<i64: 64, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 2>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 64>}
  ],
  tolerate_equal_writes = true,
  spec = {func = @bcast, inputs = ["x"], output = "y"}
}
//--- negk.ptx
.version 9.0
.target sm_80
.address_size 64

.visible .entry negk(
	.param .u64 negk_param_0,
	.param .u64 negk_param_1,
	.param .u32 negk_param_2,
	.param .u32 negk_param_3
)
{
	.reg .b32 %r<12>;
	.reg .b64 %rd<8>;

	ld.param.u64 %rd1, [negk_param_0];
	ld.param.u32 %r1, [negk_param_2];
	ld.param.u32 %r2, [negk_param_3];
	cvta.to.global.u64 %rd3, %rd1;
	mov.u32 %r3, %tid.x;
	mul.lo.s32 %r4, %r2, 16777215;
	add.s32 %r5, %r1, %r4;
	mul.wide.u32 %rd4, %r3, 4;
	add.s64 %rd5, %rd3, %rd4;
	st.global.u32 [%rd5], %r5;
	ret;
}
//--- negk.mlir
func.func @f(%x: tensor<1xi32>, %a: i32, %b: i32) -> tensor<32xi32> {
  %c0 = arith.constant 0 : index
  %x0 = tensor.extract %x[%c0] : tensor<1xi32>
  %c3 = arith.constant 3 : i32
  %e = arith.andi %x0, %c3 : i32
  %c256 = arith.constant 256 : i32
  %u = arith.muli %a, %c256 : i32
  %v = arith.muli %b, %c256 : i32
  %z0 = arith.subi %u, %v : i32
  %z = arith.addi %z0, %e : i32
  %q = arith.divui %z, %c256 : i32
  %s = tensor.splat %q : tensor<32xi32>
  return %s : tensor<32xi32>
}
kproof.contract @c {
  kernel = "negk", grid = array<i64: 1, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "y", buffer = "out", space = "global", type = i32, shape = array<i64: 32>},
    {name = "x", buffer = "in", space = "global", type = i32, shape = array<i64: 1>},
    {name = "a", scalar = i32, range = array<i64: 4, 8>},
    {name = "b", scalar = i32, range = array<i64: 1, 2>}
  ],
  spec = {func = @f, inputs = ["x", "a", "b"], output = "y"}
}
