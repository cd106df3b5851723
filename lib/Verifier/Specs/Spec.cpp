//===- Spec.cpp - built-in specs, element-wise ----------------------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "KProof/Verifier/Specs/Spec.h"
#include "FuncSpec.h"
#include "RefSpec.h"

#include "KProof/Verifier/Terms/Constants.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace ::kproof;
using namespace ::kproof::engine;

Term kproof::engine::inputElement(TermContext &T,
                                  const BufferBinding &buffer, Term index) {
  if (isa<FloatType>(buffer.elemType))
    return T.element(buffer.name, index);
  return T.intElement(buffer.name, index,
                      buffer.elemType.getIntOrFloatBitWidth());
}

namespace {

/// The built-in spec library (docs/contracts.md, the built-in specs): row
/// softmax over the last dimension, copy, and sum/max reductions of the last
/// dimension.
class BuiltinSpec final : public Spec {
public:
  BuiltinSpec(std::string builtin, const BufferBinding *in,
              const BufferBinding *out, LaunchConfig launch = {})
      : builtin(std::move(builtin)), in(in), out(out),
        launch(std::move(launch)) {}

  std::string describe() const override {
    return builtin + "(" + in->name + ") -> " + out->name;
  }
  const BufferBinding &output() const override { return *out; }

  Term element(TermContext &T, Term index, std::string &reason) override {
    uint64_t cols = in->shape.back();
    Term c = T.bv(cols, 64);
    auto at = [&](Term i) -> Term {
      Term t = inputElement(T, *in, i);
      if (!t)
        reason = "integer elements of '" + in->name +
                 "' at a symbolic index are not modeled";
      return t;
    };
    if (builtin == "copy")
      return at(index);
    if (!in->symbolicDims.empty() && !in->symbolicDims.back().empty() &&
        (builtin == "softmax" || builtin == "sum" || builtin == "max")) {
      // A symbolic row length n (a size parameter): reductions over
      // j in [0, n) (64-bit), x[row * n + j].
      Term n = in->extent(T, launch, in->shape.size() - 1);
      Term zero = T.bv(0, 64);
      Term row = builtin == "softmax" ? T.bvBin(Kind::BVUDiv, index, n) : index;
      Term base = T.bvBin(Kind::BVMul, row, n);
      Term j = T.bvVar("spec.j", 64);
      // j < n <= the size's upper bound: index terms of the body fold as
      // linear forms within it (TermContext::canonicalIndex).
      if (T.upperBound("spec.j") != uint64_t(in->shape.back() - 1))
        T.setUpperBound("spec.j", in->shape.back() - 1);
      Term xj = at(T.bvBin(Kind::BVAdd, base, j));
      if (!xj)
        return nullptr;
      if (builtin == "sum")
        return T.reduce(Kind::SumOver, j, zero, n, xj);
      Term m = T.reduce(Kind::MaxOver, j, zero, n, xj);
      if (builtin == "max")
        return m;
      Term mine = at(index);
      if (!mine)
        return nullptr;
      Term d = T.reduce(Kind::SumOver, j, zero, n, T.exp(T.sub(xj, m)));
      return T.div(T.exp(T.sub(mine, m)), d);
    }
    if (builtin == "softmax") {
      Term base = T.bvBin(Kind::BVMul, T.bvBin(Kind::BVUDiv, index, c), c);
      auto col = [&](uint64_t j) {
        return at(T.bvBin(Kind::BVAdd, base, T.bv(j, 64)));
      };
      // m = max_j x[row, j], folded left as kernels usually do.
      Term m = col(0);
      for (uint64_t j = 1; j < cols && m; ++j)
        m = T.max(m, col(j));
      SmallVector<Term> exps;
      for (uint64_t j = 0; j < cols && m; ++j)
        exps.push_back(T.exp(T.sub(col(j), m)));
      Term mine = at(index);
      if (!m || !mine)
        return nullptr;
      return T.div(T.exp(T.sub(mine, m)), T.add(exps));
    }
    if (builtin == "sum" || builtin == "max") {
      Term base = T.bvBin(Kind::BVMul, index, c);
      Term acc = at(base);
      for (uint64_t j = 1; j < cols && acc; ++j) {
        Term x = at(T.bvBin(Kind::BVAdd, base, T.bv(j, 64)));
        acc = builtin == "sum" ? T.add(acc, x) : T.max(acc, x);
      }
      return acc;
    }
    reason = "unknown builtin '" + builtin + "'";
    return nullptr;
  }

private:
  std::string builtin;
  const BufferBinding *in;
  const BufferBinding *out;
  /// For the extents of symbolic sizes.
  LaunchConfig launch;
};

/// A permutation of dimensions: y[o_0, ..., o_n] = x[i] with
/// i[perm[k]] = o[k] (perm = [1, 0] is a transpose). Shapes: y's extent k
/// is x's extent perm[k].
class PermuteSpec final : public Spec {
public:
  PermuteSpec(const BufferBinding *in, const BufferBinding *out,
              std::vector<int64_t> perm)
      : in(in), out(out), perm(std::move(perm)) {}

