#include "iceberg/write/deletion_vector_writer.h"

#include <zlib.h>

#include <algorithm>

#include "formats/puffin/puffin_writer.h"

namespace sqe::iceberg {
namespace {

void PutLe16(std::string* out, uint16_t v) {
  out->push_back(static_cast<char>(v & 0xff));
  out->push_back(static_cast<char>(v >> 8));
}
void PutLe32(std::string* out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
void PutBe32(std::string* out, uint32_t v) {
  for (int i = 3; i >= 0; --i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

// One 32-bit Roaring bitmap (RoaringFormatSpec, no run containers) of sorted `lows`.
void AppendBitmap32(const std::vector<uint32_t>& lows, std::string* out) {
  struct Container {
    uint16_t key;
    std::vector<uint16_t> values;
  };
  std::vector<Container> containers;
  for (uint32_t v : lows) {
    const auto key = static_cast<uint16_t>(v >> 16);
    if (containers.empty() || containers.back().key != key) containers.push_back({key, {}});
    containers.back().values.push_back(static_cast<uint16_t>(v & 0xffff));
  }
  const size_t base = out->size();
  PutLe32(out, 12346);  // SERIAL_COOKIE_NO_RUNCONTAINER
  PutLe32(out, static_cast<uint32_t>(containers.size()));
  for (const Container& c : containers) {
    PutLe16(out, c.key);
    PutLe16(out, static_cast<uint16_t>(c.values.size() - 1));
  }
  // Offsets of each container from the start of this bitmap.
  size_t offset = out->size() - base + 4 * containers.size();
  for (const Container& c : containers) {
    PutLe32(out, static_cast<uint32_t>(offset));
    offset += c.values.size() <= 4096 ? 2 * c.values.size() : 8192;
  }
  for (const Container& c : containers) {
    if (c.values.size() <= 4096) {
      for (uint16_t v : c.values) PutLe16(out, v);
    } else {
      std::string bits(8192, '\0');
      for (uint16_t v : c.values) bits[v / 8] = static_cast<char>(bits[v / 8] | (1 << (v % 8)));
      *out += bits;
    }
  }
}

}  // namespace

Result<std::string> EncodeDeletionVector(std::vector<int64_t> positions) {
  std::sort(positions.begin(), positions.end());
  positions.erase(std::unique(positions.begin(), positions.end()), positions.end());
  if (!positions.empty() && positions.front() < 0) {
    return Status::InvalidArgument("deletion vector position " + std::to_string(positions.front()) +
                                   " is negative");
  }
  std::string body("\xD1\xD3\x39\x64", 4);  // the magic, then the vector
  // The number of 32-bit bitmaps (8 bytes LE), then each key and bitmap.
  std::vector<std::pair<uint32_t, std::vector<uint32_t>>> groups;
  for (int64_t p : positions) {
    const auto high = static_cast<uint32_t>(static_cast<uint64_t>(p) >> 32);
    if (groups.empty() || groups.back().first != high) groups.push_back({high, {}});
    groups.back().second.push_back(static_cast<uint32_t>(p & 0xffffffff));
  }
  const uint64_t n = groups.size();
  for (int i = 0; i < 8; ++i) body.push_back(static_cast<char>((n >> (8 * i)) & 0xff));
  for (const auto& [high, lows] : groups) {
    PutLe32(&body, high);
    AppendBitmap32(lows, &body);
  }
  std::string blob;
  PutBe32(&blob, static_cast<uint32_t>(body.size()));
  blob += body;
  PutBe32(&blob, static_cast<uint32_t>(crc32(0, reinterpret_cast<const Bytef*>(body.data()),
                                             static_cast<uInt>(body.size()))));
  return blob;
}

void DeletionVectorWriter::Add(std::string data_file_path,
                               std::vector<std::optional<Literal>> partition,
                               std::vector<int64_t> positions) {
  vectors_.push_back({std::move(data_file_path), std::move(partition), std::move(positions)});
}

Result<std::vector<DataFile>> DeletionVectorWriter::Close() {
  if (vectors_.empty()) return Status::InvalidArgument("no deletion vectors to write to " + path_);
  SQE_ASSIGN_OR_RETURN(auto out, fs_.OpenForWrite(path_, /*overwrite=*/false));
  SQE_ASSIGN_OR_RETURN(auto writer, puffin::PuffinWriter::Open(std::move(out)));
  std::vector<DataFile> files;
  for (Vector& v : vectors_) {
    std::sort(v.positions.begin(), v.positions.end());
    v.positions.erase(std::unique(v.positions.begin(), v.positions.end()), v.positions.end());
    SQE_ASSIGN_OR_RETURN(std::string blob, EncodeDeletionVector(v.positions));
    puffin::BlobOptions o;
    o.type = "deletion-vector-v1";
    o.fields = {2147483545};  // the row position column
    o.properties = {{"referenced-data-file", v.data_file},
                    {"cardinality", std::to_string(v.positions.size())}};
    SQE_ASSIGN_OR_RETURN(puffin::BlobLocation at, writer->AddBlob(o, blob));
    DataFile f;
    f.content = FileContent::kPositionDeletes;
    f.file_path = path_;
    f.file_format = FileFormat::kPuffin;
    f.partition = v.partition;
    f.record_count = static_cast<int64_t>(v.positions.size());
    f.referenced_data_file = v.data_file;
    f.content_offset = at.offset;
    f.content_size_in_bytes = at.length;
    files.push_back(std::move(f));
  }
  SQE_ASSIGN_OR_RETURN(int64_t size, writer->Finish());
  for (DataFile& f : files) f.file_size_in_bytes = size;
  return files;
}

}  // namespace sqe::iceberg
