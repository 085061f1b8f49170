// Fuzz target: Iceberg metadata.json through ParseTableMetadata. A document that parses
// must also write, parse back to an equal model and write the same text again (unknown
// fields included); its partition transforms are applied to sample values and its
// helpers called. The same bytes also go to the type, schema, spec, sort order and
// transform parsers. Anything but a Status (or a broken round trip) is a bug.
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_target.h"
#include "iceberg/table_metadata.h"
#include "iceberg/transforms.h"

using namespace sqe;
using namespace sqe::iceberg;

namespace {

std::vector<Literal> SampleValues() {
  return {Literal::Int(-7),
          Literal::Long(1LL << 40),
          Literal::Decimal(columnar::Decimal128(-1065), 2),
          Literal::Date(-1),
          Literal::Time(81068000000),
          Literal::Timestamp(-1),
          Literal::TimestampTz(1510871468000000),
          Literal::TimestampNs(-1),
          Literal::TimestampTzNs(1510871468000000123),
          Literal::String("ice\xC3\xA4\xE2\x82\xAC"),
          Literal::Uuid(std::string(16, '\x5a')),
          Literal::Fixed("\x00\x01\x02\x03"),
          Literal::Binary("\x01\x02\x03\x04\x05"),
          Literal::Boolean(true),
          Literal::Double(-0.0),
          Literal::Null(TypeId::kLong)};
}

void ExerciseMetadata(const TableMetadata& m) {
  Result<std::string> text = WriteTableMetadata(m);
  if (!text.ok()) std::abort();  // parsed metadata is valid, so it must write
  Result<TableMetadata> again = ParseTableMetadata(*text);
  if (!again.ok() || !(*again == m)) std::abort();
  Result<std::string> text2 = WriteTableMetadata(*again);
  if (!text2.ok() || *text2 != *text) std::abort();

  static const std::vector<Literal> values = SampleValues();
  for (const PartitionSpec& spec : m.partition_specs) {
    for (const PartitionField& field : spec.fields()) {
      for (const Literal& v : values) (void)field.transform.Apply(v);
    }
    if (m.CurrentSchema() != nullptr) (void)spec.PartitionType(*m.CurrentSchema());
  }
  for (const Snapshot& s : m.snapshots) {
    (void)m.SchemaForSnapshot(s.snapshot_id);
    (void)m.SnapshotAsOf(s.timestamp_ms);
  }
  for (const auto& [name, ref] : m.refs) (void)m.SnapshotForRef(name);
  (void)m.CurrentSnapshot();
  const Schema* schema = m.CurrentSchema();
  if (schema != nullptr) {
    for (const NestedField& f : schema->fields()) {
      (void)schema->FindFieldByName(f.name, false);
      (void)schema->FindNameById(f.id);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  Result<TableMetadata> metadata = ParseTableMetadata(text);
  if (metadata.ok()) ExerciseMetadata(*metadata);
  (void)ParseTypeJson(text);
  (void)ParseSchemaJson(text);
  (void)ParsePartitionSpecJson(text);
  (void)ParseSortOrderJson(text);
  if (size < 64) {
    (void)Type::ParsePrimitive(text);
    Result<Transform> t = Transform::Parse(text);
    if (t.ok()) {
      for (const Literal& v : SampleValues()) (void)t->Apply(v);
    }
  }
  return 0;
}

std::vector<std::string> SqeFuzzSeeds() {
  return {
      // v1: deprecated schema / partition-spec, manifests list, an unknown field.
      R"js({"format-version":1,"table-uuid":"d20125c8-7284-442c-9aea-15fee620737c",
"location":"s3://b/wh/t","last-updated-ms":1602638573874,"last-column-id":3,
"schema":{"type":"struct","fields":[{"id":1,"name":"x","required":true,"type":"long"},
{"id":2,"name":"y","required":false,"type":"decimal(9,2)","doc":"d"},
{"id":3,"name":"z","required":false,"type":"date"}]},
"partition-spec":[{"name":"x","transform":"identity","source-id":1},
{"name":"z_month","transform":"month","source-id":3}],
"properties":{"owner":"a"},"current-snapshot-id":5,
"snapshots":[{"snapshot-id":5,"timestamp-ms":1515100955770,"summary":{"operation":"append"},
"manifests":["s3://b/wh/t/metadata/m1.avro"]}],
"snapshot-log":[{"timestamp-ms":1515100955770,"snapshot-id":5}],"x-extra":{
  "a" : [1]
}
})js",
      // v2: several schemas, specs, sort orders, refs, statistics.
      R"js({"format-version":2,"table-uuid":"9c12d441-03fe-4693-9a96-a0705ddf69c1",
"location":"s3://b/t2","last-sequence-number":2,"last-updated-ms":1602638573590,
"last-column-id":6,"current-schema-id":1,"schemas":[
{"type":"struct","schema-id":0,"fields":[{"id":1,"name":"x","required":true,"type":"long"}]},
{"type":"struct","schema-id":1,"identifier-field-ids":[1],"fields":[
{"id":1,"name":"x","required":true,"type":"long"},
{"id":2,"name":"s","required":false,"type":"string"},
{"id":3,"name":"ts","required":false,"type":"timestamptz"},
{"id":4,"name":"m","required":false,"type":{"type":"map","key-id":5,"key":"string",
"value-id":6,"value-required":false,"value":{"type":"list","element-id":7,
"element-required":true,"element":"uuid"}}}]}],
"default-spec-id":1,"partition-specs":[{"spec-id":0,"fields":[]},{"spec-id":1,"fields":[
{"name":"x_b","transform":"bucket[16]","source-id":1,"field-id":1000},
{"name":"s_t","transform":"truncate[4]","source-id":2,"field-id":1001},
{"name":"ts_h","transform":"hour","source-id":3,"field-id":1002}]}],
"last-partition-id":1002,"default-sort-order-id":1,"sort-orders":[{"order-id":0,"fields":[]},
{"order-id":1,"fields":[{"transform":"day","source-id":3,"direction":"desc",
"null-order":"nulls-last"}]}],"properties":{"k":"v"},"current-snapshot-id":11,
"refs":{"main":{"snapshot-id":11,"type":"branch","max-snapshot-age-ms":100},
"t":{"snapshot-id":10,"type":"tag","max-ref-age-ms":5}},
"snapshots":[{"snapshot-id":10,"timestamp-ms":1,"sequence-number":1,
"summary":{"operation":"append"},"manifest-list":"s3://b/1.avro","schema-id":0},
{"snapshot-id":11,"parent-snapshot-id":10,"timestamp-ms":2,"sequence-number":2,
"summary":{"operation":"overwrite"},"manifest-list":"s3://b/2.avro","schema-id":1}],
"snapshot-log":[{"snapshot-id":10,"timestamp-ms":1},{"snapshot-id":11,"timestamp-ms":2}],
"metadata-log":[{"metadata-file":"s3://b/v1.json","timestamp-ms":1}],
"statistics":[{"snapshot-id":11,"statistics-path":"s3://b/s.puffin","file-size-in-bytes":4,
"file-footer-size-in-bytes":2,"blob-metadata":[{"type":"theta","snapshot-id":11,
"sequence-number":2,"fields":[1]}]}],
"partition-statistics":[{"snapshot-id":11,"statistics-path":"s3://b/p","file-size-in-bytes":3}]})js",
      // v3: new types, defaults, multi-argument transform, row lineage, encryption keys.
      R"js({"format-version":3,"table-uuid":"2bb5ac44-f5a3-4bd1-a0ad-6b9bfbb6b4cd",
"location":"file:///w/t3","last-sequence-number":1,"last-updated-ms":1733000000000,
"last-column-id":5,"current-schema-id":0,"schemas":[{"type":"struct","schema-id":0,"fields":[
{"id":1,"name":"id","required":true,"type":"long"},
{"id":2,"name":"ts","required":false,"type":"timestamp_ns"},
{"id":3,"name":"v","required":false,"type":"variant"},
{"id":4,"name":"g","required":false,"type":"geography(srid:4326, spherical)"
},
{"id":5,"name":"n","required":false,"type":"int","initial-default":5,"write-default":7}]
}],
"default-spec-id":0,"partition-specs":[{"spec-id":0,"fields":[
{"source-id":2,"field-id":1000,"name":"ts_day","transform":"day"},
{"source-ids":[1,5],"field-id":1001,"name":"multi","transform":"future[2]"}]}],
"last-partition-id":1001,"default-sort-order-id":0,"sort-orders":[{"order-id":0,"fields":[]}],
"current-snapshot-id":null,"snapshots":[],"next-row-id":0,
"encryption-keys":[{"key-id":"k","encrypted-key-metadata":"aWNl"}]
})js",
      R"js({"type":"struct","fields":[{"id":1,"name":"a","required":true,"type":"fixed[16]"}]})js",
      "bucket[8]",
      "decimal(38, 10)",
  };
}
