// Aggregates that collect values: array_agg (NULL elements kept, in arrival order; an
// ORDER BY inside the call sorts the arrival, see aggregate_ordered.cc), listagg /
// string_agg (NULLs skipped), map_agg (NULL keys skipped, the first value of a repeated
// key kept), histogram (map from value to count, NULLs skipped) and multimap_agg (map
// from key to the array of its values). The accumulators keep the argument columns they
// were given (shared buffers, no copy) and per group references to rows in them; the
// result gathers those rows with Interleave. An empty group gives NULL, as in Trino.

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "columnar/bit_util.h"
#include "columnar/buffer.h"
#include "exec/functions/aggregate_accumulator_internal.h"
#include "exec/functions/comparison.h"
#include "exec/functions/interleave.h"
#include "exec/functions/nested_key_encoding.h"

namespace sqe::exec::aggregate_internal {

using columnar::BufferPtr;
using columnar::Column;
using columnar::TypePtr;

Result<Column> Gather(const KeptChunks& chunks, size_t arg, const TypePtr& type,
                      const std::vector<RowRef>& refs) {
  EvalContext ctx;
  ctx.tracker = chunks.tracker();
  if (refs.empty()) return Column::MakeAllNull(type, 0, ctx.tracker);
  std::vector<int32_t> piece(refs.size());
  std::vector<uint32_t> row(refs.size());
  for (size_t i = 0; i < refs.size(); ++i) {
    piece[i] = static_cast<int32_t>(refs[i].chunk);
    row[i] = refs[i].row;
  }
  return Interleave(type, chunks.Pieces(arg), piece.data(), row.data(),
                    static_cast<int64_t>(refs.size()), ctx);
}

Status ListBuffers(const std::vector<int64_t>& sizes, const std::shared_ptr<MemoryTracker>& tracker,
                   BufferPtr* validity, BufferPtr* offsets, int64_t* null_count) {
  const int64_t n = static_cast<int64_t>(sizes.size());
  SQE_ASSIGN_OR_RETURN(auto offset_buffer, columnar::Buffer::Allocate((n + 1) * 4, tracker));
  SQE_ASSIGN_OR_RETURN(auto validity_buffer, columnar::Buffer::Allocate((n + 7) / 8, tracker));
  int32_t* off = offset_buffer->mutable_data_as<int32_t>();
  uint8_t* bits = validity_buffer->mutable_data_as<uint8_t>();
  *offsets = offset_buffer;
  *validity = validity_buffer;
  int64_t total = 0;
  *null_count = 0;
  off[0] = 0;
  for (int64_t g = 0; g < n; ++g) {
    total += sizes[g];
    if (total > INT32_MAX) return Status::ResourceExhausted("aggregate result over 2^31 elements");
    off[g + 1] = static_cast<int32_t>(total);
    if (sizes[g] > 0) {
      columnar::SetBit(bits, g);
    } else {
      ++*null_count;
    }
  }
  return Status::OK();
}

namespace {

/// Grouped row references into kept chunks; the base of array_agg and map_agg.
class RowCollector : public GroupAccumulator {
 public:
  RowCollector(TypePtr result_type, std::shared_ptr<MemoryTracker> tracker)
      : result_type_(std::move(result_type)), chunks_(std::move(tracker)) {}

  Status Resize(int64_t n) override {
    groups_.resize(static_cast<size_t>(n));
    return Status::OK();
  }
  Status Update(const std::vector<Column>& args, const uint32_t* groups, int64_t rows) override {
    if (rows == 0) return Status::OK();
    refs_ += rows;
    SQE_ASSIGN_OR_RETURN(uint32_t chunk, chunks_.Keep(args, rows, RefBytes()));
    for (int64_t i = 0; i < rows; ++i) {
      if (Skip(args, i)) continue;
      groups_[groups[i]].push_back(RowRef{chunk, static_cast<uint32_t>(i)});
    }
    return Status::OK();
  }
  /// Copies (never moves) `other`'s rows: a window's running accumulator is merged into
  /// snapshots again and again.
  Status Merge(GroupAccumulator& other, const uint32_t* map) override {
    const auto& source = static_cast<RowCollector&>(other);
    refs_ += source.refs_;
    SQE_ASSIGN_OR_RETURN(uint32_t base, chunks_.KeepAll(source.chunks_, RefBytes()));
    for (size_t g = 0; g < source.groups_.size(); ++g) {
      if (map[g] == kSkipGroup) continue;
      auto& target = groups_[map[g]];
      for (const RowRef& r : source.groups_[g]) target.push_back(RowRef{base + r.chunk, r.row});
    }
    return Status::OK();
  }
  int64_t MemoryUsage() const override { return chunks_.bytes() + RefBytes(); }

