//===- Parser.cpp - recursive-descent parser for PTX ----------------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Turns PTX text into the syntax tree of PTXAST.h. The grammar follows PTX
// ISA 9.0 chapters 4-6 and 11 as far as nvcc, Triton and LLVM's NVPTX
// backend use it (the project's PTX notes, sections 1 and 2):
//
//   module      ::= (directive | function | variable | prototype)*
//   function    ::= linkage? ('.entry' | '.func') ('(' params ')')? name
//                   ('(' params ')')? perf-directive* ('{' body '}' | ';')
//   body        ::= (statement | '{' body '}')*
//   statement   ::= label ':' | '.reg' ... ';' | variable | '.loc' ...
//                 | '.pragma' strings ';' | label ':' '.callprototype' ...
//                 | ('@' '!'? pred)? opcode ('.' modifier)* operands? ';'
//
// Instructions are generic: opcodes are not reserved words and any dotted
// modifier chain is accepted; the importer checks each opcode. The parser is
// linear in the input and never recurses on nested blocks (they are tracked
// with an explicit stack), so deeply nested inline asm cannot exhaust the
// stack; expressions and initializers, which do recurse, are depth-limited.
//
//===----------------------------------------------------------------------===//

#include "KProof/Import/PTX/PTXParser.h"

#include "Lexer.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"

using namespace kproof::ptx;
using llvm::SMLoc;
using llvm::StringRef;
using llvm::Twine;

bool Instruction::hasModifier(StringRef modifier) const {
  for (const std::string &m : modifiers)
    if (m == modifier)
      return true;
  return false;
}

namespace {

/// Limit on recursion in constant expressions and nested initializers.
constexpr unsigned kMaxNesting = 256;
/// Limit on nested `{ }` blocks. The parser itself does not recurse on
/// blocks, but the tree's destructor and the importer's walk do; real PTX
/// nests a few levels (inline asm inside call sequences).
constexpr unsigned kMaxBlockDepth = 4096;
/// Limits on `%r<N>` expansion, so that a tiny malformed file cannot ask for
/// gigabytes of register names.
constexpr uint64_t kMaxRegisterRange = uint64_t(1) << 24;
constexpr uint64_t kMaxRegistersPerModule = uint64_t(1) << 25;

/// State spaces that may start a variable declaration (ISA 5.1); `::`
/// sub-spaces (`.shared::cta`) are folded into their base space.
bool isStateSpace(StringRef dotless) {
  StringRef base = dotless.split("::").first;
  return base == "global" || base == "shared" || base == "const" ||
         base == "local" || base == "param" || base == "tex";
}

bool isLinkage(StringRef dotless) {
  return dotless == "visible" || dotless == "extern" || dotless == "weak" ||
         dotless == "common";
}

/// Fundamental and opaque type names (ISA 5.2), used for clearer errors.
bool isTypeName(StringRef dotless) {
  return llvm::StringSwitch<bool>(dotless)
      .Cases({"s8", "s16", "s32", "s64", "u8", "u16", "u32", "u64"}, true)
      .Cases({"b8", "b16", "b32", "b64", "b128", "pred"}, true)
      .Cases({"f16", "f16x2", "f32", "f64", "bf16", "bf16x2", "tf32"}, true)
      .Cases({"e4m3", "e5m2", "e4m3x2", "e5m2x2"}, true)
      .Cases({"texref", "samplerref", "surfref"}, true)
      .Default(false);
}

/// Directives kproof knows (ISA 11), so that a misplaced one is reported as
/// misplaced rather than unknown.
bool isKnownDirective(StringRef dotless) {
  if (isStateSpace(dotless) || isLinkage(dotless))
    return true;
  return llvm::StringSwitch<bool>(dotless)
      .Cases({"version", "target", "address_size", "file", "loc", "section"},
             true)
      .Cases({"pragma", "alias", "entry", "func", "reg", "callprototype"}, true)
      .Cases({"branchtargets", "calltargets", "align", "ptr", "attribute"},
             true)
      .Cases({"maxntid", "reqntid", "minnctapersm", "maxnctapersm", "maxnreg",
              "maxclusterrank", "reqnctapercluster"},
             true)
      .Cases({"explicitcluster", "noreturn", "blocksareclusters",
              "abi_preserve", "abi_preserve_control"},
             true)
      .Default(false);
}

/// Performance-tuning and function attributes allowed between a function's
/// header and its body (ISA 11.4), with the number of integer arguments each
/// takes. Returns false for other names.
bool getPerformanceDirectiveArity(StringRef dotless, unsigned &minArgs,
                                  unsigned &maxArgs) {
  std::pair<unsigned, unsigned> arity =
      llvm::StringSwitch<std::pair<unsigned, unsigned>>(dotless)
          .Cases({"maxntid", "reqntid", "reqnctapercluster"}, {1, 3})
          .Cases({"minnctapersm", "maxnctapersm", "maxnreg", "maxclusterrank"},
                 {1, 1})
          .Cases({"abi_preserve", "abi_preserve_control"}, {1, 1})
          .Cases({"noreturn", "explicitcluster", "blocksareclusters"}, {0, 0})
          .Default({~0u, 0});
  if (arity.first == ~0u)
    return false;
  minArgs = arity.first;
  maxArgs = arity.second;
  return true;
}

/// The contents of a string literal token without quotes, with `\"`, `\\`,
/// `\n` and `\t` escapes resolved.
std::string unescapeString(StringRef quoted) {
  StringRef body = quoted.drop_front().drop_back();
  std::string out;
  out.reserve(body.size());
  for (size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (c == '\\' && i + 1 < body.size()) {
      char e = body[++i];
      out.push_back(e == 'n' ? '\n' : e == 't' ? '\t' : e);
      continue;
    }
    out.push_back(c);
  }
  return out;
}

int binaryPrecedence(Token::Kind kind) {
  switch (kind) {
  case Token::Star:
  case Token::Slash:
  case Token::Percent:
    return 5;
  case Token::Plus:
  case Token::Minus:
    return 4;
  case Token::Shl:
  case Token::Shr:
    return 3;
  case Token::Amp:
    return 2;
  case Token::Caret:
    return 1;
  case Token::Pipe:
    return 0;
  default:
    return -1;
  }
}

bool isFloatToken(const Token &t) {
  return t.is(Token::FloatF32) || t.is(Token::FloatF64) ||
         t.is(Token::DecimalFloat);
}

class Parser {
public:
  Parser(llvm::SourceMgr &sourceMgr, unsigned bufferID, Module &module,
         DiagnosticFn emitDiagnostic)
      : sourceMgr(sourceMgr), bufferID(bufferID),
        buffer(sourceMgr.getMemoryBuffer(bufferID)->getBuffer()), lexer(buffer),
        module(module), emitDiagnostic(emitDiagnostic) {}

