// approx_distinct(x): HyperLogLog with 2^11 registers (standard error 1.04/sqrt(2048) =
// 2.3 %, Trino's default). A group starts sparse, keeping up to 256 distinct 64-bit value
// hashes (exact below that, and 8 bytes a value instead of 2 KB a group), and turns into
// dense registers past it. 0 for a group without values. Arrays, maps and rows hash their
// grouping-key image.

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "exec/functions/aggregate_accumulator_internal.h"
#include "exec/functions/aggregate_hash.h"
#include "exec/functions/nested_key_encoding.h"

namespace sqe::exec::aggregate_internal {
namespace {

using columnar::Column;

constexpr int kIndexBits = 11;
constexpr int kRegisters = 1 << kIndexBits;
constexpr size_t kMaxSparse = 256;

template <typename T>
uint64_t HashValue(T v) {
  if constexpr (std::is_floating_point_v<T>) {
    return HashDouble(static_cast<double>(v));
  } else if constexpr (std::is_same_v<T, columnar::Decimal128>) {
    return HashBytes(&v, sizeof(v));
  } else if constexpr (std::is_same_v<T, std::string_view>) {
    return HashBytes(v);
  } else {
    return MixHash64(static_cast<uint64_t>(static_cast<int64_t>(v)));
  }
}

/// Reads arrays, maps and rows as their grouping-key images (equal exactly when not
/// distinct), so the sketch counts nested values as GROUP BY would. The view lives until
/// the next read.
struct NestedImageTraits {
  struct Reader {
    explicit Reader(const Column& c) : column(&c) {}
    std::string_view operator[](int64_t i) const {
      image.clear();
      AppendGroupingKey(*column, i, &image);
      return image;
    }
    const Column* column;
    mutable std::string image;
  };
};

struct Sketch {
  std::vector<uint64_t> sparse;  // sorted distinct hashes
  std::unique_ptr<uint8_t[]> dense;

  void AddToRegisters(uint64_t h) {
    const uint32_t index = static_cast<uint32_t>(h >> (64 - kIndexBits));
    // Leading zeros of the remaining bits, plus one; a guard bit caps the rank.
    const uint64_t rest = (h << kIndexBits) | (uint64_t{1} << (kIndexBits - 1));
    const uint8_t rank = static_cast<uint8_t>(std::countl_zero(rest) + 1);
    if (dense[index] < rank) dense[index] = rank;
  }
  /// Returns the change in held bytes.
  int64_t Densify() {
    dense = std::make_unique<uint8_t[]>(kRegisters);
    std::memset(dense.get(), 0, kRegisters);
    for (uint64_t h : sparse) AddToRegisters(h);
    const int64_t freed = static_cast<int64_t>(sparse.capacity() * sizeof(uint64_t));
    std::vector<uint64_t>().swap(sparse);
    return kRegisters - freed;
  }
  /// Returns the change in held bytes.
  int64_t Add(uint64_t h) {
    if (dense) {
      AddToRegisters(h);
      return 0;
    }
    auto it = std::lower_bound(sparse.begin(), sparse.end(), h);
    if (it != sparse.end() && *it == h) return 0;
    const size_t before = sparse.capacity();
    sparse.insert(it, h);
    int64_t delta = static_cast<int64_t>((sparse.capacity() - before) * sizeof(uint64_t));
    if (sparse.size() > kMaxSparse) delta += Densify();
    return delta;
  }
  int64_t MergeFrom(const Sketch& other) {
    int64_t delta = 0;
    if (other.dense) {
      if (!dense) delta += Densify();
      for (int r = 0; r < kRegisters; ++r) dense[r] = std::max(dense[r], other.dense[r]);
      return delta;
    }
    for (uint64_t h : other.sparse) delta += Add(h);
    return delta;
  }
  int64_t Estimate() const {
    if (!dense) return static_cast<int64_t>(sparse.size());
    double inverse_sum = 0;
    int zeros = 0;
    for (int r = 0; r < kRegisters; ++r) {
      inverse_sum += std::ldexp(1.0, -dense[r]);
      zeros += dense[r] == 0 ? 1 : 0;
    }
    const double m = kRegisters;
    const double alpha = 0.7213 / (1.0 + 1.079 / m);
    double estimate = alpha * m * m / inverse_sum;
    if (estimate <= 2.5 * m && zeros > 0) estimate = m * std::log(m / zeros);  // linear counting
    return std::llround(estimate);
  }
};

template <typename Traits>
class ApproxDistinctAccumulator final : public GroupAccumulator {
 public:
  explicit ApproxDistinctAccumulator(std::shared_ptr<MemoryTracker> tracker)
      : memory_(std::move(tracker)) {}

  Status Resize(int64_t n) override {
    sketches_.resize(static_cast<size_t>(n));
    return Charge();
  }
  Status Update(const std::vector<Column>& args, const uint32_t* groups, int64_t rows) override {
    const Column& column = args[0];
    typename Traits::Reader reader(column);
    const bool nulls = column.null_count() > 0;
    for (int64_t i = 0; i < rows; ++i) {
      if (nulls && column.IsNull(i)) continue;
      extra_bytes_ += sketches_[groups[i]].Add(HashValue(reader[i]));
    }
    return Charge();
  }
  Status Merge(GroupAccumulator& other, const uint32_t* map) override {
    auto& source = static_cast<ApproxDistinctAccumulator&>(other);
    for (size_t g = 0; g < source.sketches_.size(); ++g) {
      if (map[g] != kSkipGroup) extra_bytes_ += sketches_[map[g]].MergeFrom(source.sketches_[g]);
    }
    return Charge();
  }
  Result<Column> Finalize() override {
    columnar::Int64Builder builder(columnar::Int64(), memory_.tracker());
    SQE_RETURN_NOT_OK(builder.Reserve(static_cast<int64_t>(sketches_.size())));
    for (const Sketch& sketch : sketches_) SQE_RETURN_NOT_OK(builder.Append(sketch.Estimate()));
    return builder.Finish();
  }
  int64_t MemoryUsage() const override {
    return static_cast<int64_t>(sketches_.capacity() * sizeof(Sketch)) + extra_bytes_;
  }

 private:
  Status Charge() { return memory_.Ensure(MemoryUsage()); }

  MemoryCharge memory_;
  std::vector<Sketch> sketches_;
  int64_t extra_bytes_ = 0;
};

}  // namespace

void RegisterApproxDistinctAggregates(FunctionRegistry& registry) {
  AddAggregateFamily(
      registry, "approx_distinct",
      [](const std::vector<columnar::TypePtr>& args) -> std::optional<AggregateFunction> {
        if (args.size() != 1) return std::nullopt;
        const columnar::TypePtr type = args[0] != nullptr ? args[0] : columnar::Boolean();
        std::optional<AggregateFunction> result;
        if (type->is_nested()) {
          return MakeFunction("approx_distinct", {type}, columnar::Int64(),
                              FactoryOf<ApproxDistinctAccumulator<NestedImageTraits>>());
        }
        VisitValueTraits(type, [&](auto traits) {
          using Traits = decltype(traits);
          result = MakeFunction("approx_distinct", {type}, columnar::Int64(),
                                FactoryOf<ApproxDistinctAccumulator<Traits>>());
        });
        return result;
      },
      "bigint", "T", "the approximate number of distinct non-null values (standard error 2.3%)");
}

}  // namespace sqe::exec::aggregate_internal
