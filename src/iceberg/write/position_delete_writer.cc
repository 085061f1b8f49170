#include "iceberg/write/position_delete_writer.h"

#include <algorithm>

#include "columnar/binary_builder.h"
#include "columnar/fixed_width_builder.h"
#include "iceberg/columnar_schema.h"

namespace sqe::iceberg {

const Schema& PositionDeleteSchema() {
  static const Schema* schema =
      new Schema(0, {NestedField{2147483546, "file_path", true, Type::Primitive(TypeId::kString)},
                     NestedField{2147483545, "pos", true, Type::Primitive(TypeId::kLong)}});
  return *schema;
}

PositionDeleteWriter::PositionDeleteWriter(io::FileSystem& fs, std::string path,
                                           std::vector<std::optional<Literal>> partition,
                                           DataFileWriterOptions options)
    : fs_(fs),
      path_(std::move(path)),
      partition_(std::move(partition)),
      options_(std::move(options)) {}

void PositionDeleteWriter::Delete(std::string data_file_path, int64_t position) {
  rows_.emplace_back(std::move(data_file_path), position);
}

Result<DataFile> PositionDeleteWriter::Close() {
  if (rows_.empty()) return Status::InvalidArgument("no positions to write to " + path_);
  std::sort(rows_.begin(), rows_.end());
  rows_.erase(std::unique(rows_.begin(), rows_.end()), rows_.end());
  if (rows_.front().second < 0) {
    return Status::InvalidArgument("negative row position " + std::to_string(rows_.front().second) +
                                   " for " + rows_.front().first);
  }
  const Schema& schema = PositionDeleteSchema();
  SQE_ASSIGN_OR_RETURN(columnar::SchemaPtr target, ToColumnarSchema(schema));
  SQE_ASSIGN_OR_RETURN(auto writer, DataFileWriter::Open(fs_, path_, schema, partition_, options_));
  constexpr size_t kBatch = 8192;
  for (size_t start = 0; start < rows_.size(); start += kBatch) {
    const size_t end = std::min(rows_.size(), start + kBatch);
    columnar::BinaryBuilder paths(target->fields()[0].type());
    columnar::Int64Builder positions(target->fields()[1].type());
    for (size_t i = start; i < end; ++i) {
      SQE_RETURN_NOT_OK(paths.Append(rows_[i].first));
      SQE_RETURN_NOT_OK(positions.Append(rows_[i].second));
    }
    SQE_ASSIGN_OR_RETURN(columnar::Column path_column, paths.Finish());
    SQE_ASSIGN_OR_RETURN(columnar::Column pos_column, positions.Finish());
    SQE_ASSIGN_OR_RETURN(
        columnar::Batch batch,
        columnar::Batch::Make(target, {std::move(path_column), std::move(pos_column)},
                              static_cast<int64_t>(end - start)));
    SQE_RETURN_NOT_OK(writer->Write(batch));
  }
  SQE_ASSIGN_OR_RETURN(DataFile file, writer->Close());
  file.content = FileContent::kPositionDeletes;
  if (rows_.front().first == rows_.back().first) file.referenced_data_file = rows_.front().first;
  return file;
}

}  // namespace sqe::iceberg
