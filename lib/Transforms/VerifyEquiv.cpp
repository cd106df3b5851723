//===- VerifyEquiv.cpp - the kproof-verify-equiv pass ---------------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "KProof/Transforms/Passes.h"

#include "KProof/Dialect/KProofOps.h"
#include "KProof/Interpreter/Harness.h"
#include "KProof/Verifier/Check/EquivalenceChecker.h"

#include "mlir/IR/BuiltinOps.h"

namespace kproof {
#define GEN_PASS_DEF_KPROOFVERIFYEQUIV
#include "KProof/Transforms/Passes.h.inc"
} // namespace kproof

using namespace mlir;
using namespace ::kproof;

namespace {
struct VerifyEquivPass
    : public kproof::impl::KProofVerifyEquivBase<VerifyEquivPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<ContractOp> contracts(module.getOps<ContractOp>());
    bool refuted = false;
    for (ContractOp contract : contracts) {
      ::kproof::engine::CheckerOptions options;
      options.strictPrecision = strictPrecision;
      std::optional<::kproof::engine::Verdict> verdict =
          ::kproof::engine::checkEquivalence(module, contract, options);
      if (!verdict) {
        signalPassFailure(); // the contract error is already reported
        return;
      }
      // Every counterexample is replayed on the kernel by the interpreter
      // (Harness.h); one the replay does not confirm is not a REFUTED.
      ::kproof::interp::replayAndSettle(module, contract, *verdict);
      verdict->emitRefutedSites();
      switch (verdict->kind) {
      case ::kproof::engine::VerdictKind::Proved:
        contract.emitRemark("PROVED: ")
            << verdict->kernelName << " against " << verdict->specDescription;
        break;
      case ::kproof::engine::VerdictKind::Unknown:
        contract.emitWarning("UNKNOWN: ") << verdict->reason;
        break;
      case ::kproof::engine::VerdictKind::Refuted: {
        refuted = true;
        auto diag = contract.emitError("REFUTED: ");
        if (const auto &c = verdict->counterexample) {
          diag << c->property << "; inputs:";
          for (auto &[name, v] : c->inputs.reals)
            if (name.find('#') == std::string::npos)
              diag << " " << name << " = " << v.toString();
          for (auto &[buffer, elems] : c->inputs.elements)
            for (auto &[i, v] : elems)
              diag << " " << buffer << "[" << i << "] = " << v.toString();
          diag << "; kernel " << c->kernelValue << ", spec " << c->specValue;
          diag << "; " << verdict->replay;
        } else {
          diag << verdict->reason;
        }
        break;
      }
      }
    }
    if (refuted)
      signalPassFailure();
  }
};
} // namespace