  std::string describe() const override {
    std::string p;
    for (int64_t d : perm)
      p += (p.empty() ? "" : ", ") + std::to_string(d);
    return "permute[" + p + "](" + in->name + ") -> " + out->name;
  }
  const BufferBinding &output() const override { return *out; }

  Term element(TermContext &T, Term index, std::string &reason) override {
    size_t rank = out->shape.size();
    // Unflatten the output index (row-major), outermost first.
    std::vector<Term> o(rank);
    Term rest = index;
    for (size_t k = rank; k-- > 0;) {
      Term ext = T.bv(out->shape[k], 64);
      o[k] = k == 0 ? rest : T.bvBin(Kind::BVURem, rest, ext);
      rest = T.bvBin(Kind::BVUDiv, rest, ext);
    }
    std::vector<Term> i(rank);
    for (size_t k = 0; k < rank; ++k)
      i[perm[k]] = o[k];
    Term flat = T.bv(0, 64);
    for (size_t k = 0; k < rank; ++k)
      flat = T.bvBin(Kind::BVAdd,
                     T.bvBin(Kind::BVMul, flat, T.bv(in->shape[k], 64)), i[k]);
    Term t = inputElement(T, *in, flat);
    if (!t)
      reason = "integer elements of '" + in->name +
               "' at a symbolic index are not modeled";
    return t;
  }

private:
  const BufferBinding *in, *out;
  std::vector<int64_t> perm;
};

/// Attention (docs/contracts.md, the built-in specs): queries q [M, D], keys k
/// [N, D], values v [N, D], output o [M, D]:
///   s_ij = scale * sum_t q[i, t] k[j, t]
///   o[i, c] = sum_j p_ij v[j, c],  p_ij = exp(s_ij - m_i) / sum_j exp(s_ij -
///   m_i)
/// over the keys j visible to query i: all of them (mask "none"), or
/// j <= i + offset (mask "causal", offset >= 0, so key 0 is always
/// visible; a constant or an integer scalar param). With a symbolic query
/// row or offset, visibility is a condition (ite).
///
/// With leading batch and head dimensions (q [..., M, D], k [..., N, D],
/// v [..., N, Dv], o [..., M, Dv]) each query row attends to the keys of
/// its own leading index; a leading extent of k that divides q's (and is
/// smaller) groups query heads onto KV heads (grouped-query attention:
/// query head h reads KV head h / (Hq / Hk)).
///
/// The logsumexp output (`lse`, FlashAttention's softmax_lse, [..., M]) is the
/// natural log of the softmax denominator in the frame of the scaled
/// scores: lse[i] = m_i + log(sum_j exp(s_ij - m_i)) over the visible keys,
/// one spec of its own (`logsumexp` set) beside the one of o.
class AttentionSpec final : public Spec {
public:
  AttentionSpec(const BufferBinding *q, const BufferBinding *k,
                const BufferBinding *v, const BufferBinding *o,
                std::optional<APFloat> scaleFloat, std::string scaleExpr,
                Term scaleTerm, bool causal, int64_t offset, Term offsetTerm,
                LaunchConfig launch, bool logsumexp = false)
      : q(q), k(k), v(v), o(o), scaleFloat(std::move(scaleFloat)),
        scaleExpr(std::move(scaleExpr)), scaleTerm(scaleTerm), causal(causal),
        offset(offset), offsetTerm(offsetTerm), launch(std::move(launch)),
        logsumexp(logsumexp) {}

