//===- Harness.cpp - run a kernel against its contract's spec -------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "KProof/Interpreter/Harness.h"

#include "KProof/Verifier/Terms/Evaluate.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <cmath>
#include <mpfr.h>

using namespace mlir;
using namespace ::kproof;
using namespace ::kproof::engine;
using namespace ::kproof::interp;
using llvm::APFloat;
using llvm::APInt;

/// One element of the inputs JSON.
static std::optional<Scalar> parseElement(const llvm::json::Value &v, Type type,
                                          std::string &error) {
  if (std::optional<int64_t> i = v.getAsInteger())
    return Scalar(Rational(*i));
  if (std::optional<double> d = v.getAsNumber()) {
    std::optional<Rational> q =
        Rational::fromAPFloat(APFloat(*d)); // exact value of the double
    if (!q) {
      error = "not a finite number";
      return std::nullopt;
    }
    return Scalar(*q);
  }
  if (std::optional<llvm::StringRef> s = v.getAsString()) {
    llvm::StringRef t = s->trim();
    if (t == "inf" || t == "+inf")
      return Scalar::special(Scalar::Kind::PosInf);
    if (t == "-inf")
      return Scalar::special(Scalar::Kind::NegInf);
    if (t == "nan")
      return Scalar::special(Scalar::Kind::NaN);
    if (t.starts_with("0x") || t.starts_with("0X")) {
      uint64_t bits;
      if (t.drop_front(2).getAsInteger(16, bits)) {
        error = "malformed bits '" + t.str() + "'";
        return std::nullopt;
      }
      return scalarOfBits(bits, type);
    }
    if (std::optional<Rational> q = Rational::parse(t))
      return Scalar(*q);
    error = "malformed number '" + t.str() +
            "' (expected p/q, a decimal, inf, -inf, nan or 0x bits)";
    return std::nullopt;
  }
  error = "expected a number or a string";
  return std::nullopt;
}

static void flatten(const llvm::json::Value &v,
                    std::vector<const llvm::json::Value *> &out) {
  if (const llvm::json::Array *a = v.getAsArray()) {
    for (const llvm::json::Value &e : *a)
      flatten(e, out);
    return;
  }
  out.push_back(&v);
}

/// The type of a scalar parameter, from its term (fixed or free).
static Type scalarType(const BoundContract &bc, unsigned i) {
  KernelOp kernel = bc.kernel;
  return kernel.getArgumentTypes()[i];
}

std::optional<LaunchInputs> kproof::interp::parseInputs(llvm::StringRef json,
                                                        const BoundContract &bc,
                                                        std::string &error) {
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(json);
  if (!parsed) {
    error = "malformed JSON: " + llvm::toString(parsed.takeError());
    return std::nullopt;
  }
  const llvm::json::Object *obj = parsed->getAsObject();
  if (!obj) {
    error = "the inputs must be one JSON object {\"name\": value, ...}";
    return std::nullopt;
  }
  LaunchInputs in;
  for (const auto &kv : *obj) {
    std::string key = kv.first.str();
    auto it = llvm::find(bc.names, key);
    if (it == bc.names.end()) {
      error = "key \"" + key + "\": no contract parameter of that name";
      return std::nullopt;
    }
    unsigned i = it - bc.names.begin();
    if (const std::optional<BufferBinding> &b = bc.buffers[i]) {
      if (b->role == BufferBinding::Role::Out) {
        error = "key \"" + key + "\": '" + key +
                "' is an output buffer; it takes no input";
        return std::nullopt;
      }
      std::vector<const llvm::json::Value *> elems;
      flatten(kv.second, elems);
      if (elems.size() != b->numElements()) {
        error = "key \"" + key + "\": " + std::to_string(elems.size()) +
                " element(s), but the contract gives '" + key + "' " +
                std::to_string(b->numElements());
        return std::nullopt;
      }
      std::vector<Scalar> &dst = in.buffers[key];
      for (auto [k, e] : llvm::enumerate(elems)) {
        std::string why;
        std::optional<Scalar> s = parseElement(*e, b->elemType, why);
        if (!s) {
          error = "key \"" + key + "\", element " + std::to_string(k) + ": " +
                  why;
          return std::nullopt;
        }
        dst.push_back(*s);
      }
      continue;
    }
    Term fixed = bc.scalars[i];
    if (fixed && fixed->isConstant()) {
      error = "key \"" + key + "\": the contract fixes scalar '" + key + "'";
      return std::nullopt;
    }
    std::string why;
    std::optional<Scalar> s = parseElement(kv.second, scalarType(bc, i), why);
    if (!s) {
      error = "key \"" + key + "\": " + why;
      return std::nullopt;
    }
    in.scalars[key] = *s;
  }
  addFixedScalars(bc, in);
  for (auto [i, name] : llvm::enumerate(bc.names)) {
    if (bc.buffers[i]) {
      if (bc.buffers[i]->role != BufferBinding::Role::Out &&
          !in.buffers.count(name)) {
        error = "no value for input buffer '" + name + "'";
        return std::nullopt;
      }
    } else if (!in.scalars.count(name)) {
      error = "no value for scalar parameter '" + name +
              "' (the contract leaves it free)";
      return std::nullopt;
    }
  }
  return in;
}

