//===- PTXAST.h - syntax tree of a PTX module -------------------*- C++ -*-===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The PTX parser (Parser.cpp) produces this tree; the importer (Importer.cpp)
// turns it into the kproof dialect. The tree is syntactic: instructions are a
// generic node (opcode, modifiers, operands) checked per opcode by the
// importer, so an instruction kproof does not model still parses.
//
// Every node carries the llvm::SMLoc of its first character in the buffer the
// parser was given; `StringRef`s point into that buffer, which must outlive
// the tree.
//
// Grammar source: PTX ISA 9.0, chapters 4 (syntax), 5 (state spaces, types,
// variables), 6 (instruction operands), 11 (directives).
//
//===----------------------------------------------------------------------===//

#ifndef KPROOF_IMPORT_PTX_PTXAST_H
#define KPROOF_IMPORT_PTX_PTXAST_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kproof::ptx {

/// One instruction operand (PTX ISA 6.3-6.6).
struct Operand {
  enum class Kind {
    /// A register `%r1`, `P1`, a predicate `!%p` (negated), or a dual
    /// destination `%r1|%p1` (`name` and `secondName`).
    Register,
    /// An integer immediate, 64-bit two's complement (`0x10`, `-1`, `017`,
    /// `0b101`, `7U`, `WARP_SZ` = 32).
    Integer,
    /// A float immediate with exact f32 bits: `0fXXXXXXXX`.
    FloatF32,
    /// A float immediate with exact f64 bits: `0dXXXXXXXXXXXXXXXX`, or a
    /// decimal literal such as `1.5` (PTX ISA 4.5.1: decimal floats are f64).
    FloatF64,
    /// An identifier that is not a declared register: a variable name used
    /// as a value (`mov.u32 %r, smem`), a branch target label, a called
    /// function name. The importer resolves it in scope.
    Symbol,
    /// `[base]`, `[base+imm]`, `[base+-imm]`, `[imm]`; `base` is a register
    /// or a symbol (`baseIsSymbol`). TMA forms `[tmap, {c0, c1}]` keep the
    /// coordinate vector in `elements`.
    Address,
    /// A brace list `{a, b, c, d}` (also one-element braces and lists of up
    /// to 128 registers); elements are operands.
    Vector,
    /// A parenthesized list `(retval0)`, `(param0, param1)` of `call`.
    ParenList,
    /// The sink `_`.
    Sink,
  };

  Kind kind = Kind::Integer;
  llvm::SMLoc loc;
  /// Register or symbol name, including any leading `%` / `$`; for Address,
  /// the base name (empty for an absolute `[imm]` address).
  std::string name;
  /// For Register: the predicate of a dual destination `d|p`.
  std::string secondName;
  /// For Register: `!%p` (a negated predicate source).
  bool negated = false;
  /// For Address: the base is a symbol, not a register.
  bool baseIsSymbol = false;
  /// For Integer: the value. For Address: the byte offset (or the absolute
  /// address when `name` is empty).
  int64_t intValue = 0;
  /// For FloatF32/FloatF64: the exact IEEE bits (low 32 bits for f32).
  uint64_t floatBits = 0;
  /// For Vector, ParenList, and the coordinates of a TMA Address.
  std::vector<Operand> elements;
};

/// `@%p` or `@!%p` before an instruction.
struct Guard {
  std::string name;
  bool negated = false;
  llvm::SMLoc loc;
};

/// A `.loc file line col` in force for an instruction (PTX ISA 11.5.3).
struct DebugLoc {
  unsigned file = 0;
  unsigned line = 0;
  unsigned column = 0;
};

/// One instruction statement: `[@p] opcode.mod.mod op, op, ...;`.
struct Instruction {
  llvm::SMLoc loc;
  std::optional<Guard> guard;
  /// The base opcode: "ld", "mov", "setp", "cp", "mbarrier", ...
  std::string opcode;
  /// The dot-separated modifiers in order, without their dots; modifiers
  /// may contain `::` ("shared::cta", "L2::cache_hint"). For
  /// `ld.global.nc.v4.f32` this is {"global", "nc", "v4", "f32"}.
  std::vector<std::string> modifiers;
  std::vector<Operand> operands;
  /// The statement's source text, from the guard or opcode through the
  /// operands (without the `;`), for diagnostics and opaque ops.
  llvm::StringRef text;
  /// The `.loc` most recently seen in the enclosing function, if any.
  std::optional<DebugLoc> debugLoc;

  /// True if `modifier` is one of the modifiers.
  bool hasModifier(llvm::StringRef modifier) const;
};

/// `.reg .b32 %r<100>;`, `.reg .pred P1, P2;` (PTX ISA 5.2, 5.5.4).
struct RegDecl {
  llvm::SMLoc loc;
  /// The PTX type without its dot: "b32", "pred", "f32", "v4.f32" is not
  /// legal for .reg in real output and is rejected.
  std::string type;
  /// The declared names, with `%r<100>` expanded to `%r0` ... `%r99`.
  std::vector<std::string> names;
};

