#include "columnar/ipc/stream_reader.h"

#include <charconv>
#include <cstring>
#include <optional>

#include "arrow_message_generated.h"
#include "columnar/ipc/body_compression_internal.h"
#include "columnar/ipc/metadata_keys_internal.h"
#include "columnar/selection_vector.h"
#include "columnar/take.h"

namespace sqe::columnar::ipc {
namespace fb = org::apache::arrow::flatbuf;

/// A schema field as the stream sends it: its decoded Field plus, when the field is
/// dictionary-encoded, the dictionary id and index type; children mirror the type's.
struct IpcFieldInternal {
  Field field{"", nullptr};
  std::optional<int64_t> dictionary_id;
  TypePtr index_type;
  std::vector<IpcFieldInternal> children;
};

namespace {

constexpr int64_t kMaxLength = (int64_t{1} << 31) - 1;

Status Corrupt(const std::string& what) { return Status::Corruption("Arrow IPC: " + what); }

std::string FbString(const flatbuffers::String* s) { return s ? s->str() : std::string(); }

Result<TimeUnit> DecodeUnit(fb::TimeUnit unit, const char* type) {
  if (unit == fb::TimeUnit_MICROSECOND) return TimeUnit::kMicro;
  if (unit == fb::TimeUnit_NANOSECOND) return TimeUnit::kNano;
  return Status::NotImplemented(std::string("Arrow IPC: ") + type + " with unit " +
                                fb::EnumNameTimeUnit(unit) + " is not supported (only us, ns)");
}

Result<TypePtr> DecodeIntType(const fb::Int* type) {
  if (type == nullptr) return Corrupt("Int type without parameters");
  if (!type->is_signed())
    return Status::NotImplemented("Arrow IPC: unsigned integers are not supported");
  switch (type->bit_width()) {
    case 8:
      return Int8();
    case 16:
      return Int16();
    case 32:
      return Int32();
    case 64:
      return Int64();
  }
  return Corrupt("Int bit width " + std::to_string(type->bit_width()));
}

Result<IpcFieldInternal> DecodeField(const fb::Field* fb_field, int depth, int max_depth) {
  if (fb_field == nullptr) return Corrupt("null field");
  if (depth > max_depth) return Corrupt("fields nested deeper than " + std::to_string(max_depth));
  IpcFieldInternal out;
  const std::string name = FbString(fb_field->name());
  if (fb_field->children() != nullptr) {
    for (const fb::Field* child : *fb_field->children()) {
      SQE_ASSIGN_OR_RETURN(auto decoded, DecodeField(child, depth + 1, max_depth));
      out.children.push_back(std::move(decoded));
    }
  }
  KeyValueMetadata metadata;
  if (fb_field->custom_metadata() != nullptr) {
    for (const fb::KeyValue* kv : *fb_field->custom_metadata()) {
      if (kv != nullptr) metadata.Set(FbString(kv->key()), FbString(kv->value()));
    }
  }
  std::optional<int32_t> field_id;
  if (auto id_text = metadata.Get(kFieldIdKey)) {
    int32_t id = 0;
    auto [ptr, ec] = std::from_chars(id_text->data(), id_text->data() + id_text->size(), id);
    if (ec == std::errc() && ptr == id_text->data() + id_text->size()) {
      field_id = id;
      metadata.Erase(kFieldIdKey);
    }
  }
  auto child_count = [&](size_t n) -> Status {
    if (out.children.size() != n) {
      return Corrupt("field '" + name + "' of type " + fb::EnumNameType(fb_field->type_type()) +
                     " has " + std::to_string(out.children.size()) + " children, expected " +
                     std::to_string(n));
    }
    return Status::OK();
  };
  TypePtr type;
  switch (fb_field->type_type()) {
    case fb::Type_Bool:
      type = Boolean();
      break;
    case fb::Type_Int: {
      SQE_ASSIGN_OR_RETURN(type, DecodeIntType(fb_field->type_as_Int()));
      break;
    }
    case fb::Type_FloatingPoint: {
      auto* fp = fb_field->type_as_FloatingPoint();
      if (fp == nullptr) return Corrupt("FloatingPoint without parameters");
      if (fp->precision() == fb::Precision_SINGLE) {
        type = Float32();
      } else if (fp->precision() == fb::Precision_DOUBLE) {
        type = Float64();
      } else {
        return Status::NotImplemented("Arrow IPC: half floats are not supported");
      }
      break;
    }
    case fb::Type_Decimal: {
      auto* dec = fb_field->type_as_Decimal();
      if (dec == nullptr) return Corrupt("Decimal without parameters");
      if (dec->bit_width() != 128) {
        return Status::NotImplemented("Arrow IPC: Decimal bit width " +
                                      std::to_string(dec->bit_width()) + " (only 128)");
      }
      auto made = MakeDecimal(dec->precision(), dec->scale());
      if (!made.ok()) return Corrupt(made.status().message());
      type = *made;
      break;
    }
    case fb::Type_Utf8:
      type = String();
      break;
    case fb::Type_Binary:
      type = Binary();
      break;
    case fb::Type_FixedSizeBinary: {
      auto* fsb = fb_field->type_as_FixedSizeBinary();
      if (fsb == nullptr) return Corrupt("FixedSizeBinary without parameters");
      auto ext = metadata.Get(kExtensionNameKey);
      if (ext && *ext == kUuidExtensionName && fsb->byte_width() == 16) {
        type = Uuid();
        metadata.Erase(kExtensionNameKey);
        metadata.Erase(kExtensionMetadataKey);
      } else {
        auto made = MakeFixedSizeBinary(fsb->byte_width());
        if (!made.ok()) return Corrupt(made.status().message());
        type = *made;
      }
      break;
    }
    case fb::Type_Date: {
      auto* date = fb_field->type_as_Date();
      if (date == nullptr || date->unit() != fb::DateUnit_DAY) {
        return Status::NotImplemented("Arrow IPC: Date(MILLISECOND) is not supported");
      }
      type = Date32();
      break;
    }
    case fb::Type_Time: {
      auto* time = fb_field->type_as_Time();
      if (time == nullptr) return Corrupt("Time without parameters");
      SQE_ASSIGN_OR_RETURN(auto unit, DecodeUnit(time->unit(), "Time"));
      if (time->bit_width() != 64) return Corrupt("Time(us/ns) with bit width != 64");
      type = Time64(unit);
      break;
    }
    case fb::Type_Timestamp: {
      auto* ts = fb_field->type_as_Timestamp();
      if (ts == nullptr) return Corrupt("Timestamp without parameters");
      SQE_ASSIGN_OR_RETURN(auto unit, DecodeUnit(ts->unit(), "Timestamp"));
      type = Timestamp(unit, FbString(ts->timezone()));
      break;
    }
    case fb::Type_List:
      SQE_RETURN_NOT_OK(child_count(1));
      type = List(out.children[0].field);
      break;
    case fb::Type_Struct_: {
      std::vector<Field> fields;
      for (const auto& child : out.children) fields.push_back(child.field);
      type = Struct(std::move(fields));
      break;
    }
    case fb::Type_Map: {
      SQE_RETURN_NOT_OK(child_count(1));
      const Field& entries = out.children[0].field;
      if (entries.type()->id() != TypeId::kStruct || entries.type()->num_fields() != 2) {
        return Corrupt("map field '" + name + "' entries are not a struct of key and value");
      }
      auto* map = fb_field->type_as_Map();
      type = Map(entries.type()->field(0), entries.type()->field(1), map && map->keys_sorted());
      break;
    }
    case fb::Type_NONE:
      return Corrupt("field '" + name + "' has no type");
    default:
      return Status::NotImplemented(std::string("Arrow IPC: type ") +
                                    fb::EnumNameType(fb_field->type_type()) + " of field '" + name +
                                    "' is not supported");
  }
  if (const fb::DictionaryEncoding* dict = fb_field->dictionary()) {
    out.dictionary_id = dict->id();
    if (dict->index_type() == nullptr) {
      out.index_type = Int32();
    } else {
      SQE_ASSIGN_OR_RETURN(out.index_type, DecodeIntType(dict->index_type()));
    }
  }
  out.field = Field(name, std::move(type), fb_field->nullable(), field_id, std::move(metadata));
  return out;
}

// Reads the columns of one RecordBatch from its body.
class BodyReader {
 public:
  BodyReader(const fb::RecordBatch& batch, const BufferPtr& body, const ReadOptions& options,
             const std::map<int64_t, Column>& dictionaries)
      : batch_(batch), body_(body), options_(options), dictionaries_(dictionaries) {}

