#pragma once
/// Benchmark-only: deterministic columns and batches for the micro-benchmarks
/// (*_benchmark.cc): integers with a chosen number of distinct values, decimals in a
/// TPC-H-like range, dates, and strings drawn from a word list. Aborts on an error (a
/// benchmark has no caller to report to). Not for production code or unit tests.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "columnar/batch.h"
#include "columnar/binary_builder.h"
#include "columnar/fixed_width_builder.h"

namespace sqe::columnar::benchmarking {

template <typename T>
T OrDie(Result<T> result) {
  if (!result.ok()) {
    std::fprintf(stderr, "benchmark setup failed: %s\n", result.status().ToString().c_str());
    std::abort();
  }
  return std::move(result).value();
}

inline void OrDie(const Status& status) {
  if (!status.ok()) {
    std::fprintf(stderr, "benchmark setup failed: %s\n", status.ToString().c_str());
    std::abort();
  }
}

/// `n` int64 values uniform in [0, distinct) from `seed`.
inline std::vector<int64_t> RandomInt64Values(int64_t n, int64_t distinct, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int64_t> pick(0, distinct - 1);
  std::vector<int64_t> values(static_cast<size_t>(n));
  for (auto& v : values) v = pick(rng);
  return values;
}

inline Column Int64Column(const std::vector<int64_t>& values) {
  Int64Builder builder(Int64());
  OrDie(builder.AppendValues(values.data(), static_cast<int64_t>(values.size())));
  return OrDie(builder.Finish());
}

inline Column RandomInt64Column(int64_t n, int64_t distinct, uint64_t seed) {
  return Int64Column(RandomInt64Values(n, distinct, seed));
}

/// `n` values of `type` drawn from `distribution`, built with `Builder` (one per value:
/// `convert` maps a draw to the builder's value type).
template <typename Builder, typename Distribution, typename Convert>
Column RandomFixedColumn(TypePtr type, int64_t n, Distribution distribution, uint64_t seed,
                         Convert convert) {
  std::mt19937_64 rng(seed);
  Builder builder(std::move(type));
  OrDie(builder.Reserve(n));
  for (int64_t i = 0; i < n; ++i) OrDie(builder.Append(convert(distribution(rng))));
  return OrDie(builder.Finish());
}

/// decimal(15,2) values uniform in [lo_cents, hi_cents] (TPC-H prices are 900.00 ..
/// 104,950.00, discounts 0.00 .. 0.10).
inline Column RandomDecimalColumn(int64_t n, int64_t lo_cents, int64_t hi_cents, uint64_t seed) {
  return RandomFixedColumn<Decimal128Builder>(
      Decimal(15, 2), n, std::uniform_int_distribution<int64_t>(lo_cents, hi_cents), seed,
      [](int64_t cents) { return Decimal128(cents); });
}

/// Dates (days since 1970) uniform over 1992-01-01 .. 1998-12-31.
inline Column RandomDateColumn(int64_t n, uint64_t seed) {
  return RandomFixedColumn<Date32Builder>(Date32(), n,
                                          std::uniform_int_distribution<int32_t>(8035, 10591), seed,
                                          [](int32_t days) { return days; });
}

/// Doubles uniform in [0, 1000).
inline Column Float64Column(int64_t n, uint64_t seed) {
  return RandomFixedColumn<Float64Builder>(Float64(), n,
                                           std::uniform_real_distribution<double>(0.0, 1000.0),
                                           seed, [](double v) { return v; });
}

/// Strings of 1..`words` words from a small vocabulary (about 30 bytes a value with
/// words = 5, like a short TPC-H comment).
inline Column RandomStringColumn(int64_t n, int words, uint64_t seed) {
  static constexpr const char* kWords[] = {
      "furiously", "regular", "deposits", "sleep", "carefully", "final",  "requests", "haggle",
      "quickly",   "express", "packages", "nag",   "blithely",  "ironic", "accounts", "boost"};
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> count(1, words);
  std::uniform_int_distribution<int> word(0, 15);
  BinaryBuilder builder(String());
  std::string text;
  for (int64_t i = 0; i < n; ++i) {
    text.clear();
    for (int w = count(rng); w > 0; --w) {
      if (!text.empty()) text.push_back(' ');
      text.append(kWords[word(rng)]);
    }
    OrDie(builder.Append(text));
  }
  return OrDie(builder.Finish());
}

/// `columns` cut into batches of `batch_rows` rows, fields named c0, c1, ...
inline std::vector<Batch> CutIntoBatches(const std::vector<Column>& columns, int64_t batch_rows,
                                         SchemaPtr* schema_out = nullptr) {
  std::vector<Field> fields;
  for (size_t i = 0; i < columns.size(); ++i) {
    fields.emplace_back("c" + std::to_string(i), columns[i].type());
  }
  auto schema = Schema::Make(fields);
  if (schema_out != nullptr) *schema_out = schema;
  const int64_t rows = columns.empty() ? 0 : columns[0].length();
  std::vector<Batch> batches;
  for (int64_t begin = 0; begin < rows; begin += batch_rows) {
    std::vector<Column> slice;
    for (const auto& c : columns)
      slice.push_back(c.Slice(begin, std::min(batch_rows, rows - begin)));
    batches.push_back(OrDie(Batch::Make(schema, std::move(slice))));
  }
  return batches;
}

}  // namespace sqe::columnar::benchmarking
