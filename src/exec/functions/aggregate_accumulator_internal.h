#pragma once
/// Private pieces shared by the aggregate accumulators (exec/functions/aggregate_*.cc):
/// memory charging, typed access to a column's values (one traits class per physical
/// family, so hot loops are templates without virtual calls), Trino's value order, and
/// the per-family registration functions RegisterAggregateFunctions calls.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "columnar/binary_builder.h"
#include "columnar/boolean_builder.h"
#include "columnar/buffer.h"
#include "columnar/column.h"
#include "columnar/data_type.h"
#include "columnar/fixed_size_binary_builder.h"
#include "columnar/fixed_width_builder.h"
#include "common/memory_tracker.h"
#include "exec/functions/aggregate_merge.h"
#include "exec/functions/registry.h"

namespace sqe::exec::aggregate_internal {

/// The bytes an accumulator holds, charged to its tracker (nullptr: untracked). Grows in
/// steps of half again so that charging is amortized O(1) per group.
class MemoryCharge {
 public:
  explicit MemoryCharge(std::shared_ptr<MemoryTracker> tracker)
      : reservation_(std::move(Reservation::Make(std::move(tracker), 0)).value()) {}

  /// Makes the charge at least `bytes`; ResourceExhausted when the tracker refuses.
  Status Ensure(int64_t bytes) {
    if (bytes <= reservation_.bytes()) return Status::OK();
    const int64_t target = std::max(bytes, reservation_.bytes() + reservation_.bytes() / 2);
    if (reservation_.Resize(target).ok()) return Status::OK();
    return reservation_.Resize(bytes);
  }
  int64_t bytes() const { return reservation_.bytes(); }
  const std::shared_ptr<MemoryTracker>& tracker() const { return reservation_.tracker(); }

 private:
  Reservation reservation_;
};

__extension__ typedef __int128 Int128;

inline Int128 ToInt128(const columnar::Decimal128& d) {
  return static_cast<Int128>((static_cast<unsigned __int128>(static_cast<uint64_t>(d.high)) << 64) |
                             d.low);
}
inline columnar::Decimal128 FromInt128(Int128 v) {
  return columnar::Decimal128(static_cast<int64_t>(v >> 64), static_cast<uint64_t>(v));
}

/// Decimal sums: a 128-bit sum plus a count of 128-bit wraps (positive or negative), so
/// intermediate overflow that later cancels out still gives the exact result (as Trino).
class DecimalSumState {
 public:
  void Resize(size_t n) {
    sums_.resize(n, 0);
    wraps_.resize(n, 0);
    counts_.resize(n, 0);
  }
  void Add(uint32_t g, Int128 value) {
    Int128 result;
    if (__builtin_add_overflow(sums_[g], value, &result)) wraps_[g] += value < 0 ? -1 : 1;
    sums_[g] = result;
    ++counts_[g];
  }
  void MergeGroup(uint32_t g, const DecimalSumState& other, size_t og) {
    if (other.counts_[og] == 0) return;
    Int128 result;
    if (__builtin_add_overflow(sums_[g], other.sums_[og], &result)) {
      wraps_[g] += other.sums_[og] < 0 ? -1 : 1;
    }
    sums_[g] = result;
    wraps_[g] += other.wraps_[og];
    counts_[g] += other.counts_[og];
  }
  size_t size() const { return sums_.size(); }
  Int128 sum(size_t g) const { return sums_[g]; }
  bool wrapped(size_t g) const { return wraps_[g] != 0; }
  int64_t count(size_t g) const { return counts_[g]; }
  static constexpr int64_t kBytesPerGroup = 32;

 private:
  std::vector<Int128> sums_;
  std::vector<int64_t> wraps_;
  std::vector<int64_t> counts_;
};

/// The grouped 128-bit decimal sums (with counts) that sum(decimal) and avg(decimal)
/// both keep; each finishes the state its own way in Finalize.
class DecimalSumAccumulator : public GroupAccumulator {
 public:
  DecimalSumAccumulator(columnar::TypePtr result_type, std::shared_ptr<MemoryTracker> tracker)
      : result_type_(std::move(result_type)), memory_(std::move(tracker)) {}