  /// Parses the whole buffer into the module.
  bool parseModule();

private:
  //===--------------------------------------------------------------------===//
  // Tokens and diagnostics
  //===--------------------------------------------------------------------===//

  void consume() {
    prevEnd = tok.end();
    tok = lexer.lex();
  }

  /// Reports `msg` at `loc`; always returns false.
  bool error(SMLoc loc, const Twine &msg) {
    emitDiagnostic(loc, llvm::SourceMgr::DK_Error, msg);
    return false;
  }
  /// Reports `msg` at token `t`, or the lexer's message if `t` is malformed.
  bool errorAt(const Token &t, const Twine &msg) {
    if (t.is(Token::Error))
      return error(t.getLoc(), t.message);
    return error(t.getLoc(), msg);
  }
  /// Reports that `what` was expected at the current token.
  bool errorExpected(const Twine &what) {
    if (tok.is(Token::Error))
      return error(tok.getLoc(), tok.message);
    if (tok.is(Token::Eof))
      return error(tok.getLoc(), "unexpected end of file, expected " + what);
    return error(tok.getLoc(),
                 "expected " + what + ", found '" + describe(tok) + "'");
  }
  static StringRef describe(const Token &t) {
    return t.text.size() > 40 ? t.text.take_front(40) : t.text;
  }
  bool expect(Token::Kind kind, const Twine &what) {
    if (!tok.is(kind))
      return errorExpected(what);
    consume();
    return true;
  }
  /// Parses an unsigned integer literal (no sign, no expression).
  bool parseUInt(uint64_t &value, const Twine &what) {
    if (!tok.is(Token::Integer))
      return errorExpected(what);
    value = tok.value;
    consume();
    return true;
  }
  bool parseUInt32(unsigned &value, const Twine &what) {
    Token t = tok;
    uint64_t v = 0;
    if (!parseUInt(v, what))
      return false;
    if (v > UINT32_MAX)
      return errorAt(t, "value " + Twine(v) + " is too large");
    value = unsigned(v);
    return true;
  }
  std::string lineColumn(SMLoc loc) const {
    auto lc = sourceMgr.getLineAndColumn(loc, bufferID);
    return (Twine(lc.first) + ":" + Twine(lc.second)).str();
  }

  //===--------------------------------------------------------------------===//
  // Module-level constructs
  //===--------------------------------------------------------------------===//

  bool parseTopLevel();
  bool parseFunction(StringRef linkage, SMLoc loc);
  bool parseFunctionBody(Function &fn);
  bool parseParamList(std::vector<Param> &params);
  bool parseParam(Param &param);
  bool parseCallPrototype(const Token &label);
  bool parseVarDecls(StringRef linkage, SMLoc loc,
                     llvm::SmallVectorImpl<VarDecl> &decls);
  bool parseInitializer(std::vector<Operand> &init, unsigned depth);
  bool parseInitElement(Operand &op);
  bool skipAttribute();
  bool skipSection();
  bool parsePragma(Pragma *pragma);
  bool parseFile();
  bool parseLoc();

  //===--------------------------------------------------------------------===//
  // Statements
  //===--------------------------------------------------------------------===//

  bool parseBodyDirective(Block &block);
  bool parseRegDecl(RegDecl &decl);
  bool parseInstruction(Block &block);
  bool parseOperand(Operand &op, bool allowCompound);
  bool parseNamedOperand(Operand &op);
  bool parseFloatOperand(Operand &op);
  bool parseSymbolOffset(Operand &op);
  bool parseVector(Operand &op);
  bool parseParenList(Operand &op);
  bool parseAddress(Operand &op);

  static Statement &addStatement(Block &block, Statement::Kind kind,
                                 SMLoc loc) {
    block.statements.emplace_back();
    Statement &s = block.statements.back();
    s.kind = kind;
    s.loc = loc;
    return s;
  }

  //===--------------------------------------------------------------------===//
  // Constant expressions (ISA 4.6): C operators on 64-bit integers
  //===--------------------------------------------------------------------===//

  bool isExpressionStart() const {
    switch (tok.kind) {
    case Token::Integer:
    case Token::Minus:
    case Token::Plus:
    case Token::Tilde:
    case Token::Bang:
    case Token::LParen:
      return true;
    case Token::Identifier:
      return tok.text == "WARP_SZ";
    default:
      return false;
    }
  }
  bool parseIntExpr(int64_t &result) {
    uint64_t v = 0;
    if (!parseExpr(v, 0))
      return false;
    result = int64_t(v);
    return true;
  }
  bool parseExpr(uint64_t &value, unsigned depth) {
    return parseUnary(value, depth) && parseBinaryRHS(0, value, depth);
  }
  bool parseUnary(uint64_t &value, unsigned depth);
  bool parseBinaryRHS(int minPrec, uint64_t &lhs, unsigned depth);
  bool applyBinary(const Token &op, uint64_t &lhs, uint64_t rhs);

  //===--------------------------------------------------------------------===//
  // Register scopes: names without `%` that `.reg` declared (`P1`), so that
  // operands naming them are Registers rather than Symbols.
  //===--------------------------------------------------------------------===//

  bool isRegisterName(StringRef name) const {
    return name.starts_with("%") || plainRegisters.count(name);
  }
  void declareRegister(StringRef name) {
    if (name.starts_with("%") || registerScopes.empty())
      return;
    ++plainRegisters[name];
    registerScopes.back().push_back(name.str());
  }
  void pushRegisterScope() { registerScopes.emplace_back(); }
  void popRegisterScope() {
    if (registerScopes.empty())
      return;
    for (const std::string &name : registerScopes.back()) {
      auto it = plainRegisters.find(name);
      if (it != plainRegisters.end() && --it->second == 0)
        plainRegisters.erase(it);
    }
    registerScopes.pop_back();
  }

