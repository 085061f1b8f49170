#pragma once
/// DeleteLoader: reads the delete files a FileScanTask carries (table spec "Row-level
/// Deletes") into the forms the task reader applies: the sorted row positions position
/// delete files give for one data file, and the set of key tuples of an equality delete
/// file. Each delete file is read once per loader (a cache keyed by path), so tasks of
/// one scan share the work. Thread-safe: the cache is guarded by a mutex (two tasks
/// missing the same file at once may both read it; the result is the same).

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_set>
#include <vector>

#include "columnar/batch.h"
#include "common/result.h"
#include "iceberg/manifest/data_file.h"
#include "iceberg/schema.h"
#include "io/file_system.h"

namespace sqe::iceberg {

/// Field ids of the position delete file columns (spec "Position Delete Files").
inline constexpr int32_t kDeleteFilePathFieldId = 2147483546;
inline constexpr int32_t kDeletePosFieldId = 2147483545;

/// The rows of an equality delete file as encoded key tuples (EncodeRowKey) over
/// `field_ids`, each converted to the table schema's type first.
struct EqualityDeleteSet {
  std::vector<int32_t> field_ids;
  std::unordered_set<std::string> keys;
};

/// Appends the null-safe key bytes of row `row` of `column` (a null equals a null, as
/// equality deletes require). NotImplemented for list, map and struct columns.
Status AppendRowKey(const columnar::Column& column, int64_t row, std::string* key);

class DeleteLoader {
 public:
  explicit DeleteLoader(io::FileSystem& fs) : fs_(fs) {}

  /// The positions deleted from `data_file` by the position delete files and deletion
  /// vectors (Puffin blobs at content_offset) among `deletes` (others are ignored),
  /// sorted and unique. Corruption for a delete file without the file_path/pos columns
  /// or a malformed deletion vector.
  Result<std::vector<int64_t>> DeletedPositions(const DataFile& data_file,
                                                const std::vector<DataFile>& deletes);

  /// The key set of one equality delete file, its columns typed by `schema`.
  Result<std::shared_ptr<const EqualityDeleteSet>> EqualityDeletes(const DataFile& delete_file,
                                                                   const Schema& schema);

  /// Delete files read so far (cache misses).
  int64_t files_read() const;

 private:
  using PositionsByFile = std::map<std::string, std::vector<int64_t>, std::less<>>;
  Result<std::shared_ptr<const PositionsByFile>> LoadPositionFile(const DataFile& file);
  Result<std::vector<int64_t>> LoadDeletionVector(const DataFile& dv, const DataFile& data_file);

  io::FileSystem& fs_;
  mutable std::mutex mu_;
  std::map<std::string, std::shared_ptr<const PositionsByFile>> positions_;
  std::map<std::string, std::shared_ptr<const EqualityDeleteSet>> equality_;
  int64_t files_read_ = 0;
};

}  // namespace sqe::iceberg