  Status Resize(int64_t n) override {
    SQE_RETURN_NOT_OK(memory_.Ensure(n * DecimalSumState::kBytesPerGroup));
    state_.Resize(static_cast<size_t>(n));
    return Status::OK();
  }
  Status Update(const std::vector<columnar::Column>& args, const uint32_t* groups,
                int64_t rows) override {
    const columnar::Column& column = args[0];
    const columnar::Decimal128* values = column.Values<columnar::Decimal128>();
    const bool nulls = column.null_count() > 0;
    for (int64_t i = 0; i < rows; ++i) {
      if (nulls && column.IsNull(i)) continue;
      state_.Add(groups[i], ToInt128(values[i]));
    }
    return Status::OK();
  }
  /// `other` is an accumulator of the same function (so of the same subclass).
  Status Merge(GroupAccumulator& other, const uint32_t* map) override {
    auto& source = static_cast<DecimalSumAccumulator&>(other);
    for (size_t g = 0; g < source.state_.size(); ++g) {
      if (map[g] != kSkipGroup) state_.MergeGroup(map[g], source.state_, g);
    }
    return Status::OK();
  }
  int64_t MemoryUsage() const override {
    return static_cast<int64_t>(state_.size()) * DecimalSumState::kBytesPerGroup;
  }

 protected:
  columnar::TypePtr result_type_;
  MemoryCharge memory_;
  DecimalSumState state_;
};

/// Trino's order of doubles: NaN above everything (and equal to itself).
template <typename T>
inline bool ValueLess(const T& a, const T& b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a)) return false;
    if (std::isnan(b)) return true;
    return a < b;
  } else {
    return a < b;
  }
}

/// Fixed-width values read as T: integers, floats, decimal128 (Decimal128), date32
/// (int32_t), time64 / timestamp (int64_t).
template <typename T>
struct FixedTraits {
  using Stored = T;
  using View = T;
  struct Reader {
    explicit Reader(const columnar::Column& c) : values(c.Values<T>()) {}
    T operator[](int64_t i) const { return values[i]; }
    const T* values;
  };
  static void Assign(Stored* slot, View v) { *slot = v; }
  static View ToView(const Stored& s) { return s; }
  static bool Less(View a, View b) { return ValueLess<T>(a, b); }
  static int64_t ExtraBytes(View) { return 0; }
  static Result<columnar::Column> Build(const columnar::TypePtr& type, const std::vector<Stored>& v,
                                        const std::vector<uint8_t>& valid,
                                        const std::shared_ptr<MemoryTracker>& tracker) {
    columnar::FixedWidthBuilder<T> builder(type, tracker);
    SQE_RETURN_NOT_OK(builder.Reserve(static_cast<int64_t>(v.size())));
    for (size_t i = 0; i < v.size(); ++i) {
      SQE_RETURN_NOT_OK(valid[i] ? builder.Append(v[i]) : builder.AppendNull());
    }
    return builder.Finish();
  }
};

struct BoolTraits {
  using Stored = uint8_t;
  using View = bool;
  struct Reader {
    explicit Reader(const columnar::Column& c) : column(&c) {}
    bool operator[](int64_t i) const { return column->BoolAt(i); }
    const columnar::Column* column;
  };
  static void Assign(Stored* slot, View v) { *slot = v ? 1 : 0; }
  static View ToView(const Stored& s) { return s != 0; }
  static bool Less(View a, View b) { return !a && b; }
  static int64_t ExtraBytes(View) { return 0; }
  static Result<columnar::Column> Build(const columnar::TypePtr&, const std::vector<Stored>& v,
                                        const std::vector<uint8_t>& valid,
                                        const std::shared_ptr<MemoryTracker>& tracker) {
    columnar::BooleanBuilder builder(tracker);
    SQE_RETURN_NOT_OK(builder.Reserve(static_cast<int64_t>(v.size())));
    for (size_t i = 0; i < v.size(); ++i) {
      SQE_RETURN_NOT_OK(valid[i] ? builder.Append(v[i] != 0) : builder.AppendNull());
    }
    return builder.Finish();
  }
};

