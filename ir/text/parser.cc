#include "ir/text/parser.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <deque>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "ir/attribute.h"
#include "ir/data_type.h"
#include "ir/function.h"
#include "ir/numeric/narrow_float.h"
#include "ir/status_macros.h"
#include "ir/text/float_conversions.h"
#include "ir/text/lexer.h"
#include "ir/text/printer.h"

namespace onnx_opt::ir::text {
namespace {

using internal::Lexer;
using internal::Token;
using internal::TokenKind;

struct Pos {
  int line = 0;
  int column = 0;
  bool operator<(const Pos& o) const { return line != o.line ? line < o.line : column < o.column; }
};

Pos PosOf(const Token& t) { return Pos{t.line, t.column}; }
std::string PosString(Pos p) { return absl::StrCat(p.line, ":", p.column); }

absl::Status ErrorAt(Pos p, const std::string& message) {
  return absl::InvalidArgumentError(absl::StrCat(PosString(p), ": ", message));
}

// Values defined in one graph (or function body), with where they were defined.
struct Scope {
  Graph* graph = nullptr;
  Scope* parent = nullptr;
  struct Definition {
    Value* value;
    Pos pos;
  };
  absl::flat_hash_map<std::string, Definition> defs;
};

// A use of a name, resolved once the whole text has been read.
struct Reference {
  enum class Kind { kNodeInput, kGraphOutput, kValueInfo };
  Kind kind;
  Scope* scope;
  std::string name;
  Pos pos;
  Node* node = nullptr;      // kNodeInput
  size_t index = 0;          // kNodeInput
  std::optional<Type> type;  // kGraphOutput, kValueInfo: the declared type
};

// One name in a list of node inputs or outputs ("" for an omitted one).
struct NameRef {
  std::string name;
  Pos pos;
};

// --- Literal conversion ------------------------------------------------------------------------

std::string_view NumberText(const Token& t) {
  std::string_view s = t.text;
  if (!s.empty() && s[0] == '+') s.remove_prefix(1);
  return s;
}

bool IsNumeric(const Token& t) {
  return t.kind == TokenKind::kNumber ||
         (t.kind == TokenKind::kIdentifier && internal::IsFloatWord(t.text));
}

template <typename F>
absl::StatusOr<F> TokenToFloating(const Token& t, const std::string& type_name) {
  if (!IsNumeric(t)) {
    return ErrorAt(PosOf(t), absl::StrCat("expected a number but found ", t.Describe()));
  }
  const std::string_view s = NumberText(t);
  F value{};
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec == std::errc::result_out_of_range) {
    // Subnormal results are reported out of range like overflow; decide from a wider type.
    long double wide = 0;
    auto [ptr2, ec2] = std::from_chars(s.data(), s.data() + s.size(), wide);
    if (ec2 == std::errc() && ptr2 == s.data() + s.size() && std::isfinite(wide) &&
        std::fabs(wide) <= static_cast<long double>(std::numeric_limits<F>::max())) {
      return static_cast<F>(wide);
    }
    return ErrorAt(PosOf(t), absl::StrCat("number '", t.text, "' is out of range for ", type_name));
  }
  if (ec != std::errc() || ptr != s.data() + s.size()) {
    return ErrorAt(PosOf(t), absl::StrCat("invalid number '", t.text, "'"));
  }
  return value;
}

absl::StatusOr<int64_t> TokenToInt64(const Token& t, const std::string& type_name) {
  if (t.kind != TokenKind::kNumber || t.is_float) {
    return ErrorAt(
        PosOf(t), absl::StrCat("expected an integer for ", type_name, " but found ", t.Describe()));
  }
  const std::string_view s = NumberText(t);
  int64_t value = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec == std::errc::result_out_of_range) {
    return ErrorAt(PosOf(t),
                   absl::StrCat("integer '", t.text, "' is out of range for ", type_name));
  }
  if (ec != std::errc() || ptr != s.data() + s.size()) {
    return ErrorAt(PosOf(t), absl::StrCat("invalid integer '", t.text, "'"));
  }
  return value;
}

absl::StatusOr<uint64_t> TokenToUint64(const Token& t, const std::string& type_name) {
  if (t.kind != TokenKind::kNumber || t.is_float) {
    return ErrorAt(
        PosOf(t), absl::StrCat("expected an integer for ", type_name, " but found ", t.Describe()));
  }
  const std::string_view s = NumberText(t);
  uint64_t value = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if ((!s.empty() && s[0] == '-') || ec == std::errc::result_out_of_range) {
    return ErrorAt(PosOf(t),
                   absl::StrCat("integer '", t.text, "' is out of range for ", type_name));
  }
  if (ec != std::errc() || ptr != s.data() + s.size()) {
    return ErrorAt(PosOf(t), absl::StrCat("invalid integer '", t.text, "'"));
  }
  return value;
}

template <typename T>
void AppendBytes(std::string& out, T value) {
  char buf[sizeof(T)];
  std::memcpy(buf, &value, sizeof(T));
  out.append(buf, sizeof(T));
}

// Integer element types: range and raw width in bits.
struct IntRange {
  int64_t min;
  int64_t max;
  int bits;
};

std::optional<IntRange> IntegerRange(DataType t) {
  switch (t) {
    case DataType::kInt8:
      return IntRange{-128, 127, 8};
    case DataType::kUint8:
      return IntRange{0, 255, 8};
    case DataType::kInt16:
      return IntRange{-32768, 32767, 16};
    case DataType::kUint16:
      return IntRange{0, 65535, 16};
    case DataType::kInt32:
      return IntRange{INT32_MIN, INT32_MAX, 32};
    case DataType::kUint32:
      return IntRange{0, UINT32_MAX, 32};
    case DataType::kInt64:
      return IntRange{INT64_MIN, INT64_MAX, 64};
    case DataType::kInt4:
      return IntRange{-8, 7, 4};
    case DataType::kUint4:
      return IntRange{0, 15, 4};
    case DataType::kInt2:
      return IntRange{-2, 1, 2};
    case DataType::kUint2:
      return IntRange{0, 3, 2};
    default:
      return std::nullopt;
  }
}

// Encodes the literals of a tensor constant one at a time into the raw little-endian layout (or the
// string list), so that large constants need no intermediate list of tokens.
class TensorDataEncoder {
 public:
  TensorDataEncoder(DataType type, Pos type_pos)
      : type_(type),
        type_name_(DataTypeName(type)),
        type_pos_(type_pos),
        range_(IntegerRange(type)) {
    bits_ = ElementBitWidth(type);
    if (range_.has_value()) bits_ = range_->bits;
    if (IsComplex(type)) bits_ /= 2;  // one literal per part
  }

  size_t count() const { return count_; }

