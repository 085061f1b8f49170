#include "common/logging.h"

#include <spdlog/sinks/base_sink.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <re2/re2.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <mutex>
#include <vector>

#include "common/secret_string.h"

namespace sqe::log {
namespace {

constexpr std::string_view kMask = "***";

/// Sink used by SetSinkForTesting: forwards formatted lines to a callback.
class CallbackSink final : public spdlog::sinks::base_sink<std::mutex> {
 public:
  explicit CallbackSink(std::function<void(std::string_view)> cb) : cb_(std::move(cb)) {}

 protected:
  void sink_it_(const spdlog::details::log_msg& msg) override {
    spdlog::memory_buf_t formatted;
    formatter_->format(msg, formatted);
    std::string_view line(formatted.data(), formatted.size());
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
    cb_(line);
  }
  void flush_() override {}

 private:
  std::function<void(std::string_view)> cb_;
};

struct LogState {
  std::mutex mu;
  std::vector<std::string> secrets;  // longest first, so overlapping secrets mask fully
  std::shared_ptr<spdlog::logger> logger;
};

LogState& State() {
  static LogState* state = [] {
    auto* s = new LogState();
    s->logger = std::make_shared<spdlog::logger>(
        "sqe", std::make_shared<spdlog::sinks::stderr_sink_mt>());
    s->logger->set_pattern("ts=%Y-%m-%dT%H:%M:%S.%eZ level=%l %v", spdlog::pattern_time_type::utc);
    s->logger->set_level(spdlog::level::info);
    s->logger->flush_on(spdlog::level::trace);
    if (const char* env = std::getenv("SQE_LOG_LEVEL")) {
      auto level = ParseLevel(env);
      if (level.ok()) s->logger->set_level(static_cast<spdlog::level::level_enum>(*level));
    }
    return s;
  }();
  return *state;
}

spdlog::level::level_enum ToSpd(Level level) {
  switch (level) {
    case Level::kTrace: return spdlog::level::trace;
    case Level::kDebug: return spdlog::level::debug;
    case Level::kInfo: return spdlog::level::info;
    case Level::kWarn: return spdlog::level::warn;
    case Level::kError: return spdlog::level::err;
    case Level::kOff: return spdlog::level::off;
  }
  return spdlog::level::info;
}

bool NeedsQuotes(std::string_view v) {
  if (v.empty()) return true;
  return std::any_of(v.begin(), v.end(), [](char c) {
    return c == ' ' || c == '"' || c == '=' || c == '\\' || static_cast<unsigned char>(c) < 0x20;
  });
}

void AppendValue(std::string& out, std::string_view v) {
  if (!NeedsQuotes(v)) {
    out += v;
    return;
  }
  out += '"';
  for (char c : v) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += ' ';
        } else {
          out += c;
        }
    }
  }
  out += '"';
}

/// Credential shapes masked even when nobody registered the value.
struct RedactPattern {
  std::unique_ptr<RE2> re;
  std::string replacement;
};

const std::vector<RedactPattern>& Patterns() {
  static const auto* patterns = [] {
    auto* v = new std::vector<RedactPattern>();
    auto add = [&](const char* re, const char* repl) {
      v->push_back({std::make_unique<RE2>(re), repl});
    };
    // Authorization header values.
    add(R"((?i)(\b(?:Bearer|Basic)\s+)[A-Za-z0-9._~+/=-]+)", "\\1***");
    // user:password@ in URLs.
    add(R"((://[^/\s:@]+:)[^@\s/]+@)", "\\1***@");
    // key=value / key: value pairs whose key names a secret.
    add(R"((?i)((?:password|passwd|secret|client_secret|secret_key|secret_access_key|access_key|)"
        R"(session_token|token|api_key|apikey|credential|worker_secret)["']?\s*[=:]\s*["']?))"
        R"([^\s"'&,;}]+)",
        "\\1***");
    // SigV4 signatures in query strings.
    add(R"((?i)(X-Amz-(?:Signature|Credential|Security-Token)=)[^&\s]+)", "\\1***");
    return v;
  }();
  return *patterns;
}

}  // namespace

Field::Field(std::string_view k, double v) : key(k), value(fmt::format("{}", v)) {}
Field::Field(std::string_view k, const SecretString& v) : key(k), value(v.ToString()) {}

std::string Redact(std::string_view text) {
  std::string out(text);
  {
    LogState& st = State();
    std::lock_guard<std::mutex> lock(st.mu);
    for (const std::string& secret : st.secrets) {
      size_t pos = 0;
      while ((pos = out.find(secret, pos)) != std::string::npos) {
        out.replace(pos, secret.size(), kMask);
        pos += kMask.size();
      }
    }
  }
  for (const RedactPattern& p : Patterns()) RE2::GlobalReplace(&out, *p.re, p.replacement);
  return out;
}

std::string FormatLine(std::string_view event, std::initializer_list<Field> fields) {
  std::string line = "event=";
  AppendValue(line, event);
  for (const Field& f : fields) {
    line += ' ';
    line += f.key;
    line += '=';
    AppendValue(line, f.value);
  }
  return Redact(line);
}

void Write(Level level, std::string_view event, std::initializer_list<Field> fields) {
  LogState& st = State();
  if (!st.logger->should_log(ToSpd(level))) return;
  st.logger->log(ToSpd(level), "{}", FormatLine(event, fields));
}

void SetLevel(Level level) { State().logger->set_level(ToSpd(level)); }

Result<Level> ParseLevel(std::string_view text) {
  std::string t(text);
  std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return std::tolower(c); });
  if (t == "trace") return Level::kTrace;
  if (t == "debug") return Level::kDebug;
  if (t == "info") return Level::kInfo;
  if (t == "warn" || t == "warning") return Level::kWarn;
  if (t == "error") return Level::kError;
  if (t == "off") return Level::kOff;
  return Status::InvalidArgument("unknown log level '" + t +
                                 "' (accepted: trace, debug, info, warn, error, off)");
}

void RegisterSecret(std::string_view secret) {
  if (secret.size() < 4) return;
  LogState& st = State();
  std::lock_guard<std::mutex> lock(st.mu);
  if (std::find(st.secrets.begin(), st.secrets.end(), secret) != st.secrets.end()) return;
  st.secrets.emplace_back(secret);
  std::sort(st.secrets.begin(), st.secrets.end(),
            [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
}

void SetSinkForTesting(std::function<void(std::string_view line)> sink) {
  LogState& st = State();
  std::shared_ptr<spdlog::sinks::sink> s;
  if (sink) {
    s = std::make_shared<CallbackSink>(std::move(sink));
  } else {
    s = std::make_shared<spdlog::sinks::stderr_sink_mt>();
  }
  auto logger = std::make_shared<spdlog::logger>("sqe", s);
  logger->set_pattern("ts=%Y-%m-%dT%H:%M:%S.%eZ level=%l %v", spdlog::pattern_time_type::utc);
  logger->set_level(st.logger->level());
  logger->flush_on(spdlog::level::trace);
  st.logger = logger;
}

}  // namespace sqe::log