/// varchar, varbinary (offsets + data) and fixed(n) / uuid, ordered by unsigned bytes.
struct BytesTraits {
  using Stored = std::string;
  using View = std::string_view;
  struct Reader {
    explicit Reader(const columnar::Column& c)
        : column(&c), fixed(c.type()->layout() == columnar::Layout::kFixedWidth) {}
    std::string_view operator[](int64_t i) const {
      return fixed ? column->FixedSizeBinaryAt(i) : column->StringAt(i);
    }
    const columnar::Column* column;
    bool fixed;
  };
  static void Assign(Stored* slot, View v) { slot->assign(v.data(), v.size()); }
  static View ToView(const Stored& s) { return s; }
  static bool Less(View a, View b) { return a.compare(b) < 0; }
  static int64_t ExtraBytes(View v) { return static_cast<int64_t>(v.size()); }
  static Result<columnar::Column> Build(const columnar::TypePtr& type, const std::vector<Stored>& v,
                                        const std::vector<uint8_t>& valid,
                                        const std::shared_ptr<MemoryTracker>& tracker) {
    if (type->layout() == columnar::Layout::kFixedWidth) {
      columnar::FixedSizeBinaryBuilder builder(type, tracker);
      SQE_RETURN_NOT_OK(builder.Reserve(static_cast<int64_t>(v.size())));
      for (size_t i = 0; i < v.size(); ++i) {
        SQE_RETURN_NOT_OK(valid[i] ? builder.Append(v[i]) : builder.AppendNull());
      }
      return builder.Finish();
    }
    columnar::BinaryBuilder builder(type, tracker);
    SQE_RETURN_NOT_OK(builder.Reserve(static_cast<int64_t>(v.size())));
    for (size_t i = 0; i < v.size(); ++i) {
      SQE_RETURN_NOT_OK(valid[i] ? builder.Append(v[i]) : builder.AppendNull());
    }
    return builder.Finish();
  }
};

/// Calls `fn(Traits{})` with the traits of `type`'s physical family; false for types no
/// traits class reads (nested types).
template <typename Fn>
bool VisitValueTraits(const columnar::TypePtr& type, Fn&& fn) {
  using columnar::TypeId;
  switch (type->id()) {
    case TypeId::kBoolean:
      fn(BoolTraits{});
      return true;
    case TypeId::kInt8:
      fn(FixedTraits<int8_t>{});
      return true;
    case TypeId::kInt16:
      fn(FixedTraits<int16_t>{});
      return true;
    case TypeId::kInt32:
    case TypeId::kDate32:
      fn(FixedTraits<int32_t>{});
      return true;
    case TypeId::kInt64:
    case TypeId::kTime64:
    case TypeId::kTimestamp:
      fn(FixedTraits<int64_t>{});
      return true;
    case TypeId::kFloat32:
      fn(FixedTraits<float>{});
      return true;
    case TypeId::kFloat64:
      fn(FixedTraits<double>{});
      return true;
    case TypeId::kDecimal128:
      fn(FixedTraits<columnar::Decimal128>{});
      return true;
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kFixedSizeBinary:
    case TypeId::kUuid:
      fn(BytesTraits{});
      return true;
    default:
      return false;
  }
}

/// The bytes of any scalar value, for accumulators that only move values (max_by's x,
/// distinct sets): fixed width: its byte_width() bytes; boolean: one byte in
/// *bool_byte; strings: their bytes.
std::string_view RawValue(const columnar::Column& column, int64_t i, char* bool_byte);
/// A column of `type` from RawValue bytes (row g null where valid[g] == 0).
Result<columnar::Column> BuildRaw(const columnar::TypePtr& type,
                                  const std::vector<std::string>& values,
                                  const std::vector<uint8_t>& valid,
                                  const std::shared_ptr<MemoryTracker>& tracker);

/// Wraps `inner` (made per accumulator) so each group sees each distinct non-null
/// argument value once: count(DISTINCT x), sum(DISTINCT x), ...
AggregateFunction MakeDistinct(AggregateFunction inner);

/// An AggregateFunction with a fixed `make_accumulator`.
using AccumulatorFactory = std::function<Result<std::unique_ptr<GroupAccumulator>>(
    std::shared_ptr<MemoryTracker> tracker)>;
AggregateFunction MakeFunction(std::string name, std::vector<columnar::TypePtr> arg_types,
                               columnar::TypePtr return_type, AccumulatorFactory factory);

/// The factory of an accumulator whose only constructor argument is the tracker.
template <typename Accumulator>
AccumulatorFactory FactoryOf() {
  return [](std::shared_ptr<MemoryTracker> tracker) -> Result<std::unique_ptr<GroupAccumulator>> {
    return std::unique_ptr<GroupAccumulator>(new Accumulator(std::move(tracker)));
  };
}