  absl::Status Add(const Token& t) {
    ++count_;
    if (type_ == DataType::kString) {
      if (t.kind != TokenKind::kString) {
        return ErrorAt(PosOf(t), absl::StrCat("expected a string but found ", t.Describe()));
      }
      strings_.push_back(t.text);
      return absl::OkStatus();
    }
    switch (type_) {
      case DataType::kFloat:
      case DataType::kComplex64: {
        ASSIGN_OR_RETURN(float v, TokenToFloating<float>(t, type_name_));
        AppendBytes(bytes_, v);
        return absl::OkStatus();
      }
      case DataType::kDouble:
      case DataType::kComplex128: {
        ASSIGN_OR_RETURN(double v, TokenToFloating<double>(t, type_name_));
        AppendBytes(bytes_, v);
        return absl::OkStatus();
      }
      case DataType::kBool: {
        if (t.kind == TokenKind::kIdentifier && (t.text == "true" || t.text == "false")) {
          bytes_.push_back(t.text == "true" ? 1 : 0);
          return absl::OkStatus();
        }
        ASSIGN_OR_RETURN(int64_t v, TokenToInt64(t, type_name_));
        if (v < 0 || v > 1) {
          return ErrorAt(PosOf(t),
                         absl::StrCat("bool values are 0, 1, true or false, not ", t.text));
        }
        bytes_.push_back(static_cast<char>(v));
        return absl::OkStatus();
      }
      case DataType::kUint64: {
        ASSIGN_OR_RETURN(uint64_t v, TokenToUint64(t, type_name_));
        AppendBytes(bytes_, v);
        return absl::OkStatus();
      }
      default:
        break;
    }
    if (range_.has_value()) {
      ASSIGN_OR_RETURN(int64_t v, TokenToInt64(t, type_name_));
      if (v < range_->min || v > range_->max) {
        return ErrorAt(PosOf(t),
                       absl::StrCat("integer ", t.text, " is out of range for ", type_name_, " [",
                                    range_->min, ", ", range_->max, "]"));
      }
      AppendCode(static_cast<uint64_t>(v));
      return absl::OkStatus();
    }
    if (IsNarrowFloat(type_)) {
      ASSIGN_OR_RETURN(float v, TokenToFloating<float>(t, type_name_));
      absl::StatusOr<uint32_t> code = CheckedFloatToNarrowFloat(type_, v);
      if (!code.ok()) return ErrorAt(PosOf(t), std::string(code.status().message()));
      AppendCode(*code);
      return absl::OkStatus();
    }
    return ErrorAt(type_pos_,
                   absl::StrCat("cannot write tensor data of element type ", type_name_));
  }

  void Finish(Tensor& tensor) {
    if (type_ == DataType::kString) {
      tensor.mutable_strings() = std::move(strings_);
      tensor.set_storage(Tensor::Storage::kTyped);
      return;
    }
    tensor.SetRawData(std::move(bytes_));
    tensor.set_storage(Tensor::Storage::kRaw);
  }

 private:
  // Appends the low bits_ bits of `code` (little-endian; sub-byte elements packed low bits first).
  void AppendCode(uint64_t code) {
    if (bits_ >= 8) {
      for (int b = 0; b < bits_; b += 8) bytes_.push_back(static_cast<char>((code >> b) & 0xFF));
      return;
    }
    const uint64_t bit = (count_ - 1) * bits_;
    if (bit % 8 == 0) bytes_.push_back('\0');
    const uint32_t mask = (1u << bits_) - 1;
    bytes_.back() =
        static_cast<char>(static_cast<uint8_t>(bytes_.back()) | ((code & mask) << (bit % 8)));
  }

  DataType type_;
  std::string type_name_;
  Pos type_pos_;
  std::optional<IntRange> range_;
  int bits_ = 0;
  size_t count_ = 0;
  std::string bytes_;
  std::vector<std::string> strings_;
};

std::optional<AttributeKind> AttributeKindFromName(std::string_view name) {
  for (int k = 1; k <= 14; ++k) {
    if (AttributeKindName(static_cast<AttributeKind>(k)) == name)
      return static_cast<AttributeKind>(k);
  }
  return std::nullopt;
}

AttributeKind SingletonKind(AttributeKind k) {
  switch (k) {
    case AttributeKind::kFloats:
      return AttributeKind::kFloat;
    case AttributeKind::kInts:
      return AttributeKind::kInt;
    case AttributeKind::kStrings:
      return AttributeKind::kString;
    case AttributeKind::kTensors:
      return AttributeKind::kTensor;
    case AttributeKind::kGraphs:
      return AttributeKind::kGraph;
    case AttributeKind::kSparseTensors:
      return AttributeKind::kSparseTensor;
    case AttributeKind::kTypeProtos:
      return AttributeKind::kTypeProto;
    default:
      return k;
  }
}

AttributeKind ListKind(AttributeKind k) {
  switch (k) {
    case AttributeKind::kFloat:
      return AttributeKind::kFloats;
    case AttributeKind::kInt:
      return AttributeKind::kInts;
    case AttributeKind::kString:
      return AttributeKind::kStrings;
    case AttributeKind::kTensor:
      return AttributeKind::kTensors;
    case AttributeKind::kGraph:
      return AttributeKind::kGraphs;
    case AttributeKind::kSparseTensor:
      return AttributeKind::kSparseTensors;
    case AttributeKind::kTypeProto:
      return AttributeKind::kTypeProtos;
    default:
      return k;
  }
}

bool IsListKind(AttributeKind k) { return SingletonKind(k) != k; }

// One attribute value as written, before the attribute's kind is settled.
struct AttrValue {
  enum class Kind { kInt, kFloat, kString, kTensor, kGraph, kType, kRef, kSparse };
  Kind kind = Kind::kInt;
  Token token;  // where the value starts
  // Only the member of the value's kind is set (the heavy ones are allocated on demand).
  std::unique_ptr<Tensor> tensor;
  std::unique_ptr<Graph> graph;
  Type type;
  std::string ref;
  std::unique_ptr<SparseTensor> sparse;
};

AttributeKind NaturalKind(AttrValue::Kind k) {
  switch (k) {
    case AttrValue::Kind::kInt:
      return AttributeKind::kInt;
    case AttrValue::Kind::kFloat:
      return AttributeKind::kFloat;
    case AttrValue::Kind::kString:
      return AttributeKind::kString;
    case AttrValue::Kind::kTensor:
      return AttributeKind::kTensor;
    case AttrValue::Kind::kGraph:
      return AttributeKind::kGraph;
    case AttrValue::Kind::kType:
      return AttributeKind::kTypeProto;
    case AttrValue::Kind::kSparse:
      return AttributeKind::kSparseTensor;
    case AttrValue::Kind::kRef:
      return AttributeKind::kUndefined;
  }
  return AttributeKind::kUndefined;
}

std::string DescribeValueKind(AttrValue::Kind k) {
  if (k == AttrValue::Kind::kRef) return "a reference";
  if (k == AttrValue::Kind::kType) return "a type";
  return AttributeKindName(NaturalKind(k));
}

class Parser {
 public:
  explicit Parser(std::string_view text) : lexer_(text) {}

  // The lexer's error, if parsing stopped on it.
  template <typename T>
  absl::StatusOr<T> Result(absl::StatusOr<T> r) const {
    if (!r.ok() && reached_lex_error_) return lex_error_;
    return r;
  }

  absl::StatusOr<std::unique_ptr<Model>> ParseWholeModel() {
    auto model = std::make_unique<Model>();
    if (Peek().Is('<')) RETURN_IF_ERROR(ParseModelHeader(*model));
    ASSIGN_OR_RETURN(std::string name, QuotableId("a graph name"));
    ASSIGN_OR_RETURN(std::unique_ptr<Graph> graph, ParseGraphAfterName(std::move(name), nullptr));
    model->set_graph(std::move(graph));
    while (Peek().kind != TokenKind::kEnd) {
      ASSIGN_OR_RETURN(std::unique_ptr<Function> f, ParseFunction());
      model->mutable_functions().push_back(std::move(f));
    }
    RETURN_IF_ERROR(Finalize());
    return model;
  }

  absl::StatusOr<std::unique_ptr<Graph>> ParseWholeGraph() {
    ASSIGN_OR_RETURN(std::string name, QuotableId("a graph name"));
    ASSIGN_OR_RETURN(std::unique_ptr<Graph> graph, ParseGraphAfterName(std::move(name), nullptr));
    RETURN_IF_ERROR(ExpectEnd());
    RETURN_IF_ERROR(Finalize());
    return graph;
  }

