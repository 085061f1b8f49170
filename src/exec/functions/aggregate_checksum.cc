// checksum(x): an order-insensitive checksum of a group's values, as Trino computes it, so
// the same data gives the same 8 bytes on both engines: the wrapping sum over rows of
// xxhash64(value) * 0x9E3779B185EBCA87 (a NULL adds the constant itself), returned as
// varbinary holding the sum's 8 little-endian bytes; NULL for a group without rows.
// Per type, the hashed value is Trino's: integers, dates, times and timestamps as the
// 64-bit integer they hold (sign-extended); double as its IEEE bits (-0 as 0, one NaN);
// real as its 32-bit pattern sign-extended; boolean as 1 / 0; varchar / varbinary as
// their bytes; decimal(p <= 18) as the unscaled 64-bit value. Decimals wider than 18
// digits hash their 16 bytes (not Trino's value). The hash is the XXH64 of Parquet's
// bloom filters (formats/parquet/bloom_filter.h). Arrays, maps and rows hash their
// grouping-key image (nested_key_encoding.h: a map's entries in key order), stable across
// runs and not Trino's bytes.

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "exec/functions/aggregate_accumulator_internal.h"
#include "exec/functions/nested_key_encoding.h"
#include "formats/parquet/bloom_filter.h"

namespace sqe::exec::aggregate_internal {
namespace {

using columnar::Column;
using columnar::TypeId;

/// Trino's checksum multiplier (also xxhash64's first prime).
constexpr uint64_t kPrime1 = 0x9E3779B185EBCA87ULL;

}  // namespace

uint64_t XxHash64(const void* data, size_t size) {
  return parquet::XxHash64(std::string_view(static_cast<const char*>(data), size), 0);
}

namespace {

uint64_t HashLong(int64_t v) { return XxHash64(&v, 8); }

/// Trino's xxhash64 of row i of `column` (not NULL).
uint64_t ValueHash(const Column& column, int64_t i) {
  const columnar::TypePtr& type = column.type();
  if (type->is_nested()) {  // arrays, maps, rows: their grouping-key image (map order free)
    std::string image;
    AppendGroupingKey(column, i, &image);
    return XxHash64(image.data(), image.size());
  }
  switch (type->id()) {
    case TypeId::kBoolean:
      return HashLong(column.BoolAt(i) ? 1 : 0);
    case TypeId::kInt8:
      return HashLong(column.Values<int8_t>()[i]);
    case TypeId::kInt16:
      return HashLong(column.Values<int16_t>()[i]);
    case TypeId::kInt32:
    case TypeId::kDate32:
      return HashLong(column.Values<int32_t>()[i]);
    case TypeId::kInt64:
    case TypeId::kTime64:
    case TypeId::kTimestamp:
      return HashLong(column.Values<int64_t>()[i]);
    case TypeId::kFloat32: {
      float f = column.Values<float>()[i];
      if (f == 0) f = 0;
      if (std::isnan(f)) f = std::numeric_limits<float>::quiet_NaN();
      return HashLong(std::bit_cast<int32_t>(f));
    }
    case TypeId::kFloat64: {
      double d = column.Values<double>()[i];
      if (d == 0) d = 0;
      if (std::isnan(d)) return HashLong(0x7ff8000000000000LL);
      return HashLong(std::bit_cast<int64_t>(d));
    }
    case TypeId::kDecimal128: {
      const columnar::Decimal128 d = column.Values<columnar::Decimal128>()[i];
      if (type->precision() <= 18) return HashLong(static_cast<int64_t>(d.low));
      return XxHash64(&d, sizeof(d));
    }
    default: {
      char bool_byte = 0;
      const std::string_view bytes = RawValue(column, i, &bool_byte);
      return XxHash64(bytes.data(), bytes.size());
    }
  }
}

class ChecksumAccumulator final : public GroupAccumulator {
 public:
  explicit ChecksumAccumulator(std::shared_ptr<MemoryTracker> tracker)
      : memory_(std::move(tracker)) {}
  Status Resize(int64_t n) override {
    SQE_RETURN_NOT_OK(memory_.Ensure(n * 9));
    sums_.resize(static_cast<size_t>(n), 0);
    seen_.resize(static_cast<size_t>(n), 0);
    return Status::OK();
  }
  Status Update(const std::vector<Column>& args, const uint32_t* groups, int64_t rows) override {
    const Column& column = args[0];
    for (int64_t i = 0; i < rows; ++i) {
      const uint32_t g = groups[i];
      sums_[g] += column.IsNull(i) ? kPrime1 : ValueHash(column, i) * kPrime1;
      seen_[g] = 1;
    }
    return Status::OK();
  }
  Status Merge(GroupAccumulator& other, const uint32_t* map) override {
    const auto& source = static_cast<ChecksumAccumulator&>(other);
    for (size_t g = 0; g < source.sums_.size(); ++g) {
      if (map[g] == kSkipGroup || !source.seen_[g]) continue;
      sums_[map[g]] += source.sums_[g];
      seen_[map[g]] = 1;
    }
    return Status::OK();
  }
  Result<Column> Finalize() override {
    std::vector<std::string> values(sums_.size());
    for (size_t g = 0; g < sums_.size(); ++g) {
      if (!seen_[g]) continue;
      values[g].resize(8);
      for (int b = 0; b < 8; ++b) values[g][b] = static_cast<char>(sums_[g] >> (8 * b));
    }
    return BytesTraits::Build(columnar::Binary(), values, seen_, memory_.tracker());
  }
  int64_t MemoryUsage() const override { return static_cast<int64_t>(sums_.capacity() * 9); }

 private:
  MemoryCharge memory_;
  std::vector<uint64_t> sums_;
  std::vector<uint8_t> seen_;
};

}  // namespace

void RegisterChecksumAggregate(FunctionRegistry& registry) {
  AddAggregateFamily(
      registry, "checksum",
      [](const std::vector<columnar::TypePtr>& args) -> std::optional<AggregateFunction> {
        if (args.size() != 1) return std::nullopt;
        const columnar::TypePtr type = args[0] == nullptr ? columnar::Boolean() : args[0];
        return MakeFunction("checksum", {type}, columnar::Binary(),
                            FactoryOf<ChecksumAccumulator>());
      },
      "varbinary", "T", "an order-insensitive checksum of the values (Trino's)");
}

}  // namespace sqe::exec::aggregate_internal