  Status Init() {
    if (batch_.nodes() == nullptr || batch_.buffers() == nullptr) {
      return Corrupt("record batch without nodes or buffers");
    }
    if (const fb::BodyCompression* c = batch_.compression()) {
      if (c->method() != fb::BodyCompressionMethod_BUFFER)
        return Corrupt("unknown compression method");
      if (c->codec() == fb::CompressionType_LZ4_FRAME) {
        codec_ = Compression::kLz4Frame;
      } else if (c->codec() == fb::CompressionType_ZSTD) {
        codec_ = Compression::kZstd;
      } else {
        return Corrupt("unknown compression codec");
      }
    }
    return Status::OK();
  }

  Result<Column> Load(const IpcFieldInternal& field, int depth) {
    if (depth > options_.max_nesting_depth) return Corrupt("columns nested too deeply");
    if (node_index_ >= batch_.nodes()->size()) {
      return Corrupt("record batch has fewer field nodes than the schema needs");
    }
    const fb::FieldNode* node = batch_.nodes()->Get(node_index_++);
    const int64_t length = node->length();
    const int64_t null_count = node->null_count();
    // Lengths beyond int32 cannot be addressed by our int32 offsets (and would overflow
    // buffer size arithmetic), so they are rejected as corrupt.
    if (length < 0 || length > kMaxLength || null_count < 0 || null_count > length) {
      return Corrupt("field node " + std::to_string(node_index_ - 1) + " has length " +
                     std::to_string(length) + " and null count " + std::to_string(null_count));
    }
    SQE_ASSIGN_OR_RETURN(BufferPtr validity, NextBuffer());
    if (null_count == 0) validity = nullptr;
    const std::string& name = field.field.name();
    if (field.dictionary_id) {
      SQE_ASSIGN_OR_RETURN(BufferPtr values, NextBuffer());
      auto indices = Column::Make(field.index_type, length, {validity, values}, {}, null_count);
      if (!indices.ok())
        return Corrupt("field '" + name + "' indices: " + indices.status().message());
      auto it = dictionaries_.find(*field.dictionary_id);
      if (it == dictionaries_.end()) {
        return Corrupt("field '" + name + "' uses dictionary " +
                       std::to_string(*field.dictionary_id) + " before it was sent");
      }
      return DecodeDictionary(*indices, it->second, name);
    }
    const TypePtr& type = field.field.type();
    std::vector<BufferPtr> buffers{validity};
    std::vector<Column> children;
    switch (type->layout()) {
      case Layout::kBitmap:
      case Layout::kFixedWidth: {
        SQE_ASSIGN_OR_RETURN(auto values, NextBuffer());
        buffers.push_back(values);
        break;
      }
      case Layout::kVarBinary: {
        SQE_ASSIGN_OR_RETURN(auto offsets, NextBuffer());
        SQE_ASSIGN_OR_RETURN(auto data, NextBuffer());
        buffers.push_back(offsets);
        buffers.push_back(data);
        break;
      }
      case Layout::kList: {
        SQE_ASSIGN_OR_RETURN(auto offsets, NextBuffer());
        buffers.push_back(offsets);
        SQE_ASSIGN_OR_RETURN(auto child, Load(field.children[0], depth + 1));
        children.push_back(std::move(child));
        break;
      }
      case Layout::kStruct:
        for (const auto& child_field : field.children) {
          SQE_ASSIGN_OR_RETURN(auto child, Load(child_field, depth + 1));
          children.push_back(std::move(child));
        }
        break;
    }
    auto column = Column::Make(type, length, std::move(buffers), std::move(children), null_count);
    if (!column.ok()) return Corrupt("field '" + name + "': " + column.status().message());
    return std::move(column).value();
  }

