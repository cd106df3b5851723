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

void Verdict::emitRefutedSites() const {
  if (kind != VerdictKind::Refuted)
    return;
  for (const auto &[loc, property] : refutedSites)
    mlir::emitError(loc) << "REFUTED: " << shaped(property);
}

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

std::vector<int64_t> Verdict::elementIndex(StringRef buffer,
                                           uint64_t flat) const {
  auto b = llvm::find_if(buffers, [&](const BufferShape &s) {
    return s.name == buffer;
  });
  if (b == buffers.end() || b->dims.size() < 2)
    return {int64_t(flat)};
  // Extents: the contract's, or a size parameter's value in the
  // counterexample; without one, the flat index.
  std::vector<uint64_t> extents;
  for (const std::string &d : b->dims) {
    uint64_t v;
    if (!StringRef(d).getAsInteger(10, v)) {
      extents.push_back(v);
      continue;
    }
    if (!counterexample)
      return {int64_t(flat)};
    auto it = counterexample->inputs.bitvectors.find(d);
    if (it == counterexample->inputs.bitvectors.end() ||
        it->second.getZExtValue() == 0)
      return {int64_t(flat)};
    extents.push_back(it->second.getZExtValue());
  }
  std::vector<int64_t> index(extents.size());
  uint64_t rest = flat;
  for (size_t d = extents.size(); d-- > 0;) {
    index[d] = int64_t(rest % extents[d]);
    rest /= extents[d];
  }
  if (rest)
    return {int64_t(flat)}; // past the extents: the flat index
  return index;
}

std::vector<Verdict::InputEntry> Verdict::listInputs(bool compact) const {
  std::vector<InputEntry> out;
  if (!counterexample)
    return out;
  const Counterexample &c = *counterexample;
  // Scalars (reals, then integers) by name; buffer elements (constant-index
  // variables "x[3]" and elements read at symbolic indices alike) by
  // buffer, in index order. Compact: a buffer with more than 8 listed
  // elements shows only those that differ from its default (0 unless the
  // model says otherwise; the replay reads the same), then
  // "x[others] = default".
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
      out.push_back({name, v.toString(), "", {}, false, false});
  }
  for (auto &[name, v] : c.inputs.bitvectors)
    if (name.find('#') == std::string::npos && name != "e" &&
        !StringRef(name).starts_with("cov."))
      out.push_back({name, std::to_string(v.getZExtValue()), "", {}, false,
                     false});
  for (auto &[buffer, elems] : c.inputs.elements)
    for (auto &[i, v] : elems)
      byBuffer[buffer][i] = &v;
  for (auto &[buffer, v] : c.inputs.elementDefaults)
    byBuffer[buffer];
  // Buffers the replay filled with a non-finite value replace the model's
  // values.
  for (auto &[buffer, v] : c.nonFiniteInputs) {
    byBuffer.erase(buffer);
    out.push_back({buffer + "[all]", v, buffer, {}, false, true});
  }
  for (auto &[buffer, elems] : byBuffer) {
    auto d = c.inputs.elementDefaults.find(buffer);
    Rational def =
        d == c.inputs.elementDefaults.end() ? Rational(0) : d->second;
    bool omit = compact && elems.size() > 8;
    for (auto &[i, v] : elems) {
      if (omit && *v == def)
        continue;
      std::vector<int64_t> index = elementIndex(buffer, i);
      std::string name = buffer + "[";
      for (auto [k, x] : llvm::enumerate(index))
        name += (k ? ", " : "") + std::to_string(x);
      out.push_back(
          {name + "]", v->toString(), buffer, index, false, false, i});
    }
    if (omit || d != c.inputs.elementDefaults.end())
      out.push_back(
          {buffer + "[others]", def.toString(), buffer, {}, true, false});
  }
  return out;
}

std::string Verdict::shaped(StringRef text) const {
  // Each "name[N]" of a buffer with two or more dimensions, left to right.
  std::string out;
  size_t from = 0;
  while (from < text.size()) {
    size_t best = StringRef::npos, bestEnd = 0;
    std::string replacement;
    for (const BufferShape &b : buffers) {
      if (b.dims.size() < 2)
        continue;
      for (size_t at = text.find(b.name + "[", from); at != StringRef::npos;
           at = text.find(b.name + "[", at + 1)) {
        // A whole name: not the tail of a longer identifier.
        if (at > 0 && (isalnum(text[at - 1]) || text[at - 1] == '_'))
          continue;
        size_t open = at + b.name.size(), close = text.find(']', open);
        uint64_t flat;
        if (close == StringRef::npos ||
            text.slice(open + 1, close).getAsInteger(10, flat))
          continue;
        if (at < best) {
          std::vector<int64_t> index = elementIndex(b.name, flat);
          if (index.size() < 2)
            break;
          best = at;
          bestEnd = close + 1;
          replacement = b.name + "[";
          for (auto [k, x] : llvm::enumerate(index))
            replacement += (k ? ", " : "") + std::to_string(x);
          replacement += "] (row-major " + std::to_string(flat) + ")";
        }
        break;
      }
    }
    if (best == StringRef::npos) {
      out += text.drop_front(from).str();
      break;
    }
    out += text.slice(from, best).str() + replacement;
    from = bestEnd;
  }
  return out;
}

