//===- Lexer.cpp - the PTX lexer ------------------------------------------===//
//
// Part of kproof, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Lexer.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APInt.h"
#include "llvm/Support/Error.h"

using namespace kproof::ptx;

namespace {
bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isLetter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
int hexValue(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}
} // namespace

/// Skips whitespace and comments starting at `p`. Returns false (with `p` at
/// the `/*`) if a block comment is not terminated.
static bool skipTrivia(const char *&p, const char *end) {
  while (p < end) {
    char c = *p;
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
        c == '\v') {
      ++p;
      continue;
    }
    if (c == '/' && p + 1 < end && p[1] == '/') {
      p += 2;
      while (p < end && *p != '\n')
        ++p;
      continue;
    }
    if (c == '/' && p + 1 < end && p[1] == '*') {
      const char *q = p + 2;
      while (q + 1 < end && !(q[0] == '*' && q[1] == '/'))
        ++q;
      if (q + 1 >= end)
        return false;
      p = q + 2;
      continue;
    }
    break;
  }
  return true;
}

const char *kproof::ptx::skipPTXWhitespaceAndComments(llvm::StringRef text) {
  const char *p = text.begin();
  if (!skipTrivia(p, text.end()))
    return text.end();
  return p;
}

Token Lexer::makeError(const char *start, const char *&p,
                       const char *message) const {
  // Always make progress, even for an error at the current character.
  if (p == start && p < end)
    ++p;
  Token t;
  t.kind = Token::Error;
  t.text = llvm::StringRef(start, p - start);
  t.message = message;
  return t;
}

Token Lexer::lexFrom(const char *&p) const {
  if (!skipTrivia(p, end)) {
    const char *start = p;
    p = end;
    return makeError(start, p, "unterminated '/*' comment");
  }

  Token t;
  const char *start = p;
  auto finish = [&](Token::Kind kind) {
    t.kind = kind;
    t.text = llvm::StringRef(start, p - start);
    return t;
  };
  if (p == end)
    return finish(Token::Eof);

  char c = *p;
  // Identifiers: [a-zA-Z][a-zA-Z0-9_$]* or [_$%][a-zA-Z0-9_$]+ (ISA 4.3); a
  // lone `_` is the sink operand.
  if (isLetter(c)) {
    ++p;
    while (p < end && isPTXIdentifierChar(*p))
      ++p;
    return finish(Token::Identifier);
  }
  if (c == '_' || c == '$' || c == '%') {
    ++p;
    if (p < end && isPTXIdentifierChar(*p)) {
      while (p < end && isPTXIdentifierChar(*p))
        ++p;
      return finish(Token::Identifier);
    }
    if (c == '_')
      return finish(Token::Identifier);
    if (c == '%')
      return finish(Token::Percent);
    return makeError(start, p, "expected an identifier after '$'");
  }
  // Directives and modifiers: `.name`, where a name may start with a digit
  // (`.3d`) and contain `::` (`.mbarrier::complete_tx::bytes`).
  if (c == '.') {
    ++p;
    if (p >= end || !isPTXIdentifierChar(*p))
      return makeError(start, p,
                       "expected a directive or modifier name after '.'");
    while (p < end) {
      if (isPTXIdentifierChar(*p)) {
        ++p;
        continue;
      }
      if (*p == ':' && p + 2 < end && p[1] == ':' &&
          isPTXIdentifierChar(p[2])) {
        p += 2;
        continue;
      }
      break;
    }
    return finish(Token::DotName);
  }
  if (isDigit(c))
    return lexNumber(p);
  if (c == '"') {
    ++p;
    while (p < end && *p != '"' && *p != '\n') {
      if (*p == '\\' && p + 1 < end && p[1] != '\n')
        ++p;
      ++p;
    }
    if (p >= end || *p != '"')
      return makeError(start, p, "unterminated string literal");
    ++p;
    return finish(Token::String);
  }
  if (c == '#') {
    while (p < end && *p != '\n')
      ++p;
    return makeError(start, p,
                     "C preprocessor directives are not supported; run the "
                     "preprocessor first");
  }

  ++p;
  switch (c) {
  case '{':
    return finish(Token::LBrace);
  case '}':
    return finish(Token::RBrace);
  case '[':
    return finish(Token::LBracket);
  case ']':
    return finish(Token::RBracket);
  case '(':
    return finish(Token::LParen);
  case ')':
    return finish(Token::RParen);
  case ',':
    return finish(Token::Comma);
  case ';':
    return finish(Token::Semi);
  case ':':
    return finish(Token::Colon);
  case '@':
    return finish(Token::At);
  case '!':
    return finish(Token::Bang);
  case '+':
    return finish(Token::Plus);
  case '-':
    return finish(Token::Minus);
  case '*':
    return finish(Token::Star);
  case '/':
    return finish(Token::Slash);
  case '&':
    return finish(Token::Amp);
  case '|':
    return finish(Token::Pipe);
  case '^':
    return finish(Token::Caret);
  case '~':
    return finish(Token::Tilde);
  case '=':
    return finish(Token::Equal);
  case '<':
    if (p < end && *p == '<') {
      ++p;
      return finish(Token::Shl);
    }
    return finish(Token::Less);
  case '>':
    if (p < end && *p == '>') {
      ++p;
      return finish(Token::Shr);
    }
    return finish(Token::Greater);
  default:
    break;
  }
  return makeError(start, p, "invalid character in PTX input");
}

