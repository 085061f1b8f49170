#pragma once
/// TimeZoneRules: the UTC offsets of one time zone over time, for AT TIME ZONE,
/// with_timezone, timezone_hour and the zone-aware formatting functions. A zone is a fixed
/// offset ('UTC', 'Z', '+05:30', '-08:00') or an IANA name read from the system database
/// (/usr/share/zoneinfo, TZif version 2+ 64-bit data; libstdc++ 12 has no chrono tzdb).
/// Past the file's last transition the last offset holds (Debian's files list
/// transitions up to 2037). Loaded rules are cached for the process; thread-safe.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"

namespace sqe::exec {

class TimeZoneRules {
 public:
  /// The rules of `name`; InvalidArgument "Time zone not supported: <name>" when unknown.
  static Result<std::shared_ptr<const TimeZoneRules>> Load(std::string_view name);

  /// Seconds east of UTC at the instant `utc_seconds`.
  int64_t OffsetAt(int64_t utc_seconds) const;
  /// The offset that makes `local_seconds` (wall-clock time in this zone) an instant: in a
  /// gap (spring forward) the offset before it, in an overlap the earlier instant.
  int64_t OffsetForLocal(int64_t local_seconds) const;
  /// The zone's canonical name ('UTC', '+05:30', 'America/New_York').
  const std::string& name() const { return name_; }

 private:
  std::string name_;
  int64_t initial_offset_ = 0;
  std::vector<int64_t> transitions_;  ///< instants (UTC seconds), ascending
  std::vector<int64_t> offsets_;      ///< offset from transitions_[i] on
};

/// "+hh:mm" for an offset in seconds.
std::string FormatOffset(int64_t seconds, bool colon = true);

}  // namespace sqe::exec