  llvm::SourceMgr &sourceMgr;
  unsigned bufferID = 0;
  StringRef buffer;
  Lexer lexer;
  Module &module;
  DiagnosticFn emitDiagnostic;

  Token tok;
  /// End of the token before `tok` (for Instruction::text).
  const char *prevEnd = nullptr;

  /// The `.loc` in force in the current function.
  std::optional<DebugLoc> currentLoc;
  llvm::StringMap<unsigned> plainRegisters;
  std::vector<std::vector<std::string>> registerScopes;
  uint64_t registersDeclared = 0;
};

} // namespace

//===----------------------------------------------------------------------===//
// Module level
//===----------------------------------------------------------------------===//

bool Parser::parseModule() {
  module.loc = SMLoc::getFromPointer(buffer.begin());
  prevEnd = buffer.begin();
  tok = lexer.lex();
  while (!tok.is(Token::Eof))
    if (!parseTopLevel())
      return false;
  return true;
}

bool Parser::parseTopLevel() {
  if (tok.is(Token::Semi)) {
    consume();
    return true;
  }
  if (tok.is(Token::Identifier) && lexer.peek().is(Token::Colon)) {
    Token label = tok;
    consume();
    consume();
    if (tok.isDot("callprototype"))
      return parseCallPrototype(label);
    return errorAt(label, "labels are only allowed inside a function body");
  }
  if (!tok.is(Token::DotName))
    return errorExpected("a directive at module scope");

  StringRef name = tok.text.drop_front();
  SMLoc loc = tok.getLoc();
  if (name == "version") {
    consume();
    if (!tok.is(Token::DecimalFloat) && !tok.is(Token::Integer))
      return errorExpected("a version number such as '8.0' after '.version'");
    module.version = tok.text.str();
    consume();
    return true;
  }
  if (name == "target") {
    consume();
    if (!tok.is(Token::Identifier))
      return errorExpected("a target such as 'sm_90a' after '.target'");
    module.target = tok.text.str();
    consume();
    while (tok.is(Token::Comma)) {
      consume();
      if (!tok.is(Token::Identifier))
        return errorExpected("a target option after ','");
      module.targetOptions.push_back(tok.text.str());
      consume();
    }
    return true;
  }
  if (name == "address_size") {
    consume();
    Token t = tok;
    uint64_t size = 0;
    if (!parseUInt(size, "32 or 64 after '.address_size'"))
      return false;
    if (size != 32 && size != 64)
      return errorAt(t, "'.address_size' must be 32 or 64");
    module.addressSize = unsigned(size);
    return true;
  }
  if (name == "file")
    return parseFile();
  if (name == "loc")
    return parseLoc();
  if (name == "section")
    return skipSection();
  if (name == "pragma")
    return parsePragma(nullptr);
  if (name == "alias") {
    // `.alias fAlias, fTarget;` is kept by nobody; accept and drop it.
    consume();
    if (!expect(Token::Identifier, "an alias name after '.alias'") ||
        !expect(Token::Comma, "',' after the alias name") ||
        !expect(Token::Identifier, "the aliased function name") ||
        !expect(Token::Semi, "';' after '.alias'"))
      return false;
    return true;
  }
  if (isLinkage(name)) {
    consume();
    if (tok.isDot("entry") || tok.isDot("func"))
      return parseFunction(name, loc);
    if (tok.is(Token::DotName) && isStateSpace(tok.text.drop_front())) {
      llvm::SmallVector<VarDecl, 1> decls;
      if (!parseVarDecls(name, loc, decls))
        return false;
      for (VarDecl &d : decls)
        module.globals.push_back(std::move(d));
      return true;
    }
    return errorExpected("'.entry', '.func' or a state space after '." + name +
                         "'");
  }
  if (name == "entry" || name == "func")
    return parseFunction("", loc);
  if (isStateSpace(name)) {
    llvm::SmallVector<VarDecl, 1> decls;
    if (!parseVarDecls("", loc, decls))
      return false;
    for (VarDecl &d : decls)
      module.globals.push_back(std::move(d));
    return true;
  }
  if (name == "callprototype")
    return errorAt(tok, "'.callprototype' must follow a label ('name: "
                        ".callprototype ...')");
  if (isTypeName(name))
    return errorAt(tok, "unexpected type '" + tok.text +
                            "' at module scope; a variable declaration "
                            "starts with a state space such as '.global'");
  if (isKnownDirective(name))
    return errorAt(tok, "'" + tok.text + "' is not allowed at module scope");
  return errorAt(tok, "unknown directive '" + tok.text + "'");
}

bool Parser::parseFile() {
  consume(); // .file
  unsigned index = 0;
  if (!parseUInt32(index, "a file number after '.file'"))
    return false;
  if (!tok.is(Token::String))
    return errorExpected("a file name string after '.file " + Twine(index) +
                         "'");
  std::string path = unescapeString(tok.text);
  consume();
  // Optional timestamp and file size, dropped.
  for (int i = 0; i < 2 && tok.is(Token::Comma); ++i) {
    consume();
    uint64_t ignored = 0;
    if (!parseUInt(ignored, "an integer in '.file'"))
      return false;
  }
  module.files[index] = std::move(path);
  return true;
}

bool Parser::parseLoc() {
  consume(); // .loc
  DebugLoc loc;
  if (!parseUInt32(loc.file, "a file number after '.loc'") ||
      !parseUInt32(loc.line, "a line number in '.loc'") ||
      !parseUInt32(loc.column, "a column number in '.loc'"))
    return false;
  // `, function_name $L__info_string0[+k], inlined_at f l c` (PTX 7.2+).
  while (tok.is(Token::Comma)) {
    consume();
    if (tok.is(Token::Identifier) && tok.text == "function_name") {
      consume();
      if (!expect(Token::Identifier, "a label after 'function_name'"))
        return false;
      if (tok.is(Token::Plus)) {
        consume();
        uint64_t ignored = 0;
        if (!parseUInt(ignored, "an offset after '+'"))
          return false;
      }
      continue;
    }
    if (tok.is(Token::Identifier) && tok.text == "inlined_at") {
      consume();
      unsigned ignored = 0;
      if (!parseUInt32(ignored, "a file number after 'inlined_at'") ||
          !parseUInt32(ignored, "a line number after 'inlined_at'") ||
          !parseUInt32(ignored, "a column number after 'inlined_at'"))
        return false;
      continue;
    }
    return errorExpected("'function_name' or 'inlined_at' in '.loc'");
  }
  currentLoc = loc;
  return true;
}

