//===- Interpreter.cpp - concrete execution of kproof kernels -------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The instruction semantics mirror the symbolic executor's execOp
// (lib/Verifier/Exec/Ops.cpp, ArithOps.cpp, MemoryOps.cpp, SyncOps.cpp) op
// by op; where the executor refuses (UNKNOWN), the interpreter either
// computes the PTX ISA's concrete result (float -> int conversions, packed
// halves, shuffles) or stops with an error naming the op.
// docs/interpreter.md lists both.
//
//===----------------------------------------------------------------------===//

#include "KProof/Interpreter/Interpreter.h"

#include "KProof/Verifier/Check/EquivalenceChecker.h"
#include "KProof/Verifier/Terms/Constants.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MathExtras.h"

#include <cfenv>
#include <cmath>
#include <gmp.h>
#include <mpfr.h>
#include <random>
#include <set>

using namespace mlir;
using namespace ::kproof;
using namespace ::kproof::interp;
using llvm::APFloat;
using llvm::APInt;

//===----------------------------------------------------------------------===//
// Small public helpers
//===----------------------------------------------------------------------===//

std::optional<Schedule> kproof::interp::parseSchedule(llvm::StringRef text) {
  Schedule s;
  if (text == "inorder" || text == "in-order")
    s.policy = SchedulePolicy::InOrder;
  else if (text == "reversed")
    s.policy = SchedulePolicy::Reversed;
  else if (text == "warp-rr" || text == "warp-round-robin")
    s.policy = SchedulePolicy::WarpRoundRobin;
  else if (text.consume_front("random")) {
    s.policy = SchedulePolicy::Random;
    if (text.consume_front(":")) {
      if (text.getAsInteger(10, s.seed))
        return std::nullopt;
    } else if (!text.empty()) {
      return std::nullopt;
    }
  } else {
    return std::nullopt;
  }
  return s;
}

std::string kproof::interp::toString(const Schedule &s) {
  switch (s.policy) {
  case SchedulePolicy::InOrder: return "inorder";
  case SchedulePolicy::Reversed: return "reversed";
  case SchedulePolicy::WarpRoundRobin: return "warp-rr";
  case SchedulePolicy::Random: return "random:" + std::to_string(s.seed);
  }
  return "?";
}

std::string Scalar::toString() const {
  switch (kind) {
  case Kind::PosInf: return "inf";
  case Kind::NegInf: return "-inf";
  case Kind::NaN: return "nan";
  case Kind::Finite: break;
  }
  return value.toString();
}

struct BigFloat::Impl {
  mpfr_t v;
};

BigFloat::BigFloat(unsigned precisionBits) : impl(new Impl) {
  mpfr_init2(impl->v, precisionBits);
  mpfr_set_zero(impl->v, 1);
}
BigFloat::BigFloat(const BigFloat &o) : impl(new Impl) {
  mpfr_init2(impl->v, mpfr_get_prec(o.impl->v));
  mpfr_set(impl->v, o.impl->v, MPFR_RNDN);
}
BigFloat &BigFloat::operator=(const BigFloat &o) {
  mpfr_set_prec(impl->v, mpfr_get_prec(o.impl->v));
  mpfr_set(impl->v, o.impl->v, MPFR_RNDN);
  return *this;
}
BigFloat::~BigFloat() { mpfr_clear(impl->v); }
void *BigFloat::raw() { return impl->v; }
const void *BigFloat::raw() const { return impl->v; }
double BigFloat::toDouble() const { return mpfr_get_d(impl->v, MPFR_RNDN); }
std::string BigFloat::toString(unsigned digits) const {
  if (mpfr_nan_p(impl->v))
    return "nan";
  if (mpfr_inf_p(impl->v))
    return mpfr_sgn(impl->v) < 0 ? "-inf" : "inf";
  char *s = nullptr;
  std::string fmt = "%." + std::to_string(digits) + "Rg";
  mpfr_asprintf(&s, fmt.c_str(), impl->v);
  std::string out = s ? s : "?";
  mpfr_free_str(s);
  return out;
}

std::string kproof::interp::locationString(Location loc) {
  return engine::locationString(loc);
}

llvm::StringRef kproof::interp::findingKindName(Finding::Kind kind) {
  switch (kind) {
  case Finding::Kind::Race: return "race";
  case Finding::Kind::Uninitialized: return "uninitialized read";
  case Finding::Kind::OutOfBounds: return "out-of-bounds access";
  case Finding::Kind::StoreToInput: return "store to an input buffer";
  case Finding::Kind::Misaligned: return "misaligned access";
  case Finding::Kind::BarrierDivergence: return "barrier divergence";
  case Finding::Kind::Membermask: return "membermask violation";
  case Finding::Kind::Deadlock: return "deadlock";
  case Finding::Kind::Trap: return "trap";
  case Finding::Kind::MBarrier:
    return "mbarrier misuse";
  }
  return "?";
}

/// The IEEE semantics of a float type (f16, bf16, f32, f64).
static const llvm::fltSemantics &semanticsOf(Type t) {
  return cast<FloatType>(t).getFloatSemantics();
}

Scalar kproof::interp::scalarOfBits(uint64_t bits, Type type, bool isSigned) {
  if (auto it = dyn_cast<IntegerType>(type)) {
    APInt v(it.getWidth(), bits);
    return Scalar(Rational::fromAPInt(v, isSigned && it.getWidth() > 1));
  }
  unsigned w = type.getIntOrFloatBitWidth();
  APFloat f(semanticsOf(type), APInt(w, bits));
  if (f.isNaN())
    return Scalar::special(Scalar::Kind::NaN);
  if (f.isInfinity())
    return Scalar::special(f.isNegative() ? Scalar::Kind::NegInf
                                          : Scalar::Kind::PosInf);
  return Scalar(*Rational::fromAPFloat(f));
}

uint64_t kproof::interp::bitsOfScalar(const Scalar &s, Type type, bool *exact) {
  if (exact)
    *exact = true;
  if (auto it = dyn_cast<IntegerType>(type)) {
    unsigned w = it.getWidth();
    if (!s.isFinite() || !s.value.isInteger()) {
      if (exact)
        *exact = false;
      return 0;
    }
    // Wrap modulo 2^w; exact when -2^(w-1) <= v < 2^w (a signed or an
    // unsigned value of the width).
    mpz_srcptr v = mpq_numref(s.value.get());
    mpz_t r, lo, hi;
    mpz_inits(r, lo, hi, nullptr);
    mpz_fdiv_r_2exp(r, v, w);
    mpz_ui_pow_ui(hi, 2, w);
    mpz_ui_pow_ui(lo, 2, w - 1);
    mpz_neg(lo, lo);
    if (exact)
      *exact = mpz_cmp(v, lo) >= 0 && mpz_cmp(v, hi) < 0;
    uint64_t bits = 0;
    size_t count = 0;
    mpz_export(&bits, &count, -1, sizeof(bits), 0, 0, r);
    mpz_clears(r, lo, hi, nullptr);
    return bits;
  }
  const llvm::fltSemantics &sem = semanticsOf(type);
  switch (s.kind) {
  case Scalar::Kind::NaN:
    return APFloat::getQNaN(sem).bitcastToAPInt().getZExtValue();
  case Scalar::Kind::PosInf:
    return APFloat::getInf(sem, false).bitcastToAPInt().getZExtValue();
  case Scalar::Kind::NegInf:
    return APFloat::getInf(sem, true).bitcastToAPInt().getZExtValue();
  case Scalar::Kind::Finite:
    break;
  }
  // The rational at 256 bits (exact for every f64 and most inputs), printed
  // in hex, then rounded once to the format by APFloat.
  mpfr_t x;
  mpfr_init2(x, 256);
  int inexact = mpfr_set_q(x, s.value.get(), MPFR_RNDN);
  std::string text;
  {
    char *buf = nullptr;
    mpfr_asprintf(&buf, "%.80Ra", x);
    text = buf;
    mpfr_free_str(buf);
  }
  mpfr_clear(x);
  APFloat f(sem);
  llvm::Expected<APFloat::opStatus> st =
      f.convertFromString(text, APFloat::rmNearestTiesToEven);
  bool ok = false;
  if (st)
    ok = *st == APFloat::opOK && inexact == 0;
  else
    llvm::consumeError(st.takeError());
  if (exact)
    *exact = ok;
  return f.bitcastToAPInt().getZExtValue();
}

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

