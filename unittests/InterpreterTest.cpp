//===- InterpreterTest.cpp - instruction semantics of the interpreter -----===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Each test runs a small kernel on the interpreter and checks the stored
// bits against the value the PTX ISA gives (section in each test).
//
//===----------------------------------------------------------------------===//

#include "KProof/Dialect/KProofDialect.h"
#include "KProof/Interpreter/Harness.h"
#include "KProof/Interpreter/Interpreter.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace ::kproof;
using namespace ::kproof::interp;

namespace {

struct InterpreterTest : ::testing::Test {
  MLIRContext ctx;
  OwningOpRef<ModuleOp> module;
  InterpreterTest() {
    ctx.loadDialect<kproof::KProofDialect, cf::ControlFlowDialect>();
  }

  /// Runs `body` inside `kernel @k(%y: i64)` over `threads` threads of one
  /// CTA; the body stores into y, an output buffer of `n` elements of
  /// `elem`. Returns the run.
  RunResult run(const std::string &body, Type elem, unsigned n,
                unsigned threads = 1, RunOptions opts = {}) {
    std::string src = "kproof.kernel entry @k(%y: i64) {\n" + body +
                      "\n  kproof.return\n}\n";
    module = parseSourceString<ModuleOp>(src, &ctx);
    EXPECT_TRUE(module) << src;
    if (!module)
      return RunResult();
    auto kernel = *module->getOps<kproof::KernelOp>().begin();
    engine::LaunchConfig launch;
    launch.block[0] = threads;
    std::vector<std::optional<engine::BufferBinding>> buffers = {
        engine::BufferBinding{"y", engine::BufferBinding::Role::Out, elem,
                              {int64_t(n)}}};
    return interp::run(kernel, launch, buffers, {"y"}, LaunchInputs(), opts);
  }