bool Parser::parsePragma(Pragma *pragma) {
  SMLoc loc = tok.getLoc();
  consume(); // .pragma
  std::string text;
  while (true) {
    if (!tok.is(Token::String))
      return errorExpected("a string after '.pragma'");
    text += unescapeString(tok.text);
    consume();
    if (!tok.is(Token::Comma))
      break;
    consume();
    text += ", ";
  }
  if (!expect(Token::Semi, "';' after '.pragma'"))
    return false;
  if (pragma) {
    pragma->loc = loc;
    pragma->text = std::move(text);
  }
  return true;
}

bool Parser::skipAttribute() {
  // `.attribute(.managed)`, `.attribute(.unified(0x1, 0x2))`: dropped.
  consume(); // .attribute
  if (!tok.is(Token::LParen))
    return errorExpected("'(' after '.attribute'");
  unsigned depth = 0;
  do {
    if (tok.is(Token::Eof) || tok.is(Token::Error))
      return errorExpected("')' to close '.attribute('");
    if (tok.is(Token::LParen))
      ++depth;
    else if (tok.is(Token::RParen))
      --depth;
    consume();
  } while (depth > 0);
  return true;
}

bool Parser::skipSection() {
  consume(); // .section
  if (!tok.is(Token::DotName) && !tok.is(Token::Identifier) &&
      !tok.is(Token::String))
    return errorExpected("a section name after '.section'");
  StringRef name = tok.text;
  consume();
  if (!tok.is(Token::LBrace))
    return errorExpected("'{' after '.section " + name + "'");
  consume();
  // Debug sections hold `.b8`/`.b32`/`.b64` data and labels; skip them with
  // balanced braces.
  unsigned depth = 1;
  while (depth > 0) {
    if (tok.is(Token::Eof))
      return error(tok.getLoc(),
                   "unexpected end of file, expected '}' to close section '" +
                       name + "'");
    if (tok.is(Token::Error))
      return errorAt(tok, "");
    if (tok.is(Token::LBrace))
      ++depth;
    else if (tok.is(Token::RBrace))
      --depth;
    consume();
  }
  return true;
}

bool Parser::parseFunction(StringRef linkage, SMLoc loc) {
  Function fn;
  fn.loc = loc;
  fn.linkage = linkage.str();
  fn.isEntry = tok.isDot("entry");
  StringRef kindName = tok.text;
  consume();
  while (tok.isDot("attribute"))
    if (!skipAttribute())
      return false;
  if (tok.is(Token::LParen) && !parseParamList(fn.returns))
    return false;
  if (!tok.is(Token::Identifier))
    return errorExpected("a function name after '" + kindName + "'");
  fn.name = tok.text.str();
  consume();
  if (tok.is(Token::LParen) && !parseParamList(fn.params))
    return false;

  while (true) {
    if (tok.is(Token::LBrace)) {
      if (!parseFunctionBody(fn))
        return false;
      break;
    }
    if (tok.is(Token::Semi)) {
      consume();
      break;
    }
    if (tok.is(Token::DotName)) {
      StringRef d = tok.text.drop_front();
      unsigned minArgs = 0, maxArgs = 0;
      if (d == "pragma") {
        if (!parsePragma(nullptr))
          return false;
        continue;
      }
      if (getPerformanceDirectiveArity(d, minArgs, maxArgs)) {
        Token directive = tok;
        consume();
        std::vector<uint64_t> args;
        if (tok.is(Token::Integer)) {
          while (true) {
            args.push_back(tok.value);
            consume();
            if (!tok.is(Token::Comma))
              break;
            consume();
            if (!tok.is(Token::Integer))
              return errorExpected("an integer after ',' in '" +
                                   directive.text + "'");
          }
        }
        if (args.size() < minArgs || args.size() > maxArgs) {
          if (minArgs == 0)
            return errorAt(directive,
                           "'" + directive.text + "' takes no arguments");
          if (minArgs == maxArgs)
            return errorAt(directive, "'" + directive.text + "' takes " +
                                          Twine(minArgs) + " integer argument" +
                                          (minArgs == 1 ? "" : "s"));
          return errorAt(directive, "'" + directive.text + "' takes " +
                                        Twine(minArgs) + " to " +
                                        Twine(maxArgs) + " integer arguments");
        }
        fn.directives.emplace_back(d.str(), std::move(args));
        continue;
      }
      if (!isKnownDirective(d))
        return errorAt(tok, "unknown directive '" + tok.text + "'");
    }
    return errorExpected("'{' or ';' after the declaration of function '" +
                         fn.name + "'");
  }
  module.functions.push_back(std::move(fn));
  return true;
}

bool Parser::parseParamList(std::vector<Param> &params) {
  consume(); // (
  if (tok.is(Token::RParen)) {
    consume();
    return true;
  }
  while (true) {
    Param p;
    if (!parseParam(p))
      return false;
    params.push_back(std::move(p));
    if (tok.is(Token::Comma)) {
      consume();
      continue;
    }
    return expect(Token::RParen, "',' or ')' in the parameter list");
  }
}

