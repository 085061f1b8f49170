#include "columnar/ipc/stream_writer.h"

#include <cstring>
#include <string>
#include <unordered_map>

#include "arrow_message_generated.h"
#include "columnar/binary_builder.h"
#include "columnar/fixed_width_builder.h"
#include "columnar/ipc/body_compression_internal.h"
#include "columnar/ipc/metadata_keys_internal.h"

namespace sqe::columnar::ipc {
namespace fb = org::apache::arrow::flatbuf;
using flatbuffers::FlatBufferBuilder;
using flatbuffers::Offset;

namespace {

// Framing keeps metadata (and so the body start) 8-aligned; buffers use the option.
constexpr int64_t kMetadataAlignment = 8;

int64_t PaddedLength(int64_t n, int64_t alignment = kMetadataAlignment) {
  return (n + alignment - 1) / alignment * alignment;
}

// Whether top-level field i goes out dictionary-encoded (its dictionary id is then i).
bool IsDictionaryField(const Field& field, const WriteOptions& options) {
  return options.dictionary_encode_strings && field.type()->id() == TypeId::kString;
}

fb::TimeUnit ToFbUnit(TimeUnit unit) {
  return unit == TimeUnit::kMicro ? fb::TimeUnit_MICROSECOND : fb::TimeUnit_NANOSECOND;
}

Offset<flatbuffers::Vector<Offset<fb::KeyValue>>> EncodeMetadata(
    FlatBufferBuilder& fbb, const std::vector<std::pair<std::string, std::string>>& pairs) {
  if (pairs.empty()) return 0;
  std::vector<Offset<fb::KeyValue>> entries;
  for (const auto& [key, value] : pairs) {
    entries.push_back(fb::CreateKeyValue(fbb, fbb.CreateString(key), fbb.CreateString(value)));
  }
  return fbb.CreateVector(entries);
}

Offset<fb::Field> EncodeField(FlatBufferBuilder& fbb, const Field& field,
                              std::optional<int64_t> dictionary_id) {
  const DataType& type = *field.type();
  std::vector<Offset<fb::Field>> children;
  for (const Field& child : type.fields()) children.push_back(EncodeField(fbb, child, {}));
  auto children_vec = fbb.CreateVector(children);

  std::vector<std::pair<std::string, std::string>> metadata = field.metadata().pairs();
  if (type.id() == TypeId::kUuid) {
    metadata.emplace_back(std::string(kExtensionNameKey), std::string(kUuidExtensionName));
    metadata.emplace_back(std::string(kExtensionMetadataKey), "");
  }
  if (field.field_id())
    metadata.emplace_back(std::string(kFieldIdKey), std::to_string(*field.field_id()));
  auto metadata_vec = EncodeMetadata(fbb, metadata);

  fb::Type type_type = fb::Type_NONE;
  Offset<void> type_offset;
  switch (type.id()) {
    case TypeId::kBoolean:
      type_type = fb::Type_Bool, type_offset = fb::CreateBool(fbb).Union();
      break;
    case TypeId::kInt8:
    case TypeId::kInt16:
    case TypeId::kInt32:
    case TypeId::kInt64:
      type_type = fb::Type_Int;
      type_offset = fb::CreateInt(fbb, type.byte_width() * 8, true).Union();
      break;
    case TypeId::kFloat32:
    case TypeId::kFloat64:
      type_type = fb::Type_FloatingPoint;
      type_offset =
          fb::CreateFloatingPoint(
              fbb, type.id() == TypeId::kFloat32 ? fb::Precision_SINGLE : fb::Precision_DOUBLE)
              .Union();
      break;
    case TypeId::kDecimal128:
      type_type = fb::Type_Decimal;
      type_offset = fb::CreateDecimal(fbb, type.precision(), type.scale(), 128).Union();
      break;
    case TypeId::kString:
      type_type = fb::Type_Utf8, type_offset = fb::CreateUtf8(fbb).Union();
      break;
    case TypeId::kBinary:
      type_type = fb::Type_Binary, type_offset = fb::CreateBinary(fbb).Union();
      break;
    case TypeId::kFixedSizeBinary:
    case TypeId::kUuid:
      type_type = fb::Type_FixedSizeBinary;
      type_offset = fb::CreateFixedSizeBinary(fbb, type.byte_width()).Union();
      break;
    case TypeId::kDate32:
      type_type = fb::Type_Date, type_offset = fb::CreateDate(fbb, fb::DateUnit_DAY).Union();
      break;
    case TypeId::kTime64:
      type_type = fb::Type_Time;
      type_offset = fb::CreateTime(fbb, ToFbUnit(type.unit()), 64).Union();
      break;
    case TypeId::kTimestamp: {
      auto tz =
          type.has_timezone() ? fbb.CreateString(type.timezone()) : Offset<flatbuffers::String>();
      type_type = fb::Type_Timestamp;
      type_offset = fb::CreateTimestamp(fbb, ToFbUnit(type.unit()), tz).Union();
      break;
    }
    case TypeId::kList:
      type_type = fb::Type_List, type_offset = fb::CreateList(fbb).Union();
      break;
    case TypeId::kStruct:
      type_type = fb::Type_Struct_, type_offset = fb::CreateStruct_(fbb).Union();
      break;
    case TypeId::kMap:
      type_type = fb::Type_Map, type_offset = fb::CreateMap(fbb, type.keys_sorted()).Union();
      break;
  }
  Offset<fb::DictionaryEncoding> dictionary;
  if (dictionary_id) {
    auto index_type = fb::CreateInt(fbb, 32, true);
    dictionary = fb::CreateDictionaryEncoding(fbb, *dictionary_id, index_type, false);
  }
  auto name = fbb.CreateString(field.name());
  return fb::CreateField(fbb, name, field.nullable(), type_type, type_offset, dictionary,
                         children_vec, metadata_vec);
}

std::string FinishMessage(FlatBufferBuilder& fbb, fb::MessageHeader header_type,
                          Offset<void> header, int64_t body_length) {
  auto message = fb::CreateMessage(fbb, fb::MetadataVersion_V5, header_type, header, body_length);
  fbb.Finish(message);
  return std::string(reinterpret_cast<const char*>(fbb.GetBufferPointer()), fbb.GetSize());
}

// Accumulates a message body: field nodes, buffer locations and the (padded) bytes.
class BodyWriter {
 public:
  explicit BodyWriter(const WriteOptions& options) : options_(options) {}