/// Registers `name` with `resolver`, applying MakeDistinct when a call says DISTINCT.
void AddAggregateFamily(
    FunctionRegistry& registry, const std::string& name,
    std::function<std::optional<AggregateFunction>(const std::vector<columnar::TypePtr>& arg_types)>
        resolver,
    std::string return_type, std::string argument_types, std::string description);

/// The accumulator of the aggregates over double arguments that keep one running state per
/// group (variance, covariance and regression, skewness, ...): rows where any argument is
/// NULL are left out. `Stat` says what is kept and what it gives:
///   static constexpr size_t kArity;            // the double arguments
///   using State = ...;                         // value-initialized per group, Merge(State)
///   using Out = double;                        // or int64_t: the result column's values
///   static void Add(State&, const double* const* args, int64_t row);
///   static bool Finish(const State&, Out* out);  // false: NULL
template <typename Stat>
class DoubleStateAccumulator final : public GroupAccumulator {
 public:
  using State = typename Stat::State;
  using Out = typename Stat::Out;

  explicit DoubleStateAccumulator(std::shared_ptr<MemoryTracker> tracker)
      : memory_(std::move(tracker)) {}

  Status Resize(int64_t n) override {
    SQE_RETURN_NOT_OK(memory_.Ensure(n * static_cast<int64_t>(sizeof(State))));
    state_.resize(static_cast<size_t>(n));
    return Status::OK();
  }
  Status Update(const std::vector<columnar::Column>& args, const uint32_t* groups,
                int64_t rows) override {
    const double* values[Stat::kArity];
    bool nulls = false;
    for (size_t a = 0; a < Stat::kArity; ++a) {
      values[a] = args[a].Values<double>();
      nulls = nulls || args[a].null_count() > 0;
    }
    for (int64_t i = 0; i < rows; ++i) {
      if (nulls && AnyNull(args, i)) continue;
      Stat::Add(state_[groups[i]], values, i);
    }
    return Status::OK();
  }
  Status Merge(GroupAccumulator& other, const uint32_t* map) override {
    const auto& source = static_cast<DoubleStateAccumulator&>(other);
    for (size_t g = 0; g < source.state_.size(); ++g) {
      if (map[g] != kSkipGroup) state_[map[g]].Merge(source.state_[g]);
    }
    return Status::OK();
  }
  Result<columnar::Column> Finalize() override {
    std::vector<Out> values(state_.size());
    std::vector<uint8_t> valid(state_.size());
    for (size_t g = 0; g < state_.size(); ++g) {
      valid[g] = Stat::Finish(state_[g], &values[g]) ? 1 : 0;
    }
    const columnar::TypePtr type =
        std::is_same_v<Out, int64_t> ? columnar::Int64() : columnar::Float64();
    return FixedTraits<Out>::Build(type, values, valid, memory_.tracker());
  }
  int64_t MemoryUsage() const override {
    return static_cast<int64_t>(state_.capacity() * sizeof(State));
  }

 private:
  static bool AnyNull(const std::vector<columnar::Column>& args, int64_t i) {
    for (size_t a = 0; a < Stat::kArity; ++a) {
      if (args[a].IsNull(i)) return true;
    }
    return false;
  }

  MemoryCharge memory_;
  std::vector<State> state_;
};

/// Registers `name` over `arity` numeric arguments, each cast to double by the binder
/// (variance, corr, regr_*, skewness, ...): the signature text is "double" per argument
/// (`argument_names`, e.g. "double y, double x", when given), the result bigint when
/// `bigint_result` and double otherwise.
void AddDoubleArgumentFamily(FunctionRegistry& registry, const std::string& name, size_t arity,
                             bool bigint_result, AccumulatorFactory factory,
                             std::string argument_names, std::string description);

/// A row of a chunk kept by KeptChunks: chunk index and row.
struct RowRef {
  uint32_t chunk;
  uint32_t row;
};

/// The argument columns an accumulator was given (shared buffers, no copy), kept alive for
/// row references into them, with a rough byte charge: the base of the collecting
/// aggregates (array_agg, map_agg, histogram), max_by(x, y, n) and the ordered wrapper.
/// Not thread-safe (one accumulator's state).
class KeptChunks {
 public:
  explicit KeptChunks(std::shared_ptr<MemoryTracker> tracker) : memory_(std::move(tracker)) {}

