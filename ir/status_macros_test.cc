#include "ir/status_macros.h"

#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gtest/gtest.h"

namespace {

absl::Status Fail() { return absl::InvalidArgumentError("bad"); }
absl::StatusOr<int> Number(bool ok) {
  if (!ok) return absl::NotFoundError("none");
  return 7;
}
absl::StatusOr<std::unique_ptr<int>> Owned() { return std::make_unique<int>(3); }

absl::Status Check(bool fail, int* reached) {
  if (fail)
    RETURN_IF_ERROR(Fail());  // a single statement: fine under an unbraced if
  else
    RETURN_IF_ERROR(absl::OkStatus());
  *reached = 1;
  return absl::OkStatus();
}

absl::StatusOr<int> Sum(bool a_ok, bool b_ok) {
  ASSIGN_OR_RETURN(int a, Number(a_ok));
  int b = 0;
  ASSIGN_OR_RETURN(b, Number(b_ok));  // assigns to an existing variable
  ASSIGN_OR_RETURN(std::unique_ptr<int> p, Owned());
  ASSIGN_OR_RETURN(auto q, Owned());  // one line
  return a + b + *p + *q;
}

TEST(StatusMacrosTest, ReturnIfError) {
  int reached = 0;
  EXPECT_EQ(Check(true, &reached).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(reached, 0);
  EXPECT_TRUE(Check(false, &reached).ok());
  EXPECT_EQ(reached, 1);
}

TEST(StatusMacrosTest, AssignOrReturn) {
  EXPECT_EQ(*Sum(true, true), 20);
  EXPECT_EQ(Sum(false, true).status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(Sum(true, false).status().message(), "none");
}

}  // namespace