  Status AddBuffer(std::string_view bytes) {
    const int64_t offset = static_cast<int64_t>(body_.size());
    if (options_.compression == Compression::kNone || bytes.empty()) {
      body_.append(bytes);
    } else {
      SQE_RETURN_NOT_OK(
          CompressBuffer(options_.compression, options_.compression_level, bytes, &body_));
    }
    const int64_t length = static_cast<int64_t>(body_.size()) - offset;
    const int64_t alignment = options_.buffer_alignment == 8 ? 8 : 64;
    body_.resize(static_cast<size_t>(offset + PaddedLength(length, alignment)), '\0');
    buffers_.emplace_back(offset, length);
    return Status::OK();
  }

  // A bitmap's bits [offset, offset + length) moved to start at bit 0.
  Status AddBitmap(const uint8_t* bits, int64_t offset, int64_t length) {
    const int64_t bytes = BytesForBits(length);
    if (offset % 8 == 0) {
      return AddBuffer(
          {reinterpret_cast<const char*>(bits) + offset / 8, static_cast<size_t>(bytes)});
    }
    std::string copy(static_cast<size_t>(bytes), '\0');
    CopyBits(bits, offset, length, reinterpret_cast<uint8_t*>(copy.data()), 0);
    return AddBuffer(copy);
  }

  // Offsets of rows [0, length] rebased to start at 0; returns the original range.
  Status AddOffsets(const Column& column, int64_t* first, int64_t* last) {
    const int64_t n = column.length();
    std::string rebased(static_cast<size_t>((n + 1) * 4), '\0');
    auto* out = reinterpret_cast<int32_t*>(rebased.data());
    *first = 0;
    *last = 0;
    if (n > 0 || column.buffers()[1]->size() >= 4) {
      const int32_t* offsets = column.Offsets();
      *first = offsets[0];
      *last = offsets[n];
      for (int64_t i = 0; i <= n; ++i) out[i] = offsets[i] - offsets[0];
    }
    return AddBuffer(rebased);
  }