namespace {

/// f32 log2(e) = 0f3FB8AA3B, the constant of the ex2 idiom.
constexpr uint32_t kLog2eF32Bits = 0x3FB8AA3B;

/// An exact-mode real: the value, and when it is 0f3FB8AA3B * g with g
/// built without division (the executor's ex2 idiom, Normalizer::
/// matchScaledLinear), g.
struct Real {
  mpfr_t v;
  mpfr_t g;
  bool scaled = false;
  explicit Real(unsigned prec) {
    mpfr_init2(v, prec);
    mpfr_init2(g, prec);
    mpfr_set_zero(v, 1);
    mpfr_set_zero(g, 1);
  }
  ~Real() {
    mpfr_clear(v);
    mpfr_clear(g);
  }
  Real(const Real &) = delete;
  Real &operator=(const Real &) = delete;
};
using RealPtr = std::shared_ptr<Real>;

/// A register value: raw bits (integers, predicates, IEEE floats; packed
/// halves in one word) and, in Exact mode, the real a float register holds
/// (also while it travels through an integer register).
struct Val {
  uint64_t bits = 0;
  RealPtr real;
};

uint64_t maskOf(unsigned w) { return w >= 64 ? ~0ull : ((1ull << w) - 1); }

unsigned widthOf(Type t) {
  if (auto v = dyn_cast<VectorType>(t))
    return v.getNumElements() * v.getElementType().getIntOrFloatBitWidth();
  return t.getIntOrFloatBitWidth();
}

int64_t sext(uint64_t v, unsigned w) {
  if (w >= 64)
    return int64_t(v);
  uint64_t m = 1ull << (w - 1);
  v &= maskOf(w);
  return int64_t((v ^ m) - m);
}

APFloat::roundingMode roundingOf(std::optional<FloatMode> m) {
  if (!m)
    return APFloat::rmNearestTiesToEven;
  switch (*m) {
  case FloatMode::RZ: case FloatMode::RZI: return APFloat::rmTowardZero;
  case FloatMode::RM: case FloatMode::RMI: return APFloat::rmTowardNegative;
  case FloatMode::RP: case FloatMode::RPI: return APFloat::rmTowardPositive;
  case FloatMode::RNA: return APFloat::rmNearestTiesToAway;
  default: return APFloat::rmNearestTiesToEven;
  }
}

int fenvOf(APFloat::roundingMode m) {
  switch (m) {
  case APFloat::rmTowardZero: return FE_TOWARDZERO;
  case APFloat::rmTowardNegative: return FE_DOWNWARD;
  case APFloat::rmTowardPositive: return FE_UPWARD;
  default: return FE_TONEAREST;
  }
}

APFloat toAP(uint64_t bits, Type t) {
  return APFloat(semanticsOf(t), APInt(t.getIntOrFloatBitWidth(), bits));
}
uint64_t fromAP(const APFloat &f) { return f.bitcastToAPInt().getZExtValue(); }

/// PTX's canonical NaN (PTX ISA 9.7.3: f32 results are 0x7FFFFFFF).
uint64_t canonicalNaN(Type t) {
  if (t.isF32())
    return 0x7FFFFFFF;
  if (t.isF64())
    return 0x7FFFFFFFFFFFFFFFull;
  if (t.isF16())
    return 0x7FFF;
  return 0x7FFF; // bf16
}

/// .ftz: a subnormal becomes a zero of the same sign.
APFloat flush(const APFloat &f, bool ftz) {
  if (ftz && f.isDenormal())
    return APFloat::getZero(f.getSemantics(), f.isNegative());
  return f;
}

uint64_t finish(APFloat f, Type t, bool ftz, bool sat) {
  f = flush(f, ftz);
  if (f.isNaN())
    return sat ? fromAP(APFloat::getZero(f.getSemantics())) : canonicalNaN(t);
  if (sat) {
    APFloat zero = APFloat::getZero(f.getSemantics());
    APFloat one(f.getSemantics(), 1);
    if (f.compare(zero) == APFloat::cmpLessThan || f.isZero())
      f = zero;
    else if (f.compare(one) == APFloat::cmpGreaterThan)
      f = one;
  }
  return fromAP(f);
}

/// The float value of `bits` of float type `t` as a double (exact for
/// f16, bf16, f32, f64).
double toDouble(uint64_t bits, Type t) {
  APFloat f = toAP(bits, t);
  bool lost;
  f.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
  return f.convertToDouble();
}

uint64_t fromDouble(double d, Type t, APFloat::roundingMode rm) {
  APFloat f(d);
  bool lost;
  f.convert(semanticsOf(t), rm, &lost);
  return fromAP(f);
}

/// Computes `fn(x)` in double under rounding mode `rm` and rounds the
/// result to `t` in the same mode. A directed rounding applied twice
/// (double, then t) equals one directed rounding to t; for round to nearest
/// the double step is exact enough for sqrt (53 >= 2 * 24 + 2).
template <typename Fn>
uint64_t viaDouble(double x, Type t, APFloat::roundingMode rm, Fn fn) {
  int old = std::fegetround();
  std::fesetround(fenvOf(rm));
  volatile double in = x;
  volatile double r = fn(in);
  std::fesetround(old);
  return fromDouble(r, t, rm);
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

/// Generic-address windows (PTX ISA 5.1.6, 6.4.1): the shared and local
/// windows of the executing thread; everything else is the global window.
constexpr uint64_t kSharedWindow = 0x7F0000000000ull;
constexpr uint64_t kLocalWindow = 0x7E0000000000ull;
constexpr uint64_t kWindowSize = 0x100000000ull;
/// First addresses of each state space; allocations are separated by a red
/// zone so an access one past the end hits no allocation.
constexpr uint64_t kGlobalBase = 0x10000000ull;
constexpr uint64_t kSharedBase = 0x400;
constexpr uint64_t kLocalBase = 0x100;
constexpr uint64_t kRedZone = 256;
/// What the interpreter allocates at most (docs/interpreter.md): bytes of
/// one buffer or variable, of a CTA's shared memory (static and dynamic),
/// of a thread's local memory; threads of a launch.
constexpr uint64_t kMaxAllocationBytes = uint64_t(1) << 30;
constexpr uint64_t kMaxSharedBytes = uint64_t(1) << 30;
constexpr uint64_t kMaxLocalBytes = uint64_t(512) << 10;
constexpr uint64_t kMaxLaunchThreads = uint64_t(1) << 26;

struct AccessRec {
  uint32_t thread = UINT32_MAX; ///< linear id in the launch
  uint32_t epoch = 0;           ///< the CTA's barrier epoch at the access
  uint32_t warpSeq = 0;         ///< the thread's bar.warp.sync count at it
  bool strong = false;          ///< atomic or strong (relaxed, volatile, ...)
  Operation *op = nullptr;
  /// A strong access of scope .cta: it orders nothing across CTAs.
  bool ctaScope = false;
  /// The thread's release counter at the access (counted barriers).
  uint32_t release = 0;
};

struct ByteShadow {
  AccessRec write;
  SmallVector<AccessRec, 1> reads;
  /// A cp.async to this byte in flight: the issuing thread (UINT32_MAX:
  /// none) and its op. Any access until the copy completes is a race.
  uint32_t inflight = UINT32_MAX;
  Operation *inflightOp = nullptr;
  /// A cp.async reading this byte (its source) in flight: a write until the
  /// copy completes is a race.
  uint32_t readInflight = UINT32_MAX;
  Operation *readInflightOp = nullptr;
};

struct Allocation {
  std::string name;
  StateSpace space = StateSpace::Global;
  uint64_t base = 0, size = 0;
  Type elemType;
  const engine::BufferBinding *buffer = nullptr;
  std::vector<uint8_t> bytes;
  /// Per byte: written (or initialized) yet; tracked for shared memory and
  /// output buffers.
  std::vector<uint8_t> init;
  bool trackInit = false;
  bool trackRaces = false;
  std::vector<ByteShadow> shadow;
  /// Exact mode: the real stored at a byte offset, with its width.
  std::map<uint64_t, std::pair<unsigned, RealPtr>> reals;
  unsigned elemBytes() const {
    return std::max(1u, elemType.getIntOrFloatBitWidth() / 8);
  }
};

/// Allocations of one address window, by base address.
struct Window {
  std::map<uint64_t, Allocation *> byBase;
  Allocation *find(uint64_t addr, uint64_t bytes) {
    auto it = byBase.upper_bound(addr);
    if (it == byBase.begin())
      return nullptr;
    --it;
    Allocation *a = it->second;
    if (addr >= a->base && addr - a->base + bytes <= a->size)
      return a;
    return nullptr;
  }
};

//===----------------------------------------------------------------------===//
// Threads
//===----------------------------------------------------------------------===//

struct Frame {
  KernelOp func;
  Block *block = nullptr;
  Block::iterator it;
  llvm::DenseMap<mlir::Value, Val> env;
  Operation *callSite = nullptr;
};

enum class Status { Ready, Waiting, Exited };

struct Thread {
  unsigned id = 0;     ///< linear id in the launch
  unsigned tid[3] = {0, 0, 0};
  unsigned linear = 0; ///< linear id in the CTA
  unsigned lane = 0, warp = 0;
  unsigned cta = 0;    ///< linear CTA id
  unsigned ctaid[3] = {0, 0, 0};
  Status status = Status::Ready;
  Operation *waitingAt = nullptr;
  SmallVector<Frame, 2> stack;
  std::vector<std::unique_ptr<Allocation>> locals;
  Window localWindow;
  /// Counted barriers (a thread count below the CTA's, or bar.arrive) as
  /// vector clocks over the CTA's threads: `release` counts this thread's
  /// arrivals; clock[u] is the number of u's arrivals whose preceding
  /// accesses this thread is ordered after (empty until the first
  /// generation it waits for).
  uint32_t release = 0;
  std::vector<uint32_t> clock;
  /// bar.warp.sync (PTX ISA 9.7.13.3) as vector clocks over the lanes of
  /// the warp: `warpRelease` counts this lane's syncs; warpClock[l] the
  /// syncs of lane l whose preceding accesses this lane is ordered after.
  uint32_t warpRelease = 0;
  uint32_t warpClock[32] = {};
  /// cp.async copies not yet complete (PTX ISA: cp.async): the bytes read
  /// at issue (zeros past src-size), their exact-mode reals by offset, the
  /// cp.async-group (-1 until committed).
  struct PendingCopy {
    Allocation *dst = nullptr;
    uint64_t off = 0;
    std::vector<uint8_t> bytes;
    std::vector<std::pair<uint64_t, std::pair<unsigned, RealPtr>>> reals;
    int64_t group = -1;
    Operation *op = nullptr;
    /// The source bytes read (marked in flight while the copy is).
    Allocation *src = nullptr;
    uint64_t srcOff = 0, srcBytes = 0;
  };
  std::vector<PendingCopy> copies;
  int64_t copyGroups = 0;
};

struct Warp {};

/// Why a step stopped.
enum class StepResult { Continue, Blocked, Exited, Stop };

class Interpreter {
public:
  Interpreter(KernelOp kernel, const engine::LaunchConfig &launch,
              const std::vector<std::optional<engine::BufferBinding>> &buffers,
              const std::vector<std::string> &paramNames,
              const LaunchInputs &inputs, const RunOptions &options)
      : kernel(kernel), launch(launch), buffers(buffers),
        paramNames(paramNames), inputs(inputs), options(options),
        symbols(kernel->getParentOfType<ModuleOp>()),
        rng(options.schedule.seed) {}

  RunResult run();

private:
  /// Set while an atomic of scope .cta accesses memory (recordAccess).
  bool ctaScopedAccess = false;

public:

private:
  KernelOp kernel;
  const engine::LaunchConfig &launch;
  const std::vector<std::optional<engine::BufferBinding>> &buffers;
  const std::vector<std::string> &paramNames;
  const LaunchInputs &inputs;
  const RunOptions &options;
  SymbolTable symbols;
  std::mt19937_64 rng;
  RunResult result;
  bool stop = false;
  bool exact() const { return options.mode == NumericMode::Exact; }
  /// Bytes of dynamic shared memory per CTA: the option's, else the
  /// launch's (the contract's `dynamic_shared`).
  uint64_t dynamicSharedBytes() const {
    return options.dynamicSharedBytes.value_or(launch.dynamicShared);
  }

  std::vector<std::unique_ptr<Allocation>> globals;
  Window globalWindow;
  std::vector<std::unique_ptr<Allocation>> shared; // of the current CTA
  Window sharedWindow;
  /// Static layout: variable name -> address in its own state space.
  std::map<std::string, uint64_t> sharedLayout, localLayout;
  std::map<std::string, Allocation *> globalByName;
  std::map<std::string, Allocation *> bufferByName;
  std::vector<Val> params;

  std::vector<Thread> threads; // of the current CTA
  std::vector<Warp> warps;
  uint32_t ctaEpoch = 0;
  unsigned currentCta = 0;
  unsigned threadsPerCta = 0;
  /// bar.arrive counts per barrier id of the current generation.
  std::map<unsigned, unsigned> arrived;
  /// The joined clocks of the arrivals of the open generation, per counted
  /// barrier id.
  std::map<unsigned, std::vector<uint32_t>> generationClock;
  /// An arrival of `t` at counted barrier `id`: its release joins the
  /// open generation's clock.
  void arriveCounted(Thread &t, unsigned id) {
    ++t.release;
    std::vector<uint32_t> &g = generationClock[id];
    g.resize(threadsPerCta, 0);
    for (size_t u = 0; u < t.clock.size(); ++u)
      g[u] = std::max(g[u], t.clock[u]);
    g[t.linear] = std::max(g[t.linear], t.release);
  }
  std::set<std::tuple<int, Operation *, Operation *>> reported;
  /// mbarrier objects of the current CTA by shared address (PTX ISA
  /// 9.7.13.15): the expected count, the arrivals still pending in the
  /// current phase, the phase, and vector clocks: the joined clocks of the
  /// current phase's arrivals, and of each completed phase.
  struct MBarrier {
    bool live = false;
    uint32_t count = 0, pending = 0;
    uint64_t phase = 0;
    std::vector<uint32_t> open;
    std::map<uint64_t, std::vector<uint32_t>> completed;
  };
  std::map<uint64_t, MBarrier> mbarriers;
  /// Whether the wait `w` of `t` finds its phase complete now; then t's
  /// clock joins that phase's (acquire).
  bool mbarrierWaitDone(Thread &t, MBarrierWaitOp w, bool acquire);

  // --- setup ---
  /// `count` elements of `elem` bytes, or none (an error naming `what` and
  /// the limit) when the product wraps or exceeds `limit`.
  std::optional<uint64_t> checkedBytes(uint64_t count, uint64_t elem,
                                       uint64_t limit, const Twine &what,
                                       StringRef limitName) {
    bool wraps = false;
    uint64_t bytes = llvm::SaturatingMultiply(count, elem, &wraps);
    if (wraps || bytes > limit) {
      error(kernel.getLoc(),
            what + " has " +
                (!wraps ? Twine(bytes) + " bytes"
                     : Twine(count) + " elements of " + Twine(elem) +
                           " bytes") +
                "; the interpreter allocates at most " + Twine(limit) +
                " bytes " + limitName);
      return std::nullopt;
    }
    return bytes;
  }
  bool setupGlobals();
  void setupShared();
  void setupLocals(Thread &t);
  void runCta(unsigned cta);

  // --- diagnostics ---
  void error(Location loc, const Twine &message) {
    if (result.error.empty()) {
      result.error = message.str();
      result.errorLoc = loc;
    }
    stop = true;
  }
  void finding(Finding::Kind kind, Operation *op, const Twine &message,
               Operation *other = nullptr) {
    if (!reported.insert({int(kind), op, other}).second)
      return;
    // At most maxFindings in all and a quarter of them per kind, so one
    // kind (an unrolled loop of uninitialized reads) cannot hide another.
    unsigned sameKind = llvm::count_if(
        result.findings, [&](const Finding &f) { return f.kind == kind; });
    if (result.findings.size() >= options.maxFindings ||
        sameKind >= std::max(1u, options.maxFindings / 4))
      return;
    Finding f{kind, message.str(), op->getLoc(), std::nullopt};
    if (other)
      f.other = other->getLoc();
    result.findings.push_back(std::move(f));
  }
  void event(const Thread &t, Operation *op, const Twine &what) {
    if (result.events.size() < 64)
      result.events.push_back({what.str(), op->getLoc(), t.id});
  }
  std::string threadName(const Thread &t) const {
    return "thread (" + std::to_string(t.tid[0]) + "," +
           std::to_string(t.tid[1]) + "," + std::to_string(t.tid[2]) +
           ") of CTA (" + std::to_string(t.ctaid[0]) + "," +
           std::to_string(t.ctaid[1]) + "," + std::to_string(t.ctaid[2]) + ")";
  }
  std::string threadName(uint32_t id) const;

  // --- scheduling ---
  StepResult runThread(Thread &t, uint64_t maxOps);
  bool resolveWaits();
  bool resolveWarp(unsigned warp);
  bool resolveBarriers();

  // --- execution ---
  StepResult step(Thread &t);
  StepResult execOp(Thread &t, Operation *op);
  void branchTo(Frame &f, Block *dest, OperandRange args);

  // --- memory ---
  /// Resolves `addr` (+ `bytes`) in `space` for thread `t` to an
  /// allocation and offset; records a finding and returns null when it
  /// hits no allocation.
  Allocation *resolve(Thread &t, Operation *op, StateSpace space,
                      uint64_t addr, uint64_t bytes, uint64_t &offset);
  bool load(Thread &t, Operation *op, Allocation *a, uint64_t off,
            unsigned bytes, Type type, Val &out, bool strong);
  void store(Thread &t, Operation *op, Allocation *a, uint64_t off,
             unsigned bytes, const Val &v, bool strong);
  /// Performs cp.async copy `c` of thread `t` (its wait completes it, or
  /// the thread exits: then the bytes stay marked in flight, as no wait
  /// orders them for anyone).
  void completeCopy(Thread &t, Thread::PendingCopy &c, bool exiting);
  /// cp.async.commit_group: `t`'s copies not yet in a group form its newest
  /// group (maybe empty).
  static void commitCopyGroup(Thread &t) {
    for (Thread::PendingCopy &c : t.copies)
      if (c.group < 0)
        c.group = t.copyGroups;
    ++t.copyGroups;
  }
  void recordAccess(Thread &t, Operation *op, Allocation *a, uint64_t off,
                    unsigned bytes, bool write, bool strong,
                    const uint8_t *newBytes);
  bool ordered(const Thread &t, const AccessRec &r) const;
  std::string describeAddress(const Allocation *a, uint64_t off) const;

  // --- values ---
  RealPtr mkReal() { return std::make_shared<Real>(options.exactPrecision); }
  RealPtr realOfBits(uint64_t bits, Type t);
  uint64_t bitsOfReal(const Real &r, Type t);
  /// The real of a float operand (Exact mode).
  RealPtr realOperand(Thread &t, Operation *op, const Val &v, Type type);
};

std::string Interpreter::threadName(uint32_t id) const {
  unsigned perCta = threadsPerCta;
  unsigned cta = id / perCta, lin = id % perCta;
  unsigned bx = launch.block[0], by = launch.block[1];
  unsigned gx = launch.grid[0], gy = launch.grid[1];
  return "thread (" + std::to_string(lin % bx) + "," +
         std::to_string(lin / bx % by) + "," + std::to_string(lin / bx / by) +
         ") of CTA (" + std::to_string(cta % gx) + "," +
         std::to_string(cta / gx % gy) + "," + std::to_string(cta / gx / gy) +
         ")";
}

RealPtr Interpreter::realOfBits(uint64_t bits, Type t) {
  RealPtr r = mkReal();
  if (isa<FloatType>(t)) {
    APFloat f = toAP(bits, t);
    if (f.isNaN())
      mpfr_set_nan(r->v);
    else
      mpfr_set_d(r->v, toDouble(bits, t), MPFR_RNDN);
  } else {
    mpfr_set_si(r->v, sext(bits, t.getIntOrFloatBitWidth()), MPFR_RNDN);
  }
  return r;
}

uint64_t Interpreter::bitsOfReal(const Real &r, Type t) {
  if (!isa<FloatType>(t))
    return 0;
  if (mpfr_nan_p(r.v))
    return canonicalNaN(t);
  return fromDouble(mpfr_get_d(r.v, MPFR_RNDN), t,
                    APFloat::rmNearestTiesToEven);
}

RealPtr Interpreter::realOperand(Thread &, Operation *, const Val &v,
                                 Type type) {
  if (v.real)
    return v.real;
  return realOfBits(v.bits, type);
}

//===----------------------------------------------------------------------===//
// Setup
//===----------------------------------------------------------------------===//

bool Interpreter::setupGlobals() {
  uint64_t next = kGlobalBase;
  auto place = [&](std::unique_ptr<Allocation> a) {
    a->base = next;
    next = llvm::alignTo(next + std::max<uint64_t>(a->size, 1) + kRedZone,
                         256);
    a->bytes.assign(a->size, 0);
    globalWindow.byBase[a->base] = a.get();
    globals.push_back(std::move(a));
    return globals.back().get();
  };
  // Buffer parameters, by position.
  for (auto [i, b] : llvm::enumerate(buffers)) {
    if (!b)
      continue;
    auto a = std::make_unique<Allocation>();
    a->name = b->name;
    a->space = StateSpace::Global;
    a->elemType = b->elemType;
    a->buffer = &*b;
    uint64_t elements = 1;
    for (int64_t d : b->shape)
      elements = llvm::SaturatingMultiply(
          elements, uint64_t(std::max<int64_t>(d, 0)));
    std::optional<uint64_t> size =
        checkedBytes(elements, b->elemBytes(), kMaxAllocationBytes,
                     "buffer '" + b->name + "'", "per buffer");
    if (!size)
      return false;
    a->size = *size;
    bool output = b->role != engine::BufferBinding::Role::In;
    a->trackInit = b->role == engine::BufferBinding::Role::Out;
    a->trackRaces = output;
    Allocation *p = place(std::move(a));
    if (p->trackInit)
      p->init.assign(p->size, 0);
    if (p->trackRaces)
      p->shadow.resize(p->size);
    bufferByName[b->name] = p;
    // Initial contents (in and inout buffers).
    auto in = inputs.buffers.find(b->name);
    if (in != inputs.buffers.end() &&
        b->role != engine::BufferBinding::Role::Out) {
      unsigned eb = b->elemBytes();
      if (in->second.size() > b->numElements()) {
        error(kernel.getLoc(), "input buffer '" + b->name + "' has " +
                                   Twine(in->second.size()) +
                                   " elements, but the contract gives it " +
                                   Twine(b->numElements()));
        return false;
      }
      for (auto [k, s] : llvm::enumerate(in->second)) {
        uint64_t bits = bitsOfScalar(s, b->elemType);
        for (unsigned by = 0; by < eb; ++by)
          p->bytes[k * eb + by] = uint8_t(bits >> (8 * by));
        if (exact() && isa<FloatType>(b->elemType) && s.isFinite()) {
          RealPtr r = mkReal();
          mpfr_set_q(r->v, s.value.get(), MPFR_RNDN);
          p->reals[k * eb] = {eb, r};
        }
      }
    }
  }
  // Module variables in the global window (.global, .const).
  ModuleOp module = kernel->getParentOfType<ModuleOp>();
  uint64_t nextShared = kSharedBase, nextLocal = kLocalBase;
  for (GlobalOp g : module.getOps<GlobalOp>()) {
    uint64_t elem = g.getElementSizeInBytes();
    uint64_t count = g.getCount() ? *g.getCount() : 0;
    std::string name = g.getSymName().str();
    uint64_t align = std::max<uint64_t>(g.getAlign(), 1);
    // Places variable `name` of `size` bytes in a per-CTA (shared) or
    // per-thread (local) window at `next`, within `max` bytes of `base`.
    auto placeVar = [&](std::map<std::string, uint64_t> &layout, uint64_t &next,
                     uint64_t base, uint64_t max, uint64_t size,
                     StringRef space, StringRef what) {
      next = llvm::alignTo(next, align);
      layout[name] = next;
      next += size + kRedZone;
      if (next - base <= max)
        return true;
      error(g.getLoc(), "the " + space + " variables reach " +
                            Twine(next - base) +
                            " bytes; the interpreter allocates at most " +
                            Twine(max) + " bytes " + what);
      return false;
    };
    switch (g.getSpace()) {
    case StateSpace::Shared: {
      if (!g.getCount() || g.getExternal()) {
        // Dynamic shared memory: the launch's size, placed after the
        // static variables (see setupShared).
        continue;
      }
      std::optional<uint64_t> size =
          checkedBytes(count, elem, kMaxSharedBytes,
                       "shared variable '" + name + "'", "of shared memory");
      if (!size)
        return false;
      if (!placeVar(sharedLayout, nextShared, kSharedBase, kMaxSharedBytes,
                 *size, "shared", "of shared memory"))
        return false;
      continue;
    }
    case StateSpace::Local: {
      std::optional<uint64_t> size =
          checkedBytes(count, elem, kMaxLocalBytes,
                       "local variable '" + name + "'",
                       "of local memory per thread");
      if (!size)
        return false;
      if (!placeVar(localLayout, nextLocal, kLocalBase, kMaxLocalBytes, *size,
                 "local", "of local memory per thread"))
        return false;
      continue;
    }
    case StateSpace::Global:
    case StateSpace::Const: {
      if (g->hasAttr("kproof.unmodeled_init")) {
        // Read access reports the error (as the executor does).
      }
      auto a = std::make_unique<Allocation>();
      a->name = name;
      a->space = g.getSpace();
      a->elemType = g.getElemType();
      std::optional<uint64_t> size =
          checkedBytes(count, elem, kMaxAllocationBytes,
                       "variable '" + name + "'", "per variable");
      if (!size)
        return false;
      a->size = *size;
      a->trackRaces = g.getSpace() == StateSpace::Global;
      next = llvm::alignTo(next, align);
      Allocation *p = place(std::move(a));
      if (p->trackRaces)
        p->shadow.resize(p->size);
      if (std::optional<ArrayAttr> init = g.getInit()) {
        for (auto [k, attr] : llvm::enumerate(*init)) {
          uint64_t bits = 0;
          if (auto ia = dyn_cast<IntegerAttr>(attr))
            bits = ia.getValue().getZExtValue();
          else if (auto fa = dyn_cast<FloatAttr>(attr))
            bits = fromAP(fa.getValue());
          for (unsigned by = 0; by < elem && k * elem + by < p->size; ++by)
            p->bytes[k * elem + by] = uint8_t(bits >> (8 * by));
        }
      }
      globalByName[name] = p;
      continue;
    }
    default:
      continue;
    }
  }
  // The dynamic shared variables all alias one block after the static ones.
  nextShared = llvm::alignTo(nextShared, 16);
  if (dynamicSharedBytes() > kMaxSharedBytes - (nextShared - kSharedBase)) {
    error(kernel.getLoc(),
          "dynamic shared memory of " + Twine(dynamicSharedBytes()) +
              " bytes after " + Twine(nextShared - kSharedBase) +
              " bytes of static shared variables exceeds the " +
              Twine(kMaxSharedBytes) +
              " bytes of shared memory the interpreter allocates");
    return false;
  }
  for (GlobalOp g : module.getOps<GlobalOp>())
    if (g.getSpace() == StateSpace::Shared && (!g.getCount() || g.getExternal()))
      sharedLayout[g.getSymName().str()] = nextShared;
  // Parameters.
  Block &entry = kernel.getBody().front();
  for (auto [i, arg] : llvm::enumerate(entry.getArguments())) {
    Val v;
    Type t = arg.getType();
    if (i < buffers.size() && buffers[i]) {
      v.bits = bufferByName[buffers[i]->name]->base & maskOf(widthOf(t));
    } else {
      std::string name = i < paramNames.size() ? paramNames[i] : "";
      auto s = inputs.scalars.find(name);
      if (s == inputs.scalars.end()) {
        error(kernel.getLoc(), "no value for scalar parameter #" + Twine(i) +
                                   " '" + name + "'");
        return false;
      }
      v.bits = bitsOfScalar(s->second, t);
      if (exact() && isa<FloatType>(t) && s->second.isFinite()) {
        v.real = mkReal();
        mpfr_set_q(v.real->v, s->second.value.get(), MPFR_RNDN);
      }
    }
    params.push_back(v);
  }
  return true;
}

void Interpreter::setupShared() {
  shared.clear();
  sharedWindow.byBase.clear();
  ModuleOp module = kernel->getParentOfType<ModuleOp>();
  bool dynamicPlaced = false;
  for (GlobalOp g : module.getOps<GlobalOp>()) {
    if (g.getSpace() != StateSpace::Shared)
      continue;
    bool dynamic = !g.getCount() || g.getExternal();
    if (dynamic && dynamicPlaced)
      continue; // every extern shared variable names the same block
    auto a = std::make_unique<Allocation>();
    a->name = dynamic ? "dynamic shared memory" : g.getSymName().str();
    a->space = StateSpace::Shared;
    a->elemType = g.getElemType();
    a->base = sharedLayout[g.getSymName().str()];
    a->size = dynamic ? dynamicSharedBytes()
                      : *g.getCount() * g.getElementSizeInBytes();
    a->bytes.assign(a->size, 0);
    a->trackInit = true;
    a->init.assign(a->size, 0);
    a->trackRaces = true;
    a->shadow.resize(a->size);
    dynamicPlaced |= dynamic;
    sharedWindow.byBase[a->base] = a.get();
    shared.push_back(std::move(a));
  }
}

void Interpreter::setupLocals(Thread &t) {
  ModuleOp module = kernel->getParentOfType<ModuleOp>();
  for (GlobalOp g : module.getOps<GlobalOp>()) {
    if (g.getSpace() != StateSpace::Local)
      continue;
    auto a = std::make_unique<Allocation>();
    a->name = g.getSymName().str();
    a->space = StateSpace::Local;
    a->elemType = g.getElemType();
    a->base = localLayout[a->name];
    a->size = (g.getCount() ? *g.getCount() : 0) *
              g.getElementSizeInBytes(); // checked by setupGlobals
    a->bytes.assign(a->size, 0);
    t.localWindow.byBase[a->base] = a.get();
    t.locals.push_back(std::move(a));
  }
}

//===----------------------------------------------------------------------===//
// Driver and scheduler
//===----------------------------------------------------------------------===//

RunResult Interpreter::run() {
  if (kernel.getBody().empty()) {
    error(kernel.getLoc(), "kernel '" + kernel.getSymName() + "' has no body");
    return std::move(result);
  }
  if (launch.isSymbolic()) {
    error(kernel.getLoc(), "the launch is symbolic (" + launch.describe() +
                               "); the interpreter runs a concrete one");
    return std::move(result);
  }
  for (int d = 0; d < 3; ++d)
    if (launch.grid[d] < 1 || launch.block[d] < 1) {
      error(kernel.getLoc(), "launch dimensions must be >= 1");
      return std::move(result);
    }
  // Checked products: a wrapped count would run no thread at all.
  uint64_t perCta = 1, ctaCount = 1;
  bool wraps = false, ctasWrap = false;
  for (int d = 0; d < 3; ++d) {
    bool w = false;
    perCta = llvm::SaturatingMultiply(perCta, uint64_t(launch.block[d]), &w);
    wraps |= w;
    ctaCount =
        llvm::SaturatingMultiply(ctaCount, uint64_t(launch.grid[d]), &w);
    ctasWrap |= w;
  }
  if (wraps || perCta > 1024) {
    error(kernel.getLoc(), "a CTA has at most 1024 threads (PTX ISA 5.2.2); "
                           "the launch asks for " +
                               (wraps ? Twine("more than 2^64")
                                      : Twine(perCta)));
    return std::move(result);
  }
  bool totalWraps = false;
  uint64_t total = llvm::SaturatingMultiply(perCta, ctaCount, &totalWraps);
  if (ctasWrap || totalWraps || total > kMaxLaunchThreads) {
    error(kernel.getLoc(),
          "the launch has " +
              Twine(launch.grid[0]) + " x " + Twine(launch.grid[1]) + " x " +
              Twine(launch.grid[2]) + " CTAs of " + Twine(perCta) +
              " threads; the interpreter runs at most " +
              Twine(kMaxLaunchThreads) + " (2^26) threads");
    return std::move(result);
  }
  threadsPerCta = perCta;
  if (!setupGlobals())
    return std::move(result);
  unsigned ctas = ctaCount;
  std::vector<unsigned> order(ctas);
  for (unsigned i = 0; i < ctas; ++i)
    order[i] = i;
  if (options.schedule.policy == SchedulePolicy::Reversed)
    std::reverse(order.begin(), order.end());
  else if (options.schedule.policy == SchedulePolicy::Random)
    std::shuffle(order.begin(), order.end(), rng);
  for (unsigned cta : order) {
    runCta(cta);
    if (stop)
      break;
  }
  // Final buffer contents.
  for (const std::optional<engine::BufferBinding> &b : buffers) {
    if (!b)
      continue;
    Allocation *a = bufferByName[b->name];
    unsigned eb = b->elemBytes();
    std::vector<OutputElement> &out = result.buffers[b->name];
    out.resize(b->numElements());
    for (uint64_t k = 0; k < out.size(); ++k) {
      uint64_t bits = 0;
      for (unsigned by = 0; by < eb; ++by)
        bits |= uint64_t(a->bytes[k * eb + by]) << (8 * by);
      out[k].bits = bits;
      out[k].written = !a->trackInit || a->init[k * eb];
      if (exact() && isa<FloatType>(b->elemType)) {
        auto it = a->reals.find(k * eb);
        out[k].exact = std::make_shared<BigFloat>(options.exactPrecision);
        RealPtr r = it != a->reals.end() && it->second.first == eb
                        ? it->second.second
                        : realOfBits(bits, b->elemType);
        mpfr_set(static_cast<mpfr_ptr>(out[k].exact->raw()), r->v,
                 MPFR_RNDN);
        out[k].bits = bitsOfReal(*r, b->elemType);
      }
    }
  }
  return std::move(result);
}

void Interpreter::runCta(unsigned cta) {
  currentCta = cta;
  setupShared();
  ctaEpoch = 0;
  arrived.clear();
  generationClock.clear();
  mbarriers.clear();
  unsigned gx = launch.grid[0], gy = launch.grid[1];
  unsigned bx = launch.block[0], by = launch.block[1];
  threads = std::vector<Thread>(threadsPerCta);
  warps.assign((threadsPerCta + 31) / 32, Warp());
  for (unsigned i = 0; i < threadsPerCta; ++i) {
    Thread &t = threads[i];
    t.linear = i;
    t.id = cta * threadsPerCta + i;
    t.tid[0] = i % bx;
    t.tid[1] = i / bx % by;
    t.tid[2] = i / bx / by;
    t.cta = cta;
    t.ctaid[0] = cta % gx;
    t.ctaid[1] = cta / gx % gy;
    t.ctaid[2] = cta / gx / gy;
    t.lane = i % 32;
    t.warp = i / 32;
    setupLocals(t);
    Frame f;
    f.func = kernel;
    f.block = &kernel.getBody().front();
    f.it = f.block->begin();
    for (auto [arg, v] : llvm::zip(f.block->getArguments(), params))
      f.env[arg] = v;
    t.stack.push_back(std::move(f));
  }
  while (!stop) {
    bool ran = false;
    switch (options.schedule.policy) {
    case SchedulePolicy::InOrder:
      for (Thread &t : threads)
        if (t.status == Status::Ready && !stop) {
          runThread(t, UINT64_MAX);
          ran = true;
        }
      break;
    case SchedulePolicy::Reversed:
      for (Thread &t : llvm::reverse(threads))
        if (t.status == Status::Ready && !stop) {
          runThread(t, UINT64_MAX);
          ran = true;
        }
      break;
    case SchedulePolicy::WarpRoundRobin: {
      bool any = true;
      while (any && !stop) {
        any = false;
        for (Thread &t : threads)
          if (t.status == Status::Ready && !stop) {
            runThread(t, 1);
            any = ran = true;
          }
      }
      break;
    }
    case SchedulePolicy::Random: {
      SmallVector<unsigned> ready;
      while (!stop) {
        ready.clear();
        for (Thread &t : threads)
          if (t.status == Status::Ready)
            ready.push_back(t.linear);
        if (ready.empty())
          break;
        Thread &t = threads[ready[rng() % ready.size()]];
        runThread(t, 1 + rng() % 8);
        ran = true;
      }
      break;
    }
    }
    if (stop)
      return;
    (void)ran;
    if (llvm::all_of(threads,
                     [](const Thread &t) { return t.status == Status::Exited; }))
      return;
    if (!resolveWaits()) {
      // Nothing can complete: a deadlock.
      std::string where;
      for (Thread &t : threads)
        if (t.status == Status::Waiting) {
          where = threadName(t) + " waits at " +
                  locationString(t.waitingAt->getLoc()) + " ('" +
                  t.waitingAt->getName().getStringRef().str() + "')";
          finding(Finding::Kind::Deadlock, t.waitingAt,
                  "deadlock: every live thread waits and no barrier or warp "
                  "collective can complete; " +
                      where);
          break;
        }
      stop = true;
      return;
    }
  }
}

StepResult Interpreter::runThread(Thread &t, uint64_t maxOps) {
  for (uint64_t k = 0; k < maxOps; ++k) {
    if (++result.steps > options.maxSteps) {
      Frame &f = t.stack.back();
      error(f.it != f.block->end() ? f.it->getLoc() : f.func.getLoc(),
            "step limit of " + Twine(options.maxSteps) +
                " operations reached (a loop that does not end?)");
      return StepResult::Stop;
    }
    StepResult r = step(t);
    if (r != StepResult::Continue || stop)
      return r;
  }
  return StepResult::Continue;
}

StepResult Interpreter::step(Thread &t) {
  Frame &f = t.stack.back();
  if (f.it == f.block->end()) {
    error(f.func.getLoc(), "block without terminator");
    return StepResult::Stop;
  }
  StepResult r = execOp(t, &*f.it);
  if (r == StepResult::Blocked) {
    t.status = Status::Waiting;
    t.waitingAt = &*t.stack.back().it;
  } else if (r == StepResult::Exited) {
    t.status = Status::Exited;
    for (Thread::PendingCopy &c : t.copies)
      completeCopy(t, c, /*exiting=*/true);
    t.copies.clear();
  } else if (r == StepResult::Stop) {
    stop = true;
  }
  return r;
}

bool Interpreter::mbarrierWaitDone(Thread &t, MBarrierWaitOp w, bool acquire) {
  Frame &f = t.stack.back();
  uint64_t a = f.env.lookup(w.getAddr()).bits + w.getOffset(), off;
  Allocation *al = resolve(t, w, w.getSpace(), a, 8, off);
  if (!al)
    return true; // reported; go on
  auto it = mbarriers.find(a);
  if (it == mbarriers.end() || !it->second.live) {
    if (acquire)
      finding(Finding::Kind::MBarrier, w,
              "mbarrier misuse: " + threadName(t) +
                  " waits on the mbarrier at " + describeAddress(al, off) +
                  " before its init (or after its inval)");
    return true;
  }
  MBarrier &b = it->second;
  uint64_t v = f.env.lookup(w.getPhase()).bits;
  // The phase waited for: with .parity, the current phase when its
  // parity matches (not complete), else the one before (complete, or the
  // initial "phase -1"); without, the phase of the arrival that returned
  // the state.
  std::optional<uint64_t> phase;
  if (w.getParity()) {
    if ((v & 1) == (b.phase & 1))
      return false;
    if (b.phase > 0)
      phase = b.phase - 1;
  } else {
    if (v >= b.phase)
      return false;
    phase = v;
  }
  if (acquire && phase) {
    const std::vector<uint32_t> &c = b.completed[*phase];
    t.clock.resize(threadsPerCta, 0);
    for (size_t u = 0; u < c.size(); ++u)
      t.clock[u] = std::max(t.clock[u], c[u]);
  }
  return true;
}

bool Interpreter::resolveWaits() {
  // Threads an mbarrier phase woke up (after the schedule's pass) run on.
  if (llvm::any_of(threads,
                   [](const Thread &t) { return t.status == Status::Ready; }))
    return true;
  bool progress = false;
  // A spin wait on an mbarrier whose phase completed runs again.
  for (Thread &t : threads)
    if (t.status == Status::Waiting)
      if (auto w = dyn_cast<MBarrierWaitOp>(t.waitingAt))
        if (mbarrierWaitDone(t, w, /*acquire=*/false)) {
          t.status = Status::Ready;
          t.waitingAt = nullptr;
          progress = true;
        }
  if (progress)
    return true;
  for (unsigned w = 0; w < warps.size() && !stop; ++w)
    progress |= resolveWarp(w);
  if (progress || stop)
    return true;
  return resolveBarriers();
}

/// The membermask of a waiting warp collective, or nullopt for activemask
/// (no mask) and non-collectives.
static std::optional<uint32_t> membermaskOf(Operation *op, Frame &f) {
  Value m;
  if (auto s = dyn_cast<ShflOp>(op))
    m = s.getMembermask();
  else if (auto v = dyn_cast<VoteOp>(op))
    m = v.getMembermask();
  else if (auto w = dyn_cast<WarpSyncOp>(op))
    m = w.getMembermask();
  else if (auto r = dyn_cast<ReduxOp>(op))
    m = r.getMembermask();
  else if (auto x = dyn_cast<MatchOp>(op))
    m = x.getMembermask();
  else if (auto e = dyn_cast<ElectOp>(op))
    m = e.getMembermask();
  if (!m)
    return std::nullopt;
  return uint32_t(f.env.lookup(m).bits);
}

bool Interpreter::resolveWarp(unsigned w) {
  unsigned first = w * 32, last = std::min(threadsPerCta, first + 32);
  auto isCollective = [](Operation *op) {
    return isa<ShflOp, VoteOp, WarpSyncOp, ActiveMaskOp, ReduxOp, MatchOp,
               ElectOp>(op);
  };
  bool progress = false;
  // activemask: the lanes at the same activemask op form the mask.
  for (unsigned i = first; i < last; ++i) {
    Thread &t = threads[i];
    if (t.status != Status::Waiting || !isa<ActiveMaskOp>(t.waitingAt))
      continue;
    Operation *op = t.waitingAt;
    uint32_t mask = 0;
    for (unsigned j = first; j < last; ++j)
      if (threads[j].status == Status::Waiting && threads[j].waitingAt == op)
        mask |= 1u << threads[j].lane;
    for (unsigned j = first; j < last; ++j) {
      Thread &u = threads[j];
      if (u.status != Status::Waiting || u.waitingAt != op)
        continue;
      Frame &f = u.stack.back();
      f.env[op->getResult(0)] = Val{mask, nullptr};
      ++f.it;
      u.status = Status::Ready;
      u.waitingAt = nullptr;
    }
    progress = true;
  }
  for (unsigned i = first; i < last; ++i) {
    Thread &t = threads[i];
    if (t.status != Status::Waiting || !isCollective(t.waitingAt) ||
        isa<ActiveMaskOp>(t.waitingAt))
      continue;
    Operation *op = t.waitingAt;
    uint32_t mask = *membermaskOf(op, t.stack.back());
    if (!(mask >> t.lane & 1)) {
      finding(Finding::Kind::Membermask, op,
              threadName(t) + " executes '" + op->getName().getStringRef() +
                  "' with a membermask 0x" + llvm::utohexstr(mask) +
                  " that does not include its own lane " + Twine(t.lane));
      stop = true;
      return true;
    }
    // Every lane of the mask must wait at a collective of the same kind
    // with the same mask.
    bool ready = true;
    for (unsigned l = 0; l < 32; ++l) {
      if (!(mask >> l & 1))
        continue;
      unsigned j = first + l;
      if (j >= last) {
        finding(Finding::Kind::Membermask, op,
                threadName(t) + " executes '" + op->getName().getStringRef() +
                    "' with membermask 0x" + llvm::utohexstr(mask) +
                    ", which names lane " + Twine(l) + ", outside the CTA");
        stop = true;
        return true;
      }
      // The collective waits for the lanes of the mask that have not
      // exited (PTX ISA 9.7.13.3, 9.7.13.9-14); an exited lane takes no
      // part.
      if (threads[j].status == Status::Exited)
        continue;
      Thread &u = threads[j];
      // redux.sync and match.sync also need the same qualifiers (PTX ISA
      // 9.7.13.10, 9.7.13.12).
      if (u.status != Status::Waiting ||
          u.waitingAt->getName() != op->getName() ||
          (isa<ReduxOp, MatchOp>(op) &&
           (u.waitingAt->getAttrDictionary() != op->getAttrDictionary() ||
            u.waitingAt->getOperand(0).getType() !=
                op->getOperand(0).getType())) ||
          membermaskOf(u.waitingAt, u.stack.back()) != mask) {
        ready = false;
        break;
      }
    }
    if (!ready)
      continue;
    // Complete the collective for every lane of the mask.
    SmallVector<Thread *, 32> group;
    for (unsigned l = 0; l < 32; ++l)
      if ((mask >> l & 1) && threads[first + l].status != Status::Exited)
        group.push_back(&threads[first + l]);
    if (isa<WarpSyncOp>(op)) {
      // Vector clocks over the lanes of the warp: each lane's accesses
      // before the sync are ordered before every lane's after it, and
      // transitively through further syncs.
      uint32_t joined[32] = {};
      for (Thread *a : group) {
        ++a->warpRelease;
        for (unsigned l = 0; l < 32; ++l)
          joined[l] = std::max(joined[l], a->warpClock[l]);
        joined[a->lane] = std::max(joined[a->lane], a->warpRelease);
      }
      for (Thread *a : group)
        std::copy(std::begin(joined), std::end(joined), a->warpClock);
      // The CTA-wide clocks of counted barriers and mbarriers too, so that
      // an order through a lane's sync and then its arrival (the elected
      // lane arriving for its warp) is followed.
      std::vector<uint32_t> cta(threadsPerCta, 0);
      for (Thread *a : group) {
        ++a->release;
        for (size_t u = 0; u < a->clock.size(); ++u)
          cta[u] = std::max(cta[u], a->clock[u]);
        cta[a->linear] = std::max(cta[a->linear], a->release);
      }
      for (Thread *a : group)
        a->clock = cta;
    } else if (auto v = dyn_cast<VoteOp>(op)) {
      uint32_t ballot = 0;
      for (Thread *u : group) {
        Operation *uop = u->waitingAt;
        bool p = u->stack.back().env.lookup(cast<VoteOp>(uop).getPredicate()).bits & 1;
        ballot |= uint32_t(p) << u->lane;
      }
      for (Thread *u : group) {
        uint64_t r = 0;
        switch (v.getMode()) {
        case VoteMode::All: r = ballot == mask; break;
        case VoteMode::Any: r = ballot != 0; break;
        case VoteMode::Uni: r = ballot == 0 || ballot == mask; break;
        case VoteMode::Ballot: r = ballot; break;
        }
        u->stack.back().env[u->waitingAt->getResult(0)] = Val{r, nullptr};
      }
    } else if (auto r = dyn_cast<ReduxOp>(op)) {
      // PTX ISA 9.7.13.12: op over the lanes of the mask; add modulo 2^32.
      bool sgn = r.getIsSigned();
      auto less = [&](uint32_t a, uint32_t b) {
        return sgn ? int32_t(a) < int32_t(b) : a < b;
      };
      uint32_t acc = 0;
      for (auto [k, u] : llvm::enumerate(group)) {
        uint32_t v =
            uint32_t(u->stack.back()
                         .env.lookup(cast<ReduxOp>(u->waitingAt).getValue())
                         .bits);
        if (k == 0) {
          acc = v;
          continue;
        }
        switch (r.getKind()) {
        case ReduxKind::Add:
          acc += v;
          break;
        case ReduxKind::Min:
          acc = less(v, acc) ? v : acc;
          break;
        case ReduxKind::Max:
          acc = less(acc, v) ? v : acc;
          break;
        case ReduxKind::And:
          acc &= v;
          break;
        case ReduxKind::Or:
          acc |= v;
          break;
        case ReduxKind::Xor:
          acc ^= v;
          break;
        }
      }
      for (Thread *u : group)
        u->stack.back().env[u->waitingAt->getResult(0)] = Val{acc, nullptr};
    } else if (isa<MatchOp>(op)) {
      // PTX ISA 9.7.13.10: lanes of the mask with the same value.
      auto valueOf = [](Thread *u) {
        return u->stack.back()
            .env.lookup(cast<MatchOp>(u->waitingAt).getValue())
            .bits;
      };
      bool allEqual = llvm::all_of(
          group, [&](Thread *u) { return valueOf(u) == valueOf(group[0]); });
      for (Thread *u : group) {
        auto x = cast<MatchOp>(u->waitingAt);
        uint32_t d = 0;
        if (x.getMode() == MatchMode::All) {
          d = allEqual ? mask : 0;
        } else {
          for (Thread *o : group)
            if (valueOf(o) == valueOf(u))
              d |= 1u << o->lane;
        }
        u->stack.back().env[x.getResult()] = Val{d, nullptr};
        u->stack.back().env[x.getAllEqual()] = Val{uint64_t(allEqual), nullptr};
      }
    } else if (isa<ElectOp>(op)) {
      // PTX ISA 9.7.13.14: one lane of the mask, the same for the same
      // mask; the interpreter elects the lowest unless told otherwise.
      uint32_t leader = llvm::countr_zero(mask);
      if (auto it = options.electedLanes.find(mask);
          it != options.electedLanes.end() && it->second < 32 &&
          (mask >> it->second & 1))
        leader = it->second;
      for (Thread *u : group) {
        auto e = cast<ElectOp>(u->waitingAt);
        u->stack.back().env[e.getLeader()] = Val{leader, nullptr};
        u->stack.back().env[e.getIsLeader()] =
            Val{uint64_t(u->lane == leader), nullptr};
      }
    } else if (isa<ShflOp>(op)) {
      SmallVector<std::pair<Val, Val>, 32> results;
      for (Thread *u : group) {
        auto s = cast<ShflOp>(u->waitingAt);
        Frame &f = u->stack.back();
        uint32_t b = f.env.lookup(s.getLaneArg()).bits;
        uint32_t c = f.env.lookup(s.getClamp()).bits;
        // PTX ISA 9.7.9.6 (shfl.sync), the pseudo-code verbatim.
        uint32_t lane = u->lane, bval = b & 0x1f, cval = c & 0x1f;
        uint32_t segmask = (c >> 8) & 0x1f;
        uint32_t maxLane = (lane & segmask) | (cval & ~segmask);
        uint32_t minLane = lane & segmask;
        int j = 0;
        bool pval = false;
        switch (s.getMode()) {
        case ShflMode::Up:
          j = int(lane) - int(bval);
          pval = j >= int(maxLane);
          break;
        case ShflMode::Down:
          j = int(lane + bval);
          pval = j <= int(maxLane);
          break;
        case ShflMode::Bfly:
          j = int(lane ^ bval);
          pval = j <= int(maxLane);
          break;
        case ShflMode::Idx:
          j = int(minLane | (bval & ~segmask));
          pval = j <= int(maxLane);
          break;
        }
        if (!pval)
          j = lane;
        Val d;
        if ((mask >> j & 1) && threads[first + j].status == Status::Exited) {
          finding(Finding::Kind::Membermask, u->waitingAt,
                  threadName(*u) + " reads lane " + Twine(j) +
                      " through shfl.sync, which has exited (undefined "
                      "value)");
          d = f.env.lookup(s.getValue());
        } else if (!(mask >> j & 1)) {
          finding(Finding::Kind::Membermask, u->waitingAt,
                  threadName(*u) + " reads lane " + Twine(j) +
                      " through shfl.sync, which is not in membermask 0x" +
                      llvm::utohexstr(mask) + " (undefined value)");
          d = f.env.lookup(s.getValue());
        } else {
          Thread &src = threads[first + j];
          d = src.stack.back().env.lookup(
              cast<ShflOp>(src.waitingAt).getValue());
        }
        results.push_back({d, Val{uint64_t(pval), nullptr}});
      }
      for (auto [u, r] : llvm::zip(group, results)) {
        auto s = cast<ShflOp>(u->waitingAt);
        u->stack.back().env[s.getResult()] = r.first;
        u->stack.back().env[s.getInRange()] = r.second;
      }
    }
    for (Thread *u : group) {
      ++u->stack.back().it;
      u->status = Status::Ready;
      u->waitingAt = nullptr;
    }
    progress = true;
  }
  return progress;
}

bool Interpreter::resolveBarriers() {
  unsigned live = 0;
  for (Thread &t : threads)
    live += t.status != Status::Exited;
  // Group waiting barrier threads by barrier id.
  std::map<unsigned, SmallVector<Thread *>> byId;
  for (Thread &t : threads)
    if (t.status == Status::Waiting && isa<BarrierOp>(t.waitingAt)) {
      auto b = cast<BarrierOp>(t.waitingAt);
      unsigned id = b.getId() ? t.stack.back().env.lookup(b.getId()).bits : 0;
      byId[id].push_back(&t);
    }
  for (auto &[id, group] : byId) {
    auto b0 = cast<BarrierOp>(group.front()->waitingAt);
    unsigned expected = live;
    if (b0.getCount())
      expected = group.front()->stack.back().env.lookup(b0.getCount()).bits;
    unsigned count = group.size() + arrived[id];
    if (count < expected)
      continue;
    // A barrier of every thread of the CTA (no count, or the CTA's size)
    // that no thread passed with bar.arrive: a new phase. Otherwise a
    // generation of a counted barrier: it orders the accesses of its
    // participants only (Interpreter::ordered).
    bool full = (!b0.getCount() || expected >= threadsPerCta) &&
                arrived[id] == 0 && group.size() >= live;
    // An aligned barrier is reached by whole warps (PTX ISA 9.7.13.4): a
    // lane that exited while another lane of its warp waits here diverged.
    if (b0.getAligned())
      for (Thread *t : group)
        for (unsigned l = t->warp * 32;
             l < std::min(threadsPerCta, t->warp * 32 + 32); ++l)
          if (threads[l].status == Status::Exited)
            finding(Finding::Kind::BarrierDivergence, t->waitingAt,
                    "divergent barrier: " + threadName(threads[l]) +
                        " has exited while " + threadName(*t) +
                        " of the same warp waits at this aligned barrier");
    // Aligned barriers: every thread of the CTA at the same instruction;
    // for a counted barrier (producers and consumers of a warp-specialized
    // kernel sync at their own instructions) every thread of a warp.
    std::map<unsigned, Thread *> firstOfWarp;
    for (Thread *t : group) {
      Thread *o = full ? group.front()
                       : firstOfWarp.try_emplace(t->warp, t).first->second;
      if (t->waitingAt != o->waitingAt &&
          (cast<BarrierOp>(t->waitingAt).getAligned() ||
           cast<BarrierOp>(o->waitingAt).getAligned()))
        finding(Finding::Kind::BarrierDivergence, t->waitingAt,
                "divergent barrier: " + threadName(*t) +
                    " waits at a different aligned barrier than " +
                    threadName(*o),
                o->waitingAt);
    }
    if (!full) {
      // A generation: every participant is ordered after every access its
      // participants made before arriving (and what those were ordered
      // after: the clocks are transitive).
      for (Thread *t : group)
        arriveCounted(*t, id);
      std::vector<uint32_t> g = std::move(generationClock[id]);
      generationClock.erase(id);
      for (Thread *t : group) {
        t->clock.resize(threadsPerCta, 0);
        for (size_t u = 0; u < g.size(); ++u)
          t->clock[u] = std::max(t->clock[u], g[u]);
      }
    }
    // bar.red: the reduction over the participants.
    uint64_t popc = 0;
    bool all = true, any = false;
    for (Thread *t : group) {
      auto b = cast<BarrierOp>(t->waitingAt);
      if (b.getKind() == BarrierKind::Red) {
        bool p = t->stack.back().env.lookup(b.getPred()).bits & 1;
        popc += p;
        all &= p;
        any |= p;
      }
    }
    for (Thread *t : group) {
      auto b = cast<BarrierOp>(t->waitingAt);
      if (b.getKind() == BarrierKind::Red && b.getResult()) {
        uint64_t r = 0;
        switch (*b.getRedOp()) {
        case BarrierRedOp::Popc: r = popc; break;
        case BarrierRedOp::And: r = all; break;
        case BarrierRedOp::Or: r = any; break;
        }
        t->stack.back().env[b.getResult()] = Val{r, nullptr};
      }
      ++t->stack.back().it;
      t->status = Status::Ready;
      t->waitingAt = nullptr;
    }
    arrived[id] = 0;
    if (full)
      ++ctaEpoch;
    return true;
  }
  return false;
}

void Interpreter::branchTo(Frame &f, Block *dest, OperandRange args) {
  SmallVector<Val, 4> vals;
  for (Value a : args)
    vals.push_back(f.env.lookup(a));
  for (auto [arg, v] : llvm::zip(dest->getArguments(), vals))
    f.env[arg] = v;
  f.block = dest;
  f.it = dest->begin();
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

std::string Interpreter::describeAddress(const Allocation *a,
                                         uint64_t off) const {
  if (a->buffer)
    return a->name + "[" + std::to_string(off / a->elemBytes()) + "]";
  return "'" + a->name + "' at byte " + std::to_string(off);
}

Allocation *Interpreter::resolve(Thread &t, Operation *op, StateSpace space,
                                 uint64_t addr, uint64_t bytes,
                                 uint64_t &offset) {
  Window *w = &globalWindow;
  uint64_t a = addr;
  StateSpace effective = space;
  if (space == StateSpace::Generic) {
    if (addr >= kSharedWindow && addr < kSharedWindow + kWindowSize) {
      effective = StateSpace::Shared;
      a = addr - kSharedWindow;
    } else if (addr >= kLocalWindow && addr < kLocalWindow + kWindowSize) {
      effective = StateSpace::Local;
      a = addr - kLocalWindow;
    } else {
      effective = StateSpace::Global;
    }
  }
  if (effective == StateSpace::Shared || effective == StateSpace::SharedCluster)
    w = &sharedWindow;
  else if (effective == StateSpace::Local)
    w = &t.localWindow;
  else if (effective == StateSpace::Param) {
    error(op->getLoc(), "'" + op->getName().getStringRef() +
                            "' of the .param space is not modeled");
    return nullptr;
  }
  if (bytes && a % bytes != 0) {
    finding(Finding::Kind::Misaligned, op,
            threadName(t) + " accesses " + Twine(bytes) +
                " bytes at the misaligned address 0x" + llvm::utohexstr(addr));
    return nullptr;
  }
  Allocation *alloc = w->find(a, bytes);
  if (!alloc) {
    finding(Finding::Kind::OutOfBounds, op,
            threadName(t) + " accesses " + Twine(bytes) + " bytes at ." +
                stringifyStateSpace(effective) + " address 0x" +
                llvm::utohexstr(addr) +
                ", outside every allocation (buffer extents come from the "
                "contract)");
    return nullptr;
  }
  offset = a - alloc->base;
  return alloc;
}

bool Interpreter::ordered(const Thread &t, const AccessRec &r) const {
  if (r.thread == t.id)
    return true;
  if (r.thread / threadsPerCta != t.cta)
    return false; // CTAs never synchronize (no grid barrier is modeled)
  if (r.epoch < ctaEpoch)
    return true;
  // Counted barriers (PTX ISA 9.7.13.4): a generation orders the accesses
  // its participants made before arriving before those they make after it
  // completes; t is ordered after r's access when it knows of an arrival
  // of r's thread after it (vector clocks, transitive).
  unsigned rl = r.thread % threadsPerCta;
  if (rl < t.clock.size() && t.clock[rl] > r.release)
    return true;
  if (rl / 32 == t.warp && t.warpClock[rl % 32] > r.warpSeq)
    return true;
  return false;
}

void Interpreter::recordAccess(Thread &t, Operation *op, Allocation *a,
                               uint64_t off, unsigned bytes, bool write,
                               bool strong, const uint8_t *newBytes) {
  // Only mbarrier instructions access a live mbarrier object (PTX ISA
  // 9.7.13.15).
  if (a->space == StateSpace::Shared && !mbarriers.empty()) {
    uint64_t lo = a->base + off;
    for (auto it = mbarriers.lower_bound(lo >= 7 ? lo - 7 : 0);
         it != mbarriers.end() && it->first < lo + bytes; ++it)
      if (it->second.live)
        finding(Finding::Kind::MBarrier, op,
                "mbarrier misuse: " + threadName(t) +
                    (write ? " writes " : " reads ") + describeAddress(a, off) +
                    " of a live mbarrier object with an ordinary access "
                    "(only mbarrier instructions may access it)");
  }
  if (!a->trackRaces)
    return;
  AccessRec rec{t.id,     ctaEpoch, t.warpRelease,
                strong,   op,       strong && ctaScopedAccess,
                t.release};
  auto conflict = [&](const AccessRec &o, bool otherWrite) {
    // Two strong accesses are morally strong when their scope includes
    // both threads: a .cta one does not reach another CTA.
    bool sameCta = o.thread / threadsPerCta == t.cta;
    if (o.thread == UINT32_MAX || ordered(t, o) ||
        (strong && o.strong && (sameCta || (!rec.ctaScope && !o.ctaScope))))
      return;
    bool sameBytes = write && otherWrite && newBytes &&
                     std::equal(newBytes, newBytes + bytes, &a->bytes[off]);
    std::string msg = std::string(write ? "write" : "read") + " of " +
                      describeAddress(a, off) + " by " + threadName(t) +
                      " and " + (otherWrite ? "write" : "read") + " by " +
                      threadName(o.thread) +
                      " in the same barrier phase";
    if (sameBytes && options.tolerateEqualWrites) {
      if (reported.insert({-1, op, o.op}).second)
        result.warnings.push_back(
            "tolerated race (both write the same value): " + msg + " at " +
            locationString(op->getLoc()));
      return;
    }
    // Equal bytes are still a data race under PTX's memory model.
    finding(Finding::Kind::Race, op,
            "race: " + msg + (sameBytes ? " (both write the same value)" : ""),
            o.op);
  };
  for (unsigned k = 0; k < bytes; ++k) {
    ByteShadow &s = a->shadow[off + k];
    if (write && s.readInflight != UINT32_MAX) {
      // The source of a cp.async in flight may still be read.
      finding(Finding::Kind::Race, op,
              "race: write of " + describeAddress(a, off + k) + " by " +
                  threadName(t) + " while the cp.async of " +
                  threadName(s.readInflight) + " at " +
                  locationString(s.readInflightOp->getLoc()) +
                  " may still read it",
              s.readInflightOp);
      return;
    }
    if (s.inflight != UINT32_MAX) {
      // A cp.async to this byte is in flight (its own thread included).
      finding(Finding::Kind::Race, op,
              "race: " + std::string(write ? "write" : "read") + " of " +
                  describeAddress(a, off + k) + " by " + threadName(t) +
                  " while the cp.async of " + threadName(s.inflight) + " at " +
                  locationString(s.inflightOp->getLoc()) +
                  " to it may still be in flight",
              s.inflightOp);
      return;
    }
    conflict(s.write, true);
    if (write) {
      for (const AccessRec &r : s.reads)
        conflict(r, false);
      s.reads.clear();
      s.write = rec;
    } else {
      // Keep one read per thread; drop same-CTA reads of earlier phases.
      llvm::erase_if(s.reads, [&](const AccessRec &r) {
        return r.thread == t.id ||
               (r.thread / threadsPerCta == t.cta && r.epoch < ctaEpoch);
      });
      if (s.reads.size() < 64)
        s.reads.push_back(rec);
    }
  }
}

bool Interpreter::load(Thread &t, Operation *op, Allocation *a, uint64_t off,
                       unsigned bytes, Type type, Val &out, bool strong) {
  if (a->trackInit)
    for (unsigned k = 0; k < bytes; ++k)
      if (!a->init[off + k]) {
        finding(Finding::Kind::Uninitialized, op,
                threadName(t) + " reads " + describeAddress(a, off) +
                    (a->space == StateSpace::Shared
                         ? " (shared memory), which no thread has written"
                         : ", an output element no thread has written"));
        break;
      }
  recordAccess(t, op, a, off, bytes, /*write=*/false, strong, nullptr);
  uint64_t bits = 0;
  for (unsigned k = 0; k < bytes; ++k)
    bits |= uint64_t(a->bytes[off + k]) << (8 * k);
  out = Val{bits, nullptr};
  if (exact()) {
    auto it = a->reals.find(off);
    if (it != a->reals.end() && it->second.first == bytes) {
      out.real = it->second.second;
    } else {
      // A real overlapping the access partially cannot be split.
      auto lo = a->reals.lower_bound(off >= 8 ? off - 8 : 0);
      for (; lo != a->reals.end() && lo->first < off + bytes; ++lo)
        if (lo->first + lo->second.first > off) {
          error(op->getLoc(),
                "exact mode: an access of " + Twine(bytes) + " bytes to " +
                    describeAddress(a, off) +
                    " reads part of a real value (use --mode=ieee)");
          return false;
        }
      if (isa<FloatType>(type))
        out.real = realOfBits(bits, type);
    }
  }
  return true;
}

void Interpreter::completeCopy(Thread &t, Thread::PendingCopy &c,
                               bool exiting) {
  Allocation *a = c.dst;
  unsigned n = c.bytes.size();
  if (a->trackRaces)
    for (unsigned k = 0; k < n; ++k)
      if (a->shadow[c.off + k].inflightOp == c.op &&
          a->shadow[c.off + k].inflight == t.id)
        a->shadow[c.off + k].inflight = UINT32_MAX;
  if (c.src && c.src->trackRaces && !exiting)
    for (uint64_t k = 0; k < c.srcBytes; ++k)
      if (c.src->shadow[c.srcOff + k].readInflightOp == c.op &&
          c.src->shadow[c.srcOff + k].readInflight == t.id)
        c.src->shadow[c.srcOff + k].readInflight = UINT32_MAX;
  // Ordered for other threads only by a barrier after this point.
  recordAccess(t, c.op, a, c.off, n, /*write=*/true, /*strong=*/false,
               c.bytes.data());
  if (exiting && a->trackRaces)
    for (unsigned k = 0; k < n; ++k) {
      a->shadow[c.off + k].inflight = t.id;
      a->shadow[c.off + k].inflightOp = c.op;
    }
  for (unsigned k = 0; k < n; ++k) {
    a->bytes[c.off + k] = c.bytes[k];
    if (a->trackInit)
      a->init[c.off + k] = 1;
  }
  auto lo = a->reals.lower_bound(c.off >= 8 ? c.off - 8 : 0);
  while (lo != a->reals.end() && lo->first < c.off + n) {
    if (lo->first + lo->second.first > c.off)
      lo = a->reals.erase(lo);
    else
      ++lo;
  }
  for (auto &[o, r] : c.reals)
    a->reals[c.off + o] = r;
}

void Interpreter::store(Thread &t, Operation *op, Allocation *a, uint64_t off,
                        unsigned bytes, const Val &v, bool strong) {
  if (a->buffer && a->buffer->role == engine::BufferBinding::Role::In)
    finding(Finding::Kind::StoreToInput, op,
            threadName(t) + " stores to " + describeAddress(a, off) +
                " of the input buffer '" + a->name + "'");
  uint8_t nb[8];
  for (unsigned k = 0; k < bytes; ++k)
    nb[k] = uint8_t(v.bits >> (8 * k));
  recordAccess(t, op, a, off, bytes, /*write=*/true, strong, nb);
  for (unsigned k = 0; k < bytes; ++k) {
    a->bytes[off + k] = nb[k];
    if (a->trackInit)
      a->init[off + k] = 1;
  }
  if (exact()) {
    auto lo = a->reals.lower_bound(off >= 8 ? off - 8 : 0);
    while (lo != a->reals.end() && lo->first < off + bytes) {
      if (lo->first + lo->second.first > off)
        lo = a->reals.erase(lo);
      else
        ++lo;
    }
    if (v.real)
      a->reals[off] = {bytes, v.real};
  }
}

//===----------------------------------------------------------------------===//
// Operations
//===----------------------------------------------------------------------===//

StepResult Interpreter::execOp(Thread &t, Operation *op) {
  Frame &f = t.stack.back();
  Location loc = op->getLoc();
  auto advance = [&]() {
    ++f.it;
    return StepResult::Continue;
  };
  auto get = [&](Value v) { return f.env.lookup(v); };
  auto set = [&](Value v, Val x) {
    x.bits &= maskOf(widthOf(v.getType()));
    f.env[v] = std::move(x);
  };
  auto fail = [&](const Twine &why) {
    error(loc, why);
    return StepResult::Stop;
  };
  /// Exact mode: an integer operation on a register holding a real.
  auto noReal = [&](std::initializer_list<Value> vs) {
    if (!exact())
      return true;
    for (Value v : vs)
      if (get(v).real) {
        error(loc, "exact mode: bit operation '" +
                       op->getName().getStringRef() +
                       "' on a register holding a real value is not "
                       "modeled (use --mode=ieee)");
        return false;
      }
    return true;
  };
  auto realOf = [&](Value v) { return realOperand(t, op, get(v), v.getType()); };
  auto setReal = [&](Value v, RealPtr r) {
    Val x;
    x.real = std::move(r);
    f.env[v] = std::move(x);
  };
  auto saturate = [&](RealPtr r) {
    if (mpfr_nan_p(r->v) || mpfr_sgn(r->v) < 0) {
      RealPtr z = mkReal();
      mpfr_set_zero(z->v, 1);
      return z;
    }
    if (mpfr_cmp_ui(r->v, 1) > 0) {
      RealPtr one = mkReal();
      mpfr_set_ui(one->v, 1, MPFR_RNDN);
      return one;
    }
    return r;
  };

  return llvm::TypeSwitch<Operation *, StepResult>(op)
      .Case<ConstantOp>([&](ConstantOp c) {
        Attribute a = c.getValue();
        Val v;
        if (auto i = dyn_cast<IntegerAttr>(a)) {
          v.bits = i.getValue().getZExtValue();
        } else if (auto fl = dyn_cast<FloatAttr>(a)) {
          v.bits = fromAP(fl.getValue());
          if (exact()) {
            v.real = realOfBits(v.bits, c.getType());
            // A transcendental constant is its exact value, as the
            // engine reads it (Terms/Constants.h).
            engine::transcendentalValue(fl.getValue(), v.real->v);
            if (c.getType().isF32() && v.bits == kLog2eF32Bits) {
              v.real->scaled = true;
              mpfr_set_ui(v.real->g, 1, MPFR_RNDN);
            }
          }
        } else if (auto d = dyn_cast<DenseElementsAttr>(a)) {
          unsigned k = 0, w = 0;
          for (APFloat e : d.getValues<APFloat>()) {
            w = APFloat::getSizeInBits(e.getSemantics());
            v.bits |= fromAP(e) << (k++ * w);
          }
        } else {
          return fail("constant of an unsupported kind");
        }
        set(c, v);
        return advance();
      })
      .Case<UndefOp>([&](UndefOp u) {
        // An unwritten register: 0 (deterministic).
        Val v;
        if (exact() && isa<FloatType>(u.getType()))
          v.real = realOfBits(0, u.getType());
        set(u, v);
        return advance();
      })
      .Case<BitcastOp>([&](BitcastOp b) {
        Val v = get(b.getInput());
        if (exact() && !v.real && isa<FloatType>(b.getType()))
          v.real = realOfBits(v.bits, b.getType());
        set(b, v);
        return advance();
      })
      .Case<SRegOp>([&](SRegOp r) {
        uint64_t v = 0;
        unsigned ntid = threadsPerCta;
        switch (r.getReg()) {
        case SpecialReg::TidX:
          v = t.tid[0];
          break;
        case SpecialReg::TidY:
          v = t.tid[1];
          break;
        case SpecialReg::TidZ:
          v = t.tid[2];
          break;
        case SpecialReg::NtidX:
          v = launch.block[0];
          break;
        case SpecialReg::NtidY:
          v = launch.block[1];
          break;
        case SpecialReg::NtidZ:
          v = launch.block[2];
          break;
        case SpecialReg::CtaidX:
          v = t.ctaid[0];
          break;
        case SpecialReg::CtaidY:
          v = t.ctaid[1];
          break;
        case SpecialReg::CtaidZ:
          v = t.ctaid[2];
          break;
        case SpecialReg::NctaidX:
          v = launch.grid[0];
          break;
        case SpecialReg::NctaidY:
          v = launch.grid[1];
          break;
        case SpecialReg::NctaidZ:
          v = launch.grid[2];
          break;
        case SpecialReg::LaneId:
          v = t.lane;
          break;
        case SpecialReg::WarpId:
          v = t.warp;
          break;
        case SpecialReg::NWarpId:
          v = (ntid + 31) / 32;
          break;
        case SpecialReg::SmId:
          v = 0;
          break;
        case SpecialReg::NSmId:
          v = 1;
          break;
        case SpecialReg::Clock:
        case SpecialReg::Clock64:
        case SpecialReg::GlobalTimer:
          v = result.steps;
          break;
        case SpecialReg::ClockHi:
          v = result.steps >> 32;
          break;
        case SpecialReg::LaneMaskEq:
          v = 1u << t.lane;
          break;
        case SpecialReg::LaneMaskLe:
          v = maskOf(t.lane + 1);
          break;
        case SpecialReg::LaneMaskLt:
          v = maskOf(t.lane);
          break;
        case SpecialReg::LaneMaskGe:
          v = ~maskOf(t.lane) & 0xffffffffu;
          break;
        case SpecialReg::LaneMaskGt:
          v = ~maskOf(t.lane + 1) & 0xffffffffu;
          break;
        case SpecialReg::DynamicSmemSize:
          v = dynamicSharedBytes();
          break;
        case SpecialReg::TotalSmemSize: {
          uint64_t total = 0;
          for (auto &a : shared)
            total += a->size;
          v = total;
          break;
        }
        case SpecialReg::ClusterCtaidX:
        case SpecialReg::ClusterCtaidY:
        case SpecialReg::ClusterCtaidZ:
        case SpecialReg::ClusterCtaRank:
          v = 0;
          break;
        case SpecialReg::ClusterNctaidX:
        case SpecialReg::ClusterNctaidY:
        case SpecialReg::ClusterNctaidZ:
        case SpecialReg::ClusterNctaRank:
          v = 1;
          break;
        case SpecialReg::ClusterIdX:
          v = t.ctaid[0];
          break;
        case SpecialReg::ClusterIdY:
          v = t.ctaid[1];
          break;
        case SpecialReg::ClusterIdZ:
          v = t.ctaid[2];
          break;
        case SpecialReg::NClusterIdX:
          v = launch.grid[0];
          break;
        case SpecialReg::NClusterIdY:
          v = launch.grid[1];
          break;
        case SpecialReg::NClusterIdZ:
          v = launch.grid[2];
          break;
        case SpecialReg::GridId:
          v = 0;
          break;
        }
        set(r, Val{v, nullptr});
        return advance();
      })
      .Case<AddressOfOp>([&](AddressOfOp a) {
        std::string name = a.getName().str();
        uint64_t addr;
        if (auto it = sharedLayout.find(name); it != sharedLayout.end())
          addr = it->second;
        else if (auto it = localLayout.find(name); it != localLayout.end())
          addr = it->second;
        else if (auto it = globalByName.find(name); it != globalByName.end())
          addr = it->second->base;
        else
          return fail("address of '" + name + "', which is not a variable");
        set(a, Val{addr, nullptr});
        return advance();
      })
      .Case<CvtaOp>([&](CvtaOp c) {
        uint64_t a = get(c.getInput()).bits;
        uint64_t window = c.getSpace() == StateSpace::Shared  ? kSharedWindow
                          : c.getSpace() == StateSpace::Local ? kLocalWindow
                                                              : 0;
        if (window && widthOf(c.getType()) < 64)
          return fail("32-bit generic addresses of ." +
                      stringifyStateSpace(c.getSpace()) +
                      " memory are not modeled");
        set(c, Val{c.getTo() ? a - window : a + window, nullptr});
        return advance();
      })
      .Case<IntBinOp>([&](IntBinOp o) {
        if (!noReal({o.getLhs(), o.getRhs()}))
          return StepResult::Stop;
        unsigned w = widthOf(o.getType());
        uint64_t a = get(o.getLhs()).bits, b = get(o.getRhs()).bits;
        int64_t sa = sext(a, w), sb = sext(b, w);
        bool sgn = o.getIsSigned();
        uint64_t r = 0;
        switch (o.getKind()) {
        case IntBinKind::Add:
          if (o.getSat()) {
            __int128 s = __int128(sa) + sb;
            __int128 hi = (__int128(1) << (w - 1)) - 1, lo = -hi - 1;
            r = uint64_t(int64_t(s > hi ? hi : s < lo ? lo : s));
          } else {
            r = a + b;
          }
          break;
        case IntBinKind::Sub:
          if (o.getSat()) {
            __int128 s = __int128(sa) - sb;
            __int128 hi = (__int128(1) << (w - 1)) - 1, lo = -hi - 1;
            r = uint64_t(int64_t(s > hi ? hi : s < lo ? lo : s));
          } else {
            r = a - b;
          }
          break;
        case IntBinKind::MulLo:
          r = a * b;
          break;
        case IntBinKind::MulHi: {
          if (sgn) {
            __int128 p = __int128(sa) * __int128(sb);
            r = uint64_t(p >> w);
          } else {
            unsigned __int128 p = (unsigned __int128)(a & maskOf(w)) *
                                  (b & maskOf(w));
            r = uint64_t(p >> w);
          }
          break;
        }
        case IntBinKind::Mul24Lo:
        case IntBinKind::Mul24Hi: {
          // PTX ISA 9.7.1.5: 24-bit operands, 48-bit product.
          int64_t x = sgn ? sext(a, 24) : int64_t(a & 0xffffff);
          int64_t y = sgn ? sext(b, 24) : int64_t(b & 0xffffff);
          int64_t p = x * y;
          r = o.getKind() == IntBinKind::Mul24Lo ? uint64_t(p)
                                                 : uint64_t(p >> 16);
          break;
        }
        case IntBinKind::Div:
        case IntBinKind::Rem: {
          bool div = o.getKind() == IntBinKind::Div;
          if ((b & maskOf(w)) == 0) {
            // Unspecified in PTX; the SMT-LIB value (all ones / the
            // dividend), as the MPFR evaluator uses.
            r = div ? ~0ull : a;
          } else if (sgn) {
            if (sa == std::numeric_limits<int64_t>::min() >> (64 - w) &&
                sb == -1)
              r = div ? a : 0;
            else
              r = div ? uint64_t(sa / sb) : uint64_t(sa % sb);
          } else {
            uint64_t ua = a & maskOf(w), ub = b & maskOf(w);
            r = div ? ua / ub : ua % ub;
          }
          break;
        }
        case IntBinKind::Min:
          r = sgn ? (sb < sa ? b : a) : ((b & maskOf(w)) < (a & maskOf(w)) ? b : a);
          break;
        case IntBinKind::Max:
          r = sgn ? (sa < sb ? b : a) : ((a & maskOf(w)) < (b & maskOf(w)) ? b : a);
          break;
        case IntBinKind::And:
          r = a & b;
          break;
        case IntBinKind::Or:
          r = a | b;
          break;
        case IntBinKind::Xor:
          r = a ^ b;
          break;
        }
        set(o, Val{r, nullptr});
        return advance();
      })
      .Case<IntUnaryOp>([&](IntUnaryOp o) {
        if (!noReal({o.getInput()}))
          return StepResult::Stop;
        unsigned w = widthOf(o.getInput().getType());
        uint64_t a = get(o.getInput()).bits & maskOf(w);
        uint64_t r = 0;
        switch (o.getKind()) {
        case IntUnaryKind::Abs:
          r = sext(a, w) < 0 ? 0 - a : a;
          break;
        case IntUnaryKind::Neg:
          r = 0 - a;
          break;
        case IntUnaryKind::Not:
          r = ~a;
          break;
        case IntUnaryKind::CNot:
          r = a == 0;
          break;
        case IntUnaryKind::Popc:
          r = llvm::popcount(a);
          break;
        case IntUnaryKind::Clz:
          r = a == 0 ? w : llvm::countl_zero(a) - (64 - w);
          break;
        case IntUnaryKind::Brev:
          r = APInt(w, a).reverseBits().getZExtValue();
          break;
        }
        set(o, Val{r, nullptr});
        return advance();
      })
      .Case<ShiftOp>([&](ShiftOp o) {
        if (!noReal({o.getInput()}))
          return StepResult::Stop;
        unsigned w = widthOf(o.getType());
        uint64_t a = get(o.getInput()).bits & maskOf(w);
        uint32_t n = uint32_t(get(o.getAmount()).bits);
        // PTX ISA 9.7.8.7-8: amounts >= width clamp.
        uint64_t r;
        if (o.getKind() == ShiftKind::Shl)
          r = n >= w ? 0 : a << n;
        else if (o.getIsSigned())
          r = uint64_t(sext(a, w) >> std::min<uint32_t>(n, w - 1));
        else
          r = n >= w ? 0 : a >> n;
        set(o, Val{r, nullptr});
        return advance();
      })
      .Case<MulWideOp>([&](MulWideOp o) {
        if (!noReal({o.getLhs(), o.getRhs()}))
          return StepResult::Stop;
        unsigned w = widthOf(o.getLhs().getType());
        uint64_t a = get(o.getLhs()).bits, b = get(o.getRhs()).bits;
        uint64_t r = o.getIsSigned()
                         ? uint64_t(sext(a, w) * sext(b, w))
                         : (a & maskOf(w)) * (b & maskOf(w));
        set(o, Val{r, nullptr});
        return advance();
      })
      .Case<BfeOp>([&](BfeOp o) {
        if (!noReal({o.getInput()}))
          return StepResult::Stop;
        // PTX ISA 9.7.8.10, the pseudo-code verbatim.
        unsigned w = widthOf(o.getType());
        unsigned msb = w - 1;
        uint64_t a = get(o.getInput()).bits;
        unsigned pos = get(o.getPos()).bits & 0xff;
        unsigned len = get(o.getLen()).bits & 0xff;
        unsigned sbit = 0;
        if (o.getIsSigned() && len != 0)
          sbit = (a >> std::min(pos + len - 1, msb)) & 1;
        uint64_t d = 0;
        for (unsigned i = 0; i <= msb; ++i) {
          uint64_t bit = (i < len && pos + i <= msb) ? (a >> (pos + i)) & 1
                                                     : sbit;
          d |= bit << i;
        }
        set(o, Val{d, nullptr});
        return advance();
      })
      .Case<BfiOp>([&](BfiOp o) {
        if (!noReal({o.getInsert(), o.getBase()}))
          return StepResult::Stop;
        // PTX ISA 9.7.8.11.
        unsigned w = widthOf(o.getType());
        unsigned msb = w - 1;
        uint64_t a = get(o.getInsert()).bits, f2 = get(o.getBase()).bits;
        unsigned pos = get(o.getPos()).bits & 0xff;
        unsigned len = get(o.getLen()).bits & 0xff;
        for (unsigned i = 0; i < len && pos + i <= msb; ++i)
          f2 = (f2 & ~(1ull << (pos + i))) | (((a >> i) & 1) << (pos + i));
        set(o, Val{f2, nullptr});
        return advance();
      })
      .Case<PrmtOp>([&](PrmtOp o) {
        if (!noReal({o.getA(), o.getB()}))
          return StepResult::Stop;
        // PTX ISA 9.7.8.9: bytes 0-3 of a, 4-7 of b.
        uint64_t tmp = (get(o.getA()).bits & 0xffffffff) |
                       (get(o.getB()).bits << 32);
        uint32_t c = get(o.getSelector()).bits;
        auto byte = [&](unsigned i) { return (tmp >> (8 * (i & 7))) & 0xff; };
        uint32_t d = 0;
        std::optional<StringRef> mode;
        if (auto m = o.getMode())
          mode = *m;
        if (!mode) {
          for (unsigned i = 0; i < 4; ++i) {
            unsigned sel = (c >> (4 * i)) & 0xf;
            uint64_t b = byte(sel & 7);
            if (sel & 8)
              b = (b & 0x80) ? 0xff : 0;
            d |= uint32_t(b) << (8 * i);
          }
        } else {
          const std::array<std::array<int, 4>, 4> *table =
              prmtModeTable(*mode);
          if (!table)
            return fail("prmt mode '" + *mode + "' is not modeled");
          const auto &row = (*table)[c & 3];
          for (unsigned i = 0; i < 4; ++i)
            d |= uint32_t(byte(row[i])) << (8 * i);
        }
        set(o, Val{d, nullptr});
        return advance();
      })
      .Case<Lop3Op>([&](Lop3Op o) {
        if (!noReal({o.getA(), o.getB(), o.getC()}))
          return StepResult::Stop;
        uint32_t a = get(o.getA()).bits, b = get(o.getB()).bits,
                 c = get(o.getC()).bits;
        uint32_t lut = o.getLut();
        uint32_t d = 0;
        for (unsigned i = 0; i < 32; ++i) {
          unsigned idx = ((a >> i) & 1) << 2 | ((b >> i) & 1) << 1 |
                         ((c >> i) & 1);
          d |= ((lut >> idx) & 1u) << i;
        }
        set(o, Val{d, nullptr});
        return advance();
      })
      .Case<ShfOp>([&](ShfOp o) {
        if (!noReal({o.getA(), o.getB()}))
          return StepResult::Stop;
        uint64_t v = (get(o.getA()).bits & 0xffffffff) |
                     (get(o.getB()).bits << 32);
        uint32_t c = get(o.getAmount()).bits;
        unsigned n = o.getClamp() ? std::min<uint32_t>(c, 32) : (c & 31);
        uint64_t d = o.getLeft() ? ((v << n) >> 32) : (v >> n);
        set(o, Val{d & 0xffffffff, nullptr});
        return advance();
      })
      .Case<CmpOp>([&](CmpOp c) {
        Type ty = c.getLhs().getType();
        bool r = false;
        CmpPredicate p = c.getPredicate();
        if (isa<FloatType>(ty)) {
          bool unordered = false, lt = false, eq = false, gt = false;
          if (exact()) {
            RealPtr a = realOf(c.getLhs()), b = realOf(c.getRhs());
            unordered = mpfr_nan_p(a->v) || mpfr_nan_p(b->v);
            if (!unordered) {
              int k = mpfr_cmp(a->v, b->v);
              lt = k < 0, eq = k == 0, gt = k > 0;
            }
          } else {
            APFloat a = flush(toAP(get(c.getLhs()).bits, ty), c.getFtz());
            APFloat b = flush(toAP(get(c.getRhs()).bits, ty), c.getFtz());
            APFloat::cmpResult k = a.compare(b);
            unordered = k == APFloat::cmpUnordered;
            lt = k == APFloat::cmpLessThan;
            eq = k == APFloat::cmpEqual;
            gt = k == APFloat::cmpGreaterThan;
          }
          switch (p) {
          case CmpPredicate::Eq:
            r = eq;
            break;
          case CmpPredicate::Ne:
            r = lt || gt;
            break;
          case CmpPredicate::Lt:
            r = lt;
            break;
          case CmpPredicate::Le:
            r = lt || eq;
            break;
          case CmpPredicate::Gt:
            r = gt;
            break;
          case CmpPredicate::Ge:
            r = gt || eq;
            break;
          case CmpPredicate::Equ:
            r = unordered || eq;
            break;
          case CmpPredicate::Neu:
            r = unordered || lt || gt;
            break;
          case CmpPredicate::Ltu:
            r = unordered || lt;
            break;
          case CmpPredicate::Leu:
            r = unordered || lt || eq;
            break;
          case CmpPredicate::Gtu:
            r = unordered || gt;
            break;
          case CmpPredicate::Geu:
            r = unordered || gt || eq;
            break;
          case CmpPredicate::Num:
            r = !unordered;
            break;
          case CmpPredicate::NaN:
            r = unordered;
            break;
          }
        } else {
          if (!noReal({c.getLhs(), c.getRhs()}))
            return StepResult::Stop;
          unsigned w = widthOf(ty);
          uint64_t a = get(c.getLhs()).bits & maskOf(w),
                   b = get(c.getRhs()).bits & maskOf(w);
          bool sgn = c.getIsSigned();
          int64_t sa = sext(a, w), sb = sext(b, w);
          switch (p) {
          case CmpPredicate::Eq:
            r = a == b;
            break;
          case CmpPredicate::Ne:
            r = a != b;
            break;
          case CmpPredicate::Lt:
            r = sgn ? sa < sb : a < b;
            break;
          case CmpPredicate::Le:
            r = sgn ? sa <= sb : a <= b;
            break;
          case CmpPredicate::Gt:
            r = sgn ? sa > sb : a > b;
            break;
          case CmpPredicate::Ge:
            r = sgn ? sa >= sb : a >= b;
            break;
          default:
            return fail("integer comparison '" +
                        stringifyCmpPredicate(p) + "' is not defined");
          }
        }
        set(c, Val{r, nullptr});
        return advance();
      })
      .Case<SelpOp>([&](SelpOp o) {
        bool c = get(o.getCondition()).bits & 1;
        set(o, get(c ? o.getTrueValue() : o.getFalseValue()));
        return advance();
      })
      .Case<CvtOp>([&](CvtOp c) {
        Type from = c.getInput().getType(), to = c.getType();
        bool fromF = isa<FloatType>(from), toF = isa<FloatType>(to);
        std::optional<FloatMode> mode = c.getMode();
        APFloat::roundingMode rm = roundingOf(mode);
        bool integral = mode && (*mode == FloatMode::RNI ||
                                 *mode == FloatMode::RZI ||
                                 *mode == FloatMode::RMI ||
                                 *mode == FloatMode::RPI);
        if (!fromF && !toF) {
          if (!noReal({c.getInput()}))
            return StepResult::Stop;
          unsigned fw = widthOf(from), tw = widthOf(to);
          uint64_t a = get(c.getInput()).bits & maskOf(fw);
          __int128 v = c.getSrcSigned() ? __int128(sext(a, fw)) : __int128(a);
          uint64_t r;
          if (c.getSat()) {
            // Clamp to the destination range (PTX ISA 9.7.9.21).
            __int128 lo = c.getDstSigned() ? -(__int128(1) << (tw - 1)) : 0;
            __int128 hi = c.getDstSigned() ? (__int128(1) << (tw - 1)) - 1
                                           : (__int128(1) << tw) - 1;
            r = uint64_t(v < lo ? lo : v > hi ? hi : v);
          } else {
            r = uint64_t(v);
          }
          set(c, Val{r, nullptr});
          return advance();
        }
        if (!fromF && toF) {
          if (!noReal({c.getInput()}))
            return StepResult::Stop;
          unsigned fw = widthOf(from);
          APInt a(fw, get(c.getInput()).bits & maskOf(fw));
          if (exact()) {
            RealPtr r = mkReal();
            if (c.getSrcSigned())
              mpfr_set_si(r->v, long(sext(a.getZExtValue(), fw)), MPFR_RNDN);
            else
              mpfr_set_ui(r->v, (unsigned long)a.getZExtValue(), MPFR_RNDN);
            setReal(c, c.getSat() ? saturate(r) : r);
            return advance();
          }
          APFloat r(semanticsOf(to));
          r.convertFromAPInt(a, c.getSrcSigned(), rm);
          set(c, Val{finish(r, to, c.getFtz(), c.getSat()), nullptr});
          return advance();
        }
        if (fromF && !toF) {
          // Float -> int: integer rounding, NaN -> 0, saturating.
          unsigned tw = widthOf(to);
          double d;
          if (exact()) {
            RealPtr a = realOf(c.getInput());
            if (mpfr_nan_p(a->v)) {
              set(c, Val{0, nullptr});
              return advance();
            }
            mpfr_t q;
            mpfr_init2(q, options.exactPrecision);
            mpfr_rnd_t rnd = rm == APFloat::rmTowardZero ? MPFR_RNDZ
                             : rm == APFloat::rmTowardNegative ? MPFR_RNDD
                             : rm == APFloat::rmTowardPositive ? MPFR_RNDU
                                                               : MPFR_RNDN;
            mpfr_rint(q, a->v, rnd);
            d = mpfr_get_d(q, MPFR_RNDN);
            mpfr_clear(q);
          } else {
            APFloat a = flush(toAP(get(c.getInput()).bits, from), c.getFtz());
            if (a.isNaN()) {
              set(c, Val{0, nullptr});
              return advance();
            }
            a.roundToIntegral(mode ? rm : APFloat::rmTowardZero);
            bool lost;
            a.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven,
                      &lost);
            d = a.convertToDouble();
          }
          uint64_t r;
          if (c.getDstSigned()) {
            double lim = std::ldexp(1.0, tw - 1);
            if (d >= lim)
              r = maskOf(tw - 1);
            else if (d < -lim)
              r = 1ull << (tw - 1);
            else
              r = uint64_t(int64_t(d));
          } else {
            double lim = std::ldexp(1.0, tw);
            r = d <= 0 ? 0 : d >= lim ? maskOf(tw) : uint64_t(d);
          }
          set(c, Val{r, nullptr});
          return advance();
        }
        // Float -> float.
        if (exact()) {
          RealPtr a = realOf(c.getInput());
          if (integral) {
            RealPtr r = mkReal();
            mpfr_rint(r->v, a->v,
                      rm == APFloat::rmTowardZero       ? MPFR_RNDZ
                      : rm == APFloat::rmTowardNegative ? MPFR_RNDD
                      : rm == APFloat::rmTowardPositive ? MPFR_RNDU
                                                        : MPFR_RNDN);
            a = r;
          }
          // The reals model keeps a narrowing conversion exact (the
          // executor reports it as a precision downgrade).
          setReal(c, c.getSat() ? saturate(a) : a);
          return advance();
        }
        APFloat a = flush(toAP(get(c.getInput()).bits, from), c.getFtz());
        bool lost;
        if (integral) {
          a.convert(semanticsOf(to), APFloat::rmNearestTiesToEven, &lost);
          a.roundToIntegral(rm);
        } else {
          a.convert(semanticsOf(to), rm, &lost);
        }
        set(c, Val{finish(a, to, c.getFtz(), c.getSat()), nullptr});
        return advance();
      })
      .Case<CvtPackOp>([&](CvtPackOp c) {
        auto vt = cast<VectorType>(c.getType());
        Type et = vt.getElementType();
        unsigned ew = et.getIntOrFloatBitWidth();
        APFloat::roundingMode rm = roundingOf(c.getMode());
        auto conv = [&](Value v) -> uint64_t {
          APFloat a = exact() ? APFloat(mpfr_get_d(realOf(v)->v, MPFR_RNDN))
                              : toAP(get(v).bits, v.getType());
          if (a.isNaN())
            return canonicalNaN(et);
          if (c.getRelu() && a.isNegative())
            a = APFloat::getZero(a.getSemantics());
          bool lost;
          APFloat r = a;
          r.convert(semanticsOf(et), rm, &lost);
          if (c.getSatfinite() && r.isInfinity())
            r = APFloat::getLargest(semanticsOf(et), r.isNegative());
          return fromAP(r);
        };
        uint64_t hi = conv(c.getHi()), lo = conv(c.getLo());
        set(c, Val{(hi << ew) | lo, nullptr});
        return advance();
      })
      .Case<FloatBinOp>([&](FloatBinOp o) {
        Type ty = o.getType();
        if (auto vt = dyn_cast<VectorType>(ty)) {
          if (exact())
            return fail("exact mode: packed float arithmetic is not modeled "
                        "(use --mode=ieee)");
          // Packed halves: element-wise (PTX ISA 9.7.4).
          Type et = vt.getElementType();
          unsigned ew = et.getIntOrFloatBitWidth();
          uint64_t a = get(o.getLhs()).bits, b = get(o.getRhs()).bits, r = 0;
          for (unsigned k = 0; k < 2; ++k) {
            APFloat x = flush(toAP((a >> (k * ew)) & maskOf(ew), et), o.getFtz());
            APFloat y = flush(toAP((b >> (k * ew)) & maskOf(ew), et), o.getFtz());
            APFloat::roundingMode rm = roundingOf(o.getMode());
            switch (o.getKind()) {
            case FloatBinKind::Add:
              x.add(y, rm);
              break;
            case FloatBinKind::Sub:
              x.subtract(y, rm);
              break;
            case FloatBinKind::Mul:
              x.multiply(y, rm);
              break;
            case FloatBinKind::Min:
              x = llvm::minnum(x, y);
              break;
            case FloatBinKind::Max:
              x = llvm::maxnum(x, y);
              break;
            default:
              return fail("packed '" + stringifyFloatBinKind(o.getKind()) +
                          "' is not modeled");
            }
            r |= finish(x, et, o.getFtz(), o.getSat()) << (k * ew);
          }
          set(o, Val{r, nullptr});
          return advance();
        }
        if (exact()) {
          RealPtr a = realOf(o.getLhs()), b = realOf(o.getRhs());
          RealPtr r = mkReal();
          switch (o.getKind()) {
          case FloatBinKind::Add:
          case FloatBinKind::Sub: {
            bool add = o.getKind() == FloatBinKind::Add;
            (add ? mpfr_add : mpfr_sub)(r->v, a->v, b->v, MPFR_RNDN);
            if (a->scaled && b->scaled) {
              r->scaled = true;
              (add ? mpfr_add : mpfr_sub)(r->g, a->g, b->g, MPFR_RNDN);
            } else if (a->scaled && mpfr_zero_p(b->v)) {
              r->scaled = true;
              mpfr_set(r->g, a->g, MPFR_RNDN);
            } else if (b->scaled && mpfr_zero_p(a->v)) {
              r->scaled = true;
              (add ? mpfr_set : mpfr_neg)(r->g, b->g, MPFR_RNDN);
            }
            break;
          }
          case FloatBinKind::Mul:
            mpfr_mul(r->v, a->v, b->v, MPFR_RNDN);
            // (L g) * v = L (g v); of two scaled values, (L g_a)(L g_b) =
            // L (g_a * L g_b): the executor's normal form sees the factor L
            // in every coefficient either way.
            if (a->scaled || b->scaled) {
              r->scaled = true;
              mpfr_mul(r->g, a->scaled ? a->g : b->g, a->scaled ? b->v : a->v,
                       MPFR_RNDN);
            }
            break;
          case FloatBinKind::Div:
            if (mpfr_zero_p(b->v))
              event(t, op, "divisor of div is zero");
            mpfr_div(r->v, a->v, b->v, MPFR_RNDN);
            // (L g) / h = L (g / h) (Normalizer::matchScaledLinear).
            if (a->scaled && !b->scaled) {
              r->scaled = true;
              mpfr_div(r->g, a->g, b->v, MPFR_RNDN);
            }
            break;
          case FloatBinKind::Min:
          case FloatBinKind::Max: {
            bool mx = o.getKind() == FloatBinKind::Max;
            // No NaN in the reals model; a NaN operand gives the other.
            const Real *pick;
            if (mpfr_nan_p(a->v))
              pick = b.get();
            else if (mpfr_nan_p(b->v))
              pick = a.get();
            else
              pick = (mpfr_cmp(a->v, b->v) < 0) == mx ? b.get() : a.get();
            mpfr_set(r->v, pick->v, MPFR_RNDN);
            const Real *other = pick == a.get() ? b.get() : a.get();
            if (pick->scaled && (other->scaled || mpfr_inf_p(other->v))) {
              r->scaled = true;
              mpfr_set(r->g, pick->g, MPFR_RNDN);
            } else if (mpfr_inf_p(pick->v) && other->scaled) {
              r->scaled = true;
              mpfr_set(r->g, pick->v, MPFR_RNDN);
            }
            break;
          }
          case FloatBinKind::CopySign:
            mpfr_abs(r->v, b->v, MPFR_RNDN);
            if (mpfr_sgn(a->v) < 0)
              mpfr_neg(r->v, r->v, MPFR_RNDN);
            break;
          }
          setReal(o, o.getSat() ? saturate(r) : r);
          return advance();
        }
        APFloat a = flush(toAP(get(o.getLhs()).bits, ty), o.getFtz());
        APFloat b = flush(toAP(get(o.getRhs()).bits, ty), o.getFtz());
        APFloat::roundingMode rm = roundingOf(o.getMode());
        uint64_t r = 0;
        switch (o.getKind()) {
        case FloatBinKind::Add:
          a.add(b, rm);
          r = finish(a, ty, o.getFtz(), o.getSat());
          break;
        case FloatBinKind::Sub:
          a.subtract(b, rm);
          r = finish(a, ty, o.getFtz(), o.getSat());
          break;
        case FloatBinKind::Mul:
          a.multiply(b, rm);
          r = finish(a, ty, o.getFtz(), o.getSat());
          break;
        case FloatBinKind::Div:
          if (b.isZero())
            event(t, op, "divisor of div is zero");
          // div.approx/div.full are within 2 ulp of a / b (PTX ISA
          // 9.7.3.8); the interpreter computes a / b correctly rounded.
          a.divide(b, (o.getMode() && (*o.getMode() == FloatMode::Approx ||
                                       *o.getMode() == FloatMode::Full))
                          ? APFloat::rmNearestTiesToEven
                          : rm);
          r = finish(a, ty, o.getFtz(), o.getSat());
          break;
        case FloatBinKind::Min:
        case FloatBinKind::Max: {
          // PTX ISA 9.7.3.10-11: a NaN operand gives the other unless
          // .NaN; both NaN give the canonical NaN; -0 < +0.
          bool mx = o.getKind() == FloatBinKind::Max;
          if (a.isNaN() && b.isNaN()) {
            r = canonicalNaN(ty);
          } else if ((a.isNaN() || b.isNaN()) && o.getNan()) {
            r = canonicalNaN(ty);
          } else if (a.isNaN()) {
            r = fromAP(b);
          } else if (b.isNaN()) {
            r = fromAP(a);
          } else if (a.isZero() && b.isZero()) {
            bool neg = mx ? (a.isNegative() && b.isNegative())
                          : (a.isNegative() || b.isNegative());
            r = fromAP(APFloat::getZero(a.getSemantics(), neg));
          } else {
            APFloat::cmpResult k = a.compare(b);
            r = fromAP((k == APFloat::cmpLessThan) == mx ? b : a);
          }
          r = finish(toAP(r, ty), ty, o.getFtz(), o.getSat());
          if (toAP(r, ty).isNaN())
            r = canonicalNaN(ty);
          break;
        }
        case FloatBinKind::CopySign: {
          unsigned w = widthOf(ty);
          uint64_t sign = 1ull << (w - 1);
          r = (get(o.getRhs()).bits & ~sign & maskOf(w)) |
              (get(o.getLhs()).bits & sign);
          break;
        }
        }
        set(o, Val{r, nullptr});
        return advance();
      })
      .Case<FmaOp>([&](FmaOp o) {
        Type ty = o.getType();
        if (auto vt = dyn_cast<VectorType>(ty)) {
          if (exact())
            return fail("exact mode: packed float arithmetic is not modeled "
                        "(use --mode=ieee)");
          // Packed halves: element-wise, one rounding each (PTX ISA 9.7.4.6).
          Type et = vt.getElementType();
          unsigned ew = et.getIntOrFloatBitWidth();
          uint64_t a = get(o.getA()).bits, b = get(o.getB()).bits,
                   c = get(o.getC()).bits, r = 0;
          for (unsigned k = 0; k < 2; ++k) {
            auto elem = [&](uint64_t v) {
              return flush(toAP((v >> (k * ew)) & maskOf(ew), et), o.getFtz());
            };
            APFloat x = elem(a);
            x.fusedMultiplyAdd(elem(b), elem(c), roundingOf(o.getMode()));
            r |= finish(x, et, o.getFtz(), o.getSat()) << (k * ew);
          }
          set(o, Val{r, nullptr});
          return advance();
        }
        if (exact()) {
          RealPtr a = realOf(o.getA()), b = realOf(o.getB()), c = realOf(o.getC());
          RealPtr r = mkReal();
          mpfr_fma(r->v, a->v, b->v, c->v, MPFR_RNDN);
          bool prodScaled = a->scaled || b->scaled;
          if (prodScaled && (c->scaled || mpfr_zero_p(c->v))) {
            r->scaled = true;
            mpfr_mul(r->g, a->scaled ? a->g : b->g, a->scaled ? b->v : a->v,
                     MPFR_RNDN);
            if (c->scaled)
              mpfr_add(r->g, r->g, c->g, MPFR_RNDN);
          }
          setReal(o, o.getSat() ? saturate(r) : r);
          return advance();
        }
        APFloat a = flush(toAP(get(o.getA()).bits, ty), o.getFtz());
        APFloat b = flush(toAP(get(o.getB()).bits, ty), o.getFtz());
        APFloat c = flush(toAP(get(o.getC()).bits, ty), o.getFtz());
        a.fusedMultiplyAdd(b, c, roundingOf(o.getMode()));
        set(o, Val{finish(a, ty, o.getFtz(), o.getSat()), nullptr});
        return advance();
      })
      .Case<FloatUnaryOp>([&](FloatUnaryOp o) {
        Type ty = o.getType();
        if (isa<VectorType>(ty)) {
          if (exact() || (o.getKind() != FloatUnaryKind::Neg &&
                          o.getKind() != FloatUnaryKind::Abs))
            return fail("packed '" + stringifyFloatUnaryKind(o.getKind()) +
                        "' is not modeled");
          unsigned ew = cast<VectorType>(ty).getElementType().getIntOrFloatBitWidth();
          uint64_t s = (1ull << (ew - 1)) | (1ull << (2 * ew - 1));
          uint64_t a = get(o.getInput()).bits;
          set(o, Val{o.getKind() == FloatUnaryKind::Neg ? a ^ s : a & ~s,
                     nullptr});
          return advance();
        }
        if (exact()) {
          RealPtr a = realOf(o.getInput());
          RealPtr r = mkReal();
          switch (o.getKind()) {
          case FloatUnaryKind::Neg:
            mpfr_neg(r->v, a->v, MPFR_RNDN);
            if (a->scaled) {
              r->scaled = true;
              mpfr_neg(r->g, a->g, MPFR_RNDN);
            }
            break;
          case FloatUnaryKind::Abs:
            mpfr_abs(r->v, a->v, MPFR_RNDN);
            break;
          case FloatUnaryKind::Rcp:
            if (mpfr_zero_p(a->v))
              event(t, op, "operand of rcp is zero");
            mpfr_ui_div(r->v, 1, a->v, MPFR_RNDN);
            break;
          case FloatUnaryKind::Sqrt:
            if (mpfr_sgn(a->v) < 0)
              event(t, op, "operand of sqrt is negative");
            mpfr_sqrt(r->v, a->v, MPFR_RNDN);
            break;
          case FloatUnaryKind::Rsqrt:
            if (mpfr_sgn(a->v) <= 0)
              event(t, op, "operand of rsqrt is not positive");
            mpfr_rec_sqrt(r->v, a->v, MPFR_RNDN);
            break;
          case FloatUnaryKind::Ex2:
            // The executor's idiom: ex2(0f3FB8AA3B * g) is exp(g).
            if (a->scaled)
              mpfr_exp(r->v, a->g, MPFR_RNDN);
            else
              mpfr_exp2(r->v, a->v, MPFR_RNDN);
            break;
          case FloatUnaryKind::Lg2:
            // lg2(+-0) = -inf (PTX ISA 9.7.4.10); a negative or NaN
            // operand gives NaN.
            if (mpfr_nan_p(a->v) || mpfr_sgn(a->v) < 0)
              event(t, op, "operand of lg2 is negative");
            mpfr_log2(r->v, a->v, MPFR_RNDN);
            break;
          case FloatUnaryKind::Tanh:
            mpfr_tanh(r->v, a->v, MPFR_RNDN);
            break;
          case FloatUnaryKind::Sin:
            mpfr_sin(r->v, a->v, MPFR_RNDN);
            break;
          case FloatUnaryKind::Cos:
            mpfr_cos(r->v, a->v, MPFR_RNDN);
            break;
          }
          setReal(o, o.getSat() ? saturate(r) : r);
          return advance();
        }
        bool ftz = o.getFtz();
        APFloat a = flush(toAP(get(o.getInput()).bits, ty), ftz);
        APFloat::roundingMode rm = roundingOf(o.getMode());
        bool approx = o.getMode() && *o.getMode() == FloatMode::Approx;
        double x = toDouble(fromAP(a), ty);
        uint64_t r = 0;
        unsigned w = widthOf(ty);
        uint64_t sign = 1ull << (w - 1);
        switch (o.getKind()) {
        case FloatUnaryKind::Neg:
          // Flips the sign bit, of a NaN too.
          set(o, Val{(fromAP(a) ^ sign) & maskOf(w), nullptr});
          return advance();
        case FloatUnaryKind::Abs:
          set(o, Val{fromAP(a) & ~sign & maskOf(w), nullptr});
          return advance();
        case FloatUnaryKind::Rcp:
          if (a.isZero())
            event(t, op, "operand of rcp is zero");
          r = approx ? fromDouble(1.0 / x, ty, APFloat::rmNearestTiesToEven)
                     : [&] {
                         APFloat one(a.getSemantics(), 1);
                         one.divide(a, rm);
                         return fromAP(one);
                       }();
          break;
        case FloatUnaryKind::Sqrt:
          if (x < 0)
            event(t, op, "operand of sqrt is negative");
          r = viaDouble(x, ty, approx ? APFloat::rmNearestTiesToEven : rm,
                        [](double v) { return std::sqrt(v); });
          break;
        case FloatUnaryKind::Rsqrt:
          if (!(x > 0))
            event(t, op, "operand of rsqrt is not positive");
          r = fromDouble(1.0 / std::sqrt(x), ty, APFloat::rmNearestTiesToEven);
          break;
        case FloatUnaryKind::Ex2:
          // ex2.approx through the host's exp2f (f64: exp2).
          r = ty.isF64() ? fromDouble(std::exp2(x), ty, APFloat::rmNearestTiesToEven)
                         : fromDouble(double(exp2f(float(x))), ty,
                                      APFloat::rmNearestTiesToEven);
          break;
        case FloatUnaryKind::Lg2:
          // lg2(+-0) = -inf; a negative or NaN operand gives NaN.
          if (std::isnan(x) || x < 0)
            event(t, op, "operand of lg2 is negative");
          r = ty.isF64() ? fromDouble(std::log2(x), ty, APFloat::rmNearestTiesToEven)
                         : fromDouble(double(log2f(float(x))), ty,
                                      APFloat::rmNearestTiesToEven);
          break;
        case FloatUnaryKind::Tanh:
          r = fromDouble(double(tanhf(float(x))), ty, APFloat::rmNearestTiesToEven);
          break;
        case FloatUnaryKind::Sin:
          r = fromDouble(double(sinf(float(x))), ty, APFloat::rmNearestTiesToEven);
          break;
        case FloatUnaryKind::Cos:
          r = fromDouble(double(cosf(float(x))), ty, APFloat::rmNearestTiesToEven);
          break;
        }
        set(o, Val{finish(toAP(r, ty), ty, ftz, o.getSat()), nullptr});
        return advance();
      })
      .Case<TestpOp>([&](TestpOp o) {
        Type ty = o.getInput().getType();
        if (exact()) {
          // The reals model (as the executor): a finite value is normal
          // when |a| >= the type's smallest normal (no overflow in the
          // reals), subnormal when 0 < |a| below it.
          mpfr_srcptr v = realOf(o.getInput())->v;
          bool nan = mpfr_nan_p(v), inf = mpfr_inf_p(v);
          int belowMin = 0;
          if (!nan && !inf && !mpfr_zero_p(v)) {
            mpfr_t m;
            mpfr_init2(m, 64);
            mpfr_set_ui_2exp(m, 1, ty.isF64() ? -1022 : -126, MPFR_RNDN);
            belowMin = mpfr_cmpabs(v, m) < 0 ? 1 : -1;
            mpfr_clear(m);
          }
          bool r = false;
          switch (o.getKind()) {
          case TestpKind::Finite:
            r = !nan && !inf;
            break;
          case TestpKind::Infinite:
            r = inf;
            break;
          case TestpKind::Number:
            r = !nan;
            break;
          case TestpKind::NotANumber:
            r = nan;
            break;
          case TestpKind::Normal:
            r = belowMin < 0;
            break;
          case TestpKind::Subnormal:
            r = belowMin > 0;
            break;
          }
          set(o, Val{r, nullptr});
          return advance();
        }
        APFloat a = exact() ? APFloat(mpfr_get_d(realOf(o.getInput())->v, MPFR_RNDN))
                            : toAP(get(o.getInput()).bits, ty);
        bool r = false;
        switch (o.getKind()) {
        case TestpKind::Finite:
          r = a.isFinite();
          break;
        case TestpKind::Infinite:
          r = a.isInfinity();
          break;
        case TestpKind::Number:
          r = !a.isNaN();
          break;
        case TestpKind::NotANumber:
          r = a.isNaN();
          break;
        case TestpKind::Normal:
          r = a.isNormal();
          break;
        case TestpKind::Subnormal:
          r = a.isDenormal();
          break;
        }
        set(o, Val{r, nullptr});
        return advance();
      })
      .Case<LoadOp>([&](LoadOp l) {
        unsigned n = l.getNumResults();
        unsigned width = std::max(1u, widthOf(l.getResult(0).getType()) / 8);
        uint64_t addr = get(l.getAddr()).bits + l.getOffset();
        uint64_t off;
        Allocation *a = resolve(t, op, l.getSpace(), addr, width * n, off);
        if (stop)
          return StepResult::Stop;
        bool strong = l.getSem() != MemSemantics::Weak;
        for (auto [k, res] : llvm::enumerate(l.getResults())) {
          Val v;
          if (a && !load(t, op, a, off + k * width, width, res.getType(), v,
                         strong))
            return StepResult::Stop;
          set(res, v);
        }
        return advance();
      })
      .Case<StoreOp>([&](StoreOp st) {
        unsigned n = st.getValues().size();
        unsigned width =
            std::max(1u, widthOf(st.getValues()[0].getType()) / 8);
        uint64_t addr = get(st.getAddr()).bits + st.getOffset();
        uint64_t off;
        Allocation *a = resolve(t, op, st.getSpace(), addr, width * n, off);
        if (stop)
          return StepResult::Stop;
        bool strong = st.getSem() != MemSemantics::Weak;
        if (a)
          for (auto [k, v] : llvm::enumerate(st.getValues())) {
            Val x = get(v);
            x.bits &= maskOf(width * 8);
            if (exact() && x.real && isa<FloatType>(v.getType()))
              x.bits = bitsOfReal(*x.real, v.getType());
            store(t, op, a, off + k * width, width, x, strong);
          }
        return advance();
      })
      .Case<AtomOp>([&](AtomOp at) {
        Type ty = at.getValue().getType();
        unsigned w = widthOf(ty);
        unsigned bytes = std::max(1u, w / 8);
        uint64_t addr = get(at.getAddr()).bits + at.getOffset();
        uint64_t off;
        Allocation *a = resolve(t, op, at.getSpace(), addr, bytes, off);
        if (stop)
          return StepResult::Stop;
        if (!a) {
          if (at.getResult())
            set(at.getResult(), Val{});
          return advance();
        }
        Val old;
        ctaScopedAccess = at.getScope() == MemScope::CTA;
        bool loaded = load(t, op, a, off, bytes, ty, old, /*strong=*/true);
        ctaScopedAccess = false;
        if (!loaded)
          return StepResult::Stop;
        Val b = get(at.getValue());
        Val nv;
        uint64_t x = old.bits & maskOf(w), y = b.bits & maskOf(w);
        bool sgn = at.getIsSigned();
        if (isa<FloatType>(ty)) {
          if (exact()) {
            RealPtr ro = realOperand(t, op, old, ty), rb = realOf(at.getValue());
            RealPtr r = mkReal();
            switch (at.getKind()) {
            case AtomKind::Add:
              mpfr_add(r->v, ro->v, rb->v, MPFR_RNDN);
              break;
            case AtomKind::Min:
              mpfr_min(r->v, ro->v, rb->v, MPFR_RNDN);
              break;
            case AtomKind::Max:
              mpfr_max(r->v, ro->v, rb->v, MPFR_RNDN);
              break;
            case AtomKind::Exch:
              mpfr_set(r->v, rb->v, MPFR_RNDN);
              break;
            default:
              return fail("atom." + stringifyAtomKind(at.getKind()) +
                          " on a float is not modeled in exact mode");
            }
            nv.real = r;
            nv.bits = bitsOfReal(*r, ty);
            old.real = ro;
          } else {
            APFloat fa = toAP(x, ty), fb = toAP(y, ty);
            switch (at.getKind()) {
            case AtomKind::Add:
              // atom.add.f32 rounds to nearest and flushes subnormals.
              fa = flush(fa, ty.isF32());
              fb = flush(fb, ty.isF32());
              fa.add(fb, APFloat::rmNearestTiesToEven);
              nv.bits = finish(fa, ty, ty.isF32(), false);
              break;
            case AtomKind::Min:
              nv.bits = fromAP(llvm::minnum(fa, fb));
              break;
            case AtomKind::Max:
              nv.bits = fromAP(llvm::maxnum(fa, fb));
              break;
            case AtomKind::Exch:
              nv.bits = y;
              break;
            case AtomKind::Cas:
              nv.bits = x == y ? get(at.getSwap()).bits : x;
              break;
            default:
              return fail("atom." + stringifyAtomKind(at.getKind()) +
                          " on a float is not defined");
            }
          }
        } else {
          if (!noReal({at.getValue()}))
            return StepResult::Stop;
          switch (at.getKind()) {
          case AtomKind::Add:
            nv.bits = x + y;
            break;
          case AtomKind::Min:
            nv.bits = sgn ? (sext(y, w) < sext(x, w) ? y : x) : std::min(x, y);
            break;
          case AtomKind::Max:
            nv.bits = sgn ? (sext(y, w) > sext(x, w) ? y : x) : std::max(x, y);
            break;
          case AtomKind::Exch:
            nv.bits = y;
            break;
          case AtomKind::Cas:
            nv.bits = x == y ? get(at.getSwap()).bits : x;
            break;
          case AtomKind::And:
            nv.bits = x & y;
            break;
          case AtomKind::Or:
            nv.bits = x | y;
            break;
          case AtomKind::Xor:
            nv.bits = x ^ y;
            break;
          case AtomKind::Inc:
            nv.bits = x >= y ? 0 : x + 1;
            break;
          case AtomKind::Dec:
            nv.bits = (x == 0 || x > y) ? y : x - 1;
            break;
          }
        }
        nv.bits &= maskOf(w);
        ctaScopedAccess = at.getScope() == MemScope::CTA;
        store(t, op, a, off, bytes, nv, /*strong=*/true);
        ctaScopedAccess = false;
        if (at.getResult())
          set(at.getResult(), old);
        return advance();
      })
      .Case<BarrierOp>([&](BarrierOp b) {
        if (b.getKind() == BarrierKind::Arrive) {
          unsigned id = b.getId() ? get(b.getId()).bits : 0;
          ++arrived[id];
          arriveCounted(t, id);
          // The count reached by arrivals alone: that generation completes
          // without a waiter, the next arrivals start a new one.
          if (b.getCount() && arrived[id] >= get(b.getCount()).bits) {
            arrived[id] = 0;
            generationClock.erase(id);
          }
          return advance();
        }
        return StepResult::Blocked;
      })
      .Case<ShflOp, VoteOp, ActiveMaskOp, WarpSyncOp, ReduxOp, MatchOp,
            ElectOp>([&](Operation *) { return StepResult::Blocked; })
      .Case<FenceOp>([&](FenceOp) { return advance(); })
      .Case<MBarrierInitOp, MBarrierArriveOp, MBarrierInvalOp>(
          [&](Operation *) -> StepResult {
            // PTX ISA 9.7.13.15: the 8-byte object in shared memory.
            Value addr;
            int64_t offset = 0;
            StateSpace space = StateSpace::Shared;
            llvm::TypeSwitch<Operation *>(op)
                .Case<MBarrierInitOp, MBarrierArriveOp, MBarrierInvalOp>(
                    [&](auto o) {
                      addr = o.getAddr();
                      offset = o.getOffset();
                      space = o.getSpace();
                    });
            uint64_t a = get(addr).bits + offset, off;
            Allocation *al = resolve(t, op, space, a, 8, off);
            if (stop)
              return StepResult::Stop;
            if (!al)
              return advance();
            MBarrier &b = mbarriers[a];
            if (auto in = dyn_cast<MBarrierInitOp>(op)) {
              if (b.live)
                finding(Finding::Kind::MBarrier, op,
                        "mbarrier misuse: " + threadName(t) +
                            " initializes the mbarrier at " +
                            describeAddress(al, off) + " while it is in use");
              b = MBarrier();
              b.live = true;
              b.count = b.pending = uint32_t(get(in.getCount()).bits);
              if (b.count == 0)
                return fail("mbarrier.init with count 0");
              return advance();
            }
            if (!b.live) {
              finding(Finding::Kind::MBarrier, op,
                      "mbarrier misuse: " + threadName(t) +
                          " uses the mbarrier at " + describeAddress(al, off) +
                          " before its init (or after its inval)");
              return advance();
            }
            if (isa<MBarrierInvalOp>(op)) {
              b.live = false;
              return advance();
            }
            auto ar = cast<MBarrierArriveOp>(op);
            uint32_t n = ar.getCount() ? uint32_t(get(ar.getCount()).bits) : 1;
            if (ar.getState())
              set(ar.getState(), Val{b.phase, nullptr});
            // The arrival releases what the thread is ordered after.
            ++t.release;
            b.open.resize(threadsPerCta, 0);
            for (size_t u = 0; u < t.clock.size(); ++u)
              b.open[u] = std::max(b.open[u], t.clock[u]);
            b.open[t.linear] = std::max(b.open[t.linear], t.release);
            if (n > b.pending)
              return fail("mbarrier.arrive: more arrivals than the phase "
                          "still expects (undefined)");
            b.pending -= n;
            if (b.pending == 0) {
              b.completed[b.phase] = std::move(b.open);
              b.open.clear();
              ++b.phase;
              b.pending = b.count;
              // The threads spinning on this phase go on as soon as it
              // completes (before the arrivers' next phase may).
              for (Thread &u : threads)
                if (u.status == Status::Waiting)
                  if (auto w = dyn_cast<MBarrierWaitOp>(u.waitingAt))
                    if (mbarrierWaitDone(u, w, /*acquire=*/false)) {
                      u.status = Status::Ready;
                      u.waitingAt = nullptr;
                    }
            }
            return advance();
          })
      .Case<MBarrierWaitOp>([&](MBarrierWaitOp w) -> StepResult {
        if (mbarrierWaitDone(t, w, /*acquire=*/true)) {
          set(w.getComplete(), Val{1, nullptr});
          return advance();
        }
        if (stop)
          return StepResult::Stop;
        // The spin loop would retry: the thread waits for the phase.
        if (w.isSpinLoop())
          return StepResult::Blocked;
        set(w.getComplete(), Val{0, nullptr});
        return advance();
      })
      .Case<CpAsyncOp>([&](CpAsyncOp cp) {
        // PTX ISA: cp.async. The source is read now; the destination is
        // written when a wait completes the copy, and is in flight until.
        uint64_t size = cp.getSize();
        uint64_t daddr = get(cp.getDst()).bits + cp.getDstOffset();
        uint64_t saddr = get(cp.getSrc()).bits + cp.getSrcOffset();
        uint64_t srcBytes = size;
        if (Value n = cp.getSrcSize()) {
          srcBytes = get(n).bits;
          if (srcBytes > size)
            return fail("cp.async src-size " + Twine(srcBytes) +
                        " is larger than its cp-size " + Twine(size) +
                        ": undefined behaviour (PTX ISA: cp.async)");
        }
        if (Value ig = cp.getIgnoreSrc(); ig && get(ig).bits)
          srcBytes = 0;
        uint64_t doff;
        Allocation *d = resolve(t, op, StateSpace::Shared, daddr, size, doff);
        if (stop)
          return StepResult::Stop;
        if (!d)
          return advance();
        Thread::PendingCopy c;
        c.dst = d;
        c.off = doff;
        c.bytes.assign(size, 0);
        c.op = op;
        if (srcBytes) {
          if (saddr % size != 0) {
            finding(Finding::Kind::Misaligned, op,
                    threadName(t) + " copies " + Twine(size) +
                        " bytes from the misaligned address 0x" +
                        llvm::utohexstr(saddr));
            return advance();
          }
          uint64_t soff;
          Allocation *sa =
              resolve(t, op, StateSpace::Global, saddr, srcBytes, soff);
          if (stop)
            return StepResult::Stop;
          if (!sa)
            return advance();
          recordAccess(t, op, sa, soff, srcBytes, /*write=*/false,
                       /*strong=*/false, nullptr);
          for (uint64_t k = 0; k < srcBytes; ++k)
            c.bytes[k] = sa->bytes[soff + k];
          c.src = sa;
          c.srcOff = soff;
          c.srcBytes = srcBytes;
          if (sa->trackRaces)
            for (uint64_t k = 0; k < srcBytes; ++k) {
              sa->shadow[soff + k].readInflight = t.id;
              sa->shadow[soff + k].readInflightOp = op;
            }
          for (auto it = sa->reals.lower_bound(soff);
               it != sa->reals.end() && it->first < soff + srcBytes; ++it)
            if (it->first + it->second.first <= soff + srcBytes)
              c.reals.push_back({it->first - soff, it->second});
        }
        // The write may happen from now on: it races with this phase's
        // accesses by other threads, and with any access until completed.
        recordAccess(t, op, d, doff, size, /*write=*/true, /*strong=*/false,
                     c.bytes.data());
        if (d->trackRaces)
          for (uint64_t k = 0; k < size; ++k) {
            d->shadow[doff + k].inflight = t.id;
            d->shadow[doff + k].inflightOp = op;
          }
        t.copies.push_back(std::move(c));
        return advance();
      })
      .Case<CpAsyncCommitOp>([&](CpAsyncCommitOp) {
        commitCopyGroup(t);
        return advance();
      })
      .Case<CpAsyncWaitOp>([&](CpAsyncWaitOp w) {
        // wait_all is commit_group + wait_group 0.
        if (w.getAll())
          commitCopyGroup(t);
        int64_t completeBelow =
            t.copyGroups - (w.getAll() ? 0 : int64_t(*w.getPending()));
        std::vector<Thread::PendingCopy> inFlight;
        for (Thread::PendingCopy &c : t.copies) {
          if (c.group < 0 || c.group >= completeBelow)
            inFlight.push_back(std::move(c));
          else
            completeCopy(t, c, /*exiting=*/false);
        }
        t.copies = std::move(inFlight);
        return advance();
      })
      .Case<CreatePolicyOp>([&](CreatePolicyOp c) {
        set(c, Val{});
        return advance();
      })
      .Case<PackOp>([&](PackOp pk) {
        // mov.b32 d, {lo, hi}: the first element is the low part.
        uint64_t r = 0;
        unsigned shift = 0;
        RealPtr carried;
        for (auto [k, e] : llvm::enumerate(pk.getElements())) {
          Val v = get(e);
          unsigned w = widthOf(e.getType());
          r |= (v.bits & maskOf(w)) << shift;
          shift += w;
          if (v.real) {
            // {0, bf16 bits} is the bf16 value widened to f32, exactly.
            if (k == 1 && pk.getElements().size() == 2 && w == 16 &&
                (get(pk.getElements()[0]).bits & 0xffff) == 0 &&
                !get(pk.getElements()[0]).real)
              carried = v.real;
            else if (exact())
              return fail("exact mode: packing the bits of a real value is "
                          "not modeled (use --mode=ieee)");
          }
        }
        if (exact() && carried) {
          // bits of the real as bf16 (nearest), widened.
          r = (bitsOfReal(*carried, BFloat16Type::get(op->getContext())) << 16);
        }
        set(pk, Val{r, carried});
        return advance();
      })
      .Case<UnpackOp>([&](UnpackOp up) {
        if (!noReal({up.getInput()}))
          return StepResult::Stop;
        uint64_t a = get(up.getInput()).bits;
        unsigned shift = 0;
        for (Value e : up.getElements()) {
          unsigned w = widthOf(e.getType());
          set(e, Val{(a >> shift) & maskOf(w), nullptr});
          shift += w;
        }
        return advance();
      })
      .Case<OpaqueOp>([&](OpaqueOp o) {
        return fail("unmodeled PTX instruction '" + o.getText() + "' (" +
                    o.getOpcode() +
                    "): kproof.opaque is not executable");
      })
      .Case<TrapOp>([&](TrapOp) {
        finding(Finding::Kind::Trap, op,
                threadName(t) + " reaches trap: the launch aborts");
        stop = true;
        return StepResult::Stop;
      })
      .Case<cf::BranchOp>([&](cf::BranchOp br) {
        branchTo(f, br.getDest(), br.getDestOperands());
        return StepResult::Continue;
      })
      .Case<cf::CondBranchOp>([&](cf::CondBranchOp br) {
        bool c = get(br.getCondition()).bits & 1;
        if (c)
          branchTo(f, br.getTrueDest(), br.getTrueDestOperands());
        else
          branchTo(f, br.getFalseDest(), br.getFalseDestOperands());
        return StepResult::Continue;
      })
      .Case<CallOp>([&](CallOp call) {
        auto callee = symbols.lookup<KernelOp>(call.getCallee());
        if (!callee || callee.getBody().empty()) {
          StringRef name = call.getCallee();
          if (name == "vprintf") {
            for (Value r : call.getResults())
              set(r, Val{});
            return advance();
          }
          if (name == "__assertfail" || name == "__assert_fail") {
            finding(Finding::Kind::Trap, op,
                    threadName(t) + " fails an assertion (" + name + ")");
            stop = true;
            return StepResult::Stop;
          }
          return fail("call to '" + name + "', which has no body");
        }
        if (t.stack.size() > 64)
          return fail("call depth above 64 (recursion)");
        Frame cf;
        cf.func = callee;
        cf.block = &callee.getBody().front();
        cf.it = cf.block->begin();
        cf.callSite = call;
        for (auto [arg, v] : llvm::zip(cf.block->getArguments(), call.getArgs()))
          cf.env[arg] = get(v);
        t.stack.push_back(std::move(cf));
        return StepResult::Continue;
      })
      .Case<ReturnOp, ExitOp>([&](Operation *term) {
        if (isa<ExitOp>(term) || t.stack.size() == 1)
          return StepResult::Exited;
        SmallVector<Val, 2> rets;
        for (Value v : term->getOperands())
          rets.push_back(get(v));
        Operation *site = f.callSite;
        t.stack.pop_back();
        Frame &caller = t.stack.back();
        for (auto [r, v] : llvm::zip(site->getResults(), rets))
          caller.env[r] = v;
        ++caller.it;
        return StepResult::Continue;
      })
      .Default([&](Operation *o) {
        return fail("operation '" + o->getName().getStringRef() +
                    "' is not modeled by the interpreter");
      });
}

} // namespace

RunResult kproof::interp::run(
    KernelOp kernel, const engine::LaunchConfig &launch,
    const std::vector<std::optional<engine::BufferBinding>> &buffers,
    const std::vector<std::string> &paramNames, const LaunchInputs &inputs,
    const RunOptions &options) {
  Interpreter in(kernel, launch, buffers, paramNames, inputs, options);
  return in.run();
}
