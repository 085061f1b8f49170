#pragma once
/// Registration of the date/time families beside datetime.cc, called from
/// RegisterDatetimeFunctions: datetime_format.cc (format_datetime, parse_datetime,
/// date_parse, ISO 8601, time zone functions).

#include "exec/functions/registry.h"

namespace sqe::exec {

void RegisterDatetimeFormatFunctions(FunctionRegistry& registry);

}  // namespace sqe::exec
