#pragma once
/// CronExpression: a standard 5-field cron schedule ("minute hour day-of-month month
/// day-of-week"), always evaluated in UTC. Used to validate maintenance.scheduler.schedule
/// and, later, by the maintenance scheduler to compute fire times. Immutable after Parse(),
/// so one instance may be shared between threads.
///
/// Accepted syntax per field: `*`, numbers, ranges `a-b`, steps `*/n`, `a-b/n`, `a/n`,
/// comma lists of those, month names JAN..DEC and day names SUN..SAT (any case);
/// day-of-week 7 means Sunday like 0. The macros @yearly @annually @monthly @weekly @daily
/// @midnight @hourly stand for their usual 5-field forms. As in Vixie cron, when both
/// day-of-month and day-of-week are restricted (neither starts with `*`), a day matches
/// when EITHER matches.

#include <bitset>
#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "common/result.h"

namespace sqe {

class CronExpression {
 public:
  using WallTime = std::chrono::system_clock::time_point;

  /// Parses `text`; InvalidArgument names the offending field and the expression. A
  /// schedule that can never fire (e.g. "0 0 30 2 *") is rejected too.
  static Result<CronExpression> Parse(std::string_view text);

  /// The first whole minute strictly after `after` (UTC) the schedule matches.
  /// nullopt only if nothing matches within 28 years, which Parse() already rules out.
  std::optional<WallTime> NextFireAfter(WallTime after) const;

  /// True when the minute containing `t` (UTC) is a fire time.
  bool Matches(WallTime t) const;

  /// The expression as given to Parse().
  const std::string& text() const { return text_; }

 private:
  CronExpression() = default;
  bool DayMatches(std::chrono::sys_days day) const;

  std::string text_;
  std::bitset<60> minutes_;
  std::bitset<24> hours_;
  std::bitset<32> days_of_month_;  // bit 1..31
  std::bitset<13> months_;         // bit 1..12
  std::bitset<7> days_of_week_;    // bit 0 (Sunday)..6
  bool day_of_month_star_ = true;
  bool day_of_week_star_ = true;
};

}  // namespace sqe
