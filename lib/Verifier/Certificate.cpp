//===- Certificate.cpp - re-checkable proof certificates ------------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Placeholder until the certificate writer lands: reports that no
// certificate was written (a warning in the verdict), never a fake file.
//
//===----------------------------------------------------------------------===//

#include "KProof/Verifier/Certificate.h"

using namespace kproof::engine;

CertificateWriter::CertificateWriter(std::string directory, TermContext &terms,
                                     Normalizer &normalizer)
    : directory(std::move(directory)), terms(terms), normalizer(normalizer) {}

bool CertificateWriter::write(const std::string &, Term, llvm::StringRef) {
  error = "certificate writing is not implemented yet";
  return false;
}
