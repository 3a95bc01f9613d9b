// Tokens of the ONNX text syntax (internal to the parser).
#ifndef ONNX_OPT_IR_TEXT_LEXER_H_
#define ONNX_OPT_IR_TEXT_LEXER_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace onnx_opt::ir::text::internal {

enum class TokenKind {
  kEnd,         // end of input
  kIdentifier,  // [A-Za-z_][A-Za-z0-9_]*
  kString,      // "..." with escapes decoded
  kNumber,      // [+-]? digits [. digits*] [(e|E) [+-] digits]   or [+-](inf|infinity|nan)
  kPunct,       // one of ( ) [ ] { } < > , = : . @ ?
  kArrow,       // =>
  kError,       // stands for a lexical error (made by the parser, never by the lexer)
};

struct Token {
  TokenKind kind = TokenKind::kEnd;
  std::string text;  // identifier, decoded string, number as written, or the punctuation
  int line = 1;
  int column = 1;
  // kNumber: written as a floating-point literal (has '.', an exponent, or is inf/nan).
  bool is_float = false;

  bool Is(char punct) const {
    return kind == TokenKind::kPunct && text.size() == 1 && text[0] == punct;
  }
  // "'Y'", "string \"abc\"", "end of input", ... for error messages.
  std::string Describe() const;
};

// Produces the tokens of `input` one at a time, skipping white space and comments (# to end of
// line). After the last token it returns kEnd forever. Errors name the line and column; after an
// error the lexer returns that error forever.
class Lexer {
 public:
  explicit Lexer(std::string_view input) : in_(input) {}
  absl::StatusOr<Token> NextToken();

 private:
  absl::Status Error(int line, int column, const std::string& message) const;
  void Advance();
  void SkipSpaceAndComments();
  absl::Status LexString(Token& t);
  absl::Status LexNumber(Token& t);

  std::string_view in_;
  size_t pos_ = 0;
  int line_ = 1;
  int column_ = 1;
  absl::Status error_;
};

// True for the unquoted float words inf, infinity and nan (in any case).
bool IsFloatWord(std::string_view word);

// True for words that start a type: element type names (and "undefined"), seq, map, optional,
// sparse_tensor and opaque.
bool IsTypeKeyword(std::string_view word);

}  // namespace onnx_opt::ir::text::internal

#endif  // ONNX_OPT_IR_TEXT_LEXER_H_
