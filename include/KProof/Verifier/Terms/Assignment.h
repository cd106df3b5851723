//===- Assignment.h - values of a term's free variables ---------*- C++ -*-===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// A concrete input for terms (Term.h): exact values of RealVar, BVVar and
// BoolVar leaves by name, and of buffer elements read at symbolic indices
// (Select) by buffer name and index. A counterexample is an Assignment; the
// MPFR evaluator (Evaluate.h) and the interpreter read one.
//
//===----------------------------------------------------------------------===//

#ifndef KPROOF_VERIFIER_TERMS_ASSIGNMENT_H
#define KPROOF_VERIFIER_TERMS_ASSIGNMENT_H

#include "KProof/Verifier/Terms/Rational.h"

#include "llvm/ADT/APInt.h"

#include <map>
#include <optional>
#include <string>

namespace kproof::engine {

struct Assignment {
  std::map<std::string, Rational> reals;
  std::map<std::string, llvm::APInt> bitvectors;
  std::map<std::string, bool> bools;
  /// buffer name -> (element index -> value), for Select terms.
  std::map<std::string, std::map<uint64_t, Rational>> elements;
  /// Value of an element not listed in `elements` (a model's default).
  std::map<std::string, Rational> elementDefaults;
  /// Integer buffers: the value of an element the model does not list
  /// (integer elements themselves are `bitvectors["buffer[i]"]`).
  std::map<std::string, llvm::APInt> intElementDefaults;

  /// The value of integer element `buffer[index]`: the BVVar
  /// "buffer[index]", else the buffer's default.
  std::optional<llvm::APInt> intElement(const std::string &buffer,
                                        uint64_t index) const {
    auto v = bitvectors.find(buffer + "[" + std::to_string(index) + "]");
    if (v != bitvectors.end())
      return v->second;
    auto d = intElementDefaults.find(buffer);
    if (d != intElementDefaults.end())
      return d->second;
    return std::nullopt;
  }

  /// The value of `buffer[index]`, whether it was assigned as the RealVar
  /// "buffer[index]" or through `elements`.
  std::optional<Rational> element(const std::string &buffer,
                                  uint64_t index) const {
    auto v = reals.find(buffer + "[" + std::to_string(index) + "]");
    if (v != reals.end())
      return v->second;
    auto b = elements.find(buffer);
    if (b != elements.end()) {
      auto e = b->second.find(index);
      if (e != b->second.end())
        return e->second;
    }
    auto d = elementDefaults.find(buffer);
    if (d != elementDefaults.end())
      return d->second;
    return std::nullopt;
  }
};

} // namespace kproof::engine

#endif // KPROOF_VERIFIER_TERMS_ASSIGNMENT_H
