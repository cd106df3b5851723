//===- Verdict.cpp - the verdict, as text or JSON -------------------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The verdict as the checker returns it (EquivalenceChecker.h): its exit
// code, and its report as text (`Verdict::print`: assumptions, idioms,
// warnings, the obligations not proved, the counterexample with its inputs
// by buffer and the exact kernel and spec values) or as JSON
// (`Verdict::printJSON`). It uses nothing of the class `Checker`.
//
//===----------------------------------------------------------------------===//

#include "KProof/Verifier/Check/EquivalenceChecker.h"
#include "KProof/Version.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <cmath>

using namespace mlir;
using namespace ::kproof;
using namespace ::kproof::engine;

static const char *verdictName(VerdictKind k) {
  switch (k) {
  case VerdictKind::Proved:
    return "PROVED";
  case VerdictKind::Refuted:
    return "REFUTED";
  case VerdictKind::Unknown:
    return "UNKNOWN";
  }
  return "UNKNOWN";
}

std::string kproof::engine::toolVersion() { return "kproof " KPROOF_VERSION; }

int Verdict::exitCode() const {
  switch (kind) {
  case VerdictKind::Proved:
    return 0;
  case VerdictKind::Refuted:
    return 1;
  case VerdictKind::Unknown:
    return 3;
  }
  return 3;
}

void Verdict::print(llvm::raw_ostream &os) const {
  os << "kproof: " << kernelName << " against " << specDescription
     << " (mode reals)\n";
  if (!contractName.empty() || seconds >= 0) {
    os << " ";
    if (!contractName.empty())
      os << " contract @" << contractName << ",";
    if (seconds >= 0)
      os << llvm::formatv(" {0:f2} s,", seconds);
    os << " " << toolVersion() << "\n";
  }
  for (const std::string &a : assumptions)
    os << "  assuming: " << a << "\n";
  for (const std::string &i : idioms)
    os << "  idiom: " << i << "\n";
  for (const std::string &w : warnings)
    os << "  warning: " << w << "\n";
  if (branches)
    os << "  paths: " << paths << " (" << branches
       << " data-dependent branches, " << merges
       << " merges where their sides meet again)\n";
  unsigned proved = 0;
  for (const ObligationResult &o : obligations)
    proved += o.verdict == VerdictKind::Proved;
  os << "  obligations: " << obligations.size() << " (" << proved
     << " proved)\n";
  for (const ObligationResult &o : obligations)
    if (o.verdict != VerdictKind::Proved)
      os << "    " << verdictName(o.verdict) << ": " << o.name << " -- "
         << o.how << "\n";
  if (counterexample) {
    const Counterexample &c = *counterexample;
    os << "\nERROR: " << c.property << "\n";
    if (!c.location.empty())
      os << "  at " << c.location << "\n";
    os << "\nExample:\n";
    bool any = false;
    for (auto &[name, v] : c.inputs.reals)
      any |= name.find('#') == std::string::npos;
    any |= !c.inputs.elements.empty() || !c.inputs.elementDefaults.empty();
    for (auto &[name, v] : c.inputs.bitvectors)
      any |= name.find('#') == std::string::npos && name != "e";
    if (!any)
      os << "  (any input)\n";
    // Scalars by name; buffer elements (constant-index variables "x[3]"
    // and elements read at symbolic indices alike) by buffer, in index
    // order. A buffer with more than 8 listed elements shows only those
    // that differ from its default (0 unless the model says otherwise; the
    // replay reads the same), then "x[others] = default".
    std::map<std::string, std::map<uint64_t, const Rational *>> byBuffer;
    for (auto &[name, v] : c.inputs.reals) {
      if (name.find('#') != std::string::npos)
        continue;
      StringRef n(name);
      size_t open = n.rfind('[');
      uint64_t index;
      if (open != StringRef::npos && n.ends_with("]") &&
          !n.slice(open + 1, n.size() - 1).getAsInteger(10, index))
        byBuffer[n.take_front(open).str()][index] = &v;
      else
        os << "  " << name << " = " << v.toString() << "\n";
    }
    for (auto &[buffer, elems] : c.inputs.elements)
      for (auto &[i, v] : elems)
        byBuffer[buffer][i] = &v;
    for (auto &[buffer, v] : c.inputs.elementDefaults)
      byBuffer[buffer];
    // Buffers the replay filled with a non-finite value replace the
    // model's values.
    for (auto &[buffer, v] : c.nonFiniteInputs)
      byBuffer.erase(buffer);
    for (auto &[buffer, v] : c.nonFiniteInputs)
      os << "  " << buffer << "[all] = " << v << "\n";
    for (auto &[buffer, elems] : byBuffer) {
      auto d = c.inputs.elementDefaults.find(buffer);
      Rational def = d == c.inputs.elementDefaults.end() ? Rational(0)
                                                         : d->second;
      bool omit = elems.size() > 8;
      for (auto &[i, v] : elems)
        if (!omit || !(*v == def))
          os << "  " << buffer << "[" << i << "] = " << v->toString()
             << "\n";
      if (omit || d != c.inputs.elementDefaults.end())
        os << "  " << buffer << "[others] = " << def.toString() << "\n";
    }
    for (auto &[name, v] : c.inputs.bitvectors)
      if (name.find('#') == std::string::npos && name != "e")
        os << "  " << name << " = " << v.getZExtValue() << "\n";
    if (!c.specValue.empty()) {
      os << "\nKernel value: " << c.kernelValue << "\n";
      os << "Spec value:   " << c.specValue << "\n";
      os << "(exact values at these inputs, enclosed with MPFR using the true "
            "functions; they differ)\n";
    }
    if (!replay.empty())
      os << "Replay: " << replay << "\n";
  }
  os << "\n" << verdictName(kind);
  if (kind == VerdictKind::Unknown && !reason.empty())
    os << ": " << reason;
  os << "\n";
}

