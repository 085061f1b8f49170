// approx_percentile(x, p) and approx_percentile(x, ARRAY[p1, p2, ...]) over a mergeable
// quantile sketch of our own, a merging t-digest: each group keeps up to kBufferSize raw
// values exactly; past that, values and centroids are sorted and adjacent ones merged
// while a centroid's weight stays under 4 * n * q * (1 - q) / kCompression (q: its
// quantile), so centroids are small near the tails and the sketch holds O(kCompression)
// centroids. Accuracy: exact (the value of rank floor(p * n), as Trino's q-digest picks)
// up to kBufferSize values per group; beyond that the rank error is typically well
// under 1% (about 0.1% near the tails) with kCompression = 200; merging sketches (threads,
// window frames) keeps that bound. Integer inputs give bigint (the centroid mean
// rounded), others double. Percentiles must lie in [0, 1].

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "columnar/bit_util.h"
#include "columnar/buffer.h"
#include "exec/functions/aggregate_accumulator_internal.h"

namespace sqe::exec::aggregate_internal {
namespace {

using columnar::Column;
using columnar::TypePtr;

constexpr size_t kBufferSize = 512;

double NumberAt(const Column& c, int64_t i);
constexpr double kCompression = 200;

/// One group's sketch: weighted points (mean, weight), unsorted until Compress.
class Digest {
 public:
  void Add(double v) {
    points_.emplace_back(v, 1.0);
    total_ += 1;
    if (points_.size() > limit_) Compress();
  }
  void Merge(const Digest& other) {
    points_.insert(points_.end(), other.points_.begin(), other.points_.end());
    total_ += other.total_;
    if (points_.size() > limit_) Compress();
  }
  /// The value at quantile p (0 <= p <= 1); total() > 0.
  double Quantile(double p) {
    std::sort(points_.begin(), points_.end());
    const double target = p * total_;
    double cumulative = 0;
    for (const auto& [mean, weight] : points_) {
      if (cumulative + weight > target) return mean;
      cumulative += weight;
    }
    return points_.back().first;
  }
  double total() const { return total_; }
  size_t size() const { return points_.size(); }

 private:
  void Compress() {
    std::sort(points_.begin(), points_.end());
    std::vector<std::pair<double, double>> merged;
    merged.reserve(static_cast<size_t>(kCompression) * 2);
    double before = 0;  // weight of the centroids already closed
    for (const auto& [mean, weight] : points_) {
      if (!merged.empty()) {
        auto& last = merged.back();
        const double w = last.second + weight;
        const double q = (before + w / 2) / total_;
        if (w <= std::max(1.0, 4 * total_ * q * (1 - q) / kCompression)) {
          last.first += (mean - last.first) * weight / w;
          last.second = w;
          continue;
        }
        before += last.second;
      }
      merged.emplace_back(mean, weight);
    }
    points_ = std::move(merged);
    // Compress again only after as many new points again (amortized O(log) per value).
    limit_ = std::max(kBufferSize, points_.size() * 2);
  }

  std::vector<std::pair<double, double>> points_;
  double total_ = 0;
  size_t limit_ = kBufferSize;
};

class ApproxPercentileAccumulator final : public GroupAccumulator {
 public:
  ApproxPercentileAccumulator(TypePtr result_type, bool integer, bool array,
                              std::shared_ptr<MemoryTracker> tracker)
      : result_type_(std::move(result_type)),
        integer_(integer),
        array_(array),
        memory_(std::move(tracker)) {}

  Status Resize(int64_t n) override {
    digests_.resize(static_cast<size_t>(n));
    return Charge();
  }
  Status Update(const std::vector<Column>& args, const uint32_t* groups, int64_t rows) override {
    const Column& x = args[0];
    for (int64_t i = 0; i < rows; ++i) {
      if (x.IsNull(i)) continue;
      if (!have_percentiles_) SQE_RETURN_NOT_OK(ReadPercentiles(args[1], i));
      const double v =
          integer_ ? static_cast<double>(x.Values<int64_t>()[i]) : x.Values<double>()[i];
      Digest& d = digests_[groups[i]];
      points_ -= static_cast<int64_t>(d.size());
      d.Add(v);
      points_ += static_cast<int64_t>(d.size());
    }
    return Charge();
  }
  Status Merge(GroupAccumulator& other, const uint32_t* map) override {
    const auto& source = static_cast<ApproxPercentileAccumulator&>(other);
    if (!have_percentiles_ && source.have_percentiles_) {
      percentiles_ = source.percentiles_;
      have_percentiles_ = true;
    }
    for (size_t g = 0; g < source.digests_.size(); ++g) {
      if (map[g] == kSkipGroup || source.digests_[g].total() == 0) continue;
      Digest& d = digests_[map[g]];
      points_ -= static_cast<int64_t>(d.size());
      d.Merge(source.digests_[g]);
      points_ += static_cast<int64_t>(d.size());
    }
    return Charge();
  }
  Result<Column> Finalize() override {
    const size_t n = digests_.size();
    const size_t per_group = percentiles_.size();
    std::vector<double> values;
    std::vector<uint8_t> valid;
    for (size_t g = 0; g < n; ++g) {
      const bool empty = digests_[g].total() == 0;
      if (!array_) {
        values.push_back(empty ? 0
                               : digests_[g].Quantile(percentiles_.empty() ? 0 : percentiles_[0]));
        valid.push_back(empty ? 0 : 1);
      } else if (!empty) {
        for (double p : percentiles_) {
          values.push_back(digests_[g].Quantile(p));
          valid.push_back(1);
        }
      }
    }
    Column flat;
    const TypePtr value_type = integer_ ? columnar::Int64() : columnar::Float64();
    if (integer_) {
      std::vector<int64_t> ints(values.size());
      for (size_t i = 0; i < values.size(); ++i) ints[i] = std::llround(values[i]);
      SQE_ASSIGN_OR_RETURN(flat,
                           FixedTraits<int64_t>::Build(value_type, ints, valid, memory_.tracker()));
    } else {
      SQE_ASSIGN_OR_RETURN(
          flat, FixedTraits<double>::Build(value_type, values, valid, memory_.tracker()));
    }
    if (!array_) return flat;
    const int64_t rows = static_cast<int64_t>(n);
    SQE_ASSIGN_OR_RETURN(auto offsets,
                         columnar::Buffer::Allocate((rows + 1) * 4, memory_.tracker()));
    SQE_ASSIGN_OR_RETURN(auto validity,
                         columnar::Buffer::Allocate((rows + 7) / 8, memory_.tracker()));
    int32_t* off = offsets->mutable_data_as<int32_t>();
    uint8_t* bits = validity->mutable_data_as<uint8_t>();
    int64_t nulls = 0, at = 0;
    off[0] = 0;
    for (size_t g = 0; g < n; ++g) {
      if (digests_[g].total() == 0) {
        ++nulls;
      } else {
        columnar::SetBit(bits, static_cast<int64_t>(g));
        at += static_cast<int64_t>(per_group);
      }
      off[g + 1] = static_cast<int32_t>(at);
    }
    return Column::Make(result_type_, rows, {nulls == 0 ? nullptr : validity, offsets},
                        {std::move(flat)}, nulls);
  }
  int64_t MemoryUsage() const override {
    return static_cast<int64_t>(digests_.size() * sizeof(Digest)) + points_ * 16;
  }

