#pragma once
/// TimeZoneRules: the UTC offsets of one time zone over time. A timestamp with time zone
/// column holds UTC instants and its type names one zone (DataType::timezone()); these
/// rules turn an instant into the wall-clock time of that zone (display, hour(), date(),
/// CAST to timestamp / date / varchar) and a wall-clock time back into an instant
/// (with_timezone, CAST from timestamp). A zone is a fixed offset ('UTC', 'Z', '+05:30',
/// '-08:00') or an IANA name read from the system database (/usr/share/zoneinfo, TZif
/// version 2+ 64-bit data; libstdc++ 12 has no chrono tzdb). Past the file's last
/// transition the last offset holds (Debian's files list transitions up to 2037). Loaded
/// rules are cached for the process; thread-safe.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "columnar/data_type.h"
#include "common/result.h"

namespace sqe::columnar {

class TimeZoneRules {
 public:
  /// The rules of `name`; InvalidArgument "Time zone not supported: <name> (...)" when
  /// unknown, with a hint at the accepted forms.
  static Result<std::shared_ptr<const TimeZoneRules>> Load(std::string_view name);

  /// Seconds east of UTC at the instant `utc_seconds`.
  int64_t OffsetAt(int64_t utc_seconds) const;
  /// The zone's short name at the instant `utc_seconds` ("EDT", "JST"; the zone's name for
  /// a fixed offset or when the database has none), for Joda's 'z' pattern letter.
  const std::string& AbbreviationAt(int64_t utc_seconds) const;
  /// The offset that makes `local_seconds` (wall-clock time in this zone) an instant: in a
  /// gap (spring forward) the offset before it, so 02:30 becomes 03:30 of the new offset;
  /// in an overlap (fall back) the earlier instant.
  int64_t OffsetForLocal(int64_t local_seconds) const;
  /// The wall-clock ticks in this zone of the instant `utc_ticks` (`per_second` ticks a
  /// second). Saturates instead of overflowing at the ends of the int64 range.
  int64_t ToLocal(int64_t utc_ticks, int64_t per_second) const;
  /// The instant of wall-clock ticks `local_ticks` (gaps and overlaps as OffsetForLocal).
  int64_t FromLocal(int64_t local_ticks, int64_t per_second) const;
  /// Whether the offset is always zero (UTC and its aliases, '+00:00').
  bool is_utc() const { return transitions_.empty() && initial_offset_ == 0; }
  /// The zone's canonical name ('UTC', '+05:30', 'America/New_York').
  const std::string& name() const { return name_; }

 private:
  std::string name_;
  int64_t initial_offset_ = 0;
  std::vector<int64_t> transitions_;  ///< instants (UTC seconds), ascending
  std::vector<int64_t> offsets_;      ///< offset from transitions_[i] on
  std::string initial_abbreviation_;
  std::vector<std::string> abbreviations_;  ///< short name from transitions_[i] on
};

/// "+hh:mm" for an offset in seconds ("+hhmm" without the colon).
std::string FormatOffset(int64_t seconds, bool colon = true);

/// The rules of a timestamp with time zone type's zone; UTC's for any other type (and for
/// a zone that does not load, which the binder never lets into a type).
std::shared_ptr<const TimeZoneRules> ZoneRulesOf(const DataType& type);

/// Appends a timestamp with time zone value the way Trino shows it: the wall-clock time in
/// the type's zone, a space, the zone's name ("2020-06-01 08:00:00.000000
/// America/New_York"). `ticks` is the UTC instant in the type's unit.
void AppendZonedTimestamp(int64_t ticks, const DataType& type, std::string* out);

}  // namespace sqe::columnar