 protected:
  /// Whether row i takes no part (array_agg: never; map_agg: a NULL key).
  virtual bool Skip(const std::vector<Column>& args, int64_t i) const = 0;
  int64_t RefBytes() const {
    return refs_ * static_cast<int64_t>(sizeof(RowRef)) + static_cast<int64_t>(groups_.size()) * 24;
  }

  TypePtr result_type_;
  KeptChunks chunks_;
  std::vector<std::vector<RowRef>> groups_;
  int64_t refs_ = 0;
};

class ArrayAggAccumulator final : public RowCollector {
 public:
  using RowCollector::RowCollector;

  Result<Column> Finalize() override {
    std::vector<RowRef> all;
    std::vector<int64_t> sizes(groups_.size());
    for (size_t g = 0; g < groups_.size(); ++g) {
      all.insert(all.end(), groups_[g].begin(), groups_[g].end());
      sizes[g] = static_cast<int64_t>(groups_[g].size());
    }
    SQE_ASSIGN_OR_RETURN(Column values,
                         Gather(chunks_, 0, result_type_->value_field().type(), all));
    BufferPtr validity, offsets;
    int64_t nulls = 0;
    SQE_RETURN_NOT_OK(ListBuffers(sizes, chunks_.tracker(), &validity, &offsets, &nulls));
    return Column::Make(result_type_, static_cast<int64_t>(sizes.size()),
                        {nulls == 0 ? nullptr : validity, offsets}, {std::move(values)}, nulls);
  }

 private:
  bool Skip(const std::vector<Column>&, int64_t) const override { return false; }
};

/// A map key's identity: its bytes, or for an array, map or row its grouping-key image
/// (equal exactly when the keys are not distinct).
std::string KeyBytes(const Column& column, int64_t i) {
  if (column.type()->is_nested()) {
    std::string image;
    AppendGroupingKey(column, i, &image);
    return image;
  }
  char b = 0;
  return std::string(RawValue(column, i, &b));
}

/// map_agg (values: the first of each key) and multimap_agg (values: all, as an array).
class MapAggAccumulator final : public RowCollector {
 public:
  MapAggAccumulator(TypePtr result_type, bool multi, std::shared_ptr<MemoryTracker> tracker)
      : RowCollector(std::move(result_type), std::move(tracker)), multi_(multi) {}

