// checksum(x): an order-insensitive checksum of a group's values, as Trino computes it, so
// the same data gives the same 8 bytes on both engines: the wrapping sum over rows of
// xxhash64(value) * 0x9E3779B185EBCA87 (a NULL adds the constant itself), returned as
// varbinary holding the sum's 8 little-endian bytes; NULL for a group without rows.
// Per type, the hashed value is Trino's: integers, dates, times and timestamps as the
// 64-bit integer they hold (sign-extended); double as its IEEE bits (-0 as 0, one NaN);
// real as its 32-bit pattern sign-extended; boolean as 1 / 0; varchar / varbinary as
// their bytes; decimal(p <= 18) as the unscaled 64-bit value. Decimals wider than 18
// digits hash their 16 bytes (not Trino's value).

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "exec/functions/aggregate_accumulator_internal.h"

namespace sqe::exec::aggregate_internal {
namespace {

using columnar::Column;
using columnar::TypeId;

constexpr uint64_t kPrime1 = 0x9E3779B185EBCA87ULL;
constexpr uint64_t kPrime2 = 0xC2B2AE3D27D4EB4FULL;
constexpr uint64_t kPrime3 = 0x165667B19E3779F9ULL;
constexpr uint64_t kPrime4 = 0x85EBCA77C2B2AE63ULL;
constexpr uint64_t kPrime5 = 0x27D4EB2F165667C5ULL;

uint64_t Load64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}
uint32_t Load32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
uint64_t Round(uint64_t acc, uint64_t lane) {
  acc += lane * kPrime2;
  return std::rotl(acc, 31) * kPrime1;
}
uint64_t MergeRound(uint64_t acc, uint64_t v) {
  acc ^= Round(0, v);
  return acc * kPrime1 + kPrime4;
}

}  // namespace

/// XXH64 of `size` bytes with seed 0 (the published algorithm; little-endian lanes).
uint64_t XxHash64(const void* data, size_t size) {
  const uint8_t* p = static_cast<const uint8_t*>(data);
  const uint8_t* end = p + size;
  uint64_t h;
  if (size >= 32) {
    uint64_t v1 = kPrime1 + kPrime2, v2 = kPrime2, v3 = 0, v4 = 0 - kPrime1;
    for (; p + 32 <= end; p += 32) {
      v1 = Round(v1, Load64(p));
      v2 = Round(v2, Load64(p + 8));
      v3 = Round(v3, Load64(p + 16));
      v4 = Round(v4, Load64(p + 24));
    }
    h = std::rotl(v1, 1) + std::rotl(v2, 7) + std::rotl(v3, 12) + std::rotl(v4, 18);
    h = MergeRound(h, v1);
    h = MergeRound(h, v2);
    h = MergeRound(h, v3);
    h = MergeRound(h, v4);
  } else {
    h = kPrime5;
  }
  h += static_cast<uint64_t>(size);
  for (; p + 8 <= end; p += 8) {
    h ^= Round(0, Load64(p));
    h = std::rotl(h, 27) * kPrime1 + kPrime4;
  }
  if (p + 4 <= end) {
    h ^= static_cast<uint64_t>(Load32(p)) * kPrime1;
    h = std::rotl(h, 23) * kPrime2 + kPrime3;
    p += 4;
  }
  for (; p < end; ++p) {
    h ^= static_cast<uint64_t>(*p) * kPrime5;
    h = std::rotl(h, 11) * kPrime1;
  }
  h ^= h >> 33;
  h *= kPrime2;
  h ^= h >> 29;
  h *= kPrime3;
  h ^= h >> 32;
  return h;
}

namespace {

uint64_t HashLong(int64_t v) { return XxHash64(&v, 8); }

/// Trino's xxhash64 of row i of `column` (not NULL).
uint64_t ValueHash(const Column& column, int64_t i) {
  const columnar::TypePtr& type = column.type();
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
        if (!IsOrderable(type)) return std::nullopt;
        return MakeFunction(
            "checksum", {type}, columnar::Binary(),
            [](std::shared_ptr<MemoryTracker> tracker)
                -> Result<std::unique_ptr<GroupAccumulator>> {
              return std::unique_ptr<GroupAccumulator>(new ChecksumAccumulator(std::move(tracker)));
            });
      },
      "varbinary", "T", "an order-insensitive checksum of the values (Trino's)");
}

}  // namespace sqe::exec::aggregate_internal
