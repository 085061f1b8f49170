#pragma once
/// BatchAssembler: appends generated rows column by column into builders for a schema of
/// int32, int64, decimal, date32 and string columns, and finishes them as one Batch. The
/// append calls do not return a Status (a generator appends millions of values); the
/// first failure (out of memory, a string column past 2 GiB) is kept and Finish returns
/// it. Single-owner.

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "columnar/batch.h"
#include "columnar/binary_builder.h"
#include "columnar/fixed_width_builder.h"
#include "columnar/schema.h"

namespace sqe::datagen {

class BatchAssembler {
 public:
  /// `expected_rows` sizes the builders up front.
  BatchAssembler(columnar::SchemaPtr schema, int64_t expected_rows);

  void Int32(int column, int32_t value) {
    Keep(Builder<columnar::Int32Builder>(column).Append(value));
  }
  void Int64(int column, int64_t value) {
    Keep(Builder<columnar::Int64Builder>(column).Append(value));
  }
  /// A DECIMAL(15,2) value in cents.
  void Money(int column, int64_t cents) {
    Keep(Builder<columnar::Decimal128Builder>(column).Append(columnar::Decimal128(cents)));
  }
  /// Days since 1970-01-01.
  void Date(int column, int32_t days) {
    Keep(Builder<columnar::Date32Builder>(column).Append(days));
  }
  void String(int column, std::string_view value) {
    Keep(Builder<columnar::BinaryBuilder>(column).Append(value));
  }

  /// The rows appended so far; every column must have `rows` values.
  Result<columnar::Batch> Finish(int64_t rows);

 private:
  template <typename B>
  B& Builder(int column) {
    return static_cast<B&>(*builders_[static_cast<size_t>(column)]);
  }
  void Keep(const Status& st) {
    if (!st.ok() && status_.ok()) status_ = st;
  }

  columnar::SchemaPtr schema_;
  std::vector<std::unique_ptr<columnar::ColumnBuilder>> builders_;
  Status status_;
};

}  // namespace sqe::datagen
