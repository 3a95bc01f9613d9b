#include "ir/json_string.h"

#include <string>

#include "gtest/gtest.h"

namespace onnx_opt::ir {
namespace {

TEST(JsonStringTest, EscapesQuotesBackslashesAndControlCharacters) {
  EXPECT_EQ(JsonString("plain"), "\"plain\"");
  EXPECT_EQ(JsonString("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(JsonString("l1\nl2\tt\r\b\f"), "\"l1\\nl2\\tt\\r\\b\\f\"");
  EXPECT_EQ(JsonString(std::string("\x01\x1f", 2)), "\"\\u0001\\u001f\"");
  EXPECT_EQ(JsonString(std::string("nul\0x", 5)), "\"nul\\u0000x\"");
}

TEST(JsonStringTest, PassesUtf8Through) {
  EXPECT_EQ(JsonString("caf\xc3\xa9 \x7f"), "\"caf\xc3\xa9 \x7f\"");
}

TEST(JsonStringTest, AppendsToWhatIsThere) {
  std::string out = "{";
  AppendJsonString(out, "k");
  EXPECT_EQ(out, "{\"k\"");
}

}  // namespace
}  // namespace onnx_opt::ir
