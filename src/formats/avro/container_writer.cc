#include "formats/avro/container_writer.h"

#include <random>

#include "formats/avro/avro_datum.h"
#include "formats/avro/avro_encoding.h"
#include "formats/avro/container_format.h"

namespace sqe::avro {

ContainerWriter::~ContainerWriter() = default;

Result<std::unique_ptr<ContainerWriter>> ContainerWriter::Open(
    std::shared_ptr<io::OutputStream> out, SchemaPtr schema, ContainerWriterOptions options) {
  for (const auto& [key, value] : options.metadata) {
    if (key.rfind(kReservedPrefix, 0) == 0) {
      return Status::InvalidArgument("avro writer: metadata key '" + key +
                                     "' is reserved (keys starting with 'avro.')");
    }
  }
  std::unique_ptr<ContainerWriter> w(new ContainerWriter());
  w->out_ = std::move(out);
  w->schema_ = std::move(schema);
  w->options_ = std::move(options);
  if (w->options_.sync_marker) {
    w->sync_.assign(reinterpret_cast<const char*>(w->options_.sync_marker->data()), kSyncSize);
  } else {
    std::random_device device;
    std::mt19937_64 rng((static_cast<uint64_t>(device()) << 32) ^ device());
    for (size_t i = 0; i < kSyncSize; ++i) w->sync_.push_back(static_cast<char>(rng() & 0xff));
  }

  std::string header(kContainerMagic);
  Encoder e(&header);
  std::vector<std::pair<std::string, std::string>> entries;
  entries.emplace_back(std::string(kSchemaKey), w->schema_->ToString());
  entries.emplace_back(std::string(kCodecKey), std::string(CodecName(w->options_.codec)));
  for (const auto& entry : w->options_.metadata) entries.push_back(entry);
  e.WriteLong(static_cast<int64_t>(entries.size()));
  for (const auto& [key, value] : entries) {
    e.WriteBytes(key);
    e.WriteBytes(value);
  }
  e.WriteLong(0);
  header.append(w->sync_);
  SQE_RETURN_NOT_OK(w->out_->Write(header));
  return w;
}

Status ContainerWriter::Append(const Value& record) {
  if (closed_) return Status::InvalidArgument("avro writer: Append after Close");
  const size_t before = block_.size();
  Encoder e(&block_);
  Status st = EncodeDatum(record, schema_->root(), &e);
  if (!st.ok()) {
    block_.resize(before);
    return st.WithContext("avro writer '" + out_->path() + "' record " +
                          std::to_string(records_written_));
  }
  ++block_count_;
  ++records_written_;
  if ((options_.block_records > 0 && block_count_ >= options_.block_records) ||
      static_cast<int64_t>(block_.size()) >= options_.block_bytes) {
    return Flush();
  }
  return Status::OK();
}

Status ContainerWriter::Flush() {
  if (closed_) return Status::InvalidArgument("avro writer: Flush after Close");
  if (block_count_ == 0) return Status::OK();
  SQE_RETURN_NOT_OK(Compress(options_.codec, block_, &compressed_, options_.compression_level));
  frame_.clear();
  Encoder e(&frame_);
  e.WriteLong(block_count_);
  e.WriteLong(static_cast<int64_t>(compressed_.size()));
  SQE_RETURN_NOT_OK(out_->Write(frame_));
  SQE_RETURN_NOT_OK(out_->Write(compressed_));
  SQE_RETURN_NOT_OK(out_->Write(sync_));
  block_.clear();
  block_count_ = 0;
  return Status::OK();
}

Status ContainerWriter::Close() {
  if (closed_) return Status::InvalidArgument("avro writer: closed twice");
  SQE_RETURN_NOT_OK(Flush());
  closed_ = true;
  return out_->Close();
}

}  // namespace sqe::avro