bool Parser::parseParam(Param &param) {
  param.loc = tok.getLoc();
  if (!tok.isDot("param") && !tok.isDot("reg"))
    return errorExpected("'.param' or '.reg' to start a parameter");
  param.space = tok.text.drop_front().str();
  consume();
  bool sawPtr = false;
  while (tok.is(Token::DotName)) {
    StringRef a = tok.text.drop_front();
    if (a == "align") {
      consume();
      uint64_t align = 0;
      if (!parseUInt(align, "an alignment after '.align'"))
        return false;
      (sawPtr ? param.ptrAlign : param.align) = align;
      continue;
    }
    if (a == "ptr") {
      sawPtr = true;
      consume();
      continue;
    }
    if (sawPtr && isStateSpace(a)) {
      param.ptrSpace = a.split("::").first.str();
      consume();
      continue;
    }
    if (a == "v2" || a == "v4" || a == "v8")
      return errorAt(tok, "vector parameters ('" + tok.text +
                              "') are not supported");
    if (!param.type.empty())
      return errorAt(tok, "unexpected '" + tok.text +
                              "' in a parameter of type '." + param.type + "'");
    param.type = a.str();
    consume();
  }
  if (param.type.empty())
    return errorExpected("a parameter type");
  if (!tok.is(Token::Identifier))
    return errorExpected("a parameter name");
  param.name = tok.text.str();
  consume();
  while (tok.is(Token::LBracket)) {
    consume();
    uint64_t dim = 0;
    if (!parseUInt(dim, "an array size in the parameter declaration"))
      return false;
    param.dims.push_back(dim);
    if (!expect(Token::RBracket, "']' after the array size"))
      return false;
  }
  return true;
}

bool Parser::parseCallPrototype(const Token &label) {
  // `label: .callprototype (.param .b32 _) _ (.param .b64 _, ...);`
  CallPrototype proto;
  proto.loc = label.getLoc();
  proto.label = label.text.str();
  consume(); // .callprototype
  if (tok.is(Token::LParen) && !parseParamList(proto.returns))
    return false;
  if (!tok.is(Token::Identifier) || tok.text != "_")
    return errorExpected("'_' in place of the function name in "
                         "'.callprototype'");
  consume();
  if (tok.is(Token::LParen) && !parseParamList(proto.params))
    return false;
  while (tok.isDot("noreturn"))
    consume();
  if (!expect(Token::Semi, "';' after '.callprototype'"))
    return false;
  module.prototypes.push_back(std::move(proto));
  return true;
}

bool Parser::parseVarDecls(StringRef linkage, SMLoc loc,
                           llvm::SmallVectorImpl<VarDecl> &decls) {
  VarDecl proto;
  proto.loc = loc;
  proto.linkage = linkage.str();
  Token spaceTok = tok;
  proto.space = tok.text.drop_front().split("::").first.str();
  consume();
  while (tok.is(Token::DotName)) {
    StringRef a = tok.text.drop_front();
    if (a == "align") {
      consume();
      uint64_t align = 0;
      if (!parseUInt(align, "an alignment after '.align'"))
        return false;
      proto.align = align;
      continue;
    }
    if (a == "v2" || a == "v4" || a == "v8") {
      proto.vectorWidth = a == "v2" ? 2 : a == "v4" ? 4 : 8;
      consume();
      continue;
    }
    if (a == "attribute") {
      if (!skipAttribute())
        return false;
      continue;
    }
    if (!proto.type.empty() || isStateSpace(a) || isLinkage(a))
      return errorAt(tok, "unexpected '" + tok.text + "' in the '" +
                              spaceTok.text + "' declaration");
    proto.type = a.str();
    consume();
  }
  if (proto.type.empty())
    return errorExpected("a type in the '" + spaceTok.text + "' declaration");

  while (true) {
    if (!tok.is(Token::Identifier) || tok.text == "_")
      return errorExpected("a variable name");
    VarDecl decl = proto;
    if (!decls.empty())
      decl.loc = tok.getLoc();
    decl.name = tok.text.str();
    consume();
    while (tok.is(Token::LBracket)) {
      consume();
      if (tok.is(Token::RBracket)) {
        decl.dims.push_back(std::nullopt);
        consume();
        continue;
      }
      Token dimTok = tok;
      int64_t dim = 0;
      if (!parseIntExpr(dim))
        return false;
      if (dim < 0)
        return errorAt(dimTok, "array size must not be negative");
      decl.dims.push_back(uint64_t(dim));
      if (!expect(Token::RBracket, "']' after the array size"))
        return false;
    }
    if (tok.is(Token::Less))
      return errorAt(tok, "parameterized names ('<N>') are only supported "
                          "in '.reg' declarations");
    if (tok.is(Token::Equal)) {
      consume();
      decl.hasInit = true;
      if (!parseInitializer(decl.init, 0))
        return false;
    }
    decls.push_back(std::move(decl));
    if (!tok.is(Token::Comma))
      break;
    consume();
  }
  return expect(Token::Semi,
                "';' after the declaration of '" + decls.back().name + "'");
}

bool Parser::parseInitializer(std::vector<Operand> &init, unsigned depth) {
  if (depth > kMaxNesting)
    return errorAt(tok, "initializer nested too deeply");
  if (!tok.is(Token::LBrace)) {
    Operand op;
    if (!parseInitElement(op))
      return false;
    init.push_back(std::move(op));
    return true;
  }
  consume(); // {
  if (tok.is(Token::RBrace)) {
    consume();
    return true;
  }
  while (true) {
    if (!parseInitializer(init, depth + 1))
      return false;
    if (tok.is(Token::Comma)) {
      consume();
      continue;
    }
    return expect(Token::RBrace, "',' or '}' in the initializer");
  }
}

bool Parser::parseInitElement(Operand &op) {
  op.loc = tok.getLoc();
  if (isFloatToken(tok) || (tok.is(Token::Minus) && isFloatToken(lexer.peek())))
    return parseFloatOperand(op);
  if (tok.is(Token::Identifier) && tok.text != "WARP_SZ") {
    // A variable's address: `sym`, `generic(sym)`, optionally `+ offset`
    // (kept in intValue).
    if (tok.text == "generic" && lexer.peek().is(Token::LParen)) {
      consume();
      consume();
      if (!tok.is(Token::Identifier))
        return errorExpected("a variable name in 'generic(...)'");
      op.name = tok.text.str();
      consume();
      if (!expect(Token::RParen, "')' after 'generic(" + op.name + "'"))
        return false;
    } else {
      op.name = tok.text.str();
      consume();
    }
    op.kind = Operand::Kind::Symbol;
    return parseSymbolOffset(op);
  }
  if (!isExpressionStart())
    return errorExpected("a constant in the initializer");
  op.kind = Operand::Kind::Integer;
  return parseIntExpr(op.intValue);
}

//===----------------------------------------------------------------------===//
// Function bodies
//===----------------------------------------------------------------------===//