  Result<Column> Finalize() override {
    std::vector<RowRef> keys;
    std::vector<RowRef> values;
    std::vector<int64_t> sizes(groups_.size());
    std::vector<int64_t> value_sizes;  // multimap_agg: values per key
    for (size_t g = 0; g < groups_.size(); ++g) {
      std::unordered_map<std::string, size_t> seen;
      std::vector<std::vector<RowRef>> per_key;
      for (const RowRef& r : groups_[g]) {
        auto [it, inserted] = seen.emplace(KeyBytes(chunks_.At(r.chunk, 0), r.row), per_key.size());
        if (inserted) {
          keys.push_back(r);
          per_key.emplace_back();
          if (!multi_) values.push_back(r);
        }
        if (multi_) per_key[it->second].push_back(r);
      }
      sizes[g] = static_cast<int64_t>(per_key.size());
      if (multi_) {
        for (const auto& v : per_key) {
          values.insert(values.end(), v.begin(), v.end());
          value_sizes.push_back(static_cast<int64_t>(v.size()));
        }
      }
    }
    const TypePtr& key_type = result_type_->key_field().type();
    const TypePtr& item_type = result_type_->item_field().type();
    SQE_ASSIGN_OR_RETURN(Column key_column, Gather(chunks_, 0, key_type, keys));
    Column item_column;
    if (multi_) {
      SQE_ASSIGN_OR_RETURN(Column elements,
                           Gather(chunks_, 1, item_type->value_field().type(), values));
      BufferPtr validity, offsets;
      int64_t nulls = 0;
      SQE_RETURN_NOT_OK(ListBuffers(value_sizes, chunks_.tracker(), &validity, &offsets, &nulls));
      SQE_ASSIGN_OR_RETURN(item_column,
                           Column::Make(item_type, static_cast<int64_t>(value_sizes.size()),
                                        {nullptr, offsets}, {std::move(elements)}, 0));
    } else {
      SQE_ASSIGN_OR_RETURN(item_column, Gather(chunks_, 1, item_type, values));
    }
    const TypePtr& entries_type = result_type_->value_field().type();
    SQE_ASSIGN_OR_RETURN(Column entries,
                         Column::Make(entries_type, key_column.length(), {nullptr},
                                      {std::move(key_column), std::move(item_column)}, 0));
    BufferPtr validity, offsets;
    int64_t nulls = 0;
    SQE_RETURN_NOT_OK(ListBuffers(sizes, chunks_.tracker(), &validity, &offsets, &nulls));
    return Column::Make(result_type_, static_cast<int64_t>(sizes.size()),
                        {nulls == 0 ? nullptr : validity, offsets}, {std::move(entries)}, nulls);
  }

 private:
  bool Skip(const std::vector<Column>& args, int64_t i) const override { return args[0].IsNull(i); }
  bool multi_;
};

/// histogram(x): per group the count of each distinct non-NULL value, in first-seen order.
class HistogramAccumulator final : public GroupAccumulator {
 public:
  HistogramAccumulator(TypePtr result_type, std::shared_ptr<MemoryTracker> tracker)
      : result_type_(std::move(result_type)), chunks_(std::move(tracker)) {}

  Status Resize(int64_t n) override {
    groups_.resize(static_cast<size_t>(n));
    return Status::OK();
  }
  Status Update(const std::vector<Column>& args, const uint32_t* groups, int64_t rows) override {
    if (rows == 0) return Status::OK();
    SQE_ASSIGN_OR_RETURN(uint32_t chunk, chunks_.Keep(args, rows, entry_bytes_));
    const Column& column = args[0];
    for (int64_t i = 0; i < rows; ++i) {
      if (column.IsNull(i)) continue;
      Add(groups[i], KeyBytes(column, i), RowRef{chunk, static_cast<uint32_t>(i)}, 1);
    }
    return Status::OK();
  }
  Status Merge(GroupAccumulator& other, const uint32_t* map) override {
    const auto& source = static_cast<HistogramAccumulator&>(other);
    SQE_ASSIGN_OR_RETURN(uint32_t base, chunks_.KeepAll(source.chunks_, entry_bytes_));
    for (size_t g = 0; g < source.groups_.size(); ++g) {
      if (map[g] == kSkipGroup) continue;
      const Group& s = source.groups_[g];
      for (size_t k = 0; k < s.refs.size(); ++k) {
        const RowRef r = s.refs[k];
        Add(map[g], KeyBytes(source.chunks_.At(r.chunk, 0), r.row), RowRef{base + r.chunk, r.row},
            s.counts[k]);
      }
    }
    return Status::OK();
  }
  Result<Column> Finalize() override {
    std::vector<RowRef> keys;
    std::vector<int64_t> counts;
    std::vector<int64_t> sizes(groups_.size());
    for (size_t g = 0; g < groups_.size(); ++g) {
      keys.insert(keys.end(), groups_[g].refs.begin(), groups_[g].refs.end());
      counts.insert(counts.end(), groups_[g].counts.begin(), groups_[g].counts.end());
      sizes[g] = static_cast<int64_t>(groups_[g].refs.size());
    }
    SQE_ASSIGN_OR_RETURN(Column key_column,
                         Gather(chunks_, 0, result_type_->key_field().type(), keys));
    SQE_ASSIGN_OR_RETURN(
        Column count_column,
        FixedTraits<int64_t>::Build(columnar::Int64(), counts,
                                    std::vector<uint8_t>(counts.size(), 1), chunks_.tracker()));
    SQE_ASSIGN_OR_RETURN(
        Column entries,
        Column::Make(result_type_->value_field().type(), key_column.length(), {nullptr},
                     {std::move(key_column), std::move(count_column)}, 0));
    BufferPtr validity, offsets;
    int64_t nulls = 0;
    SQE_RETURN_NOT_OK(ListBuffers(sizes, chunks_.tracker(), &validity, &offsets, &nulls));
    return Column::Make(result_type_, static_cast<int64_t>(sizes.size()),
                        {nulls == 0 ? nullptr : validity, offsets}, {std::move(entries)}, nulls);
  }
  int64_t MemoryUsage() const override { return chunks_.bytes() + entry_bytes_; }

