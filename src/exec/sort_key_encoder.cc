#include "exec/sort_key_encoder.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <string>

namespace sqe::exec {

using columnar::Column;
using columnar::Layout;
using columnar::TypeId;

namespace {

constexpr uint8_t kValid = 0x01;

inline void PutBigEndian(uint64_t v, int bytes, uint8_t* p) {
  for (int b = bytes - 1; b >= 0; --b) {
    p[b] = static_cast<uint8_t>(v);
    v >>= 8;
  }
}

/// Order-preserving unsigned image of a double: NaN largest, -0.0 = 0.0.
inline uint64_t DoubleBits(double d) {
  if (std::isnan(d)) return std::numeric_limits<uint64_t>::max();
  if (d == 0) d = 0;
  const uint64_t bits = std::bit_cast<uint64_t>(d);
  return (bits & (uint64_t{1} << 63)) ? ~bits : bits | (uint64_t{1} << 63);
}

/// Bytes of a valid value (without the marker).
uint32_t ValueSize(const Column& c, int64_t i) {
  switch (c.type_id()) {
    case TypeId::kBoolean:
      return 1;
    case TypeId::kFloat32:
    case TypeId::kFloat64:
      return 8;
    case TypeId::kString:
    case TypeId::kBinary: {
      std::string_view v = c.StringAt(i);
      return static_cast<uint32_t>(v.size() + std::count(v.begin(), v.end(), '\0') + 2);
    }
    default:
      return static_cast<uint32_t>(c.type()->byte_width());
  }
}

template <typename T>
void PutSigned(const Column& c, int64_t i, uint8_t* p) {
  using U = std::make_unsigned_t<T>;
  const U v = static_cast<U>(c.Values<T>()[i]) ^ (U{1} << (sizeof(T) * 8 - 1));
  PutBigEndian(v, sizeof(T), p);
}

/// Writes a valid value; returns its size.
uint32_t PutValue(const Column& c, int64_t i, uint8_t* p) {
  switch (c.type_id()) {
    case TypeId::kBoolean:
      *p = c.BoolAt(i) ? 1 : 0;
      return 1;
    case TypeId::kInt8:
      PutSigned<int8_t>(c, i, p);
      return 1;
    case TypeId::kInt16:
      PutSigned<int16_t>(c, i, p);
      return 2;
    case TypeId::kInt32:
    case TypeId::kDate32:
      PutSigned<int32_t>(c, i, p);
      return 4;
    case TypeId::kInt64:
    case TypeId::kTime64:
    case TypeId::kTimestamp:
      PutSigned<int64_t>(c, i, p);
      return 8;
    case TypeId::kFloat32:
      PutBigEndian(DoubleBits(c.Values<float>()[i]), 8, p);
      return 8;
    case TypeId::kFloat64:
      PutBigEndian(DoubleBits(c.Values<double>()[i]), 8, p);
      return 8;
    case TypeId::kDecimal128: {
      const columnar::Decimal128 d = c.DecimalAt(i);
      PutBigEndian(static_cast<uint64_t>(d.high) ^ (uint64_t{1} << 63), 8, p);
      PutBigEndian(d.low, 8, p + 8);
      return 16;
    }
    case TypeId::kString:
    case TypeId::kBinary: {
      std::string_view v = c.StringAt(i);
      uint8_t* start = p;
      for (char ch : v) {
        *p++ = static_cast<uint8_t>(ch);
        if (ch == '\0') *p++ = 0xFF;
      }
      *p++ = 0;
      *p++ = 0;
      return static_cast<uint32_t>(p - start);
    }
    default: {  // fixed(n), uuid: unsigned bytes
      std::string_view v = c.FixedSizeBinaryAt(i);
      std::memcpy(p, v.data(), v.size());
      return static_cast<uint32_t>(v.size());
    }
  }
}

/// Whether values of `type` have an order (maps, and anything holding one, do not).
bool Orderable(const columnar::TypePtr& type) {
  if (type->id() == TypeId::kMap) return false;
  for (const columnar::Field& f : type->fields()) {
    if (!Orderable(f.type())) return false;
  }
  return true;
}

/// Appends the order-preserving image of a valid value of any orderable type. Arrays: per
/// element a marker (0x01 valid, then the element's image; 0x02 NULL, after every valid
/// element) and 0x00 at the end, so a shorter prefix sorts first; rows: per field the same
/// marker and image, no end; scalars: PutValue.
void AppendSortValue(const Column& c, int64_t i, std::string* out) {
  auto element = [out](const Column& child, int64_t k) {
    if (child.IsNull(k)) {
      out->push_back(0x02);
      return;
    }
    out->push_back(static_cast<char>(kValid));
    AppendSortValue(child, k, out);
  };
  switch (c.type_id()) {
    case TypeId::kList: {
      const Column& values = c.ListValues();
      const int64_t start = c.ListStart(i);
      const int64_t n = c.ListLength(i);
      for (int64_t k = 0; k < n; ++k) element(values, start + k);
      out->push_back(0x00);
      return;
    }
    case TypeId::kStruct:
      for (int f = 0; f < c.num_children(); ++f) element(c.StructField(f), i);
      return;
    default: {
      const size_t at = out->size();
      out->resize(at + ValueSize(c, i));
      PutValue(c, i, reinterpret_cast<uint8_t*>(out->data() + at));
      return;
    }
  }
}

/// The images of the valid rows of a nested key column (NULL rows stay empty).
void EncodeNestedSortColumn(const Column& c, int64_t rows, EncodedRows* out) {
  std::string image;
  out->offsets.assign(1, 0);
  out->bytes.clear();
  for (int64_t i = 0; i < rows; ++i) {
    if (c.IsValid(i)) {
      image.clear();
      AppendSortValue(c, i, &image);
      out->bytes.insert(out->bytes.end(), image.begin(), image.end());
    }
    out->offsets.push_back(static_cast<uint32_t>(out->bytes.size()));
  }
}

}  // namespace

Status EncodeSortKeys(const columnar::Batch& batch, const std::vector<SortKey>& keys,
                      EncodedRows* out) {
  const int64_t rows = batch.num_rows();
  // Nested keys (arrays, rows) take a slower path: their images, built row by row up front.
  std::vector<EncodedRows> nested;
  for (size_t k = 0; k < keys.size(); ++k) {
    const Column& c = batch.column(keys[k].column);
    if (!c.type()->is_nested()) continue;
    if (!Orderable(c.type())) {
      return Status::NotImplemented("ordering by values of type " + c.type()->ToString() +
                                    " is not supported: the type is not orderable");
    }
    nested.resize(keys.size());
    EncodeNestedSortColumn(c, rows, &nested[k]);
  }
  std::vector<uint32_t>& offsets = out->offsets;
  offsets.assign(static_cast<size_t>(rows) + 1, 0);
  for (size_t n = 0; n < keys.size(); ++n) {
    const Column& c = batch.column(keys[n].column);
    if (c.type()->is_nested()) {
      for (int64_t i = 0; i < rows; ++i) {
        offsets[i + 1] += 1 + nested[n].offsets[i + 1] - nested[n].offsets[i];
      }
      continue;
    }
    const bool var = c.type()->layout() == Layout::kVarBinary;
    const uint32_t fixed = var ? 0 : ValueSize(c, 0);
    for (int64_t i = 0; i < rows; ++i) {
      offsets[i + 1] += 1 + (c.IsNull(i) ? 0 : (var ? ValueSize(c, i) : fixed));
    }
  }
  for (int64_t i = 0; i < rows; ++i) offsets[i + 1] += offsets[i];
  out->bytes.resize(offsets[rows]);
  std::vector<uint32_t> cursor(offsets.begin(), offsets.end() - 1);
  uint8_t* bytes = out->bytes.data();
  for (size_t n = 0; n < keys.size(); ++n) {
    const SortKey& k = keys[n];
    const Column& c = batch.column(k.column);
    const bool is_nested = c.type()->is_nested();
    const uint8_t null_marker = k.nulls_first ? 0x00 : 0x02;
    for (int64_t i = 0; i < rows; ++i) {
      uint8_t* p = bytes + cursor[i];
      if (c.IsNull(i)) {
        *p = null_marker;
        cursor[i] += 1;
        continue;
      }
      *p = kValid;
      uint32_t size;
      if (is_nested) {
        const std::string_view image = nested[n].row(i);
        std::memcpy(p + 1, image.data(), image.size());
        size = static_cast<uint32_t>(image.size());
      } else {
        size = PutValue(c, i, p + 1);
      }
      if (!k.ascending) {
        for (uint32_t b = 1; b <= size; ++b) p[b] = static_cast<uint8_t>(~p[b]);
      }
      cursor[i] += 1 + size;
    }
  }
  return Status::OK();
}

namespace {

/// 8 key bytes from `from` as a big-endian integer (zero-padded past the key's end): integer
/// order equals the order of those bytes, and keys are self-delimiting, so unequal prefixes
/// decide a comparison.
uint64_t KeyPrefix(std::string_view key, size_t from) {
  uint64_t prefix = 0;
  const size_t end = std::min<size_t>(key.size(), from + 8);
  for (size_t i = from; i < end; ++i) {
    prefix |= uint64_t{static_cast<uint8_t>(key[i])} << (56 - 8 * (i - from));
  }
  return prefix;
}

/// How many leading bytes every row shares (e.g. the NULL marker and the high bytes of a
/// 128-bit decimal): the prefix window starts after them.
size_t SharedLeadingBytes(const EncodedRows& keys, size_t rows) {
  if (rows == 0) return 0;
  const std::string_view first = keys.row(0);
  size_t shared = first.size();
  for (size_t i = 1; i < rows && shared > 0; ++i) {
    const std::string_view row = keys.row(static_cast<int64_t>(i));
    const size_t n = std::min(shared, row.size());
    size_t j = 0;
    while (j < n && row[j] == first[j]) ++j;
    shared = j;
  }
  return shared;
}

struct PrefixedRow {
  uint64_t prefix;
  uint32_t row;
};

}  // namespace

void OrderEncodedRows(const EncodedRows& keys, int64_t limit, std::vector<uint32_t>* order) {
  const size_t rows = keys.offsets.empty() ? 0 : keys.offsets.size() - 1;
  const size_t skip = SharedLeadingBytes(keys, rows);
  std::vector<PrefixedRow> entries(rows);
  for (size_t i = 0; i < rows; ++i) {
    entries[i] = {KeyPrefix(keys.row(static_cast<int64_t>(i)), skip), static_cast<uint32_t>(i)};
  }
  auto less = [&](const PrefixedRow& a, const PrefixedRow& b) {
    if (a.prefix != b.prefix) return a.prefix < b.prefix;
    return keys.row(a.row) < keys.row(b.row);
  };
  size_t keep = rows;
  if (limit >= 0 && static_cast<size_t>(limit) < rows) {
    keep = static_cast<size_t>(limit);
    std::partial_sort(entries.begin(), entries.begin() + static_cast<int64_t>(keep), entries.end(),
                      less);
  } else {
    std::sort(entries.begin(), entries.end(), less);
  }
  order->resize(keep);
  for (size_t i = 0; i < keep; ++i) (*order)[i] = entries[i].row;
}

Result<std::vector<uint32_t>> SortedRowOrder(const columnar::Batch& batch,
                                             const std::vector<SortKey>& keys, int64_t limit) {
  EncodedRows encoded;
  SQE_RETURN_NOT_OK(EncodeSortKeys(batch, keys, &encoded));
  std::vector<uint32_t> order;
  OrderEncodedRows(encoded, limit, &order);
  return order;
}

}  // namespace sqe::exec
