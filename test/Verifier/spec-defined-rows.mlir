// The spec must be defined wherever it is compared: y = (x * s) / s divides
// by s, which the contract does not keep away from 0, so no kernel can be
// PROVED against it (spec defined: UNKNOWN). Two ways this once slipped:
// a thread's row of stores tried as one store at a column k (the attempt
// fails on this very obligation and is undone; the stores one by one must
// still ask it), and a divisor asked on one path of a branch (s > 0) and
// not again on the other (s <= 0), which made the verdict depend on the
// order of the paths.
// RUN: split-file %s %t
// RUN: %expect_exit 3 kproof-opt %t/row.ptx --verify-equiv --contract=%t/row.mlir | FileCheck %s
// RUN: %expect_exit 3 kproof-opt %t/branch-gt.ptx --verify-equiv --contract=%t/one.mlir | FileCheck %s
// RUN: sed 's/setp.gt.f32/setp.le.f32/' %t/branch-gt.ptx > %t/branch-le.ptx
// RUN: %expect_exit 3 kproof-opt %t/branch-le.ptx --verify-equiv --contract=%t/one.mlir | FileCheck %s
// CHECK: UNKNOWN: spec defined (y[i]) -- the spec may divide by zero: (select s (zext 64 tid.x))
// CHECK: {{^}}UNKNOWN

//--- row.ptx
.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 x, .param .u64 s, .param .u64 y)
{
 .reg .f32 %f<200>;
 .reg .b64 %rd<20>;
 .reg .b32 %r<10>;
 ld.param.u64 %rd1, [x];
 ld.param.u64 %rd3, [y];
 cvta.to.global.u64 %rd1, %rd1;
 cvta.to.global.u64 %rd3, %rd3;
 mov.u32 %r1, %tid.x;
 mul.wide.u32 %rd6, %r1, 16;
 add.s64 %rd7, %rd1, %rd6;
 add.s64 %rd8, %rd3, %rd6;
 ld.global.f32 %f10, [%rd7+0];
 st.global.f32 [%rd8+0], %f10;
 ld.global.f32 %f11, [%rd7+4];
 st.global.f32 [%rd8+4], %f11;
 ld.global.f32 %f12, [%rd7+8];
 st.global.f32 [%rd8+8], %f12;
 ld.global.f32 %f13, [%rd7+12];
 st.global.f32 [%rd8+12], %f13;
 ret;
}
//--- row.mlir
func.func @f(%x: tensor<4x4xf32>, %s: tensor<4xf32>) -> tensor<4x4xf32> {
  %e = tensor.empty() : tensor<4x4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<4x4xf32>, tensor<4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%v: f32, %si: f32, %o: f32):
    %m = arith.mulf %v, %si : f32
    %p = arith.divf %m, %si : f32
    linalg.yield %p : f32
  } -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}
kproof.contract @c {
  kernel = "k", grid = array<i64: 1, 1, 1>, block = array<i64: 4, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4, 4>},
    {name = "s", buffer = "in", space = "global", type = f32, shape = array<i64: 4>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 4, 4>}
  ],
  spec = {func = @f, inputs = ["x", "s"], output = "y"}
}
//--- branch-gt.ptx
.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 x, .param .u64 s, .param .u64 y)
{
 .reg .pred %p<4>;
 .reg .f32 %f<200>;
 .reg .b64 %rd<20>;
 .reg .b32 %r<10>;
 ld.param.u64 %rd1, [x];
 ld.param.u64 %rd2, [s];
 ld.param.u64 %rd3, [y];
 cvta.to.global.u64 %rd1, %rd1;
 cvta.to.global.u64 %rd2, %rd2;
 cvta.to.global.u64 %rd3, %rd3;
 mov.u32 %r1, %tid.x;
 mul.wide.u32 %rd4, %r1, 4;
 add.s64 %rd5, %rd2, %rd4;
 ld.global.f32 %f1, [%rd5];
 add.s64 %rd7, %rd1, %rd4;
 add.s64 %rd8, %rd3, %rd4;
 ld.global.f32 %f2, [%rd7];
 setp.gt.f32 %p1, %f1, 0f00000000;
 @%p1 bra OTHER;
 st.global.f32 [%rd8], %f2;
 ret;
OTHER:
 add.f32 %f3, %f2, 0f00000000;
 st.global.f32 [%rd8], %f3;
 ret;
}
//--- one.mlir
func.func @f(%x: tensor<4x1xf32>, %s: tensor<4xf32>) -> tensor<4x1xf32> {
  %e = tensor.empty() : tensor<4x1xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<4x1xf32>, tensor<4xf32>) outs(%e : tensor<4x1xf32>) {
  ^bb0(%v: f32, %si: f32, %o: f32):
    %m = arith.mulf %v, %si : f32
    %p = arith.divf %m, %si : f32
    linalg.yield %p : f32
  } -> tensor<4x1xf32>
  return %y : tensor<4x1xf32>
}
kproof.contract @c {
  kernel = "k", grid = array<i64: 1, 1, 1>, block = array<i64: 4, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4, 1>},
    {name = "s", buffer = "in", space = "global", type = f32, shape = array<i64: 4>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 4, 1>}
  ],
  spec = {func = @f, inputs = ["x", "s"], output = "y"}
}
