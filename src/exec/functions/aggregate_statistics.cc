// Two-variable statistics over double (y, x) pairs: corr, covar_pop, covar_samp and the
// regr_* family, plus the higher central moments (skewness, kurtosis) and geometric_mean
// of one double. Rows where any argument is NULL are left out. Running means with
// co-moment sums (Welford's update), merged with the pairwise formula of Chan et al., so
// large offsets do not cancel catastrophically. Results follow Trino: corr, regr_slope and
// regr_intercept are NULL where the value is not finite (constant inputs); covar_samp is
// NULL below two pairs. regr_count/r2/avgx/avgy/sxx/syy/sxy follow the SQL standard.

#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "exec/functions/aggregate_accumulator_internal.h"

namespace sqe::exec::aggregate_internal {
namespace {

using columnar::Column;

enum class PairStat {
  kCorr,
  kCovarPop,
  kCovarSamp,
  kRegrSlope,
  kRegrIntercept,
  kRegrCount,
  kRegrR2,
  kRegrAvgX,
  kRegrAvgY,
  kRegrSxx,
  kRegrSyy,
  kRegrSxy,
};

/// Per group: pair count, means of x and y, sum of (x - mean x)(y - mean y) and the two
/// sums of squared deviations.
struct PairMoments {
  int64_t n = 0;
  double mean_x = 0, mean_y = 0, c2 = 0, m2x = 0, m2y = 0;

  void Add(double y, double x) {
    ++n;
    const double dn = static_cast<double>(n);
    const double dx = x - mean_x;
    const double dy = y - mean_y;
    mean_x += dx / dn;
    mean_y += dy / dn;
    c2 += dx * (y - mean_y);
    m2x += dx * (x - mean_x);
    m2y += dy * (y - mean_y);
  }
  void Merge(const PairMoments& o) {
    if (o.n == 0) return;
    if (n == 0) {
      *this = o;
      return;
    }
    const double na = static_cast<double>(n), nb = static_cast<double>(o.n);
    const double total = na + nb;
    const double dx = o.mean_x - mean_x, dy = o.mean_y - mean_y;
    c2 += o.c2 + dx * dy * na * nb / total;
    m2x += o.m2x + dx * dx * na * nb / total;
    m2y += o.m2y + dy * dy * na * nb / total;
    mean_x += dx * nb / total;
    mean_y += dy * nb / total;
    n += o.n;
  }
};

/// The finished value of `kStat` for one group; false for NULL.
template <PairStat kStat>
bool FinishPair(const PairMoments& m, double* out) {
  const double n = static_cast<double>(m.n);
  if (m.n == 0) return false;
  switch (kStat) {
    case PairStat::kCorr:
      if (m.n < 2) return false;
      *out = m.c2 / std::sqrt(m.m2x) / std::sqrt(m.m2y);
      return std::isfinite(*out);
    case PairStat::kCovarPop:
      *out = m.c2 / n;
      return true;
    case PairStat::kCovarSamp:
      if (m.n < 2) return false;
      *out = m.c2 / (n - 1);
      return true;
    case PairStat::kRegrSlope:
      *out = m.c2 / m.m2x;
      return std::isfinite(*out);
    case PairStat::kRegrIntercept:
      *out = m.mean_y - m.c2 / m.m2x * m.mean_x;
      return std::isfinite(*out);
    case PairStat::kRegrR2:
      if (m.m2x == 0) return false;
      if (m.m2y == 0) {
        *out = 1;
        return true;
      }
      *out = (m.c2 * m.c2) / (m.m2x * m.m2y);
      return std::isfinite(*out);
    case PairStat::kRegrAvgX:
      *out = m.mean_x;
      return true;
    case PairStat::kRegrAvgY:
      *out = m.mean_y;
      return true;
    case PairStat::kRegrSxx:
      *out = m.m2x;
      return true;
    case PairStat::kRegrSyy:
      *out = m.m2y;
      return true;
    case PairStat::kRegrSxy:
      *out = m.c2;
      return true;
    case PairStat::kRegrCount:
      return false;
  }
  return false;
}

template <PairStat kStat>
struct PairStatOf {
  static constexpr size_t kArity = 2;
  using State = PairMoments;
  using Out = std::conditional_t<kStat == PairStat::kRegrCount, int64_t, double>;
  static void Add(State& s, const double* const* args, int64_t row) {
    s.Add(args[0][row], args[1][row]);
  }
  static bool Finish(const State& s, Out* out) {
    if constexpr (kStat == PairStat::kRegrCount) {
      *out = s.n;
      return true;
    } else {
      return FinishPair<kStat>(s, out);
    }
  }
};

enum class MomentStat { kSkewness, kKurtosis, kGeometricMean };

/// Per group: count, mean and the 2nd to 4th central moment sums (skewness, kurtosis).
struct CentralMoments {
  int64_t n = 0;
  double m1 = 0, m2 = 0, m3 = 0, m4 = 0;

