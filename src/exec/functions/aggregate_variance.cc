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

enum class Spread { kVarSamp, kVarPop, kStddevSamp, kStddevPop };

/// Count, running mean and sum of squared deviations of one group.
struct Welford {
  int64_t n = 0;
  double mean = 0, m2 = 0;

  void Add(double v) {
    ++n;
    const double delta = v - mean;
    mean += delta / static_cast<double>(n);
    m2 += delta * (v - mean);
  }
  void Merge(const Welford& o) {
    if (o.n == 0) return;
    const double na = static_cast<double>(n);
    const double nb = static_cast<double>(o.n);
    const double total = na + nb;
    const double delta = o.mean - mean;
    mean += delta * nb / total;
    m2 += o.m2 + delta * delta * na * nb / total;
    n += o.n;
  }
};

template <Spread kSpread>
struct SpreadStat {
  static constexpr size_t kArity = 1;
  using State = Welford;
  using Out = double;
  static void Add(State& s, const double* const* args, int64_t row) { s.Add(args[0][row]); }
  static bool Finish(const State& s, double* out) {
    constexpr bool kSample = kSpread == Spread::kVarSamp || kSpread == Spread::kStddevSamp;
    constexpr bool kRoot = kSpread == Spread::kStddevSamp || kSpread == Spread::kStddevPop;
    if (s.n < (kSample ? 2 : 1)) return false;
    double variance = s.m2 / static_cast<double>(kSample ? s.n - 1 : s.n);
    if (variance < 0) variance = 0;  // rounding can leave a tiny negative
    *out = kRoot ? std::sqrt(variance) : variance;
    return true;
  }
};

template <Spread kSpread>
void AddSpread(FunctionRegistry& registry, const std::string& name, const char* description) {
  AddDoubleArgumentFamily(registry, name, 1, false,
                          FactoryOf<DoubleStateAccumulator<SpreadStat<kSpread>>>(), "",
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