  absl::StatusOr<Type> ParseWholeType() {
    ASSIGN_OR_RETURN(Type type, ParseType());
    RETURN_IF_ERROR(ExpectEnd());
    return type;
  }

 private:
  // --- Tokens ------------------------------------------------------------------------------------
  // Tokens are read on demand; at most two are looked at ahead. A lexical error becomes a kError
  // token, which nothing accepts; the lexer's message is then the one reported.
  void Fill(size_t ahead) {
    while (buf_.size() <= ahead) {
      if (!buf_.empty() &&
          (buf_.back().kind == TokenKind::kEnd || buf_.back().kind == TokenKind::kError)) {
        buf_.push_back(buf_.back());
        continue;
      }
      absl::StatusOr<Token> t = lexer_.NextToken();
      if (t.ok()) {
        buf_.push_back(std::move(*t));
      } else {
        lex_error_ = t.status();
        Token error;
        error.kind = TokenKind::kError;
        buf_.push_back(std::move(error));
      }
    }
    if (buf_.front().kind == TokenKind::kError) reached_lex_error_ = true;
  }
  const Token& Peek(size_t ahead = 0) {
    Fill(ahead);
    return buf_[ahead];
  }
  Token Next() {
    Fill(0);
    if (buf_.front().kind == TokenKind::kEnd || buf_.front().kind == TokenKind::kError)
      return buf_.front();
    Token t = std::move(buf_.front());
    buf_.pop_front();
    return t;
  }
  bool TryPunct(char c) {
    if (!Peek().Is(c)) return false;
    Next();
    return true;
  }
  absl::Status Expected(const std::string& what) {
    return ErrorAt(PosOf(Peek()),
                   absl::StrCat("expected ", what, " but found ", Peek().Describe()));
  }
  absl::Status ExpectPunct(char c) {
    if (TryPunct(c)) return absl::OkStatus();
    return Expected(absl::StrCat("'", std::string(1, c), "'"));
  }
  absl::Status ExpectArrow() {
    if (Peek().kind == TokenKind::kArrow) {
      Next();
      return absl::OkStatus();
    }
    return Expected("'=>'");
  }
  absl::Status ExpectEnd() {
    if (Peek().kind == TokenKind::kEnd) return absl::OkStatus();
    return Expected("end of input");
  }
  absl::StatusOr<std::string> Identifier(const std::string& what) {
    if (Peek().kind != TokenKind::kIdentifier) return Expected(what);
    return Next().text;
  }
  absl::StatusOr<std::string> QuotableId(const std::string& what) {
    if (Peek().kind != TokenKind::kIdentifier && Peek().kind != TokenKind::kString)
      return Expected(what);
    return Next().text;
  }
  absl::StatusOr<std::string> StringLiteral(const std::string& what) {
    if (Peek().kind != TokenKind::kString) return Expected(what);
    return Next().text;
  }
  absl::StatusOr<int64_t> Integer(const std::string& what) {
    if (Peek().kind != TokenKind::kNumber || Peek().is_float) return Expected(what);
    return TokenToInt64(Next(), "int64");
  }
  // id ('.' id)*
  absl::StatusOr<std::string> QualifiedId(const std::string& what) {
    ASSIGN_OR_RETURN(std::string id, Identifier(what));
    while (TryPunct('.')) {
      ASSIGN_OR_RETURN(std::string part, Identifier("a name after '.'"));
      absl::StrAppend(&id, ".", part);
    }
    return id;
  }
  bool AtType() {
    return Peek().kind == TokenKind::kIdentifier && internal::IsTypeKeyword(Peek().text);
  }

  // --- Headers -----------------------------------------------------------------------------------
  absl::StatusOr<std::vector<OpsetImport>> ParseOpsetList() {
    std::vector<OpsetImport> out;
    RETURN_IF_ERROR(ExpectPunct('['));
    if (TryPunct(']')) return out;
    do {
      OpsetImport imp;
      ASSIGN_OR_RETURN(imp.domain,
                       StringLiteral("a domain string such as \"\" or \"com.microsoft\""));
      RETURN_IF_ERROR(ExpectPunct(':'));
      ASSIGN_OR_RETURN(imp.version, Integer("an opset version"));
      out.push_back(std::move(imp));
    } while (TryPunct(','));
    RETURN_IF_ERROR(ExpectPunct(']'));
    return out;
  }

  absl::StatusOr<StringPairs> ParseStringPairs() {
    StringPairs out;
    RETURN_IF_ERROR(ExpectPunct('['));
    if (TryPunct(']')) return out;
    do {
      ASSIGN_OR_RETURN(std::string key, StringLiteral("a key string"));
      RETURN_IF_ERROR(ExpectPunct(':'));
      ASSIGN_OR_RETURN(std::string value, StringLiteral("a value string"));
      out.emplace_back(std::move(key), std::move(value));
    } while (TryPunct(','));
    RETURN_IF_ERROR(ExpectPunct(']'));
    return out;
  }

  // '<' key ':' value (',' key ':' value)* '>'; calls handle(key, key_pos) for each key.
  template <typename Handler>
  absl::Status ParseHeader(const std::string& what, Handler&& handle) {
    RETURN_IF_ERROR(ExpectPunct('<'));
    if (TryPunct('>')) return absl::OkStatus();
    absl::flat_hash_map<std::string, Pos> seen;
    do {
      const Pos key_pos = PosOf(Peek());
      ASSIGN_OR_RETURN(std::string key, Identifier(what));
      if (auto [it, inserted] = seen.try_emplace(key, key_pos); !inserted) {
        return ErrorAt(key_pos, absl::StrCat("'", key, "' is given twice (first at ",
                                             PosString(it->second), ")"));
      }
      RETURN_IF_ERROR(ExpectPunct(':'));
      RETURN_IF_ERROR(handle(key, key_pos));
    } while (TryPunct(','));
    return ExpectPunct('>');
  }

  absl::Status ParseModelHeader(Model& model) {
    return ParseHeader(
        "a model property", [&](const std::string& key, Pos key_pos) -> absl::Status {
          if (key == "ir_version") {
            ASSIGN_OR_RETURN(int64_t v, Integer("an IR version"));
            model.set_ir_version(v);
          } else if (key == "opset_import") {
            ASSIGN_OR_RETURN(model.mutable_opset_imports(), ParseOpsetList());
          } else if (key == "producer_name") {
            ASSIGN_OR_RETURN(std::string s, StringLiteral("a string"));
            model.set_producer_name(std::move(s));
          } else if (key == "producer_version") {
            ASSIGN_OR_RETURN(std::string s, StringLiteral("a string"));
            model.set_producer_version(std::move(s));
          } else if (key == "domain") {
            ASSIGN_OR_RETURN(std::string s, StringLiteral("a string"));
            model.set_domain(std::move(s));
          } else if (key == "model_version") {
            ASSIGN_OR_RETURN(int64_t v, Integer("a model version"));
            model.set_model_version(v);
          } else if (key == "doc_string") {
            ASSIGN_OR_RETURN(std::string s, StringLiteral("a string"));
            model.set_doc_string(std::move(s));
          } else if (key == "metadata_props") {
            ASSIGN_OR_RETURN(model.mutable_metadata_props(), ParseStringPairs());
          } else {
            return ErrorAt(key_pos,
                           absl::StrCat("unknown model property '", key,
                                        "' (expected ir_version, opset_import, producer_name, "
                                        "producer_version, domain, model_version, doc_string or "
                                        "metadata_props)"));
          }
          return absl::OkStatus();
        });
  }