  Status AddColumn(const Column& column) {
    const int64_t length = column.length();
    nodes_.emplace_back(length, column.null_count());
    if (column.null_count() == 0) {
      SQE_RETURN_NOT_OK(AddBuffer({}));
    } else {
      SQE_RETURN_NOT_OK(AddBitmap(column.validity()->data(), column.offset(), length));
    }
    const DataType& type = *column.type();
    switch (type.layout()) {
      case Layout::kBitmap:
        return AddBitmap(column.buffers()[1]->data(), column.offset(), length);
      case Layout::kFixedWidth: {
        const int64_t width = type.byte_width();
        return AddBuffer(column.buffers()[1]->view().substr(
            static_cast<size_t>(column.offset() * width), static_cast<size_t>(length * width)));
      }
      case Layout::kVarBinary: {
        int64_t first, last;
        SQE_RETURN_NOT_OK(AddOffsets(column, &first, &last));
        return AddBuffer(column.buffers()[2]->view().substr(static_cast<size_t>(first),
                                                            static_cast<size_t>(last - first)));
      }
      case Layout::kList: {
        int64_t first, last;
        SQE_RETURN_NOT_OK(AddOffsets(column, &first, &last));
        return AddColumn(column.child(0).Slice(first, last - first));
      }
      case Layout::kStruct:
        for (int i = 0; i < column.num_children(); ++i) {
          SQE_RETURN_NOT_OK(AddColumn(column.StructField(i)));
        }
        return Status::OK();
    }
    return Status::OK();
  }

  Offset<fb::RecordBatch> Finish(FlatBufferBuilder& fbb, int64_t num_rows) {
    auto nodes = fbb.CreateVectorOfStructs(nodes_);
    auto buffers = fbb.CreateVectorOfStructs(buffers_);
    Offset<fb::BodyCompression> compression;
    if (options_.compression != Compression::kNone) {
      compression = fb::CreateBodyCompression(fbb,
                                              options_.compression == Compression::kZstd
                                                  ? fb::CompressionType_ZSTD
                                                  : fb::CompressionType_LZ4_FRAME,
                                              fb::BodyCompressionMethod_BUFFER);
    }
    return fb::CreateRecordBatch(fbb, num_rows, nodes, buffers, compression);
  }

  std::string& body() { return body_; }

