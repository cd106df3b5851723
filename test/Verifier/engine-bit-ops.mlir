// Bit-field and logic instructions with symbolic operands, as nvcc emits
// them in hashing and index code: bfe (PTX ISA 9.7.8.10), lop3 (9.7.8.6)
// and shf (9.7.8.8). Each of 32 threads computes
// y[i] = bfe(x[i], 3, 8) + lop3(x[i], 0x00ff00ff, 0x0f0f0f0f, 0x96)
//        + shf.l.wrap(x[i], x[i], 5)
// (a field, a three-way xor, a rotate by 5), proved equal to the same
// computation in arith over every 32-bit input. The twin rotates by 6:
// REFUTED with the exact integers (x, kernel and spec values).
// RUN: split-file %s %t
// RUN: kproof-opt %t/bitops.ptx --verify-equiv --contract=%t/contract.mlir | FileCheck %s --check-prefix=OK
// RUN: %expect_exit 1 kproof-opt %t/bitops-bug.ptx --verify-equiv --contract=%t/contract.mlir 2>&1 | FileCheck %s --check-prefix=BUG

// OK-NOT: UNKNOWN
// OK: {{^}}PROVED
// BUG: REFUTED: value mismatch at y[{{[0-9]+}}]
// BUG: x[{{[0-9]+}}] = {{-?[0-9]+}}
// BUG: Kernel value: {{-?[0-9]+$}}
// BUG: Spec value: {{ *-?[0-9]+$}}
// BUG: Replay: confirmed by replay (IEEE i32): kernel y[{{[0-9]+}}] = {{-?[0-9]+}}, spec = {{-?[0-9]+}}
// BUG: {{^}}REFUTED

//--- bitops.ptx
.version 8.0
.target sm_80
.address_size 64
.visible .entry bitops(.param .u64 px, .param .u64 py)
{
  .reg .b32 %r<12>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [px];
  ld.param.u64 %rd2, [py];
  cvta.to.global.u64 %rd1, %rd1;
  cvta.to.global.u64 %rd2, %rd2;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  add.s64 %rd5, %rd2, %rd3;
  ld.global.u32 %r2, [%rd4];
  bfe.u32 %r3, %r2, 3, 8;
  lop3.b32 %r4, %r2, 16711935, 252645135, 150;
  shf.l.wrap.b32 %r5, %r2, %r2, 5;
  add.s32 %r6, %r3, %r4;
  add.s32 %r7, %r6, %r5;
  st.global.u32 [%rd5], %r7;
  ret;
}
//--- bitops-bug.ptx
.version 8.0
.target sm_80
.address_size 64
.visible .entry bitops(.param .u64 px, .param .u64 py)
{
  .reg .b32 %r<12>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [px];
  ld.param.u64 %rd2, [py];
  cvta.to.global.u64 %rd1, %rd1;
  cvta.to.global.u64 %rd2, %rd2;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  add.s64 %rd5, %rd2, %rd3;
  ld.global.u32 %r2, [%rd4];
  bfe.u32 %r3, %r2, 3, 8;
  lop3.b32 %r4, %r2, 16711935, 252645135, 150;
  shf.l.wrap.b32 %r5, %r2, %r2, 6;
  add.s32 %r6, %r3, %r4;
  add.s32 %r7, %r6, %r5;
  st.global.u32 [%rd5], %r7;
  ret;
}
//--- contract.mlir
func.func @bits(%x: tensor<32xi32>) -> tensor<32xi32> {
  %e = tensor.empty() : tensor<32xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<32xi32>) outs(%e : tensor<32xi32>) {
  ^bb0(%v: i32, %o: i32):
    %c3 = arith.constant 3 : i32
    %c255 = arith.constant 255 : i32
    %s = arith.shrui %v, %c3 : i32
    %a = arith.andi %s, %c255 : i32
    %k1 = arith.constant 16711935 : i32
    %k2 = arith.constant 252645135 : i32
    %b0 = arith.xori %v, %k1 : i32
    %b = arith.xori %b0, %k2 : i32
    %c5 = arith.constant 5 : i32
    %c27 = arith.constant 27 : i32
    %l = arith.shli %v, %c5 : i32
    %h = arith.shrui %v, %c27 : i32
    %c = arith.ori %l, %h : i32
    %t = arith.addi %a, %b : i32
    %u = arith.addi %t, %c : i32
    linalg.yield %u : i32
  } -> tensor<32xi32>
  return %r : tensor<32xi32>
}
kproof.contract @bits_c {kernel = "bitops",
  grid = array<i64: 1, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = i32, shape = array<i64: 32>},
            {name = "y", buffer = "out", space = "global", type = i32, shape = array<i64: 32>}],
  spec = {func = @bits, inputs = ["x"], output = "y"}}