  // --- Types -------------------------------------------------------------------------------------
  static std::optional<DataType> ElementType(std::string_view name) {
    if (name == "undefined") return DataType::kUndefined;
    return ParseDataTypeName(name);
  }

  absl::StatusOr<DataType> ParseElementType(const std::string& what) {
    if (Peek().kind == TokenKind::kIdentifier) {
      if (std::optional<DataType> dt = ElementType(Peek().text)) {
        Next();
        return *dt;
      }
    }
    return Expected(what);
  }

  // After an element type: nothing (a scalar), "[]" (unknown rank) or "[dims]".
  absl::StatusOr<std::optional<Shape>> ParseShapeSuffix() {
    if (!TryPunct('[')) return std::optional<Shape>(Shape());
    if (TryPunct(']')) return std::optional<Shape>();
    std::vector<Dim> dims;
    do {
      const Token& t = Peek();
      if (t.Is('?')) {
        Next();
        dims.push_back(Dim::Unknown());
      } else if (t.kind == TokenKind::kNumber && !t.is_float) {
        ASSIGN_OR_RETURN(int64_t v, TokenToInt64(Next(), "a dimension"));
        dims.push_back(Dim::Known(v));
      } else if (t.kind == TokenKind::kIdentifier || t.kind == TokenKind::kString) {
        dims.push_back(Dim::Symbolic(Next().text));
      } else {
        return Expected("a dimension (a number, a name or '?')");
      }
    } while (TryPunct(','));
    RETURN_IF_ERROR(ExpectPunct(']'));
    return std::optional<Shape>(Shape(std::move(dims)));
  }

  absl::StatusOr<Type> ParseType() {
    DepthGuard guard(this);
    if (depth_ > kMaxNesting) {
      return ErrorAt(PosOf(Peek()),
                     absl::StrCat("graphs and types nested more than ", kMaxNesting, " deep"));
    }
    const Token& t = Peek();
    if (t.kind != TokenKind::kIdentifier) return Expected("a type");
    if (std::optional<DataType> dt = ElementType(t.text)) {
      Next();
      ASSIGN_OR_RETURN(std::optional<Shape> shape, ParseShapeSuffix());
      return Type::Tensor(*dt, std::move(shape));
    }
    const std::string word = t.text;
    if (word == "seq" || word == "optional") {
      Next();
      RETURN_IF_ERROR(ExpectPunct('('));
      Type inner;
      if (!Peek().Is(')')) {
        ASSIGN_OR_RETURN(inner, ParseType());
      }
      RETURN_IF_ERROR(ExpectPunct(')'));
      return word == "seq" ? Type::Sequence(std::move(inner)) : Type::Optional(std::move(inner));
    }
    if (word == "map") {
      Next();
      RETURN_IF_ERROR(ExpectPunct('('));
      ASSIGN_OR_RETURN(DataType key, ParseElementType("a map key type such as int64 or string"));
      RETURN_IF_ERROR(ExpectPunct(','));
      ASSIGN_OR_RETURN(Type value, ParseType());
      RETURN_IF_ERROR(ExpectPunct(')'));
      return Type::Map(key, std::move(value));
    }
    if (word == "sparse_tensor") {
      Next();
      RETURN_IF_ERROR(ExpectPunct('('));
      ASSIGN_OR_RETURN(DataType elem, ParseElementType("an element type"));
      ASSIGN_OR_RETURN(std::optional<Shape> shape, ParseShapeSuffix());
      RETURN_IF_ERROR(ExpectPunct(')'));
      return Type::SparseTensor(elem, std::move(shape));
    }
    if (word == "opaque") {
      Next();
      RETURN_IF_ERROR(ExpectPunct('('));
      std::string domain, name;
      if (!TryPunct(')')) {
        std::string first;
        if (Peek().kind == TokenKind::kString) {
          first = Next().text;
        } else {
          ASSIGN_OR_RETURN(first, QualifiedId("an opaque type name"));
        }
        if (TryPunct(',')) {
          domain = std::move(first);
          ASSIGN_OR_RETURN(name, QuotableId("an opaque type name"));
        } else {
          name = std::move(first);
        }
        RETURN_IF_ERROR(ExpectPunct(')'));
      }
      return Type::Opaque(std::move(domain), std::move(name));
    }
    return Expected("a type");
  }

  // --- Tensor constants --------------------------------------------------------------------------
  // Checks that `type` can be the type of a tensor constant; returns its dims.
  static absl::StatusOr<std::vector<int64_t>> ConstantDims(const Type& type, Pos pos) {
    if (type.kind() != Type::Kind::kTensor) {
      return ErrorAt(pos,
                     absl::StrCat("a tensor constant needs a tensor type, not ", PrintType(type)));
    }
    std::vector<int64_t> dims;
    if (!type.shape().has_value()) {
      return ErrorAt(pos,
                     absl::StrCat("a tensor constant needs a shape with numeric dimensions, not ",
                                  PrintType(type)));
    }
    for (const Dim& d : type.shape()->dims()) {
      if (!d.is_known()) {
        return ErrorAt(
            pos, absl::StrCat("a tensor constant needs numeric dimensions, not ", PrintType(type)));
      }
      dims.push_back(d.value());
    }
    return dims;
  }

  // Reads what follows a constant's type and name: "{ values }", or (when `allow_external`)
  // '[' "key": "value", ... ']' for external data, or nothing (a tensor without data).
  absl::StatusOr<Tensor> ParseTensorData(const Type& type, Pos type_pos, std::string name,
                                         bool allow_external) {
    ASSIGN_OR_RETURN(std::vector<int64_t> dims, ConstantDims(type, type_pos));
    Tensor tensor(type.elem_type(), std::move(dims));
    tensor.set_name(std::move(name));
    if (allow_external && Peek().Is('[')) {
      ASSIGN_OR_RETURN(tensor.mutable_external_data(), ParseStringPairs());
      tensor.set_storage(Tensor::Storage::kExternal);
      return tensor;
    }
    if (!Peek().Is('{')) {
      tensor.set_storage(Tensor::Storage::kNone);
      return tensor;
    }
    const Pos open_pos = PosOf(Next());
    if (tensor.data_type() == DataType::kUndefined) {
      return ErrorAt(type_pos, "a tensor constant needs a known element type");
    }
    TensorDataEncoder encoder(tensor.data_type(), type_pos);
    if (!TryPunct('}')) {
      do {
        const Token& t = Peek();
        if (t.kind != TokenKind::kNumber && t.kind != TokenKind::kString &&
            t.kind != TokenKind::kIdentifier) {
          return Expected("a value");
        }
        RETURN_IF_ERROR(encoder.Add(t));
        Next();
      } while (TryPunct(','));
      RETURN_IF_ERROR(ExpectPunct('}'));
    }
    const std::optional<uint64_t> count = tensor.num_elements();
    const bool complex = IsComplex(tensor.data_type());
    if (!count.has_value() || encoder.count() != *count * (complex ? 2 : 1)) {
      const std::string shape = absl::StrCat(DataTypeName(tensor.data_type()), "[",
                                             absl::StrJoin(tensor.dims(), ","), "]");
      const size_t given = encoder.count();
      return ErrorAt(open_pos,
                     count.has_value()
                         ? absl::StrCat(shape, " needs ", *count * (complex ? 2 : 1),
                                        complex ? " numbers (real and imaginary parts)" : " values",
                                        " but ", given, given == 1 ? " is" : " are", " given")
                         : absl::StrCat(shape, " has an invalid number of elements"));
    }
    encoder.Finish(tensor);
    return tensor;
  }