 private:
  Result<BufferPtr> NextBuffer() {
    if (buffer_index_ >= batch_.buffers()->size()) {
      return Corrupt("record batch has fewer buffers than the schema needs");
    }
    const fb::Buffer* location = batch_.buffers()->Get(buffer_index_++);
    const int64_t offset = location->offset();
    const int64_t length = location->length();
    const int64_t body_size = body_ ? body_->size() : 0;
    if (offset < 0 || length < 0 || offset > body_size || length > body_size - offset) {
      return Corrupt("buffer " + std::to_string(buffer_index_ - 1) + " [" + std::to_string(offset) +
                     ", +" + std::to_string(length) + ") lies outside the " +
                     std::to_string(body_size) + "-byte body");
    }
    if (length == 0) return Empty();
    std::string_view bytes(reinterpret_cast<const char*>(body_->data()) + offset,
                           static_cast<size_t>(length));
    if (codec_ != Compression::kNone) {
      auto decoded =
          DecompressBuffer(codec_, bytes, options_.max_decompressed_buffer_size, options_.tracker);
      if (!decoded.ok() && decoded.status().code() == StatusCode::kCorruption) {
        return Corrupt("buffer " + std::to_string(buffer_index_ - 1) + ": " +
                       decoded.status().message());
      }
      return decoded;
    }
    if (reinterpret_cast<uintptr_t>(bytes.data()) % 8 != 0) {  // misaligned: copy
      SQE_ASSIGN_OR_RETURN(auto copy, Buffer::CopyOf(bytes, options_.tracker));
      return BufferPtr(std::move(copy));
    }
    return Buffer::Slice(body_, offset, length);
  }