bool Parser::parseFunctionBody(Function &fn) {
  fn.body = std::make_unique<Block>();
  fn.body->loc = tok.getLoc();
  consume(); // {
  currentLoc.reset();
  registerScopes.clear();
  plainRegisters.clear();
  pushRegisterScope();
  for (const std::vector<Param> *list : {&fn.params, &fn.returns})
    for (const Param &p : *list)
      if (p.space == "reg")
        declareRegister(p.name);

  // Blocks nest through an explicit stack, not recursion.
  llvm::SmallVector<Block *, 8> open{fn.body.get()};
  while (true) {
    Block &block = *open.back();
    switch (tok.kind) {
    case Token::RBrace:
      consume();
      popRegisterScope();
      open.pop_back();
      if (open.empty())
        return true;
      continue;
    case Token::LBrace: {
      if (open.size() >= kMaxBlockDepth)
        return errorAt(tok, "blocks nested too deeply (more than " +
                                Twine(kMaxBlockDepth) + " levels)");
      Statement &s = addStatement(block, Statement::Kind::Block, tok.getLoc());
      s.block = std::make_unique<Block>();
      s.block->loc = tok.getLoc();
      open.push_back(s.block.get());
      pushRegisterScope();
      consume();
      continue;
    }
    case Token::Eof:
      if (open.size() == 1)
        return error(tok.getLoc(), "unexpected end of file, expected '}' to "
                                   "close the body of function '" +
                                       fn.name + "'");
      return error(tok.getLoc(),
                   "unexpected end of file, expected '}' to close the block "
                   "opened at " +
                       lineColumn(block.loc) + " in function '" + fn.name +
                       "'");
    case Token::Semi:
      consume();
      continue;
    case Token::DotName:
      if (!parseBodyDirective(block))
        return false;
      continue;
    case Token::Identifier:
      if (lexer.peek().is(Token::Colon)) {
        Token label = tok;
        consume();
        consume();
        if (tok.isDot("callprototype")) {
          if (!parseCallPrototype(label))
            return false;
          continue;
        }
        Statement &s =
            addStatement(block, Statement::Kind::Label, label.getLoc());
        s.label = label.text.str();
        continue;
      }
      [[fallthrough]];
    case Token::At:
      if (!parseInstruction(block))
        return false;
      continue;
    default:
      return errorExpected("an instruction, a directive, a label or '}'");
    }
  }
}

bool Parser::parseBodyDirective(Block &block) {
  StringRef name = tok.text.drop_front();
  SMLoc loc = tok.getLoc();
  if (name == "reg") {
    Statement &s = addStatement(block, Statement::Kind::RegDecl, loc);
    s.regDecl = std::make_unique<RegDecl>();
    return parseRegDecl(*s.regDecl);
  }
  if (name == "loc")
    return parseLoc();
  if (name == "file")
    return parseFile();
  if (name == "pragma") {
    Statement &s = addStatement(block, Statement::Kind::Pragma, loc);
    s.pragma = std::make_unique<Pragma>();
    return parsePragma(s.pragma.get());
  }
  StringRef linkage;
  if (isLinkage(name)) {
    linkage = name;
    consume();
    if (!tok.is(Token::DotName) || !isStateSpace(tok.text.drop_front()))
      return errorExpected("a state space after '." + linkage + "'");
    name = tok.text.drop_front();
  }
  if (isStateSpace(name)) {
    llvm::SmallVector<VarDecl, 1> decls;
    if (!parseVarDecls(linkage, loc, decls))
      return false;
    for (VarDecl &d : decls) {
      Statement &s = addStatement(block, Statement::Kind::VarDecl, d.loc);
      s.varDecl = std::make_unique<VarDecl>(std::move(d));
    }
    return true;
  }
  if (name == "branchtargets" || name == "calltargets")
    // Jump tables: kept as an instruction whose opcode keeps its dot, so the
    // importer reports it as unsupported at the right place.
    return parseInstruction(block);
  if (name == "callprototype")
    return errorAt(tok, "'.callprototype' must follow a label ('name: "
                        ".callprototype ...')");
  unsigned minArgs = 0, maxArgs = 0;
  if (getPerformanceDirectiveArity(name, minArgs, maxArgs))
    return errorAt(tok,
                   "'" + tok.text + "' must appear before the function body");
  if (isTypeName(name))
    return errorAt(tok, "unexpected type '" + tok.text +
                            "'; a declaration starts with '.reg' or a state "
                            "space such as '.shared'");
  if (isKnownDirective(name))
    return errorAt(tok,
                   "'" + tok.text + "' is not allowed inside a function body");
  return errorAt(tok, "unknown directive '" + tok.text + "'");
}

bool Parser::parseRegDecl(RegDecl &decl) {
  decl.loc = tok.getLoc();
  consume(); // .reg
  while (tok.is(Token::DotName)) {
    StringRef a = tok.text.drop_front();
    if (a == "v2" || a == "v4" || a == "v8")
      return errorAt(tok,
                     "vector registers ('" + tok.text + "') are not supported");
    if (!decl.type.empty())
      return errorAt(tok, "unexpected '" + tok.text +
                              "' after the register type '." + decl.type + "'");
    decl.type = a.str();
    consume();
  }
  if (decl.type.empty())
    return errorExpected("a register type after '.reg'");
  while (true) {
    if (!tok.is(Token::Identifier) || tok.text == "_")
      return errorExpected("a register name");
    StringRef name = tok.text;
    consume();
    if (tok.is(Token::Less)) {
      // `%r<100>` declares %r0 ... %r99 (ISA #parameterized-variable-names).
      consume();
      if (!tok.is(Token::Integer))
        return errorExpected("a register count in '" + name + "<N>'");
      uint64_t count = tok.value;
      if (count > kMaxRegisterRange ||
          registersDeclared + count > kMaxRegistersPerModule)
        return errorAt(tok, "register range '" + name + "<" + tok.text +
                                ">' is too large");
      consume();
      if (!expect(Token::Greater,
                  "'>' to close the register range '" + name + "<N>'"))
        return false;
      registersDeclared += count;
      decl.names.reserve(decl.names.size() + count);
      std::string reg = name.str();
      for (uint64_t i = 0; i < count; ++i) {
        reg.resize(name.size());
        reg += llvm::utostr(i);
        decl.names.push_back(reg);
        declareRegister(reg);
      }
    } else {
      if (tok.is(Token::LBracket))
        return errorAt(tok, "register arrays are not supported");
      ++registersDeclared;
      decl.names.push_back(name.str());
      declareRegister(name);
    }
    if (!tok.is(Token::Comma))
      break;
    consume();
  }
  return expect(Token::Semi, "',' or ';' in the register declaration");
}

