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

#include <map>
#include <optional>
#include <set>

namespace kproof {
#define GEN_PASS_DEF_KPROOFBARRIERPHASING
#include "KProof/Transforms/Passes.h.inc"
} // namespace kproof

using namespace mlir;
using namespace ::kproof;

namespace {
struct BarrierPhasingPass
    : public kproof::impl::KProofBarrierPhasingBase<BarrierPhasingPass> {
  using Base::Base;

  /// The constant behind `v` (a kproof.constant), if any.
  static std::optional<int64_t> constantOf(Value v) {
    auto c = v ? v.getDefiningOp<ConstantOp>() : ConstantOp();
    auto ia = c ? dyn_cast<IntegerAttr>(c.getValue()) : IntegerAttr();
    if (!ia)
      return std::nullopt;
    return ia.getValue().getSExtValue();
  }

  void runOnOperation() override {
    KernelOp kernel = getOperation();
    if (kernel.getBody().empty())
      return;
    Builder b(kernel.getContext());
    int64_t next = 0;
    // Barrier ids used with bar.arrive or a thread count are counted
    // everywhere (DESIGN.md §4): they order only their participants.
    std::set<int64_t> countedIds;
    kernel.walk([&](BarrierOp bar) {
      std::optional<int64_t> id =
          bar.getId() ? constantOf(bar.getId()) : std::optional<int64_t>(0);
      if (id && (bar.getKind() == BarrierKind::Arrive || bar.getCount()))
        countedIds.insert(*id);
    });
    kernel.walk([&](BarrierOp bar) {
      bar->setAttr("kproof.barrier_index", b.getI64IntegerAttr(next++));
      std::optional<int64_t> id =
          bar.getId() ? constantOf(bar.getId()) : std::optional<int64_t>(0);
      if (!id || (bar.getCount() && !constantOf(bar.getCount()))) {
        bar->setAttr("kproof.barrier_unmodeled", b.getUnitAttr());
        bar.emitWarning("barrier id or thread count in a register: not "
                        "modeled by the verifier (proofs reaching it are "
                        "UNKNOWN)");
        return;
      }
      bar->setAttr("kproof.barrier_kind",
                   b.getStringAttr(countedIds.count(*id) ? "counted" : "cta"));
    });
    // Forward dataflow: the set of CTA-wide barriers that may be the last
    // passed at each block entry (-1 is the kernel entry), and per counted
    // barrier id the set of its barrier ops that may be the last passed.
    struct PhaseState {
      std::set<int64_t> cta;
      std::map<int64_t, std::set<int64_t>> counted;
      bool merge(const PhaseState &o) {
        size_t before = cta.size();
        cta.insert(o.cta.begin(), o.cta.end());
        bool changed = cta.size() != before;
        for (auto &[id, set] : o.counted) {
          auto &mine = counted[id];
          size_t n = mine.size();
          mine.insert(set.begin(), set.end());
          changed |= mine.size() != n;
        }
        return changed;
      }
    };
    llvm::DenseMap<Block *, PhaseState> in;
    Region &body = kernel.getBody();
    PhaseState entry;
    entry.cta = {-1};
    for (int64_t id : countedIds)
      entry.counted[id] = {-1};
    in[&body.front()] = entry;
    llvm::SetVector<Block *> work;
    work.insert(&body.front());
    auto transfer = [&](Block *block, bool annotate) {
      PhaseState cur = in[block];
      for (Operation &op : *block) {
        if (auto bar = dyn_cast<BarrierOp>(op)) {
          int64_t index =
              bar->getAttrOfType<IntegerAttr>("kproof.barrier_index").getInt();
          auto kind = bar->getAttrOfType<StringAttr>("kproof.barrier_kind");
          if (!kind)
            continue; // unmodeled: orders nothing
          if (kind.getValue() == "cta") {
            cur.cta = {index};
            continue;
          }
          cur.counted[*(bar.getId() ? constantOf(bar.getId())
                                    : std::optional<int64_t>(0))] = {index};
          continue;
        }
        if (annotate && isa<LoadOp, StoreOp, AtomOp, ShflOp, VoteOp>(op)) {
          SmallVector<int64_t> v(cur.cta.begin(), cur.cta.end());
          op.setAttr("kproof.phase", b.getDenseI64ArrayAttr(v));
          if (!cur.counted.empty()) {
            SmallVector<NamedAttribute> perId;
            for (auto &[id, set] : cur.counted) {
              SmallVector<int64_t> w(set.begin(), set.end());
              perId.push_back(b.getNamedAttr(std::to_string(id),
                                             b.getDenseI64ArrayAttr(w)));
            }
            op.setAttr("kproof.counted_phase", b.getDictionaryAttr(perId));
          }
        }
      }
      return cur;
    };
    while (!work.empty()) {
      Block *block = work.pop_back_val();
      PhaseState out = transfer(block, /*annotate=*/false);
      for (Block *succ : block->getSuccessors()) {
        bool fresh = !in.count(succ);
        if (in[succ].merge(out) || fresh)
          work.insert(succ);
      }
    }
    for (Block &block : body)
      if (in.count(&block))
        transfer(&block, /*annotate=*/true);
  }
};
} // namespace
