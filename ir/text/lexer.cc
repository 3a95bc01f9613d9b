#include "ir/text/lexer.h"

#include <cctype>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "ir/data_type.h"

namespace onnx_opt::ir::text::internal {
namespace {

bool IsIdStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool IsIdChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string CharName(char c) {
  const unsigned char u = static_cast<unsigned char>(c);
  if (u >= 0x21 && u < 0x7F) return absl::StrCat("'", std::string(1, c), "'");
  return absl::StrFormat("0x%02X", u);
}

}  // namespace

absl::Status Lexer::Error(int line, int column, const std::string& message) const {
  return absl::InvalidArgumentError(absl::StrCat(line, ":", column, ": ", message));
}

void Lexer::Advance() {
  if (in_[pos_] == '\n') {
    ++line_;
    column_ = 1;
  } else {
    ++column_;
  }
  ++pos_;
}

void Lexer::SkipSpaceAndComments() {
  while (pos_ < in_.size()) {
    const char c = in_[pos_];
    if (std::isspace(static_cast<unsigned char>(c))) {
      Advance();
    } else if (c == '#') {
      while (pos_ < in_.size() && in_[pos_] != '\n') Advance();
    } else {
      return;
    }
  }
}

absl::Status Lexer::LexString(Token& t) {
  Advance();  // opening quote
  std::string out;
  while (true) {
    if (pos_ >= in_.size()) return Error(t.line, t.column, "unterminated string literal");
    const char c = in_[pos_];
    if (c == '"') {
      Advance();
      break;
    }
    if (c != '\\') {
      out.push_back(c);
      Advance();
      continue;
    }
    const int esc_line = line_, esc_column = column_;
    Advance();
    if (pos_ >= in_.size()) return Error(t.line, t.column, "unterminated string literal");
    const char e = in_[pos_];
    Advance();
    switch (e) {
      case 'n':
        out.push_back('\n');
        break;
      case 't':
        out.push_back('\t');
        break;
      case 'r':
        out.push_back('\r');
        break;
      case '0':
        out.push_back('\0');
        break;
      case 'x': {
        int hi = pos_ < in_.size() ? HexValue(in_[pos_]) : -1;
        int lo = pos_ + 1 < in_.size() ? HexValue(in_[pos_ + 1]) : -1;
        if (hi < 0 || lo < 0) {
          return Error(esc_line, esc_column, "expected two hex digits after '\\x'");
        }
        Advance();
        Advance();
        out.push_back(static_cast<char>(hi * 16 + lo));
        break;
      }
      default:
        // \" \\ and, as in ONNX, any other escaped character stands for itself.
        out.push_back(e);
        break;
    }
  }
  t.text = std::move(out);
  return absl::OkStatus();
}

absl::Status Lexer::LexNumber(Token& t) {
  const size_t start = pos_;
  if (in_[pos_] == '-' || in_[pos_] == '+') Advance();
  if (pos_ < in_.size() && IsIdStart(in_[pos_])) {
    const size_t word_start = pos_;
    while (pos_ < in_.size() && IsIdChar(in_[pos_])) Advance();
    if (!IsFloatWord(in_.substr(word_start, pos_ - word_start))) {
      return Error(
          t.line, t.column,
          absl::StrCat("expected a number after '", std::string(1, in_[start]), "' but found '",
                       std::string(in_.substr(word_start, pos_ - word_start)), "'"));
    }
    t.is_float = true;
    t.text = std::string(in_.substr(start, pos_ - start));
    return absl::OkStatus();
  }
  if (pos_ >= in_.size() || !IsDigit(in_[pos_])) {
    return Error(t.line, t.column,
                 absl::StrCat("expected a number after '", std::string(1, in_[start]), "'"));
  }
  while (pos_ < in_.size() && IsDigit(in_[pos_])) Advance();
  if (pos_ < in_.size() && in_[pos_] == '.') {
    t.is_float = true;
    Advance();
    while (pos_ < in_.size() && IsDigit(in_[pos_])) Advance();
  }
  if (pos_ < in_.size() && (in_[pos_] == 'e' || in_[pos_] == 'E')) {
    t.is_float = true;
    Advance();
    if (pos_ < in_.size() && (in_[pos_] == '+' || in_[pos_] == '-')) Advance();
    if (pos_ >= in_.size() || !IsDigit(in_[pos_])) {
      return Error(t.line, t.column, "expected digits in the exponent of a number");
    }
    while (pos_ < in_.size() && IsDigit(in_[pos_])) Advance();
  }
  if (pos_ < in_.size() && IsIdChar(in_[pos_])) {
    return Error(line_, column_,
                 absl::StrCat("unexpected ", CharName(in_[pos_]), " after number '",
                              std::string(in_.substr(start, pos_ - start)), "'"));
  }
  t.text = std::string(in_.substr(start, pos_ - start));
  return absl::OkStatus();
}

absl::StatusOr<Token> Lexer::NextToken() {
  if (!error_.ok()) return error_;
  SkipSpaceAndComments();
  Token t;
  t.line = line_;
  t.column = column_;
  if (pos_ >= in_.size()) {
    t.kind = TokenKind::kEnd;
    return t;
  }
  const char c = in_[pos_];
  absl::Status status;
  if (IsIdStart(c)) {
    t.kind = TokenKind::kIdentifier;
    const size_t start = pos_;
    while (pos_ < in_.size() && IsIdChar(in_[pos_])) Advance();
    t.text = std::string(in_.substr(start, pos_ - start));
  } else if (c == '"') {
    t.kind = TokenKind::kString;
    status = LexString(t);
  } else if (IsDigit(c) || c == '-' || c == '+') {
    t.kind = TokenKind::kNumber;
    status = LexNumber(t);
  } else if (c == '=' && pos_ + 1 < in_.size() && in_[pos_ + 1] == '>') {
    t.kind = TokenKind::kArrow;
    t.text = "=>";
    Advance();
    Advance();
  } else if (std::string_view("()[]{}<>,=:.@?").find(c) != std::string_view::npos) {
    t.kind = TokenKind::kPunct;
    t.text = std::string(1, c);
    Advance();
  } else {
    status = Error(t.line, t.column, absl::StrCat("unexpected character ", CharName(c)));
  }
  if (!status.ok()) {
    error_ = status;
    return status;
  }
  return t;
}

bool IsFloatWord(std::string_view word) {
  const std::string lower = absl::AsciiStrToLower(absl::string_view(word.data(), word.size()));
  return lower == "inf" || lower == "infinity" || lower == "nan";
}

bool IsTypeKeyword(std::string_view word) {
  return word == "undefined" || word == "seq" || word == "map" || word == "optional" ||
         word == "sparse_tensor" || word == "opaque" || ParseDataTypeName(word).has_value();
}

std::string Token::Describe() const {
  switch (kind) {
    case TokenKind::kEnd:
      return "end of input";
    case TokenKind::kError:
      return "invalid input";
    case TokenKind::kString: {
      std::string shown = text.size() > 30 ? text.substr(0, 27) + "..." : text;
      for (char& c : shown) {
        if (static_cast<unsigned char>(c) < 0x20) c = ' ';
      }
      return absl::StrCat("string \"", shown, "\"");
    }
    default:
      return absl::StrCat("'", text, "'");
  }
}

}  // namespace onnx_opt::ir::text::internal
