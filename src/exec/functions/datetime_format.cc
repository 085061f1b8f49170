// Formatting and parsing of dates and timestamps, and the time zone functions:
// format_datetime / parse_datetime (Joda-Time patterns, as Trino), date_parse (MySQL
// specifiers, the inverse of date_format), to_iso8601, from_iso8601_timestamp,
// from_iso8601_date, human_readable_seconds, timezone_hour, timezone_minute,
// with_timezone, at_timezone (AT TIME ZONE) and from_unixtime(x, zone).
//
// Zones: a timestamp with time zone holds a UTC instant and its column type carries one
// zone (per column, not per value as in Trino). Functions that render or take apart a
// zoned value use that zone's rules (TimeZoneRules: IANA names and fixed offsets). The
// kernels of at_timezone, with_timezone and from_unixtime(x, zone) compute the instant;
// the binder types their result in the named zone (Binder::TypeZonedResult), which is why
// the zone must be a constant there. parse_datetime and from_iso8601_timestamp return
// the instant typed UTC, since the zone in each text may differ.

#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>

#include "columnar/civil_time.h"
#include "columnar/time_zone_rules.h"
#include "exec/functions/cast.h"
#include "exec/functions/datetime_families_internal.h"
#include "exec/functions/kernel_internal.h"

namespace sqe::exec {
namespace {

using columnar::Column;
using columnar::FormatOffset;
using columnar::TimeZoneRules;
using columnar::TypeId;
using columnar::TypePtr;

constexpr int64_t kMicrosPerSecond = 1'000'000;
constexpr int64_t kMicrosPerDay = 86'400 * kMicrosPerSecond;

int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

const char* const kMonths[] = {"January",   "February", "March",    "April",
                               "May",       "June",     "July",     "August",
                               "September", "October",  "November", "December"};
const char* const kWeekdays[] = {"Monday", "Tuesday",  "Wednesday", "Thursday",
                                 "Friday", "Saturday", "Sunday"};

/// A broken-down local date-time plus the zone it is in.
struct Parts {
  int64_t year = 1970;
  int32_t month = 1, day = 1;
  int64_t hour = 0, minute = 0, second = 0, micros = 0;
  int64_t offset = 0;  ///< seconds east of UTC
  int32_t day_of_year = 0;
  std::string zone = "UTC";
  std::string zone_short;  ///< the zone's abbreviation at the instant ("EDT"); "" if unknown