 private:
  Status Charge() { return memory_.Ensure(MemoryUsage()); }
  Status ReadPercentiles(const Column& p, int64_t i) {
    std::vector<double> read;
    if (p.IsNull(i)) return Status::InvalidArgument("Percentile cannot be null");
    if (array_) {
      const Column& values = p.ListValues();
      const int64_t start = p.ListStart(i);
      for (int64_t k = 0; k < p.ListLength(i); ++k) {
        if (values.IsNull(start + k)) return Status::InvalidArgument("Percentile cannot be null");
        read.push_back(NumberAt(values, start + k));
      }
    } else {
      read.push_back(p.Values<double>()[i]);
    }
    for (double v : read) {
      if (!(v >= 0 && v <= 1)) return Status::InvalidArgument("Percentile must be between 0 and 1");
    }
    percentiles_ = std::move(read);
    have_percentiles_ = true;
    return Status::OK();
  }

  TypePtr result_type_;
  bool integer_;
  bool array_;
  MemoryCharge memory_;
  std::vector<Digest> digests_;
  std::vector<double> percentiles_;
  bool have_percentiles_ = false;
  int64_t points_ = 0;
};

/// Row i of a numeric column as a double (the percentile array keeps its literal type:
/// ARRAY[0.5, 1] is array(decimal(2,1)), which has no cast to array(double)).
double NumberAt(const Column& c, int64_t i) {
  switch (c.type()->id()) {
    case columnar::TypeId::kFloat64:
      return c.Values<double>()[i];
    case columnar::TypeId::kFloat32:
      return c.Values<float>()[i];
    case columnar::TypeId::kInt8:
      return c.Values<int8_t>()[i];
    case columnar::TypeId::kInt16:
      return c.Values<int16_t>()[i];
    case columnar::TypeId::kInt32:
      return c.Values<int32_t>()[i];
    case columnar::TypeId::kInt64:
      return static_cast<double>(c.Values<int64_t>()[i]);
    case columnar::TypeId::kDecimal128:
      return static_cast<double>(ToInt128(c.Values<columnar::Decimal128>()[i])) /
             std::pow(10.0, c.type()->scale());
    default:
      return NAN;
  }
}

}  // namespace

void RegisterApproxPercentileAggregate(FunctionRegistry& registry) {
  AddAggregateFamily(
      registry, "approx_percentile",
      [](const std::vector<TypePtr>& args) -> std::optional<AggregateFunction> {
        if (args.size() != 2 || !IsNumber(args[0])) return std::nullopt;
        const bool array = args[1] != nullptr && args[1]->id() == columnar::TypeId::kList;
        if (array && !IsNumber(args[1]->value_field().type())) return std::nullopt;
        if (!array && !IsNumber(args[1])) return std::nullopt;
        const bool integer = args[0] != nullptr && args[0]->is_integer();
        const TypePtr value = integer ? columnar::Int64() : columnar::Float64();
        const TypePtr result = array ? columnar::List(value) : value;
        const TypePtr p = array ? args[1] : columnar::Float64();
        return MakeFunction(
            "approx_percentile", {value, p}, result,
            [result, integer, array](std::shared_ptr<MemoryTracker> tracker)
                -> Result<std::unique_ptr<GroupAccumulator>> {
              return std::unique_ptr<GroupAccumulator>(
                  new ApproxPercentileAccumulator(result, integer, array, std::move(tracker)));
            });
      },
      "T | array(T)", "T x, double percentile | array(double) percentiles",
      "the approximate value at the percentile(s) (t-digest sketch)");
}

}  // namespace sqe::exec::aggregate_internal
