#include "exec/sort_key_encoder.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <string>

#include "exec/functions/nested_comparison.h"
#include "exec/functions/nested_key_encoding.h"
#include "exec/functions/order_preserving_key.h"

namespace sqe::exec {

using columnar::Column;
using columnar::Layout;
using columnar::TypeId;
using order_key::AppendSortValue;
using order_key::kValid;
using order_key::PutValue;
using order_key::ValueSize;

Status EncodeSortKeys(const columnar::Batch& batch, const std::vector<SortKey>& keys,
                      EncodedRows* out) {
  const int64_t rows = batch.num_rows();
  // Nested keys (arrays, rows) take a slower path: their images, built row by row up front.
  std::vector<EncodedRows> nested;
  for (size_t k = 0; k < keys.size(); ++k) {
    const Column& c = batch.column(keys[k].column);
    if (!c.type()->is_nested()) continue;
    const bool orderable = IsOrderableType(c.type());
    if (!orderable && !keys[k].group_only) {
      return Status::NotImplemented("Type " + c.type()->ToString() +
                                    " is not orderable, and therefore cannot be used in ORDER BY");
    }
    nested.resize(keys.size());
    // NULL rows stay empty (the marker says NULL); a map that only groups rows (no order)
    // is written as its grouping-key image.
    nested[k].AssignImages(rows, [&c, orderable](int64_t i, std::string* image) {
      if (c.IsNull(i)) return;
      if (orderable) {
        AppendSortValue(c, i, image);
      } else {
        AppendGroupingKey(c, i, image);
      }
    });
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
    const uint8_t null_marker = k.nulls_first ? 0x00 : 0x02;
    // One loop per kind of key, so the scalar loop stays as tight as before.
    auto write = [&](auto put_value) {
      for (int64_t i = 0; i < rows; ++i) {
        uint8_t* p = bytes + cursor[i];
        if (c.IsNull(i)) {
          *p = null_marker;
          cursor[i] += 1;
          continue;
        }
        *p = kValid;
        const uint32_t size = put_value(i, p + 1);
        if (!k.ascending) {
          for (uint32_t b = 1; b <= size; ++b) p[b] = static_cast<uint8_t>(~p[b]);
        }
        cursor[i] += 1 + size;
      }
    };
    if (c.type()->is_nested()) {
      write([&](int64_t i, uint8_t* out) {
        const std::string_view image = nested[n].row(i);
        std::memcpy(out, image.data(), image.size());
        return static_cast<uint32_t>(image.size());
      });
    } else {
      write([&](int64_t i, uint8_t* out) { return PutValue(c, i, out); });
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