  Result<BufferPtr> Empty() {
    SQE_ASSIGN_OR_RETURN(auto empty, Buffer::Allocate(0));
    return BufferPtr(std::move(empty));
  }

  Result<Column> DecodeDictionary(const Column& indices, const Column& dictionary,
                                  const std::string& name) {
    const int64_t n = indices.length();
    if (dictionary.length() == 0) {
      if (indices.null_count() != n)
        return Corrupt("field '" + name + "' indexes an empty dictionary");
      return Column::MakeAllNull(dictionary.type(), n, options_.tracker);
    }
    SelectionVector selection;
    selection.Reserve(n);
    for (int64_t i = 0; i < n; ++i) {
      int64_t index = 0;
      if (indices.IsValid(i)) {
        switch (indices.type_id()) {
          case TypeId::kInt8:
            index = indices.Value<int8_t>(i);
            break;
          case TypeId::kInt16:
            index = indices.Value<int16_t>(i);
            break;
          case TypeId::kInt32:
            index = indices.Value<int32_t>(i);
            break;
          default:
            index = indices.Value<int64_t>(i);
            break;
        }
        if (index < 0 || index >= dictionary.length()) {
          return Corrupt("field '" + name + "' row " + std::to_string(i) +
                         " has dictionary index " + std::to_string(index) + " outside [0, " +
                         std::to_string(dictionary.length()) + ")");
        }
      }
      selection.Append(static_cast<uint32_t>(index));
    }
    SQE_ASSIGN_OR_RETURN(Column taken, Take(dictionary, selection, options_.tracker));
    if (indices.null_count() == 0) return taken;
    SQE_ASSIGN_OR_RETURN(auto bitmap,
                         Buffer::Allocate(BytesForBits(taken.offset() + n), options_.tracker));
    for (int64_t i = 0; i < n; ++i) {
      SetBitTo(bitmap->mutable_data(), taken.offset() + i, indices.IsValid(i) && taken.IsValid(i));
    }
    std::vector<BufferPtr> buffers = taken.buffers();
    buffers[0] = std::move(bitmap);
    return Column::Make(taken.type(), n, std::move(buffers), taken.children(),
                        Column::kUnknownNullCount, taken.offset());
  }

