#include "iceberg/write/equality_delete_writer.h"

namespace sqe::iceberg {

Result<std::unique_ptr<EqualityDeleteWriter>> EqualityDeleteWriter::Open(
    io::FileSystem& fs, const std::string& path, const Schema& table_schema,
    std::vector<int32_t> equality_ids, std::vector<std::optional<Literal>> partition,
    const DataFileWriterOptions& options) {
  if (equality_ids.empty()) {
    return Status::InvalidArgument("an equality delete file needs at least one equality column");
  }
  std::vector<NestedField> fields;
  for (int32_t id : equality_ids) {
    const NestedField* f = nullptr;
    for (const NestedField& top : table_schema.fields()) {
      if (top.id == id) f = &top;
    }
    if (f == nullptr || !f->type->is_primitive()) {
      return Status::InvalidArgument("equality column " + std::to_string(id) +
                                     " is not a top-level primitive column of the table");
    }
    if (f->type->id() == TypeId::kFloat || f->type->id() == TypeId::kDouble) {
      return Status::InvalidArgument("column '" + f->name +
                                     "' is floating point; the spec does not allow it as an "
                                     "equality delete column");
    }
    fields.push_back(*f);
  }
  std::unique_ptr<EqualityDeleteWriter> w(new EqualityDeleteWriter());
  SQE_ASSIGN_OR_RETURN(w->schema_, Schema::Make(0, std::move(fields)));
  w->ids_ = std::move(equality_ids);
  SQE_ASSIGN_OR_RETURN(w->writer_,
                       DataFileWriter::Open(fs, path, w->schema_, std::move(partition), options));
  return w;
}

Status EqualityDeleteWriter::Write(const columnar::Batch& keys) { return writer_->Write(keys); }

Result<DataFile> EqualityDeleteWriter::Close() {
  SQE_ASSIGN_OR_RETURN(DataFile f, writer_->Close());
  f.content = FileContent::kEqualityDeletes;
  f.equality_ids = ids_;
  return f;
}

}  // namespace sqe::iceberg
