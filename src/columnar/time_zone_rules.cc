// TimeZoneRules: fixed offsets and TZif files (RFC 8536).

#include "columnar/time_zone_rules.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

#include "columnar/civil_time.h"

namespace sqe::columnar {
namespace {

bool ParseFixed(std::string_view name, int64_t* offset) {
  if (name == "UTC" || name == "Z" || name == "GMT" || name == "UT" || name == "Etc/UTC" ||
      name == "utc") {
    *offset = 0;
    return true;
  }
  std::string_view s = name;
  if (s.starts_with("UTC") || s.starts_with("GMT")) s.remove_prefix(3);
  if (s.size() < 2 || (s[0] != '+' && s[0] != '-')) return false;
  const int sign = s[0] == '-' ? -1 : 1;
  s.remove_prefix(1);
  int64_t hours = 0, minutes = 0;
  size_t i = 0;
  for (; i < s.size() && i < 2 && s[i] >= '0' && s[i] <= '9'; ++i)
    hours = hours * 10 + (s[i] - '0');
  if (i == 0) return false;
  if (i < s.size() && s[i] == ':') ++i;
  const size_t m0 = i;
  for (; i < s.size() && i - m0 < 2 && s[i] >= '0' && s[i] <= '9'; ++i) {
    minutes = minutes * 10 + (s[i] - '0');
  }
  if (i != s.size() || (i != m0 && i - m0 != 2) || hours > 14 || minutes > 59) return false;
  *offset = sign * (hours * 3600 + minutes * 60);
  return true;
}

bool SafeZoneName(std::string_view name) {
  if (name.empty() || name.size() > 64 || name[0] == '/' || name.find("..") != name.npos) {
    return false;
  }
  for (char c : name) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '/' || c == '_' || c == '-' ||
          c == '+')) {
      return false;
    }
  }
  return true;
}

constexpr const char* kZoneDirectory = "/usr/share/zoneinfo/";

/// The spelling on disk of zone `name` whose components match ignoring case; false when
/// there is none (or it is a directory).
bool FindIgnoringCase(std::string_view name, std::string* found) {
  std::string path;
  size_t start = 0;
  while (start <= name.size()) {
    size_t end = name.find('/', start);
    if (end == std::string_view::npos) end = name.size();
    const std::string_view part = name.substr(start, end - start);
    std::error_code error;
    std::filesystem::directory_iterator it(std::string(kZoneDirectory) + path, error);
    bool matched = false;
    for (; !error && it != std::filesystem::directory_iterator(); it.increment(error)) {
      const std::string entry = it->path().filename().string();
      if (entry.size() == part.size() &&
          std::equal(entry.begin(), entry.end(), part.begin(), [](char a, char b) {
            return std::tolower(static_cast<unsigned char>(a)) ==
                   std::tolower(static_cast<unsigned char>(b));
          })) {
        path += (path.empty() ? "" : "/") + entry;
        matched = true;
        break;
      }
    }
    if (!matched) return false;
    start = end + 1;
  }
  std::error_code error;
  if (!std::filesystem::is_regular_file(std::string(kZoneDirectory) + path, error)) return false;
  *found = path;
  return true;
}

int64_t BigEndian(const unsigned char* p, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v = (v << 8) | p[i];
  if (bytes == 4) return static_cast<int32_t>(static_cast<uint32_t>(v));
  return static_cast<int64_t>(v);
}

}  // namespace

std::string FormatOffset(int64_t seconds, bool colon) {
  const char sign = seconds < 0 ? '-' : '+';
  const int64_t a = seconds < 0 ? -seconds : seconds;
  char buf[16];
  std::snprintf(buf, sizeof(buf), colon ? "%c%02lld:%02lld" : "%c%02lld%02lld", sign,
                static_cast<long long>(a / 3600), static_cast<long long>(a / 60 % 60));
  return buf;
}