  /// The bits of y[i] after running `body`, which defines %r of `type`
  /// and stores nothing (the harness stores %r to y[0]).
  uint64_t eval(const std::string &body, const std::string &type) {
    Type t = type == "f32"   ? Type(Float32Type::get(&ctx))
             : type == "f16" ? Type(Float16Type::get(&ctx))
             : type == "f64" ? Type(Float64Type::get(&ctx))
                             : Type(IntegerType::get(&ctx, std::stoi(type.substr(1))));
    RunResult r = run(body + "\n  kproof.st global %y, %r : i64, " + type, t, 1);
    EXPECT_TRUE(r.error.empty()) << r.error;
    EXPECT_TRUE(r.findings.empty());
    if (r.buffers.empty())
      return ~0ull;
    return r.buffers["y"][0].bits;
  }
};

// PTX ISA 9.7.1.1 (add), 9.7.1.3 (mul): modulo 2^32.
TEST_F(InterpreterTest, IntegerWrapAround) {
  EXPECT_EQ(eval(R"(%a = kproof.constant 2147483647 : i32
    %b = kproof.constant 1 : i32
    %r = kproof.ibin add %a, %b : i32)", "i32"), 0x80000000u);
  EXPECT_EQ(eval(R"(%a = kproof.constant 65536 : i32
    %r = kproof.ibin mul_lo %a, %a : i32)", "i32"), 0u);
  // mul.hi.s32 of -2 and 3: the high half of -6 is all ones.
  EXPECT_EQ(eval(R"(%a = kproof.constant -2 : i32
    %b = kproof.constant 3 : i32
    %r = kproof.ibin mul_hi %a, %b {is_signed} : i32)", "i32"), 0xffffffffu);
  // mul.hi.u32 of 0x80000000 and 4 is 2.
  EXPECT_EQ(eval(R"(%a = kproof.constant -2147483648 : i32
    %b = kproof.constant 4 : i32
    %r = kproof.ibin mul_hi %a, %b : i32)", "i32"), 2u);
  // add.sat.s32 clamps (9.7.1.1).
  EXPECT_EQ(eval(R"(%a = kproof.constant 2147483647 : i32
    %b = kproof.constant 5 : i32
    %r = kproof.ibin add %a, %b {is_signed, sat} : i32)", "i32"), 0x7fffffffu);
  // mul.wide.s32 -1 * -1 = 1 as 64 bits (9.7.1.3).
  EXPECT_EQ(eval(R"(%a = kproof.constant -1 : i32
    %r = kproof.mul_wide %a, %a {is_signed} : i32 -> i64)", "i64"), 1u);
  // div.s32 INT_MIN / -1 wraps; rem.u32 7 % 3.
  EXPECT_EQ(eval(R"(%a = kproof.constant -2147483648 : i32
    %b = kproof.constant -1 : i32
    %r = kproof.ibin div %a, %b {is_signed} : i32)", "i32"), 0x80000000u);
  EXPECT_EQ(eval(R"(%a = kproof.constant 7 : i32
    %b = kproof.constant 3 : i32
    %r = kproof.ibin rem %a, %b : i32)", "i32"), 1u);
}

// PTX ISA 9.7.8.7-8: shift amounts >= the width clamp.
TEST_F(InterpreterTest, ShiftsByWidthOrMore) {
  EXPECT_EQ(eval(R"(%a = kproof.constant 1 : i32
    %n = kproof.constant 32 : i32
    %r = kproof.shift shl %a, %n : i32)", "i32"), 0u);
  EXPECT_EQ(eval(R"(%a = kproof.constant -2147483648 : i32
    %n = kproof.constant 40 : i32
    %r = kproof.shift shr %a, %n : i32)", "i32"), 0u);
  EXPECT_EQ(eval(R"(%a = kproof.constant -2147483648 : i32
    %n = kproof.constant 33 : i32
    %r = kproof.shift shr %a, %n {is_signed} : i32)", "i32"), 0xffffffffu);
  EXPECT_EQ(eval(R"(%a = kproof.constant 1073741824 : i32
    %n = kproof.constant -1 : i32
    %r = kproof.shift shr %a, %n {is_signed} : i32)", "i32"), 0u);
  EXPECT_EQ(eval(R"(%a = kproof.constant 1 : i64
    %n = kproof.constant 63 : i32
    %r = kproof.shift shl %a, %n : i64)", "i64"), 0x8000000000000000ull);
  EXPECT_EQ(eval(R"(%a = kproof.constant 1 : i64
    %n = kproof.constant 64 : i32
    %r = kproof.shift shl %a, %n : i64)", "i64"), 0u);
}

// PTX ISA 9.7.9.21: float -> int rounds as asked, NaN gives 0, out-of-range
// values saturate; .sat clamps integers; int -> float rounds.
TEST_F(InterpreterTest, CvtRoundingAndSaturation) {
  auto f2i = [&](const char *x, const char *mode, bool sgn = true) {
    return eval(std::string("%a = kproof.constant ") + x +
                    " : f32\n    %r = kproof.cvt %a mode " + mode +
                    (sgn ? " {dst_signed}" : "") + " : f32 -> i32",
                "i32");
  };
  EXPECT_EQ(f2i("2.5", "rni"), 2u);   // ties to even
  EXPECT_EQ(f2i("3.5", "rni"), 4u);
  EXPECT_EQ(f2i("-2.75", "rzi"), uint32_t(-2));
  EXPECT_EQ(f2i("-2.25", "rmi"), uint32_t(-3));
  EXPECT_EQ(f2i("2.25", "rpi"), 3u);
  EXPECT_EQ(f2i("0x7FC00000", "rzi"), 0u);            // NaN -> 0
  EXPECT_EQ(f2i("1.0e10", "rzi"), 0x7fffffffu);       // saturates
  EXPECT_EQ(f2i("-1.0e10", "rzi"), 0x80000000u);
  EXPECT_EQ(f2i("-5.0", "rzi", /*sgn=*/false), 0u);   // u32 of a negative
  EXPECT_EQ(f2i("0xFF800000", "rzi"), 0x80000000u);   // -inf
  // cvt.sat.u8.s32: clamps to [0, 255].
  EXPECT_EQ(eval(R"(%a = kproof.constant -5 : i32
    %r = kproof.cvt %a {src_signed, sat} : i32 -> i8)", "i8"), 0u);
  EXPECT_EQ(eval(R"(%a = kproof.constant 300 : i32
    %r = kproof.cvt %a {src_signed, sat} : i32 -> i8)", "i8"), 255u);
  EXPECT_EQ(eval(R"(%a = kproof.constant -300 : i32
    %r = kproof.cvt %a {src_signed, dst_signed, sat} : i32 -> i8)", "i8"),
            0x80u);
  // cvt.s64.s32 sign-extends, cvt.u64.u32 zero-extends.
  EXPECT_EQ(eval(R"(%a = kproof.constant -1 : i32
    %r = kproof.cvt %a {src_signed, dst_signed} : i32 -> i64)", "i64"),
            ~0ull);
  EXPECT_EQ(eval(R"(%a = kproof.constant -1 : i32
    %r = kproof.cvt %a : i32 -> i64)", "i64"), 0xffffffffull);
  // 2^24 + 1 is not an f32: .rn gives 2^24, .rp 2^24 + 2.
  EXPECT_EQ(eval(R"(%a = kproof.constant 16777217 : i32
    %r = kproof.cvt %a mode rn {src_signed} : i32 -> f32)", "f32"),
            0x4B800000u);
  EXPECT_EQ(eval(R"(%a = kproof.constant 16777217 : i32
    %r = kproof.cvt %a mode rp {src_signed} : i32 -> f32)", "f32"),
            0x4B800001u);
  // cvt.sat.f32.f32 clamps to [0, 1]; NaN gives +0.
  EXPECT_EQ(eval(R"(%a = kproof.constant 1.5 : f32
    %r = kproof.cvt %a {sat} : f32 -> f32)", "f32"), 0x3F800000u);
  EXPECT_EQ(eval(R"(%a = kproof.constant 0x7FC00000 : f32
    %r = kproof.cvt %a {sat} : f32 -> f32)", "f32"), 0u);
  // cvt.rn.f16.f32 of 1 + 2^-11 (a tie) rounds to even: 1.0 = 0x3C00;
  // .rp rounds up to 0x3C01.
  EXPECT_EQ(eval(R"(%a = kproof.constant 1.00048828125 : f32
    %r = kproof.cvt %a mode rn : f32 -> f16)", "f16"), 0x3C00u);
  EXPECT_EQ(eval(R"(%a = kproof.constant 1.00048828125 : f32
    %r = kproof.cvt %a mode rp : f32 -> f16)", "f16"), 0x3C01u);
  // cvt.rni.f32.f32: round to an integral value.
  EXPECT_EQ(eval(R"(%a = kproof.constant -0.5 : f32
    %r = kproof.cvt %a mode rni : f32 -> f32)", "f32"), 0x80000000u);
}

// PTX ISA 9.7.3.10-11: min/max return the non-NaN operand, both NaN (or
// .NaN with one) give the canonical NaN 0x7FFFFFFF; -0 < +0.
TEST_F(InterpreterTest, MinMaxWithNaN) {
  EXPECT_EQ(eval(R"(%a = kproof.constant 0x7FC00000 : f32
    %b = kproof.constant 1.0 : f32
    %r = kproof.fbin min %a, %b : f32)", "f32"), 0x3F800000u);
  EXPECT_EQ(eval(R"(%a = kproof.constant 2.0 : f32
    %b = kproof.constant 0x7FC00000 : f32
    %r = kproof.fbin max %a, %b : f32)", "f32"), 0x40000000u);
  EXPECT_EQ(eval(R"(%a = kproof.constant 0x7FC00000 : f32
    %b = kproof.constant 0x7FC00001 : f32
    %r = kproof.fbin max %a, %b : f32)", "f32"), 0x7FFFFFFFu);
  EXPECT_EQ(eval(R"(%a = kproof.constant 0x7FC00000 : f32
    %b = kproof.constant 1.0 : f32
    %r = kproof.fbin min %a, %b {nan} : f32)", "f32"), 0x7FFFFFFFu);
  EXPECT_EQ(eval(R"(%a = kproof.constant 0.0 : f32
    %b = kproof.constant -0.0 : f32
    %r = kproof.fbin min %a, %b : f32)", "f32"), 0x80000000u);
  EXPECT_EQ(eval(R"(%a = kproof.constant -0.0 : f32
    %b = kproof.constant 0.0 : f32
    %r = kproof.fbin max %a, %b : f32)", "f32"), 0u);
  // max(-inf, x) = x, the running max's start.
  EXPECT_EQ(eval(R"(%a = kproof.constant 0xFF800000 : f32
    %b = kproof.constant -3.0 : f32
    %r = kproof.fbin max %a, %b : f32)", "f32"), 0xC0400000u);
}

// Rounding modes and ftz of the float ops (PTX ISA 9.7.3).
TEST_F(InterpreterTest, FloatRoundingAndFtz) {
  // 1 + 2^-24 is a tie: .rn keeps 1, .rp gives the next float.
  EXPECT_EQ(eval(R"(%a = kproof.constant 1.0 : f32
    %b = kproof.constant 5.96046448E-8 : f32
    %r = kproof.fbin add %a, %b mode rn : f32)", "f32"), 0x3F800000u);
  EXPECT_EQ(eval(R"(%a = kproof.constant 1.0 : f32
    %b = kproof.constant 5.96046448E-8 : f32
    %r = kproof.fbin add %a, %b mode rp : f32)", "f32"), 0x3F800001u);
  // div.rz 1/3 truncates; .rn rounds up.
  EXPECT_EQ(eval(R"(%a = kproof.constant 1.0 : f32
    %b = kproof.constant 3.0 : f32
    %r = kproof.fbin div %a, %b mode rz : f32)", "f32"), 0x3EAAAAAAu);
  EXPECT_EQ(eval(R"(%a = kproof.constant 1.0 : f32
    %b = kproof.constant 3.0 : f32
    %r = kproof.fbin div %a, %b mode rn : f32)", "f32"), 0x3EAAAAABu);
  // mul.ftz of a subnormal input gives +0.
  EXPECT_EQ(eval(R"(%a = kproof.constant 0x00000001 : f32
    %b = kproof.constant 1.0 : f32
    %r = kproof.fbin mul %a, %b {ftz} : f32)", "f32"), 0u);
  EXPECT_EQ(eval(R"(%a = kproof.constant 0x00000001 : f32
    %b = kproof.constant 1.0 : f32
    %r = kproof.fbin mul %a, %b : f32)", "f32"), 1u);
  // fma rounds once: fma(1 + 2^-23, 1 - 2^-23, -1) = -2^-46 exactly.
  EXPECT_EQ(eval(R"(%a = kproof.constant 1.00000012 : f32
    %b = kproof.constant 0.99999988 : f32
    %c = kproof.constant -1.0 : f32
    %r = kproof.fma %a, %b, %c mode rn : f32)", "f32"), 0xA8800000u);
  // ex2.approx.ftz.f32 of 3 is 8 (exp2f); sqrt.rn of 2.
  EXPECT_EQ(eval(R"(%a = kproof.constant 3.0 : f32
    %r = kproof.funary ex2 %a mode approx {ftz} : f32)", "f32"), 0x41000000u);
  EXPECT_EQ(eval(R"(%a = kproof.constant 2.0 : f32
    %r = kproof.funary sqrt %a mode rn : f32)", "f32"), 0x3FB504F3u);
  // copysign d, a, b: |b| with the sign of a.
  EXPECT_EQ(eval(R"(%a = kproof.constant -1.0 : f32
    %b = kproof.constant 2.0 : f32
    %r = kproof.fbin copysign %a, %b : f32)", "f32"), 0xC0000000u);
  // setp.geu is true for NaN; setp.ge is not.
  EXPECT_EQ(eval(R"(%a = kproof.constant 0x7FC00000 : f32
    %b = kproof.constant 1.0 : f32
    %p = kproof.cmp geu %a, %b : f32
    %q = kproof.cmp ge %a, %b : f32
    %one = kproof.constant 1 : i32
    %two = kproof.constant 2 : i32
    %zero = kproof.constant 0 : i32
    %x = kproof.selp %p, %one, %zero : i32
    %z = kproof.selp %q, %two, %zero : i32
    %r = kproof.ibin or %x, %z : i32)", "i32"), 1u);
}

// PTX ISA 9.7.7.3: selp.
TEST_F(InterpreterTest, Selp) {
  EXPECT_EQ(eval(R"(%t = kproof.constant true
    %a = kproof.constant 7 : i32
    %b = kproof.constant 9 : i32
    %r = kproof.selp %t, %a, %b : i32)", "i32"), 7u);
  EXPECT_EQ(eval(R"(%t = kproof.constant false
    %a = kproof.constant 7 : i32
    %b = kproof.constant 9 : i32
    %r = kproof.selp %t, %a, %b : i32)", "i32"), 9u);
}

// PTX ISA 9.7.8.9: prmt, generic and every mode, a = 0x33221100 (bytes
// 0-3), b = 0x77665544 (bytes 4-7).
TEST_F(InterpreterTest, PrmtModes) {
  auto prmt = [&](uint32_t c, const char *mode) {
    std::string m = mode[0] ? std::string(" {mode = \"") + mode + "\"}" : "";
    return eval(std::string(R"(%a = kproof.constant 857870592 : i32
    %b = kproof.constant 2003195204 : i32
    %c = kproof.constant )") + std::to_string(int32_t(c)) + R"( : i32
    %r = kproof.prmt %a, %b, %c)" + m + " : i32",
                "i32");
  };
  EXPECT_EQ(prmt(0x3210, ""), 0x33221100u);
  EXPECT_EQ(prmt(0x7654, ""), 0x77665544u);
  EXPECT_EQ(prmt(0x0123, ""), 0x00112233u);
  // Bit 3 of a selector nibble replicates the byte's sign: byte 7 = 0x77
  // (positive) -> 0x00; with a = 0x33221180, selector 8 gives 0xff from
  // byte 0 = 0x80 and the other nibbles (0) copy byte 0.
  EXPECT_EQ(prmt(0x000f, ""), 0x00000000u);
  EXPECT_EQ(prmt(1, "f4e"), 0x44332211u);
  EXPECT_EQ(prmt(0, "b4e"), 0x55667700u);
  EXPECT_EQ(prmt(2, "rc8"), 0x22222222u);
  EXPECT_EQ(prmt(1, "ecl"), 0x33221111u);
  EXPECT_EQ(prmt(2, "ecr"), 0x22221100u);
  EXPECT_EQ(prmt(1, "rc16"), 0x33223322u);
  EXPECT_EQ(eval(R"(%a = kproof.constant 857870720 : i32
    %b = kproof.constant 0 : i32
    %c = kproof.constant 8 : i32
    %r = kproof.prmt %a, %b, %c : i32)", "i32"), 0x808080ffu);
}

// PTX ISA 9.7.8.10: bfe sign-extends the field (.s), with the sign bit from
// a's top when the field runs past it; len 0 gives 0.
TEST_F(InterpreterTest, BfeSignExtension) {
  auto bfe = [&](int64_t a, unsigned pos, unsigned len, bool sgn) {
    return eval("%a = kproof.constant " + std::to_string(int32_t(a)) +
                    " : i32\n    %p = kproof.constant " + std::to_string(pos) +
                    " : i32\n    %l = kproof.constant " + std::to_string(len) +
                    " : i32\n    %r = kproof.bfe %a, %p, %l" +
                    (sgn ? " {is_signed}" : "") + " : i32",
                "i32");
  };
  EXPECT_EQ(bfe(0xF0, 4, 4, true), 0xffffffffu);
  EXPECT_EQ(bfe(0xF0, 4, 4, false), 0xfu);
  EXPECT_EQ(bfe(0x70, 4, 4, true), 0x7u);
  EXPECT_EQ(bfe(0x80000000, 28, 8, true), 0xfffffff8u);
  EXPECT_EQ(bfe(0x80000000, 28, 8, false), 0x8u);
  EXPECT_EQ(bfe(0xF0, 4, 0, true), 0u);
  // pos >= 32: no bits, the sign of a's top bit for .s.
  EXPECT_EQ(bfe(0x80000000, 40, 4, true), 0xffffffffu);
  EXPECT_EQ(bfe(0xF0, 256 + 4, 4, false), 0xfu); // pos is taken mod 256
}

// PTX ISA 9.7.9.6: shfl.sync with out-of-range source lanes and clamp
// values; lane i holds 10 * i.
TEST_F(InterpreterTest, ShflOutOfRangeAndClamp) {
  auto shfl = [&](const char *mode, int b, int c) {
    std::string body = std::string(R"(%lane = kproof.sreg laneid : i32
    %ten = kproof.constant 10 : i32
    %v = kproof.ibin mul_lo %lane, %ten : i32
    %b = kproof.constant )") + std::to_string(b) + R"( : i32
    %c = kproof.constant )" + std::to_string(c) + R"( : i32
    %m = kproof.constant -1 : i32
    %d, %p = kproof.shfl )" + mode + R"( %v, %b, %c, %m : i32
    %k = kproof.constant 1000 : i32
    %z = kproof.constant 0 : i32
    %pk = kproof.selp %p, %k, %z : i32
    %r = kproof.ibin add %d, %pk : i32
    %four = kproof.constant 4 : i32
    %off = kproof.mul_wide %lane, %four : i32 -> i64
    %a = kproof.ibin add %y, %off : i64
    kproof.st global %a, %r : i64, i32)";
    RunResult r = run(body, IntegerType::get(&ctx, 32), 32, 32);
    EXPECT_TRUE(r.error.empty()) << r.error;
    std::vector<uint64_t> out;
    for (const OutputElement &e : r.buffers["y"])
      out.push_back(e.bits);
    return out;
  };
  // down 4, clamp 31: lanes 28..31 are out of range and keep their own
  // value with p = false.
  std::vector<uint64_t> down = shfl("down", 4, 0x1f);
  EXPECT_EQ(down[0], 1000u + 40);
  EXPECT_EQ(down[27], 1000u + 310);
  EXPECT_EQ(down[28], 280u);
  EXPECT_EQ(down[31], 310u);
  // up 1 with c = 0 (maxLane = 0): lane 0 keeps its value.
  std::vector<uint64_t> up = shfl("up", 1, 0);
  EXPECT_EQ(up[0], 0u);
  EXPECT_EQ(up[5], 1000u + 40);
  // bfly 1 with segments of 8 (c = 0x181f... segmask 0x18, clamp 0x1f).
  std::vector<uint64_t> bfly = shfl("bfly", 1, 0x1f);
  EXPECT_EQ(bfly[6], 1000u + 70);
  EXPECT_EQ(bfly[7], 1000u + 60);
  // idx 3 in segments of 8: c = (0x18 << 8) | 0x07 -> lane 13 reads lane
  // 8 + 3 = 11.
  std::vector<uint64_t> idx = shfl("idx", 3, (0x18 << 8) | 0x07);
  EXPECT_EQ(idx[13], 1000u + 110);
  EXPECT_EQ(idx[2], 1000u + 30);
  // idx 40: only b[4:0] counts, so lane 9 reads lane 8.
  std::vector<uint64_t> far = shfl("idx", 40, 0x1f);
  EXPECT_EQ(far[9], 1000u + 80);
}

// A shfl whose membermask leaves out the executing lane is a finding.
TEST_F(InterpreterTest, ShflMembermaskViolation) {
  RunResult r = run(R"(%v = kproof.constant 1 : i32
    %b = kproof.constant 1 : i32
    %c = kproof.constant 31 : i32
    %m = kproof.constant 65535 : i32
    %d, %p = kproof.shfl bfly %v, %b, %c, %m : i32
    kproof.st global %y, %d : i64, i32)",
                    IntegerType::get(&ctx, 32), 1, 32);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].kind, Finding::Kind::Membermask);
}

// vote.sync ballot over a full warp: bit i = (lane i is odd).
TEST_F(InterpreterTest, VoteBallot) {
  RunResult r = run(R"(%lane = kproof.sreg laneid : i32
    %one = kproof.constant 1 : i32
    %bit = kproof.ibin and %lane, %one : i32
    %p = kproof.cmp ne %bit, %one : i32
    %q = kproof.iunary not %p : i1 -> i1
    %m = kproof.constant -1 : i32
    %d = kproof.vote ballot %q, %m -> i32
    %z = kproof.constant 0 : i32
    %is0 = kproof.cmp eq %lane, %z : i32
    cf.cond_br %is0, ^st, ^done
  ^st:
    kproof.st global %y, %d : i64, i32
    cf.br ^done
  ^done:)",
                    IntegerType::get(&ctx, 32), 1, 32);
  EXPECT_TRUE(r.error.empty()) << r.error;
  EXPECT_EQ(r.buffers["y"][0].bits, 0xAAAAAAAAu);
}

// Exact mode: ex2(0f3FB8AA3B * x) is e^x, as the proof engine reads it;
// IEEE mode computes exp2f of the rounded product.
TEST_F(InterpreterTest, ExactModeReadsTheEx2Idiom) {
  std::string body = R"(%x = kproof.constant 1.0 : f32
    %l = kproof.constant 1.44269502 : f32
    %s = kproof.fbin mul %x, %l : f32
    %r = kproof.funary ex2 %s mode approx {ftz} : f32
    kproof.st global %y, %r : i64, f32)";
  RunOptions exact;
  exact.mode = NumericMode::Exact;
  RunResult r = run(body, Float32Type::get(&ctx), 1, 1, exact);
  ASSERT_TRUE(r.error.empty()) << r.error;
  ASSERT_TRUE(r.buffers["y"][0].exact);
  EXPECT_EQ(r.buffers["y"][0].exact->toString(15), "2.71828182845905");
  RunResult i = run(body, Float32Type::get(&ctx), 1);
  EXPECT_EQ(i.buffers["y"][0].bits, 0x402DF854u); // 2.7182817 (f32 e)
}

// An op the interpreter does not execute stops the run with an error
// naming it.
TEST_F(InterpreterTest, OpaqueIsAnError) {
  RunResult r = run(R"(%x = kproof.opaque "mma.sync.aligned.m16n8k16" () {opcode = "mma", tier2} : () -> (i32)
    kproof.st global %y, %x : i64, i32)",
                    IntegerType::get(&ctx, 32), 1);
  EXPECT_NE(r.error.find("unmodeled PTX instruction 'mma.sync.aligned"),
            std::string::npos)
      << r.error;
}

// Out-of-bounds store: a finding naming the address.
TEST_F(InterpreterTest, OutOfBoundsStore) {
  RunResult r = run(R"(%v = kproof.constant 1 : i32
    kproof.st global %y, %v {offset = 8 : i64} : i64, i32)",
                    IntegerType::get(&ctx, 32), 2);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].kind, Finding::Kind::OutOfBounds);
}

} // namespace

namespace {

/// A REFUTED race, divergence or uninitialized read whose replay shows no
/// such finding is UNKNOWN: the interpreter checks those on every run. A
/// property it does not check keeps its REFUTED, with the note.
TEST(ReplayAndSettle, RaceTheRunDoesNotShowIsUnknown) {
  MLIRContext ctx;
  ctx.loadDialect<kproof::KProofDialect, cf::ControlFlowDialect>();
  const char *src = R"(
kproof.kernel entry @copy(%x: i64, %y: i64) {
  %v = kproof.ld global %x : i64 -> f32
  kproof.st global %y, %v : i64, f32
  kproof.return
}
kproof.contract @c {kernel = "copy", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [{name = "x", buffer = "in", type = f32, shape = array<i64: 1>},
            {name = "y", buffer = "out", type = f32, shape = array<i64: 1>}],
  spec = {builtin = "copy", input = "x", output = "y"}}
)";
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(src, &ctx);
  ASSERT_TRUE(module);
  auto contract = *module->getOps<kproof::ContractOp>().begin();
  auto refuted = [](const std::string &property) {
    engine::Verdict v;
    v.kind = engine::VerdictKind::Refuted;
    engine::Counterexample c;
    c.property = property;
    c.location = "copy.ptx:4:3";
    v.counterexample = c;
    v.obligations.push_back({"race-free: global 'y'",
                             engine::VerdictKind::Refuted,
                             "race: " + property});
    return v;
  };
  engine::Verdict race = refuted(
      "data race on global 'y' (byte 0): thread (tid.x=0) writes at "
      "copy.ptx:4:3, thread (tid.x=1) writes at copy.ptx:4:3");
  replayAndSettle(*module, contract, race);
  EXPECT_EQ(race.kind, engine::VerdictKind::Unknown) << race.replay;
  EXPECT_NE(race.reason.find("not confirmed by replay"), std::string::npos)
      << race.reason;
  EXPECT_EQ(race.obligations[0].verdict, engine::VerdictKind::Unknown);

  engine::Verdict counts =
      refuted("barrier 1 is used with thread counts 64 and 128");
  replayAndSettle(*module, contract, counts);
  EXPECT_EQ(counts.kind, engine::VerdictKind::Refuted) << counts.replay;
  EXPECT_NE(counts.replay.find("not confirmed"), std::string::npos);
}

} // namespace