  static Parts Of(int64_t local_micros) {
    Parts p;
    const int64_t days = FloorDiv(local_micros, kMicrosPerDay);
    const int64_t tod = local_micros - days * kMicrosPerDay;
    const columnar::CivilDate d = columnar::CivilFromDays(days);
    p.year = d.year;
    p.month = d.month;
    p.day = d.day;
    p.hour = tod / (3600 * kMicrosPerSecond);
    p.minute = tod / (60 * kMicrosPerSecond) % 60;
    p.second = tod / kMicrosPerSecond % 60;
    p.micros = tod % kMicrosPerSecond;
    p.day_of_year = static_cast<int32_t>(days - columnar::DaysFromCivil(d.year, 1, 1) + 1);
    return p;
  }
  int64_t Days() const { return columnar::DaysFromCivil(year, month, day); }
  int32_t IsoWeekday() const {  // Monday = 1
    const int64_t d = Days();
    return static_cast<int32_t>(((d % 7) + 7 + 3) % 7 + 1);
  }
  int64_t LocalMicros() const {
    return Days() * kMicrosPerDay + ((hour * 60 + minute) * 60 + second) * kMicrosPerSecond +
           micros;
  }
};

void Pad(std::string* out, int64_t v, int width) {
  std::string digits = std::to_string(v < 0 ? -v : v);
  if (v < 0) out->push_back('-');
  for (int i = static_cast<int>(digits.size()); i < width; ++i) out->push_back('0');
  *out += digits;
}

/// Trino's format_datetime: Joda-Time pattern letters (runs of one letter; '...' quotes).
Status FormatJoda(std::string_view pattern, const Parts& p, std::string* out) {
  for (size_t i = 0; i < pattern.size();) {
    const char c = pattern[i];
    if (c == '\'') {
      size_t j = i + 1;
      if (j < pattern.size() && pattern[j] == '\'') {
        out->push_back('\'');
        i = j + 1;
        continue;
      }
      while (j < pattern.size()) {
        if (pattern[j] == '\'') {
          if (j + 1 < pattern.size() && pattern[j + 1] == '\'') {
            out->push_back('\'');
            j += 2;
            continue;
          }
          break;
        }
        out->push_back(pattern[j++]);
      }
      i = j + 1;
      continue;
    }
    if (!std::isalpha(static_cast<unsigned char>(c))) {
      out->push_back(c);
      ++i;
      continue;
    }
    size_t n = 1;
    while (i + n < pattern.size() && pattern[i + n] == c) ++n;
    i += n;
    const int w = static_cast<int>(n);
    switch (c) {
      case 'y':
      case 'Y':
      case 'x':
        if (n == 2) {
          Pad(out, ((p.year % 100) + 100) % 100, 2);
        } else {
          Pad(out, p.year, w);
        }
        break;
      case 'C':
        Pad(out, p.year / 100, w);
        break;
      case 'M':
        if (n >= 4) {
          *out += kMonths[p.month - 1];
        } else if (n == 3) {
          *out += std::string_view(kMonths[p.month - 1]).substr(0, 3);
        } else {
          Pad(out, p.month, w);
        }
        break;
      case 'd':
        Pad(out, p.day, w);
        break;
      case 'D':
        Pad(out, p.day_of_year, w);
        break;
      case 'e':
        Pad(out, p.IsoWeekday(), w);
        break;
      case 'E':
        if (n >= 4) {
          *out += kWeekdays[p.IsoWeekday() - 1];
        } else {
          *out += std::string_view(kWeekdays[p.IsoWeekday() - 1]).substr(0, 3);
        }
        break;
      case 'a':
        *out += p.hour < 12 ? "AM" : "PM";
        break;
      case 'H':
        Pad(out, p.hour, w);
        break;
      case 'k':
        Pad(out, p.hour == 0 ? 24 : p.hour, w);
        break;
      case 'h':
        Pad(out, p.hour % 12 == 0 ? 12 : p.hour % 12, w);
        break;
      case 'K':
        Pad(out, p.hour % 12, w);
        break;
      case 'm':
        Pad(out, p.minute, w);
        break;
      case 's':
        Pad(out, p.second, w);
        break;
      case 'S': {
        std::string frac;
        Pad(&frac, p.micros, 6);
        if (n <= 6) {
          *out += frac.substr(0, n);
        } else {
          *out += frac + std::string(n - 6, '0');
        }
        break;
      }
      case 'Z':
        if (n == 1) {
          *out += FormatOffset(p.offset, false);
        } else if (n == 2) {
          *out += FormatOffset(p.offset, true);
        } else {
          *out += p.zone;
        }
        break;
      case 'z':  // Joda's short name ("EDT"); the zone's name for UTC and fixed offsets
        *out += p.zone_short.empty() ? p.zone : p.zone_short;
        break;
      default:
        return Status::InvalidArgument(std::string("Illegal pattern component: ") +
                                       std::string(n, c));
    }
  }
  return Status::OK();
}

/// Reads up to `max` digits (at least one) into *v.
bool ReadInt(std::string_view s, size_t* pos, size_t max, int64_t* v, bool sign = false) {
  bool negative = false;
  if (sign && *pos < s.size() && (s[*pos] == '-' || s[*pos] == '+')) {
    negative = s[*pos] == '-';
    ++*pos;
  }
  size_t n = 0;
  int64_t r = 0;
  while (*pos < s.size() && n < max && std::isdigit(static_cast<unsigned char>(s[*pos]))) {
    r = r * 10 + (s[(*pos)++] - '0');
    ++n;
  }
  *v = negative ? -r : r;
  return n > 0;
}

/// Matches a month or weekday name (full or three letters, any case); returns its index.
int ReadName(std::string_view s, size_t* pos, const char* const* names, int count) {
  for (int k = 0; k < count; ++k) {
    const std::string_view full = names[k];
    for (const std::string_view name : {full, full.substr(0, 3)}) {
      if (s.size() - *pos < name.size()) continue;
      bool same = true;
      for (size_t i = 0; i < name.size() && same; ++i) {
        same = std::tolower(static_cast<unsigned char>(s[*pos + i])) ==
               std::tolower(static_cast<unsigned char>(name[i]));
      }
      if (same) {
        *pos += name.size();
        return k;
      }
    }
  }
  return -1;
}

/// Reads a zone: 'Z', +hh:mm, +hhmm, +hh or an IANA name; sets the offset of `local`.
bool ReadZone(std::string_view s, size_t* pos, Parts* p, bool* has_zone) {
  size_t end = *pos;
  if (end < s.size() && (s[end] == '+' || s[end] == '-')) {
    ++end;
    while (end < s.size() && (std::isdigit(static_cast<unsigned char>(s[end])) || s[end] == ':'))
      ++end;
  } else {
    while (end < s.size() &&
           (std::isalnum(static_cast<unsigned char>(s[end])) || s[end] == '/' || s[end] == '_'))
      ++end;
  }
  auto rules = TimeZoneRules::Load(s.substr(*pos, end - *pos));
  if (!rules.ok()) return false;
  p->offset = (*rules)->OffsetForLocal(FloorDiv(p->LocalMicros(), kMicrosPerSecond));
  p->zone = (*rules)->name();
  *has_zone = true;
  *pos = end;
  return true;
}

Status ParseError(std::string_view text, std::string_view pattern) {
  return Status::InvalidArgument("Invalid format: \"" + std::string(text) + "\" for pattern \"" +
                                 std::string(pattern) + "\"");
}

/// Trino's parse_datetime: the Joda pattern letters of FormatJoda; `has_zone` tells
/// whether the text named a zone (Z / ZZ / ZZZ / z).
Status ParseJoda(std::string_view text, std::string_view pattern, Parts* p, bool* has_zone) {
  size_t pos = 0;
  bool pm = false, has_ampm = false;
  std::vector<std::pair<char, size_t>> zones;
  for (size_t i = 0; i < pattern.size();) {
    const char c = pattern[i];
    if (c == '\'') {
      size_t j = i + 1;
      while (j < pattern.size() && pattern[j] != '\'') {
        if (pos >= text.size() || text[pos] != pattern[j]) return ParseError(text, pattern);
        ++pos;
        ++j;
      }
      if (j == i + 1 && j < pattern.size()) {  // '' is a quote
        if (pos >= text.size() || text[pos] != '\'') return ParseError(text, pattern);
        ++pos;
      }
      i = j + 1;
      continue;
    }
    if (!std::isalpha(static_cast<unsigned char>(c))) {
      if (pos >= text.size() || text[pos] != c) return ParseError(text, pattern);
      ++pos;
      ++i;
      continue;
    }
    size_t n = 1;
    while (i + n < pattern.size() && pattern[i + n] == c) ++n;
    i += n;
    // A numeric field followed directly by another reads only its own width.
    const bool adjacent =
        i < pattern.size() && std::isalpha(static_cast<unsigned char>(pattern[i]));
    int64_t v = 0;
    auto number = [&](size_t natural) {
      return ReadInt(text, &pos, adjacent ? n : std::max(n, natural), &v);
    };
    bool ok = true;
    switch (c) {
      case 'y':
      case 'Y':
      case 'x':
        ok = ReadInt(text, &pos, adjacent ? n : 9, &v, true);
        if (ok && n == 2 && v < 100) v += v < 70 ? 2000 : 1900;  // Joda's pivot
        p->year = v;
        break;
      case 'M':
        if (n >= 3) {
          const int k = ReadName(text, &pos, kMonths, 12);
          ok = k >= 0;
          p->month = k + 1;
        } else {
          ok = number(2) && v >= 1 && v <= 12;
          p->month = static_cast<int32_t>(v);
        }
        break;
      case 'd':
        ok = number(2) && v >= 1 && v <= 31;
        p->day = static_cast<int32_t>(v);
        break;
      case 'D':
        ok = number(3) && v >= 1 && v <= 366;
        p->day_of_year = static_cast<int32_t>(v);
        break;
      case 'E':
        ok = ReadName(text, &pos, kWeekdays, 7) >= 0;
        break;
      case 'e':
        ok = number(1);
        break;
      case 'H':
      case 'k':
        ok = number(2) && v <= 24;
        p->hour = v % 24;
        break;
      case 'h':
      case 'K':
        ok = number(2) && v <= 12;
        p->hour = v % 12;
        break;
      case 'a': {
        if (text.size() - pos >= 2) {
          const std::string ampm = {
              static_cast<char>(std::toupper(static_cast<unsigned char>(text[pos]))),
              static_cast<char>(std::toupper(static_cast<unsigned char>(text[pos + 1])))};
          ok = ampm == "AM" || ampm == "PM";
          pm = ampm == "PM";
          has_ampm = true;
          pos += 2;
        } else {
          ok = false;
        }
        break;
      }
      case 'm':
        ok = number(2) && v <= 59;
        p->minute = v;
        break;
      case 's':
        ok = number(2) && v <= 59;
        p->second = v;
        break;
      case 'S': {
        const size_t start = pos;
        ok = ReadInt(text, &pos, adjacent ? n : 9, &v);
        int64_t digits = static_cast<int64_t>(pos - start);
        while (digits > 6) {
          v /= 10;
          --digits;
        }
        while (digits < 6) {
          v *= 10;
          ++digits;
        }
        p->micros = v;
        break;
      }
      case 'Z':
      case 'z':
        zones.emplace_back(c, pos);
        ok = ReadZone(text, &pos, p, has_zone);
        break;
      default:
        return Status::InvalidArgument(std::string("Illegal pattern component: ") +
                                       std::string(n, c));
    }
    if (!ok) return ParseError(text, pattern);
  }
  if (pos != text.size()) return ParseError(text, pattern);
  if (has_ampm) p->hour = p->hour % 12 + (pm ? 12 : 0);
  if (p->day_of_year > 0) {
    const int64_t days = columnar::DaysFromCivil(p->year, 1, 1) + p->day_of_year - 1;
    const columnar::CivilDate d = columnar::CivilFromDays(days);
    p->month = d.month;
    p->day = d.day;
  }
  // The zone's offset depends on the full local time: read it again now.
  if (*has_zone && !zones.empty()) {
    size_t zpos = zones.back().second;
    bool again = false;
    ReadZone(text, &zpos, p, &again);
  }
  const columnar::CivilDate check = columnar::CivilFromDays(p->Days());
  if (check.month != p->month || check.day != p->day) return ParseError(text, pattern);
  return Status::OK();
}

/// date_parse: MySQL specifiers (%Y %y %m %c %d %e %H %k %h %I %l %i %s %S %f %p %b %M %a
/// %W %j %T %r %%); a literal character must match itself.
Status ParseMySql(std::string_view text, std::string_view format, Parts* p) {
  size_t pos = 0;
  bool pm = false, twelve = false;
  auto fail = [&] { return ParseError(text, format); };
  for (size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%' || i + 1 == format.size()) {
      if (pos >= text.size() || text[pos] != format[i]) return fail();
      ++pos;
      continue;
    }
    const char c = format[++i];
    int64_t v = 0;
    bool ok = true;
    switch (c) {
      case 'Y':
        ok = ReadInt(text, &pos, 4, &v);
        p->year = v;
        break;
      case 'y':
        ok = ReadInt(text, &pos, 2, &v);
        p->year = v + (v < 70 ? 2000 : 1900);
        break;
      case 'm':
      case 'c':
        ok = ReadInt(text, &pos, 2, &v) && v >= 1 && v <= 12;
        p->month = static_cast<int32_t>(v);
        break;
      case 'd':
      case 'e':
        ok = ReadInt(text, &pos, 2, &v) && v >= 1 && v <= 31;
        p->day = static_cast<int32_t>(v);
        break;
      case 'H':
      case 'k':
        ok = ReadInt(text, &pos, 2, &v) && v <= 23;
        p->hour = v;
        break;
      case 'h':
      case 'I':
      case 'l':
        ok = ReadInt(text, &pos, 2, &v) && v >= 1 && v <= 12;
        p->hour = v % 12;
        twelve = true;
        break;
      case 'i':
        ok = ReadInt(text, &pos, 2, &v) && v <= 59;
        p->minute = v;
        break;
      case 's':
      case 'S':
        ok = ReadInt(text, &pos, 2, &v) && v <= 59;
        p->second = v;
        break;
      case 'f': {
        const size_t start = pos;
        ok = ReadInt(text, &pos, 6, &v);
        for (size_t d = pos - start; d < 6; ++d) v *= 10;
        p->micros = v;
        break;
      }
      case 'p':
        if (text.size() - pos >= 2) {
          const char a = static_cast<char>(std::toupper(static_cast<unsigned char>(text[pos])));
          ok = (a == 'A' || a == 'P') &&
               std::toupper(static_cast<unsigned char>(text[pos + 1])) == 'M';
          pm = a == 'P';
          pos += 2;
        } else {
          ok = false;
        }
        break;
      case 'b':
      case 'M': {
        const int k = ReadName(text, &pos, kMonths, 12);
        ok = k >= 0;
        p->month = k + 1;
        break;
      }
      case 'a':
      case 'W':
        ok = ReadName(text, &pos, kWeekdays, 7) >= 0;
        break;
      case 'j':
        ok = ReadInt(text, &pos, 3, &v) && v >= 1 && v <= 366;
        p->day_of_year = static_cast<int32_t>(v);
        break;
      case 'T': {
        int64_t h = 0, m = 0, s = 0;
        ok = ReadInt(text, &pos, 2, &h) && pos < text.size() && text[pos++] == ':' &&
             ReadInt(text, &pos, 2, &m) && pos < text.size() && text[pos++] == ':' &&
             ReadInt(text, &pos, 2, &s) && h <= 23 && m <= 59 && s <= 59;
        p->hour = h;
        p->minute = m;
        p->second = s;
        break;
      }
      case '%':
        ok = pos < text.size() && text[pos++] == '%';
        break;
      default:
        return Status::InvalidArgument(std::string("date_parse: unsupported specifier %") + c);
    }
    if (!ok) return fail();
  }
  if (pos != text.size()) return fail();
  if (twelve && pm) p->hour += 12;
  if (p->day_of_year > 0) {
    const columnar::CivilDate d =
        columnar::CivilFromDays(columnar::DaysFromCivil(p->year, 1, 1) + p->day_of_year - 1);
    p->month = d.month;
    p->day = d.day;
  }
  const columnar::CivilDate check = columnar::CivilFromDays(p->Days());
  if (check.month != p->month || check.day != p->day) return fail();
  return Status::OK();
}

/// Reads exactly `n` digits.
bool ReadExact(std::string_view s, size_t* pos, size_t n, int64_t* v) {
  const size_t start = *pos;
  return ReadInt(s, pos, n, v) && *pos - start == n;
}

/// ISO 8601: YYYY-MM-DD[(T| )hh[:mm[:ss[.f+]]]][Z|(+|-)hh[[:]mm]].
Status ParseIso(std::string_view text, bool date_only, Parts* p, bool* has_zone) {
  size_t pos = 0;
  int64_t v = 0;
  auto fail = [&] {
    return Status::InvalidArgument("Invalid format: \"" + std::string(text) + "\"");
  };
  if (!ReadInt(text, &pos, 4, &v) || pos != 4) return fail();
  p->year = v;
  if (pos < text.size() && text[pos] == '-') {
    ++pos;
    if (!ReadExact(text, &pos, 2, &v) || v < 1 || v > 12) return fail();
    p->month = static_cast<int32_t>(v);
    if (pos < text.size() && text[pos] == '-') {
      ++pos;
      if (!ReadExact(text, &pos, 2, &v) || v < 1 || v > 31) return fail();
      p->day = static_cast<int32_t>(v);
    }
  }
  if (!date_only && pos < text.size() && text[pos] == 'T') {
    ++pos;
    if (!ReadExact(text, &pos, 2, &v) || v > 23) return fail();
    p->hour = v;
    if (pos < text.size() && text[pos] == ':') {
      ++pos;
      if (!ReadExact(text, &pos, 2, &v) || v > 59) return fail();
      p->minute = v;
      if (pos < text.size() && text[pos] == ':') {
        ++pos;
        if (!ReadExact(text, &pos, 2, &v) || v > 59) return fail();
        p->second = v;
        if (pos < text.size() && (text[pos] == '.' || text[pos] == ',')) {
          ++pos;
          const size_t start = pos;
          if (!ReadInt(text, &pos, 9, &v)) return fail();
          int64_t digits = static_cast<int64_t>(pos - start);
          for (; digits > 6; --digits) v /= 10;
          for (; digits < 6; ++digits) v *= 10;
          p->micros = v;
        }
      }
    }
    if (pos < text.size() && !ReadZone(text, &pos, p, has_zone)) return fail();
  }
  if (pos != text.size()) return fail();
  const columnar::CivilDate check = columnar::CivilFromDays(p->Days());
  if (check.month != p->month || check.day != p->day) return fail();
  return Status::OK();
}

/// Micros per tick of a timestamp type (micro or nano units).
int64_t TicksPerMicro(const TypePtr& t) {
  return columnar::TicksPerSecond(t->unit()) >= kMicrosPerSecond
             ? columnar::TicksPerSecond(t->unit()) / kMicrosPerSecond
             : 1;
}

/// The local parts of row i of a date / timestamp / timestamp with time zone column.
Result<Parts> LocalParts(const Column& c, int64_t i) {
  const TypePtr& t = c.type();
  if (t->id() == TypeId::kDate32) return Parts::Of(c.Values<int32_t>()[i] * kMicrosPerDay);
  const int64_t micros = FloorDiv(c.Values<int64_t>()[i], TicksPerMicro(t));
  if (!t->has_timezone()) return Parts::Of(micros);
  SQE_ASSIGN_OR_RETURN(auto rules, TimeZoneRules::Load(t->timezone()));
  const int64_t offset = rules->OffsetAt(FloorDiv(micros, kMicrosPerSecond));
  Parts p = Parts::Of(micros + offset * kMicrosPerSecond);
  p.offset = offset;
  p.zone = rules->name();
  p.zone_short = rules->AbbreviationAt(FloorDiv(micros, kMicrosPerSecond));
  return p;
}

bool IsTemporal(const TypePtr& t, bool date_ok = true) {
  return t != nullptr && (t->id() == TypeId::kTimestamp || (date_ok && t->id() == TypeId::kDate32));
}
bool IsText(const TypePtr& t) { return t == nullptr || t->id() == TypeId::kString; }

/// The instant (micros) of parsed local parts: in their zone when one was named, else in
/// the session's.
Result<int64_t> Instant(const Parts& p, bool has_zone, const EvalContext& ctx) {
  int64_t offset = p.offset;
  if (!has_zone) {
    SQE_ASSIGN_OR_RETURN(auto rules, TimeZoneRules::Load(ctx.time_zone));
    offset = rules->OffsetForLocal(FloorDiv(p.LocalMicros(), kMicrosPerSecond));
  }
  return p.LocalMicros() - offset * kMicrosPerSecond;
}

Status RenderIso(const Parts& p, std::string_view, std::string* out) {
  Pad(out, p.year, 4);
  out->push_back('-');
  Pad(out, p.month, 2);
  out->push_back('-');
  Pad(out, p.day, 2);
  return Status::OK();
}

/// A kernel rendering row i of a date / timestamp column (and an optional pattern).
template <typename Render>
ScalarKernel TimestampToText(Render render) {
  return [render](const std::vector<Column>& args, int64_t rows, const ScalarFunction&,
                  const EvalContext& ctx) {
    return kernel::MapToString(args, rows, ctx, [&](int64_t i, std::string* out, bool*) -> Status {
      SQE_ASSIGN_OR_RETURN(Parts p, LocalParts(args[0], i));
      return render(p, args.size() > 1 ? args[1].StringAt(i) : std::string_view(), out);
    });
  };
}

/// A kernel parsing varchar row i (with an optional pattern) into a timestamp (micros).
template <typename Parse>
ScalarKernel TextToTimestamp(Parse parse) {
  return [parse](const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
                 const EvalContext& ctx) {
    return kernel::MapToFixed<int64_t>(
        args, rows, fn.return_type, ctx, [&](int64_t i, int64_t* out, bool*) -> Status {
          Parts p;
          bool has_zone = false;
          SQE_RETURN_NOT_OK(parse(args[0].StringAt(i),
                                  args.size() > 1 ? args[1].StringAt(i) : std::string_view(), &p,
                                  &has_zone));
          if (!fn.return_type->has_timezone()) {
            *out = p.LocalMicros();
            return Status::OK();
          }
          SQE_ASSIGN_OR_RETURN(*out, Instant(p, has_zone, ctx));
          return Status::OK();
        });
  };
}

TypePtr MicroType(const TypePtr& t) {
  return t->has_timezone() ? columnar::Timestamp(columnar::TimeUnit::kMicro, t->timezone())
                           : columnar::Timestamp();
}

/// Trino's human_readable_seconds: weeks, days, hours, minutes, seconds (rounded), zero
/// units left out, "0 seconds" for zero.
Status HumanReadable(double seconds, std::string* out) {
  if (!std::isfinite(seconds)) {
    return Status::InvalidArgument("Invalid argument found: " + std::to_string(seconds));
  }
  int64_t left = std::llround(std::fabs(seconds));
  const struct {
    const char* name;
    int64_t size;
  } kUnits[] = {{"week", 604800}, {"day", 86400}, {"hour", 3600}, {"minute", 60}, {"second", 1}};
  for (const auto& u : kUnits) {
    const int64_t n = left / u.size;
    left %= u.size;
    if (n == 0) continue;
    if (!out->empty()) *out += ", ";
    *out += std::to_string(n) + " " + u.name + (n == 1 ? "" : "s");
  }
  if (out->empty()) *out = "0 seconds";
  return Status::OK();
}

}  // namespace

