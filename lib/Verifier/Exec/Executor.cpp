//===- Executor.cpp - symbolic execution of kproof kernels ----------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The entry point `execute` and the driver loop of the symbolic executor (class
// Executor, declared in ExecutorImpl.h): `run` binds the kernel's parameters
// and regions and runs the states of a worklist, a CTA phase at a time in a
// multi-thread launch (states parked at a barrier continue when every path
// reached one); `step` executes one state op by op (Ops.cpp) under the step and
// memory budgets; `branchTo` enters a block, summarizing a loop it enters
// (LoopSummarizer, LoopSummary.h); `finishPath` records a completed path. Also
// `residentMiB` and `locationString` (Executor.h).
//
//===----------------------------------------------------------------------===//

#include "ExecutorImpl.h"

#include "KProof/Transforms/Passes.h"

#include "llvm/ADT/StringExtras.h"

#include <cstdio>
#include <unistd.h>

using namespace mlir;
using namespace ::kproof;
using namespace ::kproof::engine;

namespace kproof::engine::exec {

Executor::Executor(KernelOp kernel, const LaunchConfig &launch,
                   const std::vector<std::optional<BufferBinding>> &buffers,
                   const std::vector<Term> &scalars, TermContext &terms,
                   Normalizer &normalizer, const ExecutorOptions &options)
    : kernel(kernel), launch(launch), buffers(buffers), scalars(scalars),
      T(terms), N(normalizer), options(options),
      symbols(kernel->getParentOfType<ModuleOp>()),
      loops(*this, terms, normalizer, result, sharedMemory, symbols, buffers),
      sharedMemory(*this, terms, result, launch) {}

//===----------------------------------------------------------------------===//
// Driver loop
//===----------------------------------------------------------------------===//

ExecutionResult Executor::run() {
  // Regions: bound buffers by their base-pointer variables, and module
  // variables.
  for (const std::optional<BufferBinding> &b : buffers)
    if (b) {
      Region r;
      r.name = b->name;
      r.space = StateSpace::Global;
      r.elemType = b->elemType;
      r.bytes = b->numElements() * b->elemBytes();
      r.buffer = &*b;
      regions["&" + b->name] = r;
    }
  ModuleOp module = kernel->getParentOfType<ModuleOp>();
  for (GlobalOp g : module.getOps<GlobalOp>()) {
    Region r;
    r.name = g.getSymName().str();
    r.space = g.getSpace();
    r.elemType = g.getElemType();
    r.bytes = g.getCount() ? *g.getCount() * g.getElementSizeInBytes() : 0;
    // An extern .shared array without a size is the dynamic shared memory
    // the launch provides: its size comes from the contract.
    if (!g.getCount() && g.getSpace() == StateSpace::Shared)
      r.bytes = launch.dynamicShared;
    r.global = g;
    regions["&" + r.name] = r;
  }

  State init;
  // A symbolic launch: every path starts from the launch's range facts.
  init.pc = launch.facts(T);
  Frame f;
  f.func = kernel;
  f.block = &kernel.getBody().front();
  f.it = f.block->begin();
  for (auto [i, arg] : llvm::enumerate(f.block->getArguments())) {
    if (i < buffers.size() && buffers[i]) {
      set(f, arg, T.bvVar("&" + buffers[i]->name, getWidthOf(arg.getType())));
    } else if (i < scalars.size() && scalars[i]) {
      set(f, arg, scalars[i]);
    } else {
      unknown(kernel.getLoc(), "kernel parameter #" + Twine(i) +
                                   " is not bound by the contract");
      return std::move(result);
    }
  }
  init.stack.push_back(std::move(f));
  worklist.push_back(std::move(init));
  static const char *dims[] = {"x", "y", "z"};
  for (int d = 0; d < 3; ++d) {
    if (launch.block[d] > 1) {
      std::string n = std::string("tid.") + dims[d];
      tidVars[T.bvVar(n, 32)] = launch.block[d];
      result.threadVars.push_back({n, launch.block[d]});
    }
  }
  for (int d = 0; d < 3; ++d) {
    if (launch.grid[d] > 1) {
      std::string n = std::string("ctaid.") + dims[d];
      ctaidVars[T.bvVar(n, 32)] = launch.grid[d];
      result.threadVars.push_back({n, launch.grid[d]});
    }
  }
  // Counted barriers anywhere in the module (bar.arrive, or a thread count
  // other than the CTA's): shared reads are checked, not resolved.
  // An id used with bar.arrive or a count anywhere is a counted barrier
  // everywhere (bar.sync 1, 256 with bar.arrive 1, 256 in a 256-thread CTA).
  // The kernel and the functions it calls, transitively.
  SmallVector<KernelOp> reachable{kernel};
  for (size_t i = 0; i < reachable.size(); ++i)
    reachable[i].walk([&](CallOp call) {
      if (auto callee = symbols.lookup<KernelOp>(call.getCallee()))
        if (!llvm::is_contained(reachable, callee))
          reachable.push_back(callee);
    });
  for (KernelOp k :
       isMultiThread() ? ArrayRef(reachable) : ArrayRef<KernelOp>())
    k.walk([&](BarrierOp b) {
      auto constant = [](Value v) -> std::optional<uint64_t> {
        auto c = v ? v.getDefiningOp<ConstantOp>() : ConstantOp();
        auto a = c ? dyn_cast<IntegerAttr>(c.getValue()) : IntegerAttr();
        if (!a)
          return std::nullopt;
        return a.getValue().getZExtValue();
      };
      std::optional<uint64_t> count = constant(b.getCount());
      bool counted =
          b.getKind() == BarrierKind::Arrive ||
          (b.getCount() && (!count || !ctaThreads() || *count != ctaThreads()));
      if (!counted)
        return;
      result.countedBarriers = true;
      if (std::optional<uint64_t> id =
              b.getId() ? constant(b.getId()) : std::optional<uint64_t>(0))
        countedBarrierIds.insert(*id);
    });
  // mbarrier objects order threads by phase, as counted barriers do.
  for (KernelOp k :
       isMultiThread() ? ArrayRef(reachable) : ArrayRef<KernelOp>())
    k.walk([&](Operation *op) {
      if (isa<MBarrierArriveOp, MBarrierWaitOp>(op))
        result.countedBarriers = true;
    });
  while (!worklist.empty() || !parked.empty() || waitingStates) {
    if (worklist.empty() && waitingStates) {
      // States wait at joins whose other states wait at a CTA barrier:
      // they meet in a later phase, if at all. Merge what arrived and let
      // the rest pass the join.
      for (unsigned id = 0; id < joinPoints.size(); ++id)
        if (!joinPoints[id].waiting.empty()) {
          joinPoints[id].abandoned = true;
          releaseJoin(id);
        }
      continue;
    }
    if (worklist.empty()) {
      // Every path reached a barrier or the end: the phase is over
      // (docs/verify-sync.md "The model"); the next one starts for all parked
      // states.
      worklist = std::move(parked);
      parked.clear();
      std::reverse(worklist.begin(), worklist.end());
    }
    State s = std::move(worklist.back());
    worklist.pop_back();
    step(s);
    if (!result.unknownReason.empty())
      break;
    if (result.paths.size() + worklist.size() + parked.size() + waitingStates >
        options.maxPaths) {
      unknown(kernel.getLoc(),
              "more than " + Twine(options.maxPaths) +
                  " paths (data-dependent control flow)" +
                  (loops.failure().empty()
                       ? std::string()
                       : "; not summarized: " + loops.failure()));
      break;
    }
  }
  if (result.unknownReason.empty())
    finishShuffles();
  if (getenv("KPROOF_DUMP_TERMS"))
    llvm::errs() << "; executor: " << result.paths.size()
                 << " paths; unknown: " << result.unknownReason << "\n";
  llvm::DenseMap<Term, bool> residues;
  result.generations =
      GenerationOrder::build(result.arrivals, [&](const BarrierArrival &a) {
        // Some thread id makes the path condition true by itself (the
        // normalizer decides it with the id substituted), concrete CTAs.
        if (launch.isSymbolic())
          return false;
        uint64_t bx = launch.block[0], by = launch.block[1],
                 cta = bx * by * launch.block[2];
        static const char *names[] = {"tid.x", "tid.y", "tid.z"};
        for (uint64_t lin = 0; lin < cta && lin < 1024; ++lin) {
          llvm::DenseMap<Term, Term> sub;
          uint64_t xyz[3] = {lin % bx, (lin / bx) % by, lin / (bx * by)};
          for (int d = 0; d < 3; ++d)
            if (launch.block[d] > 1)
              sub[T.bvVar(names[d], 32)] = T.bv(xyz[d], 32);
          Term v = T.substitute(a.pathCondition, sub);
          if (v->getKind() == Kind::BoolConst) {
            if (v->getBoolValue())
              return true;
            continue;
          }
          // What is left is over the CTA ids and the data: true for every
          // CTA and input (the range facts of the launch), decided once
          // per residue.
          auto [it, fresh] = residues.try_emplace(v, false);
          if (fresh && residues.size() <= 16) {
            SmallVector<Term> facts{launch.facts(T), T.notOf(v)};
            for (auto &[var, extent] : ctaIdVars())
              facts.push_back(T.bvUlt(var, launch.extentOf(T, var->getName())));
            it->second = !mayHold(T.andOf(facts));
          }
          if (it->second)
            return true;
        }
        return false;
      });
  if (getenv("KPROOF_DUMP_TERMS")) {
    for (bool must : {true, false})
      for (auto &[from, tos] :
           must ? result.generations.must : result.generations.may)
        for (auto &to : tos)
          llvm::errs() << "; generation order (" << (must ? "must" : "may")
                       << "): (" << from.first << ", " << from.second
                       << ") -> (" << to.first << ", " << to.second << ")\n";
  }
  findUnalignedArrivals();
  if (result.unknownReason.empty())
    sharedMemory.checkCountedReads();
  if (result.unknownReason.empty())
    sharedMemory.checkGlobalReads();
  return std::move(result);
}

void Executor::step(State &s) {
  while (true) {
    Frame &f = s.stack.back();
    if (f.it == f.block->end()) {
      unknown(f.func.getLoc(), "block without terminator");
      return;
    }
    if (!s.joins.empty() && f.it == f.block->begin() && arriveAtJoin(s))
      return;
    Operation *op = &*f.it;
    if (options.memoryLimitMiB && (steps & 4095) == 0 &&
        residentMiB() > options.memoryLimitMiB) {
      unknown(op->getLoc(), "memory budget of " +
                                Twine(options.memoryLimitMiB) +
                                " MiB exceeded during symbolic execution "
                                "(--memory-limit)");
      return;
    }
    if (options.deadline && (steps & 4095) == 0 &&
        std::chrono::steady_clock::now() > *options.deadline) {
      unknown(op->getLoc(), "time limit of " + Twine(options.timeoutSeconds) +
                                " s reached during symbolic execution "
                                "(--timeout)");
      return;
    }
    if (++steps > options.maxSteps) {
      unknown(op->getLoc(), "step limit of " + Twine(options.maxSteps) +
                                " operations reached (loop bound not "
                                "proven)");
      return;
    }
    if (!execOp(s, op))
      return;
  }
}

void Executor::finishPath(State &s) {
  leaveJoins(s);
  // cp.async copies no wait completed: in flight until the end.
  for (const State::AsyncCopy &c : s.asyncCopies)
    completeAsyncCopy(s, c, MemoryAccess::kNeverCompleted, c.loc);
  s.asyncCopies.clear();
  if (isMultiThread()) {
    Frame &f = s.stack.back();
    result.arrivals.push_back(
        {s.phase, nullptr, true, s.pc,
         f.it != f.block->end() ? f.it->getLoc() : f.func.getLoc(), 0, s.clock,
         s.events});
  }
  PathResult p;
  p.pathCondition = s.pc;
  p.violations = s.violations;
  p.violationLocs = s.violationLocs;
  p.symbolicStores = s.symbolicStores;
  for (auto &[name, cells] : s.mem) {
    auto it = regions.find("&" + name);
    if (it == regions.end() || !it->second.buffer)
      continue; // shared/local scratch: not an output
    const BufferBinding &b = *it->second.buffer;
    for (auto &[off, cell] : cells) {
      uint64_t idx = off / b.elemBytes();
      p.stores[name].insert_or_assign(
          idx, FinalStore{name, idx, cell.value, cell.loc});
    }
  }
  result.paths.push_back(std::move(p));
}

bool Executor::branchTo(State &s, Block *dest, OperandRange args) {
  Frame &f = s.stack.back();
  SmallVector<SymValue> vals;
  for (Value a : args)
    vals.push_back(get(f, a));
  // Entering a loop (from outside it): summarize it when it has the
  // supported shape and a symbolic trip count.
  if (options.summarizeLoops && f.block && f.block != dest) {
    std::string why;
    const LoopSummarizer::LoopShape *L = loops.loopAt(dest, why);
    if (L && !L->blocks.count(f.block) && loops.summarizeLoop(s, dest, vals))
      return true;
    // Debugging aid: why a loop entered from outside is unrolled.
    if (getenv("KPROOF_DUMP_TERMS") && !loops.failure().empty() &&
        (!L || !L->blocks.count(f.block)))
      llvm::errs() << "; loop not summarized: " << loops.failure() << "\n";
  }
  for (auto [arg, v] : llvm::zip(dest->getArguments(), vals))
    f.env[arg] = v;
  f.block = dest;
  f.it = dest->begin();
  return true;
}

void Executor::unknown(Location loc, const Twine &why) {
  if (result.unknownReason.empty()) {
    result.unknownReason = why.str();
    result.unknownLoc = loc;
  }
}

Term Executor::fresh(StringRef base, Sort sort, unsigned width) {
  std::string name = (base + "#" + Twine(freshCounter++)).str();
  if (sort == Sort::Real)
    return T.realVar(name);
  if (sort == Sort::Bool)
    return T.boolVar(name);
  return T.bvVar(name, width);
}

Sort Executor::sortOf(Type t) {
  if (t.isInteger(1))
    return Sort::Bool;
  // Packed halves (vector<2xf16>) are the bits of their elements.
  if (isa<IntegerType>(t) || isa<VectorType>(t))
    return Sort::BV;
  return Sort::Real;
}

StringRef Executor::floatFormat(Type t) {
  if (!t)
    return {};
  if (t.isF16())
    return "f16";
  if (t.isBF16())
    return "bf16";
  if (t.isF32())
    return "f32";
  if (t.isF64())
    return "f64";
  return {};
}

void Executor::set(Frame &f, Value v, Term t, bool realBits, Type realType) {
  if (!realBits && t && t->getSort() == Sort::BV &&
      isa<IntegerType>(v.getType()) &&
      getWidthOf(v.getType()) == t->getWidth()) {
    // Bits of a real filling the register: FloatBits, or an ite over
    // FloatBits and constants of one format.
    std::function<bool(Term)> hasFloatBits = [&](Term u) {
      return u->getKind() == Kind::FloatBits ||
             (u->getKind() == Kind::Ite && (hasFloatBits(u->getOperand(1)) ||
                                            hasFloatBits(u->getOperand(2))));
    };
    if (hasFloatBits(t)) {
      MLIRContext *ctx = v.getContext();
      for (Type ft : {Type(Float16Type::get(ctx)), Type(BFloat16Type::get(ctx)),
                      Type(Float32Type::get(ctx)), Type(Float64Type::get(ctx))})
        if (ft.getIntOrFloatBitWidth() == t->getWidth())
          if (Term r = realOfBits(t, floatFormat(ft))) {
            f.env[v] = SymValue{r, true, ft};
            return;
          }
    }
  }
  if (realBits && !realType) {
    unsigned w = getWidthOf(v.getType());
    if (w == 32)
      realType = Float32Type::get(v.getContext());
    else if (w == 64)
      realType = Float64Type::get(v.getContext());
  }
  f.env[v] = SymValue{t, realBits, realBits ? realType : Type()};
}

StringRef Executor::realFormat(const SymValue &v, unsigned width) {
  if (StringRef fmt = floatFormat(v.realType); !fmt.empty())
    return fmt;
  return width == 32 ? "f32" : width == 64 ? "f64" : StringRef();
}

Term Executor::realOfBits(Term t, StringRef format) {
  return T.realOfFloatBits(t, format, [&](Term leaf) -> Term {
    Term var = leaf->getKind() == Kind::BVExtract ? leaf->getOperand(0) : leaf;
    if (var->getKind() != Kind::BVVar || !var->getName().contains("@uninit"))
      return nullptr;
    Term &r = uninitHalves[leaf];
    if (!r)
      r = fresh(var->getName().str() + ".bits", Sort::Real);
    return r;
  });
}

Term Executor::bitsOf(const SymValue &v, unsigned width, Location loc) {
  if (!v.term)
    return nullptr;
  if (!v.realBits && v.term->getSort() == Sort::BV)
    return v.term;
  StringRef fmt = realFormat(v, width);
  if (fmt.empty()) {
    unknown(loc, "the bits of a " + Twine(width) +
                     "-bit real value of unknown format (f16 or bf16)");
    return nullptr;
  }
  return T.floatBits(v.term, fmt);
}

} // namespace kproof::engine::exec