  void Add(double v) {
    const double n1 = static_cast<double>(n);
    ++n;
    const double dn = static_cast<double>(n);
    const double delta = v - m1;
    const double delta_n = delta / dn;
    const double delta_n2 = delta_n * delta_n;
    const double term = delta * delta_n * n1;
    m1 += delta_n;
    m4 += term * delta_n2 * (dn * dn - 3 * dn + 3) + 6 * delta_n2 * m2 - 4 * delta_n * m3;
    m3 += term * delta_n * (dn - 2) - 3 * delta_n * m2;
    m2 += term;
  }
  void Merge(const CentralMoments& o) {
    if (o.n == 0) return;
    if (n == 0) {
      *this = o;
      return;
    }
    const double na = static_cast<double>(n), nb = static_cast<double>(o.n);
    const double t = na + nb;
    const double d = o.m1 - m1, d2 = d * d, d3 = d2 * d, d4 = d2 * d2;
    const double new_m4 = m4 + o.m4 + d4 * na * nb * (na * na - na * nb + nb * nb) / (t * t * t) +
                          6 * d2 * (na * na * o.m2 + nb * nb * m2) / (t * t) +
                          4 * d * (na * o.m3 - nb * m3) / t;
    const double new_m3 =
        m3 + o.m3 + d3 * na * nb * (na - nb) / (t * t) + 3 * d * (na * o.m2 - nb * m2) / t;
    m2 += o.m2 + d2 * na * nb / t;
    m3 = new_m3;
    m4 = new_m4;
    m1 = (na * m1 + nb * o.m1) / t;
    n += o.n;
  }
};

/// Count and sum of logarithms (geometric_mean).
struct LogSum {
  int64_t n = 0;
  double sum = 0;

  void Merge(const LogSum& o) {
    n += o.n;
    sum += o.sum;
  }
};

template <MomentStat kStat>
struct MomentStatOf {
  static constexpr size_t kArity = 1;
  static constexpr bool kLog = kStat == MomentStat::kGeometricMean;
  using State = std::conditional_t<kLog, LogSum, CentralMoments>;
  using Out = double;
  static void Add(State& s, const double* const* args, int64_t row) {
    if constexpr (kLog) {
      ++s.n;
      s.sum += std::log(args[0][row]);
    } else {
      s.Add(args[0][row]);
    }
  }
  static bool Finish(const State& s, double* out) {
    const double n = static_cast<double>(s.n);
    if constexpr (kLog) {
      if (s.n == 0) return false;
      *out = std::exp(s.sum / n);
    } else if constexpr (kStat == MomentStat::kSkewness) {
      // Trino's (population) skewness: sqrt(n) * m3 / m2^1.5, NULL below three values.
      if (s.n < 3) return false;
      *out = std::sqrt(n) * s.m3 / std::pow(s.m2, 1.5);
    } else {
      // The sample excess kurtosis, NULL below four values.
      if (s.n < 4) return false;
      const double a = (n - 1) * (n + 1) * n * s.m4 / (s.m2 * s.m2);
      *out = (a - 3 * (n - 1) * (n - 1)) / ((n - 2) * (n - 3));
    }
    return true;
  }
};

enum class BitOp { kAnd, kOr, kXor };

/// bitwise_and_agg / bitwise_or_agg / bitwise_xor_agg over bigint: NULL for a group
/// without a non-NULL value.
template <BitOp kOp>
class BitwiseAccumulator final : public GroupAccumulator {
 public:
  explicit BitwiseAccumulator(std::shared_ptr<MemoryTracker> tracker)
      : memory_(std::move(tracker)) {}
  Status Resize(int64_t n) override {
    SQE_RETURN_NOT_OK(memory_.Ensure(n * 9));
    values_.resize(static_cast<size_t>(n), kOp == BitOp::kAnd ? -1 : 0);
    seen_.resize(static_cast<size_t>(n), 0);
    return Status::OK();
  }
  void Combine(uint32_t g, int64_t v) {
    if constexpr (kOp == BitOp::kAnd) {
      values_[g] &= v;
    } else if constexpr (kOp == BitOp::kOr) {
      values_[g] |= v;
    } else {
      values_[g] ^= v;
    }
    seen_[g] = 1;
  }
  Status Update(const std::vector<Column>& args, const uint32_t* groups, int64_t rows) override {
    const Column& column = args[0];
    const int64_t* values = column.Values<int64_t>();
    const bool nulls = column.null_count() > 0;
    for (int64_t i = 0; i < rows; ++i) {
      if (nulls && column.IsNull(i)) continue;
      Combine(groups[i], values[i]);
    }
    return Status::OK();
  }
  Status Merge(GroupAccumulator& other, const uint32_t* map) override {
    const auto& source = static_cast<BitwiseAccumulator&>(other);
    for (size_t g = 0; g < source.values_.size(); ++g) {
      if (map[g] != kSkipGroup && source.seen_[g]) Combine(map[g], source.values_[g]);
    }
    return Status::OK();
  }
  Result<Column> Finalize() override {
    return FixedTraits<int64_t>::Build(columnar::Int64(), values_, seen_, memory_.tracker());
  }
  int64_t MemoryUsage() const override { return static_cast<int64_t>(values_.capacity() * 9); }