  std::string describe() const override {
    std::string mask;
    if (causal)
      mask =
          ", causal" + (offsetTerm ? ", offset " + offsetTerm->getName().str()
                        : offset != 0 ? ", offset " + std::to_string(offset)
                                      : std::string());
    if (logsumexp)
      return std::string("logsumexp(") + q->name + ", " + k->name + mask +
             ") -> " + o->name;
    return std::string("attention(") + q->name + ", " + k->name + ", " +
           v->name + mask + ") -> " + o->name;
  }
  const BufferBinding &output() const override { return *o; }

  Term element(TermContext &T, Term index, std::string &reason) override {
    size_t rank = q->shape.size();
    uint64_t D = q->shape.back(), N = k->shape[rank - 2];
    // The scale: a float (a transcendental one, 1/sqrt(2) as 0.70710677,
    // read exactly as the kernel's constant is), a constant expression
    // ("1/sqrt(128)"), or a scalar parameter's term.
    Term scale = scaleTerm;
    if (scaleFloat) {
      std::optional<TranscendentalConstant> reading;
      scale = floatConstant(T, *scaleFloat, &reading);
      if (reading)
        addIdiom("spec: scale " + reading->describe());
    } else if (!scaleExpr.empty()) {
      scale = parseConstantExpression(T, scaleExpr, reason);
      if (!scale)
        return nullptr;
    }
    Term d = T.bv(D, 64);
    // The output and v are [M, Dv], q and k [., D]: each buffer's row
    // stride is its own last extent.
    // The logsumexp output has one element per row.
    Term dv = T.bv(v->shape.back(), 64);
    // rowFlat: the query row over the leading (batch, head) dimensions
    // too, q's and the output's row index; row: its position in the
    // sequence, which the causal mask compares.
    Term rowFlat = logsumexp ? index : T.bvBin(Kind::BVUDiv, index, dv);
    Term row = rowFlat;
    Term col = logsumexp ? T.bv(0, 64) : T.bvBin(Kind::BVURem, index, dv);
    auto at = [&](const BufferBinding &b, Term r, Term c) {
      Term stride = T.bv(b.shape.back(), 64);
      return inputElement(
          T, b, T.bvBin(Kind::BVAdd, T.bvBin(Kind::BVMul, r, stride), c));
    };
    bool symbolicN =
        !k->symbolicDims.empty() && !k->symbolicDims[rank - 2].empty();
    if (rank > 2 && (q->isSymbolic() || k->isSymbolic() || v->isSymbolic() ||
                     o->isSymbolic())) {
      // The radices below are the extents; a size parameter's shape entry
      // is only its upper bound.
      reason = "attention with batch or head dimensions needs concrete "
               "extents (a size parameter in the shape of '" +
               std::string(q->isSymbolic()   ? q->name
                           : k->isSymbolic() ? k->name
                           : v->isSymbolic() ? v->name
                                             : o->name) +
               "')";
      return nullptr;
    }
    if (symbolicN)
      return symbolicKeys(T, scale, d, row, col, at, reason);
    // Batch and head dimensions: the keys and values of query row rowFlat
    // are rows kvBase + j of k and v, kvBase = N * (k's leading index);
    // a leading extent of k smaller than q's groups q's indices
    // (grouped-query attention: query head h reads KV head h / (Hq / Hk)).
    Term kvBase = nullptr;
    if (rank > 2) {
      Term m = T.bv(q->shape[rank - 2], 64);
      row = T.bvBin(Kind::BVURem, rowFlat, m);
      Term lead = T.bvBin(Kind::BVUDiv, rowFlat, m);
      Term kvLead = lead;
      bool grouped = false;
      for (size_t i = 0; i + 2 < rank; ++i)
        grouped |= k->shape[i] != q->shape[i];
      if (grouped) {
        // Mixed radix over q's leading extents, innermost last.
        kvLead = T.bv(0, 64);
        Term stride = T.bv(1, 64), rest = lead;
        for (size_t i = rank - 2; i-- > 0;) {
          Term qi = T.bv(q->shape[i], 64);
          Term idx = i == 0 ? rest : T.bvBin(Kind::BVURem, rest, qi);
          rest = T.bvBin(Kind::BVUDiv, rest, qi);
          Term kvIdx =
              T.bvBin(Kind::BVUDiv, idx, T.bv(q->shape[i] / k->shape[i], 64));
          kvLead =
              T.bvBin(Kind::BVAdd, kvLead, T.bvBin(Kind::BVMul, kvIdx, stride));
          stride = T.bvBin(Kind::BVMul, stride, T.bv(k->shape[i], 64));
        }
      }
      kvBase = T.bvBin(Kind::BVMul, kvLead, T.bv(N, 64));
    }
    auto keyRow = [&](uint64_t j) {
      return kvBase ? T.bvBin(Kind::BVAdd, kvBase, T.bv(j, 64)) : T.bv(j, 64);
    };
    SmallVector<Term> scores, visible;
    for (uint64_t j = 0; j < N; ++j) {
      SmallVector<Term> prods;
      for (uint64_t t = 0; t < D; ++t) {
        Term qe = at(*q, rowFlat, T.bv(t, 64));
        Term ke = at(*k, keyRow(j), T.bv(t, 64));
        if (!qe || !ke) {
          reason = "integer attention inputs are not modeled";
          return nullptr;
        }
        prods.push_back(T.mul(qe, ke));
      }
      scores.push_back(T.mul(scale, T.add(prods)));
      // A param's offset is non-negative (its range) and below 2^31.
      Term off = !offsetTerm                    ? T.bv(offset, 64)
                 : offsetTerm->getWidth() == 64 ? offsetTerm
                                                : T.bvZExt(offsetTerm, 64);
      visible.push_back(
          causal ? T.bvUle(T.bv(j, 64), T.bvBin(Kind::BVAdd, row, off))
                 : T.boolConst(true));
    }
    Term m = scores[0];
    for (uint64_t j = 1; j < N; ++j)
      m = T.ite(visible[j], T.max(m, scores[j]), m);
    SmallVector<Term> weights, weighted;
    for (uint64_t j = 0; j < N; ++j) {
      Term w = T.ite(visible[j], T.exp(T.sub(scores[j], m)), T.real(0));
      if (logsumexp) {
        weights.push_back(w);
        continue;
      }
      Term ve = at(*v, keyRow(j), col);
      if (!ve) {
        reason = "integer attention values are not modeled";
        return nullptr;
      }
      weights.push_back(w);
      weighted.push_back(T.mul(w, ve));
    }
    // Key 0 is visible to every row: the denominator is at least 1.
    if (logsumexp)
      return T.add(m, T.realFn("log", {T.add(weights)}));
    return T.div(T.add(weighted), T.add(weights));
  }

private:
  /// A symbolic number of keys N (a size parameter naming k's and v's
  /// first extent), without a mask: reductions over the keys j in [0, N):
  ///   o[row, col] = sum_j exp(s_j - m) v[j, col] / sum_j exp(s_j - m),
  ///   s_j = scale * sum_t q[row, t] k[j, t],  m = max_j s_j.
  template <typename At>
  Term symbolicKeys(TermContext &T, Term scale, Term d, Term row, Term col,
                    At at, std::string &reason) {
    if (causal) {
      reason = "causal attention over a symbolic number of keys is not yet "
               "modeled";
      return nullptr;
    }
    if (v->symbolicDims.empty() || v->symbolicDims[0] != k->symbolicDims[0]) {
      reason = "attention with a symbolic number of keys needs v's first "
               "extent to be k's";
      return nullptr;
    }
    uint64_t D = q->shape.back();
    Term n = k->extent(T, launch, 0);
    Term zero = T.bv(0, 64);
    Term j = T.bvVar("spec.key", 64);
    // j < N <= the size's upper bound (TermContext::canonicalIndex).
    if (T.upperBound("spec.key") != uint64_t(k->shape[0] - 1))
      T.setUpperBound("spec.key", k->shape[0] - 1);
    SmallVector<Term> prods;
    for (uint64_t t = 0; t < D; ++t) {
      Term qe = at(*q, row, T.bv(t, 64));
      Term ke = at(*k, j, T.bv(t, 64));
      if (!qe || !ke) {
        reason = "integer attention inputs are not modeled";
        return nullptr;
      }
      prods.push_back(T.mul(qe, ke));
    }
    Term score = T.mul(scale, T.add(prods));
    Term hi = n;
    Term m = T.reduce(Kind::MaxOver, j, zero, hi, score);
    Term w = T.exp(T.sub(score, m));
    (void)d;
    (void)row;
    if (logsumexp)
      return T.add(m,
                   T.realFn("log", {T.reduce(Kind::SumOver, j, zero, hi, w)}));
    Term ve = at(*v, j, col);
    if (!ve) {
      reason = "integer attention values are not modeled";
      return nullptr;
    }
    return T.div(T.reduce(Kind::SumOver, j, zero, hi, T.mul(w, ve)),
                 T.reduce(Kind::SumOver, j, zero, hi, w));
  }