Token Lexer::lexNumber(const char *&p) const {
  const char *start = p;
  Token t;
  auto finish = [&](Token::Kind kind, uint64_t value) {
    t.kind = kind;
    t.text = llvm::StringRef(start, p - start);
    t.value = value;
    return t;
  };
  // Consumes the rest of a malformed literal so the error covers it.
  auto fail = [&](const char *message) {
    while (p < end && isPTXIdentifierChar(*p))
      ++p;
    return makeError(start, p, message);
  };
  // Integers take an optional `U` suffix and must not run into a name.
  auto finishInteger = [&](uint64_t value) {
    if (p < end && (*p == 'U' || *p == 'u'))
      ++p;
    if (p < end && isPTXIdentifierChar(*p))
      return fail("invalid character in integer literal");
    return finish(Token::Integer, value);
  };

  if (*p == '0' && p + 1 < end) {
    char prefix = p[1];
    if (prefix == 'x' || prefix == 'X') {
      p += 2;
      uint64_t value = 0;
      const char *digits = p;
      for (; p < end && hexValue(*p) >= 0; ++p) {
        if (value >> 60)
          return fail("integer literal does not fit in 64 bits");
        value = (value << 4) | hexValue(*p);
      }
      if (p == digits)
        return fail("expected hexadecimal digits after '0x'");
      return finishInteger(value);
    }
    if (prefix == 'b' || prefix == 'B') {
      p += 2;
      uint64_t value = 0;
      const char *digits = p;
      for (; p < end && (*p == '0' || *p == '1'); ++p) {
        if (value >> 63)
          return fail("integer literal does not fit in 64 bits");
        value = (value << 1) | (*p - '0');
      }
      if (p == digits)
        return fail("expected binary digits after '0b'");
      return finishInteger(value);
    }
    if (prefix == 'f' || prefix == 'F' || prefix == 'd' || prefix == 'D') {
      bool isF32 = prefix == 'f' || prefix == 'F';
      unsigned want = isF32 ? 8 : 16;
      p += 2;
      uint64_t bits = 0;
      unsigned count = 0;
      for (; p < end && hexValue(*p) >= 0; ++p, ++count)
        if (count < 16)
          bits = (bits << 4) | hexValue(*p);
      if (count != want || (p < end && isPTXIdentifierChar(*p)))
        return fail(isF32 ? "a '0f' float literal needs exactly 8 "
                            "hexadecimal digits"
                          : "a '0d' float literal needs exactly 16 "
                            "hexadecimal digits");
      return finish(isF32 ? Token::FloatF32 : Token::FloatF64, bits);
    }
  }

  // Decimal digits, then either a decimal float or an integer.
  while (p < end && isDigit(*p))
    ++p;
  const char *afterDigits = p;
  bool isFloat = false;
  if (p + 1 < end && *p == '.' && isDigit(p[1])) {
    isFloat = true;
  } else if (p < end && (*p == 'e' || *p == 'E')) {
    const char *q = p + 1;
    if (q < end && (*q == '+' || *q == '-'))
      ++q;
    isFloat = q < end && isDigit(*q);
  }
  if (isFloat) {
    if (*p == '.') {
      ++p;
      while (p < end && isDigit(*p))
        ++p;
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
      const char *q = p + 1;
      if (q < end && (*q == '+' || *q == '-'))
        ++q;
      if (q < end && isDigit(*q)) {
        p = q;
        while (p < end && isDigit(*p))
          ++p;
      }
    }
    if (p < end && isPTXIdentifierChar(*p))
      return fail("invalid character in floating-point literal");
    llvm::StringRef text(start, p - start);
    llvm::APFloat value(llvm::APFloat::IEEEdouble());
    auto status =
        value.convertFromString(text, llvm::APFloat::rmNearestTiesToEven);
    if (!status) {
      llvm::consumeError(status.takeError());
      return makeError(start, p, "malformed floating-point literal");
    }
    return finish(Token::DecimalFloat, value.bitcastToAPInt().getZExtValue());
  }

  llvm::StringRef digits(start, afterDigits - start);
  uint64_t value = 0;
  if (digits.size() > 1 && digits[0] == '0') {
    // Octal (ISA 4.5.1: a leading zero).
    for (char d : digits.drop_front()) {
      if (d > '7')
        return fail("invalid digit in octal integer literal");
      if (value >> 61)
        return fail("integer literal does not fit in 64 bits");
      value = (value << 3) | uint64_t(d - '0');
    }
    return finishInteger(value);
  }
  for (char d : digits) {
    uint64_t digit = d - '0';
    if (value > (UINT64_MAX - digit) / 10)
      return fail("integer literal does not fit in 64 bits");
    value = value * 10 + digit;
  }
  return finishInteger(value);
}
