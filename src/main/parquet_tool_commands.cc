#include "parquet_tool_commands.h"

#include <cstring>
#include <iomanip>
#include <memory>
#include <sstream>

#include "formats/parquet/footer.h"
#include "formats/parquet/metadata.h"
#include "formats/parquet/schema_mapping.h"
#include "io/local_file.h"

namespace sqe::tools {
namespace {

using parquet::FileMetaData;
using parquet::PhysicalType;

struct OpenedFile {
  std::unique_ptr<io::RandomAccessFile> file;
  int64_t size = 0;
  FileMetaData metadata;
};

Result<OpenedFile> OpenFooter(const std::string& path) {
  OpenedFile f;
  SQE_ASSIGN_OR_RETURN(f.file, io::OpenLocalFile(path));
  SQE_ASSIGN_OR_RETURN(f.size, f.file->Size());
  if (f.size < static_cast<int64_t>(parquet::kFooterTailSize + 4)) {
    return Status::Corruption(path + ": " + std::to_string(f.size) +
                              " bytes is too small for a Parquet file (at least 12 needed)");
  }
  std::string tail(parquet::kFooterTailSize, '\0');
  SQE_RETURN_NOT_OK(f.file->ReadAt(f.size - static_cast<int64_t>(tail.size()),
                                   static_cast<int64_t>(tail.size()),
                                   reinterpret_cast<uint8_t*>(tail.data())));
  auto length = parquet::ParseFooterTail(tail, static_cast<uint64_t>(f.size));
  if (!length.ok()) return Status(length.status().code(), path + ": " + length.status().message());
  int64_t start = f.size - static_cast<int64_t>(parquet::kFooterTailSize) - *length;
  std::string bytes(*length, '\0');
  SQE_RETURN_NOT_OK(f.file->ReadAt(start, *length, reinterpret_cast<uint8_t*>(bytes.data())));
  auto md = parquet::ParseFileMetaData(bytes, static_cast<uint64_t>(start));
  if (!md.ok()) return Status(md.status().code(), path + ": " + md.status().message());
  f.metadata = std::move(*md);
  return f;
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
      return "\"" + std::string(v) + "\"";
    }
    default:
      return Hex(v);
  }
}

}  // namespace

Status PrintParquetSchema(const std::string& path, std::ostream& out) {
  SQE_ASSIGN_OR_RETURN(OpenedFile f, OpenFooter(path));
  auto mapped = parquet::FromParquetSchema(f.metadata.schema);
  if (!mapped.ok()) return Status(mapped.status().code(), path + ": " + mapped.status().message());
  out << "columns:\n";
  for (const auto& field : mapped->schema->fields()) {
    out << "  " << field.ToString();
    if (field.field_id()) out << "  (field_id " << *field.field_id() << ")";
    out << "\n";
  }
  out << "parquet leaves:\n";
  for (const auto& col : mapped->columns) {
    std::string dotted;
    for (const auto& p : col.path) dotted += (dotted.empty() ? "" : ".") + p;
    out << "  " << dotted << ": " << parquet::PhysicalTypeName(col.physical_type);
    if (col.physical_type == PhysicalType::kFixedLenByteArray) out << "(" << col.type_length << ")";
    out << " -> " << col.type->ToString() << "  max_def " << col.max_definition_level << " max_rep "
        << col.max_repetition_level;
    if (col.field_id) out << " field_id " << *col.field_id;
    out << "\n";
  }
  return Status::OK();
}

Status PrintParquetMeta(const std::string& path, std::ostream& out) {
  SQE_ASSIGN_OR_RETURN(OpenedFile f, OpenFooter(path));
  const FileMetaData& md = f.metadata;
  out << "file: " << path << "\n";
  out << "size: " << f.size << " bytes\n";
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
      std::string dotted;
      for (const auto& p : m.path_in_schema) dotted += (dotted.empty() ? "" : ".") + p;
      out << "  " << dotted << ": " << parquet::PhysicalTypeName(m.type) << " "
          << parquet::CompressionCodecName(m.codec) << " values " << m.num_values << " compressed "
          << m.total_compressed_size << " uncompressed " << m.total_uncompressed_size
          << " encodings";
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

Status PrintParquetRows(const std::string& path, const CatOptions& options, std::ostream& out) {
  return Status::NotImplemented("sqe-parquet cat: the Parquet reader is not wired in yet");
}

}  // namespace sqe::tools
