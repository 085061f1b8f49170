#pragma once
/// TpchGenerator: the rows of the TPC-H tables (specification clause 4.2) at a scale
/// factor, as columnar Batches for any range of a table. Every value is a function of the
/// seed, the scale factor and the row's number (RowRandom), so ranges can be generated in
/// any order on any number of threads and always give the same rows.
///
/// Ranges are counted in "units": rows, except for lineitem, whose units are orders (an
/// order's 1..7 lines are generated with it, so lineitem ranges line up with orders ranges
/// and o_totalprice / o_orderstatus agree with the lines).
///
/// Thread-safe: Generate may be called from several threads at once.

#include <cstdint>
#include <memory>

#include "columnar/batch.h"
#include "common/result.h"
#include "datagen/text_pool.h"
#include "datagen/tpch_schema.h"

namespace sqe::datagen {

/// The seed sqe-datagen uses unless --seed is given.
inline constexpr uint64_t kDefaultTpchSeed = 19920101;

struct TpchOptions {
  double scale_factor = 1.0;
  uint64_t seed = kDefaultTpchSeed;
  /// Size of the comment text pool (TextPool).
  int64_t text_pool_bytes = TextPool::kDefaultBytes;
};

class TpchGenerator {
 public:
  /// InvalidArgument for a scale factor that is not positive or above 100000.
  static Result<std::unique_ptr<TpchGenerator>> Make(const TpchOptions& options);

  const TpchOptions& options() const { return options_; }
  /// Units of `table` (rows; orders for lineitem).
  int64_t UnitCount(TpchTable table) const { return TpchUnitCount(table, options_.scale_factor); }
  /// The rows of units [first, first + count) of `table`, with TpchSchema(table).
  /// InvalidArgument for a range outside [0, UnitCount).
  Result<columnar::Batch> Generate(TpchTable table, int64_t first, int64_t count) const;

 private:
  explicit TpchGenerator(const TpchOptions& options);

  Result<columnar::Batch> Region(int64_t first, int64_t count) const;
  Result<columnar::Batch> Nation(int64_t first, int64_t count) const;
  Result<columnar::Batch> Part(int64_t first, int64_t count) const;
  Result<columnar::Batch> Supplier(int64_t first, int64_t count) const;
  Result<columnar::Batch> PartSupp(int64_t first, int64_t count) const;
  Result<columnar::Batch> Customer(int64_t first, int64_t count) const;
  Result<columnar::Batch> Orders(int64_t first, int64_t count) const;
  Result<columnar::Batch> Lineitem(int64_t first, int64_t count) const;

  TpchOptions options_;
  std::shared_ptr<const TextPool> text_;
  int64_t parts_ = 0;
  int64_t suppliers_ = 0;
  int64_t customers_ = 0;
  int64_t clerks_ = 0;
};

/// The supplier key of the `i`-th (0..3) supplier of part `partkey` (clause 4.2.3:
/// PS_SUPPKEY), among `suppliers` suppliers.
int64_t TpchPartSupplier(int64_t partkey, int64_t i, int64_t suppliers);
/// P_RETAILPRICE of part `partkey`, in cents.
int64_t TpchRetailPriceCents(int64_t partkey);
/// O_ORDERKEY of the `index`-th (0-based) order: keys are sparse, 8 used of every 32
/// (1..7, 32..39, 64..71, ...), so SF 1 ends at 6,000,000.
int64_t TpchOrderKey(int64_t index);

}  // namespace sqe::datagen
