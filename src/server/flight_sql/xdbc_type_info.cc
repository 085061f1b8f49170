#include "server/flight_sql/xdbc_type_info.h"

#include <algorithm>
#include <string>
#include <vector>

#include "columnar/binary_builder.h"
#include "columnar/boolean_builder.h"
#include "columnar/fixed_width_builder.h"
#include "columnar/jdbc_type_codes.h"
#include "columnar/list_builder.h"

namespace sqe::server::flight_sql {

namespace {

using columnar::Field;

namespace jdbc = columnar::jdbc;

/// Flight SQL's generic SQL DATA TYPE of datetime types and their subcodes.
constexpr int32_t kXdbcDatetime = 9;
constexpr int32_t kSubcodeDate = 1;
constexpr int32_t kSubcodeTime = 2;
constexpr int32_t kSubcodeTimestamp = 3;
constexpr int32_t kSubcodeTimestampWithTimezone = 5;
/// Flight SQL's Nullable and Searchable enums.
constexpr int32_t kNullable = 1;
constexpr int32_t kSearchableBasic = 2;
constexpr int32_t kSearchableFull = 3;

/// One row of the result.
struct TypeRow {
  std::string type_name;
  int32_t data_type = 0;
  std::optional<int32_t> column_size;
  std::optional<std::string> literal_prefix;
  std::optional<std::string> literal_suffix;
  std::optional<std::vector<std::string>> create_params;
  bool case_sensitive = false;
  int32_t searchable = kSearchableBasic;
  std::optional<bool> unsigned_attribute;
  std::optional<bool> auto_increment;
  std::optional<int32_t> minimum_scale;
  std::optional<int32_t> maximum_scale;
  std::optional<int32_t> sql_data_type;  // unset: data_type
  std::optional<int32_t> datetime_subcode;
  std::optional<int32_t> num_prec_radix;
};

/// An exact or approximate number.
TypeRow Number(std::string name, int32_t code, int32_t size, int32_t radix) {
  TypeRow r;
  r.type_name = std::move(name);
  r.data_type = code;
  r.column_size = size;
  r.unsigned_attribute = false;
  r.auto_increment = false;
  r.num_prec_radix = radix;
  if (radix == 10) r.minimum_scale = r.maximum_scale = 0;
  return r;
}

/// A date, time or timestamp type (literal `prefix 'text'`).
TypeRow Datetime(std::string name, int32_t code, int32_t size, std::string prefix, int32_t subcode,
                 bool has_precision) {
  TypeRow r;
  r.type_name = std::move(name);
  r.data_type = code;
  r.column_size = size;
  r.literal_prefix = std::move(prefix);
  r.literal_suffix = "'";
  if (has_precision) r.create_params = std::vector<std::string>{"precision"};
  r.sql_data_type = kXdbcDatetime;
  r.datetime_subcode = subcode;
  return r;
}

TypeRow Opaque(std::string name, int32_t code) {
  TypeRow r;
  r.type_name = std::move(name);
  r.data_type = code;
  return r;
}

std::vector<TypeRow> AllTypes() {
  std::vector<TypeRow> rows;
  TypeRow boolean = Opaque("boolean", jdbc::kBoolean);
  boolean.column_size = 1;
  rows.push_back(boolean);
  rows.push_back(Number("tinyint", jdbc::kTinyint, 3, 10));
  rows.push_back(Number("smallint", jdbc::kSmallint, 5, 10));
  rows.push_back(Number("integer", jdbc::kInteger, 10, 10));
  rows.push_back(Number("bigint", jdbc::kBigint, 19, 10));
  rows.push_back(Number("real", jdbc::kReal, 24, 2));
  rows.push_back(Number("double", jdbc::kDouble, 53, 2));
  TypeRow decimal = Number("decimal", jdbc::kDecimal, 38, 10);
  decimal.create_params = std::vector<std::string>{"precision", "scale"};
  decimal.maximum_scale = 38;
  rows.push_back(decimal);
  TypeRow varchar = Opaque("varchar", jdbc::kVarchar);
  varchar.column_size = 2147483647;
  varchar.literal_prefix = "'";
  varchar.literal_suffix = "'";
  varchar.create_params = std::vector<std::string>{"length"};
  varchar.case_sensitive = true;
  varchar.searchable = kSearchableFull;
  rows.push_back(varchar);
  TypeRow varbinary = Opaque("varbinary", jdbc::kVarbinary);
  varbinary.column_size = 2147483647;
  varbinary.literal_prefix = "X'";
  varbinary.literal_suffix = "'";
  rows.push_back(varbinary);
  rows.push_back(Datetime("date", jdbc::kDate, 10, "DATE '", kSubcodeDate, false));
  // HH:MM:SS.ffffff; the timestamps add YYYY-MM-DD and a zone.
  rows.push_back(Datetime("time", jdbc::kTime, 15, "TIME '", kSubcodeTime, true));
  rows.push_back(
      Datetime("timestamp", jdbc::kTimestamp, 26, "TIMESTAMP '", kSubcodeTimestamp, true));
  rows.push_back(Datetime("timestamp with time zone", jdbc::kTimestampWithTimeZone, 32,
                          "TIMESTAMP '", kSubcodeTimestampWithTimezone, true));
  TypeRow uuid = Opaque("uuid", jdbc::kOther);
  uuid.column_size = 36;
  rows.push_back(uuid);
  TypeRow map = Opaque("map", jdbc::kOther);
  map.searchable = 0;
  rows.push_back(map);
  TypeRow row = Opaque("row", jdbc::kStruct);
  row.searchable = 0;
  rows.push_back(row);
  TypeRow array = Opaque("array", jdbc::kArray);
  array.searchable = 0;
  rows.push_back(array);
  std::sort(rows.begin(), rows.end(), [](const TypeRow& a, const TypeRow& b) {
    return a.data_type != b.data_type ? a.data_type < b.data_type : a.type_name < b.type_name;
  });
  return rows;
}

Status AppendString(columnar::BinaryBuilder* b, const std::optional<std::string>& v) {
  return v.has_value() ? b->Append(*v) : b->AppendNull();
}
Status AppendInt(columnar::FixedWidthBuilder<int32_t>* b, const std::optional<int32_t>& v) {
  return v.has_value() ? b->Append(*v) : b->AppendNull();
}
Status AppendBool(columnar::BooleanBuilder* b, const std::optional<bool>& v) {
  return v.has_value() ? b->Append(*v) : b->AppendNull();
}

}  // namespace

columnar::SchemaPtr XdbcTypeInfoSchema() {
  auto utf8 = columnar::String();
  auto i32 = columnar::Int32();
  auto boolean = columnar::Boolean();
  return columnar::Schema::Make({
      Field("type_name", utf8, false),
      Field("data_type", i32, false),
      Field("column_size", i32, true),
      Field("literal_prefix", utf8, true),
      Field("literal_suffix", utf8, true),
      Field("create_params", columnar::List(Field("item", utf8, false)), true),
      Field("nullable", i32, false),
      Field("case_sensitive", boolean, false),
      Field("searchable", i32, false),
      Field("unsigned_attribute", boolean, true),
      Field("fixed_prec_scale", boolean, false),
      Field("auto_increment", boolean, true),
      Field("local_type_name", utf8, true),
      Field("minimum_scale", i32, true),
      Field("maximum_scale", i32, true),
      Field("sql_data_type", i32, false),
      Field("datetime_subcode", i32, true),
      Field("num_prec_radix", i32, true),
      Field("interval_precision", i32, true),
  });
}

Result<columnar::Batch> XdbcTypeInfo(std::optional<int32_t> data_type) {
  columnar::SchemaPtr schema = XdbcTypeInfoSchema();
  columnar::BinaryBuilder type_name(columnar::String()), prefix(columnar::String()),
      suffix(columnar::String()), local_name(columnar::String());
  using Int32Builder = columnar::FixedWidthBuilder<int32_t>;
  Int32Builder code(columnar::Int32()), size(columnar::Int32()), nullable(columnar::Int32()),
      searchable(columnar::Int32()), min_scale(columnar::Int32()), max_scale(columnar::Int32()),
      sql_type(columnar::Int32()), subcode(columnar::Int32()), radix(columnar::Int32()),
      interval_precision(columnar::Int32());
  columnar::BooleanBuilder case_sensitive, is_unsigned, fixed_scale, auto_increment;
  columnar::ListBuilder params(schema->field(5).type(),
                               std::make_unique<columnar::BinaryBuilder>(columnar::String()));
  auto* param_values = params.value_builder_as<columnar::BinaryBuilder>();
  int64_t n = 0;
  for (const TypeRow& r : AllTypes()) {
    if (data_type.has_value() && r.data_type != *data_type) continue;
    ++n;
    SQE_RETURN_NOT_OK(type_name.Append(r.type_name));
    SQE_RETURN_NOT_OK(code.Append(r.data_type));
    SQE_RETURN_NOT_OK(AppendInt(&size, r.column_size));
    SQE_RETURN_NOT_OK(AppendString(&prefix, r.literal_prefix));
    SQE_RETURN_NOT_OK(AppendString(&suffix, r.literal_suffix));
    if (r.create_params.has_value()) {
      SQE_RETURN_NOT_OK(params.Append());
      for (const std::string& p : *r.create_params) SQE_RETURN_NOT_OK(param_values->Append(p));
    } else {
      SQE_RETURN_NOT_OK(params.AppendNull());
    }
    SQE_RETURN_NOT_OK(nullable.Append(kNullable));
    SQE_RETURN_NOT_OK(case_sensitive.Append(r.case_sensitive));
    SQE_RETURN_NOT_OK(searchable.Append(r.searchable));
    SQE_RETURN_NOT_OK(AppendBool(&is_unsigned, r.unsigned_attribute));
    SQE_RETURN_NOT_OK(fixed_scale.Append(false));
    SQE_RETURN_NOT_OK(AppendBool(&auto_increment, r.auto_increment));
    SQE_RETURN_NOT_OK(local_name.Append(r.type_name));
    SQE_RETURN_NOT_OK(AppendInt(&min_scale, r.minimum_scale));
    SQE_RETURN_NOT_OK(AppendInt(&max_scale, r.maximum_scale));
    SQE_RETURN_NOT_OK(sql_type.Append(r.sql_data_type.value_or(r.data_type)));
    SQE_RETURN_NOT_OK(AppendInt(&subcode, r.datetime_subcode));
    SQE_RETURN_NOT_OK(AppendInt(&radix, r.num_prec_radix));
    SQE_RETURN_NOT_OK(interval_precision.AppendNull());
  }
  std::vector<columnar::Column> columns;
  for (columnar::ColumnBuilder* b : std::vector<columnar::ColumnBuilder*>{
           &type_name, &code, &size, &prefix, &suffix, &params, &nullable, &case_sensitive,
           &searchable, &is_unsigned, &fixed_scale, &auto_increment, &local_name, &min_scale,
           &max_scale, &sql_type, &subcode, &radix, &interval_precision}) {
    SQE_ASSIGN_OR_RETURN(columnar::Column c, b->Finish());
    columns.push_back(std::move(c));
  }
  return columnar::Batch::Make(std::move(schema), std::move(columns), n);
}

}  // namespace sqe::server::flight_sql