  // tensor-constant ::= tensor-type quotable-id? '='? '{' values '}'
  absl::StatusOr<Tensor> ParseTensorConstant() {
    const Pos type_pos = PosOf(Peek());
    ASSIGN_OR_RETURN(Type type, ParseType());
    std::string name;
    if (Peek().kind == TokenKind::kIdentifier || Peek().kind == TokenKind::kString)
      name = Next().text;
    const bool eq = TryPunct('=');
    return ParseTensorData(type, type_pos, std::move(name), eq);
  }

  // After a sparse_tensor(...) type: '{' values-constant ',' indices-constant '}'.
  absl::StatusOr<SparseTensor> ParseSparseData(const Type& type, Pos type_pos) {
    if (!type.shape().has_value()) {
      return ErrorAt(type_pos, "a sparse tensor constant needs a shape with numeric dimensions");
    }
    SparseTensor sparse;
    for (const Dim& d : type.shape()->dims()) {
      if (!d.is_known())
        return ErrorAt(type_pos, "a sparse tensor constant needs numeric dimensions");
      sparse.dims.push_back(d.value());
    }
    RETURN_IF_ERROR(ExpectPunct('{'));
    ASSIGN_OR_RETURN(sparse.values, ParseTensorConstant());
    if (sparse.values.data_type() != type.elem_type()) {
      return ErrorAt(type_pos, absl::StrCat("the values of a sparse tensor of ",
                                            DataTypeName(type.elem_type()), " must be ",
                                            DataTypeName(type.elem_type())));
    }
    RETURN_IF_ERROR(ExpectPunct(','));
    ASSIGN_OR_RETURN(sparse.indices, ParseTensorConstant());
    RETURN_IF_ERROR(ExpectPunct('}'));
    return sparse;
  }

  // --- Attributes --------------------------------------------------------------------------------
  absl::StatusOr<AttrValue> ParseSingleAttrValue(Scope* scope, AttributeKind hint) {
    AttrValue v;
    v.token = Peek();
    const Token& t = v.token;
    if (t.Is('@')) {
      Next();
      v.kind = AttrValue::Kind::kRef;
      ASSIGN_OR_RETURN(v.ref, QuotableId("the name of the referenced attribute"));
      return v;
    }
    if (t.kind == TokenKind::kNumber) {
      Next();
      v.kind = t.is_float ? AttrValue::Kind::kFloat : AttrValue::Kind::kInt;
      return v;
    }
    if (t.kind == TokenKind::kString) {
      if (Peek(1).Is('(')) {  // a graph with a quoted name
        Next();
        v.kind = AttrValue::Kind::kGraph;
        ASSIGN_OR_RETURN(v.graph, ParseGraphAfterName(t.text, scope));
        return v;
      }
      Next();
      v.kind = AttrValue::Kind::kString;
      return v;
    }
    if (t.kind != TokenKind::kIdentifier) return Expected("an attribute value");
    if (internal::IsTypeKeyword(t.text)) {
      const Pos type_pos = PosOf(t);
      ASSIGN_OR_RETURN(v.type, ParseType());
      if (v.type.kind() == Type::Kind::kSparseTensor && Peek().Is('{')) {
        v.kind = AttrValue::Kind::kSparse;
        ASSIGN_OR_RETURN(SparseTensor sparse, ParseSparseData(v.type, type_pos));
        v.sparse = std::make_unique<SparseTensor>(std::move(sparse));
        return v;
      }
      const Token& n = Peek();
      if (n.Is('{') || n.Is('=') || n.kind == TokenKind::kIdentifier ||
          n.kind == TokenKind::kString || hint == AttributeKind::kTensor) {
        std::string name;
        if (n.kind == TokenKind::kIdentifier || n.kind == TokenKind::kString) name = Next().text;
        const bool eq = TryPunct('=');
        v.kind = AttrValue::Kind::kTensor;
        ASSIGN_OR_RETURN(Tensor tensor, ParseTensorData(v.type, type_pos, std::move(name), eq));
        v.tensor = std::make_unique<Tensor>(std::move(tensor));
        return v;
      }
      v.kind = AttrValue::Kind::kType;
      return v;
    }
    if (internal::IsFloatWord(t.text)) {
      Next();
      v.kind = AttrValue::Kind::kFloat;
      return v;
    }
    Next();
    v.kind = AttrValue::Kind::kGraph;
    ASSIGN_OR_RETURN(v.graph, ParseGraphAfterName(t.text, scope));
    return v;
  }

  // Stores one parsed value into `attr` (whose kind is settled and not a list kind), or into the
  // list of `attr` (list kinds).
  absl::Status StoreValue(AttrValue& v, Attribute& attr) {
    const AttributeKind want = SingletonKind(attr.kind());
    const bool list = IsListKind(attr.kind());
    const AttributeKind have = NaturalKind(v.kind);
    const bool int_as_float = have == AttributeKind::kInt && want == AttributeKind::kFloat;
    if (have != want && !int_as_float) {
      return ErrorAt(
          PosOf(v.token),
          absl::StrCat("attribute '", attr.name(), "' is of type ", AttributeKindName(attr.kind()),
                       " but this value is ", DescribeValueKind(v.kind)));
    }
    switch (want) {
      case AttributeKind::kInt: {
        ASSIGN_OR_RETURN(int64_t i, TokenToInt64(v.token, "int"));
        if (list)
          attr.ints.push_back(i);
        else
          attr.i = i;
        break;
      }
      case AttributeKind::kFloat: {
        ASSIGN_OR_RETURN(float f, TokenToFloating<float>(v.token, "float"));
        if (list)
          attr.floats.push_back(f);
        else
          attr.f = f;
        break;
      }
      case AttributeKind::kString:
        if (list)
          attr.strings.push_back(v.token.text);
        else
          attr.s = v.token.text;
        break;
      case AttributeKind::kTensor:
        if (list)
          attr.tensors.push_back(std::move(*v.tensor));
        else
          attr.t = std::move(*v.tensor);
        break;
      case AttributeKind::kGraph:
        if (list)
          attr.graphs.push_back(std::move(v.graph));
        else
          attr.g = std::move(v.graph);
        break;
      case AttributeKind::kTypeProto:
        if (list)
          attr.type_protos.push_back(std::move(v.type));
        else
          attr.tp = std::move(v.type);
        break;
      case AttributeKind::kSparseTensor:
        if (list) {
          attr.sparse_tensors.push_back(std::move(*v.sparse));
        } else {
          attr.sparse_tensor = std::move(*v.sparse);
        }
        break;
      default:
        return ErrorAt(PosOf(v.token), "unsupported attribute value");
    }
    return absl::OkStatus();
  }

