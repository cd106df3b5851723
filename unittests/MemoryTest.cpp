//===- MemoryTest.cpp - tests of the executor's symbolic memory -----------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Loads after stores: a load resolves against the thread's own earlier
// stores to the same memory (a .local array, a contract buffer), newest
// first, down to the initial contents; undecided aliases become ites; a
// chain of more than 32 undecided stores is UNKNOWN; a read of a buffer
// other threads write carries the obligation that none writes it.
//
//===----------------------------------------------------------------------===//

#include "ExecutorFixture.h"

using namespace mlir;
using namespace ::kproof;
using namespace ::kproof::engine;

namespace {

using MemoryTest = ::kproof::testing::ExecutorFixture;

// The common prologue: %t = tid.x, %o64 = 4 * tid.x (the thread's byte
// offset in x and y), %lo = 4 * (tid.x & 3) (a byte offset into buf).
constexpr const char *kPrologue = R"mlir(
      %t = kproof.sreg tid.x : i32
      %c2 = kproof.constant 2 : i32
      %c3 = kproof.constant 3 : i32
      %t64 = kproof.cvt %t : i32 -> i64
      %o64 = kproof.shift shl %t64, %c2 : i64
      %lane = kproof.ibin and %t, %c3 : i32
      %l64 = kproof.cvt %lane : i32 -> i64
      %lo = kproof.shift shl %l64, %c2 : i64
      %buf = kproof.addressof @buf : i64
)mlir";

/// buf[k] = x[k] for k < 4 at constant offsets, then y[t] = buf[t & 3]:
/// the load may read any of the four cells (an ite over the offsets), and
/// at t = 5 it is x[1], at t = 2 x[2].
TEST_F(MemoryTest, LocalLoadAtASymbolicOffsetReadsTheMatchingCell) {
  std::string src = std::string(R"mlir(
    kproof.global local @buf : f32[4] {align = 4 : i64}
    kproof.kernel entry @k(%x: i64, %y: i64) {)mlir") + kPrologue + R"mlir(
      %x0 = kproof.ld global %x : i64 -> f32
      %x1 = kproof.ld global %x {offset = 4 : i64} : i64 -> f32
      %x2 = kproof.ld global %x {offset = 8 : i64} : i64 -> f32
      %x3 = kproof.ld global %x {offset = 12 : i64} : i64 -> f32
      kproof.st local %buf, %x0 : i64, f32
      kproof.st local %buf, %x1 {offset = 4 : i64} : i64, f32
      kproof.st local %buf, %x2 {offset = 8 : i64} : i64, f32
      kproof.st local %buf, %x3 {offset = 12 : i64} : i64, f32
      %ba = kproof.ibin add %buf, %lo : i64
      %v = kproof.ld local %ba : i64 -> f32
      %ya = kproof.ibin add %y, %o64 : i64
      kproof.st global %ya, %v : i64, f32
      kproof.return
    })mlir";
  ExecutionResult r = run(src, 32);
  ASSERT_TRUE(r.unknownReason.empty()) << r.unknownReason;
  ASSERT_EQ(r.paths.size(), 1u);
  const SymbolicStore &st = r.paths[0].symbolicStores.at(0);
  EXPECT_TRUE(N.provesEqual(at(st.value, 5), T.element("x", T.bv(1, 64))))
      << at(st.value, 5)->toString();
  EXPECT_TRUE(N.provesEqual(at(st.value, 2), T.element("x", T.bv(2, 64))))
      << at(st.value, 2)->toString();
}

