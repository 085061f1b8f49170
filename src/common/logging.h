#pragma once
/// Structured logging: one line per event on stderr, `key=value` pairs, secrets redacted.
///
///   log::Info("server.listening", {{"listener", "flight_sql"}, {"port", 50051}});
///   -> ts=2026-12-02T18:00:00.123Z level=info event=server.listening listener=flight_sql port=50051
///
/// Every line passes through Redact(): values registered with RegisterSecret() and the
/// usual credential shapes (Bearer/Basic tokens, passwords in URLs, key=secret pairs) are
/// replaced by "***" before the line leaves the process. Thread-safe. Backed by spdlog;
/// this header keeps spdlog out of the files that log.

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <string_view>

#include "common/result.h"

namespace sqe {
class SecretString;
}

namespace sqe::log {

enum class Level { kTrace, kDebug, kInfo, kWarn, kError, kOff };

/// One key=value pair of a log line. Values convert from the common scalar types.
struct Field {
  Field(std::string_view k, std::string_view v) : key(k), value(v) {}
  Field(std::string_view k, const char* v) : key(k), value(v ? v : "") {}
  Field(std::string_view k, const std::string& v) : key(k), value(v) {}
  Field(std::string_view k, bool v) : key(k), value(v ? "true" : "false") {}
  Field(std::string_view k, int v) : key(k), value(std::to_string(v)) {}
  Field(std::string_view k, long v) : key(k), value(std::to_string(v)) {}
  Field(std::string_view k, long long v) : key(k), value(std::to_string(v)) {}
  Field(std::string_view k, unsigned v) : key(k), value(std::to_string(v)) {}
  Field(std::string_view k, unsigned long v) : key(k), value(std::to_string(v)) {}
  Field(std::string_view k, unsigned long long v) : key(k), value(std::to_string(v)) {}
  Field(std::string_view k, double v);
  Field(std::string_view k, const SecretString& v);
  std::string_view key;
  std::string value;
};

/// Writes one event line at `level` (dropped when below the configured level).
void Write(Level level, std::string_view event, std::initializer_list<Field> fields = {});

inline void Debug(std::string_view event, std::initializer_list<Field> fields = {}) {
  Write(Level::kDebug, event, fields);
}
inline void Info(std::string_view event, std::initializer_list<Field> fields = {}) {
  Write(Level::kInfo, event, fields);
}
inline void Warn(std::string_view event, std::initializer_list<Field> fields = {}) {
  Write(Level::kWarn, event, fields);
}
inline void Error(std::string_view event, std::initializer_list<Field> fields = {}) {
  Write(Level::kError, event, fields);
}

/// Sets the minimum level written; default kInfo (or SQE_LOG_LEVEL at first use).
void SetLevel(Level level);
/// Parses trace/debug/info/warn/error/off (any case).
Result<Level> ParseLevel(std::string_view text);

/// Every later line has each occurrence of `secret` replaced by "***". Values shorter than
/// 4 characters are not registered (they would scrub ordinary words); they are still
/// never printed by the config dump, which redacts by field.
void RegisterSecret(std::string_view secret);

/// Applies the registered secrets and the credential patterns to `text`.
std::string Redact(std::string_view text);

/// Formats one line exactly as Write() would (without the timestamp/level prefix).
std::string FormatLine(std::string_view event, std::initializer_list<Field> fields);

/// Test hook: receives every full line instead of stderr; pass nullptr to restore stderr.
void SetSinkForTesting(std::function<void(std::string_view line)> sink);

}  // namespace sqe::log