  // attr ::= id (':' attr-type)? '=' (value | '[' values ']'); the name has been read.
  absl::StatusOr<Attribute> ParseAttributeAfterName(std::string name, Pos name_pos, Scope* scope) {
    AttributeKind declared = AttributeKind::kUndefined;
    if (TryPunct(':')) {
      const Pos kind_pos = PosOf(Peek());
      ASSIGN_OR_RETURN(std::string kind_name,
                       Identifier("an attribute type such as int or floats"));
      std::optional<AttributeKind> k = AttributeKindFromName(kind_name);
      if (!k.has_value()) {
        return ErrorAt(kind_pos, absl::StrCat("unknown attribute type '", kind_name,
                                              "' (expected float, int, string, tensor, graph, "
                                              "sparse_tensor, type_proto or a plural of one)"));
      }
      declared = *k;
    }
    RETURN_IF_ERROR(ExpectPunct('='));
    Attribute attr(name, declared);
    if (Peek().Is('[')) {
      const Pos open_pos = PosOf(Next());
      if (declared != AttributeKind::kUndefined && !IsListKind(declared)) {
        return ErrorAt(open_pos,
                       absl::StrCat("attribute '", name, "' is of type ",
                                    AttributeKindName(declared), " but its value is a list"));
      }
      std::vector<AttrValue> values;
      if (!Peek().Is(']')) {
        do {
          ASSIGN_OR_RETURN(AttrValue v, ParseSingleAttrValue(scope, SingletonKind(declared)));
          if (v.kind == AttrValue::Kind::kRef) {
            return ErrorAt(PosOf(v.token), "a reference (@name) cannot be an element of a list");
          }
          values.push_back(std::move(v));
        } while (TryPunct(','));
      }
      RETURN_IF_ERROR(ExpectPunct(']'));
      if (declared == AttributeKind::kUndefined) {
        if (values.empty()) {
          return ErrorAt(open_pos, absl::StrCat("an empty list needs its type: write '", name,
                                                ": ints = []' (or floats, strings, ...)"));
        }
        // Ints and floats mixed make floats; anything else must agree.
        AttributeKind elem = NaturalKind(values[0].kind);
        for (const AttrValue& v : values) {
          const AttributeKind k = NaturalKind(v.kind);
          if (k == elem) continue;
          if ((k == AttributeKind::kInt || k == AttributeKind::kFloat) &&
              (elem == AttributeKind::kInt || elem == AttributeKind::kFloat)) {
            elem = AttributeKind::kFloat;
            continue;
          }
          return ErrorAt(PosOf(v.token), absl::StrCat("list attribute '", name, "' mixes ",
                                                      DescribeValueKind(values[0].kind), " and ",
                                                      DescribeValueKind(v.kind), " values"));
        }
        attr.set_kind(ListKind(elem));
      }
      for (AttrValue& v : values) RETURN_IF_ERROR(StoreValue(v, attr));
      return attr;
    }
    ASSIGN_OR_RETURN(AttrValue v, ParseSingleAttrValue(scope, declared));
    if (v.kind == AttrValue::Kind::kRef) {
      attr.set_ref_attr_name(v.ref);
      return attr;
    }
    if (declared == AttributeKind::kUndefined) {
      attr.set_kind(NaturalKind(v.kind));
    } else if (IsListKind(declared)) {
      return ErrorAt(PosOf(v.token),
                     absl::StrCat("attribute '", name, "' is of type ", AttributeKindName(declared),
                                  " but its value is not a list; write [...]"));
    }
    RETURN_IF_ERROR(StoreValue(v, attr));
    return attr;
  }

  // '<' attr (',' attr)* '>'
  absl::Status ParseNodeAttributes(Node& node, Scope* scope) {
    RETURN_IF_ERROR(ExpectPunct('<'));
    do {
      const Pos name_pos = PosOf(Peek());
      ASSIGN_OR_RETURN(std::string name, QuotableId("an attribute name"));
      if (node.FindAttribute(name) != nullptr) {
        return ErrorAt(name_pos, absl::StrCat("duplicate attribute '", name, "'"));
      }
      ASSIGN_OR_RETURN(Attribute attr, ParseAttributeAfterName(name, name_pos, scope));
      node.SetAttribute(std::move(attr));
    } while (TryPunct(','));
    return ExpectPunct('>');
  }

  // --- Names and scopes --------------------------------------------------------------------------
  Scope* NewScope(Graph* graph, Scope* parent) {
    scopes_.push_back(std::make_unique<Scope>());
    Scope* s = scopes_.back().get();
    s->graph = graph;
    s->parent = parent;
    return s;
  }

  static absl::Status Define(Scope* scope, const std::string& name, Value* v, Pos pos) {
    if (name.empty()) return absl::OkStatus();
    auto [it, inserted] = scope->defs.try_emplace(name, Scope::Definition{v, pos});
    if (!inserted) {
      return ErrorAt(pos, absl::StrCat("duplicate definition of '", name, "' (first defined at ",
                                       PosString(it->second.pos), ")"));
    }
    return absl::OkStatus();
  }

  // Names separated by commas up to `close` (not consumed). An empty place before a comma is an
  // omitted name; a trailing comma is ignored.
  absl::StatusOr<std::vector<NameRef>> ParseNameList(char close, const std::string& what) {
    std::vector<NameRef> out;
    while (true) {
      const Token& t = Peek();
      if (t.Is(close)) return out;
      if (t.Is(',')) {
        out.push_back({"", PosOf(t)});
        Next();
        continue;
      }
      if (t.kind != TokenKind::kIdentifier && t.kind != TokenKind::kString) return Expected(what);
      out.push_back({t.text, PosOf(t)});
      Next();
      if (Peek().Is(close)) return out;
      if (!TryPunct(',')) return Expected(absl::StrCat("',' or '", std::string(1, close), "'"));
    }
  }

  // --- Graphs ------------------------------------------------------------------------------------
  // graph ::= name input-list '=>' output-list initializer-list? node-list; the name has been read.
  absl::StatusOr<std::unique_ptr<Graph>> ParseGraphAfterName(std::string name, Scope* parent) {
    DepthGuard guard(this);
    if (depth_ > kMaxNesting) {
      return ErrorAt(PosOf(Peek()),
                     absl::StrCat("graphs and types nested more than ", kMaxNesting, " deep"));
    }
    auto graph = std::make_unique<Graph>(std::move(name));
    Scope* scope = NewScope(graph.get(), parent);
    RETURN_IF_ERROR(ExpectPunct('('));
    if (!TryPunct(')')) {
      do {
        RETURN_IF_ERROR(ParseGraphInput(scope, /*allow_default=*/true));
      } while (TryPunct(','));
      RETURN_IF_ERROR(ExpectPunct(')'));
    }
    RETURN_IF_ERROR(ExpectArrow());
    RETURN_IF_ERROR(ParseOutputs(scope));
    if (Peek().Is('<')) RETURN_IF_ERROR(ParseValueInfoBlock(scope, /*allow_initializers=*/true));
    RETURN_IF_ERROR(ParseNodeList(scope));
    return graph;
  }

  // type? name ('=' constant-data)?
  absl::Status ParseGraphInput(Scope* scope, bool allow_default) {
    std::optional<Type> type;
    const Pos type_pos = PosOf(Peek());
    if (AtType()) {
      ASSIGN_OR_RETURN(type, ParseType());
    }
    const Pos name_pos = PosOf(Peek());
    ASSIGN_OR_RETURN(std::string name,
                     QuotableId(type ? "an input name" : "an input (a type and a name)"));
    Value* v = scope->graph->AddInput(name, type.value_or(Type()));
    RETURN_IF_ERROR(Define(scope, name, v, name_pos));
    if (Peek().Is('=') && allow_default) {
      const Token& eq = Next();
      if (!type)
        return ErrorAt(PosOf(eq),
                       absl::StrCat("input '", name, "' needs a type to have a default value"));
      ASSIGN_OR_RETURN(Tensor t, ParseTensorData(*type, type_pos, name, /*allow_external=*/true));
      scope->graph->SetInitializer(v, std::move(t));
    }
    return absl::OkStatus();
  }

