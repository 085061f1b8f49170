#include "columnar/column.h"

#include <algorithm>

#include "columnar/utf8.h"

namespace sqe::columnar {
namespace {

int ExpectedBufferCount(Layout layout) {
  switch (layout) {
    case Layout::kBitmap:
    case Layout::kFixedWidth:
    case Layout::kList:
      return 2;
    case Layout::kVarBinary:
      return 3;
    case Layout::kStruct:
      return 1;
  }
  return 0;
}

int ExpectedChildCount(const DataType& type) {
  switch (type.layout()) {
    case Layout::kList:
      return 1;
    case Layout::kStruct:
      return type.num_fields();
    default:
      return 0;
  }
}

}  // namespace

Result<Column> Column::Make(TypePtr type, int64_t length, std::vector<BufferPtr> buffers,
                            std::vector<Column> children, int64_t null_count, int64_t offset) {
  if (type == nullptr) return Status::InvalidArgument("column type must not be null");
  Column column;
  column.type_ = std::move(type);
  column.length_ = length;
  column.offset_ = offset;
  column.buffers_ = std::move(buffers);
  column.children_ = std::move(children);
  if (static_cast<int>(column.buffers_.size()) != ExpectedBufferCount(column.type_->layout())) {
    return Status::InvalidArgument("column of type " + column.type_->ToString() + " needs " +
                                   std::to_string(ExpectedBufferCount(column.type_->layout())) +
                                   " buffers, got " + std::to_string(column.buffers_.size()));
  }
  column.CacheDataPointers();
  if (length < 0 || offset < 0) {
    return Status::InvalidArgument("column length and offset must be >= 0");
  }
  if (column.validity_bits_ == nullptr) {
    if (null_count > 0) {
      return Status::InvalidArgument("column of type " + column.type_->ToString() + " has " +
                                     std::to_string(null_count) + " nulls but no validity bitmap");
    }
    column.null_count_ = 0;
  } else if (null_count == kUnknownNullCount) {
    SQE_RETURN_NOT_OK(column.Validate());  // the bitmap must be large enough to count
    column.null_count_ = length - CountSetBits(column.validity_bits_, offset, length);
    return column;
  } else {
    column.null_count_ = null_count;
  }
  SQE_RETURN_NOT_OK(column.Validate());
  return column;
}

Result<Column> Column::MakeAllNull(TypePtr type, int64_t length,
                                   std::shared_ptr<MemoryTracker> tracker) {
  if (type == nullptr) return Status::InvalidArgument("column type must not be null");
  SQE_ASSIGN_OR_RETURN(std::shared_ptr<Buffer> validity,
                       Buffer::Allocate(BytesForBits(length), tracker));
  std::vector<BufferPtr> buffers{validity};
  std::vector<Column> children;
  switch (type->layout()) {
    case Layout::kBitmap: {
      SQE_ASSIGN_OR_RETURN(auto values, Buffer::Allocate(BytesForBits(length), tracker));
      buffers.push_back(values);
      break;
    }
    case Layout::kFixedWidth: {
      SQE_ASSIGN_OR_RETURN(auto values, Buffer::Allocate(length * type->byte_width(), tracker));
      buffers.push_back(values);
      break;
    }
    case Layout::kVarBinary: {
      SQE_ASSIGN_OR_RETURN(auto offsets,
                           Buffer::Allocate((length + 1) * int64_t{sizeof(int32_t)}, tracker));
      SQE_ASSIGN_OR_RETURN(auto data, Buffer::Allocate(0, tracker));
      buffers.push_back(offsets);
      buffers.push_back(data);
      break;
    }
    case Layout::kList: {
      SQE_ASSIGN_OR_RETURN(auto offsets,
                           Buffer::Allocate((length + 1) * int64_t{sizeof(int32_t)}, tracker));
      buffers.push_back(offsets);
      SQE_ASSIGN_OR_RETURN(Column values, MakeAllNull(type->value_field().type(), 0, tracker));
      children.push_back(std::move(values));
      break;
    }
    case Layout::kStruct:
      for (const Field& field : type->fields()) {
        SQE_ASSIGN_OR_RETURN(Column child, MakeAllNull(field.type(), length, tracker));
        children.push_back(std::move(child));
      }
      break;
  }
  return Make(std::move(type), length, std::move(buffers), std::move(children), length);
}

void Column::CacheDataPointers() {
  validity_bits_ = buffers_.empty() || buffers_[0] == nullptr ? nullptr : buffers_[0]->data();
  values_ = buffers_.size() > 1 && buffers_[1] != nullptr ? buffers_[1]->data() : nullptr;
  data_ = buffers_.size() > 2 && buffers_[2] != nullptr ? buffers_[2]->data() : nullptr;
}

Column Column::StructField(int i) const {
  const Column& child = children_[i];
  if (offset_ == 0 && child.length() == length_) return child;
  return child.Slice(offset_, length_);
}

Column Column::Slice(int64_t offset, int64_t length) const {
  offset = std::clamp<int64_t>(offset, 0, length_);
  length = std::clamp<int64_t>(length, 0, length_ - offset);
  Column out = *this;
  out.offset_ = offset_ + offset;
  out.length_ = length;
  if (null_count_ == 0) {
    out.null_count_ = 0;
  } else if (null_count_ == length_) {
    out.null_count_ = length;
  } else {
    out.null_count_ = length - CountSetBits(validity_bits_, out.offset_, length);
  }
  return out;
}

Status Column::Validate() const {
  if (type_ == nullptr) return Status::InvalidArgument("column has no type");
  const DataType& type = *type_;
  auto invalid = [&](const std::string& what) {
    return Status::InvalidArgument("column of type " + type.ToString() + ": " + what);
  };
  if (static_cast<int>(buffers_.size()) != ExpectedBufferCount(type.layout())) {
    return invalid("wrong number of buffers");
  }
  if (length_ < 0 || offset_ < 0) return invalid("negative length or offset");
  // Bounded so that the size arithmetic below (end * byte_width, (end + 1) * 4) cannot
  // overflow on hostile lengths; far above any real column.
  constexpr int64_t kMaxRows = int64_t{1} << 40;
  if (length_ > kMaxRows || offset_ > kMaxRows - length_) {
    return invalid("length " + std::to_string(length_) + " at offset " + std::to_string(offset_) +
                   " exceeds the maximum of " + std::to_string(kMaxRows) + " rows");
  }
  const int64_t end = offset_ + length_;
  if (null_count_ < 0 || null_count_ > length_) return invalid("null count out of range");
  if (buffers_[0] == nullptr) {
    if (null_count_ != 0) return invalid("nulls without a validity bitmap");
  } else if (buffers_[0]->size() < BytesForBits(end)) {
    return invalid("validity bitmap has " + std::to_string(buffers_[0]->size()) + " bytes, needs " +
                   std::to_string(BytesForBits(end)));
  }
  for (size_t i = 1; i < buffers_.size(); ++i) {
    if (buffers_[i] == nullptr) return invalid("buffer " + std::to_string(i) + " is missing");
  }
  if (static_cast<int>(children_.size()) != ExpectedChildCount(type)) {
    return invalid("expected " + std::to_string(ExpectedChildCount(type)) + " children, got " +
                   std::to_string(children_.size()));
  }
  auto check_size = [&](int index, int64_t needed, const char* name) -> Status {
    if (buffers_[index]->size() < needed) {
      return invalid(std::string(name) + " buffer has " + std::to_string(buffers_[index]->size()) +
                     " bytes, needs " + std::to_string(needed) + " for " + std::to_string(length_) +
                     " rows at offset " + std::to_string(offset_));
    }
    return Status::OK();
  };
  // Offsets of an empty column may be absent entirely (Arrow allows a 0-byte buffer).
  auto check_offsets = [&](int64_t target_size, const char* target) -> Status {
    if (end == 0 && buffers_[1]->size() == 0) return Status::OK();
    SQE_RETURN_NOT_OK(check_size(1, (end + 1) * int64_t{sizeof(int32_t)}, "offsets"));
    const int32_t first = Offsets()[0];
    const int32_t last = Offsets()[length_];
    if (first < 0 || last < first || last > target_size) {
      return invalid("offsets [" + std::to_string(first) + ", " + std::to_string(last) +
                     "] outside the " + std::to_string(target_size) + " " + target);
    }
    return Status::OK();
  };
  switch (type.layout()) {
    case Layout::kBitmap:
      return check_size(1, BytesForBits(end), "values");
    case Layout::kFixedWidth:
      return check_size(1, end * type.byte_width(), "values");
    case Layout::kVarBinary:
      return check_offsets(buffers_[2]->size(), "data bytes");
    case Layout::kList: {
      const Field& expected = type.value_field();
      if (!children_[0].type()->Equals(*expected.type())) {
        return invalid("child has type " + children_[0].type()->ToString() + ", expected " +
                       expected.type()->ToString());
      }
      SQE_RETURN_NOT_OK(children_[0].Validate());
      return check_offsets(children_[0].length(), "child values");
    }
    case Layout::kStruct:
      for (int i = 0; i < num_children(); ++i) {
        const Field& field = type.field(i);
        const Column& child = children_[i];
        if (!child.type()->Equals(*field.type())) {
          return invalid("field '" + field.name() + "' has type " + child.type()->ToString() +
                         ", expected " + field.type()->ToString());
        }
        if (child.length() < end) {
          return invalid("field '" + field.name() + "' has " + std::to_string(child.length()) +
                         " rows, needs " + std::to_string(end));
        }
        SQE_RETURN_NOT_OK(child.Validate());
      }
      return Status::OK();
  }
  return Status::OK();
}

Status Column::ValidateFull() const {
  SQE_RETURN_NOT_OK(Validate());
  auto invalid = [&](const std::string& what) {
    return Status::InvalidArgument("column of type " + type_->ToString() + ": " + what);
  };
  if (validity_bits_ != nullptr &&
      length_ - CountSetBits(validity_bits_, offset_, length_) != null_count_) {
    return invalid("null count does not match the validity bitmap");
  }
  const Layout layout = type_->layout();
  if ((layout == Layout::kVarBinary || layout == Layout::kList) && length_ > 0) {
    const int32_t* offsets = Offsets();
    for (int64_t i = 0; i < length_; ++i) {
      if (offsets[i + 1] < offsets[i]) {
        return invalid("offsets decrease at row " + std::to_string(i));
      }
    }
  }
  switch (type_id()) {
    case TypeId::kString:
      for (int64_t i = 0; i < length_; ++i) {
        if (!IsNull(i) && !IsValidUtf8(StringAt(i))) {
          return invalid("row " + std::to_string(i) + " is not valid UTF-8");
        }
      }
      return Status::OK();
    case TypeId::kMap:
      if (length_ > 0) {
        const Column& entries = children_[0];
        if (entries.null_count() != 0) return invalid("map entries must not be null");
        const Column keys = MapKeys();
        for (int64_t i = Offsets()[0]; i < Offsets()[length_]; ++i) {
          if (keys.IsNull(i)) return invalid("map key " + std::to_string(i) + " is null");
        }
      }
      return children_[0].ValidateFull();
    case TypeId::kList:
      return children_[0].ValidateFull();
    case TypeId::kStruct:
      for (int i = 0; i < num_children(); ++i) SQE_RETURN_NOT_OK(StructField(i).ValidateFull());
      return Status::OK();
    default:
      return Status::OK();
  }
}

}  // namespace sqe::columnar
