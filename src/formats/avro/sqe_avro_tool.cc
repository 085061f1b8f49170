// sqe-avro: read and write Avro object container files as JSON lines (interop tests,
// debugging manifests).
//
//   sqe-avro cat FILE [--reader-schema S.json]   one JSON object per record
//   sqe-avro meta FILE                           the header metadata as one JSON object
//   sqe-avro schema FILE                         the writer schema
//   sqe-avro write --schema S.json --codec C [--block-records N] [--meta K=V]... OUT
//                                                JSON lines on stdin -> container file
//
// JSON form (avro_json.h): bytes and fixed are BASE64 (standard alphabet, padded), enums
// their symbol, unions the bare value, maps objects, non-finite floats "NaN"/"Infinity".
// Exit codes: 0 success, 1 the file could not be read or written (the error names it),
// 2 bad usage.
#include <CLI/CLI.hpp>

#include <fstream>
#include <iostream>
#include <sstream>

#include "formats/avro/avro_json.h"
#include "formats/avro/container_reader.h"
#include "formats/avro/container_writer.h"
#include "io/local_file.h"

namespace {

using namespace sqe;
using namespace sqe::avro;

int Fail(const Status& st) {
  std::cerr << "sqe-avro: " << st.ToString() << "\n";
  return 1;
}

Result<SchemaPtr> LoadSchemaFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Status::NotFound("schema file '" + path + "' cannot be opened");
  std::stringstream text;
  text << in.rdbuf();
  auto schema = Schema::Parse(text.str());
  if (!schema.ok()) return schema.status().WithContext("schema file '" + path + "'");
  return schema;
}

Result<std::unique_ptr<ContainerReader>> OpenReader(const std::string& file,
                                                    const std::string& reader_schema) {
  SQE_ASSIGN_OR_RETURN(auto handle, io::OpenLocalFile(file));
  ContainerReaderOptions options;
  if (!reader_schema.empty()) {
    SQE_ASSIGN_OR_RETURN(options.reader_schema, LoadSchemaFile(reader_schema));
  }
  return ContainerReader::Open(std::shared_ptr<io::RandomAccessFile>(std::move(handle)), options);
}

Status Cat(const std::string& file, const std::string& reader_schema) {
  SQE_ASSIGN_OR_RETURN(auto reader, OpenReader(file, reader_schema));
  Value v;
  while (true) {
    SQE_ASSIGN_OR_RETURN(bool more, reader->Next(&v));
    if (!more) break;
    std::cout << ValueToJson(v, reader->schema()->root(), JsonBytes::kBase64).dump() << "\n";
  }
  return Status::OK();
}

Status Meta(const std::string& file) {
  SQE_ASSIGN_OR_RETURN(auto reader, OpenReader(file, ""));
  Json out = Json::object();
  for (const auto& [key, value] : reader->metadata()) out[key] = value;
  std::cout << out.dump() << "\n";
  return Status::OK();
}

Status PrintSchema(const std::string& file) {
  SQE_ASSIGN_OR_RETURN(auto reader, OpenReader(file, ""));
  std::cout << reader->writer_schema()->ToJson().dump(2) << "\n";
  return Status::OK();
}

Status Write(const std::string& schema_path, const std::string& codec_name, int64_t block_records,
             const std::vector<std::string>& meta, const std::string& out_path) {
  SQE_ASSIGN_OR_RETURN(SchemaPtr schema, LoadSchemaFile(schema_path));
  ContainerWriterOptions options;
  SQE_ASSIGN_OR_RETURN(options.codec, CodecFromName(codec_name));
  options.block_records = block_records;
  for (const std::string& kv : meta) {
    auto eq = kv.find('=');
    if (eq == std::string::npos) {
      return Status::InvalidArgument("--meta '" + kv + "' is not KEY=VALUE");
    }
    options.metadata.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
  }
  SQE_ASSIGN_OR_RETURN(auto out, io::CreateLocalFile(out_path));
  std::shared_ptr<io::OutputStream> stream(std::move(out));
  SQE_ASSIGN_OR_RETURN(auto writer, ContainerWriter::Open(stream, schema, options));
  std::string line;
  int64_t line_no = 0;
  while (std::getline(std::cin, line)) {
    ++line_no;
    if (line.empty()) continue;
    Json json = Json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (json.is_discarded()) {
      stream->Abort();
      return Status::InvalidArgument("stdin line " + std::to_string(line_no) + ": not JSON");
    }
    auto value = ValueFromJson(json, schema->root(), JsonBytes::kBase64);
    Status st = value.ok() ? writer->Append(*value) : value.status();
    if (!st.ok()) {
      stream->Abort();
      return st.WithContext("stdin line " + std::to_string(line_no));
    }
  }
  return writer->Close();
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"sqe-avro: read and write Avro container files as JSON lines"};
  app.require_subcommand(1);
  std::string file;
  std::string reader_schema;
  auto* cat = app.add_subcommand("cat", "print records as JSON lines (bytes as base64)");
  cat->add_option("FILE", file, "Avro container file")->required();
  cat->add_option("--reader-schema", reader_schema, "resolve records to this schema (JSON file)");
  auto* meta = app.add_subcommand("meta", "print the header metadata as a JSON object");
  meta->add_option("FILE", file, "Avro container file")->required();
  auto* schema = app.add_subcommand("schema", "print the writer schema");
  schema->add_option("FILE", file, "Avro container file")->required();
  auto* write = app.add_subcommand("write", "write JSON lines from stdin as a container file");
  std::string schema_path;
  std::string codec = "deflate";
  int64_t block_records = 0;
  std::vector<std::string> metadata;
  write->add_option("--schema", schema_path, "writer schema (JSON file)")->required();
  write->add_option("--codec", codec, "null, deflate, snappy or zstandard")
      ->check(CLI::IsMember({"null", "deflate", "snappy", "zstandard"}));
  write->add_option("--block-records", block_records, "records per block (0: by size)");
  write->add_option("--meta", metadata, "user metadata KEY=VALUE (repeatable)");
  write->add_option("OUT", file, "file to write")->required();
  CLI11_PARSE(app, argc, argv);

  Status st;
  if (*cat) st = Cat(file, reader_schema);
  if (*meta) st = Meta(file);
  if (*schema) st = PrintSchema(file);
  if (*write) st = Write(schema_path, codec, block_records, metadata, file);
  return st.ok() ? 0 : Fail(st);
}
