#pragma once
/// Test-only: assertion macros for Status/Result and short ways to build columns from
/// literals (nullopt = null) and to print a column as JSON. Included by *_test.cc only.

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "columnar/binary_builder.h"
#include "columnar/boolean_builder.h"
#include "columnar/column.h"
#include "columnar/fixed_width_builder.h"
#include "columnar/json_value_encoding.h"
#include "columnar/list_builder.h"
#include "common/result.h"

namespace sqe::columnar::testing {

inline Status StatusOf(const Status& status) { return status; }
template <typename T>
Status StatusOf(const Result<T>& result) {
  return result.status();
}

#define SQE_ASSERT_OK(expr)                                                \
  do {                                                                     \
    ::sqe::Status _sqe_test_st = ::sqe::columnar::testing::StatusOf(expr); \
    ASSERT_TRUE(_sqe_test_st.ok()) << _sqe_test_st.ToString();             \
  } while (false)

#define SQE_EXPECT_OK(expr)                                                \
  do {                                                                     \
    ::sqe::Status _sqe_test_st = ::sqe::columnar::testing::StatusOf(expr); \
    EXPECT_TRUE(_sqe_test_st.ok()) << _sqe_test_st.ToString();             \
  } while (false)

#define SQE_ASSIGN_OR_FAIL(lhs, expr) \
  SQE_ASSIGN_OR_FAIL_IMPL(SQE_CONCAT(_sqe_test_result_, __LINE__), lhs, expr)
#define SQE_ASSIGN_OR_FAIL_IMPL(tmp, lhs, expr)     \
  auto tmp = (expr);                                \
  ASSERT_TRUE(tmp.ok()) << tmp.status().ToString(); \
  lhs = std::move(tmp).value()

/// The value, or abort with the status (for helpers that cannot use ASSERT).
template <typename T>
T ValueOrDie(Result<T> result) {
  if (!result.ok()) {
    std::fprintf(stderr, "unexpected error: %s\n", result.status().ToString().c_str());
    std::abort();
  }
  return std::move(result).value();
}

inline void DieIfError(const Status& status) {
  if (!status.ok()) {
    std::fprintf(stderr, "unexpected error: %s\n", status.ToString().c_str());
    std::abort();
  }
}

template <typename Builder, typename T>
Column BuildFixed(TypePtr type, const std::vector<std::optional<T>>& values) {
  Builder builder(std::move(type));
  for (const auto& v : values) DieIfError(v ? builder.Append(*v) : builder.AppendNull());
  return ValueOrDie(builder.Finish());
}

inline Column Int64s(const std::vector<std::optional<int64_t>>& values) {
  return BuildFixed<Int64Builder>(Int64(), values);
}
inline Column Int32s(const std::vector<std::optional<int32_t>>& values) {
  return BuildFixed<Int32Builder>(Int32(), values);
}
inline Column Float64s(const std::vector<std::optional<double>>& values) {
  return BuildFixed<Float64Builder>(Float64(), values);
}
inline Column Bools(const std::vector<std::optional<bool>>& values) {
  BooleanBuilder builder;
  for (const auto& v : values) DieIfError(v ? builder.Append(*v) : builder.AppendNull());
  return ValueOrDie(builder.Finish());
}
inline Column Strings(const std::vector<std::optional<std::string>>& values,
                      TypePtr type = String()) {
  BinaryBuilder builder(std::move(type));
  for (const auto& v : values) DieIfError(v ? builder.Append(*v) : builder.AppendNull());
  return ValueOrDie(builder.Finish());
}

/// A list<bigint> column: nullopt rows are NULL lists, nullopt elements NULL elements.
inline Column Int64Lists(
    const std::vector<std::optional<std::vector<std::optional<int64_t>>>>& rows) {
  ListBuilder builder(List(Int64()), std::make_unique<Int64Builder>(Int64()));
  auto* values = builder.value_builder_as<Int64Builder>();
  for (const auto& row : rows) {
    if (!row.has_value()) {
      DieIfError(builder.AppendNull());
      continue;
    }
    DieIfError(builder.Append());
    for (const auto& v : *row) DieIfError(v ? values->Append(*v) : values->AppendNull());
  }
  return ValueOrDie(builder.Finish());
}

/// Every row of `column` as one JSON array: "[1,null,3]".
inline std::string Json(const Column& column) {
  std::string out = "[";
  for (int64_t i = 0; i < column.length(); ++i) {
    if (i > 0) out += ",";
    DieIfError(AppendJsonValue(column, i, &out));
  }
  out += "]";
  return out;
}

}  // namespace sqe::columnar::testing