void kproof::interp::addFixedScalars(const BoundContract &bc,
                                     LaunchInputs &inputs) {
  for (auto [i, name] : llvm::enumerate(bc.names)) {
    Term t = bc.scalars[i];
    if (!t || !t->isConstant())
      continue;
    if (t->getKind() == Kind::BVConst)
      inputs.scalars[name] = Scalar(Rational::fromAPInt(
          t->getAPInt(), /*isSigned=*/t->getAPInt().getBitWidth() > 1));
    else if (t->getKind() == Kind::RealConst)
      inputs.scalars[name] = Scalar(t->getRational());
  }
}

LaunchInputs kproof::interp::randomInputs(const BoundContract &bc,
                                          std::mt19937_64 &rng, double range) {
  LaunchInputs in;
  std::uniform_real_distribution<double> real(-range, range);
  int64_t r = std::max<int64_t>(1, int64_t(range));
  std::uniform_int_distribution<int64_t> integer(-r, r);
  auto draw = [&](Type t) -> Scalar {
    if (isa<FloatType>(t)) {
      APFloat f(real(rng));
      bool lost;
      f.convert(cast<FloatType>(t).getFloatSemantics(),
                APFloat::rmNearestTiesToEven, &lost);
      return Scalar(*Rational::fromAPFloat(f));
    }
    return Scalar(Rational(integer(rng)));
  };
  for (auto [i, name] : llvm::enumerate(bc.names)) {
    if (const std::optional<BufferBinding> &b = bc.buffers[i]) {
      if (b->role == BufferBinding::Role::Out)
        continue;
      std::vector<Scalar> &dst = in.buffers[name];
      // A table with a contract range draws from it (the precondition).
      std::optional<std::uniform_int_distribution<int64_t>> ranged;
      if (b->range)
        ranged.emplace(b->range->first, b->range->second - 1);
      for (uint64_t k = 0; k < b->numElements(); ++k)
        dst.push_back(ranged ? Scalar(Rational((*ranged)(rng)))
                             : draw(b->elemType));
      continue;
    }
    Term t = bc.scalars[i];
    if (!t || !t->isConstant())
      in.scalars[name] = draw(scalarType(bc, i));
  }
  addFixedScalars(bc, in);
  return in;
}

std::optional<Assignment> kproof::interp::toAssignment(const BoundContract &bc,
                                                       const LaunchInputs &in,
                                                       std::string &error) {
  Assignment a;
  for (auto [i, name] : llvm::enumerate(bc.names)) {
    if (const std::optional<BufferBinding> &b = bc.buffers[i]) {
      auto it = in.buffers.find(name);
      if (it == in.buffers.end())
        continue;
      bool isFloat = isa<FloatType>(b->elemType);
      unsigned w = b->elemType.getIntOrFloatBitWidth();
      for (auto [k, s] : llvm::enumerate(it->second)) {
        std::string key = name + "[" + std::to_string(k) + "]";
        if (!s.isFinite()) {
          error = key + " = " + s.toString() +
                  " is not a finite real: the spec (reals) cannot take it";
          return std::nullopt;
        }
        if (isFloat) {
          a.reals[key] = s.value;
        } else {
          bool exact;
          uint64_t bits = bitsOfScalar(s, b->elemType, &exact);
          a.bitvectors[key] = APInt(w, bits);
        }
      }
      continue;
    }
    auto it = in.scalars.find(name);
    if (it == in.scalars.end())
      continue;
    Type t = scalarType(bc, i);
    if (!it->second.isFinite()) {
      error = name + " = " + it->second.toString() + " is not a finite real";
      return std::nullopt;
    }
    if (isa<FloatType>(t))
      a.reals[name] = it->second.value;
    else
      a.bitvectors[name] =
          APInt(t.getIntOrFloatBitWidth(), bitsOfScalar(it->second, t));
  }
  return a;
}