void RegisterDatetimeFormatFunctions(FunctionRegistry& r) {
  const TypePtr tz = columnar::TimestampTz();
  r.AddScalar(
      "format_datetime",
      [](const std::vector<TypePtr>& types) -> Result<std::optional<ScalarFunction>> {
        if (types.size() != 2 || !IsTemporal(types[0]) || !IsText(types[1])) {
          return std::optional<ScalarFunction>();
        }
        const TypePtr value = types[0]->id() == TypeId::kDate32 ? columnar::Timestamp() : types[0];
        return kernel::Instance(
            "format_datetime", {value, columnar::String()}, columnar::String(),
            TimestampToText([](const Parts& p, std::string_view pattern, std::string* out) {
              return FormatJoda(pattern, p, out);
            }));
      },
      {"format_datetime", "varchar", "timestamp | timestamp with time zone, varchar format",
       "scalar", "formats with a Joda-Time pattern: format_datetime(ts, 'yyyy-MM-dd HH:mm')"});
  kernel::AddFixed(
      r, "parse_datetime", {columnar::String(), columnar::String()}, tz,
      TextToTimestamp([](std::string_view text, std::string_view pattern, Parts* p,
                         bool* has_zone) { return ParseJoda(text, pattern, p, has_zone); }),
      "parses with a Joda-Time pattern into a timestamp with time zone");
  kernel::AddFixed(r, "date_parse", {columnar::String(), columnar::String()}, columnar::Timestamp(),
                   TextToTimestamp([](std::string_view text, std::string_view format, Parts* p,
                                      bool*) { return ParseMySql(text, format, p); }),
                   "parses with MySQL specifiers: date_parse('2024-01-31', '%Y-%m-%d')");
  kernel::AddFixed(
      r, "from_iso8601_timestamp", {columnar::String()}, tz,
      TextToTimestamp([](std::string_view text, std::string_view, Parts* p, bool* has_zone) {
        return ParseIso(text, false, p, has_zone);
      }),
      "parses an ISO 8601 timestamp (no zone: the session's)");
  kernel::AddFixed(
      r, "from_iso8601_date", {columnar::String()}, columnar::Date32(),
      [](const std::vector<Column>& args, int64_t rows, const ScalarFunction&,
         const EvalContext& ctx) {
        return kernel::MapToFixed<int32_t>(
            args, rows, columnar::Date32(), ctx, [&](int64_t i, int32_t* out, bool*) -> Status {
              Parts p;
              bool has_zone = false;
              SQE_RETURN_NOT_OK(ParseIso(args[0].StringAt(i), true, &p, &has_zone));
              *out = static_cast<int32_t>(p.Days());
              return Status::OK();
            });
      },
      "parses an ISO 8601 date");
  r.AddScalar(
      "to_iso8601",
      [](const std::vector<TypePtr>& types) -> Result<std::optional<ScalarFunction>> {
        if (types.size() != 1 || !IsTemporal(types[0])) return std::optional<ScalarFunction>();
        const bool date = types[0]->id() == TypeId::kDate32;
        const bool zoned = !date && types[0]->has_timezone();
        return kernel::Instance(
            "to_iso8601", {date ? types[0] : MicroType(types[0])}, columnar::String(),
            TimestampToText([date, zoned](const Parts& p, std::string_view, std::string* out) {
              SQE_RETURN_NOT_OK(RenderIso(p, {}, out));
              if (date) return Status::OK();
              out->push_back('T');
              Pad(out, p.hour, 2);
              out->push_back(':');
              Pad(out, p.minute, 2);
              out->push_back(':');
              Pad(out, p.second, 2);
              out->push_back('.');
              std::string frac;
              Pad(&frac, p.micros, 6);
              *out += p.micros % 1000 == 0 ? frac.substr(0, 3) : frac;
              if (zoned) *out += p.offset == 0 ? std::string("Z") : FormatOffset(p.offset);
              return Status::OK();
            }));
      },
      {"to_iso8601", "varchar", "date | timestamp | timestamp with time zone", "scalar",
       "the ISO 8601 text of a date or timestamp"});
  kernel::AddFixed(
      r, "human_readable_seconds", {columnar::Float64()}, columnar::String(),
      [](const std::vector<Column>& args, int64_t rows, const ScalarFunction&,
         const EvalContext& ctx) {
        return kernel::MapToString(args, rows, ctx, [&](int64_t i, std::string* out, bool*) {
          return HumanReadable(args[0].Values<double>()[i], out);
        });
      },
      "a duration in words: 1 hour, 2 minutes, 42 seconds");
  for (const bool hour : {true, false}) {
    const char* name = hour ? "timezone_hour" : "timezone_minute";
    r.AddScalar(
        name,
        [name, hour](const std::vector<TypePtr>& types) -> Result<std::optional<ScalarFunction>> {
          if (types.size() != 1 || !IsTemporal(types[0], false) || !types[0]->has_timezone()) {
            return std::optional<ScalarFunction>();
          }
          return kernel::Instance(name, {MicroType(types[0])}, columnar::Int64(),
                                  [hour](const std::vector<Column>& args, int64_t rows,
                                         const ScalarFunction&, const EvalContext& ctx) {
                                    return kernel::MapToFixed<int64_t>(
                                        args, rows, columnar::Int64(), ctx,
                                        [&](int64_t i, int64_t* out, bool*) -> Status {
                                          SQE_ASSIGN_OR_RETURN(Parts p, LocalParts(args[0], i));
                                          // Trino: the minute part keeps the sign of the offset.
                                          *out = hour ? p.offset / 3600 : p.offset / 60 % 60;
                                          return Status::OK();
                                        });
                                  });
        },
        {name, "bigint", "timestamp with time zone", "scalar",
         hour ? "the hour of the value's zone offset" : "the minute of the value's zone offset"});
  }
  // with_timezone(ts, zone): the wall time `ts` in `zone`, as an instant.
  kernel::AddFixed(
      r, "with_timezone", {columnar::Timestamp(), columnar::String()}, tz,
      [](const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
         const EvalContext& ctx) {
        return kernel::MapToFixed<int64_t>(
            args, rows, fn.return_type, ctx, [&](int64_t i, int64_t* out, bool*) -> Status {
              SQE_ASSIGN_OR_RETURN(auto rules, TimeZoneRules::Load(args[1].StringAt(i)));
              const int64_t local = args[0].Values<int64_t>()[i];
              *out = local -
                     rules->OffsetForLocal(FloorDiv(local, kMicrosPerSecond)) * kMicrosPerSecond;
              return Status::OK();
            });
      },
      "the wall time in the zone as a timestamp with time zone");
  // at_timezone(ts, zone) (ts AT TIME ZONE zone): the same instant; checks the zone.
  r.AddScalar(
      "at_timezone",
      [](const std::vector<TypePtr>& types) -> Result<std::optional<ScalarFunction>> {
        if (types.size() != 2 || !IsTemporal(types[0], false) || !IsText(types[1])) {
          return std::optional<ScalarFunction>();
        }
        // Any precision: the instant keeps the value's unit (the binder types the result
        // in the zone, Binder::TypeZonedResult).
        const bool zoned = types[0]->has_timezone();
        const columnar::TimeUnit unit = types[0]->unit();
        return kernel::Instance(
            "at_timezone", {types[0], columnar::String()}, columnar::Timestamp(unit, "UTC"),
            [zoned, unit](const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
                          const EvalContext& ctx) {
              const int64_t per_second = columnar::TicksPerSecond(unit);
              return kernel::MapToFixed<int64_t>(
                  args, rows, fn.return_type, ctx, [&](int64_t i, int64_t* out, bool*) -> Status {
                    SQE_RETURN_NOT_OK(TimeZoneRules::Load(args[1].StringAt(i)).status());
                    int64_t v = args[0].Values<int64_t>()[i];
                    if (!zoned) {  // a timestamp is first taken in the session's zone
                      SQE_ASSIGN_OR_RETURN(auto session, TimeZoneRules::Load(ctx.time_zone));
                      v = session->FromLocal(v, per_second);
                    }
                    *out = v;
                    return Status::OK();
                  });
            });
      },
      {"at_timezone", "timestamp with time zone", "timestamp with time zone, varchar zone",
       "scalar", "the instant in the zone (ts AT TIME ZONE zone)"});
  kernel::AddFixed(
      r, "from_unixtime", {columnar::Float64(), columnar::String()}, tz,
      [](const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
         const EvalContext& ctx) {
        return kernel::MapToFixed<int64_t>(
            args, rows, fn.return_type, ctx, [&](int64_t i, int64_t* out, bool*) -> Status {
              SQE_RETURN_NOT_OK(TimeZoneRules::Load(args[1].StringAt(i)).status());
              *out = std::llround(args[0].Values<double>()[i] * kMicrosPerSecond);
              return Status::OK();
            });
      },
      "the instant of unix seconds, in the zone");
}

}  // namespace sqe::exec
