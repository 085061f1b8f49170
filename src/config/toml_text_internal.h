#pragma once
/// How a field value is written as TOML text: shared by ToToml and the generated field
/// reference, so a documented default is exactly what --print-config would print.

#include <string>
#include <string_view>

#include "config/schema_internal.h"

namespace sqe::config {

/// A TOML basic string with escapes: "a\"b".
std::string QuoteTomlString(std::string_view text);

/// A TOML float that parses back to the same double: 0.01, 1.0, 1e-07.
std::string FormatTomlDouble(double value);

/// The value at `ref` as TOML: secrets as "***" (or "" when empty), passwords inside a
/// credentials URL masked, sizes as "256MB".
std::string RenderTomlValue(const SchemaNode& node, FieldType type, const ValueRef& ref);

}  // namespace sqe::config
