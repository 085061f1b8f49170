#include "server/flight_sql/session_options.h"

#include <map>
#include <string_view>
#include <vector>

namespace sqe::server::flight_sql {

namespace fp = ::arrow::flight::protocol;

namespace {

using ErrorValue = fp::SetSessionOptionsResult::ErrorValue;

std::string QuoteName(const std::string& name) {
  std::string out = "\"";
  for (char c : name) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string QuoteString(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

/// A session property SHOW SESSION lists: its value and SQL type.
struct Property {
  std::string value;
  std::string type;
};

Result<std::map<std::string, Property>> Properties(engine::Session& session) {
  SQE_ASSIGN_OR_RETURN(engine::QueryResult shown, session.Execute("SHOW SESSION"));
  std::map<std::string, Property> out;
  for (const columnar::Batch& b : shown.batches) {
    for (int64_t r = 0; r < b.num_rows(); ++r) {
      out[std::string(b.column(0).StringAt(r))] =
          Property{std::string(b.column(1).StringAt(r)), std::string(b.column(3).StringAt(r))};
    }
  }
  return out;
}

/// The SQL literal of an option value; nullopt for a list (no property takes one).
std::optional<std::string> Literal(const fp::SessionOptionValue& value) {
  switch (value.option_value_case()) {
    case fp::SessionOptionValue::kStringValue:
      return QuoteString(value.string_value());
    case fp::SessionOptionValue::kBoolValue:
      return value.bool_value() ? "true" : "false";
    case fp::SessionOptionValue::kInt64Value:
      return std::to_string(value.int64_value());
    case fp::SessionOptionValue::kDoubleValue:
      return std::to_string(value.double_value());
    default:
      return std::nullopt;
  }
}

/// Sets catalog and/or schema (either may be unset), checking that they exist.
std::optional<ErrorValue> SetPath(engine::Session& session,
                                  const std::optional<std::string>& catalog,
                                  const std::optional<std::string>& schema) {
  std::string new_catalog = catalog.value_or(session.current_catalog());
  if (schema.has_value()) {
    // USE checks that the schema exists in the catalog.
    if (!session.Execute("USE " + QuoteName(new_catalog) + "." + QuoteName(*schema)).ok()) {
      return fp::SetSessionOptionsResult::INVALID_VALUE;
    }
    return std::nullopt;
  }
  // A catalog alone: it must exist (SQL can list its schemas); the schema stays.
  if (!session.Execute("SHOW SCHEMAS FROM " + QuoteName(new_catalog)).ok()) {
    return fp::SetSessionOptionsResult::INVALID_VALUE;
  }
  session.SetCurrentPath(new_catalog, session.current_schema());
  return std::nullopt;
}

}  // namespace

std::optional<std::string> SessionIdCookie(const grpc::ServerContext& context) {
  const std::string prefix = std::string(kSessionCookieName) + "=";
  auto range = context.client_metadata().equal_range("cookie");
  for (auto it = range.first; it != range.second; ++it) {
    std::string_view header(it->second.data(), it->second.size());
    // "name=value; name2=value2"
    while (!header.empty()) {
      size_t end = header.find(';');
      std::string_view pair = header.substr(0, end);
      while (!pair.empty() && pair.front() == ' ') pair.remove_prefix(1);
      if (pair.substr(0, prefix.size()) == prefix) {
        std::string_view value = pair.substr(prefix.size());
        if (!value.empty()) return std::string(value);
      }
      if (end == std::string_view::npos) break;
      header.remove_prefix(end + 1);
    }
  }
  return std::nullopt;
}

fp::SetSessionOptionsResult ApplySessionOptions(engine::Session& session,
                                                const fp::SetSessionOptionsRequest& request) {
  fp::SetSessionOptionsResult result;
  auto fail = [&](const std::string& name, ErrorValue value) {
    (*result.mutable_errors())[name].set_value(value);
  };
  std::optional<std::string> catalog, schema;
  Result<std::map<std::string, Property>> properties = Properties(session);
  for (const auto& [name, value] : request.session_options()) {
    if (name == "catalog" || name == "schema") {
      if (value.option_value_case() != fp::SessionOptionValue::kStringValue ||
          value.string_value().empty()) {
        fail(name, fp::SetSessionOptionsResult::INVALID_VALUE);
      } else {
        (name == "catalog" ? catalog : schema) = value.string_value();
      }
      continue;
    }
    if (!properties.ok()) {
      fail(name, fp::SetSessionOptionsResult::ERROR);
      continue;
    }
    if (properties->find(name) == properties->end()) {
      fail(name, fp::SetSessionOptionsResult::INVALID_NAME);
      continue;
    }
    if (value.option_value_case() == fp::SessionOptionValue::OPTION_VALUE_NOT_SET) {
      if (!session.Execute("RESET SESSION " + name).ok()) {
        fail(name, fp::SetSessionOptionsResult::ERROR);
      }
      continue;
    }
    std::optional<std::string> literal = Literal(value);
    if (!literal.has_value() || !session.Execute("SET SESSION " + name + " = " + *literal).ok()) {
      fail(name, fp::SetSessionOptionsResult::INVALID_VALUE);
    }
  }
  if (catalog.has_value() || schema.has_value()) {
    if (std::optional<ErrorValue> error = SetPath(session, catalog, schema)) {
      if (catalog.has_value()) fail("catalog", *error);
      if (schema.has_value()) fail("schema", *error);
    }
  }
  return result;
}

Result<fp::GetSessionOptionsResult> CurrentSessionOptions(engine::Session& session) {
  fp::GetSessionOptionsResult result;
  auto& options = *result.mutable_session_options();
  options["catalog"].set_string_value(session.current_catalog());
  options["schema"].set_string_value(session.current_schema());
  SQE_ASSIGN_OR_RETURN(auto properties, Properties(session));
  for (const auto& [name, property] : properties) {
    if (property.type == "bigint" || property.type == "integer") {
      options[name].set_int64_value(std::atoll(property.value.c_str()));
    } else {
      options[name].set_string_value(property.value);
    }
  }
  return result;
}

}  // namespace sqe::server::flight_sql