/// The value of an output element as an MPFR number at `prec` bits; false
/// for NaN.
static bool kernelValue(const OutputElement &e, Type type, mpfr_t out) {
  if (e.exact) {
    mpfr_set(out, static_cast<mpfr_srcptr>(e.exact->raw()), MPFR_RNDN);
    return !mpfr_nan_p(out);
  }
  Scalar s = scalarOfBits(e.bits, type);
  switch (s.kind) {
  case Scalar::Kind::NaN:
    mpfr_set_nan(out);
    return false;
  case Scalar::Kind::PosInf:
    mpfr_set_inf(out, 1);
    return true;
  case Scalar::Kind::NegInf:
    mpfr_set_inf(out, -1);
    return true;
  case Scalar::Kind::Finite:
    mpfr_set_q(out, s.value.get(), MPFR_RNDN);
    return true;
  }
  return false;
}

Comparison kproof::interp::compareWithSpec(BoundContract &bc, TermContext &T,
                                           const LaunchInputs &inputs,
                                           const RunResult &run, double atol,
                                           double rtol, size_t specIndex,
                                           std::optional<uint64_t> only) {
  Comparison c;
  if (specIndex >= bc.specs.size()) {
    c.error = "the contract has no spec #" + std::to_string(specIndex);
    return c;
  }
  Spec &spec = *bc.specs[specIndex];
  const BufferBinding &out = spec.output();
  c.buffer = out.name;
  // Integers are exact: 267391155 is not 267391059 within any tolerance.
  if (isa<IntegerType>(out.elemType))
    atol = rtol = 0;
  std::string error;
  std::optional<Assignment> a = toAssignment(bc, inputs, error);
  if (!a) {
    c.error = error;
    return c;
  }
  auto it = run.buffers.find(out.name);
  if (it == run.buffers.end()) {
    c.error = "the run has no buffer '" + out.name + "'";
    return c;
  }
  Evaluator ev(*a, 256);
  mpfr_t k, mid, diff, tol, rel;
  mpfr_inits2(256, k, mid, diff, tol, rel, nullptr);
  for (uint64_t i = 0; i < out.numElements(); ++i) {
    if (only && i != *only) {
      c.spec.push_back(NAN);
      c.kernel.push_back(NAN);
      continue;
    }
    std::string reason;
    Term s = spec.element(T, T.bv(i, 64), reason);
    if (!s) {
      c.error = "spec element " + std::to_string(i) + ": " + reason;
      break;
    }
    if (s->getSort() == Sort::BV) {
      std::optional<APInt> v = ev.bv(s);
      if (!v) {
        c.error = "spec element " + std::to_string(i) + ": " + ev.getError();
        break;
      }
      mpfr_set_si(mid, long(v->getSExtValue()), MPFR_RNDN);
    } else {
      std::optional<Interval> v = ev.real(s);
      if (!v) {
        c.error = "spec element " + std::to_string(i) + ": " + ev.getError();
        break;
      }
      mpfr_add(mid, v->lo(), v->hi(), MPFR_RNDN);
      mpfr_div_2ui(mid, mid, 1, MPFR_RNDN);
    }
    const OutputElement &e = it->second[i];
    bool finite = kernelValue(e, out.elemType, k);
    double sd = mpfr_get_d(mid, MPFR_RNDN);
    c.spec.push_back(sd);
    c.kernel.push_back(mpfr_get_d(k, MPFR_RNDN));
    // Errors and the tolerance in MPFR: a spec value past the double range
    // (exp(1000)) is not infinite, and a finite kernel value is far from it.
    double absErr, relErr;
    bool within = false;
    if (mpfr_inf_p(mid) || mpfr_nan_p(mid)) {
      // An extended spec value (the max of an empty range is -inf): the
      // kernel matches it only with the same value (NaN with NaN).
      bool same = mpfr_nan_p(mid) ? mpfr_nan_p(k)
                                  : mpfr_inf_p(k) && mpfr_sgn(k) == mpfr_sgn(mid);
      within = same;
      absErr = relErr = same ? 0 : INFINITY;
    } else if (!finite || mpfr_inf_p(k)) {
      absErr = relErr = INFINITY;
    } else {
      mpfr_sub(diff, k, mid, MPFR_RNDN);
      mpfr_abs(diff, diff, MPFR_RNDN);
      absErr = mpfr_get_d(diff, MPFR_RNDU);
      mpfr_abs(tol, mid, MPFR_RNDN);
      if (!mpfr_zero_p(tol)) {
        mpfr_div(rel, diff, tol, MPFR_RNDU);
        relErr = mpfr_get_d(rel, MPFR_RNDU);
      } else {
        relErr = mpfr_zero_p(diff) ? 0 : INFINITY;
      }
      mpfr_mul_d(tol, tol, rtol, MPFR_RNDN);
      mpfr_add_d(tol, tol, atol, MPFR_RNDN);
      within = !mpfr_inf_p(mid) && mpfr_lessequal_p(diff, tol);
    }
    if (!(absErr <= c.maxAbsError)) {
      c.maxAbsError = absErr;
      c.worstIndex = i;
    }
    if (!(relErr <= c.maxRelError))
      c.maxRelError = relErr;
    bool bad = !e.written || !within;
    if (bad && !c.firstMismatch)
      c.firstMismatch = i;
  }
  mpfr_clears(k, mid, diff, tol, rel, nullptr);
  return c;
}

