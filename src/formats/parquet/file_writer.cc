#include "formats/parquet/file_writer.h"

#include <algorithm>

#include "formats/parquet/footer.h"
#include "formats/parquet/level_shredding.h"
#include "formats/parquet/schema_mapping.h"

#ifndef SQE_VERSION
#define SQE_VERSION "0.0.0"
#endif

namespace sqe::parquet {
namespace {

using columnar::DataType;
using columnar::Field;
using columnar::TypeId;

// Leaf types in the depth-first order of the Parquet schema.
void CollectLeafTypes(const DataType& t, std::vector<const DataType*>* out) {
  switch (t.id()) {
    case TypeId::kList:
      return CollectLeafTypes(*t.value_field().type(), out);
    case TypeId::kMap:
      CollectLeafTypes(*t.key_field().type(), out);
      return CollectLeafTypes(*t.item_field().type(), out);
    case TypeId::kStruct:
      for (const Field& f : t.fields()) CollectLeafTypes(*f.type(), out);
      return;
    default:
      out->push_back(&t);
  }
}

}  // namespace

Result<std::unique_ptr<ParquetWriter>> ParquetWriter::Open(std::unique_ptr<io::OutputStream> out,
                                                           columnar::SchemaPtr schema,
                                                           WriterOptions options) {
  if (out == nullptr || schema == nullptr) {
    return Status::InvalidArgument("parquet writer: needs an output stream and a schema");
  }
  CompressionCodec codec =
      options.codec == CompressionCodec::kLz4 ? CompressionCodec::kLz4Raw : options.codec;
  if (codec != CompressionCodec::kUncompressed && !IsCodecSupported(codec)) {
    return Status::NotImplemented("parquet writer: codec " +
                                  std::string(CompressionCodecName(codec)) + " not supported");
  }
  std::unique_ptr<ParquetWriter> w(new ParquetWriter());
  w->out_ = std::move(out);
  w->schema_ = std::move(schema);
  w->options_ = std::move(options);
  SQE_ASSIGN_OR_RETURN(w->metadata_.schema, ToParquetSchema(*w->schema_));
  SQE_ASSIGN_OR_RETURN(ParquetSchema ps, FromParquetSchema(w->metadata_.schema));
  w->leaves_ = std::move(ps.columns);
  for (const Field& f : w->schema_->fields()) CollectLeafTypes(*f.type(), &w->leaf_types_);
  if (w->leaf_types_.size() != w->leaves_.size()) {
    return Status::Internal("parquet writer: schema mapping produced " +
                            std::to_string(w->leaves_.size()) + " leaves, expected " +
                            std::to_string(w->leaf_types_.size()));
  }
  for (size_t i = 0; i < w->leaves_.size(); ++i) {
    w->writers_.push_back(
        std::make_unique<ColumnChunkWriter>(w->leaves_[i], *w->leaf_types_[i], w->options_));
    w->file_stats_.emplace_back(ValueOrderOf(*w->leaf_types_[i], w->leaves_[i].physical_type));
  }
  w->column_sizes_.assign(w->leaves_.size(), 0);
  w->value_counts_.assign(w->leaves_.size(), 0);
  SQE_RETURN_NOT_OK(w->out_->Write(kParquetMagic));
  return w;
}

ParquetWriter::~ParquetWriter() {
  if (!closed_ && out_ != nullptr) out_->Abort();
}

Status ParquetWriter::Write(const columnar::Batch& batch) {
  if (closed_) return Status::InvalidArgument("parquet writer: Write after Close");
  SQE_RETURN_NOT_OK(error_);
  if (batch.num_columns() != schema_->num_fields()) {
    return Status::InvalidArgument("parquet writer: batch has " +
                                   std::to_string(batch.num_columns()) + " columns, schema " +
                                   std::to_string(schema_->num_fields()));
  }
  for (int i = 0; i < batch.num_columns(); ++i) {
    if (!batch.column(i).type()->Equals(*schema_->field(i).type())) {
      return Status::InvalidArgument("parquet writer: column '" + schema_->field(i).name() +
                                     "' has type " + batch.column(i).type()->ToString() +
                                     ", schema says " + schema_->field(i).type()->ToString());
    }
  }
  constexpr int64_t kSliceRows = 4096;  // bounds the shredded levels held at once
  int64_t offset = 0;
  while (offset < batch.num_rows()) {
    int64_t n = std::min(kSliceRows, batch.num_rows() - offset);
    if (options_.row_group_rows > 0) n = std::min(n, options_.row_group_rows - group_rows_);
    Status st = WriteSlice(batch.Slice(offset, n));
    offset += n;
    group_rows_ += n;
    if (st.ok() &&
        ((options_.row_group_rows > 0 && group_rows_ >= options_.row_group_rows) ||
         (options_.row_group_bytes > 0 && EstimatedRowGroupBytes() >= options_.row_group_bytes))) {
      st = FlushRowGroup();
    }
    if (!st.ok()) {
      error_ = st;
      return st;
    }
  }
  return Status::OK();
}

Status ParquetWriter::WriteSlice(const columnar::Batch& slice) {
  size_t leaf = 0;
  for (int i = 0; i < slice.num_columns(); ++i) {
    SQE_ASSIGN_OR_RETURN(std::vector<ShreddedLeaf> shredded,
                         ShredColumn(schema_->field(i), slice.column(i)));
    for (const ShreddedLeaf& s : shredded) SQE_RETURN_NOT_OK(writers_[leaf++]->Write(s));
  }
  return Status::OK();
}

int64_t ParquetWriter::EstimatedFileBytes() const {
  return (out_ != nullptr ? out_->Tell() : 0) + EstimatedRowGroupBytes();
}

int64_t ParquetWriter::EstimatedRowGroupBytes() const {
  int64_t total = 0;
  for (const auto& w : writers_) total += w->EstimatedSize();
  return total;
}

Status ParquetWriter::FlushRowGroup() {
  if (group_rows_ == 0) return Status::OK();
  RowGroup rg;
  rg.num_rows = group_rows_;
  const int64_t start = out_->Tell();
  rg.file_offset = start;
  rg.ordinal = static_cast<int16_t>(metadata_.row_groups.size());
  int64_t compressed = 0;
  std::vector<std::optional<ColumnIndex>> column_indexes;
  std::vector<OffsetIndex> offset_indexes;
  for (size_t i = 0; i < writers_.size(); ++i) {
    SQE_ASSIGN_OR_RETURN(ChunkResult chunk, writers_[i]->Finish());
    const int64_t pos = out_->Tell();
    SQE_RETURN_NOT_OK(out_->Write(chunk.bytes));
    ColumnChunk cc;
    cc.file_offset = pos;
    chunk.meta.data_page_offset += pos;
    if (chunk.meta.dictionary_page_offset) *chunk.meta.dictionary_page_offset += pos;
    for (PageLocation& loc : chunk.offset_index.page_locations) loc.offset += pos;
    rg.total_byte_size += chunk.meta.total_uncompressed_size;
    compressed += chunk.meta.total_compressed_size;
    column_sizes_[i] += chunk.meta.total_compressed_size;
    value_counts_[i] += chunk.meta.num_values;
    file_stats_[i].Merge(chunk.stats);
    cc.meta_data = std::move(chunk.meta);
    rg.columns.push_back(std::move(cc));
    column_indexes.push_back(std::move(chunk.column_index));
    offset_indexes.push_back(std::move(chunk.offset_index));
  }
  rg.total_compressed_size = compressed;
  metadata_.num_rows += group_rows_;
  metadata_.row_groups.push_back(std::move(rg));
  column_indexes_.push_back(std::move(column_indexes));
  offset_indexes_.push_back(std::move(offset_indexes));
  split_offsets_.push_back(start);
  group_rows_ = 0;
  return Status::OK();
}

Result<FileMetrics> ParquetWriter::Close() {
  if (closed_) return Status::InvalidArgument("parquet writer: Close called twice");
  SQE_RETURN_NOT_OK(error_);
  Status st = [&]() -> Status {
    SQE_RETURN_NOT_OK(FlushRowGroup());
    if (options_.write_page_index) {
      for (size_t g = 0; g < metadata_.row_groups.size(); ++g) {
        for (size_t c = 0; c < writers_.size(); ++c) {
          if (!column_indexes_[g][c]) continue;
          std::string bytes = EncodeThrift(*column_indexes_[g][c]);
          metadata_.row_groups[g].columns[c].column_index_offset = out_->Tell();
          metadata_.row_groups[g].columns[c].column_index_length =
              static_cast<int32_t>(bytes.size());
          SQE_RETURN_NOT_OK(out_->Write(bytes));
        }
      }
      for (size_t g = 0; g < metadata_.row_groups.size(); ++g) {
        for (size_t c = 0; c < writers_.size(); ++c) {
          std::string bytes = EncodeThrift(offset_indexes_[g][c]);
          metadata_.row_groups[g].columns[c].offset_index_offset = out_->Tell();
          metadata_.row_groups[g].columns[c].offset_index_length =
              static_cast<int32_t>(bytes.size());
          SQE_RETURN_NOT_OK(out_->Write(bytes));
        }
      }
    }
    metadata_.version = 2;
    metadata_.created_by = std::string("sqe version ") + SQE_VERSION;
    metadata_.column_orders.assign(leaves_.size(), ColumnOrder::kTypeDefined);
    for (const auto& [k, v] : options_.key_value_metadata)
      metadata_.key_value_metadata.push_back({k, v});
    SQE_RETURN_NOT_OK(out_->Write(SerializeFooter(metadata_)));
    return Status::OK();
  }();
  FileMetrics metrics;
  if (st.ok()) {
    metrics.file_size = out_->Tell();
    st = out_->Close();
  }
  closed_ = true;
  if (!st.ok()) {
    out_->Abort();
    return st;
  }
  metrics.record_count = metadata_.num_rows;
  metrics.split_offsets = split_offsets_;
  for (size_t i = 0; i < leaves_.size(); ++i) {
    const ColumnDescriptor& d = leaves_[i];
    if (!d.field_id) continue;
    ColumnMetrics m;
    m.field_id = *d.field_id;
    m.column_size = column_sizes_[i];
    m.value_count = value_counts_[i];
    m.null_count = file_stats_[i].null_count();
    if (leaf_types_[i]->is_floating()) m.nan_count = file_stats_[i].nan_count();
    if (d.max_repetition_level == 0 && file_stats_[i].has_min_max()) {
      m.lower_bound = IcebergBound(*leaf_types_[i], d.physical_type, file_stats_[i].min(), false);
      m.upper_bound = IcebergBound(*leaf_types_[i], d.physical_type, file_stats_[i].max(), true);
    }
    metrics.columns.push_back(std::move(m));
  }
  return metrics;
}

}  // namespace sqe::parquet
