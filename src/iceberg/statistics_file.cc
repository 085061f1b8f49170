#include "iceberg/statistics_file.h"

#include "iceberg/json_internal.h"

namespace sqe::iceberg::internal {

namespace {

Result<BlobMetadata> BlobFromJson(const Json& value, const std::string& context) {
  SQE_ASSIGN_OR_RETURN(ObjectReader r, ObjectReader::Make(value, context + " blob"));
  BlobMetadata blob;
  SQE_ASSIGN_OR_RETURN(blob.type, r.String("type"));
  SQE_ASSIGN_OR_RETURN(blob.snapshot_id, r.Long("snapshot-id"));
  SQE_ASSIGN_OR_RETURN(blob.sequence_number, r.Long("sequence-number"));
  if (!r.Has("fields")) return r.Error("fields", "is required but missing");
  SQE_ASSIGN_OR_RETURN(blob.fields, r.IntList("fields"));
  SQE_ASSIGN_OR_RETURN(blob.properties, r.StringMap("properties"));
  blob.extra_json = r.Extras();
  return blob;
}

}  // namespace

Result<StatisticsFile> StatisticsFileFromJson(const Json& value) {
  SQE_ASSIGN_OR_RETURN(ObjectReader r, ObjectReader::Make(value, "statistics file"));
  StatisticsFile file;
  SQE_ASSIGN_OR_RETURN(file.snapshot_id, r.Long("snapshot-id"));
  SQE_ASSIGN_OR_RETURN(file.statistics_path, r.String("statistics-path"));
  SQE_ASSIGN_OR_RETURN(file.file_size_in_bytes, r.Long("file-size-in-bytes"));
  SQE_ASSIGN_OR_RETURN(file.file_footer_size_in_bytes, r.Long("file-footer-size-in-bytes"));
  SQE_ASSIGN_OR_RETURN(file.key_metadata, r.OptString("key-metadata"));
  SQE_ASSIGN_OR_RETURN(const Json* blobs, r.Array("blob-metadata"));
  if (blobs == nullptr) return r.Error("blob-metadata", "is required but missing");
  for (const Json& item : *blobs) {
    SQE_ASSIGN_OR_RETURN(BlobMetadata blob,
                         BlobFromJson(item, "statistics file " + file.statistics_path));
    file.blob_metadata.push_back(std::move(blob));
  }
  file.extra_json = r.Extras();
  return file;
}

Json StatisticsFileToJson(const StatisticsFile& file) {
  Json out = Json::object();
  out["snapshot-id"] = file.snapshot_id;
  out["statistics-path"] = file.statistics_path;
  out["file-size-in-bytes"] = file.file_size_in_bytes;
  out["file-footer-size-in-bytes"] = file.file_footer_size_in_bytes;
  if (file.key_metadata) out["key-metadata"] = *file.key_metadata;
  Json blobs = Json::array();
  for (const BlobMetadata& b : file.blob_metadata) {
    Json blob = Json::object();
    blob["type"] = b.type;
    blob["snapshot-id"] = b.snapshot_id;
    blob["sequence-number"] = b.sequence_number;
    blob["fields"] = b.fields;
    if (!b.properties.empty()) blob["properties"] = b.properties;
    MergeExtras(b.extra_json, &blob);
    blobs.push_back(std::move(blob));
  }
  out["blob-metadata"] = std::move(blobs);
  MergeExtras(file.extra_json, &out);
  return out;
}

Result<PartitionStatisticsFile> PartitionStatisticsFileFromJson(const Json& value) {
  SQE_ASSIGN_OR_RETURN(ObjectReader r, ObjectReader::Make(value, "partition statistics file"));
  PartitionStatisticsFile file;
  SQE_ASSIGN_OR_RETURN(file.snapshot_id, r.Long("snapshot-id"));
  SQE_ASSIGN_OR_RETURN(file.statistics_path, r.String("statistics-path"));
  SQE_ASSIGN_OR_RETURN(file.file_size_in_bytes, r.Long("file-size-in-bytes"));
  file.extra_json = r.Extras();
  return file;
}

Json PartitionStatisticsFileToJson(const PartitionStatisticsFile& file) {
  Json out = Json::object();
  out["snapshot-id"] = file.snapshot_id;
  out["statistics-path"] = file.statistics_path;
  out["file-size-in-bytes"] = file.file_size_in_bytes;
  MergeExtras(file.extra_json, &out);
  return out;
}

}  // namespace sqe::iceberg::internal