 private:
  struct Group {
    std::unordered_map<std::string, size_t> index;
    std::vector<RowRef> refs;
    std::vector<int64_t> counts;
  };
  void Add(uint32_t g, std::string key, RowRef ref, int64_t count) {
    Group& group = groups_[g];
    const size_t key_size = key.size();
    auto [it, inserted] = group.index.emplace(std::move(key), group.refs.size());
    if (inserted) {
      group.refs.push_back(ref);
      group.counts.push_back(count);
      entry_bytes_ += 64 + static_cast<int64_t>(key_size);
    } else {
      group.counts[it->second] += count;
    }
  }

  TypePtr result_type_;
  KeptChunks chunks_;
  std::vector<Group> groups_;
  int64_t entry_bytes_ = 0;
};

/// listagg(x, separator) / string_agg(x, separator): the non-NULL values joined by the
/// separator (the first non-NULL separator seen), NULL for a group without values.
class ListaggAccumulator final : public GroupAccumulator {
 public:
  explicit ListaggAccumulator(std::shared_ptr<MemoryTracker> tracker)
      : memory_(std::move(tracker)) {}
  Status Resize(int64_t n) override {
    texts_.resize(static_cast<size_t>(n));
    valid_.resize(static_cast<size_t>(n), 0);
    return memory_.Ensure(bytes_ + n * 33);
  }
  Status Update(const std::vector<Column>& args, const uint32_t* groups, int64_t rows) override {
    const Column& values = args[0];
    for (int64_t i = 0; i < rows; ++i) {
      if (values.IsNull(i)) continue;
      if (!have_separator_ && args.size() > 1 && !args[1].IsNull(i)) {
        separator_ = std::string(args[1].StringAt(i));
        have_separator_ = true;
      }
      Append(groups[i], values.StringAt(i));
    }
    return memory_.Ensure(bytes_ + static_cast<int64_t>(texts_.size()) * 33);
  }
  Status Merge(GroupAccumulator& other, const uint32_t* map) override {
    const auto& source = static_cast<ListaggAccumulator&>(other);
    if (!have_separator_ && source.have_separator_) {
      separator_ = source.separator_;
      have_separator_ = true;
    }
    for (size_t g = 0; g < source.texts_.size(); ++g) {
      if (map[g] != kSkipGroup && source.valid_[g]) Append(map[g], source.texts_[g]);
    }
    return memory_.Ensure(bytes_ + static_cast<int64_t>(texts_.size()) * 33);
  }
  Result<Column> Finalize() override {
    return BytesTraits::Build(columnar::String(), texts_, valid_, memory_.tracker());
  }
  int64_t MemoryUsage() const override { return bytes_ + static_cast<int64_t>(texts_.size()) * 33; }

 private:
  void Append(uint32_t g, std::string_view text) {
    if (valid_[g]) {
      texts_[g] += separator_;
      bytes_ += static_cast<int64_t>(separator_.size());
    }
    texts_[g].append(text.data(), text.size());
    bytes_ += static_cast<int64_t>(text.size());
    valid_[g] = 1;
  }

