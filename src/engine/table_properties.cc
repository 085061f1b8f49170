#include "engine/table_properties.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <set>

#include "iceberg/schema_update.h"

namespace sqe::engine {

namespace {

namespace ast = sql::ast;

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

std::string Trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

/// The connector's table properties (Trino's Iceberg names).
const std::vector<std::string>& KnownProperties() {
  static const std::vector<std::string> kNames = {"format",
                                                  "format_version",
                                                  "partitioning",
                                                  "sorted_by",
                                                  "location",
                                                  "extra_properties",
                                                  "data_location",
                                                  "object_store_layout_enabled",
                                                  "max_commit_retry",
                                                  "parquet_bloom_filter_columns",
                                                  "orc_bloom_filter_columns",
                                                  "orc_bloom_filter_fpp"};
  return kNames;
}

size_t EditDistance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

/// A known property `name` is probably a misspelling of, or "".
std::string LikelyTypoOf(const std::string& name) {
  // Iceberg's own properties are dotted (write.parquet.compression-codec): never a typo.
  if (name.find('.') != std::string::npos) return "";
  std::string best;
  size_t best_distance = 3;
  for (const std::string& known : KnownProperties()) {
    size_t d = EditDistance(Lower(name), known);
    if (d < best_distance) {
      best_distance = d;
      best = known;
    }
  }
  return best;
}

Status PropertyError(const std::string& catalog, const std::string& name,
                     const std::string& problem) {
  return Status::InvalidArgument("Catalog '" + catalog + "' table property '" + name + "' " +
                                 problem);
}

/// The text of a scalar property value (strings as they are, numbers and booleans as
/// Iceberg writes them).
Result<std::string> StringOf(const exec::Value& v, const std::string& catalog,
                             const std::string& name) {
  if (v.is_null() || v.type() == nullptr) return PropertyError(catalog, name, "cannot be NULL");
  switch (v.type()->id()) {
    case columnar::TypeId::kString:
      return v.string_value();
    case columnar::TypeId::kBoolean:
      return std::string(v.bool_value() ? "true" : "false");
    case columnar::TypeId::kInt8:
    case columnar::TypeId::kInt16:
    case columnar::TypeId::kInt32:
    case columnar::TypeId::kInt64:
      return std::to_string(v.int_value());
    case columnar::TypeId::kDecimal128:
      return v.decimal_value().ToString(v.type()->scale());
    case columnar::TypeId::kFloat32:
    case columnar::TypeId::kFloat64: {
      char buffer[64];
      auto [end, ec] = std::to_chars(buffer, buffer + sizeof(buffer), v.double_value());
      return std::string(buffer, ec == std::errc() ? end : buffer);
    }
    default:
      return PropertyError(catalog, name,
                           "must be a string, number or boolean, not " + v.type()->ToString());
  }
}

Result<std::vector<std::string>> StringListOf(const exec::Value& v, const std::string& catalog,
                                              const std::string& name) {
  if (v.is_null() || v.type() == nullptr || v.type()->id() != columnar::TypeId::kList) {
    return PropertyError(catalog, name, "must be an array of strings, e.g. ARRAY['a', 'b']");
  }
  std::vector<std::string> out;
  for (const exec::Value& e : v.elements()) {
    if (e.is_null() || e.type() == nullptr || e.type()->id() != columnar::TypeId::kString) {
      return PropertyError(catalog, name, "must be an array of strings, e.g. ARRAY['a', 'b']");
    }
    out.push_back(e.string_value());
  }
  return out;
}

Result<int64_t> IntegerOf(const exec::Value& v, const std::string& catalog,
                          const std::string& name) {
  if (!v.is_null() && v.type() != nullptr && v.type()->is_integer()) return v.int_value();
  if (!v.is_null() && v.type() != nullptr && v.type()->id() == columnar::TypeId::kString) {
    const std::string& s = v.string_value();
    int64_t out = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    if (ec == std::errc() && end == s.data() + s.size()) return out;
  }
  return PropertyError(catalog, name, "must be an integer");
}

/// The (key, value) pairs of a map value: entries as rows, or keys and values alternating.
Result<std::map<std::string, std::string>> StringMapOf(const exec::Value& v,
                                                       const std::string& catalog,
                                                       const std::string& name) {
  if (v.is_null() || v.type() == nullptr || v.type()->id() != columnar::TypeId::kMap) {
    return PropertyError(catalog, name,
                         "must be a map of strings, e.g. MAP(ARRAY['k'], ARRAY['v'])");
  }
  std::map<std::string, std::string> out;
  const exec::Value::Elements& elements = v.elements();
  auto add = [&](const exec::Value& k, const exec::Value& val) -> Status {
    SQE_ASSIGN_OR_RETURN(std::string key, StringOf(k, catalog, name));
    SQE_ASSIGN_OR_RETURN(std::string text, StringOf(val, catalog, name + "['" + key + "']"));
    out[key] = text;
    return Status::OK();
  };
  if (!elements.empty() && elements[0].type() != nullptr &&
      elements[0].type()->id() == columnar::TypeId::kStruct) {
    for (const exec::Value& entry : elements) {
      if (entry.is_null() || entry.elements().size() != 2) {
        return PropertyError(catalog, name, "has a malformed map entry");
      }
      SQE_RETURN_NOT_OK(add(entry.elements()[0], entry.elements()[1]));
    }
    return out;
  }
  for (size_t i = 0; i + 1 < elements.size(); i += 2) {
    SQE_RETURN_NOT_OK(add(elements[i], elements[i + 1]));
  }
  return out;
}

/// A column name of partitioning / sorted_by: "quoted" keeps its case, else lower-case.
Result<std::string> ColumnName(const std::string& text, const std::string& whole) {
  std::string t = Trim(text);
  if (t.size() >= 2 && t.front() == '"' && t.back() == '"') {
    std::string out;
    for (size_t i = 1; i + 1 < t.size(); ++i) {
      out += t[i];
      if (t[i] == '"' && i + 2 < t.size() && t[i + 1] == '"') ++i;  // "" escapes a quote
    }
    return out;
  }
  if (t.empty() || t.find_first_of("\"() ,") != std::string::npos) {
    return Status::InvalidArgument("Invalid column name in '" + whole + "'");
  }
  return Lower(t);
}

const iceberg::NestedField* FindColumn(const iceberg::Schema& schema, const std::string& name) {
  const iceberg::NestedField* f = schema.FindFieldByName(name, /*case_sensitive=*/true);
  return f != nullptr ? f : schema.FindFieldByName(name, /*case_sensitive=*/false);
}

std::string ColumnList(const iceberg::Schema& schema) {
  std::string out;
  for (const iceberg::NestedField& f : schema.fields()) out += (out.empty() ? "" : ", ") + f.name;
  return out;
}

}  // namespace

Result<TableOptions> ParseTableProperties(const std::vector<TableProperty>& properties,
                                          const std::string& catalog) {
  TableOptions out;
  std::set<std::string> seen;
  for (const TableProperty& p : properties) {
    const std::string& name = p.name;
    if (!seen.insert(name).second) {
      return PropertyError(catalog, name, "is specified more than once");
    }
    if (name == "format_version") {
      SQE_ASSIGN_OR_RETURN(int64_t v, IntegerOf(p.value, catalog, name));
      if (v < 1 || v > 3) {
        return PropertyError(
            catalog, name,
            "must be 1, 2 or 3 (Iceberg table format versions), not " + std::to_string(v));
      }
      out.format_version = static_cast<int>(v);
    } else if (name == "partitioning") {
      SQE_ASSIGN_OR_RETURN(out.partitioning, StringListOf(p.value, catalog, name));
    } else if (name == "sorted_by") {
      SQE_ASSIGN_OR_RETURN(out.sorted_by, StringListOf(p.value, catalog, name));
    } else if (name == "location") {
      SQE_ASSIGN_OR_RETURN(out.location, StringOf(p.value, catalog, name));
    } else if (name == "format") {
      SQE_ASSIGN_OR_RETURN(std::string format, StringOf(p.value, catalog, name));
      if (Lower(format) != "parquet") {
        return Status::NotImplemented("Catalog '" + catalog + "' table property 'format' = '" +
                                      format + "': SQE writes PARQUET files only");
      }
      out.iceberg_properties["write.format.default"] = "parquet";
    } else if (name == "extra_properties") {
      SQE_ASSIGN_OR_RETURN(auto extra, StringMapOf(p.value, catalog, name));
      for (auto& [k, v] : extra) out.iceberg_properties[k] = v;
    } else if (name == "data_location") {
      SQE_ASSIGN_OR_RETURN(out.iceberg_properties["write.data.path"],
                           StringOf(p.value, catalog, name));
    } else if (name == "object_store_layout_enabled") {
      SQE_ASSIGN_OR_RETURN(out.iceberg_properties["write.object-storage.enabled"],
                           StringOf(p.value, catalog, name));
    } else if (name == "max_commit_retry") {
      SQE_ASSIGN_OR_RETURN(int64_t v, IntegerOf(p.value, catalog, name));
      out.iceberg_properties["commit.retry.num-retries"] = std::to_string(v);
    } else if (name == "parquet_bloom_filter_columns") {
      SQE_ASSIGN_OR_RETURN(auto columns, StringListOf(p.value, catalog, name));
      for (const std::string& c : columns) {
        SQE_ASSIGN_OR_RETURN(std::string column, ColumnName(c, c));
        out.iceberg_properties["write.parquet.bloom-filter-enabled.column." + column] = "true";
      }
    } else if (name == "orc_bloom_filter_columns" || name == "orc_bloom_filter_fpp") {
      return Status::NotImplemented("Catalog '" + catalog + "' table property '" + name +
                                    "' applies to ORC files; SQE writes PARQUET only");
    } else {
      std::string typo = LikelyTypoOf(name);
      if (!typo.empty()) {
        return PropertyError(catalog, name,
                             "does not exist; did you mean '" + typo +
                                 "'? (quote a name with dots to set a raw Iceberg property)");
      }
      SQE_ASSIGN_OR_RETURN(out.iceberg_properties[name], StringOf(p.value, catalog, name));
    }
  }
  return out;
}

Result<PartitionFieldSpec> ParsePartitionField(const std::string& text) {
  const std::string t = Trim(text);
  auto bad = [&]() {
    return Status::InvalidArgument(
        "Invalid partition field declaration: '" + text +
        "' (expected column, year(column), month(column), day(column), hour(column), "
        "bucket(column, N), truncate(column, W) or void(column))");
  };
  PartitionFieldSpec out;
  size_t open = t.find('(');
  // A quoted column name may itself contain '(' : only a bare word before '(' is a call.
  if (open == std::string::npos || (!t.empty() && t.front() == '"')) {
    SQE_ASSIGN_OR_RETURN(out.column, ColumnName(t, text));
    out.transform = iceberg::Transform::Identity();
    out.name = out.column;
    return out;
  }
  if (t.back() != ')') return bad();
  std::string function = Lower(Trim(t.substr(0, open)));
  std::string inside = t.substr(open + 1, t.size() - open - 2);
  std::string column_text = inside, param_text;
  // The parameter follows the last comma outside quotes.
  bool quoted = false;
  size_t comma = std::string::npos;
  for (size_t i = 0; i < inside.size(); ++i) {
    if (inside[i] == '"') quoted = !quoted;
    if (inside[i] == ',' && !quoted) comma = i;
  }
  if (comma != std::string::npos) {
    column_text = inside.substr(0, comma);
    param_text = Trim(inside.substr(comma + 1));
  }
  auto column = ColumnName(column_text, text);
  if (!column.ok()) return bad();
  out.column = *column;
  auto param = [&]() -> Result<int32_t> {
    int32_t v = 0;
    auto [end, ec] = std::from_chars(param_text.data(), param_text.data() + param_text.size(), v);
    if (param_text.empty() || ec != std::errc() || end != param_text.data() + param_text.size() ||
        v <= 0) {
      return bad();
    }
    return v;
  };
  bool takes_param = function == "bucket" || function == "truncate";
  if (takes_param != (comma != std::string::npos)) return bad();
  if (function == "year") {
    out.transform = iceberg::Transform::Year();
    out.name = out.column + "_year";
  } else if (function == "month") {
    out.transform = iceberg::Transform::Month();
    out.name = out.column + "_month";
  } else if (function == "day") {
    out.transform = iceberg::Transform::Day();
    out.name = out.column + "_day";
  } else if (function == "hour") {
    out.transform = iceberg::Transform::Hour();
    out.name = out.column + "_hour";
  } else if (function == "void") {
    out.transform = iceberg::Transform::Void();
    out.name = out.column + "_null";
  } else if (function == "bucket") {
    SQE_ASSIGN_OR_RETURN(int32_t n, param());
    out.transform = iceberg::Transform::Bucket(n);
    out.name = out.column + "_bucket";
  } else if (function == "truncate") {
    SQE_ASSIGN_OR_RETURN(int32_t w, param());
    out.transform = iceberg::Transform::Truncate(w);
    out.name = out.column + "_trunc";
  } else {
    return bad();
  }
  return out;
}

Result<std::string> PartitionExpressionText(const ast::Expr& expr) {
  auto name_text = [](const ast::QualifiedName& n) {
    std::string out;
    for (size_t i = 0; i < n.parts.size(); ++i) {
      if (i > 0) out += ".";
      out += n.quoted[i] ? "\"" + n.parts[i] + "\"" : n.parts[i];
    }
    return out;
  };
  if (expr.kind == ast::ExprKind::kIdentifier) return name_text(expr.name);
  auto bad = [&]() {
    return Status::InvalidArgument(
        "Invalid PARTITIONED BY item: expected column, years(c), months(c), days(c), hours(c), "
        "bucket(N, c) or truncate(W, c)");
  };
  if (expr.kind != ast::ExprKind::kFunctionCall || expr.name.parts.size() != 1) return bad();
  std::string function = Lower(expr.name.parts[0]);
  static const std::map<std::string, std::string> kUnary = {
      {"year", "year"},  {"years", "year"},     {"month", "month"}, {"months", "month"},
      {"day", "day"},    {"days", "day"},       {"date", "day"},    {"hour", "hour"},
      {"hours", "hour"}, {"date_hour", "hour"}, {"void", "void"}};
  auto unary = kUnary.find(function);
  if (unary != kUnary.end()) {
    if (expr.args.size() != 1 || expr.args[0]->kind != ast::ExprKind::kIdentifier) return bad();
    return unary->second + "(" + name_text(expr.args[0]->name) + ")";
  }
  if (function == "bucket" || function == "truncate") {
    if (expr.args.size() != 2) return bad();
    // Spark writes bucket(16, id); Trino's order bucket(id, 16) is accepted too.
    const ast::Expr* number = expr.args[0].get();
    const ast::Expr* column = expr.args[1].get();
    if (number->kind == ast::ExprKind::kIdentifier) std::swap(number, column);
    if (number->kind != ast::ExprKind::kLiteral ||
        number->literal_kind != ast::LiteralKind::kInteger ||
        column->kind != ast::ExprKind::kIdentifier) {
      return bad();
    }
    return function + "(" + name_text(column->name) + ", " + number->text + ")";
  }
  return bad();
}

Result<iceberg::PartitionSpec> MakePartitionSpec(const std::vector<std::string>& fields,
                                                 const iceberg::Schema& schema) {
  std::vector<iceberg::PartitionField> out;
  std::set<std::string> names;
  int32_t next_id = iceberg::PartitionSpec::kFirstFieldId;
  for (const std::string& text : fields) {
    SQE_ASSIGN_OR_RETURN(PartitionFieldSpec f, ParsePartitionField(text));
    const iceberg::NestedField* column = FindColumn(schema, f.column);
    if (column == nullptr) {
      return Status::InvalidArgument("Partitioning column '" + f.column + "' of '" + text +
                                     "' does not exist (columns: " + ColumnList(schema) + ")");
    }
    if (!f.transform.CanTransform(*column->type)) {
      return Status::InvalidArgument(
          "Invalid partition field '" + text + "': " + f.transform.ToString() +
          " does not apply to column '" + column->name + "' of type " + column->type->ToString());
    }
    f.name = f.name == f.column ? column->name : f.name;
    if (!names.insert(f.name).second) {
      return Status::InvalidArgument("Partition field '" + text + "' duplicates partition field '" +
                                     f.name + "'; list each column and transform once");
    }
    iceberg::PartitionField field;
    field.source_id = column->id;
    field.field_id = next_id++;
    field.name = f.name;
    field.transform = f.transform;
    out.push_back(std::move(field));
  }
  return iceberg::PartitionSpec(0, std::move(out));
}

Result<std::vector<iceberg::SortTerm>> MakeSortTerms(const std::vector<std::string>& items) {
  std::vector<iceberg::SortTerm> terms;
  for (const std::string& item : items) {
    // column [ASC|DESC] [NULLS FIRST|NULLS LAST]; the column may be "quoted".
    std::string t = Trim(item);
    std::string column_text;
    std::string rest;
    if (!t.empty() && t.front() == '"') {
      size_t close = t.find('"', 1);
      while (close != std::string::npos && close + 1 < t.size() && t[close + 1] == '"') {
        close = t.find('"', close + 2);
      }
      if (close == std::string::npos) {
        return Status::InvalidArgument("Invalid sorted_by item '" + item + "': unclosed quote");
      }
      column_text = t.substr(0, close + 1);
      rest = t.substr(close + 1);
    } else {
      size_t space = t.find(' ');
      column_text = t.substr(0, space);
      rest = space == std::string::npos ? "" : t.substr(space);
    }
    iceberg::SortTerm term;
    auto column = ColumnName(column_text, item);
    if (!column.ok()) {
      return Status::InvalidArgument("Invalid sorted_by item '" + item +
                                     "' (expected 'column [ASC|DESC] [NULLS FIRST|LAST]')");
    }
    term.column = *column;
    std::vector<std::string> words;
    std::string word;
    for (char c : rest + " ") {
      if (std::isspace(static_cast<unsigned char>(c))) {
        if (!word.empty()) words.push_back(Lower(word));
        word.clear();
      } else {
        word += c;
      }
    }
    size_t i = 0;
    bool explicit_nulls = false;
    if (i < words.size() && (words[i] == "asc" || words[i] == "desc")) {
      term.direction =
          words[i] == "desc" ? iceberg::SortDirection::kDesc : iceberg::SortDirection::kAsc;
      ++i;
    }
    if (i + 1 < words.size() && words[i] == "nulls" &&
        (words[i + 1] == "first" || words[i + 1] == "last")) {
      term.null_order = words[i + 1] == "first" ? iceberg::NullOrder::kNullsFirst
                                                : iceberg::NullOrder::kNullsLast;
      explicit_nulls = true;
      i += 2;
    }
    if (i != words.size()) {
      return Status::InvalidArgument("Invalid sorted_by item '" + item +
                                     "' (expected 'column [ASC|DESC] [NULLS FIRST|LAST]')");
    }
    if (!explicit_nulls) {
      // Trino's defaults: ASC NULLS FIRST, DESC NULLS LAST.
      term.null_order = term.direction == iceberg::SortDirection::kDesc
                            ? iceberg::NullOrder::kNullsLast
                            : iceberg::NullOrder::kNullsFirst;
    }
    terms.push_back(std::move(term));
  }
  return terms;
}

Result<iceberg::SortOrder> MakeSortOrder(const std::vector<std::string>& items,
                                         const iceberg::Schema& schema) {
  SQE_ASSIGN_OR_RETURN(std::vector<iceberg::SortTerm> terms, MakeSortTerms(items));
  if (terms.empty()) return iceberg::SortOrder::Unsorted();
  std::vector<iceberg::SortField> fields;
  for (size_t i = 0; i < terms.size(); ++i) {
    const iceberg::NestedField* column = FindColumn(schema, terms[i].column);
    if (column == nullptr) {
      return Status::InvalidArgument("Column '" + terms[i].column + "' of sorted_by item '" +
                                     items[i] + "' does not exist (columns: " + ColumnList(schema) +
                                     ")");
    }
    if (!column->type->is_primitive()) {
      return Status::InvalidArgument("Cannot sort by column '" + column->name + "' of type " +
                                     column->type->ToString() + "; choose a primitive column");
    }
    iceberg::SortField f;
    f.source_id = column->id;
    f.transform = iceberg::Transform::Identity();
    f.direction = terms[i].direction;
    f.null_order = terms[i].null_order;
    fields.push_back(std::move(f));
  }
  return iceberg::SortOrder(1, std::move(fields));
}

Result<catalog::CreateTableRequest> MakeCreateTableRequest(const NewTableDefinition& definition,
                                                           const std::string& catalog,
                                                           const std::string& table,
                                                           int default_format_version,
                                                           const std::string& namespace_location) {
  SQE_ASSIGN_OR_RETURN(TableOptions options, ParseTableProperties(definition.properties, catalog));
  if (options.partitioning.has_value() && !definition.partitioned_by.empty()) {
    return Status::InvalidArgument(
        "Use either PARTITIONED BY (...) or WITH (partitioning = ARRAY[...]), not both");
  }
  catalog::CreateTableRequest request;
  const int format_version = options.format_version.value_or(default_format_version);
  request.format_version = format_version;
  SQE_ASSIGN_OR_RETURN(request.schema, ToIcebergSchema(definition.columns, format_version));
  std::vector<std::string> partitioning =
      options.partitioning.has_value() ? *options.partitioning : definition.partitioned_by;
  SQE_ASSIGN_OR_RETURN(request.spec, MakePartitionSpec(partitioning, request.schema));
  if (options.sorted_by.has_value()) {
    SQE_ASSIGN_OR_RETURN(request.sort_order, MakeSortOrder(*options.sorted_by, request.schema));
  }
  request.properties = std::move(options.iceberg_properties);
  if (definition.comment.has_value()) request.properties["comment"] = *definition.comment;
  if (options.location.has_value()) {
    request.location = *options.location;
  } else if (!namespace_location.empty()) {
    std::string base = namespace_location;
    while (base.size() > 1 && base.back() == '/') base.pop_back();
    request.location = base + "/" + table;
  }
  return request;
}

}  // namespace sqe::engine