/// buf[t & 3] = x[t] at a symbolic offset, then y[t] = buf[4]... read back
/// at offset 4 (element 1): the thread's own store where t & 3 == 1, else
/// the array's uninitialized contents (a fresh value, not x[t]).
TEST_F(MemoryTest, LoadAfterASymbolicStoreIsAnIteOverTheAlias) {
  std::string src = std::string(R"mlir(
    kproof.global local @buf : f32[4] {align = 4 : i64}
    kproof.kernel entry @k(%x: i64, %y: i64) {)mlir") + kPrologue + R"mlir(
      %xa = kproof.ibin add %x, %o64 : i64
      %xv = kproof.ld global %xa : i64 -> f32
      %ba = kproof.ibin add %buf, %lo : i64
      kproof.st local %ba, %xv : i64, f32
      %v = kproof.ld local %buf {offset = 4 : i64} : i64 -> f32
      %ya = kproof.ibin add %y, %o64 : i64
      kproof.st global %ya, %v : i64, f32
      kproof.return
    })mlir";
  ExecutionResult r = run(src, 32);
  ASSERT_TRUE(r.unknownReason.empty()) << r.unknownReason;
  const SymbolicStore &st = r.paths[0].symbolicStores.at(0);
  EXPECT_TRUE(N.provesEqual(at(st.value, 5), T.element("x", T.bv(5, 64))))
      << at(st.value, 5)->toString();
  EXPECT_FALSE(N.provesEqual(at(st.value, 4), T.element("x", T.bv(4, 64))))
      << at(st.value, 4)->toString();
  // The symbolic store: aligned and inside the 16-byte array.
  bool inside = llvm::any_of(r.alignments, [](const PathObligation &a) {
    return a.what == "store to buf inside its 16 bytes";
  });
  EXPECT_TRUE(inside);
}

/// More than 32 stores at undecided offsets before a load: UNKNOWN with
/// the store chain limit, never a guess.
TEST_F(MemoryTest, AChainPastTheLimitIsUnknown) {
  std::string src = std::string(R"mlir(
    kproof.global local @buf : f32[4] {align = 4 : i64}
    kproof.kernel entry @k(%x: i64, %y: i64) {)mlir") + kPrologue + R"mlir(
      %xv = kproof.ld global %x : i64 -> f32
      %ba = kproof.ibin add %buf, %lo : i64
)mlir";
  for (int k = 0; k < 33; ++k)
    src += "      kproof.st local %ba, %xv : i64, f32\n";
  src += R"mlir(
      %v = kproof.ld local %buf : i64 -> f32
      %ya = kproof.ibin add %y, %o64 : i64
      kproof.st global %ya, %v : i64, f32
      kproof.return
    })mlir";
  ExecutionResult r = run(src, 32);
  EXPECT_NE(r.unknownReason.find("store chain limit"), std::string::npos)
      << r.unknownReason;
}

/// y[t] = y[t] + x[t] with y inout: the load sees y's input element, and
/// carries the obligation that no other thread writes it (plus a read
/// access for the race checks).
TEST_F(MemoryTest, ReadOfAWrittenBufferCarriesTheOtherWriterObligation) {
  y.role = BufferBinding::Role::InOut;
  std::string src = std::string(R"mlir(
    kproof.global local @buf : f32[4] {align = 4 : i64}
    kproof.kernel entry @k(%x: i64, %y: i64) {)mlir") + kPrologue + R"mlir(
      %xa = kproof.ibin add %x, %o64 : i64
      %xv = kproof.ld global %xa : i64 -> f32
      %ya = kproof.ibin add %y, %o64 : i64
      %yv = kproof.ld global %ya : i64 -> f32
      %s = kproof.fbin add %xv, %yv : f32
      kproof.st global %ya, %s : i64, f32
      kproof.return
    })mlir";
  ExecutionResult r = run(src, 32);
  ASSERT_TRUE(r.unknownReason.empty()) << r.unknownReason;
  const SymbolicStore &st = r.paths[0].symbolicStores.at(0);
  Term expect = T.add(T.element("x", T.bv(5, 64)), T.element("y", T.bv(5, 64)));
  EXPECT_TRUE(N.provesEqual(at(st.value, 5), expect))
      << at(st.value, 5)->toString();
  bool read = llvm::any_of(r.accesses, [](const MemoryAccess &m) {
    return !m.write && m.region == "y";
  });
  EXPECT_TRUE(read);
  bool obligation =
      llvm::any_of(r.resolutions, [](const ResolutionObligation &o) {
        return o.what.find("no other thread writes the element of 'y'") !=
               std::string::npos;
      });
  EXPECT_TRUE(obligation);
}

} // namespace
