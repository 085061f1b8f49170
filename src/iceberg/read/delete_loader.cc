#include "iceberg/read/delete_loader.h"

#include <algorithm>

#include "formats/parquet/file_reader.h"
#include "iceberg/columnar_schema.h"
#include "iceberg/read/deletion_vector.h"
#include "iceberg/read/file_scan_task_reader.h"

namespace sqe::iceberg {

Status AppendRowKey(const columnar::Column& column, int64_t row, std::string* key) {
  if (column.IsNull(row)) {
    key->push_back('\0');
    return Status::OK();
  }
  key->push_back('\1');
  switch (column.type()->layout()) {
    case columnar::Layout::kBitmap:
      key->push_back(column.BoolAt(row) ? '\1' : '\0');
      return Status::OK();
    case columnar::Layout::kFixedWidth: {
      const int64_t width = column.type()->byte_width();
      const char* base = reinterpret_cast<const char*>(column.buffers()[1]->data());
      key->append(base + (column.offset() + row) * width, static_cast<size_t>(width));
      return Status::OK();
    }
    case columnar::Layout::kVarBinary: {
      std::string_view v = column.StringAt(row);
      uint32_t n = static_cast<uint32_t>(v.size());
      key->append(reinterpret_cast<const char*>(&n), sizeof n);
      key->append(v);
      return Status::OK();
    }
    default:
      return Status::NotImplemented("equality deletes on " + column.type()->ToString() +
                                    " columns are not supported");
  }
}

int64_t DeleteLoader::files_read() const {
  std::lock_guard<std::mutex> lock(mu_);
  return files_read_;
}

Result<std::shared_ptr<const DeleteLoader::PositionsByFile>> DeleteLoader::LoadPositionFile(
    const DataFile& file) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = positions_.find(file.file_path);
    if (it != positions_.end()) return it->second;
  }
  if (file.file_format != FileFormat::kParquet) {
    return Status::NotImplemented("position delete file " + file.file_path + " is " +
                                  std::string(FileFormatName(file.file_format)) +
                                  "; only Parquet position delete files are read");
  }
  SQE_ASSIGN_OR_RETURN(auto in, fs_.OpenForReadWithSize(file.file_path, file.file_size_in_bytes));
  parquet::ReaderOptions ro;
  ro.field_ids = {kDeleteFilePathFieldId, kDeletePosFieldId};
  SQE_ASSIGN_OR_RETURN(auto reader, parquet::ParquetFileReader::Open(std::move(in), ro));
  int path_col = -1, pos_col = -1;
  const auto& fields = reader->schema()->fields();
  for (int i = 0; i < static_cast<int>(fields.size()); ++i) {
    if (fields[i].field_id() == kDeleteFilePathFieldId) path_col = i;
    if (fields[i].field_id() == kDeletePosFieldId) pos_col = i;
  }
  if (path_col < 0 || pos_col < 0 || fields[path_col].type()->id() != columnar::TypeId::kString ||
      fields[pos_col].type()->id() != columnar::TypeId::kInt64) {
    return Status::Corruption("position delete file " + file.file_path +
                              " lacks the file_path (string, id 2147483546) and pos (long, id "
                              "2147483545) columns");
  }
  auto out = std::make_shared<PositionsByFile>();
  for (int g = 0; g < reader->num_row_groups(); ++g) {
    SQE_ASSIGN_OR_RETURN(columnar::Batch b, reader->ReadRowGroup(g));
    const columnar::Column& paths = b.column(path_col);
    const columnar::Column& pos = b.column(pos_col);
    std::vector<int64_t>* last = nullptr;
    std::string_view last_path;
    for (int64_t r = 0; r < b.num_rows(); ++r) {
      if (paths.IsNull(r) || pos.IsNull(r)) {
        return Status::Corruption("position delete file " + file.file_path +
                                  " has a null file_path or pos in row group " + std::to_string(g));
      }
      std::string_view p = paths.StringAt(r);
      if (last == nullptr || p != last_path) {
        auto it = out->find(p);
        if (it == out->end()) it = out->emplace(std::string(p), std::vector<int64_t>{}).first;
        last = &it->second;
        last_path = p;
      }
      last->push_back(pos.Value<int64_t>(r));
    }
  }
  for (auto& [path, v] : *out) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
  }
  std::lock_guard<std::mutex> lock(mu_);
  files_read_++;
  positions_[file.file_path] = out;
  return std::shared_ptr<const PositionsByFile>(out);
}

