#include "columnar/selection_vector.h"

#include <limits>

#include "columnar/column.h"

namespace sqe::columnar {

SelectionVector SelectionVector::Range(uint32_t begin, uint32_t end) {
  SelectionVector out;
  if (end > begin) out.indices_.reserve(end - begin);
  for (uint32_t i = begin; i < end; ++i) out.indices_.push_back(i);
  return out;
}

Result<SelectionVector> SelectionVector::FromMask(const Column& mask) {
  if (mask.type() == nullptr || mask.type_id() != TypeId::kBoolean) {
    return Status::InvalidArgument("a filter mask must be boolean, got " +
                                   (mask.type() ? mask.type()->ToString() : std::string("none")));
  }
  if (mask.length() > std::numeric_limits<uint32_t>::max()) {
    return Status::InvalidArgument("a filter mask may have at most 2^32 - 1 rows");
  }
  SelectionVector out;
  const int64_t n = mask.length();
  const uint8_t* values = mask.buffers()[1]->data();
  const int64_t offset = mask.offset();
  const int64_t set = CountSetBits(values, offset, n);
  out.indices_.reserve(static_cast<size_t>(set));
  for (int64_t i = 0; i < n; ++i) {
    if (GetBit(values, offset + i) && mask.IsValid(i)) {
      out.indices_.push_back(static_cast<uint32_t>(i));
    }
  }
  return out;
}

}  // namespace sqe::columnar