 private:
  MemoryCharge memory_;
  std::vector<int64_t> values_;
  std::vector<uint8_t> seen_;
};

template <PairStat kStat>
void AddPair(FunctionRegistry& registry, const std::string& name, const char* description) {
  AddDoubleArgumentFamily(registry, name, 2, kStat == PairStat::kRegrCount,
                          FactoryOf<DoubleStateAccumulator<PairStatOf<kStat>>>(),
                          "double y, double x", description);
}

template <MomentStat kStat>
void AddMoment(FunctionRegistry& registry, const std::string& name, const char* description) {
  AddDoubleArgumentFamily(registry, name, 1, false,
                          FactoryOf<DoubleStateAccumulator<MomentStatOf<kStat>>>(), "",
                          description);
}

template <BitOp kOp>
void AddBitwise(FunctionRegistry& registry, const std::string& name, const char* description) {
  AddAggregateFamily(
      registry, name,
      [name](const std::vector<columnar::TypePtr>& args) -> std::optional<AggregateFunction> {
        if (args.size() != 1 || (args[0] != nullptr && !args[0]->is_integer())) {
          return std::nullopt;
        }
        return MakeFunction(name, {columnar::Int64()}, columnar::Int64(),
                            FactoryOf<BitwiseAccumulator<kOp>>());
      },
      "bigint", "bigint", description);
}

}  // namespace

void RegisterStatisticsAggregates(FunctionRegistry& registry) {
  AddPair<PairStat::kCorr>(registry, "corr", "the correlation coefficient of y and x");
  AddPair<PairStat::kCovarPop>(registry, "covar_pop", "the population covariance of y and x");
  AddPair<PairStat::kCovarSamp>(registry, "covar_samp", "the sample covariance of y and x");
  AddPair<PairStat::kRegrSlope>(registry, "regr_slope", "the slope of the least-squares line");
  AddPair<PairStat::kRegrIntercept>(registry, "regr_intercept",
                                    "the y-intercept of the least-squares line");
  AddPair<PairStat::kRegrCount>(registry, "regr_count", "the number of non-NULL (y, x) pairs");
  AddPair<PairStat::kRegrR2>(registry, "regr_r2", "the coefficient of determination");
  AddPair<PairStat::kRegrAvgX>(registry, "regr_avgx", "the average of x over non-NULL pairs");
  AddPair<PairStat::kRegrAvgY>(registry, "regr_avgy", "the average of y over non-NULL pairs");
  AddPair<PairStat::kRegrSxx>(registry, "regr_sxx", "the sum of squared deviations of x");
  AddPair<PairStat::kRegrSyy>(registry, "regr_syy", "the sum of squared deviations of y");
  AddPair<PairStat::kRegrSxy>(registry, "regr_sxy", "the sum of products of deviations");
  AddMoment<MomentStat::kSkewness>(registry, "skewness", "the skewness of the values");
  AddMoment<MomentStat::kKurtosis>(registry, "kurtosis", "the excess kurtosis of the values");
  AddMoment<MomentStat::kGeometricMean>(registry, "geometric_mean",
                                        "the geometric mean of the values");
  AddBitwise<BitOp::kAnd>(registry, "bitwise_and_agg", "the bitwise AND of all values");
  AddBitwise<BitOp::kOr>(registry, "bitwise_or_agg", "the bitwise OR of all values");
  AddBitwise<BitOp::kXor>(registry, "bitwise_xor_agg", "the bitwise XOR of all values");
}

}  // namespace sqe::exec::aggregate_internal
