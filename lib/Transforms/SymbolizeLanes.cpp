//===- SymbolizeLanes.cpp - the kproof-symbolize-lanes pass ---------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// %laneid as a function of the thread ids; per-read special registers
// tagged; the symbolic thread variables recorded on the kernel (DESIGN.md §4).
//
//===----------------------------------------------------------------------===//

#include "KProof/Transforms/Passes.h"

#include "KProof/Dialect/KProofOps.h"

#include "mlir/IR/Builders.h"

namespace kproof {
#define GEN_PASS_DEF_KPROOFSYMBOLIZELANES
#include "KProof/Transforms/Passes.h.inc"
} // namespace kproof

using namespace mlir;
using namespace ::kproof;

namespace {
struct SymbolizeLanesPass
    : public kproof::impl::KProofSymbolizeLanesBase<SymbolizeLanesPass> {
  using Base::Base;

  void runOnOperation() override {
    KernelOp kernel = getOperation();
    if (kernel.getBody().empty())
      return;
    OpBuilder b(kernel.getContext());
    SmallVector<SRegOp> lanes;
    kernel.walk([&](SRegOp r) {
      switch (r.getReg()) {
      case SpecialReg::LaneId:
        lanes.push_back(r);
        break;
      case SpecialReg::WarpId:
      case SpecialReg::SmId:
      case SpecialReg::Clock:
      case SpecialReg::ClockHi:
      case SpecialReg::Clock64:
      case SpecialReg::GlobalTimer:
        r->setAttr("kproof.fresh_per_read", b.getUnitAttr());
        break;
      default:
        break;
      }
    });
    for (SRegOp r : lanes) {
      b.setInsertionPoint(r);
      Location loc = r.getLoc();
      Type i32 = b.getI32Type();
      auto sreg = [&](SpecialReg s) -> Value {
        return SRegOp::create(b, loc, i32, s);
      };
      auto ibin = [&](IntBinKind k, Value x, Value y) -> Value {
        return IntBinOp::create(b, loc, i32, k, x, y, false, false);
      };
      // lin = tid.x + ntid.x * (tid.y + ntid.y * tid.z)
      Value lin = ibin(
          IntBinKind::Add, sreg(SpecialReg::TidX),
          ibin(IntBinKind::MulLo, sreg(SpecialReg::NtidX),
               ibin(IntBinKind::Add, sreg(SpecialReg::TidY),
                    ibin(IntBinKind::MulLo, sreg(SpecialReg::NtidY),
                         sreg(SpecialReg::TidZ)))));
      Value mask = ConstantOp::create(b, loc, b.getI32IntegerAttr(31));
      Value lane = ibin(IntBinKind::And, lin, mask);
      if (r.getType() != i32) {
        r.emitError("%laneid read into a non-32-bit register");
        return signalPassFailure();
      }
      r.replaceAllUsesWith(lane);
      r.erase();
    }
    SmallVector<Attribute> facts;
    for (StringRef d : {"x", "y", "z"}) {
      facts.push_back(b.getStringAttr(("0 <= tid." + d + " < ntid." + d).str()));
      facts.push_back(
          b.getStringAttr(("0 <= ctaid." + d + " < nctaid." + d).str()));
    }
    facts.push_back(b.getStringAttr(
        "lane = (tid.x + ntid.x * (tid.y + ntid.y * tid.z)) mod 32"));
    // The launch: CUDA's limits, and the bounds of every contract in the
    // module for this kernel (concrete extents, or grid_max/block_max and
    // max_threads of a symbolic launch).
    facts.push_back(b.getStringAttr("ntid.x * ntid.y * ntid.z <= 1024"));
    // Top-level ops only: other kernels may be transformed concurrently.
    if (auto module = kernel->getParentOfType<ModuleOp>())
      for (ContractOp c : module.getOps<ContractOp>()) {
        if (lookupKernel(module, c.getKernel()) != kernel)
          continue;
        std::string who = ("contract @" + c.getSymName() + ": ").str();
        auto extents = [&](StringRef name, DenseI64ArrayAttr exact,
                           DenseI64ArrayAttr max) {
          for (int d = 0; d < 3; ++d) {
            std::string v = (name + "." + StringRef("xyz" + d, 1)).str();
            if (exact || (max && max[d] == 1))
              facts.push_back(b.getStringAttr(
                  who + v + " = " + std::to_string(exact ? exact[d] : 1)));
            else if (max)
              facts.push_back(b.getStringAttr(
                  who + "1 <= " + v + " <= " + std::to_string(max[d])));
          }
        };
        extents("ntid", c.getBlockAttr(), c.getBlockMaxAttr());
        extents("nctaid", c.getGridAttr(), c.getGridMaxAttr());
        if (std::optional<uint64_t> m = c.getMaxThreads())
          facts.push_back(b.getStringAttr(
              who + "nctaid.x * nctaid.y * nctaid.z * ntid.x * ntid.y * "
                    "ntid.z <= " +
              std::to_string(*m)));
      }
    kernel->setAttr("kproof.thread_ids", b.getArrayAttr(facts));
  }
};
} // namespace