bool kproof::interp::representable(const BoundContract &bc,
                                   const LaunchInputs &in, std::string *why) {
  for (auto [i, name] : llvm::enumerate(bc.names)) {
    Type t = bc.buffers[i] ? bc.buffers[i]->elemType : scalarType(bc, i);
    auto check = [&](const Scalar &s, const std::string &what) {
      bool exact = true;
      if (s.isFinite())
        bitsOfScalar(s, t, &exact);
      if (!exact && why) {
        std::string ty;
        llvm::raw_string_ostream os(ty);
        os << t;
        *why = what + " = " + s.toString() + " is not representable in " + ty;
      }
      return exact;
    };
    if (bc.buffers[i]) {
      auto it = in.buffers.find(name);
      if (it != in.buffers.end())
        for (auto [k, s] : llvm::enumerate(it->second))
          if (!check(s, name + "[" + std::to_string(k) + "]"))
            return false;
    } else if (auto it = in.scalars.find(name); it != in.scalars.end()) {
      if (!check(it->second, name))
        return false;
    }
  }
  return true;
}

LaunchInputs kproof::interp::inputsOfCounterexample(const BoundContract &bc,
                                                    const Assignment &model) {
  LaunchInputs in;
  for (auto [i, name] : llvm::enumerate(bc.names)) {
    if (const std::optional<BufferBinding> &b = bc.buffers[i]) {
      if (b->role == BufferBinding::Role::Out)
        continue;
      std::vector<Scalar> &dst = in.buffers[name];
      bool isFloat = isa<FloatType>(b->elemType);
      for (uint64_t k = 0; k < b->numElements(); ++k) {
        if (isFloat) {
          std::optional<Rational> v = model.element(name, k);
          dst.push_back(Scalar(v ? *v : Rational(0)));
        } else {
          std::optional<llvm::APInt> bv = model.intElement(name, k);
          dst.push_back(bv ? Scalar(Rational::fromAPInt(*bv, true))
                           : Scalar(Rational(0)));
        }
      }
      continue;
    }
    Term t = bc.scalars[i];
    if (t && t->isConstant())
      continue; // addFixedScalars
    if (auto r = model.reals.find(name); r != model.reals.end())
      in.scalars[name] = Scalar(r->second);
    else if (auto bv = model.bitvectors.find(name);
             bv != model.bitvectors.end())
      in.scalars[name] = Scalar(Rational::fromAPInt(bv->second, true));
    else
      in.scalars[name] = Scalar(Rational(0));
  }
  addFixedScalars(bc, in);
  return in;
}

std::string kproof::interp::formatElement(const OutputElement &e, Type type) {
  if (e.exact)
    return e.exact->toString(20);
  if (isa<IntegerType>(type)) {
    unsigned w = type.getIntOrFloatBitWidth();
    return std::to_string(APInt(w, e.bits).getSExtValue());
  }
  APFloat f(cast<FloatType>(type).getFloatSemantics(),
            APInt(type.getIntOrFloatBitWidth(), e.bits));
  if (f.isNaN())
    return "nan";
  if (f.isInfinity())
    return f.isNegative() ? "-inf" : "inf";
  SmallString<32> s;
  f.toString(s, /*FormatPrecision=*/0, /*FormatMaxPadding=*/8);
  return s.str().str();
}

/// Whether kernel value k matches spec value s within atol + rtol * |s|.
/// Infinities match only themselves (|0 - -inf| <= rtol * inf would say
/// that 0 matches -inf); NaN matches NaN only (a spec that allows NaN).
static bool withinTolerance(double k, double s, double atol, double rtol) {
  if (std::isnan(k) || std::isnan(s))
    return std::isnan(k) && std::isnan(s);
  if (std::isinf(k) || std::isinf(s))
    return k == s;
  return std::fabs(k - s) <= atol + rtol * std::fabs(s);
}

