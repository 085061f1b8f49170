// sqe-ipc-tool: writes and dumps Arrow IPC streams, for the pyarrow interop test.
//   sqe-ipc-tool write-sample OUT [none|lz4|zstd] [dict]   the sample batch (ipc_sample.h)
//   sqe-ipc-tool dump IN                                   every row as JSON Lines on stdout
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "columnar/ipc/ipc_sample.h"
#include "columnar/ipc/stream_reader.h"
#include "columnar/ipc/stream_writer.h"
#include "columnar/json_value_encoding.h"

namespace {

using namespace sqe;
using namespace sqe::columnar;

Status WriteSample(const std::string& path, int argc, char** argv) {
  ipc::WriteOptions options;
  if (argc > 3) {
    SQE_ASSIGN_OR_RETURN(options.compression, ipc::ParseCompression(argv[3]));
  }
  if (argc > 4 && std::string(argv[4]) == "dict") options.dictionary_encode_strings = true;
  SQE_ASSIGN_OR_RETURN(Batch batch, ipc::MakeSampleBatch());
  // Two batches: the whole sample, then a slice (exercises offset rebasing).
  SQE_ASSIGN_OR_RETURN(std::string bytes,
                       ipc::WriteStream(batch.schema(), {batch, batch.Slice(1, 2)}, options));
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) return Status::IOError("cannot write '" + path + "'");
  return Status::OK();
}

Status Dump(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::IOError("cannot read '" + path + "'");
  std::stringstream buffer;
  buffer << in.rdbuf();
  SQE_ASSIGN_OR_RETURN(auto contents, ipc::ReadStream(buffer.str()));
  std::string out;
  for (const Batch& batch : contents.batches) SQE_RETURN_NOT_OK(AppendJsonLines(batch, &out));
  std::fwrite(out.data(), 1, out.size(), stdout);
  return Status::OK();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: sqe-ipc-tool write-sample OUT [none|lz4|zstd] [dict] | dump IN\n";
    return 2;
  }
  const std::string command = argv[1];
  Status status;
  if (command == "write-sample") {
    status = WriteSample(argv[2], argc, argv);
  } else if (command == "dump") {
    status = Dump(argv[2]);
  } else {
    std::cerr << "unknown command '" << command << "'\n";
    return 2;
  }
  if (!status.ok()) {
    std::cerr << status.ToString() << "\n";
    return 1;
  }
  return 0;
}
