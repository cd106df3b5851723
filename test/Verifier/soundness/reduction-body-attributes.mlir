// Regression (a false PROVED found by review, 2026-12-06): reduction bodies
// compared up to their element indices (for nonlinear bodies) matched an
// unsigned and a signed integer-to-float conversion of the same element
// (`cvt.rn.f32.u32` vs the spec's `sitofp`), so a weighted varlen sum
// with a negative weight was PROVED. Nodes now match only with every
// attribute equal. The signed kernel PROVES; the unsigned one is REFUTED,
// confirmed by replay.
// RUN: split-file %s %t
// RUN: kproof-opt %t/wsum.ptx --verify-equiv --contract=%t/c.mlir | FileCheck %s --check-prefix=SIGNED
// RUN: sed 's/cvt.rn.f32.s32/cvt.rn.f32.u32/' %t/wsum.ptx > %t/wsum_u.ptx
// RUN: %expect_exit 1 kproof-opt %t/wsum_u.ptx --verify-equiv --contract=%t/c.mlir 2>&1 | FileCheck %s --check-prefix=UNSIGNED
// SIGNED: {{^}}PROVED
// UNSIGNED-NOT: {{^}}PROVED
// UNSIGNED: Replay: confirmed by replay
// UNSIGNED: {{^}}REFUTED

//--- c.mlir
func.func @spec(%x: tensor<?xf32>, %cu: tensor<9xi32>, %k: tensor<?xi32>, %total: i32) -> tensor<8xf32> {
  %z = arith.constant 0.0 : f32
  %c1 = arith.constant 1 : index
  %e = tensor.empty() : tensor<8xf32>
  %init = linalg.fill ins(%z : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, i) -> (i)>, affine_map<(b, i) -> (i)>, affine_map<(b, i) -> (b)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x, %k : tensor<?xf32>, tensor<?xi32>) outs(%init : tensor<8xf32>) {
  ^bb0(%v: f32, %kv: i32, %acc: f32):
    %b = linalg.index 0 : index
    %i = linalg.index 1 : index
    %b1 = arith.addi %b, %c1 : index
    %lo = tensor.extract %cu[%b] : tensor<9xi32>
    %hi = tensor.extract %cu[%b1] : tensor<9xi32>
    %ii = arith.index_cast %i : index to i32
    %ge = arith.cmpi sge, %ii, %lo : i32
    %lt = arith.cmpi slt, %ii, %hi : i32
    %in = arith.andi %ge, %lt : i1
    %kf = arith.sitofp %kv : i32 to f32
    %sq = arith.mulf %v, %kf : f32
    %t = arith.select %in, %sq, %z : f32
    %s = arith.addf %acc, %t : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}
kproof.contract @c {kernel = "wsum",
  grid = array<i64: 8, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = ["total"]},
            {name = "cu_seqlens", buffer = "in", space = "global", type = i32, shape = array<i64: 9>, range = array<i64: 0, 1048577>, at_most = "total"},
            {name = "k", buffer = "in", space = "global", type = i32, shape = ["total"], range = array<i64: -10, 10>},
            {name = "out", buffer = "out", space = "global", type = f32, shape = array<i64: 8>},
            {name = "total", scalar = i32, range = array<i64: 1, 1048577>}],
  spec = {func = @spec, inputs = ["x", "cu_seqlens", "k", "total"], output = "out"}, mode = "reals"}
//--- wsum.ptx
.version 9.0
.target sm_80
.address_size 64

.visible .entry wsum(
	.param .u64 wsum_param_0,
	.param .u64 wsum_param_1,
	.param .u64 wsum_param_2,
	.param .u64 wsum_param_3,
	.param .u32 wsum_param_4
)
{
	.reg .pred 	%p<3>;
	.reg .f32 	%f<12>;
	.reg .b32 	%r<9>;
	.reg .b64 	%rd<24>;

	ld.param.u64 	%rd5, [wsum_param_0];
	ld.param.u64 	%rd7, [wsum_param_1];
	ld.param.u64 	%rd20, [wsum_param_2];
	ld.param.u64 	%rd6, [wsum_param_3];
	mov.u32 	%r5, %ctaid.x;
	cvt.s64.s32 	%rd1, %r5;
	cvta.to.global.u64 	%rd8, %rd7;
	mul.wide.s32 	%rd9, %r5, 4;
	add.s64 	%rd10, %rd8, %rd9;
	ld.global.nc.u32 	%r6, [%rd10];
	ld.global.nc.u32 	%r2, [%rd10+4];
	setp.ge.s32 	%p1, %r6, %r2;
	mov.f32 	%f8, 0f00000000;
	@%p1 bra 	$L__BB0_3;
	cvta.to.global.u64 	%rd11, %rd5;
	cvta.to.global.u64 	%rd21, %rd20;
	mul.wide.s32 	%rd12, %r6, 4;
	add.s64 	%rd16, %rd11, %rd12;
	add.s64 	%rd22, %rd21, %rd12;
	mov.f32 	%f8, 0f00000000;
$L__BB0_2:
	ld.global.nc.f32 	%f6, [%rd16];
	ld.global.nc.u32 	%r7, [%rd22];
	cvt.rn.f32.s32 	%f7, %r7;
	mul.f32 	%f9, %f6, %f7;
	add.f32 	%f8, %f8, %f9;
	add.s64 	%rd16, %rd16, 4;
	add.s64 	%rd22, %rd22, 4;
	add.s32 	%r6, %r6, 1;
	setp.lt.s32 	%p2, %r6, %r2;
	@%p2 bra 	$L__BB0_2;
$L__BB0_3:
	cvta.to.global.u64 	%rd13, %rd6;
	shl.b64 	%rd14, %rd1, 2;
	add.s64 	%rd15, %rd13, %rd14;
	st.global.f32 	[%rd15], %f8;
	ret;
}
