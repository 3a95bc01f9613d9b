#include "schema/testing/json_reader.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest.h"

namespace onnx_opt::schema::testing {
namespace {

JsonValue Parse(std::string_view text) {
  absl::StatusOr<JsonValue> v = ParseJson(text);
  EXPECT_TRUE(v.ok()) << v.status() << " for " << text;
  return v.ok() ? *std::move(v) : JsonValue();
}

TEST(JsonReaderTest, Scalars) {
  EXPECT_TRUE(Parse("null").is_null());
  EXPECT_TRUE(Parse(" true ").bool_value());
  EXPECT_FALSE(Parse("false").bool_value());
  EXPECT_TRUE(Parse("false").is_bool());
  EXPECT_EQ(Parse("\"hi\"").string_value(), "hi");
}

TEST(JsonReaderTest, NumbersKeepTheirText) {
  JsonValue i = Parse("2147483647");
  EXPECT_TRUE(i.is_integer());
  EXPECT_EQ(i.int_value(), 2147483647);
  EXPECT_EQ(Parse("-12").int_value(), -12);
  EXPECT_EQ(Parse("-9223372036854775808").int_value(), INT64_MIN);

  JsonValue f = Parse("9.999999747378752e-06");
  EXPECT_FALSE(f.is_integer());
  EXPECT_EQ(f.number_text(), "9.999999747378752e-06");
  EXPECT_EQ(f.double_value(), 9.999999747378752e-06);
  EXPECT_EQ(static_cast<float>(f.double_value()), 1e-05f);
  EXPECT_TRUE(std::signbit(Parse("-0.0").double_value()));
  EXPECT_EQ(Parse("1E+2").double_value(), 100.0);
  EXPECT_EQ(Parse("0").int_value(), 0);
}

TEST(JsonReaderTest, StringEscapes) {
  EXPECT_EQ(Parse(R"("a\"b\\c\/d\b\f\n\r\t")").string_value(), "a\"b\\c/d\b\f\n\r\t");
  EXPECT_EQ(Parse(R"("\u0041\u00e9\u20ac")").string_value(), "A\xC3\xA9\xE2\x82\xAC");
  EXPECT_EQ(Parse(R"("\ud83d\ude00")").string_value(), "\xF0\x9F\x98\x80");  // surrogate pair
  EXPECT_EQ(Parse("\"caf\xC3\xA9\"").string_value(), "caf\xC3\xA9");         // raw UTF-8
}

TEST(JsonReaderTest, ArraysAndObjectsInFileOrder) {
  JsonValue v = Parse(R"({"b": [1, 2.5, "x", null, [], {}], "a": {"k": true}})");
  ASSERT_TRUE(v.is_object());
  EXPECT_EQ(v.keys(), (std::vector<std::string>{"b", "a"}));
  const JsonValue& b = v["b"];
  ASSERT_TRUE(b.is_array());
  ASSERT_EQ(b.size(), 6u);
  EXPECT_EQ(b.items()[0].int_value(), 1);
  EXPECT_EQ(b.items()[1].double_value(), 2.5);
  EXPECT_EQ(b.items()[2].string_value(), "x");
  EXPECT_TRUE(b.items()[3].is_null());
  EXPECT_TRUE(b.items()[4].is_array());
  EXPECT_TRUE(b.items()[5].is_object());
  EXPECT_TRUE(v["a"]["k"].bool_value());
  EXPECT_TRUE(v.has("a"));
  EXPECT_FALSE(v.has("zzz"));
  EXPECT_TRUE(v["zzz"].is_null());
  EXPECT_TRUE(v["b"]["not an object"].is_null());
  EXPECT_EQ(v.ToString(), R"({"b":[1,2.5,"x",null,[],{}],"a":{"k":true}})");
}

TEST(JsonReaderTest, RejectsMalformedInput) {
  for (std::string_view bad :
       {"",      "   ",   "[1,]",     "{\"a\":1,}", "[1 2]",       "{\"a\" 1}",   "{1:2}",
        "01",    "1.",    ".5",       "-",          "1e",          "+1",          "tru",
        "nul",   "\"abc", "\"a\\x\"", "\"\\u12\"",  "\"\\ud800\"", "\"\\udc00\"", "\"tab\there\"",
        "[1] 2", "NaN",   "'a'"}) {
    absl::StatusOr<JsonValue> v = ParseJson(bad);
    EXPECT_FALSE(v.ok()) << "accepted: " << bad;
    if (!v.ok()) {
      EXPECT_EQ(v.status().code(), absl::StatusCode::kInvalidArgument);
    }
  }
}

TEST(JsonReaderTest, ErrorsSayWhere) {
  absl::StatusOr<JsonValue> v = ParseJson("{\n  \"a\": [1,\n  ]\n}");
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.status().message(), "JSON error at line 3, column 3: unexpected character ']'");
}

TEST(JsonReaderTest, DepthIsBounded) {
  std::string deep(100000, '[');
  EXPECT_FALSE(ParseJson(deep).ok());
  std::string ok = std::string(100, '[') + std::string(100, ']');
  EXPECT_TRUE(ParseJson(ok).ok());
}

}  // namespace
}  // namespace onnx_opt::schema::testing