  MemoryCharge memory_;
  std::vector<std::string> texts_;
  std::vector<uint8_t> valid_;
  std::string separator_;
  bool have_separator_ = false;
  int64_t bytes_ = 0;
};

bool IsString(const TypePtr& t) { return t == nullptr || t->id() == columnar::TypeId::kString; }
TypePtr OrVarchar(const TypePtr& t) { return t == nullptr ? columnar::String() : t; }
/// A NULL literal argument's type: unknown; collected as boolean (Trino: unknown).
TypePtr OrBoolean(const TypePtr& t) { return t == nullptr ? columnar::Boolean() : t; }

void AddListagg(FunctionRegistry& registry, const std::string& name, const char* description) {
  AddAggregateFamily(
      registry, name,
      [name](const std::vector<TypePtr>& args) -> std::optional<AggregateFunction> {
        if (args.empty() || args.size() > 2) return std::nullopt;
        for (const TypePtr& t : args) {
          if (!IsString(t)) return std::nullopt;
        }
        std::vector<TypePtr> types(args.size(), columnar::String());
        return MakeFunction(name, types, columnar::String(), FactoryOf<ListaggAccumulator>());
      },
      "varchar", "varchar x, varchar separator", description);
}

}  // namespace

void RegisterCollectAggregates(FunctionRegistry& registry) {
  AddAggregateFamily(
      registry, "array_agg",
      [](const std::vector<TypePtr>& args) -> std::optional<AggregateFunction> {
        if (args.size() != 1) return std::nullopt;
        const TypePtr element = OrBoolean(args[0]);
        const TypePtr result = columnar::List(element);
        return MakeFunction("array_agg", {element}, result,
                            [result](std::shared_ptr<MemoryTracker> tracker)
                                -> Result<std::unique_ptr<GroupAccumulator>> {
                              return std::unique_ptr<GroupAccumulator>(
                                  new ArrayAggAccumulator(result, std::move(tracker)));
                            });
      },
      "array(T)", "T", "the values as an array (NULLs kept)");
  AddListagg(registry, "listagg", "the non-NULL values joined by the separator");
  AddListagg(registry, "string_agg", "the non-NULL values joined by the separator");
  for (const bool multi : {false, true}) {
    const std::string name = multi ? "multimap_agg" : "map_agg";
    AddAggregateFamily(
        registry, name,
        [name, multi](const std::vector<TypePtr>& args) -> std::optional<AggregateFunction> {
          if (args.size() != 2) return std::nullopt;
          const TypePtr key = OrVarchar(args[0]);
          if (!IsComparableType(key)) return std::nullopt;
          const TypePtr value = OrBoolean(args[1]);
          const TypePtr result = columnar::Map(key, multi ? columnar::List(value) : value);
          return MakeFunction(name, {key, value}, result,
                              [result, multi](std::shared_ptr<MemoryTracker> tracker)
                                  -> Result<std::unique_ptr<GroupAccumulator>> {
                                return std::unique_ptr<GroupAccumulator>(
                                    new MapAggAccumulator(result, multi, std::move(tracker)));
                              });
        },
        multi ? "map(K,array(V))" : "map(K,V)", "K key, V value",
        multi ? "a map from each key to the array of its values"
              : "a map from each key to its (first) value");
  }
  AddAggregateFamily(
      registry, "histogram",
      [](const std::vector<TypePtr>& args) -> std::optional<AggregateFunction> {
        if (args.size() != 1) return std::nullopt;
        const TypePtr key = OrVarchar(args[0]);
        if (!IsComparableType(key)) return std::nullopt;
        const TypePtr result = columnar::Map(key, columnar::Int64());
        return MakeFunction("histogram", {key}, result,
                            [result](std::shared_ptr<MemoryTracker> tracker)
                                -> Result<std::unique_ptr<GroupAccumulator>> {
                              return std::unique_ptr<GroupAccumulator>(
                                  new HistogramAccumulator(result, std::move(tracker)));
                            });
      },
      "map(T,bigint)", "T", "a map from each distinct value to its number of occurrences");
}

}  // namespace sqe::exec::aggregate_internal