ExecutionResult kproof::engine::execute(
    KernelOp kernel, const LaunchConfig &launch,
    const std::vector<std::optional<BufferBinding>> &buffers,
    const std::vector<Term> &scalars, TermContext &terms,
    Normalizer &normalizer, const ExecutorOptions &options) {
  // Lanes as functions of the thread ids, per-read registers tagged: the
  // executor reads what the pass computes (Threads.cpp).
  symbolizeLanes(kernel);
  // Math-library sequences (nvcc's expf) tagged, in the kernel and in the
  // device functions it may call: execOp reads the tags (Ops.cpp).
  recognizeMathIdioms(kernel->getParentOp() ? kernel->getParentOp()
                                            : kernel.getOperation());
  exec::Executor ex(kernel, launch, buffers, scalars, terms, normalizer,
                    options);
  return ex.run();
}

uint64_t kproof::engine::residentMiB() {
  std::FILE *f = std::fopen("/proc/self/statm", "r");
  if (!f)
    return 0;
  unsigned long long size = 0, resident = 0;
  int n = std::fscanf(f, "%llu %llu", &size, &resident);
  std::fclose(f);
  if (n != 2)
    return 0;
  return resident * uint64_t(sysconf(_SC_PAGESIZE)) / (1024 * 1024);
}

/// "file.ptx:line:col", followed by " (file.cu:line:col)" when the PTX
/// instruction carries a `.loc` source location.
std::string kproof::engine::locationString(Location loc) {
  // A store of merged states (Executor.cpp, mergedLoc): each side's store.
  if (auto fused = dyn_cast<FusedLoc>(loc))
    if (auto tag = dyn_cast_or_null<StringAttr>(fused.getMetadata());
        tag && tag.getValue().starts_with("kproof.merged.")) {
      SmallVector<std::string, 2> sides;
      for (Location l : fused.getLocations()) {
        std::string one = locationString(l);
        if (!llvm::is_contained(sides, one))
          sides.push_back(one);
      }
      return llvm::join(sides, " or ");
    }
  SmallVector<std::string, 2> parts;
  loc->walk([&](Location l) {
    if (auto f = dyn_cast<FileLineColLoc>(l))
      parts.push_back((f.getFilename().getValue() + ":" + Twine(f.getLine()) +
                       ":" + Twine(f.getColumn()))
                          .str());
    return WalkResult::advance();
  });
  if (parts.empty())
    return "<unknown location>";
  if (parts.size() == 1)
    return parts[0];
  return parts[0] + " (" + parts[1] + ")";
}