bool Parser::parseInstruction(Block &block) {
  const char *start = tok.text.data();
  auto inst = std::make_unique<Instruction>();
  inst->loc = tok.getLoc();
  inst->debugLoc = currentLoc;

  if (tok.is(Token::At)) {
    Guard guard;
    guard.loc = tok.getLoc();
    consume();
    if (tok.is(Token::Bang)) {
      guard.negated = true;
      consume();
    }
    if (!tok.is(Token::Identifier))
      return errorExpected("a predicate register after '@'");
    guard.name = tok.text.str();
    consume();
    inst->guard = std::move(guard);
  }

  if (tok.is(Token::DotName) &&
      (tok.isDot("branchtargets") || tok.isDot("calltargets"))) {
    inst->opcode = tok.text.str();
  } else {
    if (!tok.is(Token::Identifier) || !llvm::isAlpha(tok.text.front()))
      return errorExpected("an instruction opcode");
    inst->opcode = tok.text.str();
  }
  consume();
  while (tok.is(Token::DotName)) {
    inst->modifiers.push_back(tok.text.drop_front().str());
    consume();
  }
  if (!tok.is(Token::Semi)) {
    while (true) {
      Operand op;
      if (!parseOperand(op, /*allowCompound=*/true))
        return false;
      inst->operands.push_back(std::move(op));
      if (!tok.is(Token::Comma))
        break;
      consume();
    }
    if (!tok.is(Token::Semi))
      return errorExpected("',' or ';' after operand of '" + inst->opcode +
                           "'");
  }
  inst->text = StringRef(start, prevEnd - start);
  consume(); // ;
  Statement &s = addStatement(block, Statement::Kind::Instruction, inst->loc);
  s.instruction = std::move(inst);
  return true;
}

//===----------------------------------------------------------------------===//
// Operands
//===----------------------------------------------------------------------===//

bool Parser::parseOperand(Operand &op, bool allowCompound) {
  op.loc = tok.getLoc();
  switch (tok.kind) {
  case Token::LBrace:
    if (!allowCompound)
      return errorAt(tok, "brace lists cannot be nested");
    return parseVector(op);
  case Token::LBracket:
    if (!allowCompound)
      return errorAt(tok, "an address cannot appear inside a list");
    return parseAddress(op);
  case Token::LParen:
    if (!allowCompound)
      return errorAt(tok, "parenthesized lists cannot be nested");
    return parseParenList(op);
  case Token::Identifier:
    if (tok.text == "_") {
      op.kind = Operand::Kind::Sink;
      consume();
      // `_|p`: elect.sync's sink lane with a predicate destination.
      if (tok.is(Token::Pipe)) {
        consume();
        if (!tok.is(Token::Identifier))
          return errorExpected("a predicate register after '|'");
        op.secondName = tok.text.str();
        consume();
      }
      return true;
    }
    if (tok.text != "WARP_SZ")
      return parseNamedOperand(op);
    break;
  case Token::Bang: {
    Token next = lexer.peek();
    if (next.is(Token::Identifier) && next.text != "WARP_SZ") {
      consume();
      op.kind = Operand::Kind::Register;
      op.negated = true;
      op.name = tok.text.str();
      consume();
      return true;
    }
    break;
  }
  case Token::FloatF32:
  case Token::FloatF64:
  case Token::DecimalFloat:
    return parseFloatOperand(op);
  case Token::Minus:
    if (isFloatToken(lexer.peek()))
      return parseFloatOperand(op);
    break;
  default:
    break;
  }
  if (!isExpressionStart())
    return errorExpected("an operand");
  op.kind = Operand::Kind::Integer;
  return parseIntExpr(op.intValue);
}

bool Parser::parseNamedOperand(Operand &op) {
  StringRef name = tok.text;
  const char *nameEnd = tok.end();
  consume();
  op.name = name.str();
  // A vector special register's component: `%tid.x`, `%ctaid.y`.
  if (tok.is(Token::DotName) && tok.text.data() == nameEnd) {
    op.name += tok.text.str();
    consume();
  }
  // Dual destination `d|p` (setp, shfl.sync, elect.sync).
  if (tok.is(Token::Pipe)) {
    consume();
    if (!tok.is(Token::Identifier))
      return errorExpected("a predicate register after '|'");
    op.kind = Operand::Kind::Register;
    op.secondName = tok.text.str();
    consume();
    return true;
  }
  if (isRegisterName(name)) {
    op.kind = Operand::Kind::Register;
    return true;
  }
  op.kind = Operand::Kind::Symbol;
  return parseSymbolOffset(op);
}

bool Parser::parseSymbolOffset(Operand &op) {
  // `sym+8` / `sym-8`: the offset is kept in intValue.
  if (!tok.is(Token::Plus) && !tok.is(Token::Minus))
    return true;
  bool negate = tok.is(Token::Minus);
  consume();
  int64_t offset = 0;
  if (!parseIntExpr(offset))
    return false;
  op.intValue = negate ? int64_t(0 - uint64_t(offset)) : offset;
  return true;
}

bool Parser::parseFloatOperand(Operand &op) {
  bool negate = false;
  if (tok.is(Token::Minus)) {
    negate = true;
    consume();
  }
  bool isF32 = tok.is(Token::FloatF32);
  op.kind = isF32 ? Operand::Kind::FloatF32 : Operand::Kind::FloatF64;
  op.floatBits = tok.value;
  if (negate)
    op.floatBits ^= isF32 ? (uint64_t(1) << 31) : (uint64_t(1) << 63);
  consume();
  return true;
}

