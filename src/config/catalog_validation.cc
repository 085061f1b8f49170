// Rules about the catalog: the REST endpoint, the table format version, and the fields
// each non-REST backend cannot work without.

#include "config/config_validation_internal.h"

namespace sqe::config {

void CheckCatalogUrl(ValidationContext& ctx) {
  const CatalogConfig& catalog = ctx.config().catalog;
  // After mode resolution the rest backend's uri defaults to catalog_url, so an empty uri
  // means both are empty.
  if (catalog.backend.type != "rest" || !catalog.backend.uri.empty()) return;
  ctx.Error("catalog.catalog_url",
            "catalog.catalog_url must not be empty when the catalog backend is rest" +
                ctx.SetBy("catalog.catalog_url") + " (or set catalog.backend.uri)");
}

void CheckTableFormatVersion(ValidationContext& ctx) {
  int version = ctx.config().catalog.default_table_format_version;
  if (version == 2 || version == 3) return;
  ctx.Error("catalog.default_table_format_version",
            "catalog.default_table_format_version must be 2 or 3, got " + std::to_string(version) +
                ctx.SetBy("catalog.default_table_format_version"));
}

void CheckBackendFields(ValidationContext& ctx) {
  const CatalogBackendConfig& b = ctx.config().catalog.backend;
  auto require = [&](const char* type, const char* field, const std::string& value,
                     const char* example) {
    if (b.type != type || !value.empty()) return;
    std::string path = std::string("catalog.backend.") + field;
    ctx.Error(path, path + " is required for backend type '" + b.type + "', e.g. " + example);
  };
  require("hms", "uri", b.uri, "\"metastore.example.com:9083\"");
  require("s3tables", "table_bucket_arn", b.table_bucket_arn,
          "\"arn:aws:s3tables:eu-west-1:123456789012:bucket/my-bucket\"");
  require("jdbc", "url", b.url, "\"postgresql://iceberg@db.example.com:5432/iceberg\"");
  require("hadoop", "warehouse", b.warehouse, "\"s3://my-bucket/warehouse\"");
  if (b.type == "s3tables" && !b.table_bucket_arn.empty() &&
      (b.table_bucket_arn.rfind("arn:", 0) != 0 ||
       b.table_bucket_arn.find(":s3tables:") == std::string::npos ||
       b.table_bucket_arn.find(":bucket/") == std::string::npos)) {
    ctx.Error("catalog.backend.table_bucket_arn",
              "catalog.backend.table_bucket_arn: '" + b.table_bucket_arn +
                  "' is not an S3 Tables bucket ARN "
                  "(arn:aws:s3tables:<region>:<account>:bucket/<name>)");
  }
}

}  // namespace sqe::config
