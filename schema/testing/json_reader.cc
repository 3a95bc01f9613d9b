#include "schema/testing/json_reader.h"

#include <cstdlib>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "ir/json_string.h"

namespace onnx_opt::schema::testing {

const std::string& JsonValue::Empty() {
  static const std::string* const empty = new std::string;
  return *empty;
}

bool JsonValue::is_integer() const {
  return kind_ == Kind::kNumber && text_.find_first_of(".eE") == std::string::npos;
}

int64_t JsonValue::int_value() const {
  int64_t v = 0;
  if (!is_integer() || !absl::SimpleAtoi(text_, &v)) return 0;
  return v;
}

double JsonValue::double_value() const {
  // strtod rounds correctly; the grammar was checked by the parser.
  return kind_ == Kind::kNumber ? std::strtod(text_.c_str(), nullptr) : 0.0;
}

const JsonValue& JsonValue::operator[](std::string_view key) const {
  static const JsonValue* const null_value = new JsonValue;
  if (kind_ != Kind::kObject) return *null_value;
  for (size_t i = 0; i < keys_.size(); ++i) {
    if (keys_[i] == key) return items_[i];
  }
  return *null_value;
}

bool JsonValue::has(std::string_view key) const {
  if (kind_ != Kind::kObject) return false;
  for (const std::string& k : keys_) {
    if (k == key) return true;
  }
  return false;
}

std::string JsonValue::ToString() const {
  switch (kind_) {
    case Kind::kNull:
      return "null";
    case Kind::kBool:
      return bool_ ? "true" : "false";
    case Kind::kNumber:
      return text_;
    case Kind::kString: {
      std::string out;
      ir::AppendJsonString(out, text_);
      return out;
    }
    case Kind::kArray: {
      std::string out = "[";
      for (size_t i = 0; i < items_.size(); ++i) {
        if (i > 0) out += ",";
        out += items_[i].ToString();
      }
      return out + "]";
    }
    case Kind::kObject: {
      std::string out = "{";
      for (size_t i = 0; i < items_.size(); ++i) {
        if (i > 0) out += ",";
        ir::AppendJsonString(out, keys_[i]);
        out += ":" + items_[i].ToString();
      }
      return out + "}";
    }
  }
  return "";
}

// Recursive descent over the RFC 8259 grammar.
class JsonParser {
 public:
  explicit JsonParser(std::string_view text) : text_(text) {}

  absl::StatusOr<JsonValue> ParseDocument() {
    JsonValue v;
    if (!ParseValue(v, 0)) return Error();
    SkipWhitespace();
    if (pos_ != text_.size()) {
      Fail("unexpected text after the JSON value");
      return Error();
    }
    return v;
  }

 private:
  // Deep enough for any real document, shallow enough not to overflow the stack.
  static constexpr int kMaxDepth = 512;

  bool Fail(std::string message) {
    if (error_.empty()) {
      error_ = std::move(message);
      error_pos_ = pos_;
    }
    return false;
  }

  absl::Status Error() const {
    size_t line = 1, column = 1;
    for (size_t i = 0; i < error_pos_ && i < text_.size(); ++i) {
      if (text_[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    return absl::InvalidArgumentError(
        absl::StrCat("JSON error at line ", line, ", column ", column, ": ", error_));
  }

  void SkipWhitespace() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' ||
                                   text_[pos_] == '\n' || text_[pos_] == '\r')) {
      ++pos_;
    }
  }

  bool Consume(std::string_view literal) {
    if (text_.substr(pos_, literal.size()) != literal) return false;
    pos_ += literal.size();
    return true;
  }

  bool ParseValue(JsonValue& out, int depth) {
    if (depth > kMaxDepth) return Fail("nesting too deep");
    SkipWhitespace();
    if (pos_ >= text_.size()) return Fail("unexpected end of input");
    const char c = text_[pos_];
    if (c == '{') return ParseObject(out, depth);
    if (c == '[') return ParseArray(out, depth);
    if (c == '"') {
      out.kind_ = JsonValue::Kind::kString;
      return ParseString(out.text_);
    }
    if (c == '-' || (c >= '0' && c <= '9')) return ParseNumber(out);
    if (Consume("true")) {
      out.kind_ = JsonValue::Kind::kBool;
      out.bool_ = true;
      return true;
    }
    if (Consume("false")) {
      out.kind_ = JsonValue::Kind::kBool;
      return true;
    }
    if (Consume("null")) return true;
    return Fail(absl::StrCat("unexpected character '", std::string(1, c), "'"));
  }