bool Parser::parseVector(Operand &op) {
  op.kind = Operand::Kind::Vector;
  consume(); // {
  while (true) {
    Operand element;
    if (!parseOperand(element, /*allowCompound=*/false))
      return false;
    op.elements.push_back(std::move(element));
    if (tok.is(Token::Comma)) {
      consume();
      continue;
    }
    return expect(Token::RBrace, "',' or '}' in the brace list");
  }
}

bool Parser::parseParenList(Operand &op) {
  op.kind = Operand::Kind::ParenList;
  consume(); // (
  if (tok.is(Token::RParen)) {
    consume();
    return true;
  }
  while (true) {
    Operand element;
    if (!parseOperand(element, /*allowCompound=*/false))
      return false;
    op.elements.push_back(std::move(element));
    if (tok.is(Token::Comma)) {
      consume();
      continue;
    }
    return expect(Token::RParen, "',' or ')' in the parenthesized list");
  }
}

bool Parser::parseAddress(Operand &op) {
  op.kind = Operand::Kind::Address;
  consume(); // [
  if (tok.is(Token::Identifier) && tok.text != "WARP_SZ") {
    op.name = tok.text.str();
    op.baseIsSymbol = !isRegisterName(tok.text);
    consume();
    if (tok.is(Token::Plus) || tok.is(Token::Minus)) {
      // `[%rd2+-636]`, `[%rd2+ -636]`, `[%rd2-8]`, `[sym+16]`.
      bool negate = tok.is(Token::Minus);
      consume();
      int64_t offset = 0;
      if (!parseIntExpr(offset))
        return false;
      op.intValue = negate ? int64_t(0 - uint64_t(offset)) : offset;
    } else if (tok.is(Token::Comma)) {
      // TMA / texture form `[tmap, {c0, c1, ...}]`: the coordinates become
      // the address's elements.
      consume();
      if (!tok.is(Token::LBrace))
        return errorExpected("'{' to start the coordinate list");
      Operand coords;
      if (!parseVector(coords))
        return false;
      op.elements = std::move(coords.elements);
    }
  } else {
    if (!isExpressionStart())
      return errorExpected("a register, a variable or an integer address");
    if (!parseIntExpr(op.intValue))
      return false;
  }
  return expect(Token::RBracket, "']' to close the address");
}

//===----------------------------------------------------------------------===//
// Constant expressions
//===----------------------------------------------------------------------===//

bool Parser::parseUnary(uint64_t &value, unsigned depth) {
  if (depth > kMaxNesting)
    return errorAt(tok, "constant expression nested too deeply");
  switch (tok.kind) {
  case Token::Integer:
    value = tok.value;
    consume();
    return true;
  case Token::Identifier:
    if (tok.text == "WARP_SZ") {
      value = 32;
      consume();
      return true;
    }
    break;
  case Token::Minus:
  case Token::Plus:
  case Token::Tilde:
  case Token::Bang: {
    Token::Kind op = tok.kind;
    consume();
    if (!parseUnary(value, depth + 1))
      return false;
    if (op == Token::Minus)
      value = 0 - value;
    else if (op == Token::Tilde)
      value = ~value;
    else if (op == Token::Bang)
      value = value == 0;
    return true;
  }
  case Token::LParen:
    consume();
    if (!parseExpr(value, depth + 1))
      return false;
    return expect(Token::RParen, "')' in the constant expression");
  case Token::FloatF32:
  case Token::FloatF64:
  case Token::DecimalFloat:
    return errorAt(tok, "a floating-point literal is not allowed in an "
                        "integer constant expression");
  default:
    break;
  }
  return errorExpected("an integer constant");
}

bool Parser::parseBinaryRHS(int minPrec, uint64_t &lhs, unsigned depth) {
  while (true) {
    int prec = binaryPrecedence(tok.kind);
    if (prec < minPrec)
      return true;
    Token op = tok;
    consume();
    uint64_t rhs = 0;
    if (!parseUnary(rhs, depth))
      return false;
    while (binaryPrecedence(tok.kind) > prec)
      if (!parseBinaryRHS(prec + 1, rhs, depth))
        return false;
    if (!applyBinary(op, lhs, rhs))
      return false;
  }
}

bool Parser::applyBinary(const Token &op, uint64_t &lhs, uint64_t rhs) {
  // Signed 64-bit arithmetic with wrap-around (ISA 4.6.2), computed on
  // unsigned values to avoid undefined behaviour.
  int64_t sl = int64_t(lhs), sr = int64_t(rhs);
  switch (op.kind) {
  case Token::Star:
    lhs = lhs * rhs;
    return true;
  case Token::Slash:
  case Token::Percent:
    if (rhs == 0)
      return errorAt(op, "division by zero in constant expression");
    if (sr == -1) {
      lhs = op.is(Token::Slash) ? 0 - lhs : 0;
      return true;
    }
    lhs = uint64_t(op.is(Token::Slash) ? sl / sr : sl % sr);
    return true;
  case Token::Plus:
    lhs = lhs + rhs;
    return true;
  case Token::Minus:
    lhs = lhs - rhs;
    return true;
  case Token::Shl:
    lhs = rhs >= 64 ? 0 : lhs << rhs;
    return true;
  case Token::Shr:
    lhs = rhs >= 64 ? (sl < 0 ? ~uint64_t(0) : 0)
                    : uint64_t(sl < 0 ? ~(~lhs >> rhs) : lhs >> rhs);
    return true;
  case Token::Amp:
    lhs &= rhs;
    return true;
  case Token::Caret:
    lhs ^= rhs;
    return true;
  case Token::Pipe:
    lhs |= rhs;
    return true;
  default:
    return errorAt(op, "unexpected operator in constant expression");
  }
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

bool kproof::ptx::parsePTX(llvm::SourceMgr &sourceMgr, unsigned bufferID,
                           Module &module, DiagnosticFn emitDiagnostic) {
  Parser parser(sourceMgr, bufferID, module, emitDiagnostic);
  return parser.parseModule();
}

bool kproof::ptx::looksLikePTX(StringRef text) {
  const char *p = skipPTXWhitespaceAndComments(text);
  StringRef rest(p, text.end() - p);
  if (!rest.starts_with(".version"))
    return false;
  rest = rest.drop_front(strlen(".version"));
  return rest.empty() ||
         (!isPTXIdentifierChar(rest.front()) && rest.front() != ':');
}
