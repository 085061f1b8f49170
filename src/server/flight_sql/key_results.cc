#include "server/flight_sql/key_results.h"

#include "server/flight_sql/ipc_fields_internal.h"

namespace sqe::server::flight_sql {

namespace fb = ipc_fields::fb;
using ipc_fields::IntField;
using ipc_fields::Utf8Field;

columnar::ipc::EncodedMessage PrimaryKeysSchemaMessage() {
  return {
      ipc_fields::SchemaMessage([](flatbuffers::FlatBufferBuilder& fbb) {
        return std::vector<flatbuffers::Offset<fb::Field>>{
            Utf8Field(fbb, "catalog_name", true), Utf8Field(fbb, "db_schema_name", true),
            Utf8Field(fbb, "table_name", false),  Utf8Field(fbb, "column_name", false),
            Utf8Field(fbb, "key_name", true),     IntField(fbb, "key_sequence", 32, true, false)};
      }),
      ""};
}

columnar::ipc::EncodedMessage ForeignKeysSchemaMessage() {
  return {ipc_fields::SchemaMessage([](flatbuffers::FlatBufferBuilder& fbb) {
            return std::vector<flatbuffers::Offset<fb::Field>>{
                Utf8Field(fbb, "pk_catalog_name", true),
                Utf8Field(fbb, "pk_db_schema_name", true),
                Utf8Field(fbb, "pk_table_name", false),
                Utf8Field(fbb, "pk_column_name", false),
                Utf8Field(fbb, "fk_catalog_name", true),
                Utf8Field(fbb, "fk_db_schema_name", true),
                Utf8Field(fbb, "fk_table_name", false),
                Utf8Field(fbb, "fk_column_name", false),
                IntField(fbb, "key_sequence", 32, true, false),
                Utf8Field(fbb, "fk_key_name", true),
                Utf8Field(fbb, "pk_key_name", true),
                IntField(fbb, "update_rule", 8, false, false),
                IntField(fbb, "delete_rule", 8, false, false)};
          }),
          ""};
}

}  // namespace sqe::server::flight_sql
