#pragma once
/// java.sql.Types codes: the numbers JDBC and XDBC clients expect in DATA_TYPE columns
/// (Trino's system.jdbc tables, Flight SQL's GetXdbcTypeInfo). Facts of the JDBC
/// specification, kept in one place so every metadata surface reports the same code.

#include <cstdint>

namespace sqe::columnar::jdbc {

constexpr int32_t kBit = -7;
constexpr int32_t kTinyint = -6;
constexpr int32_t kBigint = -5;
constexpr int32_t kVarbinary = -3;
constexpr int32_t kDecimal = 3;
constexpr int32_t kInteger = 4;
constexpr int32_t kSmallint = 5;
constexpr int32_t kReal = 7;
constexpr int32_t kDouble = 8;
constexpr int32_t kVarchar = 12;
constexpr int32_t kBoolean = 16;
constexpr int32_t kDate = 91;
constexpr int32_t kTime = 92;
constexpr int32_t kTimestamp = 93;
constexpr int32_t kOther = 1111;
constexpr int32_t kJavaObject = 2000;
constexpr int32_t kStruct = 2002;
constexpr int32_t kArray = 2003;
constexpr int32_t kTimeWithTimeZone = 2013;
constexpr int32_t kTimestampWithTimeZone = 2014;

}  // namespace sqe::columnar::jdbc
