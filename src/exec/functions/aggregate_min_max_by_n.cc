// max_by(x, y, n) / min_by(x, y, n): the x of the n rows with the largest (smallest) y, as
// an array in that order of y (ties in arrival order); rows whose y is NULL are left out;
// NULL for a group without such rows. n is a constant in [1, 10000] (as Trino). Each
// group keeps row references into the kept argument columns and is cut back to its best
// n whenever it holds 2n, so memory is O(n) references per group.

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "exec/functions/aggregate_accumulator_internal.h"
#include "exec/functions/nested_comparison.h"

namespace sqe::exec::aggregate_internal {
namespace {

using columnar::Column;
using columnar::TypePtr;

constexpr int64_t kMaxN = 10000;

struct Ref {
  uint32_t chunk;
  uint32_t row;
  uint64_t seq;  ///< arrival order, the tie-break
};

class ByNAccumulator final : public GroupAccumulator {
 public:
  ByNAccumulator(TypePtr result_type, TypePtr y_type, bool max,
                 std::shared_ptr<MemoryTracker> tracker)
      : result_type_(std::move(result_type)),
        compare_(MakeValueCompare(y_type)),
        max_(max),
        chunks_(std::move(tracker)) {}

  Status Resize(int64_t n) override {
    groups_.resize(static_cast<size_t>(n));
    return Charge();
  }
  Status Update(const std::vector<Column>& args, const uint32_t* groups, int64_t rows) override {
    if (rows == 0) return Status::OK();
    SQE_ASSIGN_OR_RETURN(const uint32_t chunk, chunks_.Keep({args[0], args[1]}, rows, OwnBytes()));
    for (int64_t i = 0; i < rows; ++i) {
      if (args[1].IsNull(i)) continue;
      if (n_ == 0) SQE_RETURN_NOT_OK(ReadN(args[2], i));
      Add(groups[i], Ref{chunk, static_cast<uint32_t>(i), seq_++});
    }
    return Charge();
  }
  Status Merge(GroupAccumulator& other, const uint32_t* map) override {
    const auto& source = static_cast<ByNAccumulator&>(other);
    if (n_ == 0) n_ = source.n_;
    SQE_ASSIGN_OR_RETURN(const uint32_t base, chunks_.KeepAll(source.chunks_, OwnBytes()));
    for (size_t g = 0; g < source.groups_.size(); ++g) {
      if (map[g] == kSkipGroup) continue;
      for (const Ref& r : source.groups_[g]) Add(map[g], Ref{base + r.chunk, r.row, seq_++});
    }
    return Charge();
  }
  Result<Column> Finalize() override {
    std::vector<RowRef> all;
    std::vector<int64_t> sizes(groups_.size());
    for (size_t g = 0; g < groups_.size(); ++g) {
      Trim(groups_[g]);
      std::sort(groups_[g].begin(), groups_[g].end(),
                [&](const Ref& a, const Ref& b) { return Better(a, b); });
      sizes[g] = static_cast<int64_t>(groups_[g].size());
      for (const Ref& r : groups_[g]) all.push_back(RowRef{r.chunk, r.row});
    }
    SQE_ASSIGN_OR_RETURN(Column values,
                         Gather(chunks_, 0, result_type_->value_field().type(), all));
    columnar::BufferPtr validity, offsets;
    int64_t nulls = 0;
    SQE_RETURN_NOT_OK(ListBuffers(sizes, chunks_.tracker(), &validity, &offsets, &nulls));
    return Column::Make(result_type_, static_cast<int64_t>(sizes.size()),
                        {nulls == 0 ? nullptr : validity, offsets}, {std::move(values)}, nulls);
  }
  int64_t MemoryUsage() const override { return chunks_.bytes() + OwnBytes(); }

 private:
  /// The references and per-group vectors (the kept chunks aside).
  int64_t OwnBytes() const {
    return refs_ * static_cast<int64_t>(sizeof(Ref)) + static_cast<int64_t>(groups_.size()) * 24;
  }
  Status Charge() { return chunks_.Charge(OwnBytes()); }
  Status ReadN(const Column& c, int64_t i) {
    const int64_t n = c.IsNull(i) ? 0 : c.Values<int64_t>()[i];
    if (n <= 0 || n > kMaxN) {
      return Status::InvalidArgument(
          "third argument of max_by/min_by must be a positive integer "
          "not above " +
          std::to_string(kMaxN));
    }
    n_ = n;
    return Status::OK();
  }
  /// Whether a ranks before b: larger (max_by) / smaller (min_by) y, then earlier.
  bool Better(const Ref& a, const Ref& b) const {
    const int c = compare_(chunks_.At(a.chunk, 1), a.row, chunks_.At(b.chunk, 1), b.row);
    if (c != 0) return max_ ? c > 0 : c < 0;
    return a.seq < b.seq;
  }
  void Trim(std::vector<Ref>& refs) {
    if (static_cast<int64_t>(refs.size()) <= n_) return;
    std::nth_element(refs.begin(), refs.begin() + n_, refs.end(),
                     [&](const Ref& a, const Ref& b) { return Better(a, b); });
    refs_ -= static_cast<int64_t>(refs.size()) - n_;
    refs.resize(static_cast<size_t>(n_));
  }
  void Add(uint32_t g, Ref r) {
    auto& refs = groups_[g];
    refs.push_back(r);
    ++refs_;
    if (static_cast<int64_t>(refs.size()) >= 2 * n_) Trim(refs);
  }

  TypePtr result_type_;
  ValueCompare compare_;
  bool max_;
  KeptChunks chunks_;
  std::vector<std::vector<Ref>> groups_;
  int64_t refs_ = 0;
  int64_t n_ = 0;
  uint64_t seq_ = 0;
};

}  // namespace

void RegisterMinMaxByNAggregates(FunctionRegistry& registry) {
  for (const bool max : {true, false}) {
    const std::string name = max ? "max_by" : "min_by";
    AddAggregateFamily(
        registry, name,
        [name, max](const std::vector<TypePtr>& args) -> std::optional<AggregateFunction> {
          if (args.size() != 3 || (args[2] != nullptr && !args[2]->is_integer())) {
            return std::nullopt;
          }
          const TypePtr x = args[0] == nullptr ? columnar::Boolean() : args[0];
          const TypePtr y = args[1] == nullptr ? columnar::Boolean() : args[1];
          if (!IsOrderableType(y)) return std::nullopt;  // arrays, rows: order images
          const TypePtr result = columnar::List(x);
          return MakeFunction(name, {x, y, columnar::Int64()}, result,
                              [result, y, max](std::shared_ptr<MemoryTracker> tracker)
                                  -> Result<std::unique_ptr<GroupAccumulator>> {
                                return std::unique_ptr<GroupAccumulator>(
                                    new ByNAccumulator(result, y, max, std::move(tracker)));
                              });
        },
        "array(X)", "X x, Y y, bigint n",
        max ? "the x of the n largest y, largest first"
            : "the x of the n smallest y, smallest first");
  }
}

}  // namespace sqe::exec::aggregate_internal