  // '(' (type? name (',' type? name)*)? ')'
  absl::Status ParseOutputs(Scope* scope) {
    RETURN_IF_ERROR(ExpectPunct('('));
    if (TryPunct(')')) return absl::OkStatus();
    do {
      Reference ref;
      ref.kind = Reference::Kind::kGraphOutput;
      ref.scope = scope;
      if (AtType()) {
        ASSIGN_OR_RETURN(ref.type, ParseType());
      }
      ref.pos = PosOf(Peek());
      ASSIGN_OR_RETURN(ref.name, QuotableId("an output name"));
      refs_.push_back(std::move(ref));
    } while (TryPunct(','));
    return ExpectPunct(')');
  }

  // '<' (type name ('=' constant-data)?) (',' ...)* '>'
  absl::Status ParseValueInfoBlock(Scope* scope, bool allow_initializers) {
    RETURN_IF_ERROR(ExpectPunct('<'));
    if (TryPunct('>')) return absl::OkStatus();
    Graph* graph = scope->graph;
    do {
      const Pos type_pos = PosOf(Peek());
      std::optional<Type> declared;
      if (AtType()) {
        ASSIGN_OR_RETURN(declared, ParseType());
      }
      const Pos name_pos = PosOf(Peek());
      ASSIGN_OR_RETURN(std::string name, QuotableId(declared ? "a name" : "a type and a name"));
      if (!Peek().Is('=')) {
        Reference ref;
        ref.kind = Reference::Kind::kValueInfo;
        ref.scope = scope;
        ref.name = std::move(name);
        ref.pos = name_pos;
        ref.type = std::move(declared);
        refs_.push_back(std::move(ref));
        continue;
      }
      const Token& eq = Next();
      if (!allow_initializers) return ErrorAt(PosOf(eq), "a function cannot have initializers");
      if (!declared)
        return ErrorAt(PosOf(eq), absl::StrCat("initializer '", name, "' needs a type"));
      const Type& type = *declared;
      if (type.kind() == Type::Kind::kSparseTensor) {
        ASSIGN_OR_RETURN(SparseTensor sparse, ParseSparseData(type, type_pos));
        Value* v = graph->AddSparseInitializer(name, std::move(sparse));
        RETURN_IF_ERROR(Define(scope, name, v, name_pos));
        continue;
      }
      ASSIGN_OR_RETURN(Tensor tensor,
                       ParseTensorData(type, type_pos, name, /*allow_external=*/true));
      // An initializer named like an input of this graph is that input's default.
      auto it = scope->defs.find(name);
      if (it != scope->defs.end() && it->second.value->is_graph_input() &&
          it->second.value->producer() == nullptr && !it->second.value->is_initializer()) {
        graph->SetInitializer(it->second.value, std::move(tensor));
        continue;
      }
      Value* v = graph->AddInitializer(std::move(tensor));
      RETURN_IF_ERROR(Define(scope, name, v, name_pos));
    } while (TryPunct(','));
    return ExpectPunct('>');
  }

  absl::Status ParseNodeList(Scope* scope) {
    RETURN_IF_ERROR(ExpectPunct('{'));
    while (!TryPunct('}')) {
      const Token& t = Peek();
      if (!(t.Is('[') || t.Is('=') || t.Is(',') || t.kind == TokenKind::kIdentifier ||
            t.kind == TokenKind::kString)) {
        return Expected("a node or '}'");
      }
      RETURN_IF_ERROR(ParseNode(scope));
    }
    return absl::OkStatus();
  }

  // node ::= ('[' name ']')? outputs '=' domain.Op(':' overload)? attrs? '(' inputs ')' attrs?
  absl::Status ParseNode(Scope* scope) {
    std::string label;
    if (TryPunct('[')) {
      if (!Peek().Is(']')) {
        ASSIGN_OR_RETURN(label, QuotableId("a node name"));
      }
      RETURN_IF_ERROR(ExpectPunct(']'));
    }
    ASSIGN_OR_RETURN(std::vector<NameRef> outputs, ParseNameList('=', "an output name or '='"));
    RETURN_IF_ERROR(ExpectPunct('='));
    ASSIGN_OR_RETURN(std::string qualified, QualifiedId("an operator name"));
    std::string domain, op = qualified;
    if (size_t dot = qualified.rfind('.'); dot != std::string::npos) {
      domain = qualified.substr(0, dot);
      op = qualified.substr(dot + 1);
    }
    std::vector<std::string> output_names;
    for (const NameRef& o : outputs) output_names.push_back(o.name);
    std::unique_ptr<Node> node = Node::Create(std::move(domain), std::move(op), {}, output_names);
    node->set_name(std::move(label));
    if (TryPunct(':')) {
      ASSIGN_OR_RETURN(std::string overload, Identifier("an overload name"));
      node->set_overload(std::move(overload));
    }
    for (size_t i = 0; i < outputs.size(); ++i) {
      RETURN_IF_ERROR(Define(scope, outputs[i].name, node->output(i), outputs[i].pos));
    }
    const bool attrs_before = Peek().Is('<');
    if (attrs_before) RETURN_IF_ERROR(ParseNodeAttributes(*node, scope));
    RETURN_IF_ERROR(ExpectPunct('('));
    ASSIGN_OR_RETURN(std::vector<NameRef> inputs, ParseNameList(')', "an input name or ')'"));
    RETURN_IF_ERROR(ExpectPunct(')'));
    if (!attrs_before && Peek().Is('<')) RETURN_IF_ERROR(ParseNodeAttributes(*node, scope));
    Node* n = scope->graph->Append(std::move(node));
    for (size_t i = 0; i < inputs.size(); ++i) {
      n->AddInput(nullptr);
      if (inputs[i].name.empty()) continue;
      Reference ref;
      ref.kind = Reference::Kind::kNodeInput;
      ref.scope = scope;
      ref.name = inputs[i].name;
      ref.pos = inputs[i].pos;
      ref.node = n;
      ref.index = i;
      refs_.push_back(std::move(ref));
    }
    return absl::OkStatus();
  }