 private:
  const WriteOptions& options_;
  std::string body_;
  std::vector<fb::FieldNode> nodes_;
  std::vector<fb::Buffer> buffers_;
};

// Splits a string column into int32 indices and a dictionary of its distinct values.
Status DictionaryEncode(const Column& column, Column* indices, Column* dictionary) {
  std::unordered_map<std::string_view, int32_t> ids;
  BinaryBuilder values(column.type());
  Int32Builder index_builder(Int32());
  for (int64_t i = 0; i < column.length(); ++i) {
    if (column.IsNull(i)) {
      SQE_RETURN_NOT_OK(index_builder.AppendNull());
      continue;
    }
    std::string_view value = column.StringAt(i);
    auto [it, inserted] = ids.emplace(value, static_cast<int32_t>(ids.size()));
    if (inserted) SQE_RETURN_NOT_OK(values.Append(value));
    SQE_RETURN_NOT_OK(index_builder.Append(it->second));
  }
  SQE_ASSIGN_OR_RETURN(*indices, index_builder.Finish());
  SQE_ASSIGN_OR_RETURN(*dictionary, values.Finish());
  return Status::OK();
}

Result<EncodedMessage> EncodeRecordBatch(const std::vector<Column>& columns, int64_t num_rows,
                                         const WriteOptions& options,
                                         std::optional<int64_t> dictionary_id) {
  BodyWriter writer(options);
  for (const Column& column : columns) SQE_RETURN_NOT_OK(writer.AddColumn(column));
  FlatBufferBuilder fbb;
  auto record_batch = writer.Finish(fbb, num_rows);
  EncodedMessage message;
  const int64_t body_length = static_cast<int64_t>(writer.body().size());
  if (dictionary_id) {
    auto dict = fb::CreateDictionaryBatch(fbb, *dictionary_id, record_batch, false);
    message.metadata =
        FinishMessage(fbb, fb::MessageHeader_DictionaryBatch, dict.Union(), body_length);
  } else {
    message.metadata =
        FinishMessage(fbb, fb::MessageHeader_RecordBatch, record_batch.Union(), body_length);
  }
  message.body = std::move(writer.body());
  return message;
}

void AppendUint32(uint32_t value, std::string* out) {
  char bytes[4];
  std::memcpy(bytes, &value, 4);
  out->append(bytes, 4);
}

}  // namespace

Result<EncodedMessage> EncodeSchema(const Schema& schema, const WriteOptions& options) {
  FlatBufferBuilder fbb;
  std::vector<Offset<fb::Field>> fields;
  for (int i = 0; i < schema.num_fields(); ++i) {
    const Field& field = schema.field(i);
    fields.push_back(EncodeField(
        fbb, field, IsDictionaryField(field, options) ? std::optional<int64_t>(i) : std::nullopt));
  }
  auto fields_vec = fbb.CreateVector(fields);
  auto metadata = EncodeMetadata(fbb, schema.metadata().pairs());
  auto fb_schema = fb::CreateSchema(fbb, fb::Endianness_Little, fields_vec, metadata);
  EncodedMessage message;
  message.metadata = FinishMessage(fbb, fb::MessageHeader_Schema, fb_schema.Union(), 0);
  return message;
}

Result<std::vector<EncodedMessage>> EncodeBatch(const Batch& batch, const WriteOptions& options) {
  std::vector<EncodedMessage> messages;
  std::vector<Column> columns = batch.columns();
  for (int i = 0; i < batch.num_columns(); ++i) {
    if (!IsDictionaryField(batch.schema()->field(i), options)) continue;
    Column indices, dictionary;
    SQE_RETURN_NOT_OK(DictionaryEncode(batch.column(i), &indices, &dictionary));
    SQE_ASSIGN_OR_RETURN(auto message,
                         EncodeRecordBatch({dictionary}, dictionary.length(), options, i));
    messages.push_back(std::move(message));
    columns[i] = std::move(indices);
  }
  SQE_ASSIGN_OR_RETURN(auto message,
                       EncodeRecordBatch(columns, batch.num_rows(), options, std::nullopt));
  messages.push_back(std::move(message));
  return messages;
}

void AppendFramedMessage(const EncodedMessage& message, std::string* out) {
  // The metadata is padded so that the body starts 8-byte aligned (prefix is 8 bytes).
  const int64_t padded = PaddedLength(static_cast<int64_t>(message.metadata.size()));
  AppendUint32(0xFFFFFFFFu, out);
  AppendUint32(static_cast<uint32_t>(padded), out);
  out->append(message.metadata);
  out->append(static_cast<size_t>(padded) - message.metadata.size(), '\0');
  out->append(message.body);
}

void AppendEndOfStream(std::string* out) {
  AppendUint32(0xFFFFFFFFu, out);
  AppendUint32(0, out);
}

Result<std::unique_ptr<StreamWriter>> StreamWriter::Open(SchemaPtr schema, Sink sink,
                                                         WriteOptions options) {
  SQE_ASSIGN_OR_RETURN(auto message, EncodeSchema(*schema, options));
  std::string framed;
  AppendFramedMessage(message, &framed);
  SQE_RETURN_NOT_OK(sink(framed));
  return std::unique_ptr<StreamWriter>(
      new StreamWriter(std::move(schema), std::move(sink), options));
}

Status StreamWriter::WriteBatch(const Batch& batch) {
  if (closed_) return Status::InvalidArgument("IPC stream writer is closed");
  if (batch.schema() == nullptr || !batch.schema()->Equals(*schema_, /*check_metadata=*/false)) {
    return Status::InvalidArgument(
        "batch schema (" + (batch.schema() ? batch.schema()->ToString() : "none") +
        ") differs from the stream schema (" + schema_->ToString() + ")");
  }
  SQE_ASSIGN_OR_RETURN(auto messages, EncodeBatch(batch, options_));
  std::string framed;
  for (const auto& message : messages) {
    framed.clear();
    AppendFramedMessage(message, &framed);
    SQE_RETURN_NOT_OK(sink_(framed));
  }
  return Status::OK();
}

Status StreamWriter::Close() {
  if (closed_) return Status::InvalidArgument("IPC stream writer is already closed");
  closed_ = true;
  std::string eos;
  AppendEndOfStream(&eos);
  return sink_(eos);
}

Result<std::string> WriteStream(const SchemaPtr& schema, const std::vector<Batch>& batches,
                                const WriteOptions& options) {
  std::string out;
  auto sink = [&out](std::string_view bytes) {
    out.append(bytes);
    return Status::OK();
  };
  SQE_ASSIGN_OR_RETURN(auto writer, StreamWriter::Open(schema, sink, options));
  for (const Batch& batch : batches) SQE_RETURN_NOT_OK(writer->WriteBatch(batch));
  SQE_RETURN_NOT_OK(writer->Close());
  return out;
}

}  // namespace sqe::columnar::ipc