std::string Verdict::property() const {
  return counterexample ? shaped(counterexample->property) : "";
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
  if (!launch.empty()) {
    os << "  launch: " << launch;
    for (auto [k, b] : llvm::enumerate(buffers)) {
      os << (k ? ", " : "; buffers: ") << b.name << " " << b.role << " "
         << b.type << "[";
      for (auto [d, e] : llvm::enumerate(b.dims))
        os << (d ? ", " : "") << e;
      os << "]";
    }
    os << "\n";
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
  for (const ObligationResult &o : obligations) {
    if (o.verdict == VerdictKind::Proved)
      continue;
    os << "    " << verdictName(o.verdict) << ": " << o.name << " -- " << o.how
       << "\n";
    if (o.residual)
      os << "      left to show: kernel == spec, where\n"
         << "        kernel: " << o.residual->kernel << "\n"
         << "        spec:   " << o.residual->spec << "\n"
         << "        under:  " << o.residual->condition << "\n";
  }
  if (counterexample) {
    const Counterexample &c = *counterexample;
    // Only a REFUTED verdict's counterexample is one: a model the replay
    // did not reproduce (the verdict is then UNKNOWN) is shown as what it
    // is, a candidate.
    bool confirmed = kind == VerdictKind::Refuted;
    if (confirmed)
      os << "\nERROR: " << property() << "\n";
    else
      os << "\nCandidate (not a counterexample: replaying the kernel did not "
            "reproduce it): "
         << property() << "\n";
    if (!c.location.empty())
      os << "  at " << c.location << "\n";
    os << "\nExample:\n";
    std::vector<InputEntry> entries = listInputs(/*compact=*/true);
    if (entries.empty())
      os << "  (any input)\n";
    // Runs of five or more consecutive elements (row-major) of one value
    // as one line: "k[0, 0] .. k[0, 11] = 0 (12 elements)".
    for (size_t k = 0; k < entries.size();) {
      const InputEntry &e = entries[k];
      size_t end = k + 1;
      bool element = !e.buffer.empty() && !e.others && !e.all;
      while (element && end < entries.size() &&
             entries[end].buffer == e.buffer && !entries[end].others &&
             !entries[end].all && entries[end].value == e.value &&
             entries[end].flat == entries[end - 1].flat + 1)
        ++end;
      if (end - k >= 5) {
        os << "  " << e.name << " .. " << entries[end - 1].name << " = "
           << e.value << " (" << end - k << " elements)\n";
        k = end;
        continue;
      }
      os << "  " << e.name << " = " << e.value << "\n";
      ++k;
    }
    if (!c.specValue.empty()) {
      os << "\nKernel value: " << c.kernelValue << "\n";
      os << "Spec value:   " << c.specValue << "\n";
      if (confirmed)
        os << "(exact values at these inputs, enclosed with MPFR using the "
              "true functions; they differ)\n";
      else
        os << "(the model's values, which the replay of the kernel does not "
              "reproduce)\n";
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
  if (!launch.empty()) {
    root["launch"] = launch;
    llvm::json::Array bufs;
    for (const BufferShape &b : buffers) {
      llvm::json::Array shape;
      for (const std::string &d : b.dims) {
        int64_t v;
        if (!StringRef(d).getAsInteger(10, v))
          shape.push_back(v);
        else
          shape.push_back(d);
      }
      bufs.push_back(llvm::json::Object{{"name", b.name},
                                        {"role", b.role},
                                        {"type", b.type},
                                        {"shape", std::move(shape)}});
    }
    root["buffers"] = std::move(bufs);
  }
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
  for (const ObligationResult &o : obligations) {
    llvm::json::Object ob{
        {"name", o.name}, {"verdict", verdictName(o.verdict)}, {"how", o.how}};
    if (o.residual)
      ob["residual"] = llvm::json::Object{{"kernel", o.residual->kernel},
                                          {"spec", o.residual->spec},
                                          {"condition", o.residual->condition}};
    obs.push_back(std::move(ob));
  }
  root["obligations"] = std::move(obs);
  if (counterexample) {
    // In order: scalars by name, then each buffer's elements in index
    // order (index as the contract's shape gives it), its default last.
    llvm::json::Array inputs;
    for (const InputEntry &e : listInputs(/*compact=*/false)) {
      llvm::json::Object o{{"name", e.name}, {"value", e.value}};
      if (!e.buffer.empty()) {
        o["buffer"] = e.buffer;
        if (e.others)
          o["others"] = true;
        else if (!e.all)
          o["index"] = llvm::json::Array(e.index);
      }
      inputs.push_back(std::move(o));
    }
    root["counterexample"] = llvm::json::Object{
        {"property", property()},
        {"location", counterexample->location},
        {"inputs", std::move(inputs)},
        {"kernel_value", counterexample->kernelValue},
        {"spec_value", counterexample->specValue}};
    if (!counterexample->outputBuffer.empty()) {
      (*root.getObject("counterexample"))["buffer"] =
          counterexample->outputBuffer;
      (*root.getObject("counterexample"))["index"] =
          int64_t(*counterexample->outputIndex);
      (*root.getObject("counterexample"))["element"] =
          llvm::json::Array(elementIndex(counterexample->outputBuffer,
                                         *counterexample->outputIndex));
    }
    if (!replay.empty())
      (*root.getObject("counterexample"))["replay"] = replay;
    // false: a candidate the replay did not reproduce (verdict UNKNOWN).
    (*root.getObject("counterexample"))["confirmed"] =
        kind == VerdictKind::Refuted;
  }
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(root))) << "\n";
}
