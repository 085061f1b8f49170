// Value decoding for the column chunk reader: every data-page encoding, the leaf
// conversions and the dictionary gather, batch at a time.
#include <algorithm>
#include <cstring>
#include <limits>

#include "columnar/decimal128.h"
#include "formats/parquet/encoding/byte_stream_split.h"
#include "formats/parquet/encoding/delta.h"
#include "formats/parquet/encoding/dictionary.h"
#include "formats/parquet/encoding/plain.h"
#include "formats/parquet/encoding/rle.h"
#include "formats/parquet/leaf_values_internal.h"
#include "formats/parquet/value_conversion.h"

namespace sqe::parquet::internal {
namespace {

using columnar::Decimal128;

Status BadEncoding(Encoding e, PhysicalType t) {
  return Status::Corruption("encoding " + std::string(EncodingName(e)) + " is not valid for " +
                            std::string(PhysicalTypeName(t)) + " values");
}

template <typename T>
T Load(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

template <typename T>
void Store(uint8_t* p, T v) {
  std::memcpy(p, &v, sizeof(T));
}

template <typename T>
void GatherTyped(const uint8_t* dict, const uint32_t* indices, int64_t n, uint8_t* out) {
  for (int64_t i = 0; i < n; ++i) {
    std::memcpy(out + i * sizeof(T), dict + int64_t{indices[i]} * sizeof(T), sizeof(T));
  }
}

}  // namespace

Status GrowableBuffer::Resize(int64_t size) {
  if (size < 0) return Status::Internal("negative buffer size");
  const int64_t allocated = buffer_ ? buffer_->size() : 0;
  if (size > allocated) {
    SQE_RETURN_NOT_OK(
        Reserve(std::max(size, allocated > (int64_t{1} << 40) ? size : allocated * 2)));
  }
  size_ = size;
  return Status::OK();
}

Status GrowableBuffer::Reserve(int64_t capacity) {
  if (buffer_ != nullptr && capacity <= buffer_->size()) return Status::OK();
  SQE_ASSIGN_OR_RETURN(auto fresh, columnar::Buffer::AllocateUninitialized(capacity, tracker_));
  if (size_ > 0) std::memcpy(fresh->mutable_data(), buffer_->data(), static_cast<size_t>(size_));
  buffer_ = std::move(fresh);
  return Status::OK();
}

Status LeafValues::Reserve(int64_t values, int64_t data_bytes) {
  if (var_binary_) {
    SQE_RETURN_NOT_OK(offsets_.Reserve((values + 1) * int64_t{sizeof(int32_t)}));
    return data_.Reserve(data_bytes);
  }
  return values_.Reserve(values * width_);
}

Result<columnar::BufferPtr> GrowableBuffer::Finish() {
  if (buffer_ == nullptr) SQE_RETURN_NOT_OK(Reserve(0));
  buffer_->Truncate(size_);
  columnar::BufferPtr out = std::move(buffer_);
  buffer_ = nullptr;
  size_ = 0;
  return out;
}

Status LeafValues::Init(const ColumnDescriptor& d, std::shared_ptr<MemoryTracker> tracker) {
  descriptor_ = &d;
  tracker_ = tracker;
  values_ = GrowableBuffer(tracker);
  offsets_ = GrowableBuffer(tracker);
  data_ = GrowableBuffer(tracker);
  count_ = 0;
  physical_ = d.physical_type;
  conversion_ = d.conversion;
  switch (physical_) {
    case PhysicalType::kBoolean:
      physical_width_ = 1;
      break;
    case PhysicalType::kInt32:
    case PhysicalType::kFloat:
      physical_width_ = 4;
      break;
    case PhysicalType::kInt64:
    case PhysicalType::kDouble:
      physical_width_ = 8;
      break;
    case PhysicalType::kInt96:
      physical_width_ = 12;
      break;
    case PhysicalType::kFixedLenByteArray:
      if (d.type_length < 0) return Status::Corruption("negative FIXED_LEN_BYTE_ARRAY length");
      physical_width_ = d.type_length;
      break;
    case PhysicalType::kByteArray:
      physical_width_ = 0;
      break;
    default:
      return Status::Corruption("unknown physical type " +
                                std::to_string(static_cast<int>(physical_)));
  }
  if (d.type == nullptr) return Status::InvalidArgument("column descriptor without a type");
  switch (d.type->layout()) {
    case columnar::Layout::kBitmap:
      width_ = 1;
      break;
    case columnar::Layout::kFixedWidth:
      width_ = d.type->byte_width();
      break;
    case columnar::Layout::kVarBinary:
      var_binary_ = true;
      width_ = 0;
      break;
    default:
      return Status::InvalidArgument("leaf column of nested type " + d.type->ToString());
  }
  const bool fixed_physical = physical_ != PhysicalType::kByteArray;
  if (var_binary_ && (fixed_physical || conversion_ != LeafConversion::kNone)) {
    return Status::InvalidArgument("a " + d.type->ToString() + " leaf must be a BYTE_ARRAY");
  }
  if (!var_binary_ && !fixed_physical && conversion_ != LeafConversion::kDecimalFromBytes) {
    return Status::InvalidArgument("BYTE_ARRAY leaf of type " + d.type->ToString());
  }
  identity_ = fixed_physical && physical_width_ == width_ &&
              (conversion_ == LeafConversion::kNone || conversion_ == LeafConversion::kBoolean);
  if (var_binary_) SQE_RETURN_NOT_OK(ResetOffsets());
  return Status::OK();
}

Status LeafValues::ResetOffsets() {
  SQE_RETURN_NOT_OK(offsets_.Resize(sizeof(int32_t)));
  Store(offsets_.data(), int32_t{0});
  return Status::OK();
}

Result<uint8_t*> LeafValues::GrowFixed(int64_t n) {
  const int64_t old = count_ * width_;
  SQE_RETURN_NOT_OK(values_.Resize(old + n * width_));
  count_ += n;
  return values_.data() + old;
}

Status LeafValues::DecodeFixedPhysical(Encoding e, const uint8_t* data, size_t size, int64_t n,
                                       uint8_t* out) {
  switch (physical_) {
    case PhysicalType::kBoolean:
      if (e == Encoding::kPlain) return DecodePlainBoolean(data, size, n, out).status();
      if (e == Encoding::kRle) {
        // Boolean RLE data carries a 4-byte length prefix (Encodings.md).
        if (size < 4) return Status::Corruption("RLE boolean data without its length prefix");
        const uint32_t len = Load<uint32_t>(data);
        if (len > size - 4) {
          return Status::Corruption("RLE boolean data of " + std::to_string(len) +
                                    " bytes exceeds the page's " + std::to_string(size - 4));
        }
        RleBitPackedDecoder decoder(data + 4, len, 1);
        return decoder.GetBatch(out, n);
      }
      return BadEncoding(e, physical_);
    case PhysicalType::kInt32:
    case PhysicalType::kInt64:
      if (e == Encoding::kDeltaBinaryPacked) {
        DeltaBinaryPackedDecoder decoder;
        SQE_RETURN_NOT_OK(decoder.Init(data, size));
        if (decoder.values_left() < n) {
          return Status::Corruption("DELTA_BINARY_PACKED block holds " +
                                    std::to_string(decoder.values_left()) + " values, the page " +
                                    std::to_string(n));
        }
        if (physical_ == PhysicalType::kInt32) {
          return decoder.Decode(reinterpret_cast<int32_t*>(out), n);
        }
        return decoder.Decode(reinterpret_cast<int64_t*>(out), n);
      }
      [[fallthrough]];
    case PhysicalType::kFloat:
    case PhysicalType::kDouble:
      if (e == Encoding::kPlain) {
        switch (physical_) {
          case PhysicalType::kInt32:
            return DecodePlain(data, size, n, reinterpret_cast<int32_t*>(out)).status();
          case PhysicalType::kInt64:
            return DecodePlain(data, size, n, reinterpret_cast<int64_t*>(out)).status();
          case PhysicalType::kFloat:
            return DecodePlain(data, size, n, reinterpret_cast<float*>(out)).status();
          default:
            return DecodePlain(data, size, n, reinterpret_cast<double*>(out)).status();
        }
      }
      if (e == Encoding::kByteStreamSplit) {
        return DecodeByteStreamSplit(data, size, n, physical_width_, out);
      }
      return BadEncoding(e, physical_);
    case PhysicalType::kInt96:
      if (e == Encoding::kPlain) {
        return DecodePlain(data, size, n, reinterpret_cast<Int96*>(out)).status();
      }
      return BadEncoding(e, physical_);
    case PhysicalType::kFixedLenByteArray:
      if (e == Encoding::kPlain) {
        return DecodePlainFixedLenByteArray(data, size, n, physical_width_, out).status();
      }
      if (e == Encoding::kByteStreamSplit) {
        return DecodeByteStreamSplit(data, size, n, physical_width_, out);
      }
      if (e == Encoding::kDeltaByteArray) {
        BinaryValues values;
        SQE_RETURN_NOT_OK(
            DecodeDeltaByteArray(data, size, &values, static_cast<int64_t>(n) * physical_width_)
                .status());
        if (values.size() < n) {
          return Status::Corruption("DELTA_BYTE_ARRAY holds " + std::to_string(values.size()) +
                                    " values, the page " + std::to_string(n));
        }
        for (int64_t i = 0; i < n; ++i) {
          std::string_view v = values[i];
          if (static_cast<int64_t>(v.size()) != physical_width_) {
            return Status::Corruption("DELTA_BYTE_ARRAY value of " + std::to_string(v.size()) +
                                      " bytes in a FIXED_LEN_BYTE_ARRAY(" +
                                      std::to_string(physical_width_) + ") column");
          }
          if (!v.empty()) std::memcpy(out + i * physical_width_, v.data(), v.size());
        }
        return Status::OK();
      }
      return BadEncoding(e, physical_);
    default:
      return BadEncoding(e, physical_);
  }
}

Status LeafValues::ConvertFixed(const uint8_t* in, int64_t n, uint8_t* out) {
  switch (conversion_) {
    case LeafConversion::kInt32ToInt8:
      for (int64_t i = 0; i < n; ++i) out[i] = static_cast<uint8_t>(Load<int32_t>(in + 4 * i));
      return Status::OK();
    case LeafConversion::kInt32ToInt16:
      for (int64_t i = 0; i < n; ++i) {
        Store(out + 2 * i, static_cast<int16_t>(Load<int32_t>(in + 4 * i)));
      }
      return Status::OK();
    case LeafConversion::kUint32ToWider:
      for (int64_t i = 0; i < n; ++i) {
        const uint32_t v = Load<uint32_t>(in + 4 * i);
        if (width_ == 2) {
          Store(out + 2 * i, static_cast<int16_t>(v));
        } else if (width_ == 4) {
          Store(out + 4 * i, static_cast<int32_t>(v));
        } else {
          Store(out + 8 * i, static_cast<int64_t>(v));
        }
      }
      return Status::OK();
    case LeafConversion::kMillisToMicros:
      if (physical_width_ == 4) {
        for (int64_t i = 0; i < n; ++i) {
          Store(out + 8 * i, int64_t{Load<int32_t>(in + 4 * i)} * 1000);
        }
        return Status::OK();
      }
      if (n > 0) std::memcpy(out, in, n * 8);
      return MillisToMicros(reinterpret_cast<int64_t*>(out), n);
    case LeafConversion::kInt96ToNanos:
      for (int64_t i = 0; i < n; ++i)
        Store(out + 8 * i, Int96ToUnixNanos(Load<Int96>(in + 12 * i)));
      return Status::OK();
    case LeafConversion::kDecimalFromInt32:
      for (int64_t i = 0; i < n; ++i) {
        Store(out + 16 * i, Decimal128(int64_t{Load<int32_t>(in + 4 * i)}));
      }
      return Status::OK();
    case LeafConversion::kDecimalFromInt64:
      for (int64_t i = 0; i < n; ++i) Store(out + 16 * i, Decimal128(Load<int64_t>(in + 8 * i)));
      return Status::OK();
    case LeafConversion::kDecimalFromBytes:
      for (int64_t i = 0; i < n; ++i) {
        std::string_view bytes(reinterpret_cast<const char*>(in) + i * physical_width_,
                               static_cast<size_t>(physical_width_));
        SQE_ASSIGN_OR_RETURN(Decimal128 v, DecimalFromBigEndian(bytes));
        Store(out + 16 * i, v);
      }
      return Status::OK();
    case LeafConversion::kFloat16ToFloat32:
      for (int64_t i = 0; i < n; ++i) {
        Store(out + 4 * i, Float16ToFloat32(Load<uint16_t>(in + 2 * i)));
      }
      return Status::OK();
    case LeafConversion::kNone:
    case LeafConversion::kBoolean:
      break;
  }
  if (physical_width_ != width_) {
    return Status::InvalidArgument("no conversion from " +
                                   std::string(PhysicalTypeName(physical_)) + " to " +
                                   descriptor_->type->ToString());
  }
  if (n > 0) std::memcpy(out, in, n * width_);
  return Status::OK();
}

Status LeafValues::AppendViews(const std::string_view* views, int64_t n) {
  if (!var_binary_) {
    // BYTE_ARRAY decimals.
    SQE_ASSIGN_OR_RETURN(uint8_t * out, GrowFixed(n));
    for (int64_t i = 0; i < n; ++i) {
      SQE_ASSIGN_OR_RETURN(Decimal128 v, DecimalFromBigEndian(views[i]));
      Store(out + 16 * i, v);
    }
    return Status::OK();
  }
  int64_t total = 0;
  for (int64_t i = 0; i < n; ++i) total += static_cast<int64_t>(views[i].size());
  const int64_t old_bytes = data_.size();
  if (old_bytes + total > std::numeric_limits<int32_t>::max()) {
    return Status::ResourceExhausted(
        "column chunk holds more than 2 GiB of string data (int32 offsets)");
  }
  SQE_RETURN_NOT_OK(data_.Resize(old_bytes + total));
  SQE_RETURN_NOT_OK(offsets_.Resize((count_ + n + 1) * int64_t{sizeof(int32_t)}));
  uint8_t* data = data_.data();
  int32_t* offsets = reinterpret_cast<int32_t*>(offsets_.data()) + count_;
  int64_t pos = old_bytes;
  for (int64_t i = 0; i < n; ++i) {
    const size_t len = views[i].size();
    if (len > 0) std::memcpy(data + pos, views[i].data(), len);
    pos += static_cast<int64_t>(len);
    offsets[i + 1] = static_cast<int32_t>(pos);
  }
  count_ += n;
  return Status::OK();
}

// PLAIN byte arrays straight into offsets + data: the page bounds the bytes (each value
// costs its 4-byte length), so one reservation covers the page and no views are built.
Status LeafValues::AppendPlainByteArrays(const uint8_t* data, size_t size, int64_t n) {
  if (!var_binary_) {
    views_.resize(n);
    SQE_RETURN_NOT_OK(DecodePlainByteArray(data, size, n, views_.data()).status());
    return AppendViews(views_.data(), n);
  }
  const int64_t old_bytes = data_.size();
  const int64_t bound = static_cast<int64_t>(size) - 4 * n;  // n <= size / 4 (checked)
  if (old_bytes + bound > std::numeric_limits<int32_t>::max()) {
    // Might not fit int32 offsets: take the exact path, which says so precisely.
    views_.resize(n);
    SQE_RETURN_NOT_OK(DecodePlainByteArray(data, size, n, views_.data()).status());
    return AppendViews(views_.data(), n);
  }
  SQE_RETURN_NOT_OK(data_.Resize(old_bytes + bound));
  SQE_RETURN_NOT_OK(offsets_.Resize((count_ + n + 1) * int64_t{sizeof(int32_t)}));
  uint8_t* out = data_.data();
  int32_t* offsets = reinterpret_cast<int32_t*>(offsets_.data()) + count_;
  int64_t out_pos = old_bytes;
  size_t pos = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (size - pos < 4) {
      (void)data_.Resize(old_bytes);
      return Status::Corruption("parquet PLAIN BYTE_ARRAY: page of " + std::to_string(size) +
                                " bytes ends at value " + std::to_string(i) + " of " +
                                std::to_string(n));
    }
    const uint32_t len = Load<uint32_t>(data + pos);
    pos += 4;
    // The reservation holds size - 4n bytes: a value may not take the length prefixes of
    // the values after it (else it would be copied past the reservation).
    const size_t later_prefixes = 4 * static_cast<size_t>(n - 1 - i);
    if (len > size - pos || len > size - pos - later_prefixes) {
      (void)data_.Resize(old_bytes);
      return Status::Corruption("parquet PLAIN BYTE_ARRAY: value " + std::to_string(i) + " of " +
                                std::to_string(n) + " claims " + std::to_string(len) +
                                " bytes at offset " + std::to_string(pos - 4) + ", only " +
                                std::to_string(size - pos) + " remain");
    }
    if (len > 0) std::memcpy(out + out_pos, data + pos, len);
    pos += len;
    out_pos += len;
    offsets[i + 1] = static_cast<int32_t>(out_pos);
  }
  count_ += n;
  return data_.Resize(out_pos);
}

Status LeafValues::DecodeByteArrays(Encoding e, const uint8_t* data, size_t size, int64_t n) {
  switch (e) {
    case Encoding::kPlain:
      // Every value takes at least its 4-byte length: bound the view array first.
      if (static_cast<uint64_t>(n) > size / 4) {
        return Status::Corruption("PLAIN page of " + std::to_string(size) + " bytes cannot hold " +
                                  std::to_string(n) + " byte arrays");
      }
      return AppendPlainByteArrays(data, size, n);
    case Encoding::kDeltaLengthByteArray: {
      views_.clear();
      SQE_RETURN_NOT_OK(DecodeDeltaLengthByteArray(data, size, &views_).status());
      if (static_cast<int64_t>(views_.size()) < n) {
        return Status::Corruption("DELTA_LENGTH_BYTE_ARRAY holds " + std::to_string(views_.size()) +
                                  " values, the page " + std::to_string(n));
      }
      return AppendViews(views_.data(), n);
    }
    case Encoding::kDeltaByteArray: {
      BinaryValues values;
      SQE_RETURN_NOT_OK(DecodeDeltaByteArray(data, size, &values, max_page_bytes_).status());
      if (values.size() < n) {
        return Status::Corruption("DELTA_BYTE_ARRAY holds " + std::to_string(values.size()) +
                                  " values, the page " + std::to_string(n));
      }
      views_.resize(n);
      for (int64_t i = 0; i < n; ++i) views_[i] = values[i];
      return AppendViews(views_.data(), n);
    }
    default:
      return BadEncoding(e, physical_);
  }
}

Status LeafValues::Gather(const uint32_t* indices, int64_t n, const LeafValues& dict) {
  if (var_binary_) {
    const int32_t* doff = reinterpret_cast<const int32_t*>(dict.offsets_.data());
    const uint8_t* ddata = dict.data_.data();
    int64_t total = 0;
    for (int64_t i = 0; i < n; ++i) total += doff[indices[i] + 1] - doff[indices[i]];
    const int64_t old_bytes = data_.size();
    if (old_bytes + total > std::numeric_limits<int32_t>::max()) {
      return Status::ResourceExhausted(
          "column chunk holds more than 2 GiB of string data (int32 offsets)");
    }
    SQE_RETURN_NOT_OK(offsets_.Resize((count_ + n + 1) * int64_t{sizeof(int32_t)}));
    // 16 bytes of slack past the end let short values be copied as one fixed 16-byte move
    // (the bytes past a value are overwritten by the next one or fall past size()).
    constexpr int64_t kWide = 16;
    SQE_RETURN_NOT_OK(data_.Resize(old_bytes + total + kWide));  // grows geometrically
    SQE_RETURN_NOT_OK(data_.Resize(old_bytes + total));
    uint8_t* data = data_.data();
    int32_t* offsets = reinterpret_cast<int32_t*>(offsets_.data()) + count_;
    const int64_t dict_readable = dict.data_.allocated();
    int64_t pos = old_bytes;
    for (int64_t i = 0; i < n; ++i) {
      const int32_t b = doff[indices[i]], len = doff[indices[i] + 1] - b;
      if (len <= kWide && b + kWide <= dict_readable) {
        std::memcpy(data + pos, ddata + b, kWide);
      } else if (len > 0) {
        std::memcpy(data + pos, ddata + b, static_cast<size_t>(len));
      }
      pos += len;
      offsets[i + 1] = static_cast<int32_t>(pos);
    }
    count_ += n;
    return Status::OK();
  }
  SQE_ASSIGN_OR_RETURN(uint8_t * out, GrowFixed(n));
  const uint8_t* d = dict.values_.data();
  switch (width_) {
    case 1:
      GatherTyped<uint8_t>(d, indices, n, out);
      break;
    case 2:
      GatherTyped<uint16_t>(d, indices, n, out);
      break;
    case 4:
      GatherTyped<uint32_t>(d, indices, n, out);
      break;
    case 8:
      GatherTyped<uint64_t>(d, indices, n, out);
      break;
    case 16:
      GatherTyped<Decimal128>(d, indices, n, out);
      break;
    default:
      for (int64_t i = 0; i < n; ++i) {
        if (width_ > 0) std::memcpy(out + i * width_, d + int64_t{indices[i]} * width_, width_);
      }
  }
  return Status::OK();
}

Status LeafValues::DecodeAppend(Encoding e, const uint8_t* data, size_t size, int64_t n,
                                const LeafValues* dictionary) {
  if (n < 0) return Status::Corruption("negative value count");
  if (e == Encoding::kPlainDictionary || e == Encoding::kRleDictionary) {
    if (dictionary == nullptr) {
      return Status::Corruption(
          "dictionary-encoded data page but the chunk has no dictionary page");
    }
    if (n == 0) return Status::OK();
    indices_.resize(n);
    SQE_RETURN_NOT_OK(
        DecodeDictionaryIndexValues(data, size, dictionary->size(), n, indices_.data()));
    return Gather(indices_.data(), n, *dictionary);
  }
  if (physical_ == PhysicalType::kByteArray) return DecodeByteArrays(e, data, size, n);
  // PLAIN and BYTE_STREAM_SPLIT need n * width bytes: check before allocating for them.
  if ((e == Encoding::kPlain || e == Encoding::kByteStreamSplit) &&
      physical_ != PhysicalType::kBoolean && physical_width_ > 0 &&
      static_cast<uint64_t>(n) > size / static_cast<uint64_t>(physical_width_)) {
    return Status::Corruption("page data of " + std::to_string(size) + " bytes cannot hold " +
                              std::to_string(n) + " values of " + std::to_string(physical_width_) +
                              " bytes");
  }
  if (e == Encoding::kPlain && physical_ == PhysicalType::kBoolean &&
      static_cast<uint64_t>(n) > uint64_t{size} * 8) {
    return Status::Corruption("page data of " + std::to_string(size) + " bytes cannot hold " +
                              std::to_string(n) + " booleans");
  }
  if (identity_) {
    const int64_t before = count_;
    SQE_ASSIGN_OR_RETURN(uint8_t * out, GrowFixed(n));
    Status st = DecodeFixedPhysical(e, data, size, n, out);
    if (!st.ok()) count_ = before;
    return st;
  }
  scratch_.resize(static_cast<size_t>(n * physical_width_));
  SQE_RETURN_NOT_OK(DecodeFixedPhysical(e, data, size, n, scratch_.data()));
  const int64_t before = count_;
  SQE_ASSIGN_OR_RETURN(uint8_t * out, GrowFixed(n));
  Status st = ConvertFixed(scratch_.data(), n, out);
  if (!st.ok()) count_ = before;
  return st;
}

Status LeafValues::KeepRuns(int64_t base, const std::vector<IndexRun>& runs) {
  int64_t write = base;
  if (!var_binary_) {
    uint8_t* v = values_.data();
    for (const IndexRun& r : runs) {
      const int64_t len = r.end - r.begin;
      if (len > 0 && write != r.begin) {
        std::memmove(v + write * width_, v + r.begin * width_, len * width_);
      }
      write += len;
    }
    count_ = write;
    return values_.Resize(count_ * width_);
  }
  int32_t* o = reinterpret_cast<int32_t*>(offsets_.data());
  uint8_t* d = data_.data();
  int32_t write_byte = o[base];
  for (const IndexRun& r : runs) {
    const int64_t len = r.end - r.begin;
    const int32_t begin_byte = o[r.begin], end_byte = o[r.end];
    if (end_byte > begin_byte && write_byte != begin_byte) {
      std::memmove(d + write_byte, d + begin_byte, end_byte - begin_byte);
    }
    for (int64_t j = 0; j < len; ++j) o[write + j] = write_byte + (o[r.begin + j] - begin_byte);
    write_byte += end_byte - begin_byte;
    write += len;
  }
  o[write] = write_byte;
  count_ = write;
  SQE_RETURN_NOT_OK(offsets_.Resize((count_ + 1) * int64_t{sizeof(int32_t)}));
  return data_.Resize(write_byte);
}

Result<columnar::Column> LeafValues::Finish() {
  const int64_t n = count_;
  count_ = 0;
  const columnar::TypePtr& type = descriptor_->type;
  if (var_binary_) {
    SQE_ASSIGN_OR_RETURN(columnar::BufferPtr offsets, offsets_.Finish());
    SQE_ASSIGN_OR_RETURN(columnar::BufferPtr data, data_.Finish());
    SQE_RETURN_NOT_OK(ResetOffsets());
    return columnar::Column::Make(type, n, {nullptr, std::move(offsets), std::move(data)}, {}, 0);
  }
  SQE_ASSIGN_OR_RETURN(columnar::BufferPtr values, values_.Finish());
  if (type->layout() == columnar::Layout::kBitmap) {
    SQE_ASSIGN_OR_RETURN(auto bits, columnar::Buffer::Allocate((n + 7) / 8, tracker_));
    uint8_t* out = bits->mutable_data();
    const uint8_t* in = values->data();
    for (int64_t i = 0; i < n; ++i) out[i >> 3] |= static_cast<uint8_t>((in[i] & 1) << (i & 7));
    values = std::move(bits);
  }
  return columnar::Column::Make(type, n, {nullptr, std::move(values)}, {}, 0);
}

}  // namespace sqe::parquet::internal