/// "f32" for the report.
static std::string typeName(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << t;
  return s;
}

std::string kproof::interp::replayCounterexample(
    ModuleOp module, ContractOp contract, const Verdict &verdict,
    std::vector<std::pair<std::string, std::string>> *seen) {
  if (verdict.kind != VerdictKind::Refuted || !verdict.counterexample)
    return "";
  const Counterexample &cex = *verdict.counterexample;
  TermContext T;
  // A symbolic launch replays at the counterexample's extents.
  std::map<std::string, int64_t> launchValues;
  // Symbolic sizes (scalars with a range) replay at their values, too.
  for (auto &[name, value] : cex.inputs.bitvectors)
    if (StringRef(name).starts_with("ntid.") ||
        StringRef(name).starts_with("nctaid."))
      launchValues[name] = int64_t(value.getZExtValue());
    else if (value.getBitWidth() <= 64)
      launchValues[name] = value.getSExtValue();
  std::optional<BoundContract> bc =
      bindContract(module, contract, T, &launchValues);
  if (!bc)
    return "not confirmed by replay: the contract does not bind";
  // The interpreter runs every thread: a counterexample over a huge
  // symbolic launch is beyond it.
  constexpr uint64_t replayThreadLimit = uint64_t(1) << 22;
  if (bc->launch.totalThreads() > replayThreadLimit)
    return "not confirmed by replay: the counterexample's launch has " +
           std::to_string(bc->launch.totalThreads()) +
           " threads, over the interpreter's replay limit of " +
           std::to_string(replayThreadLimit);
  LaunchInputs in = inputsOfCounterexample(*bc, cex.inputs);
  // Buffers the counterexample fills with one non-finite value.
  for (auto &[buffer, value] : cex.nonFiniteInputs)
    for (auto [i, b] : llvm::enumerate(bc->buffers))
      if (b && b->name == buffer)
        in.buffers[buffer].assign(
            b->numElements(),
            Scalar::special(value == "nan"    ? Scalar::Kind::NaN
                            : value == "-inf" ? Scalar::Kind::NegInf
                                              : Scalar::Kind::PosInf));
  std::string why;
  bool ieee = representable(*bc, in, &why);
  // The spec of the failing element's buffer (the first output for a
  // counterexample that names none).
  size_t specIndex = 0;
  for (auto [k, sp] : llvm::enumerate(bc->specs))
    if (sp->output().name == cex.outputBuffer)
      specIndex = k;
  // The element type runs are named by: the spec's output, or (a
  // --verify-sync contract without a spec) the first buffer's.
  Type outType;
  if (!bc->specs.empty())
    outType = bc->specs[specIndex]->output().elemType;
  for (const std::optional<engine::BufferBinding> &b : bc->buffers)
    if (!outType && b)
      outType = b->elemType;
  if (!outType)
    outType = Float32Type::get(module.getContext());
  auto runIn = [&](bool ieeeMode, Schedule schedule = Schedule()) {
    RunOptions opts;
    opts.mode = ieeeMode ? NumericMode::IEEE : NumericMode::Exact;
    opts.schedule = schedule;
    opts.tolerateEqualWrites = bc->tolerateEqualWrites;
    // The lane elect.sync elects, as the counterexample chose it (the
    // verifier's variable "elect.leader(0xMASK)").
    for (auto &[name, value] : cex.inputs.bitvectors) {
      StringRef n(name);
      uint32_t mask;
      if (n.consume_front("elect.leader(0x") && n.consume_back(")") &&
          !n.getAsInteger(16, mask))
        opts.electedLanes[mask] = unsigned(value.getZExtValue());
    }
    return interp::run(bc->kernel, bc->launch, bc->buffers, bc->names, in,
                       opts);
  };
  auto modeName = [&](bool ieeeMode) {
    return ieeeMode ? "IEEE " + typeName(outType)
                    : "exact, " + (why.empty() ? std::string("256 bits")
                                               : "because " + why);
  };
  std::string mode = modeName(ieee);
  RunResult run = runIn(ieee);
  if (run.failed())
    return "not confirmed by replay (" + mode + "): the interpreter stopped: " +
           run.error +
           (run.errorLoc ? " at " + locationString(*run.errorLoc) : "");

  // A value mismatch: compare the element with the spec.
  if (!cex.outputBuffer.empty() && cex.outputIndex && bc->specs.empty())
    return "not confirmed by replay: the contract has no spec to compare "
           "the element with";
  if (!cex.outputBuffer.empty() && cex.outputIndex) {
    // Tolerances: IEEE arithmetic differs from the reals by rounding and by
    // the .approx instructions (2 ulp each, PTX ISA 9.7.3); exact mode only
    // by its 256-bit working precision. A difference IEEE cannot show is
    // replayed again in exact mode (the reals model itself).
    uint64_t i = *cex.outputIndex;
    std::string where = cex.outputBuffer + "[" + std::to_string(i) + "]";
    std::string ieeeNote;
    for (bool m : {ieee, false}) {
      if (!m && !ieeeNote.empty())
        run = runIn(false);
      if (run.failed())
        return "not confirmed by replay (" + modeName(m) +
               "): the interpreter stopped: " + run.error + ieeeNote;
      double atol = m ? 1e-6 : 1e-30, rtol = m ? 1e-5 : 1e-30;
      if (isa<IntegerType>(outType))
        atol = rtol = 0;
      Comparison c =
          compareWithSpec(*bc, T, in, run, atol, rtol, specIndex, i);
      if (!c.error.empty())
        return "not confirmed by replay (" + modeName(m) +
               "): the spec cannot be evaluated: " + c.error;
      if (i >= c.kernel.size() || cex.outputBuffer != c.buffer)
        return "not confirmed by replay: " + where +
               " is not an element of the spec's output";
      const OutputElement &e = run.buffers[c.buffer][i];
      std::string kv = formatElement(e, outType);
      char buf[64];
      snprintf(buf, sizeof(buf), "%.9g", c.spec[i]);
      std::string sv = buf;
      if (!e.written)
        return "confirmed by replay (" + modeName(m) +
               "): the kernel never writes " + where + " (spec = " + sv +
               ")" + ieeeNote;
      double k = c.kernel[i], s = c.spec[i];
      if (!withinTolerance(k, s, atol, rtol))
        return "confirmed by replay (" + modeName(m) + "): kernel " + where +
               " = " + kv + ", spec = " + sv + ieeeNote;
      std::string note = "kernel " + where + " = " + kv + ", spec = " + sv +
                         ", equal within atol " +
                         llvm::formatv("{0:e1}", atol).str() + ", rtol " +
                         llvm::formatv("{0:e1}", rtol).str();
      if (!m)
        return "not confirmed by replay (" + modeName(m) + "): " + note +
               ieeeNote;
      ieeeNote = "; in IEEE " + typeName(outType) + " " + note;
    }
  }

  // Another property: a finding or a numeric event at the same location.
  // The kind of finding the property stands for (the checker's wording).
  llvm::StringRef prop = cex.property;
  std::optional<Finding::Kind> want;
  if (prop.contains("data race"))
    want = Finding::Kind::Race;
  else if (prop.contains("barrier divergence"))
    want = Finding::Kind::BarrierDivergence;
  else if (prop.contains("before init") || prop.contains("initialized by") ||
           prop.contains("after inval") || prop.contains("before its init") ||
           prop.contains("after its mbarrier.inval") ||
           prop.contains("initialized again") ||
           prop.contains("only mbarrier instructions"))
    want = Finding::Kind::MBarrier;
  else if (prop.contains("deadlock") || prop.contains("never completes"))
    want = Finding::Kind::Deadlock;
  else if (prop.contains("initialized"))
    want = Finding::Kind::Uninitialized;
  // An .aligned barrier that some threads of a warp never reach shows as a
  // deadlock in a run when the others wait there for good.
  auto wanted = [&](Finding::Kind k) {
    return !want || k == *want ||
           (*want == Finding::Kind::BarrierDivergence &&
            k == Finding::Kind::Deadlock);
  };
  // A finding shows under some schedules only (a wait that passes at once
  // when its phase has not completed yet; producers arriving in lockstep):
  // the threads in order, the last thread first, one instruction per lane,
  // then random interleavings (seeds 1 to 8).
  std::vector<Schedule> schedules{{SchedulePolicy::InOrder, 0},
                                  {SchedulePolicy::Reversed, 0},
                                  {SchedulePolicy::WarpRoundRobin, 0}};
  for (uint64_t seed = 1; seed <= 8; ++seed)
    schedules.push_back({SchedulePolicy::Random, seed});
  for (const Schedule &schedule : schedules) {
    if (schedule.policy != SchedulePolicy::InOrder) {
      RunResult again = runIn(ieee, schedule);
      if (again.failed())
        break;
      run = std::move(again);
    }
    // A deadlock is a property of the whole run: any thread left waiting
    // shows it, wherever the model's counterexample points.
    for (const Finding &f : run.findings)
      if (wanted(f.kind) &&
          ((want == Finding::Kind::Deadlock &&
            f.kind == Finding::Kind::Deadlock) ||
           locationString(f.loc) == cex.location ||
           (f.other && locationString(*f.other) == cex.location)))
        return "confirmed by replay (" + mode +
               (schedule.policy == SchedulePolicy::Reversed
                    ? ", the last thread first"
                : schedule.policy == SchedulePolicy::WarpRoundRobin
                    ? ", one instruction per lane in turn"
                : schedule.policy == SchedulePolicy::Random
                    ? ", random schedule " + std::to_string(schedule.seed)
                    : "") +
               "): " +
               (llvm::StringRef(f.message).starts_with(findingKindName(f.kind))
                    ? f.message
                    : findingKindName(f.kind).str() + ": " + f.message);
    // Only synchronization findings depend on the schedule.
    if (!want)
      break;
  }
  for (const Event &ev : run.events)
    if (locationString(ev.loc) == cex.location)
      return "confirmed by replay (" + mode + "): " + ev.what + " at " +
             cex.location;
  std::string reported;
  if (!run.findings.empty())
    reported = "; the run reports " +
               findingKindName(run.findings[0].kind).str() + " at " +
               locationString(run.findings[0].loc);
  if (seen)
    for (const Finding &f : run.findings)
      seen->push_back({findingKindName(f.kind).str(), locationString(f.loc)});
  return "not confirmed by replay (" + mode + "): the run shows no such "
                                              "violation at " +
         cex.location + reported;
}

