#pragma once
/// SelectionVector: the row indices (uint32, relative to row 0 of a column or batch)
/// an operator keeps, in output order; repeats are allowed. Filters produce one, Take
/// (take.h) gathers the rows it names. A plain value type, not synchronized; its few
/// KB per batch are not charged to a MemoryTracker.

#include <cstdint>
#include <vector>

#include "common/result.h"

namespace sqe::columnar {

class Column;

class SelectionVector {
 public:
  SelectionVector() = default;
  explicit SelectionVector(std::vector<uint32_t> indices) : indices_(std::move(indices)) {}
  SelectionVector(std::initializer_list<uint32_t> indices) : indices_(indices) {}

  /// begin, begin + 1, ..., end - 1.
  static SelectionVector Range(uint32_t begin, uint32_t end);
  /// The rows where `mask` (a boolean column) is true and not null.
  static Result<SelectionVector> FromMask(const Column& mask);

  int64_t size() const { return static_cast<int64_t>(indices_.size()); }
  bool empty() const { return indices_.empty(); }
  uint32_t operator[](int64_t i) const { return indices_[i]; }
  const uint32_t* data() const { return indices_.data(); }
  const std::vector<uint32_t>& indices() const { return indices_; }

  void Append(uint32_t index) { indices_.push_back(index); }
  void Reserve(int64_t n) { indices_.reserve(static_cast<size_t>(n)); }
  void Clear() { indices_.clear(); }

  bool operator==(const SelectionVector& other) const { return indices_ == other.indices_; }

 private:
  std::vector<uint32_t> indices_;
};

}  // namespace sqe::columnar
