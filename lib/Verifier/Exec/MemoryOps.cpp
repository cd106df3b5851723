//===- MemoryOps.cpp - ld and st ------------------------------------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The memory cases of execOp (execMemoryOp): ld and st in every state space. A
// contract buffer reads its input elements and this thread's own stores
// (Memory.cpp), its stores become the path's final stores (constant index) or
// symbolic stores; module variables and .local arrays keep cells and store
// chains; shared memory in a multi-thread launch goes to SharedMemory.cpp. Each
// access carries its alignment and bounds obligations and is recorded for the
// race checks.
//
//===----------------------------------------------------------------------===//

#include "ExecutorImpl.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace ::kproof;
using namespace ::kproof::engine;

namespace kproof::engine::exec {

std::optional<bool> Executor::execMemoryOp(State &s, Operation *op) {
  Frame &f = s.stack.back();
  Location loc = op->getLoc();
  auto advance = [&]() {
    ++f.it;
    return true;
  };
  auto val = [&](Value v) { return get(f, v); };

  return llvm::TypeSwitch<Operation *, std::optional<bool>>(op)
      .Case<LoadOp>([&](LoadOp l) {
        Term addr;
        std::string name;
        Term offTerm;
        if (!resolveAccess(f, l.getAddr(), l.getOffset(), l.getSpace(), loc,
                           addr, name, offTerm))
          return false;
        Region *r = *regionOf("&" + name);
        loops.noteLoad(name);
        if (isMultiThread() && r->space == StateSpace::Shared)
          return sharedMemory.sharedLoad(s, f, l, name, offTerm, loc);
        if (isMultiThread() && !r->buffer && r->global &&
            (r->space == StateSpace::Global ||
             r->space == StateSpace::Shared)) {
          // Another thread may have written it: cross-thread data flow
          // through a module variable.
          unknown(loc, "cross-thread data flow: not yet modeled (a load from "
                       "'" + name + "', which threads write, in a "
                       "multi-thread launch)");
          return false;
        }
        // A per-thread .local array (PTX ISA 5.1.5): -G code and
        // dynamically indexed register arrays.
        bool local = !r->buffer && r->space == StateSpace::Local;
        // A buffer that threads write: this thread's loads see the initial
        // contents and its own stores only if no other thread writes what
        // it reads (SharedMemoryModel::checkGlobalReads).
        bool othersWrite = isMultiThread() && r->buffer &&
                           r->buffer->role != BufferBinding::Role::In;
        auto readByOthers = [&](Term byteOff, unsigned bytes) {
          if (!othersWrite)
            return;
          sharedMemory.deferGlobalRead(s, l, name, byteOff, bytes, loc);
        };
        Type resultType = l.getResult(0).getType();
        unsigned width = getWidthOf(resultType) / 8;
        if (width == 0)
          width = 1;
        // The initial contents of element `at` of a buffer: an input term,
        // or an arbitrary value for an output.
        auto initialElement = [&](Term at) -> Term {
          bool elemIsFloat = isa<FloatType>(r->elemType);
          unsigned bits = r->elemType.getIntOrFloatBitWidth();
          if (r->buffer->role == BufferBinding::Role::Out)
            return fresh(name + "@uninit", elemIsFloat ? Sort::Real : Sort::BV,
                         bits);
          return elemIsFloat ? T.element(name, at) : T.intElement(name, at, bits);
        };
        // A loaded value into `res`: reals travel in integer registers as
        // real bits; integer bits are not read as a float.
        auto setLoaded = [&](Value res, Term v) {
          bool wantReal = isa<FloatType>(res.getType());
          if (wantReal && v->getSort() != Sort::Real)
            if (Term r = floatOfBits(T, v, res.getType()))
              v = r;
          if (wantReal && v->getSort() != Sort::Real) {
            unknown(loc, "integer bits reinterpreted as a float");
            return false;
          }
          set(f, res, v, !wantReal && v->getSort() == Sort::Real,
              isa<FloatType>(r->elemType) ? r->elemType : Type());
          return true;
        };
        // Element `at` of the buffer into `res`: the thread's own stores
        // to it (its chain), over the initial contents (distinct contract
        // buffers never alias: stores to other buffers do not matter).
        auto elementValue = [&](Term at) -> Term {
          if (llvm::any_of(s.symbolicStores, [&](const SymbolicStore &st) {
                return st.buffer == name && st.isFamily();
              })) {
            unknown(loc, "load of '" + name + "' after a summarized loop "
                         "stored to it (its stores are a family over the "
                         "iterations) is not yet modeled");
            return nullptr;
          }
          Term v = initialElement(at);
          StoreChain chain = bufferChain(s, name, r->buffer->elemBytes());
          if (!chain.empty())
            v = resolveChain(s, chain, at, 1, v, "'" + name + "'", loc);
          return v;
        };
        auto loadElement = [&](Term at, Value res) {
          if (!isa<FloatType>(r->elemType) && isa<FloatType>(res.getType())) {
            unknown(loc, "integer data read as a float");
            return false;
          }
          Term v = elementValue(at);
          return v && setLoaded(res, v);
        };
        // `width` bytes of the .local array at byte `o` into `res`: its
        // chain over an arbitrary (uninitialized) value, of the sort the
        // array holds.
        auto loadLocal = [&](Term o, Value res) {
          StoreChain chain = scratchChain(s, name);
          bool real =
              isa<FloatType>(res.getType()) ||
              llvm::any_of(chain.getStores(), [](const StoreChain::Store &e) {
                return e.value->getSort() == Sort::Real;
              });
          Term base =
              fresh(name + "@uninit", real ? Sort::Real : Sort::BV, width * 8);
          Term v =
              resolveChain(s, chain, o, width, base, "'" + name + "'", loc);
          return v && setLoaded(res, v);
        };
        // Packed elements: an integer load wider than the float elements
        // of a contract buffer (ld.v2.u32 of f16 data, PTX ISA 5.2.1)
        // gets their FloatBits, element 0 in the low bits.
        if (r->buffer && isa<FloatType>(r->elemType) &&
            isa<IntegerType>(resultType) && width > r->buffer->elemBytes() &&
            width % r->buffer->elemBytes() == 0) {
          unsigned elemBytes = r->buffer->elemBytes();
          unsigned per = width / elemBytes;
          unsigned count = per * l.getNumResults();
          StringRef fmt = floatFormat(r->elemType);
          // PTX ISA 5.4.5: a vector access is aligned to its whole size.
          result.alignments.push_back(
              {s.pc,
               T.eq(T.bvBin(Kind::BVURem, offTerm,
                            T.bv(uint64_t(width) * l.getNumResults(), 64)),
                    T.bv(0, 64)),
               loc, "alignment of the load from " + name});
          Term index = T.bvBin(Kind::BVUDiv, offTerm, T.bv(elemBytes, 64));
          Term last = T.bvBin(Kind::BVAdd, index, T.bv(count - 1, 64));
          result.alignments.push_back(
              {s.pc,
               T.andOf(T.bvUlt(last, r->buffer->numElementsTerm(T, launch)),
                       T.bvUle(index, last)),
               loc,
               "load from " + name + " inside its extent of " +
                   r->buffer->extentText() + " elements"});
          for (auto [k, res] : llvm::enumerate(l.getResults())) {
            Term packed = nullptr;
            for (unsigned j = 0; j < per; ++j) {
              Term at = T.bvBin(Kind::BVAdd, index, T.bv(k * per + j, 64));
              Term v = elementValue(at);
              if (!v)
                return false;
              Term b = T.floatBits(v, fmt);
              packed = packed ? T.bvConcat(b, packed) : b;
            }
            if (!resultModeled(packed, loc))
              return false;
            set(f, res, packed);
            readByOthers(T.bvBin(Kind::BVAdd, offTerm, T.bv(k * width, 64)),
                         width);
          }
          return advance();
        }
        if (offTerm->getKind() != Kind::BVConst) {
          unsigned lanes = l.getNumResults();
          if (local) {
            localBounds(s, /*store=*/false, name, offTerm,
                        uint64_t(width) * lanes, r->bytes, loc);
            for (auto [k, res] : llvm::enumerate(l.getResults()))
              if (!loadLocal(
                      T.bvBin(Kind::BVAdd, offTerm, T.bv(k * width, 64)), res))
                return false;
            return advance();
          }
          if (!r->buffer || addr->getWidth() != 64) {
            unknown(loc, "load of " + name +
                             " at a symbolic address (a module variable, or a "
                             "32-bit address) is not yet modeled");
            return false;
          }
          unsigned elemBytes = r->buffer->elemBytes();
          if (elemBytes != width) {
            unknown(loc, "access width differs from the element type of " +
                             name);
            return false;
          }
          // PTX ISA 5.4.5: a vector access is aligned to its whole size.
          Term eb = T.bv(elemBytes, 64);
          Term vb = T.bv(uint64_t(elemBytes) * lanes, 64);
          result.alignments.push_back(
              {s.pc, T.eq(T.bvBin(Kind::BVURem, offTerm, vb), T.bv(0, 64)),
               loc, "alignment of the load from " + name});
          Term index = T.bvBin(Kind::BVUDiv, offTerm, eb);
          Term last = T.bvBin(Kind::BVAdd, index, T.bv(lanes - 1, 64));
          result.alignments.push_back(
              {s.pc,
               T.andOf(T.bvUlt(last, r->buffer->numElementsTerm(T, launch)),
                       T.bvUle(index, last)),
               loc, "load from " + name + " inside its extent of " +
                        r->buffer->extentText() + " elements"});
          // The thread's own earlier stores to the buffer, newest first,
          // over its initial contents (distinct contract buffers never
          // alias: stores to other buffers do not matter).
          for (auto [k, res] : llvm::enumerate(l.getResults())) {
            if (!loadElement(T.bvBin(Kind::BVAdd, index, T.bv(k, 64)), res))
              return false;
            readByOthers(T.bvBin(Kind::BVAdd, offTerm, T.bv(k * width, 64)),
                         width);
          }
          return advance();
        }
        uint64_t off = offTerm->getAPInt().getZExtValue();
        for (auto [k, res] : llvm::enumerate(l.getResults())) {
          uint64_t o = off + k * width;
          // A launch-dependent extent: r->bytes is only its upper bound.
          if (r->buffer && r->buffer->isSymbolic())
            result.alignments.push_back(
                {s.pc,
                 T.bvUlt(T.bv((o + width - 1) / r->buffer->elemBytes(), 64),
                         r->buffer->numElementsTerm(T, launch)),
                 loc, "load from " + name + " inside its extent of " +
                          r->buffer->extentText() + " elements"});
          if (r->bytes && o + width > r->bytes) {
            unknown(loc, "load of " + name + " at byte " + Twine(o) +
                             " is outside its extent (" + Twine(r->bytes) +
                             " bytes)");
            return false;
          }
          readByOthers(T.bv(o, 64), width);
          // After a symbolic store to the same memory: through its chain.
          if (r->buffer ? s.storedSymbolically(name)
                        : local && s.hasScratchChain(name)) {
            if (r->buffer) {
              unsigned elemBytes = r->buffer->elemBytes();
              if (elemBytes != width || o % elemBytes) {
                unknown(loc, "access of " + Twine(width) + " bytes to " +
                                 name + " whose elements have " +
                                 Twine(elemBytes));
                return false;
              }
              if (!loadElement(T.bv(o / elemBytes, 64), res))
                return false;
            } else if (!loadLocal(T.bv(o, 64), res)) {
              return false;
            }
            continue;
          }
          auto &cells = s.mem[name];
          auto hit = cells.find(o);
          if (hit != cells.end()) {
            if (hit->second.bytes != width) {
              unknown(loc, "partially overlapping accesses to " + name);
              return false;
            }
            if (!setLoaded(res, hit->second.value))
              return false;
            continue;
          }
          // Nothing stored yet: the initial contents.
          unsigned elemBytes =
              std::max(1u, r->elemType.getIntOrFloatBitWidth() / 8);
          if (elemBytes != width || o % elemBytes) {
            unknown(loc, "access of " + Twine(width) + " bytes to " + name +
                             " whose elements have " + Twine(elemBytes));
            return false;
          }
          uint64_t index = o / elemBytes;
          Term v;
          bool elemIsFloat = isa<FloatType>(r->elemType);
          if (r->buffer && r->buffer->role != BufferBinding::Role::Out) {
            v = elemIsFloat
                    ? T.element(name, T.bv(index, 64))
                    : T.bvVar(name + "[" + std::to_string(index) + "]",
                              r->elemType.getIntOrFloatBitWidth());
          } else if (r->global && r->global.getInit()) {
            ArrayAttr init = *r->global.getInit();
            Attribute a = index < init.size() ? init[index] : Attribute();
            if (auto fa = dyn_cast_or_null<FloatAttr>(a)) {
              // As an immediate is read (Constants.h): a transcendental
              // constant in a table is its exact value, reported.
              std::optional<TranscendentalConstant> reading;
              v = floatConstant(T, fa.getValue(), &reading);
              if (!v) {
                unknown(loc, "a NaN initializer of " + name +
                                 " is not modeled");
                return false;
              }
              if (reading)
                result.idioms.push_back({reading->describe(), loc});
            } else if (auto ia = dyn_cast_or_null<IntegerAttr>(a))
              v = T.bv(ia.getValue());
            else
              v = elemIsFloat ? T.real(0)
                              : T.bv(0, r->elemType.getIntOrFloatBitWidth());
          } else if (r->global && (r->space == StateSpace::Global ||
                                   r->space == StateSpace::Const) &&
                     !r->global.getExternal() &&
                     !r->global->hasAttr("kproof.unmodeled_init")) {
            v = elemIsFloat ? T.real(0)
                            : T.bv(0, r->elemType.getIntOrFloatBitWidth());
          } else {
            // Uninitialized (an output before any store, shared, local):
            // an arbitrary value.
            v = fresh(name + "[" + std::to_string(index) + "]@uninit",
                      elemIsFloat ? Sort::Real : Sort::BV,
                      r->elemType.getIntOrFloatBitWidth());
          }
          if (r->global && r->global->hasAttr("kproof.unmodeled_init")) {
            unknown(loc, "read of " + name + ", whose initializer is not "
                                             "modeled");
            return false;
          }
          bool wantReal = isa<FloatType>(resultType);
          if (wantReal != elemIsFloat) {
            if (wantReal) {
              unknown(loc, "integer data read as a float");
              return false;
            }
            set(f, res, v, /*realBits=*/true, r->elemType);
          } else {
            set(f, res, v);
          }
        }
        return advance();
      })
      .Case<StoreOp>([&](StoreOp st) {
        Term addr;
        std::string name;
        Term offTerm;
        if (!resolveAccess(f, st.getAddr(), st.getOffset(), st.getSpace(),
                           loc, addr, name, offTerm))
          return false;
        Region *r = *regionOf("&" + name);
        if (isMultiThread() && r->space == StateSpace::Shared)
          return sharedMemory.sharedStore(s, f, st, name, offTerm, loc);
        unsigned width =
            std::max(1u, getWidthOf(st.getValues()[0].getType()) / 8);
        SmallVector<SymValue, 4> values;
        for (Value v : st.getValues())
          values.push_back(val(v));
        // Packed elements: an integer store wider than the float elements
        // of a contract buffer (st.v2.u32 of f16x2 pairs, PTX ISA 5.2.1)
        // stores the elements whose FloatBits it holds, element 0 in the
        // low bits.
        if (r->buffer && isa<FloatType>(r->elemType) &&
            width > r->buffer->elemBytes() &&
            width % r->buffer->elemBytes() == 0) {
          unsigned eb = r->buffer->elemBytes();
          StringRef fmt = floatFormat(r->elemType);
          SmallVector<SymValue, 4> pieces;
          for (const SymValue &v : values) {
            Term bitsTerm = bitsOf(v, width * 8, loc);
            if (!bitsTerm)
              return false;
            for (unsigned j = 0; j < width / eb; ++j) {
              Term piece = T.bvExtract(bitsTerm, j * eb * 8, eb * 8);
              Term x = realOfBits(piece, fmt);
              if (!x) {
                unknown(loc, "a store to " + name +
                                 " of bits that are not "
                                 "known as " +
                                 fmt +
                                 " values (packed by "
                                 "integer operations, or of another format)");
                return false;
              }
              pieces.push_back(SymValue{x, true, r->elemType});
            }
          }
          values = std::move(pieces);
          width = eb;
        }
        if (r->buffer && r->buffer->role == BufferBinding::Role::In) {
          s.violations.push_back("store to input buffer '" + name + "'");
          s.violationLocs.push_back(loc);
        }
        bool local = !r->buffer && r->space == StateSpace::Local;
        if (offTerm->getKind() != Kind::BVConst && local) {
          // A per-thread .local array at a symbolic byte offset: the store
          // joins the array's store chain (State::scratchStores).
          unsigned lanes = st.getValues().size();
          localBounds(s, /*store=*/true, name, offTerm, uint64_t(width) * lanes,
                      r->bytes, loc);
          for (auto [k, v] : llvm::enumerate(st.getValues())) {
            SymValue sv = storedValue(val(v), width, loc);
            if (!sv.term)
              return false;
            s.scratchStores.push_back(
                {name, T.bvBin(Kind::BVAdd, offTerm, T.bv(k * width, 64)),
                 width, sv.term, loc});
          }
          ++s.occurrences[st];
          return advance();
        }
        if (offTerm->getKind() != Kind::BVConst) {
          if (!r->buffer || addr->getWidth() != 64 || !s.mem[name].empty() ||
              r->buffer->elemBytes() != width) {
            unknown(loc, "store to " + name +
                             " at a symbolic address (scratch variable, "
                             "mixed with constant-index stores, or of a "
                             "width other than the element's) is not yet "
                             "modeled");
            return false;
          }
          unsigned lanes = values.size();
          SmallVector<Term, 4> terms;
          for (const SymValue &v : values) {
            SymValue sv = floatBits(*r, v, loc);
            if (!sv.term)
              return false;
            terms.push_back(sv.term);
          }
          // PTX ISA 5.4.5: a vector access is aligned to its whole size.
          Term eb = T.bv(width, 64);
          Term vb = T.bv(uint64_t(width) * lanes, 64);
          result.alignments.push_back(
              {s.pc, T.eq(T.bvBin(Kind::BVURem, offTerm, vb), T.bv(0, 64)),
               loc, "alignment of the store to " + name});
          Term index = T.bvBin(Kind::BVUDiv, offTerm, eb);
          // Bounds: checked here, for --verify-sync as for --verify-equiv.
          Term last = T.bvBin(Kind::BVAdd, index, T.bv(lanes - 1, 64));
          result.alignments.push_back(
              {s.pc, T.bvUlt(last, r->buffer->numElementsTerm(T, launch)),
               loc, "stores to " + name + " stay inside its extent of " +
                        r->buffer->extentText() + " elements"});
          for (auto [k, v] : llvm::enumerate(terms)) {
            Term at = T.bvBin(Kind::BVAdd, index, T.bv(k, 64));
            s.symbolicStores.push_back({name, at, v, loc});
            Term byteOff = T.bvBin(Kind::BVAdd, offTerm, T.bv(k * width, 64));
            sharedMemory.recordAccess(s, st, /*write=*/true, name,
                                      /*shared=*/false, byteOff, width, v, loc);
          }
          ++s.occurrences[st];
          return advance();
        }
        uint64_t off = offTerm->getAPInt().getZExtValue();
        if (r->buffer && (width != r->buffer->elemBytes() ||
                          off % r->buffer->elemBytes() != 0)) {
          unknown(loc, "a store of " + Twine(width) + " bytes at byte " +
                           Twine(off) + " of '" + name + "', whose elements "
                           "have " + Twine(r->buffer->elemBytes()) +
                           " bytes, is not modeled");
          return false;
        }
        if (r->buffer && s.storedSymbolically(name)) {
          unknown(loc, "a constant-index store to " + name +
                           " after symbolic-index stores to it is not yet "
                           "modeled");
          return false;
        }
        for (auto [k, v] : llvm::enumerate(values)) {
          uint64_t o = off + k * width;
          if (r->buffer && r->buffer->isSymbolic())
            result.alignments.push_back(
                {s.pc,
                 T.bvUlt(T.bv(o / r->buffer->elemBytes(), 64),
                         r->buffer->numElementsTerm(T, launch)),
                 loc, "store to " + name + " inside its extent of " +
                          r->buffer->extentText() + " elements"});
          if (r->bytes && o + width > r->bytes) {
            s.violations.push_back("store to " + name + " at byte " +
                                   std::to_string(o) +
                                   ", outside its extent of " +
                                   std::to_string(r->bytes) + " bytes");
            s.violationLocs.push_back(loc);
            continue;
          }
          SymValue sv =
              r->buffer ? floatBits(*r, v, loc) : storedValue(v, width, loc);
          if (!sv.term)
            return false;
          sharedMemory.recordAccess(s, st, /*write=*/true, name,
                                    /*shared=*/false, T.bv(o, 64), width,
                                    sv.term, loc);
          if (local && s.hasScratchChain(name)) {
            // After a symbolic store: in program order, on the chain.
            s.scratchStores.push_back({name, T.bv(o, 64), width, sv.term, loc});
            continue;
          }
          // Overlap check with existing cells of another width.
          auto &cells = s.mem[name];
          for (auto &[co, cell] : cells)
            if (co != o && co < o + width && o < co + cell.bytes) {
              unknown(loc, "partially overlapping stores to " + name);
              return false;
            }
          cells.insert_or_assign(o, MemCell{sv.term, sv.realBits, width, loc});
        }
        ++s.occurrences[st];
        return advance();
      })
      .Default([](Operation *) { return std::nullopt; });
}

} // namespace kproof::engine::exec