/// An UNKNOWN whose race or barrier divergence only non-finite inputs
/// reach (Verdict::nonFiniteCandidate): replays the candidate with float
/// input buffers filled with one non-finite value each (-inf, inf, NaN,
/// as the contract allows: any float input buffer unless finite_inputs,
/// else the buffers declared `nonfinite` with their values), first one
/// buffer at a time, then all that allow the value. The first run that
/// shows the finding at its location makes the verdict REFUTED with those
/// inputs; otherwise the obligation says what was tried. A search, not a
/// proof: only a run that shows the finding changes the verdict.
static void searchNonFinite(ModuleOp module, ContractOp contract,
                            engine::Verdict &verdict) {
  const engine::NonFiniteCandidate &cand = *verdict.nonFiniteCandidate;
  TermContext T;
  std::optional<BoundContract> bc = bindContract(module, contract, T);
  if (!bc)
    return;
  SmallVector<std::vector<std::pair<std::string, std::string>>> variants;
  for (const char *value : {"-inf", "inf", "nan"}) {
    std::vector<std::pair<std::string, std::string>> all;
    for (const std::optional<BufferBinding> &b : bc->buffers) {
      if (!b || b->role == BufferBinding::Role::Out ||
          !isa<FloatType>(b->elemType))
        continue;
      bool allowed = bc->finiteInputs
                         ? llvm::is_contained(b->nonFinite, value)
                         : true;
      if (!allowed)
        continue;
      variants.push_back({{b->name, value}});
      all.push_back({b->name, value});
    }
    if (all.size() > 1)
      variants.push_back(all);
  }
  std::string tried;
  for (const auto &v : variants) {
    engine::Verdict probe;
    probe.kind = engine::VerdictKind::Refuted;
    probe.counterexample = cand.counterexample;
    probe.counterexample->nonFiniteInputs = v;
    std::string note = replayCounterexample(module, contract, probe);
    std::string what;
    for (auto &[b, x] : v)
      what += (what.empty() ? "" : " and ") + b + " all " + x;
    if (!llvm::StringRef(note).starts_with("confirmed")) {
      tried += (tried.empty() ? "" : "; ") + what;
      continue;
    }
    verdict.kind = engine::VerdictKind::Refuted;
    verdict.reason.clear();
    verdict.counterexample = *probe.counterexample;
    verdict.replay = note;
    for (engine::ObligationResult &o : verdict.obligations)
      if (o.name == cand.obligation &&
          o.verdict == engine::VerdictKind::Unknown) {
        o.verdict = engine::VerdictKind::Refuted;
        o.how = cand.counterexample.property + " (with " + what +
                ", shown by replaying the kernel)";
      }
    return;
  }
  if (tried.empty())
    return;
  for (engine::ObligationResult &o : verdict.obligations)
    if (o.name == cand.obligation)
      o.how += "; replaying the kernel with " + tried +
               " showed no such violation";
}

