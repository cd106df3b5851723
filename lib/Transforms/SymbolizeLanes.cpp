//===- SymbolizeLanes.cpp - the kproof-symbolize-lanes pass ---------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// %laneid as a function of the thread ids; per-read special registers
// tagged. The proof engine runs this rewrite before executing a kernel
// (engine::execute) and reads its result.
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

void kproof::symbolizeLanes(KernelOp kernel) {
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
    case SpecialReg::GridId:
    case SpecialReg::Clock:
    case SpecialReg::ClockHi:
    case SpecialReg::Clock64:
    case SpecialReg::GlobalTimer:
      r->setAttr(kFreshPerReadAttr, b.getUnitAttr());
      break;
    default:
      break;
    }
  });
  for (SRegOp r : lanes) {
    // The op verifier makes %laneid a 32-bit read.
    assert(r.getType() == b.getI32Type() && "verified: %laneid is 32 bits");
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
    r.replaceAllUsesWith(lane);
    r.erase();
  }
}

namespace {
struct SymbolizeLanesPass
    : public kproof::impl::KProofSymbolizeLanesBase<SymbolizeLanesPass> {
  using Base::Base;

  void runOnOperation() override {
    symbolizeLanes(getOperation());
  }
};
} // namespace
