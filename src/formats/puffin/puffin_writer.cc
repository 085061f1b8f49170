#include "formats/puffin/puffin_writer.h"

#include <nlohmann/json.hpp>

namespace sqe::puffin {
namespace {

constexpr uint8_t kMagic[4] = {0x50, 0x46, 0x41, 0x31};

void PutLe32(uint8_t* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}

}  // namespace

Result<std::unique_ptr<PuffinWriter>> PuffinWriter::Open(std::unique_ptr<io::OutputStream> out) {
  std::unique_ptr<PuffinWriter> w(new PuffinWriter());
  w->out_ = std::move(out);
  if (Status st = w->out_->Write(kMagic, 4); !st.ok()) {
    w->out_->Abort();
    return st;
  }
  return w;
}

PuffinWriter::~PuffinWriter() {
  if (!finished_ && out_ != nullptr) out_->Abort();
}

Result<BlobLocation> PuffinWriter::AddBlob(const BlobOptions& options, std::string_view bytes) {
  if (finished_) return Status::InvalidArgument("the Puffin file is finished");
  if (options.type.empty()) return Status::InvalidArgument("a Puffin blob needs a type");
  BlobLocation at{out_->Tell(), static_cast<int64_t>(bytes.size())};
  SQE_RETURN_NOT_OK(out_->Write(reinterpret_cast<const uint8_t*>(bytes.data()),
                                static_cast<int64_t>(bytes.size())));
  blobs_.emplace_back(options, at);
  return at;
}

Result<int64_t> PuffinWriter::Finish(const std::map<std::string, std::string>& properties) {
  if (finished_) return Status::InvalidArgument("the Puffin file is finished");
  nlohmann::json blobs = nlohmann::json::array();
  for (const auto& [o, at] : blobs_) {
    nlohmann::json b = {{"type", o.type},
                        {"fields", o.fields},
                        {"snapshot-id", o.snapshot_id},
                        {"sequence-number", o.sequence_number},
                        {"offset", at.offset},
                        {"length", at.length}};
    if (!o.properties.empty()) b["properties"] = o.properties;
    blobs.push_back(std::move(b));
  }
  nlohmann::json meta = {{"blobs", std::move(blobs)}};
  if (!properties.empty()) meta["properties"] = properties;
  const std::string payload = meta.dump();
  std::string footer(reinterpret_cast<const char*>(kMagic), 4);
  footer += payload;
  uint8_t tail[12];
  PutLe32(tail, static_cast<uint32_t>(payload.size()));
  PutLe32(tail + 4, 0);  // flags: payload not compressed
  std::copy(kMagic, kMagic + 4, tail + 8);
  footer.append(reinterpret_cast<const char*>(tail), sizeof(tail));
  SQE_RETURN_NOT_OK(out_->Write(reinterpret_cast<const uint8_t*>(footer.data()),
                                static_cast<int64_t>(footer.size())));
  const int64_t size = out_->Tell();
  finished_ = true;
  SQE_RETURN_NOT_OK(out_->Close());
  return size;
}

}  // namespace sqe::puffin