Result<std::vector<int64_t>> DeleteLoader::LoadDeletionVector(const DataFile& dv,
                                                              const DataFile& data_file) {
  if (dv.referenced_data_file && *dv.referenced_data_file != data_file.file_path) {
    return Status::Corruption("deletion vector " + dv.file_path + " refers to " +
                              *dv.referenced_data_file + ", not to " + data_file.file_path);
  }
  if (!dv.content_offset || !dv.content_size_in_bytes || *dv.content_offset < 0 ||
      *dv.content_size_in_bytes < 0 || *dv.content_size_in_bytes > (int64_t{1} << 30)) {
    return Status::Corruption("deletion vector " + dv.file_path + " for " + data_file.file_path +
                              " lacks a valid content_offset / content_size_in_bytes");
  }
  SQE_ASSIGN_OR_RETURN(auto in, fs_.OpenForReadWithSize(dv.file_path, dv.file_size_in_bytes));
  std::string blob(static_cast<size_t>(*dv.content_size_in_bytes), '\0');
  SQE_RETURN_NOT_OK(in->ReadAt(*dv.content_offset, *dv.content_size_in_bytes,
                               reinterpret_cast<uint8_t*>(blob.data())));
  auto positions = DecodeDeletionVector(blob, std::max<int64_t>(data_file.record_count, 0));
  if (!positions.ok()) {
    return Status::Corruption("Puffin file " + dv.file_path + " at offset " +
                              std::to_string(*dv.content_offset) + ": " +
                              positions.status().message());
  }
  std::lock_guard<std::mutex> lock(mu_);
  files_read_++;
  return std::move(positions).value();
}

Result<std::vector<int64_t>> DeleteLoader::DeletedPositions(const DataFile& data_file,
                                                            const std::vector<DataFile>& deletes) {
  const std::string& data_file_path = data_file.file_path;
  std::vector<int64_t> out;
  size_t sources = 0;
  for (const DataFile& d : deletes) {
    if (d.content != FileContent::kPositionDeletes) continue;
    if (d.file_format == FileFormat::kPuffin) {
      SQE_ASSIGN_OR_RETURN(auto dv, LoadDeletionVector(d, data_file));
      out.insert(out.end(), dv.begin(), dv.end());
      sources++;
      continue;
    }
    SQE_ASSIGN_OR_RETURN(auto by_file, LoadPositionFile(d));
    auto it = by_file->find(data_file_path);
    if (it == by_file->end()) continue;
    out.insert(out.end(), it->second.begin(), it->second.end());
    sources++;
  }
  if (sources > 1) {
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
  }
  return out;
}

Result<std::shared_ptr<const EqualityDeleteSet>> DeleteLoader::EqualityDeletes(
    const DataFile& file, const Schema& schema) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = equality_.find(file.file_path);
    if (it != equality_.end()) return it->second;
  }
  if (file.equality_ids.empty()) {
    return Status::Corruption("equality delete file " + file.file_path +
                              " has no equality_ids in its manifest entry");
  }
  if (file.file_format != FileFormat::kParquet) {
    return Status::NotImplemented("equality delete file " + file.file_path + " is " +
                                  std::string(FileFormatName(file.file_format)) +
                                  "; only Parquet equality delete files are read");
  }
  std::vector<columnar::TypePtr> types;
  for (int32_t id : file.equality_ids) {
    const NestedField* f = nullptr;
    for (const NestedField& top : schema.fields()) {
      if (top.id == id) f = &top;
    }
    if (f == nullptr) {
      return Status::NotImplemented("equality delete file " + file.file_path +
                                    " deletes by field " + std::to_string(id) +
                                    ", which is not a top-level column of the table schema");
    }
    SQE_ASSIGN_OR_RETURN(auto t, ToColumnarType(*f->type, f->name));
    types.push_back(std::move(t));
  }
  SQE_ASSIGN_OR_RETURN(auto in, fs_.OpenForReadWithSize(file.file_path, file.file_size_in_bytes));
  parquet::ReaderOptions ro;
  ro.field_ids = file.equality_ids;
  SQE_ASSIGN_OR_RETURN(auto reader, parquet::ParquetFileReader::Open(std::move(in), ro));
  std::vector<int> cols;
  for (int32_t id : file.equality_ids) {
    int found = -1;
    const auto& fields = reader->schema()->fields();
    for (int i = 0; i < static_cast<int>(fields.size()); ++i) {
      if (fields[i].field_id() == id) found = i;
    }
    if (found < 0) {
      return Status::Corruption("equality delete file " + file.file_path + " has no column with " +
                                "field id " + std::to_string(id) + " (one of its equality_ids)");
    }
    cols.push_back(found);
  }
  auto set = std::make_shared<EqualityDeleteSet>();
  set->field_ids = file.equality_ids;
  for (int g = 0; g < reader->num_row_groups(); ++g) {
    SQE_ASSIGN_OR_RETURN(columnar::Batch b, reader->ReadRowGroup(g));
    std::vector<columnar::Column> keys;
    for (size_t k = 0; k < cols.size(); ++k) {
      SQE_ASSIGN_OR_RETURN(auto c, ConformColumn(b.column(cols[k]), types[k],
                                                 reader->schema()->fields()[cols[k]].name()));
      keys.push_back(std::move(c));
    }
    for (int64_t r = 0; r < b.num_rows(); ++r) {
      std::string key;
      for (const columnar::Column& c : keys) SQE_RETURN_NOT_OK(AppendRowKey(c, r, &key));
      set->keys.insert(std::move(key));
    }
  }
  std::lock_guard<std::mutex> lock(mu_);
  files_read_++;
  equality_[file.file_path] = set;
  return std::shared_ptr<const EqualityDeleteSet>(set);
}

}  // namespace sqe::iceberg