  const BufferBinding *q, *k, *v, *o;
  std::optional<APFloat> scaleFloat;
  std::string scaleExpr;
  Term scaleTerm;
  bool causal;
  int64_t offset;
  /// The offset as an integer scalar param's variable (non-negative by
  /// its range), or null for the constant `offset`.
  Term offsetTerm;
  LaunchConfig launch;
  /// This spec defines the logsumexp output ([M], `o` names it), not the
  /// attention output.
  bool logsumexp;
};

} // namespace

namespace kproof::engine {
/// The attention built-in: its o spec, then (with `lse`) its logsumexp
/// spec. Empty after an error emitted at `contract`.
static std::vector<std::unique_ptr<Spec>>
buildAttention(Operation *contract, DictionaryAttr spec,
               const SpecEnvironment &env) {
  std::vector<std::unique_ptr<Spec>> none;
  auto buffer = [&](StringRef key) -> const BufferBinding * {
    auto name = spec.getAs<StringAttr>(key);
    if (!name)
      return nullptr;
    auto it = env.buffers.find(name.getValue().str());
    return it == env.buffers.end() ? nullptr : it->second;
  };
  const BufferBinding *q = buffer("q"), *k = buffer("k"), *v = buffer("v"),
                      *o = buffer("output");
  if (!q || !k || !v || !o) {
    contract->emitError("attention spec needs buffer params 'q', 'k', 'v' "
                        "and 'output'");
    return none;
  }
  // q [..., M, D], k [..., N, D], v [..., N, Dv], output [..., M, Dv]:
  // equal ranks; the leading (batch, head) extents of q and the output
  // equal, those of k and v equal, each of k's dividing q's (grouped-query
  // attention).
  size_t rank = q->shape.size();
  bool shapesOk = rank >= 2 && k->shape.size() == rank &&
                  v->shape.size() == rank && o->shape.size() == rank;
  for (size_t i = 0; shapesOk && i < rank; ++i) {
    if (i + 2 < rank)
      shapesOk = o->shape[i] == q->shape[i] && v->shape[i] == k->shape[i] &&
                 k->shape[i] >= 1 && q->shape[i] % k->shape[i] == 0;
    else if (i + 2 == rank)
      shapesOk = v->shape[i] == k->shape[i] && o->shape[i] == q->shape[i];
    else
      shapesOk = k->shape[i] == q->shape[i] && o->shape[i] == v->shape[i];
  }
  if (!shapesOk) {
    contract->emitError(
        "attention spec shape mismatch: need q [..., M, D], k [..., N, D], "
        "v [..., N, Dv], output [..., M, Dv] of one rank, the leading "
        "(batch, head) extents of q and output equal, those of k and v "
        "equal, and each of k's dividing q's (grouped-query attention)");
    return none;
  }
  // scale: a float attribute, the name of a scalar parameter, or a
  // constant expression ("1/sqrt(128)", Constants.h).
  std::optional<APFloat> scaleFloat;
  std::string scaleExpr;
  Term scaleTerm = nullptr;
  Attribute sa = spec.get("scale");
  if (auto f = dyn_cast_or_null<FloatAttr>(sa)) {
    if (f.getValue().isFinite())
      scaleFloat = f.getValue();
  } else if (auto n = dyn_cast_or_null<StringAttr>(sa)) {
    auto it = env.scalars.find(n.getValue().str());
    if (it != env.scalars.end() && it->second->getSort() == Sort::Real) {
      scaleTerm = it->second;
    } else {
      TermContext check;
      std::string error;
      bool identifier = llvm::all_of(n.getValue(), [](char c) {
        return llvm::isAlnum(c) || c == '_';
      });
      if (parseConstantExpression(check, n.getValue(), error)) {
        scaleExpr = n.getValue().str();
      } else if (!identifier || it != env.scalars.end()) {
        // Not a float param's name: a malformed expression, or a name
        // (reported below).
        contract->emitError("attention spec 'scale': ") << error;
        return none;
      }
    }
  }
  if (!scaleFloat && !scaleTerm && scaleExpr.empty()) {
    contract->emitError("attention spec needs a finite 'scale': a float, "
                        "the name of a float scalar param, or a constant "
                        "expression such as \"1/sqrt(128)\"");
    return none;
  }
  StringRef mask = "none";
  if (auto m = spec.getAs<StringAttr>("mask"))
    mask = m.getValue();
  if (mask != "none" && mask != "causal") {
    contract->emitError("attention mask must be 'none' or 'causal', not '")
        << mask << "'";
    return none;
  }
  // offset: an integer, or the name of an integer scalar param (a fixed
  // value, or a size free in its contract range, which must start at 0 or
  // above).
  int64_t offset = 0;
  Term offsetTerm = nullptr;
  Attribute oa = spec.get("offset");
  if (auto off = dyn_cast_or_null<IntegerAttr>(oa)) {
    offset = off.getInt();
  } else if (auto name = dyn_cast_or_null<StringAttr>(oa)) {
    auto it = env.scalars.find(name.getValue().str());
    if (it == env.scalars.end() || it->second->getSort() != Sort::BV ||
        it->second->getWidth() > 64) {
      contract->emitError("attention spec 'offset': '")
          << name.getValue() << "' is not an integer scalar param";
      return none;
    }
    Term t = it->second;
    if (t->getKind() == Kind::BVConst) {
      offset = t->getAPInt().getSExtValue();
    } else if (const LaunchConfig::SizeParam *p = env.launch.size(t->getName());
               t->getKind() != Kind::BVVar || !p || p->value || p->lo < 0 ||
               p->hi >= (int64_t(1) << 31)) {
      contract->emitError("attention spec 'offset': '")
          << name.getValue()
          << "' needs a fixed value or a 'range' within [0, 2^31)";
      return none;
    } else {
      offsetTerm = t;
    }
  } else if (oa) {
    contract->emitError("attention spec 'offset' must be an integer or the "
                        "name of an integer scalar param");
    return none;
  }
  if (offset < 0) {
    contract->emitError("attention offset must be >= 0 (key 0 is then "
                        "visible to every query)");
    return none;
  }
  // lse: an output buffer [M] for the logsumexp of each row's scaled
  // scores (natural log).
  const BufferBinding *lse = nullptr;
  if (spec.get("lse")) {
    lse = buffer("lse");
    if (!lse || lse->shape.size() != rank - 1 ||
        !std::equal(lse->shape.begin(), lse->shape.end(), q->shape.begin()) ||
        !isa<FloatType>(lse->elemType) ||
        lse->role == BufferBinding::Role::In || lse == o) {
      contract->emitError("attention spec 'lse' must name an output buffer "
                          "param [..., M] of floats, one element per query "
                          "row, other than 'output'");
      return none;
    }
  }
  std::vector<std::unique_ptr<Spec>> specs;
  specs.push_back(std::make_unique<AttentionSpec>(
      q, k, v, o, scaleFloat, scaleExpr, scaleTerm, mask == "causal", offset,
      offsetTerm, env.launch));
  if (lse)
    specs.push_back(std::make_unique<AttentionSpec>(
        q, k, v, lse, scaleFloat, scaleExpr, scaleTerm, mask == "causal",
        offset, offsetTerm, env.launch, /*logsumexp=*/true));
  return specs;
}

/// Launch-dependent extents (a symbolic launch) are modeled by func specs
/// only: false, with the error emitted at `contract`, when a buffer of a
/// built-in or reference-kernel spec has one.
static bool concreteShapes(Operation *contract, const SpecEnvironment &env) {
  if (env.launch.isSymbolic())
    for (auto &[name, b] : env.buffers)
      if (b->isSymbolic()) {
        contract->emitError("buffer '")
            << name << "' has a launch-dependent shape (" << b->extentText()
            << " elements): give the spec as a func.func over tensors with "
               "dynamic dimensions; built-in and reference-kernel specs "
               "need concrete shapes";
        return false;
      }
  return true;
}

static std::unique_ptr<Spec> buildOneSpec(Operation *contract,
                                          DictionaryAttr spec,
                                          const SpecEnvironment &env) {
  auto buffer = [&](StringRef key) -> const BufferBinding * {
    auto name = spec.getAs<StringAttr>(key);
    if (!name)
      return nullptr;
    auto it = env.buffers.find(name.getValue().str());
    return it == env.buffers.end() ? nullptr : it->second;
  };
  if (spec.get("func"))
    return buildFuncSpec(contract, spec, env);
  // Launch-dependent extents (a symbolic launch) are modeled by func specs
  // only: the built-ins and reference kernels count elements concretely.
  // A spec with a concrete launch but symbolic extents (instantiated for a
  // run) is concrete.
  // `copy` (y[i] = x[i]) does not depend on the shape: it needs equal
  // extents only.
  auto isCopy = [&] {
    auto b = spec.getAs<StringAttr>("builtin");
    return b && b.getValue() == "copy";
  };
  if (env.launch.isSymbolic() && isCopy()) {
    const BufferBinding *in = buffer("input"), *out = buffer("output");
    if (in && out && (in->isSymbolic() || out->isSymbolic())) {
      if (in->extentText() != out->extentText()) {
        contract->emitError("spec shape mismatch: copy of '")
            << in->name << "' has " << in->extentText() << " element(s) but '"
            << out->name << "' has " << out->extentText();
        return nullptr;
      }
      return std::make_unique<BuiltinSpec>("copy", in, out);
    }
  }
  if (!concreteShapes(contract, env))
    return nullptr;
  if (spec.get("reference"))
    return buildRefSpec(contract, spec, env);
  auto builtin = spec.getAs<StringAttr>("builtin");
  const BufferBinding *in = buffer("input"), *out = buffer("output");
  if (!builtin || !in || !out) {
    contract->emitError("spec input and output must name buffer params");
    return nullptr;
  }
  StringRef b = builtin.getValue();
  if (b == "permute") {
    auto perm = spec.getAs<DenseI64ArrayAttr>("perm");
    std::vector<int64_t> p(perm ? perm.asArrayRef().begin() : nullptr,
                           perm ? perm.asArrayRef().end() : nullptr);
    std::vector<bool> seen(p.size(), false);
    bool valid = perm && p.size() == in->shape.size() &&
                 p.size() == out->shape.size();
    for (size_t k = 0; valid && k < p.size(); ++k) {
      valid = p[k] >= 0 && size_t(p[k]) < p.size() && !seen[p[k]] &&
              out->shape[k] == in->shape[p[k]];
      if (valid)
        seen[p[k]] = true;
    }
    if (!valid) {
      contract->emitError("permute spec needs 'perm', a permutation of the "
                          "input's dimensions with output extent k equal to "
                          "input extent perm[k]");
      return nullptr;
    }
    return std::make_unique<PermuteSpec>(in, out, std::move(p));
  }
  uint64_t rows = in->numElements() / in->shape.back();
  uint64_t expected =
      (b == "sum" || b == "max") ? rows : in->numElements();
  if (out->numElements() != expected) {
    contract->emitError("spec shape mismatch: ")
        << b << " of '" << in->name << "' has " << expected
        << " element(s) but '" << out->name << "' has "
        << out->numElements();
    return nullptr;
  }
  if (in->elemType != out->elemType && b != "copy") {
    contract->emitError("spec type mismatch: '")
        << in->name << "' holds " << in->elemType << " but '" << out->name
        << "' holds " << out->elemType;
    return nullptr;
  }
  return std::make_unique<BuiltinSpec>(b.str(), in, out, env.launch);
}

std::vector<std::unique_ptr<Spec>> buildSpecs(Operation *contract,
                                              DictionaryAttr spec,
                                              const SpecEnvironment &env) {
  if (auto b = spec.getAs<StringAttr>("builtin");
      b && b.getValue() == "attention" && !spec.get("func") &&
      !spec.get("reference")) {
    if (!concreteShapes(contract, env))
      return {};
    return buildAttention(contract, spec, env);
  }
  std::vector<std::unique_ptr<Spec>> specs;
  if (std::unique_ptr<Spec> s = buildOneSpec(contract, spec, env))
    specs.push_back(std::move(s));
  return specs;
}

std::unique_ptr<Spec> buildSpec(Operation *contract, DictionaryAttr spec,
                                const SpecEnvironment &env) {
  std::vector<std::unique_ptr<Spec>> specs = buildSpecs(contract, spec, env);
  return specs.empty() ? nullptr : std::move(specs.front());
}
} // namespace kproof::engine