void Verdict::printJSON(llvm::raw_ostream &os) const {
  llvm::json::Object root;
  root["schema_version"] = kVerdictSchemaVersion;
  root["tool"] = toolVersion();
  if (!contractName.empty())
    root["contract"] = contractName;
  if (seconds >= 0)
    root["time_ms"] = int64_t(std::llround(seconds * 1000));
  root["verdict"] = verdictName(kind);
  root["kernel"] = kernelName;
  root["spec"] = specDescription;
  root["mode"] = "reals";
  root["assumptions"] = llvm::json::Array(assumptions);
  root["idioms"] = llvm::json::Array(idioms);
  root["warnings"] = llvm::json::Array(warnings);
  root["paths"] = int64_t(paths);
  root["branches"] = int64_t(branches);
  root["merges"] = int64_t(merges);
  if (!reason.empty())
    root["reason"] = reason;
  llvm::json::Array obs;
  for (const ObligationResult &o : obligations)
    obs.push_back(llvm::json::Object{{"name", o.name},
                                     {"verdict", verdictName(o.verdict)},
                                     {"how", o.how}});
  root["obligations"] = std::move(obs);
  if (counterexample) {
    llvm::json::Object inputs;
    for (auto &[name, v] : counterexample->inputs.reals)
      if (name.find('#') == std::string::npos)
        inputs[name] = v.toString();
    for (auto &[buffer, elems] : counterexample->inputs.elements)
      for (auto &[i, v] : elems)
        inputs[buffer + "[" + std::to_string(i) + "]"] = v.toString();
    for (auto &[buffer, v] : counterexample->inputs.elementDefaults)
      inputs[buffer + "[others]"] = v.toString();
    for (auto &[buffer, v] : counterexample->nonFiniteInputs) {
      // The replay's non-finite fill replaces the model's values.
      std::vector<std::string> stale;
      for (auto &kv : inputs)
        if (llvm::StringRef(kv.first).starts_with(buffer + "["))
          stale.push_back(kv.first.str());
      for (const std::string &k : stale)
        inputs.erase(k);
      inputs[buffer + "[all]"] = v;
    }
    for (auto &[name, v] : counterexample->inputs.bitvectors)
      if (name.find('#') == std::string::npos && name != "e")
        inputs[name] = std::to_string(v.getZExtValue());
    root["counterexample"] = llvm::json::Object{
        {"property", counterexample->property},
        {"location", counterexample->location},
        {"inputs", std::move(inputs)},
        {"kernel_value", counterexample->kernelValue},
        {"spec_value", counterexample->specValue}};
    if (!counterexample->outputBuffer.empty()) {
      (*root.getObject("counterexample"))["buffer"] =
          counterexample->outputBuffer;
      (*root.getObject("counterexample"))["index"] =
          int64_t(*counterexample->outputIndex);
    }
    if (!replay.empty())
      (*root.getObject("counterexample"))["replay"] = replay;
  }
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(root))) << "\n";
}
