#pragma once
/// Row keys of hash operators (GROUP BY, join keys): HashKeyColumns hashes key columns
/// column-at-a-time into one 64-bit hash per row, and RowKeyEncoder packs each row's key
/// values into a byte string such that two rows' strings are equal exactly when their
/// keys are equal under GROUP BY semantics (NULL equals NULL, NaN equals NaN, -0.0 equals
/// 0.0), so a hash table compares keys with one memcmp and stores them compactly. The
/// encoding per column: one flag byte (0 null, 1 valid), then for a valid value its
/// fixed-width bytes (booleans one byte, doubles normalized) or a uint32 length and the
/// bytes. Nested key columns (array, row, map) are written as their grouping-key images
/// (nested_key_encoding.h: NULL elements equal each other, map entries in any order), a
/// slower row-at-a-time path the scalar columns never take. Decode turns stored keys back
/// into columns.
///
/// Thread-safe: const methods only; the EncodedRows output is the caller's.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "columnar/column.h"
#include "columnar/data_type.h"
#include "common/memory_tracker.h"
#include "common/result.h"

namespace sqe::exec {

/// The hash of each row's key (rows [0, rows) of every column) into hashes[0, rows).
/// Equal keys (GROUP BY semantics) hash equal. Column-at-a-time: one typed loop per key
/// column folding into the running hash.
void HashKeyColumns(const std::vector<columnar::Column>& keys, int64_t rows, uint64_t* hashes);

/// any_null[i] = 1 when some key of row i is NULL, or for a nested key holds a NULL inside
/// (join keys never match then: `=` is false or NULL).
void KeyNullMask(const std::vector<columnar::Column>& keys, int64_t rows,
                 std::vector<uint8_t>* any_null);

/// The encoded keys of a batch: row i is bytes[offsets[i], offsets[i + 1]).
struct EncodedRows {
  std::vector<uint8_t> bytes;
  std::vector<uint32_t> offsets;
  std::string_view row(int64_t i) const {
    return {reinterpret_cast<const char*>(bytes.data()) + offsets[i],
            static_cast<size_t>(offsets[i + 1] - offsets[i])};
  }
  /// Rows [0, rows), row i being what append_image(i, &image) writes: the slow path of
  /// nested key columns (their grouping-key or order-preserving images, row by row).
  template <typename AppendImage>
  void AssignImages(int64_t rows, AppendImage append_image) {
    std::string image;
    offsets.assign(1, 0);
    bytes.clear();
    for (int64_t i = 0; i < rows; ++i) {
      image.clear();
      append_image(i, &image);
      bytes.insert(bytes.end(), image.begin(), image.end());
      offsets.push_back(static_cast<uint32_t>(bytes.size()));
    }
  }
};

class RowKeyEncoder {
 public:
  explicit RowKeyEncoder(std::vector<columnar::TypePtr> key_types);

  /// InvalidArgument when a key has no type (every type can be a key).
  static Status CheckKeyTypes(const std::vector<columnar::TypePtr>& key_types);

  const std::vector<columnar::TypePtr>& key_types() const { return key_types_; }

  /// Encodes rows [0, rows) of `keys` (one column per key type) into *out (reused).
  Status Encode(const std::vector<columnar::Column>& keys, int64_t rows, EncodedRows* out) const;

  /// One column per key type from `count` encoded rows (rows[i] points at row i's bytes).
  Result<std::vector<columnar::Column>> Decode(const std::vector<std::string_view>& rows,
                                               const std::shared_ptr<MemoryTracker>& tracker) const;

 private:
  std::vector<columnar::TypePtr> key_types_;
};

}  // namespace sqe::exec
