//===- PTXImporterTest.cpp - tests of the PTX importer --------------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "KProof/Dialect/KProofOps.h"
#include "KProof/Import/PTX/PTXImporter.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace ::kproof;

namespace {

/// Imports `text`; collects the diagnostics as "line:col: message".
struct Imported {
  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  std::vector<std::string> diagnostics;

  explicit Imported(llvm::StringRef text) {
    context.getOrLoadDialect<KProofDialect>();
    context.getOrLoadDialect<cf::ControlFlowDialect>();
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(text, "test.ptx"), llvm::SMLoc());
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      auto loc = dyn_cast<FileLineColLoc>(diag.getLocation());
      std::string where =
          loc ? std::to_string(loc.getLine()) + ":" +
                    std::to_string(loc.getColumn()) + ": "
              : "";
      diagnostics.push_back(where + diag.str());
      return success();
    });
    module = importPTX(sourceMgr, &context);
  }
};

constexpr const char *kHeader = ".version 8.0\n.target sm_80\n.address_size 64\n";

TEST(PTXImporter, LooksUpKernelsByMangledAndDemangledName) {
  Imported imp(std::string(kHeader) +
               ".visible .entry _Z7softmaxPKfPfi(.param .u64 a, .param .u64 "
               "b, .param .u32 n) { ret; }\n"
               ".visible .entry plain() { ret; }\n");
  ASSERT_TRUE(imp.module) << imp.diagnostics.front();
  KernelOp byMangled = lookupKernel(*imp.module, "_Z7softmaxPKfPfi");
  ASSERT_TRUE(byMangled);
  EXPECT_EQ(lookupKernel(*imp.module, "softmax(float const*, float*, int)"),
            byMangled);
  EXPECT_EQ(lookupKernel(*imp.module, "softmax"), byMangled);
  EXPECT_TRUE(lookupKernel(*imp.module, "plain"));
  EXPECT_FALSE(lookupKernel(*imp.module, "missing"));
}

/// A loop-carried register becomes one block argument of the loop header,
/// fed by the entry value and the back edge; registers not redefined in the
/// loop do not.
TEST(PTXImporter, LoopCarriedRegisterIsOneBlockArgument) {
  Imported imp(std::string(kHeader) + R"(
.visible .entry k(.param .u32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<5>;
  ld.param.u32 %r1, [n];
  mov.u32 %r2, 0;
  mov.u32 %r3, 7;
$L_loop:
  add.s32 %r2, %r2, %r3;
  setp.lt.u32 %p1, %r2, %r1;
  @%p1 bra $L_loop;
  ret;
}
)");
  ASSERT_TRUE(imp.module);
  KernelOp k = lookupKernel(*imp.module, "k");
  ASSERT_TRUE(k);
  Region &body = k.getBody();
  ASSERT_EQ(body.getBlocks().size(), 3u); // entry, loop, exit
  Block &loop = *std::next(body.begin());
  ASSERT_EQ(loop.getNumArguments(), 1u);
  // The add reads the block argument and the loop-invariant constant.
  auto add = *loop.getOps<IntBinOp>().begin();
  EXPECT_EQ(add.getLhs(), loop.getArgument(0));
  EXPECT_TRUE(add.getRhs().getDefiningOp<ConstantOp>());
}

/// A guarded register operation is a select: d = p ? new : old.
TEST(PTXImporter, GuardedRegisterWriteIsSelect) {
  Imported imp(std::string(kHeader) + R"(
.visible .entry k(.param .u64 out, .param .u32 c)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [c];
  mov.u32 %r2, 1;
  setp.eq.s32 %p1, %r1, 0;
  @%p1 mov.u32 %r2, 2;
  st.global.u32 [%rd1], %r2;
  ret;
}
)");
  ASSERT_TRUE(imp.module);
  StoreOp st;
  lookupKernel(*imp.module, "k").walk([&](StoreOp s) { st = s; });
  ASSERT_TRUE(st);
  auto sel = st.getValues()[0].getDefiningOp<SelpOp>();
  ASSERT_TRUE(sel);
  EXPECT_TRUE(sel.getCondition().getDefiningOp<CmpOp>());
  auto oldValue = sel.getFalseValue().getDefiningOp<ConstantOp>();
  ASSERT_TRUE(oldValue);
  EXPECT_EQ(cast<IntegerAttr>(oldValue.getValue()).getInt(), 1);
}

/// A guarded memory operation is a branch around it: a false guard does not
/// access memory, and the paths join in a block with two predecessors.
TEST(PTXImporter, GuardedStoreBranchesAround) {
  Imported imp(std::string(kHeader) + R"(
.visible .entry k(.param .u64 out, .param .u32 c)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [c];
  setp.eq.s32 %p1, %r1, 0;
  @%p1 st.global.u32 [%rd1], %r1;
  ret;
}
)");
  ASSERT_TRUE(imp.module);
  StoreOp st;
  lookupKernel(*imp.module, "k").walk([&](StoreOp s) { st = s; });
  ASSERT_TRUE(st);
  Block *guarded = st->getBlock();
  EXPECT_FALSE(guarded->isEntryBlock());
  Block *join = guarded->getTerminator()->getSuccessor(0);
  unsigned preds = 0;
  for (Block *pred : join->getPredecessors()) {
    (void)pred;
    ++preds;
  }
  EXPECT_EQ(preds, 2u);
}

TEST(PTXImporter, ErrorsCarryLineAndColumn) {
  Imported imp(std::string(kHeader) + R"(.visible .entry k()
{
  .reg .b32 %r<2>;
  add.s32 %r1, %r1, %r7;
  ret;
}
)");
  EXPECT_FALSE(imp.module);
  ASSERT_EQ(imp.diagnostics.size(), 1u);
  EXPECT_EQ(imp.diagnostics[0], "7:21: use of undeclared register '%r7'");
}

TEST(PTXImporter, UnmodeledInstructionWarnsAndClobbersItsRegisters) {
  Imported imp(std::string(kHeader) + R"(.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, 5;
  brkpt %r1;
  st.global.u32 [%rd1], %r1;
  ret;
}
)");
  ASSERT_TRUE(imp.module);
  ASSERT_EQ(imp.diagnostics.size(), 1u);
  EXPECT_EQ(imp.diagnostics[0], "10:3: unmodeled PTX instruction 'brkpt'");
  StoreOp st;
  KernelOp k = lookupKernel(*imp.module, "k");
  k.walk([&](StoreOp s) { st = s; });
  ASSERT_TRUE(st);
  EXPECT_TRUE(st.getValues()[0].getDefiningOp<OpaqueOp>())
      << "the stored register must come from the opaque op, not the mov";
}

} // namespace
