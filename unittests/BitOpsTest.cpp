//===- BitOpsTest.cpp - the executor's bit and saturating instructions ----===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// lop3, shf, bfe with a symbolic field, clz, brev, prmt with a mode and a
// register selector, add.sat, mul24.hi and a saturating cvt, each applied
// to the symbolic tid.x and evaluated at concrete threads against the PTX
// ISA's definition written out here (the differential harness,
// kproof-difftest, compares them with the interpreter over random
// programs).
//
//===----------------------------------------------------------------------===//

#include "ExecutorFixture.h"

#include "KProof/Verifier/Terms/Evaluate.h"

using namespace mlir;
using namespace ::kproof;
using namespace ::kproof::engine;

namespace {

using BitOpsTest = ::kproof::testing::ExecutorFixture;

uint32_t rotl(uint32_t v, unsigned n) { return (v << n) | (v >> (32 - n)); }

uint32_t brev(uint32_t v) {
  uint32_t r = 0;
  for (unsigned i = 0; i < 32; ++i)
    r |= ((v >> i) & 1u) << (31 - i);
  return r;
}

/// Thread t of 4 stores y[8t + k], k = 0..7, each an unsigned 32-bit result
/// converted to f32 (exactly: every value below 2^24 or checked by bits).
TEST_F(BitOpsTest, SymbolicOperandsMatchTheIsaDefinitions) {
  const char *src = R"mlir(
    kproof.kernel entry @k(%x: i64, %y: i64) {
      %t = kproof.sreg tid.x : i32
      %c5 = kproof.constant 5 : i32
      %c7 = kproof.constant 7 : i32
      %c16 = kproof.constant 16 : i32
      %m1 = kproof.constant 16711935 : i32
      %m2 = kproof.constant 252645135 : i32
      %k1 = kproof.constant 287454020 : i32
      %big = kproof.constant 2147483632 : i32
      %w = kproof.constant 74565 : i32
      %f = kproof.constant 8388607 : i32
      %v0 = kproof.lop3 %t, %m1, %m2 {lut = 150 : i32} : i32
      %v1 = kproof.shf %t, %t, %c5 {left} : i32
      %pos = kproof.ibin and %t, %c7 : i32
      %v2 = kproof.bfe %k1, %pos, %c5 : i32
      %v3 = kproof.iunary clz %t : i32 -> i32
      %v4 = kproof.iunary brev %t : i32 -> i32
      %v5 = kproof.prmt %k1, %t, %t {mode = "rc16"} : i32
      %v6 = kproof.ibin add %big, %t {is_signed, sat} : i32
      %tw = kproof.ibin mul_lo %t, %w : i32
      %v7 = kproof.ibin mul24_hi %tw, %f : i32
      %t64 = kproof.cvt %t : i32 -> i64
      %row = kproof.shift shl %t64, %c5 : i64
      %base = kproof.ibin add %y, %row : i64
      %r0 = kproof.cvt %v0 mode rn : i32 -> f32
      %r1 = kproof.cvt %v1 mode rn : i32 -> f32
      %r2 = kproof.cvt %v2 mode rn : i32 -> f32
      %r3 = kproof.cvt %v3 mode rn : i32 -> f32
      %r4 = kproof.cvt %v4 mode rn : i32 -> f32
      %r5 = kproof.cvt %v5 mode rn : i32 -> f32
      %r6 = kproof.cvt %v6 mode rn : i32 -> f32
      %r7 = kproof.cvt %v7 mode rn : i32 -> f32
      kproof.st global %base, %r0 : i64, f32
      kproof.st global %base, %r1 {offset = 4 : i64} : i64, f32
      kproof.st global %base, %r2 {offset = 8 : i64} : i64, f32
      kproof.st global %base, %r3 {offset = 12 : i64} : i64, f32
      kproof.st global %base, %r4 {offset = 16 : i64} : i64, f32
      kproof.st global %base, %r5 {offset = 20 : i64} : i64, f32
      kproof.st global %base, %r6 {offset = 24 : i64} : i64, f32
      kproof.st global %base, %r7 {offset = 28 : i64} : i64, f32
      kproof.return
    })mlir";
  ExecutionResult r = run(src, 4);
  ASSERT_TRUE(r.unknownReason.empty()) << r.unknownReason;
  ASSERT_EQ(r.paths.size(), 1u);
  const std::vector<SymbolicStore> &stores = r.paths[0].symbolicStores;
  ASSERT_EQ(stores.size(), 8u);
  for (uint32_t t = 0; t < 4; ++t) {
    uint32_t k1 = 287454020; // 0x11223344
    uint32_t pos = t & 7;
    uint64_t tw = uint64_t(t) * 74565 & 0xffffff;
    uint32_t want[8] = {
        t ^ 16711935u ^ 252645135u,
        rotl(t, 5),
        (k1 >> pos) & 31u,
        t ? uint32_t(__builtin_clz(t)) : 32u,
        brev(t),
        // rc16, selector t: t & 3 picks the row {0,1,0,1}, {2,3,2,3}, ...
        (t & 1) ? ((k1 >> 16) | (k1 & 0xffff0000u)) : ((k1 & 0xffff) | (k1 << 16)),
        uint32_t(std::min<int64_t>(int64_t(2147483632) + t, 2147483647)),
        uint32_t((tw * 8388607ull) >> 16),
    };
    Assignment a;
    a.bitvectors["tid.x"] = llvm::APInt(32, t);
    Evaluator ev(a);
    for (unsigned k = 0; k < 8; ++k) {
      std::optional<Interval> v = ev.real(stores[k].value);
      ASSERT_TRUE(v) << "t=" << t << " k=" << k << ": " << ev.getError();
      EXPECT_TRUE(v->contains(Rational(int64_t(want[k]))))
          << "t=" << t << " k=" << k << ": " << v->toString(12) << ", want "
          << want[k];
    }
  }
}

