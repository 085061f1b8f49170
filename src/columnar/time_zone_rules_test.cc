#include "columnar/time_zone_rules.h"

#include <gtest/gtest.h>

namespace sqe::columnar {
namespace {

constexpr int64_t kMicros = 1'000'000;

std::shared_ptr<const TimeZoneRules> Rules(std::string_view name) {
  auto rules = TimeZoneRules::Load(name);
  EXPECT_TRUE(rules.ok()) << rules.status().message();
  return rules.ok() ? *rules : nullptr;
}

TEST(TimeZoneRulesTest, ToLocalAppliesTheOffsetOfEachInstant) {
  auto ny = Rules("America/New_York");
  // 2021-03-14 06:59:59 UTC is 01:59:59 EST; one second later it is 03:00:00 EDT.
  const int64_t before_gap = 1'615'705'199;
  EXPECT_EQ(ny->ToLocal(before_gap * kMicros, kMicros), (before_gap - 5 * 3600) * kMicros);
  EXPECT_EQ(ny->ToLocal((before_gap + 1) * kMicros, kMicros),
            (before_gap + 1 - 4 * 3600) * kMicros);
  // Nanosecond ticks and an instant before the epoch (1969-07-01 is EDT).
  EXPECT_EQ(ny->ToLocal(-15'897'600'000'000'000, 1'000'000'000), -15'912'000'000'000'000);
  auto fixed = Rules("+05:30");
  EXPECT_EQ(fixed->ToLocal(0, 1), 19800);
  EXPECT_TRUE(Rules("UTC")->is_utc());
  EXPECT_FALSE(fixed->is_utc());
}

TEST(TimeZoneRulesTest, FromLocalResolvesGapsForwardAndOverlapsToTheEarlierInstant) {
  auto ny = Rules("America/New_York");
  // 2021-03-14 02:30 does not exist: it becomes 03:30 EDT = 07:30 UTC.
  const int64_t gap_local = 1'615'689'000;  // 2021-03-14 02:30:00 as if UTC
  EXPECT_EQ(ny->FromLocal(gap_local, 1), 1'615'707'000);
  // 2021-11-07 01:30 happens twice: the EDT one (05:30 UTC) first.
  const int64_t overlap_local = 1'636'248'600;  // 2021-11-07 01:30:00 as if UTC
  EXPECT_EQ(ny->FromLocal(overlap_local, 1), overlap_local + 4 * 3600);
  // A wall time away from any change round-trips.
  EXPECT_EQ(ny->ToLocal(ny->FromLocal(1'600'000'000 * kMicros, kMicros), kMicros),
            1'600'000'000 * kMicros);
}

TEST(TimeZoneRulesTest, SaturatesAtTheEndsOfTheRange) {
  auto tokyo = Rules("Asia/Tokyo");
  EXPECT_EQ(tokyo->ToLocal(INT64_MAX, kMicros), INT64_MAX);
  auto la = Rules("America/Los_Angeles");
  EXPECT_EQ(la->ToLocal(INT64_MIN, kMicros), INT64_MIN);
}

TEST(TimeZoneRulesTest, AbbreviationsFollowTheRules) {
  auto ny = Rules("America/New_York");
  EXPECT_EQ(ny->AbbreviationAt(1'591'012'800), "EDT");  // 2020-06-01
  EXPECT_EQ(ny->AbbreviationAt(1'606'824'000), "EST");  // 2020-12-01
  EXPECT_EQ(Rules("+05:30")->AbbreviationAt(0), "+05:30");
  EXPECT_EQ(Rules("UTC")->AbbreviationAt(0), "UTC");
}

TEST(TimeZoneRulesTest, NamesAreCaseInsensitiveAndCanonical) {
  auto ny = Rules("america/NEW_york");
  EXPECT_EQ(ny->name(), "America/New_York");
  EXPECT_EQ(ny->OffsetAt(1'591'012'800), -4 * 3600);
  EXPECT_EQ(Rules("utc")->name(), "UTC");
  EXPECT_FALSE(TimeZoneRules::Load("america").ok());  // a directory, not a zone
}

TEST(TimeZoneRulesTest, UnknownZonesNameTheZoneAndTheAcceptedForms) {
  auto rules = TimeZoneRules::Load("Mars/Olympus");
  ASSERT_FALSE(rules.ok());
  EXPECT_NE(rules.status().message().find("Time zone not supported: Mars/Olympus"),
            std::string::npos);
  EXPECT_NE(rules.status().message().find("'America/New_York'"), std::string::npos);
}

TEST(TimeZoneRulesTest, ZonedTimestampTextIsTheWallClockTimeAndTheZone) {
  std::string out;
  // 2020-06-01 12:00:00 UTC.
  AppendZonedTimestamp(1'591'012'800 * kMicros, *Timestamp(TimeUnit::kMicro, "America/New_York"),
                       &out);
  EXPECT_EQ(out, "2020-06-01 08:00:00.000000 America/New_York");
  out.clear();
  AppendZonedTimestamp(1'591'012'800 * kMicros, *TimestampTz(), &out);
  EXPECT_EQ(out, "2020-06-01 12:00:00.000000 UTC");
  out.clear();
  AppendZonedTimestamp(0, *Timestamp(TimeUnit::kNano, "-08:00"), &out);
  EXPECT_EQ(out, "1969-12-31 16:00:00.000000000 -08:00");
  // A type without zone, or with one that does not load, reads as UTC.
  EXPECT_TRUE(ZoneRulesOf(*Timestamp())->is_utc());
  EXPECT_TRUE(ZoneRulesOf(*Timestamp(TimeUnit::kMicro, "Nowhere/City"))->is_utc());
}

}  // namespace
}  // namespace sqe::columnar