/// A variable: module scope, or function scope inside a body
/// (`.shared`, `.local`, `.global`, `.const`, `.param`; PTX ISA 5.4).
struct VarDecl {
  llvm::SMLoc loc;
  /// "global", "shared", "const", "local", "param" (without the dot);
  /// `.shared::cta` is "shared".
  std::string space;
  /// Linkage: "", "visible", "extern", "weak", "common".
  std::string linkage;
  std::optional<uint64_t> align;
  /// Element type without the dot ("b8", "f32", "u64").
  std::string type;
  /// Vector width of `.v2`/`.v4` variables (1 for scalars).
  unsigned vectorWidth = 1;
  std::string name;
  /// Array dimensions; std::nullopt for an unsized `[]` (dynamic shared
  /// memory). Empty for a scalar.
  std::vector<std::optional<uint64_t>> dims;
  /// Flattened initializer (`= {1, 2, 3}` or `= 5`); each is an Integer,
  /// FloatF32/FloatF64 or Symbol (address of a variable) operand.
  std::vector<Operand> init;
  bool hasInit = false;
};

/// `.pragma "nounroll";` and similar statement-level directives kept for
/// diagnostics.
struct Pragma {
  llvm::SMLoc loc;
  std::string text;
};

struct Block;

/// One element of a function body, in source order.
struct Statement {
  enum class Kind { Instruction, Label, RegDecl, VarDecl, Block, Pragma };
  Kind kind;
  llvm::SMLoc loc;
  // Exactly one of these is set, according to `kind`.
  std::unique_ptr<ptx::Instruction> instruction;
  std::string label; ///< Kind::Label: the label name, without the colon.
  std::unique_ptr<ptx::RegDecl> regDecl;
  std::unique_ptr<ptx::VarDecl> varDecl;
  std::unique_ptr<ptx::Block> block;
  std::unique_ptr<ptx::Pragma> pragma;
};

/// `{ ... }`: a scope for registers and labels (PTX ISA 11.1.2). Inline asm
/// repeats the same labels in sibling blocks, so names are block-scoped.
struct Block {
  llvm::SMLoc loc;
  std::vector<Statement> statements;
};

/// A function parameter or return parameter (PTX ISA 5.1.6, 11.1.3):
/// `.param .u64 p`, `.param .u64 .ptr .global .align 8 p`,
/// `.param .align 8 .b8 func_retval0[16]`, or a `.reg .b32 r` parameter.
struct Param {
  llvm::SMLoc loc;
  /// "param" or "reg".
  std::string space;
  std::string type;
  std::string name;
  std::optional<uint64_t> align;
  /// `.ptr` state space ("global", "shared", ...), empty when absent.
  std::string ptrSpace;
  std::optional<uint64_t> ptrAlign;
  /// Array dimensions (`.b8 s[16]`); empty for a scalar.
  std::vector<uint64_t> dims;
};

/// A `.entry` or `.func` (PTX ISA 11.1).
struct Function {
  llvm::SMLoc loc;
  bool isEntry = false;
  /// "", "visible", "extern", "weak".
  std::string linkage;
  std::string name;
  std::vector<Param> params;
  std::vector<Param> returns;
  /// Performance-tuning directives (PTX ISA 11.4): "maxntid", "reqntid",
  /// "minnctapersm", "maxnreg", "maxclusterrank", "reqnctapercluster",
  /// "noreturn", ... with their integer arguments.
  std::vector<std::pair<std::string, std::vector<uint64_t>>> directives;
  /// Absent for a declaration (`.extern .func vprintf(...);`).
  std::unique_ptr<Block> body;
};

/// `.callprototype` declarations are kept by label for indirect calls.
struct CallPrototype {
  llvm::SMLoc loc;
  std::string label;
  std::vector<Param> params;
  std::vector<Param> returns;
};

/// A whole PTX module.
struct Module {
  llvm::SMLoc loc;
  std::string version;     ///< ".version 8.7" -> "8.7"
  std::string target;      ///< ".target sm_90a" -> "sm_90a" (first target)
  std::vector<std::string> targetOptions; ///< further targets ("debug", ...)
  /// `.address_size`; 32 when the directive is absent (PTX ISA 11.2.3).
  unsigned addressSize = 32;
  /// `.file N "path"` entries (checksum/size fields dropped).
  std::map<unsigned, std::string> files;
  std::vector<VarDecl> globals;
  std::vector<Function> functions;
  std::vector<CallPrototype> prototypes;
};

} // namespace kproof::ptx

#endif // KPROOF_IMPORT_PTX_PTXAST_H
