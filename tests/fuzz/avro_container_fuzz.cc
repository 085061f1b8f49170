// Fuzz target: a whole Avro object container file through ContainerReader (header,
// metadata, schema parsing, codecs, blocks, datum decoding), read once as written and
// once resolved to a reader schema by field id. Seeds are small files written by our
// ContainerWriter with every codec. Anything but a Status is a bug.
#include <memory>
#include <string>
#include <vector>

#include "formats/avro/container_reader.h"
#include "formats/avro/container_writer.h"
#include "fuzz_target.h"
#include "io/memory_file.h"

using namespace sqe;
using namespace sqe::avro;

namespace {

const char* kWriterSchema = R"({"type":"record","name":"manifest_entry","fields":[
  {"name":"status","type":"int","field-id":0},
  {"name":"snapshot_id","type":["null","long"],"default":null,"field-id":1},
  {"name":"data_file","field-id":2,"type":{"type":"record","name":"r2","fields":[
    {"name":"file_path","type":"string","field-id":100},
    {"name":"partition","field-id":102,"type":{"type":"record","name":"r102","fields":[
      {"name":"day","type":["null",{"type":"int","logicalType":"date"}],"field-id":1000}]}},
    {"name":"record_count","type":"long","field-id":103},
    {"name":"sizes","field-id":108,"type":["null",{"type":"array","items":{"type":"record",
      "name":"k117_v118","fields":[{"name":"key","type":"int","field-id":117},
      {"name":"value","type":"long","field-id":118}]}}]},
    {"name":"props","field-id":140,"type":{"type":"map","values":"bytes"}},
    {"name":"kind","field-id":141,"type":{"type":"enum","name":"K","symbols":["A","B"]}},
    {"name":"key","field-id":142,"type":["null",{"type":"fixed","name":"F4","size":4}]},
    {"name":"score","field-id":143,"type":"double"}]}}]})";

const char* kReaderSchema = R"({"type":"record","name":"manifest_entry","fields":[
  {"name":"data_file","field-id":2,"type":{"type":"record","name":"r2","fields":[
    {"name":"record_count","type":"long","field-id":103},
    {"name":"path","type":"bytes","field-id":100},
    {"name":"added","type":["null","string"],"field-id":199}]}},
  {"name":"status","type":"long","field-id":0}]})";

SchemaPtr ReaderSchema() {
  static const SchemaPtr schema = *Schema::Parse(kReaderSchema);
  return schema;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string bytes(reinterpret_cast<const char*>(data), size);
  ContainerReaderOptions options;
  options.max_block_bytes = 16 << 20;
  {
    auto reader = ContainerReader::Open(bytes, options, "fuzz.avro");
    if (reader.ok()) (void)(*reader)->ReadAll();
  }
  options.reader_schema = ReaderSchema();
  auto reader = ContainerReader::Open(std::move(bytes), options, "fuzz.avro");
  if (reader.ok()) (void)(*reader)->ReadAll();
  return 0;
}

std::vector<std::string> SqeFuzzSeeds() {
  std::vector<std::string> seeds;
  auto schema = Schema::Parse(kWriterSchema);
  if (!schema.ok()) return seeds;
  for (Codec codec : {Codec::kNull, Codec::kDeflate, Codec::kSnappy, Codec::kZstandard}) {
    auto out = std::make_shared<io::MemoryOutputStream>();
    ContainerWriterOptions wo;
    wo.codec = codec;
    wo.block_records = 2;
    wo.metadata = {{"format-version", "2"}, {"partition-spec", "[]"}};
    auto writer = ContainerWriter::Open(out, *schema, wo);
    if (!writer.ok()) continue;
    for (int i = 0; i < 3; ++i) {
      Value day = i == 1 ? Value::Null() : Value::Int(19000 + i);
      std::vector<Value> sizes = {Value::Record({Value::Int(1), Value::Long(100 + i)})};
      Value file = Value::Record(
          {Value::String("s3://b/f" + std::to_string(i)), Value::Record({day}), Value::Long(10 * i),
           Value::Array(sizes), Value::Map({{"k", Value::Bytes("v")}}), Value::Enum(i % 2),
           i == 2 ? Value::Null() : Value::Fixed("abcd"), Value::Double(0.5 * i)});
      Value entry = Value::Record({Value::Int(i), i == 0 ? Value::Null() : Value::Long(i), file});
      (void)(*writer)->Append(entry);
    }
    if ((*writer)->Close().ok()) seeds.push_back(out->data());
  }
  return seeds;
}
