#include "formats/avro/container_reader.h"

#include <algorithm>

#include "formats/avro/container_format.h"
#include "io/memory_file.h"

namespace sqe::avro {

namespace {
constexpr int64_t kInitialHeaderRead = 64 * 1024;
constexpr int64_t kBlockPrefixRead = 20;  // two varints of at most 10 bytes
}  // namespace

Status ContainerReader::Corrupt(int64_t offset, const std::string& what) const {
  return Status::Corruption("avro file '" + file_->path() + "': " + what + " at offset " +
                            std::to_string(offset));
}

Result<std::unique_ptr<ContainerReader>> ContainerReader::Open(
    std::shared_ptr<io::RandomAccessFile> file, ContainerReaderOptions options) {
  std::unique_ptr<ContainerReader> reader(new ContainerReader());
  reader->file_ = std::move(file);
  reader->options_ = std::move(options);
  SQE_ASSIGN_OR_RETURN(reader->file_size_, reader->file_->Size());
  SQE_RETURN_NOT_OK(reader->ReadHeader());
  if (reader->options_.reader_schema) {
    auto resolver = SchemaResolver::Make(reader->writer_schema_, reader->options_.reader_schema);
    if (!resolver.ok()) {
      return resolver.status().WithContext("avro file '" + reader->file_->path() + "'");
    }
    reader->resolver_ = std::move(*resolver);
    reader->schema_ = reader->options_.reader_schema;
    if (reader->resolver_->identity()) reader->resolver_.reset();
  } else {
    reader->schema_ = reader->writer_schema_;
  }
  return reader;
}

Result<std::unique_ptr<ContainerReader>> ContainerReader::Open(std::string bytes,
                                                               ContainerReaderOptions options,
                                                               std::string name) {
  return Open(std::make_shared<io::MemoryFile>(std::move(bytes), std::move(name)),
              std::move(options));
}

const std::string* ContainerReader::FindMetadata(std::string_view key) const {
  for (const auto& [k, v] : metadata_) {
    if (k == key) return &v;
  }
  return nullptr;
}

Status ContainerReader::ReadHeader() {
  int64_t want = std::min(file_size_, kInitialHeaderRead);
  std::string buf;
  while (true) {
    buf.resize(static_cast<size_t>(want));
    SQE_RETURN_NOT_OK(file_->ReadAt(0, want, reinterpret_cast<uint8_t*>(buf.data())));
    bool need_more = false;
    Status st = ParseHeader(buf, &need_more);
    if (st.ok() || !need_more) return st;
    if (want >= file_size_ || want >= options_.max_header_bytes) {
      if (want >= options_.max_header_bytes && want < file_size_) {
        return Corrupt(
            0, "header larger than " + std::to_string(options_.max_header_bytes) + " bytes");
      }
      return st;
    }
    want = std::min({want * 4, file_size_, options_.max_header_bytes});
  }
}

Status ContainerReader::ParseHeader(std::string_view bytes, bool* need_more) {
  *need_more = false;
  if (bytes.size() < kContainerMagic.size() ||
      bytes.substr(0, kContainerMagic.size()) != kContainerMagic) {
    return Corrupt(0, "not an Avro object container file (bad magic)");
  }
  const std::string what = "avro file '" + file_->path() + "' header";
  Decoder d(bytes, 0, what);
  SQE_RETURN_NOT_OK(d.Skip(kContainerMagic.size()));
  metadata_.clear();
  // On a short read the header may continue past `bytes`: ask for more.
  auto short_read = [&](const Status& st) {
    *need_more = static_cast<int64_t>(bytes.size()) < file_size_;
    return st;
  };
  while (true) {
    auto count = d.ReadLong();
    if (!count.ok()) return short_read(count.status());
    if (*count == 0) break;
    int64_t n = *count;
    if (n < 0) {
      if (n == INT64_MIN) return Corrupt(static_cast<int64_t>(d.position()), "bad metadata count");
      n = -n;
      auto size = d.ReadLong();
      if (!size.ok()) return short_read(size.status());
    }
    // Each entry takes at least two bytes (two lengths).
    if (static_cast<uint64_t>(n) > static_cast<uint64_t>(file_size_) / 2) {
      return Corrupt(static_cast<int64_t>(d.position()),
                     "metadata count " + std::to_string(n) + " exceeds the file size");
    }
    for (int64_t i = 0; i < n; ++i) {
      auto key = d.ReadBytes();
      if (!key.ok()) return short_read(key.status());
      auto value = d.ReadBytes();
      if (!value.ok()) return short_read(value.status());
      metadata_.emplace_back(std::string(*key), std::string(*value));
    }
  }
  auto sync = d.ReadFixed(kSyncSize);
  if (!sync.ok()) return short_read(sync.status());
  sync_ = std::string(*sync);
  next_block_offset_ = static_cast<int64_t>(d.position());

  const std::string* schema_text = FindMetadata(kSchemaKey);
  if (schema_text == nullptr) return Corrupt(0, "header has no avro.schema");
  auto schema = Schema::Parse(*schema_text);
  if (!schema.ok()) return Corrupt(0, "bad avro.schema: " + schema.status().message());
  writer_schema_ = std::move(*schema);
  const std::string* codec = FindMetadata(kCodecKey);
  if (codec != nullptr) {
    auto parsed = CodecFromName(*codec);
    if (!parsed.ok()) return Corrupt(0, parsed.status().message());
    codec_ = *parsed;
  }
  return Status::OK();
}

Status ContainerReader::LoadBlock(bool* loaded) {
  *loaded = false;
  while (next_block_offset_ < file_size_) {
    const int64_t offset = next_block_offset_;
    int64_t prefix_len = std::min(kBlockPrefixRead, file_size_ - offset);
    uint8_t prefix[kBlockPrefixRead];
    SQE_RETURN_NOT_OK(file_->ReadAt(offset, prefix_len, prefix));
    const std::string what = "avro file '" + file_->path() + "'";
    Decoder d(prefix, static_cast<size_t>(prefix_len), offset, what);
    SQE_ASSIGN_OR_RETURN(int64_t count, d.ReadLong());
    SQE_ASSIGN_OR_RETURN(int64_t size, d.ReadLong());
    const int64_t data_offset = offset + static_cast<int64_t>(d.position());
    if (count < 0) return Corrupt(offset, "negative block record count " + std::to_string(count));
    if (size < 0 || size > options_.max_block_bytes) {
      return Corrupt(offset, "block size " + std::to_string(size) + " out of range");
    }
    if (size + static_cast<int64_t>(kSyncSize) > file_size_ - data_offset) {
      return Corrupt(offset, "block of " + std::to_string(size) +
                                 " bytes runs past the end of the file (" +
                                 std::to_string(file_size_) + " bytes)");
    }
    compressed_.resize(static_cast<size_t>(size) + kSyncSize);
    SQE_RETURN_NOT_OK(file_->ReadAt(data_offset, size + static_cast<int64_t>(kSyncSize),
                                    reinterpret_cast<uint8_t*>(compressed_.data())));
    if (std::string_view(compressed_).substr(static_cast<size_t>(size)) != sync_) {
      return Corrupt(data_offset + size, "sync marker mismatch after block");
    }
    std::string_view data(compressed_.data(), static_cast<size_t>(size));
    int64_t base = data_offset;
    if (codec_ == Codec::kNull) {
      block_.assign(data);
    } else {
      Status st = Decompress(codec_, data, &block_, options_.max_block_bytes);
      if (!st.ok()) return Corrupt(offset, "block: " + st.message());
      base = 0;
    }
    next_block_offset_ = data_offset + size + static_cast<int64_t>(kSyncSize);
    bool can_be_empty = CanEncodeEmpty(writer_schema_->root());
    if ((!can_be_empty && static_cast<uint64_t>(count) > block_.size()) ||
        (can_be_empty && count > kMaxZeroByteItems)) {
      return Corrupt(offset, "block record count " + std::to_string(count) + " exceeds its " +
                                 std::to_string(block_.size()) + " bytes");
    }
    block_offset_ = offset;
    block_what_ = "avro file '" + file_->path() + "' block at offset " + std::to_string(offset) +
                  (base == 0 ? " (decompressed)" : "");
    decoder_ = std::make_unique<Decoder>(block_, base, block_what_);
    block_records_left_ = count;
    context_ = DecodeContext();
    if (count == 0) {
      if (!block_.empty()) return Corrupt(offset, "empty block with data");
      continue;
    }
    *loaded = true;
    return Status::OK();
  }
  return Status::OK();
}

Result<bool> ContainerReader::Next(Value* out) {
  if (block_records_left_ == 0) {
    bool loaded = false;
    SQE_RETURN_NOT_OK(LoadBlock(&loaded));
    if (!loaded) return false;
  }
  SQE_RETURN_NOT_OK(DecodeDatum(decoder_.get(), writer_schema_->root(), out, &context_));
  --block_records_left_;
  if (block_records_left_ == 0 && !decoder_->at_end()) {
    return Corrupt(block_offset_, "block has " + std::to_string(decoder_->remaining()) +
                                      " bytes after its last record");
  }
  if (resolver_) {
    Status st = resolver_->Resolve(out);
    if (!st.ok()) return st.WithContext("avro file '" + file_->path() + "'");
  }
  ++records_read_;
  return true;
}

Result<std::vector<Value>> ContainerReader::ReadAll() {
  std::vector<Value> out;
  while (true) {
    Value v;
    SQE_ASSIGN_OR_RETURN(bool more, Next(&v));
    if (!more) break;
    out.push_back(std::move(v));
  }
  return out;
}

}  // namespace sqe::avro
