//===- Ops.cpp - execution of one operation -------------------------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// execOp executes one op of the innermost frame: the cases of one concern are
// in ArithOps.cpp, MemoryOps.cpp and SyncOps.cpp; here are constants, undef,
// bitcasts, special registers, addresses (addressof, cvta), packing and
// unpacking, createpolicy, control flow (br; a data-dependent cond_br forks the
// state, in a multi-thread launch drops a side no thread can take (mayHold),
// and heads both sides for their join), calls of .func bodies (inlined) and of
// vprintf and __assertfail, return, exit and trap. Other ops are UNKNOWN. Also
// the operand readers shared by the cases (`realOperand`, `bitsOperand`,
// `resultModeled`).
//
//===----------------------------------------------------------------------===//

#include "ExecutorImpl.h"

#include "KProof/Transforms/Passes.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace ::kproof;
using namespace ::kproof::engine;

namespace kproof::engine::exec {

bool Executor::execOp(State &s, Operation *op) {
  if (std::optional<bool> r = execMathIdiom(s, op))
    return *r;
  if (std::optional<bool> r = execArithOp(s, op))
    return *r;
  if (std::optional<bool> r = execFloatOp(s, op))
    return *r;
  if (std::optional<bool> r = execMemoryOp(s, op))
    return *r;
  if (std::optional<bool> r = execAsyncCopyOp(s, op))
    return *r;
  if (std::optional<bool> r = execMBarrierOp(s, op))
    return *r;
  if (std::optional<bool> r = execSyncOp(s, op))
    return *r;
  Frame &f = s.stack.back();
  Location loc = op->getLoc();
  auto advance = [&]() {
    ++f.it;
    return true;
  };
  auto val = [&](Value v) { return get(f, v); };
  auto bits = [&](Value v) { return bitsOperand(f, v, loc); };
  auto done = [&](Term t) { return resultModeled(t, loc); };

  return llvm::TypeSwitch<Operation *, bool>(op)
      .Case<ConstantOp>([&](ConstantOp c) {
        Attribute a = c.getValue();
        Term t;
        if (auto i = dyn_cast<IntegerAttr>(a)) {
          t = c.getType().isInteger(1) ? T.boolConst(i.getValue().getBoolValue())
                                       : T.bv(i.getValue());
        } else if (auto fl = dyn_cast<FloatAttr>(a)) {
          // A transcendental constant (log2(e), ln(2), ...) is read as
          // the exact value, an assumption of the verdict (Constants.h).
          std::optional<TranscendentalConstant> reading;
          t = floatConstant(T, fl.getValue(), &reading);
          if (!t) {
            unknown(loc, "NaN constants are not modeled");
            return false;
          }
          if (reading)
            result.idioms.push_back({reading->describe(), loc});
        } else {
          unknown(loc, "vector constants are not modeled");
          return false;
        }
        set(f, c, t);
        return advance();
      })
      .Case<UndefOp>([&](UndefOp u) {
        set(f, u, fresh("undef", sortOf(u.getType()),
                        isa<IntegerType>(u.getType())
                            ? u.getType().getIntOrFloatBitWidth()
                            : 0));
        return advance();
      })
      .Case<BitcastOp>([&](BitcastOp b) {
        SymValue in = val(b.getInput());
        if (!in.term)
          return false;
        Type from = b.getInput().getType(), to = b.getType();
        if (isa<VectorType>(to) || isa<VectorType>(from)) {
          // Packed halves <-> a 32-bit register: the same bits.
          Term t = bitsOf(in, getWidthOf(from), loc);
          if (!t)
            return false;
          set(f, b, t);
          return advance();
        }
        if (isa<FloatType>(to)) {
          if (in.term->getSort() == Sort::Real) {
            // A real read back at its own type (f32 -> f32 through a .b32
            // register); bf16 bits read as f16 (or the converse) are
            // another value.
            Type held = isa<FloatType>(from) ? from : in.realType;
            if (!held || held == to) {
              set(f, b, in.term);
              return advance();
            }
            unknown(loc, "the bits of a real value of one float type read "
                         "as another (bf16 as f16, or f16 as bf16)");
            return false;
          }
          // Constant bits (an accumulator zeroed with mov.b32 %r, 0) and
          // the bits of reals of this float type are their values.
          StringRef fmt = floatFormat(to);
          if (Term r = fmt.empty() ? nullptr : realOfBits(in.term, fmt)) {
            set(f, b, r);
            return advance();
          }
          unknown(loc, "an integer bit pattern reinterpreted as a float is "
                       "not modeled");
          return false;
        }
        if (isa<IntegerType>(to) && !to.isInteger(1)) {
          if (in.term->getSort() == Sort::Real) {
            set(f, b, in.term, /*realBits=*/true,
                isa<FloatType>(from) ? from : in.realType);
            return advance();
          }
          set(f, b, in.term, in.realBits, in.realType);
          return advance();
        }
        unknown(loc, "bitcast to " + std::string("a vector") +
                         " is not modeled");
        return false;
      })
      .Case<SRegOp>([&](SRegOp r) {
        Term t = specialRegister(s, r.getReg(), loc,
                                 r->hasAttr(kFreshPerReadAttr));
        if (!t)
          return false;
        if (r.getType().getIntOrFloatBitWidth() != t->getWidth())
          t = T.bvZExt(t, r.getType().getIntOrFloatBitWidth());
        set(f, r, t);
        return advance();
      })
      .Case<AddressOfOp>([&](AddressOfOp a) {
        set(f, a,
            T.bvVar("&" + a.getName().str(), getWidthOf(a.getType())));
        return advance();
      })
      .Case<CvtaOp>([&](CvtaOp c) {
        // The generic and global windows coincide (PTX ISA 9.7.9.17). For
        // .shared/.local/.const/.param, an address here is its variable's
        // base plus an offset, and the base names the state space: the
        // conversion keeps the term (zero-extended or truncated to the
        // result's width; shared windows are below 2^32).
        Term a = bits(c.getInput());
        if (!a)
          return false;
        unsigned w = getWidthOf(c.getResult().getType());
        if (a->getWidth() < w)
          a = T.bvZExt(a, w);
        else if (a->getWidth() > w)
          a = T.bvExtract(a, 0, w);
        set(f, c, a);
        return advance();
      })
      .Case<PackOp>([&](PackOp pk) {
        // mov.b32 d, {lo, hi}: the first element is the low half.
        SmallVector<SymValue> parts;
        for (Value e : pk.getElements())
          parts.push_back(val(e));
        // {0, bf16 bits} is the bf16 value widened to f32, exactly
        // (nvcc's __bfloat162float on sm_80).
        if (parts.size() == 2 && pk.getType().isInteger(32) &&
            parts[1].realBits && parts[1].realType &&
            parts[1].realType.isBF16() && parts[0].term &&
            parts[0].term->getKind() == Kind::BVConst &&
            parts[0].term->getAPInt().isZero()) {
          set(f, pk, parts[1].term, /*realBits=*/true);
          return advance();
        }
        // Real parts (halves of f16x2) travel as their FloatBits.
        Term r = nullptr;
        for (auto [k, v] : llvm::enumerate(parts)) {
          Term t = bitsOf(v, getWidthOf(pk.getElements()[k].getType()), loc);
          if (!t)
            return false;
          r = r ? T.bvConcat(t, r) : t;
        }
        if (!done(r))
          return false;
        set(f, pk, r);
        return advance();
      })
      .Case<UnpackOp>([&](UnpackOp up) {
        SymValue in = val(up.getInput());
        Term a = bitsOf(in, getWidthOf(up.getInput().getType()), loc);
        if (!a)
          return false;
        unsigned w = getWidthOf(up.getElements()[0].getType());
        for (auto [i, r] : llvm::enumerate(up.getElements()))
          set(f, r, T.bvExtract(a, i * w, w));
        return advance();
      })
      .Case<CreatePolicyOp>([&](CreatePolicyOp c) {
        set(f, c, fresh("policy", Sort::BV, 64));
        return advance();
      })
      .Case<OpaqueOp>([&](OpaqueOp o) {
        unknown(loc, "unmodeled PTX instruction '" + o.getText() + "'");
        return false;
      })
      .Case<TrapOp>([&](TrapOp) {
        leaveJoins(s);
        PathResult p;
        p.pathCondition = s.pc;
        p.trapped = true;
        p.trapLoc = loc;
        result.paths.push_back(std::move(p));
        return false;
      })
      .Case<cf::BranchOp>([&](cf::BranchOp br) {
        return branchTo(s, br.getDest(), br.getDestOperands());
      })
      .Case<cf::CondBranchOp>([&](cf::CondBranchOp br) {
        Term c = bits(br.getCondition());
        if (!c)
          return false;
        if (c->getKind() == Kind::BoolConst) {
          return c->getBoolValue()
                     ? branchTo(s, br.getTrueDest(), br.getTrueDestOperands())
                     : branchTo(s, br.getFalseDest(),
                                br.getFalseDestOperands());
        }
        // A data-dependent branch: fork (bounded: a loop whose exit depends
        // on data forks once per iteration).
        if (result.paths.size() + worklist.size() + waitingStates + 1 >
            options.maxPaths) {
          unknown(loc, "more than " + Twine(options.maxPaths) +
                           " paths (data-dependent control flow, or a loop "
                           "whose trip count depends on data)" +
                           (loops.failure().empty()
                                ? std::string()
                                : "; not summarized: " + loops.failure()));
          return false;
        }
        // Prune a side no thread can take (conditions over thread ids,
        // e.g. tid < 64 after tid >= 128).
        Term pcTrue = T.andOf(s.pc, c), pcFalse = T.andOf(s.pc, T.notOf(c));
        if (isMultiThread()) {
          if (!mayHold(pcTrue)) {
            s.pc = pcFalse;
            return branchTo(s, br.getFalseDest(), br.getFalseDestOperands());
          }
          if (!mayHold(pcFalse)) {
            s.pc = pcTrue;
            return branchTo(s, br.getTrueDest(), br.getTrueDestOperands());
          }
        }
        // Both sides head for the joins `s` heads for, and for the block
        // where they meet again.
        ++result.forks;
        for (const State::PendingJoin &j : s.joins)
          ++joinPoints[j.id].live;
        if (Block *join = joinBlockOf(br->getBlock())) {
          s.joins.push_back(
              {unsigned(joinPoints.size()), join, s.stack.size()});
          joinPoints.emplace_back();
          joinPoints.back().live = 2;
        }
        State other = s;
        other.pc = pcFalse;
        // (`s` is pending while `other` branches: otherStatesPending.)
        ++siblingsPending;
        branchTo(other, br.getFalseDest(), br.getFalseDestOperands());
        --siblingsPending;
        worklist.push_back(std::move(other));
        s.pc = pcTrue;
        return branchTo(s, br.getTrueDest(), br.getTrueDestOperands());
      })
      .Case<CallOp>([&](CallOp call) {
        auto callee = symbols.lookup<KernelOp>(call.getCallee());
        if (!callee || callee.getBody().empty()) {
          StringRef name = call.getCallee();
          if (name == "vprintf") {
            // An opaque side effect: the returned count is arbitrary.
            for (Value r : call.getResults())
              set(f, r, fresh("vprintf", Sort::BV, 32));
            return advance();
          }
          if (name == "__assertfail") {
            leaveJoins(s);
            PathResult p;
            p.pathCondition = s.pc;
            p.trapped = true;
            p.trapLoc = loc;
            result.paths.push_back(std::move(p));
            return false;
          }
          unknown(loc, "call to '" + name + "', which has no body");
          return false;
        }
        if (s.stack.size() > 64) {
          unknown(loc, "call depth above 64 (recursion)");
          return false;
        }
        Frame callee_f;
        callee_f.func = callee;
        callee_f.block = &callee.getBody().front();
        callee_f.it = callee_f.block->begin();
        callee_f.callSite = call;
        for (auto [arg, v] :
             llvm::zip(callee_f.block->getArguments(), call.getArgs()))
          callee_f.env[arg] = val(v);
        s.stack.push_back(std::move(callee_f));
        return true;
      })
      .Case<ReturnOp, ExitOp>([&](Operation *term) {
        if (isa<ExitOp>(term) || s.stack.size() == 1) {
          finishPath(s);
          return false;
        }
        SmallVector<SymValue> rets;
        for (Value v : term->getOperands())
          rets.push_back(val(v));
        Operation *site = f.callSite;
        s.stack.pop_back();
        Frame &caller = s.stack.back();
        for (auto [r, v] : llvm::zip(site->getResults(), rets))
          caller.env[r] = v;
        ++caller.it;
        return true;
      })
      .Default([&](Operation *o) {
        unknown(loc, "operation '" + o->getName().getStringRef() +
                         "' is not modeled");
        return false;
      });
}

Term Executor::realOperand(Frame &f, Value v, Location loc) {
  SymValue sv = get(f, v);
  if (!sv.term) {
    // A register the executor has no value for (an internal gap): the path
    // is not dropped silently.
    unknown(loc, "an operand without a value in the executor (not modeled)");
    return nullptr;
  }
  if (sv.term->getSort() != Sort::Real) {
    // A constant bit pattern is its float (mov.b32 %r, -8388608 is -inf).
    if (Term r = floatOfBits(T, sv.term, v.getType()))
      return r;
    unknown(loc, "an integer bit pattern reinterpreted as a float is not "
                 "modeled");
    return nullptr;
  }
  return sv.term;
}

std::optional<bool> Executor::execMathIdiom(State &s, Operation *op) {
  Frame &f = s.stack.back();
  if (op->hasAttr(kIdiomInteriorAttr)) {
    // Read only by the idiom's root, which gives the value: not evaluated
    // (a placeholder keeps the register defined).
    for (Value r : op->getResults())
      set(f, r,
          sortOf(r.getType()) == Sort::Real
              ? T.real(0)
              : sortOf(r.getType()) == Sort::Bool
                    ? T.boolConst(false)
                    : T.bv(0, r.getType().getIntOrFloatBitWidth()));
    ++f.it;
    return true;
  }
  if (!op->hasAttr(kMathIdiomAttr))
    return std::nullopt;
  // The root of the idiom its tag names, matched again for its operands;
  // a tag that no longer matches (the IR changed after recognition) is
  // UNKNOWN: its interior ops were skipped, so nothing here can be trusted.
  StringRef kind = op->getAttrOfType<StringAttr>(kMathIdiomAttr)
                       ? op->getAttrOfType<StringAttr>(kMathIdiomAttr).getValue()
                       : StringRef();
  Location loc = op->getLoc();
  auto stale = [&] {
    unknown(loc, "a tagged math idiom no longer matches its instructions");
    return false;
  };
  Term r;
  const char *idiom;
  if (kind == "logf") {
    std::optional<LogF32Idiom> l = matchNvccLogF32(op);
    if (!l)
      return stale();
    // log(x) for x > 0, -inf at 0; NaN for a negative x, which the reals
    // model leaves as an obligation (as lg2's positive operand).
    Term x = realOperand(f, l->x, loc);
    if (!x)
      return false;
    result.alignments.push_back(
        {s.pc, T.realLe(T.real(0), x), loc, "non-negative operand of logf"});
    r = x->isRealConst() && x->getRational().isZero()
            ? T.negInf()
            : T.ite(T.eq(x, T.real(0)), T.negInf(), T.realFn("log", {x}));
    idiom = "nvcc logf (exponent and mantissa split, degree-8 polynomial) "
            "read as log(x), -inf at 0";
  } else if (kind == "expf") {
    std::optional<ExpF32Idiom> m = matchNvccExpF32(op);
    if (!m)
      return stale();
    Term x = realOperand(f, m->x, loc);
    if (!x)
      return false;
    r = T.exp(x);
    if (r && m->addend) {
      Term c = realOperand(f, m->addend, loc);
      if (!c)
        return false;
      r = T.add(r, c);
    }
    idiom = "nvcc expf range reduction (cvt.sat, fma.rm, shl 23, ex2) read "
            "as exp(x)";
  } else if (kind == "tanhf") {
    std::optional<TanhF32Idiom> t = matchNvccTanhF32(op);
    if (!t)
      return stale();
    Term x = realOperand(f, t->x, loc);
    if (!x)
      return false;
    r = T.realFn("tanh", {x});
    idiom = "nvcc tanhf (1 - 2 / (exp(2|x|) + 1) with the sign of x above "
            "0.6, saturated at 9.01; an odd polynomial below) read as "
            "tanh(x)";
  } else {
    return stale();
  }
  r = settleExtended(s, r);
  if (!resultModeled(r, loc))
    return false;
  result.idioms.push_back({idiom, loc});
  // A root that moves the value into an integer register (-G's tanhf
  // returns it through a bitcast) holds it as real bits.
  set(f, op->getResult(0), r, !isa<FloatType>(op->getResult(0).getType()));
  ++f.it;
  return true;
}

Term Executor::settleExtended(State &s, Term t) {
  if (!t || t->getKind() != Kind::Ite || !t->mayBeNonFinite() ||
      t->getExtendedLeaves() > 16)
    return t;
  Term c = t->getOperand(0);
  int &d = extendedCaseMemo
               .try_emplace({s.pc->getId(), c->getId()}, 2)
               .first->second;
  if (d == 2)
    d = !mayHold(T.andOf(s.pc, T.notOf(c)))  ? 1
        : !mayHold(T.andOf(s.pc, c))         ? 0
                                             : -1;
  if (d == 1)
    return settleExtended(s, t->getOperand(1));
  if (d == 0)
    return settleExtended(s, t->getOperand(2));
  Term a = settleExtended(s, t->getOperand(1)),
       b = settleExtended(s, t->getOperand(2));
  return a == t->getOperand(1) && b == t->getOperand(2) ? t : T.ite(c, a, b);
}

Term Executor::bitsOperand(Frame &f, Value v, Location loc) {
  SymValue sv = get(f, v);
  if (!sv.term)
    return nullptr;
  if (sv.realBits || sv.term->getSort() == Sort::Real) {
    unknown(loc, "bit operation on a register holding a real value is not "
                 "modeled");
    return nullptr;
  }
  return sv.term;
}

bool Executor::resultModeled(Term t, Location loc) {
  if (!t) {
    if (result.unknownReason.empty())
      unknown(loc, "infinities meet (inf - inf or 0 * inf) or an operand "
                   "is not modeled");
    return false;
  }
  return true;
}

} // namespace kproof::engine::exec