  bool ParseObject(JsonValue& out, int depth) {
    out.kind_ = JsonValue::Kind::kObject;
    ++pos_;  // '{'
    SkipWhitespace();
    if (Consume("}")) return true;
    while (true) {
      SkipWhitespace();
      if (pos_ >= text_.size() || text_[pos_] != '"') return Fail("expected a string key");
      std::string key;
      if (!ParseString(key)) return false;
      SkipWhitespace();
      if (!Consume(":")) return Fail("expected ':'");
      JsonValue value;
      if (!ParseValue(value, depth + 1)) return false;
      out.keys_.push_back(std::move(key));
      out.items_.push_back(std::move(value));
      SkipWhitespace();
      if (Consume("}")) return true;
      if (!Consume(",")) return Fail("expected ',' or '}'");
    }
  }

  bool ParseArray(JsonValue& out, int depth) {
    out.kind_ = JsonValue::Kind::kArray;
    ++pos_;  // '['
    SkipWhitespace();
    if (Consume("]")) return true;
    while (true) {
      JsonValue value;
      if (!ParseValue(value, depth + 1)) return false;
      out.items_.push_back(std::move(value));
      SkipWhitespace();
      if (Consume("]")) return true;
      if (!Consume(",")) return Fail("expected ',' or ']'");
    }
  }

  bool Digits() {
    const size_t start = pos_;
    while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') ++pos_;
    return pos_ > start;
  }

  // -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?, kept as text.
  bool ParseNumber(JsonValue& out) {
    const size_t start = pos_;
    Consume("-");
    if (Consume("0")) {
      if (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') {
        return Fail("leading zero in number");
      }
    } else if (!Digits()) {
      return Fail("expected digits");
    }
    if (Consume(".") && !Digits()) return Fail("expected digits after '.'");
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      ++pos_;
      if (!Consume("+")) Consume("-");
      if (!Digits()) return Fail("expected exponent digits");
    }
    out.kind_ = JsonValue::Kind::kNumber;
    out.text_ = std::string(text_.substr(start, pos_ - start));
    return true;
  }

  bool Hex4(uint32_t& out) {
    if (pos_ + 4 > text_.size()) return Fail("truncated \\u escape");
    out = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = text_[pos_++];
      out <<= 4;
      if (c >= '0' && c <= '9') {
        out |= c - '0';
      } else if (c >= 'a' && c <= 'f') {
        out |= c - 'a' + 10;
      } else if (c >= 'A' && c <= 'F') {
        out |= c - 'A' + 10;
      } else {
        return Fail("bad hex digit in \\u escape");
      }
    }
    return true;
  }

  static void AppendUtf8(std::string& out, uint32_t cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  bool ParseString(std::string& out) {
    ++pos_;  // '"'
    while (true) {
      if (pos_ >= text_.size()) return Fail("unterminated string");
      const char c = text_[pos_++];
      if (c == '"') return true;
      if (static_cast<unsigned char>(c) < 0x20) {
        --pos_;
        return Fail("control character in string");
      }
      if (c != '\\') {
        out += c;  // UTF-8 bytes pass through unchanged.
        continue;
      }
      if (pos_ >= text_.size()) return Fail("unterminated escape");
      const char e = text_[pos_++];
      switch (e) {
        case '"':
          out += '"';
          break;
        case '\\':
          out += '\\';
          break;
        case '/':
          out += '/';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          uint32_t cp;
          if (!Hex4(cp)) return false;
          if (cp >= 0xD800 && cp <= 0xDBFF) {  // high surrogate: a low one must follow
            uint32_t low;
            if (!Consume("\\u") || !Hex4(low) || low < 0xDC00 || low > 0xDFFF) {
              return Fail("unpaired surrogate in \\u escape");
            }
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
            return Fail("unpaired surrogate in \\u escape");
          }
          AppendUtf8(out, cp);
          break;
        }
        default:
          --pos_;
          return Fail("unknown escape");
      }
    }
  }

  std::string_view text_;
  size_t pos_ = 0;
  std::string error_;
  size_t error_pos_ = 0;
};

absl::StatusOr<JsonValue> ParseJson(std::string_view text) {
  return JsonParser(text).ParseDocument();
}

}  // namespace onnx_opt::schema::testing
