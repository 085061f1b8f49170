#include "parquet_tool_commands.h"

#include <cstring>
#include <iomanip>
#include <memory>
#include <sstream>

#include "columnar/json_value_encoding.h"
#include "formats/parquet/file_reader.h"
#include "formats/parquet/file_writer.h"
#include "formats/parquet/metadata.h"
#include "formats/parquet/schema_mapping.h"
#include "io/local_file.h"

namespace sqe::tools {
namespace {

using parquet::FileMetaData;
using parquet::PhysicalType;

// Prefixes the file path unless the message already names it.
Status WithPath(const Status& st, const std::string& path) {
  if (st.ok() || st.message().find(path) != std::string::npos) return st;
  return Status(st.code(), path + ": " + st.message());
}

Result<std::unique_ptr<parquet::ParquetFileReader>> OpenReader(
    const std::string& path, parquet::ReaderOptions options = {}) {
  auto file = io::OpenLocalFile(path);
  if (!file.ok()) return WithPath(file.status(), path);
  auto reader = parquet::ParquetFileReader::Open(
      std::shared_ptr<io::RandomAccessFile>(std::move(*file)), std::move(options));
  if (!reader.ok()) return WithPath(reader.status(), path);
  return std::move(*reader);
}

std::string Hex(std::string_view bytes) {
  std::ostringstream s;
  s << "0x";
  for (unsigned char c : bytes) s << std::hex << std::setw(2) << std::setfill('0') << int(c);
  return s.str();
}

// A statistics bound for display: plain-encoded value of the physical type.
std::string RenderBound(PhysicalType type, std::string_view v) {
  auto load = [&](auto zero) {
    decltype(zero) x{};
    std::memcpy(&x, v.data(), sizeof(x));
    return x;
  };
  switch (type) {
    case PhysicalType::kBoolean:
      return v.size() == 1 ? (v[0] ? "true" : "false") : Hex(v);
    case PhysicalType::kInt32:
      return v.size() == 4 ? std::to_string(load(int32_t{})) : Hex(v);
    case PhysicalType::kInt64:
      return v.size() == 8 ? std::to_string(load(int64_t{})) : Hex(v);
    case PhysicalType::kFloat: {
      if (v.size() != 4) return Hex(v);
      std::ostringstream s;
      s << load(float{});
      return s.str();
    }
    case PhysicalType::kDouble: {
      if (v.size() != 8) return Hex(v);
      std::ostringstream s;
      s << std::setprecision(17) << load(double{});
      return s.str();
    }
    case PhysicalType::kByteArray: {
      for (unsigned char c : v) {
        if (c < 0x20 || c == 0x7f) return Hex(v);
      }
      std::string quoted;
      quoted.reserve(v.size() + 2);
      quoted.push_back('"');
      quoted.append(v);
      quoted.push_back('"');
      return quoted;
    }
    default:
      return Hex(v);
  }
}

}  // namespace

Status PrintParquetSchema(const std::string& path, std::ostream& out) {
  SQE_ASSIGN_OR_RETURN(auto reader, OpenReader(path));
  const parquet::ParquetSchema* mapped = &reader->file_schema();
  out << "columns:\n";
  for (const auto& field : mapped->schema->fields()) {
    out << "  " << field.ToString();
    if (field.field_id()) out << "  (field_id " << *field.field_id() << ")";
    out << "\n";
  }
  out << "parquet leaves:\n";
  for (const auto& col : mapped->columns) {
    out << "  " << parquet::JoinPath(col.path) << ": "
        << parquet::PhysicalTypeName(col.physical_type);
    if (col.physical_type == PhysicalType::kFixedLenByteArray) out << "(" << col.type_length << ")";
    out << " -> " << col.type->ToString() << "  max_def " << col.max_definition_level << " max_rep "
        << col.max_repetition_level;
    if (col.field_id) out << " field_id " << *col.field_id;
    out << "\n";
  }
  return Status::OK();
}

Status PrintParquetMeta(const std::string& path, std::ostream& out) {
  SQE_ASSIGN_OR_RETURN(auto reader, OpenReader(path));
  const FileMetaData& md = reader->metadata();
  SQE_ASSIGN_OR_RETURN(int64_t size, reader->file()->Size());
  out << "file: " << path << "\n";
  out << "size: " << size << " bytes\n";
  out << "version: " << md.version << "\n";
  out << "created_by: " << md.created_by.value_or("") << "\n";
  out << "rows: " << md.num_rows << "\n";
  out << "row_groups: " << md.row_groups.size() << "\n";
  for (const auto& kv : md.key_value_metadata) {
    out << "metadata: " << kv.key << " (" << (kv.value ? kv.value->size() : 0) << " bytes)\n";
  }
  for (size_t g = 0; g < md.row_groups.size(); ++g) {
    const auto& rg = md.row_groups[g];
    out << "row_group " << g << ": rows " << rg.num_rows << ", bytes " << rg.total_byte_size
        << "\n";
    for (const auto& chunk : rg.columns) {
      if (!chunk.meta_data) {
        out << "  (column without metadata)\n";
        continue;
      }
      const auto& m = *chunk.meta_data;
      out << "  " << parquet::JoinPath(m.path_in_schema) << ": "
          << parquet::PhysicalTypeName(m.type) << " " << parquet::CompressionCodecName(m.codec)
          << " values " << m.num_values << " compressed " << m.total_compressed_size
          << " uncompressed " << m.total_uncompressed_size << " encodings";
      for (size_t i = 0; i < m.encodings.size(); ++i) {
        out << (i ? "," : " ") << parquet::EncodingName(m.encodings[i]);
      }
      out << "\n";
      if (m.statistics) {
        const auto& s = *m.statistics;
        out << "    stats:";
        if (s.null_count) out << " nulls " << *s.null_count;
        if (s.min_value) out << " min " << RenderBound(m.type, *s.min_value);
        if (s.max_value) out << " max " << RenderBound(m.type, *s.max_value);
        if (!s.min_value && s.min) out << " min(legacy) " << RenderBound(m.type, *s.min);
        if (!s.max_value && s.max) out << " max(legacy) " << RenderBound(m.type, *s.max);
        out << "\n";
      }
      out << "    page_index: column " << (chunk.column_index_offset ? "yes" : "no") << ", offset "
          << (chunk.offset_index_offset ? "yes" : "no") << "; bloom_filter "
          << (m.bloom_filter_offset ? "yes" : "no") << "\n";
    }
  }
  return Status::OK();
}

namespace {

// Table cells: strings and temporal values without their JSON quotes.
Result<std::string> CellText(const columnar::Column& column, int64_t row) {
  std::string json;
  SQE_RETURN_NOT_OK(columnar::AppendJsonValue(column, row, &json));
  if (json.size() >= 2 && json.front() == '"' && json.back() == '"' &&
      json.find('\\') == std::string::npos) {
    return json.substr(1, json.size() - 2);
  }
  return json;
}

Status PrintTable(const columnar::Batch& batch, int64_t rows, bool header, std::ostream& out) {
  const auto& fields = batch.schema()->fields();
  std::vector<std::vector<std::string>> cells(fields.size());
  std::vector<size_t> width(fields.size());
  for (size_t c = 0; c < fields.size(); ++c) {
    width[c] = fields[c].name().size();
    for (int64_t r = 0; r < rows; ++r) {
      SQE_ASSIGN_OR_RETURN(std::string text, CellText(batch.column(static_cast<int>(c)), r));
      width[c] = std::max(width[c], text.size());
      cells[c].push_back(std::move(text));
    }
  }
  auto line = [&](auto cell) {
    std::string text;
    for (size_t c = 0; c < fields.size(); ++c) {
      std::string v = cell(c);
      text += (c ? " | " : "") + v + std::string(width[c] - std::min(width[c], v.size()), ' ');
    }
    while (!text.empty() && text.back() == ' ') text.pop_back();
    out << text << "\n";
  };
  if (header) {
    line([&](size_t c) { return fields[c].name(); });
    line([&](size_t c) { return std::string(width[c], '-'); });
  }
  for (int64_t r = 0; r < rows; ++r) line([&](size_t c) { return cells[c][r]; });
  return Status::OK();
}

}  // namespace

Status PrintParquetRows(const std::string& path, const CatOptions& options, std::ostream& out) {
  parquet::ReaderOptions reader_options;
  reader_options.columns = options.columns;
  SQE_ASSIGN_OR_RETURN(auto reader, OpenReader(path, std::move(reader_options)));
  int64_t remaining = options.limit < 0 ? reader->num_rows() : options.limit;
  bool header = true;
  for (int g = 0; g < reader->num_row_groups() && remaining > 0; ++g) {
    auto batch = reader->ReadRowGroup(g);
    if (!batch.ok()) return WithPath(batch.status(), path);
    // Print in slices so a huge row group does not build one huge string.
    for (int64_t offset = 0; offset < batch->num_rows() && remaining > 0;) {
      int64_t n = std::min<int64_t>({remaining, batch->num_rows() - offset, 4096});
      columnar::Batch slice = batch->Slice(offset, n);
      if (options.format == CatFormat::kJsonLines) {
        std::string text;
        SQE_RETURN_NOT_OK(columnar::AppendJsonLines(slice, &text));
        out << text;
      } else {
        SQE_RETURN_NOT_OK(PrintTable(slice, n, header, out));
        header = false;
      }
      offset += n;
      remaining -= n;
    }
  }
  if (header && options.format == CatFormat::kTable) {
    // No rows: still show the columns.
    std::string names;
    for (const auto& f : reader->schema()->fields())
      names += (names.empty() ? "" : " | ") + f.name();
    out << names << "\n";
  }
  return Status::OK();
}

Status RewriteParquet(const std::string& in, const std::string& out_path,
                      const RewriteOptions& options, std::ostream& out) {
  parquet::WriterOptions w;
  static const std::pair<const char*, parquet::CompressionCodec> kCodecs[] = {
      {"zstd", parquet::CompressionCodec::kZstd},
      {"snappy", parquet::CompressionCodec::kSnappy},
      {"gzip", parquet::CompressionCodec::kGzip},
      {"lz4", parquet::CompressionCodec::kLz4Raw},
      {"brotli", parquet::CompressionCodec::kBrotli},
      {"none", parquet::CompressionCodec::kUncompressed}};
  bool found = false;
  for (const auto& [name, codec] : kCodecs) {
    if (options.codec == name) {
      w.codec = codec;
      found = true;
    }
  }
  if (!found) {
    return Status::InvalidArgument("unknown codec '" + options.codec +
                                   "'; use zstd, snappy, gzip, lz4, brotli or none");
  }
  if (options.page_version != 1 && options.page_version != 2) {
    return Status::InvalidArgument("--page-version must be 1 or 2");
  }
  w.compression_level = options.level;
  w.page_version =
      options.page_version == 2 ? parquet::DataPageVersion::kV2 : parquet::DataPageVersion::kV1;
  if (options.row_group_rows > 0) w.row_group_rows = options.row_group_rows;
  if (options.page_bytes > 0) w.data_page_bytes = options.page_bytes;
  w.dictionary = options.dictionary;

  SQE_ASSIGN_OR_RETURN(auto reader, OpenReader(in));
  SQE_ASSIGN_OR_RETURN(auto stream, io::CreateLocalFile(out_path));
  auto writer = parquet::ParquetWriter::Open(std::move(stream), reader->schema(), w);
  if (!writer.ok()) return WithPath(writer.status(), out_path);
  for (int g = 0; g < reader->num_row_groups(); ++g) {
    auto batch = reader->ReadRowGroup(g);
    if (!batch.ok()) return WithPath(batch.status(), in);
    Status st = (*writer)->Write(*batch);
    if (!st.ok()) return WithPath(st, out_path);
  }
  auto metrics = (*writer)->Close();
  if (!metrics.ok()) return WithPath(metrics.status(), out_path);
  out << "wrote " << out_path << ": " << metrics->record_count << " rows, " << metrics->file_size
      << " bytes, " << metrics->split_offsets.size() << " row groups\n";
  for (const auto& c : metrics->columns) {
    out << "  field " << c.field_id << ": values " << c.value_count << " nulls " << c.null_count;
    if (c.nan_count) out << " nans " << *c.nan_count;
    out << " size " << c.column_size << "\n";
  }
  return Status::OK();
}

}  // namespace sqe::tools