  // --- Functions ---------------------------------------------------------------------------------
  absl::StatusOr<std::unique_ptr<Function>> ParseFunction() {
    std::string domain, overload, doc;
    std::vector<OpsetImport> opsets;
    StringPairs metadata;
    if (Peek().Is('<')) {
      RETURN_IF_ERROR(ParseHeader(
          "a function property", [&](const std::string& key, Pos key_pos) -> absl::Status {
            if (key == "domain") {
              ASSIGN_OR_RETURN(domain, StringLiteral("a string"));
            } else if (key == "opset_import") {
              ASSIGN_OR_RETURN(opsets, ParseOpsetList());
            } else if (key == "doc_string") {
              ASSIGN_OR_RETURN(doc, StringLiteral("a string"));
            } else if (key == "overload") {
              ASSIGN_OR_RETURN(overload, StringLiteral("a string"));
            } else if (key == "metadata_props") {
              ASSIGN_OR_RETURN(metadata, ParseStringPairs());
            } else {
              return ErrorAt(key_pos, absl::StrCat("unknown function property '", key,
                                                   "' (expected domain, opset_import, doc_string, "
                                                   "overload or metadata_props)"));
            }
            return absl::OkStatus();
          }));
    }
    ASSIGN_OR_RETURN(std::string name, QuotableId("a function name"));
    auto f = std::make_unique<Function>(std::move(domain), std::move(name), std::move(overload));
    f->set_doc_string(std::move(doc));
    f->mutable_opset_imports() = std::move(opsets);
    f->mutable_metadata_props() = std::move(metadata);
    Scope* scope = NewScope(&f->body(), nullptr);
    if (TryPunct('<')) {
      do {
        const Pos name_pos = PosOf(Peek());
        ASSIGN_OR_RETURN(std::string attr_name, QuotableId("an attribute name"));
        const bool seen =
            std::find(f->attribute_names().begin(), f->attribute_names().end(), attr_name) !=
                f->attribute_names().end() ||
            std::any_of(f->attribute_defaults().begin(), f->attribute_defaults().end(),
                        [&](const Attribute& a) { return a.name() == attr_name; });
        if (seen) return ErrorAt(name_pos, absl::StrCat("duplicate attribute '", attr_name, "'"));
        if (Peek().Is(':') || Peek().Is('=')) {
          ASSIGN_OR_RETURN(Attribute a, ParseAttributeAfterName(attr_name, name_pos, scope));
          f->mutable_attribute_defaults().push_back(std::move(a));
        } else {
          f->mutable_attribute_names().push_back(std::move(attr_name));
        }
      } while (TryPunct(','));
      RETURN_IF_ERROR(ExpectPunct('>'));
    }
    RETURN_IF_ERROR(ExpectPunct('('));
    if (!TryPunct(')')) {
      do {
        RETURN_IF_ERROR(ParseGraphInput(scope, /*allow_default=*/false));
      } while (TryPunct(','));
      RETURN_IF_ERROR(ExpectPunct(')'));
    }
    RETURN_IF_ERROR(ExpectArrow());
    RETURN_IF_ERROR(ParseOutputs(scope));
    if (Peek().Is('<')) RETURN_IF_ERROR(ParseValueInfoBlock(scope, /*allow_initializers=*/false));
    RETURN_IF_ERROR(ParseNodeList(scope));
    return f;
  }

  // --- Resolution --------------------------------------------------------------------------------
  static Value* Lookup(const Scope* scope, const std::string& name) {
    for (const Scope* s = scope; s != nullptr; s = s->parent) {
      auto it = s->defs.find(name);
      if (it != s->defs.end()) return it->second.value;
    }
    return nullptr;
  }

  static absl::Status ApplyType(Value* v, const Type& type, Pos pos) {
    if (v->type().is_none()) {
      v->set_type(type);
    } else if (v->type() != type) {
      return ErrorAt(pos, absl::StrCat("conflicting types for '", v->name(), "': ", PrintType(type),
                                       " here but ", PrintType(v->type()), " where it is defined"));
    }
    return absl::OkStatus();
  }

  // A subgraph may not redefine a name of an enclosing graph.
  absl::Status CheckShadowing() const {
    std::optional<std::pair<Pos, std::string>> first;
    for (const auto& scope : scopes_) {
      for (const Scope* outer = scope->parent; outer != nullptr; outer = outer->parent) {
        for (const auto& [name, def] : scope->defs) {
          auto it = outer->defs.find(name);
          if (it == outer->defs.end()) continue;
          const bool inner_later = it->second.pos < def.pos;
          const Pos at = inner_later ? def.pos : it->second.pos;
          const Pos other = inner_later ? it->second.pos : def.pos;
          std::string message = absl::StrCat(
              PosString(at), ": duplicate definition of '", name, "' (also defined at ",
              PosString(other), inner_later ? " in an enclosing graph" : " in a nested graph",
              "; names must be unique across a graph and its subgraphs)");
          if (!first.has_value() || at < first->first) first.emplace(at, std::move(message));
        }
      }
    }
    if (first.has_value()) return absl::InvalidArgumentError(first->second);
    return absl::OkStatus();
  }

  // Resolves node inputs, then value_info entries, then graph outputs (so that an output's declared
  // type can be compared with everything else known about its value).
  absl::Status Finalize() {
    RETURN_IF_ERROR(CheckShadowing());
    for (const Reference& ref : refs_) {
      if (ref.kind != Reference::Kind::kNodeInput) continue;
      Value* v = Lookup(ref.scope, ref.name);
      if (v == nullptr) {
        return ErrorAt(ref.pos, absl::StrCat("undefined value '", ref.name, "' (input ", ref.index,
                                             " of ", ref.node->Describe(), ")"));
      }
      ref.node->SetInput(ref.index, v);
    }
    for (const Reference& ref : refs_) {
      if (ref.kind != Reference::Kind::kValueInfo) continue;
      Graph* graph = ref.scope->graph;
      auto it = ref.scope->defs.find(ref.name);
      if (it == ref.scope->defs.end()) {
        // Not a value of this graph (for example a value captured from an enclosing graph): kept as
        // a value_info entry of its own.
        DanglingValueInfo d;
        d.name = ref.name;
        d.type = ref.type.value_or(Type());
        d.order = graph->NextValueInfoOrder();
        graph->mutable_dangling_value_info().push_back(std::move(d));
        continue;
      }
      Value* v = it->second.value;
      if (v->in_value_info()) {
        return ErrorAt(ref.pos, absl::StrCat("'", ref.name, "' is declared twice in <...>"));
      }
      if (ref.type.has_value()) {
        if (v->is_initializer() && !v->is_graph_input()) {
          v->set_type(*ref.type);  // the declared type refines the one taken from the tensor
        } else {
          RETURN_IF_ERROR(ApplyType(v, *ref.type, ref.pos));
        }
      }
      graph->AddValueInfo(v);
    }
    for (const Reference& ref : refs_) {
      if (ref.kind != Reference::Kind::kGraphOutput) continue;
      Graph* graph = ref.scope->graph;
      Value* v = Lookup(ref.scope, ref.name);
      if (v == nullptr) {
        return ErrorAt(ref.pos, absl::StrCat("undefined value '", ref.name, "' in the outputs of ",
                                             GraphLabel(*graph)));
      }
      graph->AddOutput(v);
      const Type declared = ref.type.value_or(Type());
      if (v->type() == declared) continue;
      if (v->graph() == graph && v->type().is_none()) {
        v->set_type(declared);
      } else {
        // The output says something else than the value (an outer value, a value returned twice,
        // or a graph input): the output keeps its own description.
        OutputInfo info;
        info.type = declared;
        graph->set_output_info(graph->outputs().size() - 1, std::move(info));
      }
    }
    return absl::OkStatus();
  }

  static std::string GraphLabel(const Graph& g) {
    if (g.owner_function() != nullptr)
      return absl::StrCat("function '", g.owner_function()->name(), "'");
    return absl::StrCat("graph '", g.name(), "'");
  }

  // Bounds the recursion of nested graphs and types, so that hostile input cannot exhaust the
  // stack.
  static constexpr int kMaxNesting = 256;
  struct DepthGuard {
    explicit DepthGuard(Parser* p) : parser(p) { ++parser->depth_; }
    ~DepthGuard() { --parser->depth_; }
    Parser* parser;
  };

  Lexer lexer_;
  std::deque<Token> buf_;
  absl::Status lex_error_;
  bool reached_lex_error_ = false;
  int depth_ = 0;
  std::vector<std::unique_ptr<Scope>> scopes_;
  std::vector<Reference> refs_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<Model>> ParseModel(std::string_view text) {
  Parser parser(text);
  return parser.Result(parser.ParseWholeModel());
}

absl::StatusOr<std::unique_ptr<Graph>> ParseGraph(std::string_view text) {
  Parser parser(text);
  return parser.Result(parser.ParseWholeGraph());
}

absl::StatusOr<Type> ParseType(std::string_view text) {
  Parser parser(text);
  return parser.Result(parser.ParseWholeType());
}

}  // namespace onnx_opt::ir::text