/// cvt.sat.u16.s32 clamps the signed source to [0, 65535] (PTX ISA
/// 9.7.9.21); bfe.s32 with a field reaching past the msb replicates a's
/// sign.
TEST_F(BitOpsTest, SaturatingConversionAndSignedFieldExtract) {
  const char *src = R"mlir(
    kproof.kernel entry @k(%x: i64, %y: i64) {
      %t = kproof.sreg tid.x : i32
      %c2 = kproof.constant 2 : i32
      %c30 = kproof.constant 30 : i32
      %c9 = kproof.constant 9 : i32
      %k = kproof.constant 70000 : i32
      %d = kproof.ibin sub %t, %c2 : i32
      %s = kproof.ibin mul_lo %d, %k : i32
      %h = kproof.cvt %s {src_signed, sat} : i32 -> i16
      %u = kproof.cvt %h : i16 -> i32
      %n = kproof.ibin sub %c2, %t : i32
      %e = kproof.bfe %n, %c30, %c9 {is_signed} : i32
      %r0 = kproof.cvt %u mode rn : i32 -> f32
      %r1 = kproof.cvt %e mode rn {src_signed} : i32 -> f32
      %c3 = kproof.constant 3 : i32
      %t64 = kproof.cvt %t : i32 -> i64
      %row = kproof.shift shl %t64, %c3 : i64
      %base = kproof.ibin add %y, %row : i64
      kproof.st global %base, %r0 : i64, f32
      kproof.st global %base, %r1 {offset = 4 : i64} : i64, f32
      kproof.return
    })mlir";
  ExecutionResult r = run(src, 4);
  ASSERT_TRUE(r.unknownReason.empty()) << r.unknownReason;
  const std::vector<SymbolicStore> &stores = r.paths.at(0).symbolicStores;
  ASSERT_EQ(stores.size(), 2u);
  for (int64_t t = 0; t < 4; ++t) {
    int64_t s = (t - 2) * 70000;
    int64_t sat = std::min<int64_t>(std::max<int64_t>(s, 0), 65535);
    // bits 30.. of (2 - t): bit 30 and bit 31 (then the sign, bit 31).
    int32_t n = int32_t(2 - t);
    int64_t field = n < 0 ? -1 : 0; // bits 30, 31 equal the sign here
    Assignment a;
    a.bitvectors["tid.x"] = llvm::APInt(32, uint64_t(t));
    Evaluator ev(a);
    std::optional<Interval> v0 = ev.real(stores[0].value);
    std::optional<Interval> v1 = ev.real(stores[1].value);
    ASSERT_TRUE(v0 && v1) << ev.getError();
    EXPECT_TRUE(v0->contains(Rational(sat))) << "t=" << t << ": " << v0->toString(8);
    EXPECT_TRUE(v1->contains(Rational(field))) << "t=" << t << ": " << v1->toString(8);
  }
}

} // namespace
