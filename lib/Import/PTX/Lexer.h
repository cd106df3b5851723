//===- Lexer.h - PTX tokens and the hand-written lexer ----------*- C++ -*-===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Private to lib/Import/PTX. The lexer turns a PTX buffer into tokens whose
// text points into the buffer (no allocation per token). It never fails
// hard: malformed input (an unterminated string or comment, a bad number, a
// stray character, a `#` preprocessor line) becomes an Error token carrying a
// message, which the parser reports at the token's location.
//
// Grammar: PTX ISA 9.0 section 4 (comments 4.2, identifiers 4.3, constants
// 4.5), with modifiers that may contain `::` (`.shared::cta`).
//
//===----------------------------------------------------------------------===//

#ifndef KPROOF_LIB_IMPORT_PTX_LEXER_H
#define KPROOF_LIB_IMPORT_PTX_LEXER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

#include <cstdint>

namespace kproof::ptx {

/// One token. `text` is the token's exact spelling in the buffer (for an
/// Error token, the offending characters; for Eof, empty at the buffer end).
struct Token {
  enum Kind : uint8_t {
    Eof,
    /// Malformed input; `message` says why.
    Error,
    /// `foo`, `%r1`, `$L__BB0_3`, `_`, `__local_depot0` (ISA 4.3).
    Identifier,
    /// A directive or modifier: `.reg`, `.v4`, `.shared::cta`, `.3d`. The
    /// text includes the leading dot.
    DotName,
    /// An integer literal; `value` holds its 64-bit value.
    Integer,
    /// `0fXXXXXXXX`; `value` holds the f32 bits.
    FloatF32,
    /// `0dXXXXXXXXXXXXXXXX`; `value` holds the f64 bits.
    FloatF64,
    /// A decimal float such as `1.5` or `2e3`; `value` holds the f64 bits.
    DecimalFloat,
    /// `"..."`, text including the quotes.
    String,
    LBrace,
    RBrace,
    LBracket,
    RBracket,
    LParen,
    RParen,
    Comma,
    Semi,
    Colon,
    At,
    Bang,
    Plus,
    Minus,
    Star,
    Slash,
    Percent,
    Amp,
    Pipe,
    Caret,
    Tilde,
    Less,
    Greater,
    Shl,
    Shr,
    Equal,
  };

  Kind kind = Eof;
  llvm::StringRef text;
  /// Integer value or float bits, for the literal kinds.
  uint64_t value = 0;
  /// For Error tokens: what is wrong (a string literal).
  const char *message = nullptr;

  bool is(Kind k) const { return kind == k; }
  llvm::SMLoc getLoc() const {
    return llvm::SMLoc::getFromPointer(text.data());
  }
  /// One past the last character of the token.
  const char *end() const { return text.data() + text.size(); }
  /// True for a DotName spelled exactly `.name` (`name` without the dot).
  bool isDot(llvm::StringRef name) const {
    return kind == DotName && text.size() == name.size() + 1 &&
           text.drop_front() == name;
  }
};

/// Lexes a PTX buffer. Each call to lex() makes progress, so loops over
/// tokens terminate; after the end of the buffer lex() keeps returning Eof.
class Lexer {
public:
  /// `buffer` must outlive the lexer and every token it returns.
  explicit Lexer(llvm::StringRef buffer)
      : cur(buffer.begin()), end(buffer.end()) {}

  /// Returns the next token and advances past it.
  Token lex() { return lexFrom(cur); }

  /// Returns the next token without advancing.
  Token peek() const {
    const char *p = cur;
    return lexFrom(p);
  }

private:
  /// Lexes the token at or after `p` (skipping whitespace and comments) and
  /// moves `p` past it.
  Token lexFrom(const char *&p) const;
  Token lexNumber(const char *&p) const;
  Token makeError(const char *start, const char *&p, const char *message) const;

  const char *cur;
  const char *end;
};

/// True if `c` may continue an identifier (ISA 4.3: `[a-zA-Z0-9_$]`).
inline bool isPTXIdentifierChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_' || c == '$';
}

/// Returns the position of the first character of `text` that is neither
/// whitespace nor inside a comment (the end if none). Used by looksLikePTX.
const char *skipPTXWhitespaceAndComments(llvm::StringRef text);

} // namespace kproof::ptx

#endif // KPROOF_LIB_IMPORT_PTX_LEXER_H
