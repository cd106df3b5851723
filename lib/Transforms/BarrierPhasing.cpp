//===- BarrierPhasing.cpp - the kproof-barrier-phasing pass ---------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Numbers CTA barriers and annotates memory accesses and warp collectives
// with the set of barriers that may be the last one passed (DESIGN.md §4).
//
//===----------------------------------------------------------------------===//

#include "KProof/Transforms/Passes.h"

#include "KProof/Dialect/KProofOps.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"

#include <set>

namespace mlir::kproof {
#define GEN_PASS_DEF_KPROOFBARRIERPHASING
#include "KProof/Transforms/Passes.h.inc"
} // namespace mlir::kproof

using namespace mlir;
using namespace mlir::kproof;

namespace {
struct BarrierPhasingPass
    : public mlir::kproof::impl::KProofBarrierPhasingBase<BarrierPhasingPass> {
  using Base::Base;

  /// A CTA-wide barrier 0 without a thread count (what the verifier models).
  static bool isModeled(BarrierOp b) {
    if (b.getKind() != BarrierKind::Sync || b.getCount())
      return false;
    if (!b.getId())
      return true;
    auto c = b.getId().getDefiningOp<ConstantOp>();
    auto ia = c ? dyn_cast<IntegerAttr>(c.getValue()) : IntegerAttr();
    return ia && ia.getValue().isZero();
  }

  void runOnOperation() override {
    KernelOp kernel = getOperation();
    if (kernel.getBody().empty())
      return;
    Builder b(kernel.getContext());
    int64_t next = 0;
    kernel.walk([&](BarrierOp bar) {
      bar->setAttr("kproof.barrier_index", b.getI64IntegerAttr(next++));
      if (!isModeled(bar)) {
        bar->setAttr("kproof.barrier_unmodeled", b.getUnitAttr());
        bar.emitWarning("named barrier, barrier with a thread count, "
                        "bar.arrive or bar.red: not modeled by the verifier "
                        "(proofs reaching it are UNKNOWN)");
      }
    });
    // Forward dataflow: the set of barriers that may be the last passed at
    // each block entry; -1 is the kernel entry.
    using PhaseSet = std::set<int64_t>;
    llvm::DenseMap<Block *, PhaseSet> in;
    Region &body = kernel.getBody();
    in[&body.front()] = {-1};
    llvm::SetVector<Block *> work;
    work.insert(&body.front());
    auto transfer = [&](Block *block, bool annotate) {
      PhaseSet cur = in[block];
      for (Operation &op : *block) {
        if (auto bar = dyn_cast<BarrierOp>(op)) {
          cur = {bar->getAttrOfType<IntegerAttr>("kproof.barrier_index")
                     .getInt()};
          continue;
        }
        if (annotate &&
            isa<LoadOp, StoreOp, AtomOp, ShflOp, VoteOp>(op)) {
          SmallVector<int64_t> v(cur.begin(), cur.end());
          op.setAttr("kproof.phase", b.getDenseI64ArrayAttr(v));
        }
      }
      return cur;
    };
    while (!work.empty()) {
      Block *block = work.pop_back_val();
      PhaseSet out = transfer(block, /*annotate=*/false);
      for (Block *succ : block->getSuccessors()) {
        PhaseSet &s = in[succ];
        size_t before = s.size();
        s.insert(out.begin(), out.end());
        if (s.size() != before || before == 0)
          work.insert(succ);
      }
    }
    for (Block &block : body)
      if (in.count(&block))
        transfer(&block, /*annotate=*/true);
  }
};
} // namespace