void kproof::interp::replayAndSettle(ModuleOp module, ContractOp contract,
                                     engine::Verdict &verdict) {
  if (verdict.kind == engine::VerdictKind::Unknown &&
      verdict.nonFiniteCandidate && !verdict.counterexample) {
    searchNonFinite(module, contract, verdict);
    return; // a REFUTED it makes is already replayed
  }
  if (verdict.kind != engine::VerdictKind::Refuted || !verdict.counterexample)
    return;
  std::vector<std::pair<std::string, std::string>> seen;
  verdict.replay = replayCounterexample(module, contract, verdict, &seen);
  // A REFUTED stands only with a counterexample the replay does not
  // contradict: a value mismatch it reproduces, or a race, divergence or
  // bounds finding that the run shows at its location. A run that shows no
  // race, barrier divergence or uninitialized read where the counterexample
  // has one makes the verdict UNKNOWN, saying why: the interpreter checks
  // these on every run. (A counterexample the interpreter cannot run, such
  // as a launch past its thread limit, or a property it does not check,
  // such as two thread counts of one barrier, keeps its REFUTED, with the
  // note.)
  bool value = verdict.counterexample->outputIndex.has_value();
  llvm::StringRef replay(verdict.replay);
  llvm::StringRef prop(verdict.counterexample->property);
  // Numeric-domain obligations (a divisor, the operand of sqrt, rsqrt,
  // lg2) are events of every run too.
  bool checkedByRuns = prop.contains("data race") ||
                       prop.contains("barrier divergence") ||
                       prop.contains("initialized") ||
                       prop.contains("operand of") ||
                       prop.contains("divisor of");
  if (!replay.starts_with("not confirmed") ||
      (!value && (!checkedByRuns ||
                  !replay.contains("the run shows no such violation"))))
    return;
  // The run may still show a violation that another REFUTED obligation
  // of the verdict states (a misaligned load, or a warp collective's
  // membermask violation, that stops the run before the race the model
  // shows): the run with these inputs confirms that one,
  // and the verdict stays REFUTED on it.
  auto kindOf = [](llvm::StringRef obligation) -> llvm::StringRef {
    if (obligation.starts_with("alignment of"))
      return "misaligned access";
    if (obligation.contains("inside its extent") ||
        obligation.contains("stay inside"))
      return "out-of-bounds access";
    // A warp collective whose mask omits the lane, or names one that does
    // not take part (the run stops there).
    if (obligation.contains("membermask"))
      return "membermask violation";
    return "";
  };
  const engine::ObligationResult *other = nullptr;
  std::pair<std::string, std::string> shown;
  for (const engine::ObligationResult &o : verdict.obligations) {
    if (o.verdict != engine::VerdictKind::Refuted || other)
      continue;
    llvm::StringRef kind = kindOf(o.name);
    for (auto &[k, loc] : seen)
      if (!kind.empty() && k == kind &&
          llvm::StringRef(o.name).ends_with(" at " + loc)) {
        other = &o;
        shown = {k, loc};
        break;
      }
  }
  const std::string &property = verdict.counterexample->property;
  // The obligation the counterexample is about: its name ("violated: "
  // NAME for a path obligation) or its text (a race's message).
  auto about = [&](const engine::ObligationResult &o) {
    return llvm::StringRef(o.how).contains(property) ||
           "violated: " + o.name == property;
  };
  if (other) {
    verdict.replay = "confirmed by replay: " + shown.first + " at " +
                     shown.second + " (the obligation '" + other->name +
                     "'); the counterexample's own " + property +
                     " was " + verdict.replay;
    for (engine::ObligationResult &o : verdict.obligations)
      if (o.verdict == engine::VerdictKind::Refuted &&
          about(o)) {
        o.verdict = engine::VerdictKind::Unknown;
        o.how = "a model counterexample that replaying the kernel did not "
                "reproduce";
      }
    // The report's example is now about the obligation the run confirmed:
    // the same inputs, its property and location.
    engine::Counterexample &cex = *verdict.counterexample;
    cex.property = "violated: " + other->name;
    cex.location = shown.second;
    cex.outputBuffer.clear();
    cex.outputIndex.reset();
    return;
  }
  verdict.kind = engine::VerdictKind::Unknown;
  verdict.reason =
      "the counterexample was not confirmed by replaying the kernel: " +
      verdict.replay;
  for (engine::ObligationResult &o : verdict.obligations)
    if (o.verdict == engine::VerdictKind::Refuted &&
        (value ? llvm::StringRef(o.name).starts_with("value ") ||
                     llvm::StringRef(o.name).starts_with("coverage: ")
               : about(o))) {
      o.verdict = engine::VerdictKind::Unknown;
      o.how = "a model counterexample that replaying the kernel did not "
              "reproduce";
    }
}
