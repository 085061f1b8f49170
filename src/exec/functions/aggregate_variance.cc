// stddev / stddev_samp / stddev_pop / variance / var_samp / var_pop over double (other
// numbers are cast to double by the binder). Welford's running mean and sum of squared
// deviations per group, merged with Chan et al.'s pairwise formula, which stays accurate
// where sum/sum-of-squares cancels catastrophically. The sample forms are NULL below two
// values, the population forms below one.

#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include "exec/functions/aggregate_accumulator_internal.h"

namespace sqe::exec::aggregate_internal {
namespace {

using columnar::Column;

enum class Spread { kVarSamp, kVarPop, kStddevSamp, kStddevPop };

template <Spread kSpread>
class VarianceAccumulator final : public GroupAccumulator {
 public:
  explicit VarianceAccumulator(std::shared_ptr<MemoryTracker> tracker)
      : memory_(std::move(tracker)) {}

  Status Resize(int64_t n) override {
    SQE_RETURN_NOT_OK(memory_.Ensure(n * 24));
    counts_.resize(static_cast<size_t>(n), 0);
    means_.resize(static_cast<size_t>(n), 0.0);
    m2_.resize(static_cast<size_t>(n), 0.0);
    return Status::OK();
  }
  Status Update(const std::vector<Column>& args, const uint32_t* groups, int64_t rows) override {
    const Column& column = args[0];
    const double* values = column.Values<double>();
    const bool nulls = column.null_count() > 0;
    for (int64_t i = 0; i < rows; ++i) {
      if (nulls && column.IsNull(i)) continue;
      const uint32_t g = groups[i];
      const int64_t n = ++counts_[g];
      const double delta = values[i] - means_[g];
      means_[g] += delta / static_cast<double>(n);
      m2_[g] += delta * (values[i] - means_[g]);
    }
    return Status::OK();
  }
  Status Merge(GroupAccumulator& other, const uint32_t* map) override {
    auto& source = static_cast<VarianceAccumulator&>(other);
    for (size_t g = 0; g < source.counts_.size(); ++g) {
      if (map[g] == kSkipGroup || source.counts_[g] == 0) continue;
      const uint32_t t = map[g];
      const double na = static_cast<double>(counts_[t]);
      const double nb = static_cast<double>(source.counts_[g]);
      const double n = na + nb;
      const double delta = source.means_[g] - means_[t];
      means_[t] += delta * nb / n;
      m2_[t] += source.m2_[g] + delta * delta * na * nb / n;
      counts_[t] += source.counts_[g];
    }
    return Status::OK();
  }
  Result<Column> Finalize() override {
    constexpr bool kSample = kSpread == Spread::kVarSamp || kSpread == Spread::kStddevSamp;
    constexpr bool kRoot = kSpread == Spread::kStddevSamp || kSpread == Spread::kStddevPop;
    std::vector<double> values(counts_.size());
    std::vector<uint8_t> valid(counts_.size());
    for (size_t g = 0; g < counts_.size(); ++g) {
      const int64_t n = counts_[g];
      if (n < (kSample ? 2 : 1)) continue;
      double variance = m2_[g] / static_cast<double>(kSample ? n - 1 : n);
      if (variance < 0) variance = 0;  // rounding can leave a tiny negative
      values[g] = kRoot ? std::sqrt(variance) : variance;
      valid[g] = 1;
    }
    return FixedTraits<double>::Build(columnar::Float64(), values, valid, memory_.tracker());
  }
  int64_t MemoryUsage() const override { return static_cast<int64_t>(counts_.capacity() * 24); }

 private:
  MemoryCharge memory_;
  std::vector<int64_t> counts_;
  std::vector<double> means_;
  std::vector<double> m2_;
};

template <Spread kSpread>
void AddSpread(FunctionRegistry& registry, const std::string& name, const char* description) {
  AddDoubleArgumentFamily(registry, name, 1, false, FactoryOf<VarianceAccumulator<kSpread>>(), "",
                          description);
}

}  // namespace

void RegisterVarianceAggregates(FunctionRegistry& registry) {
  AddSpread<Spread::kStddevSamp>(registry, "stddev", "the sample standard deviation");
  AddSpread<Spread::kStddevSamp>(registry, "stddev_samp", "the sample standard deviation");
  AddSpread<Spread::kStddevPop>(registry, "stddev_pop", "the population standard deviation");
  AddSpread<Spread::kVarSamp>(registry, "variance", "the sample variance");
  AddSpread<Spread::kVarSamp>(registry, "var_samp", "the sample variance");
  AddSpread<Spread::kVarPop>(registry, "var_pop", "the population variance");
}

}  // namespace sqe::exec::aggregate_internal