  const fb::RecordBatch& batch_;
  const BufferPtr& body_;
  const ReadOptions& options_;
  const std::map<int64_t, Column>& dictionaries_;
  Compression codec_ = Compression::kNone;
  flatbuffers::uoffset_t node_index_ = 0;
  flatbuffers::uoffset_t buffer_index_ = 0;
};

const IpcFieldInternal* FindDictionaryField(const std::vector<IpcFieldInternal>& fields,
                                            int64_t id) {
  for (const auto& field : fields) {
    if (field.dictionary_id == id) return &field;
    if (const auto* found = FindDictionaryField(field.children, id)) return found;
  }
  return nullptr;
}

}  // namespace

StreamDecoder::StreamDecoder(ReadOptions options) : options_(std::move(options)) {}
StreamDecoder::~StreamDecoder() = default;

Status StreamDecoder::Fail(Status status) {
  error_ = status;
  return status;
}

Status StreamDecoder::Feed(std::string_view bytes) {
  if (!error_.ok()) return error_;
  if (finished_) {
    if (bytes.empty()) return Status::OK();
    return Fail(
        Corrupt("bytes after the end-of-stream marker at byte " + std::to_string(stream_offset_)));
  }
  pending_.append(bytes);
  return DecodeFramed();
}

Status StreamDecoder::DecodeFramed() {
  size_t pos = 0;
  Status status;
  while (!finished_) {
    const size_t left = pending_.size() - pos;
    if (left < 4) break;
    uint32_t word = 0;
    std::memcpy(&word, pending_.data() + pos, 4);
    size_t prefix = 4;
    int64_t metadata_length = 0;
    if (word == 0xFFFFFFFFu) {
      if (left < 8) break;
      int32_t len = 0;
      std::memcpy(&len, pending_.data() + pos + 4, 4);
      metadata_length = len;
      prefix = 8;
    } else {
      metadata_length = static_cast<int32_t>(word);  // pre-1.0 framing without the marker
    }
    const int64_t message_offset = stream_offset_ + static_cast<int64_t>(pos);
    if (metadata_length == 0) {
      finished_ = true;
      pos += prefix;
      break;
    }
    if (metadata_length < 0 || metadata_length > options_.max_metadata_size) {
      status = Corrupt("message at byte " + std::to_string(message_offset) + " declares " +
                       std::to_string(metadata_length) + " metadata bytes");
      break;
    }
    if (static_cast<int64_t>(left) < static_cast<int64_t>(prefix) + metadata_length) break;
    // Copy so the flatbuffer is aligned for reading.
    std::string metadata(pending_.data() + pos + prefix, static_cast<size_t>(metadata_length));
    flatbuffers::Verifier verifier(reinterpret_cast<const uint8_t*>(metadata.data()),
                                   metadata.size(),
                                   static_cast<flatbuffers::uoffset_t>(options_.max_nesting_depth));
    if (!fb::VerifyMessageBuffer(verifier)) {
      status = Corrupt("message at byte " + std::to_string(message_offset) +
                       " has invalid flatbuffer metadata");
      break;
    }
    const int64_t body_length = fb::GetMessage(metadata.data())->body_length();
    if (body_length < 0 || body_length > options_.max_body_size) {
      status = Corrupt("message at byte " + std::to_string(message_offset) +
                       " declares a body of " + std::to_string(body_length) + " bytes");
      break;
    }
    const int64_t total = static_cast<int64_t>(prefix) + metadata_length + body_length;
    if (static_cast<int64_t>(left) < total) break;
    auto body = Buffer::CopyOf(std::string_view(pending_.data() + pos + prefix + metadata_length,
                                                static_cast<size_t>(body_length)),
                               options_.tracker);
    if (!body.ok()) {
      status = body.status();
      break;
    }
    status = ConsumeMessage(metadata, BufferPtr(std::move(body).value()));
    if (!status.ok()) {
      status = status.WithContext("message at byte " + std::to_string(message_offset));
      break;
    }
    pos += static_cast<size_t>(total);
  }
  pending_.erase(0, pos);
  stream_offset_ += static_cast<int64_t>(pos);
  if (!status.ok()) return Fail(status);
  return Status::OK();
}

Status StreamDecoder::ConsumeMessage(std::string_view metadata_bytes, BufferPtr body) {
  if (!error_.ok()) return error_;
  std::string metadata(metadata_bytes);  // aligned copy for the flatbuffer accessors
  flatbuffers::Verifier verifier(reinterpret_cast<const uint8_t*>(metadata.data()), metadata.size(),
                                 static_cast<flatbuffers::uoffset_t>(options_.max_nesting_depth));
  if (!fb::VerifyMessageBuffer(verifier))
    return Fail(Corrupt("invalid flatbuffer message metadata"));
  const fb::Message* message = fb::GetMessage(metadata.data());
  if (message->version() < fb::MetadataVersion_V4) {
    return Fail(Status::NotImplemented("Arrow IPC: metadata version " +
                                       std::to_string(message->version()) + " (need V4 or V5)"));
  }
  if (body && message->body_length() > body->size()) {
    return Fail(Corrupt("message declares a " + std::to_string(message->body_length()) +
                        "-byte body, got " + std::to_string(body->size())));
  }
  switch (message->header_type()) {
    case fb::MessageHeader_Schema: {
      if (schema_ != nullptr) return Fail(Corrupt("a second Schema message"));
      const fb::Schema* schema = message->header_as_Schema();
      if (schema == nullptr) return Fail(Corrupt("Schema message without a schema"));
      if (schema->endianness() != fb::Endianness_Little) {
        return Fail(Status::NotImplemented("Arrow IPC: big-endian streams are not supported"));
      }
      std::vector<Field> fields;
      if (schema->fields() != nullptr) {
        for (const fb::Field* fb_field : *schema->fields()) {
          auto decoded = DecodeField(fb_field, 0, options_.max_nesting_depth);
          if (!decoded.ok()) return Fail(decoded.status());
          fields.push_back(decoded->field);
          fields_.push_back(std::move(decoded).value());
        }
      }
      KeyValueMetadata metadata_pairs;
      if (schema->custom_metadata() != nullptr) {
        for (const fb::KeyValue* kv : *schema->custom_metadata()) {
          if (kv != nullptr) metadata_pairs.Set(FbString(kv->key()), FbString(kv->value()));
        }
      }
      schema_ = Schema::Make(std::move(fields), std::move(metadata_pairs));
      return Status::OK();
    }
    case fb::MessageHeader_DictionaryBatch: {
      if (schema_ == nullptr) return Fail(Corrupt("DictionaryBatch before the Schema"));
      const fb::DictionaryBatch* dict = message->header_as_DictionaryBatch();
      if (dict == nullptr || dict->data() == nullptr) return Fail(Corrupt("empty DictionaryBatch"));
      if (dict->is_delta()) {
        return Fail(Status::NotImplemented("Arrow IPC: delta dictionaries are not supported"));
      }
      const IpcFieldInternal* field = FindDictionaryField(fields_, dict->id());
      if (field == nullptr)
        return Fail(Corrupt("DictionaryBatch for unknown id " + std::to_string(dict->id())));
      IpcFieldInternal value_field = *field;
      value_field.dictionary_id.reset();
      BodyReader reader(*dict->data(), body, options_, dictionaries_);
      Status st = reader.Init();
      if (!st.ok()) return Fail(st);
      auto column = reader.Load(value_field, 0);
      if (!column.ok()) return Fail(column.status());
      st = column->ValidateFull();
      if (!st.ok())
        return Fail(Corrupt("dictionary " + std::to_string(dict->id()) + ": " + st.message()));
      dictionaries_[dict->id()] = std::move(column).value();
      return Status::OK();
    }
    case fb::MessageHeader_RecordBatch: {
      if (schema_ == nullptr) return Fail(Corrupt("RecordBatch before the Schema"));
      const fb::RecordBatch* batch = message->header_as_RecordBatch();
      if (batch == nullptr) return Fail(Corrupt("RecordBatch message without a header"));
      BodyReader reader(*batch, body, options_, dictionaries_);
      Status st = reader.Init();
      if (!st.ok()) return Fail(st);
      std::vector<Column> columns;
      for (const auto& field : fields_) {
        auto column = reader.Load(field, 0);
        if (!column.ok()) return Fail(column.status());
        st = column->ValidateFull();
        if (!st.ok()) return Fail(Corrupt("column '" + field.field.name() + "': " + st.message()));
        if (column->length() != batch->length()) {
          return Fail(Corrupt("column '" + field.field.name() + "' has " +
                              std::to_string(column->length()) + " rows, the batch " +
                              std::to_string(batch->length())));
        }
        columns.push_back(std::move(column).value());
      }
      auto made = Batch::Make(schema_, std::move(columns), batch->length());
      if (!made.ok()) return Fail(Corrupt(made.status().message()));
      batches_.push_back(std::move(made).value());
      return Status::OK();
    }
    default:
      return Fail(Status::NotImplemented(std::string("Arrow IPC: message type ") +
                                         fb::EnumNameMessageHeader(message->header_type()) +
                                         " is not supported"));
  }
}

Result<StreamContents> ReadStream(std::string_view bytes, const ReadOptions& options) {
  StreamDecoder decoder(options);
  SQE_RETURN_NOT_OK(decoder.Feed(bytes));
  if (decoder.pending_bytes() != 0) {
    return Corrupt("stream truncated: " + std::to_string(decoder.pending_bytes()) +
                   " bytes of an incomplete message at the end");
  }
  if (decoder.schema() == nullptr) return Corrupt("stream has no Schema message");
  return StreamContents{decoder.schema(), decoder.TakeBatches()};
}

}  // namespace sqe::columnar::ipc
