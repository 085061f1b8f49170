#pragma once
/// Schemas shared by the sqe_avro tests: a cut-down Iceberg v2 manifest_entry.

namespace sqe::avro::testing {

inline constexpr const char* kManifestEntrySchema = R"({
  "type": "record", "name": "manifest_entry",
  "fields": [
    {"name": "status", "type": "int", "field-id": 0},
    {"name": "snapshot_id", "type": ["null", "long"], "default": null, "field-id": 1},
    {"name": "data_file", "field-id": 2, "type": {
      "type": "record", "name": "r2",
      "fields": [
        {"name": "file_path", "type": "string", "doc": "Location URI", "field-id": 100},
        {"name": "file_format", "type": "string", "field-id": 101},
        {"name": "partition", "field-id": 102, "type": {"type": "record", "name": "r102",
          "fields": [{"name": "day", "type": ["null", {"type": "int", "logicalType": "date"}],
                      "default": null, "field-id": 1000}]}},
        {"name": "record_count", "type": "long", "field-id": 103},
        {"name": "column_sizes", "field-id": 108, "default": null, "type": ["null",
          {"type": "array", "logicalType": "map", "items": {"type": "record", "name": "k117_v118",
            "fields": [{"name": "key", "type": "int", "field-id": 117},
                       {"name": "value", "type": "long", "field-id": 118}]}}]},
        {"name": "lower_bounds", "field-id": 125, "default": null, "type": ["null",
          {"type": "array", "logicalType": "map", "items": {"type": "record", "name": "k126_v127",
            "fields": [{"name": "key", "type": "int", "field-id": 126},
                       {"name": "value", "type": "bytes", "field-id": 127}]}}]},
        {"name": "split_offsets", "field-id": 132, "default": null,
         "type": ["null", {"type": "array", "items": "long", "element-id": 133}]},
        {"name": "props", "field-id": 140, "default": null,
         "type": ["null", {"type": "map", "values": "string", "key-id": 141, "value-id": 142}]}
      ]}}
  ]})";

}  // namespace sqe::avro::testing
