#ifndef ONNX_OPT_SCHEMA_TESTING_JSON_READER_H_
#define ONNX_OPT_SCHEMA_TESTING_JSON_READER_H_

// A small, strict JSON (RFC 8259) reader for tests that compare our tables with reference dumps.
// The build has no JSON library and production code needs none.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace onnx_opt::schema::testing {

class JsonValue {
 public:
  enum class Kind { kNull, kBool, kNumber, kString, kArray, kObject };

  JsonValue() = default;  // null

  Kind kind() const { return kind_; }
  bool is_null() const { return kind_ == Kind::kNull; }
  bool is_bool() const { return kind_ == Kind::kBool; }
  bool is_number() const { return kind_ == Kind::kNumber; }
  bool is_string() const { return kind_ == Kind::kString; }
  bool is_array() const { return kind_ == Kind::kArray; }
  bool is_object() const { return kind_ == Kind::kObject; }

  // Accessors return false / 0 / "" / empty for a value of another kind.
  bool bool_value() const { return kind_ == Kind::kBool && bool_; }
  // A number's text as written ("1", "-0.0", "9.999999747378752e-06"); exact, unlike a double.
  const std::string& number_text() const { return kind_ == Kind::kNumber ? text_ : Empty(); }
  // A number written without fraction or exponent.
  bool is_integer() const;
  int64_t int_value() const;  // 0 unless is_integer() and in range
  double double_value() const;
  const std::string& string_value() const { return kind_ == Kind::kString ? text_ : Empty(); }

  // Array elements, or object values in file order.
  const std::vector<JsonValue>& items() const { return items_; }
  // Object keys in file order, parallel to items().
  const std::vector<std::string>& keys() const { return keys_; }
  size_t size() const { return items_.size(); }
  // The object member `key` (the first if repeated), or a null value.
  const JsonValue& operator[](std::string_view key) const;
  bool has(std::string_view key) const;

  // Compact JSON text of this value, for messages.
  std::string ToString() const;

 private:
  friend class JsonParser;
  static const std::string& Empty();

  Kind kind_ = Kind::kNull;
  bool bool_ = false;
  std::string text_;  // number text or string contents (UTF-8)
  std::vector<std::string> keys_;
  std::vector<JsonValue> items_;
};

// Parses one JSON document; InvalidArgument with line and column on malformed input.
absl::StatusOr<JsonValue> ParseJson(std::string_view text);

}  // namespace onnx_opt::schema::testing

#endif  // ONNX_OPT_SCHEMA_TESTING_JSON_READER_H_