Result<std::shared_ptr<const TimeZoneRules>> TimeZoneRules::Load(std::string_view name) {
  static std::mutex mutex;
  static auto* cache =
      new std::map<std::string, std::shared_ptr<const TimeZoneRules>, std::less<>>();
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = cache->find(name);
    if (it != cache->end()) return it->second;
  }
  auto rules = std::make_shared<TimeZoneRules>();
  int64_t fixed = 0;
  if (ParseFixed(name, &fixed)) {
    rules->initial_offset_ = fixed;
    rules->name_ = fixed == 0 && !(name.starts_with("+") || name.starts_with("-"))
                       ? "UTC"
                       : FormatOffset(fixed);
  } else {
    const auto unsupported = Status::InvalidArgument(
        "Time zone not supported: " + std::string(name) +
        " (use an IANA zone name such as 'America/New_York' or 'Europe/Paris', or an offset "
        "such as '+05:30' or 'UTC')");
    if (!SafeZoneName(name)) return unsupported;
    // Zone names are case-insensitive (as in Trino): 'america/new_york' is the file
    // America/New_York, whose spelling becomes the canonical name.
    std::string canonical(name);
    std::ifstream in(std::string(kZoneDirectory) + canonical, std::ios::binary);
    if (!in) {
      if (!FindIgnoringCase(name, &canonical)) return unsupported;
      in.open(std::string(kZoneDirectory) + canonical, std::ios::binary);
      if (!in) return unsupported;
    }
    std::stringstream buffer;
    buffer << in.rdbuf();
    const std::string data = buffer.str();
    const auto* p = reinterpret_cast<const unsigned char*>(data.data());
    const size_t size = data.size();
    auto header = [&](size_t at, int64_t counts[6]) {
      if (at + 44 > size || data.compare(at, 4, "TZif") != 0) return false;
      for (int i = 0; i < 6; ++i) counts[i] = BigEndian(p + at + 20 + 4 * i, 4);
      return true;
    };
    int64_t c[6];  // isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt
    if (!header(0, c) || data[4] < '2') return unsupported;
    const size_t v1 = 44 + c[3] * 5 + c[4] * 6 + c[5] + c[2] * 8 + c[1] + c[0];
    if (!header(v1, c)) return unsupported;
    size_t at = v1 + 44;
    const int64_t timecnt = c[3], typecnt = c[4];
    if (at + timecnt * 9 + typecnt * 6 > size || typecnt == 0) return unsupported;
    std::vector<int64_t> type_offsets(static_cast<size_t>(typecnt));
    std::vector<std::string> type_abbreviations(static_cast<size_t>(typecnt));
    const size_t types_at = at + timecnt * 9;
    const size_t chars_at = types_at + typecnt * 6;  // NUL-terminated abbreviations
    const int64_t charcnt = c[5];
    if (chars_at + charcnt > size) return unsupported;
    for (int64_t t = 0; t < typecnt; ++t) {
      type_offsets[t] = BigEndian(p + types_at + 6 * t, 4);
      const size_t index = p[types_at + 6 * t + 5];
      if (static_cast<int64_t>(index) < charcnt) {
        const std::string_view chars(data.data() + chars_at + index, charcnt - index);
        type_abbreviations[t] = std::string(chars.substr(0, chars.find('\0')));
      }
    }
    rules->initial_offset_ = type_offsets[0];
    rules->initial_abbreviation_ = type_abbreviations[0];
    for (int64_t k = 0; k < timecnt; ++k) {
      const int64_t when = BigEndian(p + at + 8 * k, 8);
      const unsigned idx = p[at + 8 * timecnt + k];
      if (idx >= type_offsets.size()) return unsupported;
      rules->transitions_.push_back(when);
      rules->offsets_.push_back(type_offsets[idx]);
      rules->abbreviations_.push_back(type_abbreviations[idx]);
    }
    rules->name_ = canonical;
  }
  std::lock_guard<std::mutex> lock(mutex);
  (*cache)[std::string(name)] = rules;
  return std::shared_ptr<const TimeZoneRules>(rules);
}

int64_t TimeZoneRules::OffsetAt(int64_t utc_seconds) const {
  auto it = std::upper_bound(transitions_.begin(), transitions_.end(), utc_seconds);
  if (it == transitions_.begin()) return initial_offset_;
  return offsets_[static_cast<size_t>(it - transitions_.begin()) - 1];
}

const std::string& TimeZoneRules::AbbreviationAt(int64_t utc_seconds) const {
  auto it = std::upper_bound(transitions_.begin(), transitions_.end(), utc_seconds);
  const std::string& found =
      it == transitions_.begin()
          ? initial_abbreviation_
          : abbreviations_[static_cast<size_t>(it - transitions_.begin()) - 1];
  return found.empty() ? name_ : found;
}

int64_t TimeZoneRules::OffsetForLocal(int64_t local_seconds) const {
  // Try the offsets just before and after: the earlier instant that maps back wins.
  const int64_t first = OffsetAt(local_seconds - 86400);
  const int64_t second = OffsetAt(local_seconds + 86400);
  if (OffsetAt(local_seconds - first) == first) return first;
  if (OffsetAt(local_seconds - second) == second) return second;
  return first;  // a gap: the wall time does not exist; use the offset before it
}

namespace {

int64_t FloorDivide(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

int64_t SaturatingAdd(int64_t a, int64_t b) {
  int64_t out = 0;
  if (!__builtin_add_overflow(a, b, &out)) return out;
  return b > 0 ? INT64_MAX : INT64_MIN;
}

}  // namespace

int64_t TimeZoneRules::ToLocal(int64_t utc_ticks, int64_t per_second) const {
  if (is_utc()) return utc_ticks;
  return SaturatingAdd(utc_ticks, OffsetAt(FloorDivide(utc_ticks, per_second)) * per_second);
}

int64_t TimeZoneRules::FromLocal(int64_t local_ticks, int64_t per_second) const {
  if (is_utc()) return local_ticks;
  return SaturatingAdd(local_ticks,
                       -OffsetForLocal(FloorDivide(local_ticks, per_second)) * per_second);
}

std::shared_ptr<const TimeZoneRules> ZoneRulesOf(const DataType& type) {
  if (type.id() == TypeId::kTimestamp && type.has_timezone()) {
    auto rules = TimeZoneRules::Load(type.timezone());
    if (rules.ok()) return *rules;
  }
  static const auto* utc = new std::shared_ptr<const TimeZoneRules>(*TimeZoneRules::Load("UTC"));
  return *utc;
}

void AppendZonedTimestamp(int64_t ticks, const DataType& type, std::string* out) {
  const auto rules = ZoneRulesOf(type);
  AppendTimestamp(rules->ToLocal(ticks, TicksPerSecond(type.unit())), type.unit(), out);
  out->push_back(' ');
  out->append(rules->name());
}

}  // namespace sqe::columnar