  /// Keeps `args` (one Update's columns) and charges the kept bytes plus `other_bytes`
  /// (the caller's own state); returns the chunk index.
  Result<uint32_t> Keep(const std::vector<columnar::Column>& args, int64_t rows,
                        int64_t other_bytes) {
    int64_t bytes = 0;
    for (const columnar::Column& c : args) {
      bytes += rows * std::max<int64_t>(c.type()->byte_width(), 16);
    }
    bytes_ += bytes;
    SQE_RETURN_NOT_OK(Charge(other_bytes));
    chunks_.push_back(args);
    return static_cast<uint32_t>(chunks_.size() - 1);
  }
  /// Appends all of `other`'s chunks; returns the index its first chunk got.
  Result<uint32_t> KeepAll(const KeptChunks& other, int64_t other_bytes) {
    const uint32_t base = static_cast<uint32_t>(chunks_.size());
    chunks_.insert(chunks_.end(), other.chunks_.begin(), other.chunks_.end());
    bytes_ += other.bytes_;
    SQE_RETURN_NOT_OK(Charge(other_bytes));
    return base;
  }
  /// Makes the charge at least the kept bytes plus `other_bytes`.
  Status Charge(int64_t other_bytes) { return memory_.Ensure(bytes_ + other_bytes); }
  /// Column `arg` of every chunk, as Interleave pieces.
  std::vector<columnar::Column> Pieces(size_t arg) const {
    std::vector<columnar::Column> pieces;
    pieces.reserve(chunks_.size());
    for (const auto& c : chunks_) pieces.push_back(c[arg]);
    return pieces;
  }
  const columnar::Column& At(uint32_t chunk, size_t arg) const { return chunks_[chunk][arg]; }
  int64_t bytes() const { return bytes_; }
  const std::shared_ptr<MemoryTracker>& tracker() const { return memory_.tracker(); }

 private:
  MemoryCharge memory_;
  std::vector<std::vector<columnar::Column>> chunks_;
  int64_t bytes_ = 0;
};

/// Gathers the referenced rows of argument `arg` (in the order given) into one column of
/// `type` (aggregate_collect.cc).
Result<columnar::Column> Gather(const KeptChunks& chunks, size_t arg, const columnar::TypePtr& type,
                                const std::vector<RowRef>& refs);

/// The validity and offsets buffers of a list / map column of `sizes.size()` rows, a row
/// NULL where its size is 0; ResourceExhausted past 2^31 elements (aggregate_collect.cc).
Status ListBuffers(const std::vector<int64_t>& sizes, const std::shared_ptr<MemoryTracker>& tracker,
                   columnar::BufferPtr* validity, columnar::BufferPtr* offsets,
                   int64_t* null_count);

// One per family file.
void RegisterCountAggregates(FunctionRegistry& registry);
void RegisterSumAggregates(FunctionRegistry& registry);
void RegisterAvgAggregates(FunctionRegistry& registry);
void RegisterMinMaxAggregates(FunctionRegistry& registry);
void RegisterVarianceAggregates(FunctionRegistry& registry);
void RegisterBoolAggregates(FunctionRegistry& registry);
void RegisterApproxDistinctAggregates(FunctionRegistry& registry);
void RegisterStatisticsAggregates(FunctionRegistry& registry);
void RegisterCollectAggregates(FunctionRegistry& registry);
void RegisterChecksumAggregate(FunctionRegistry& registry);
void RegisterApproxPercentileAggregate(FunctionRegistry& registry);
/// Three-way comparison of two non-NULL values of one orderable type (rows of two columns
/// of that type); empty for types VisitValueTraits does not read (aggregate_ordered.cc).
using ValueCompare =
    std::function<int(const columnar::Column&, int64_t, const columnar::Column&, int64_t)>;
ValueCompare MakeValueCompare(const columnar::TypePtr& type);
void RegisterMinMaxByNAggregates(FunctionRegistry& registry);
/// XXH64 of `size` bytes with seed 0 (checksum; aggregate_checksum.cc, over Parquet's).
uint64_t XxHash64(const void* data, size_t size);

/// Whether a numeric aggregate takes an argument of `type`: an integer, floating point or
/// decimal type, or an untyped NULL (nullptr).
inline bool IsNumber(const columnar::TypePtr& type) {
  return type == nullptr || type->is_integer() || type->is_floating() ||
         type->id() == columnar::TypeId::kDecimal128;
}

}  // namespace sqe::exec::aggregate_internal
