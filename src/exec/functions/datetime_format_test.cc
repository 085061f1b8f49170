#include <gtest/gtest.h>

#include "columnar/time_zone_rules.h"
#include "exec/functions/scalar_test_harness.h"

namespace sqe::exec {
namespace {

using columnar::TimeZoneRules;
using columnar::testing::Float64s;
using columnar::testing::Strings;
using testing::Eval;
using testing::Typed;

columnar::Column Timestamps(const std::vector<std::optional<std::string>>& text) {
  return Typed(columnar::Timestamp(), text);
}
columnar::Column Dates(const std::vector<std::optional<std::string>>& text) {
  return Typed(columnar::Date32(), text);
}

TEST(TimeZoneRulesTest, FixedOffsetsAndIanaZonesWithDaylightSaving) {
  SQE_ASSIGN_OR_FAIL(auto utc, TimeZoneRules::Load("UTC"));
  EXPECT_EQ(utc->OffsetAt(0), 0);
  SQE_ASSIGN_OR_FAIL(auto fixed, TimeZoneRules::Load("+05:30"));
  EXPECT_EQ(fixed->OffsetAt(1'700'000'000), 5 * 3600 + 1800);
  EXPECT_EQ(fixed->name(), "+05:30");
  SQE_ASSIGN_OR_FAIL(auto ny, TimeZoneRules::Load("America/New_York"));
  EXPECT_EQ(ny->OffsetAt(1'719'835'200), -4 * 3600);  // 2024-07-01 12:00 UTC: EDT
  EXPECT_EQ(ny->OffsetAt(1'704'110'400), -5 * 3600);  // 2024-01-01 12:00 UTC: EST
  // 2024-03-10 02:30 does not exist in New York (spring forward): the offset before.
  EXPECT_EQ(ny->OffsetForLocal(1'710'037'800), -5 * 3600);
  // 2024-11-03 01:30 happens twice: the earlier instant (EDT).
  EXPECT_EQ(ny->OffsetForLocal(1'730'597'400), -4 * 3600);
  EXPECT_FALSE(TimeZoneRules::Load("Mars/Olympus").ok());
  EXPECT_FALSE(TimeZoneRules::Load("../etc/passwd").ok());
  EXPECT_FALSE(TimeZoneRules::Load("+25:00").ok());
}

TEST(DatetimeFormatTest, FormatDatetimeJodaLetters) {
  EXPECT_EQ(Eval("format_datetime", {Timestamps({"2024-03-05 14:07:09.123", std::nullopt}),
                                     Strings({"yyyy-MM-dd HH:mm:ss.SSS", "yyyy"})}),
            "2024-03-05 14:07:09.123, NULL");
  EXPECT_EQ(Eval("format_datetime", {Timestamps({"2024-03-05 00:07:09.000000"}),
                                     Strings({"EEEE, MMMM d, yy h:mm a 'at' D ''"})}),
            "Tuesday, March 5, 24 12:07 AM at 65 '");
  EXPECT_EQ(Eval("format_datetime", {Timestamps({"2024-03-05 00:07:09.000000"}), Strings({"q"})}),
            "error: Illegal pattern component: q");
}

TEST(DatetimeFormatTest, ParseDatetimeAndDateParse) {
  EXPECT_EQ(Eval("parse_datetime", {Strings({"2024-03-05 14:07", "05/Mar/2024:01:02:03 +0100"}),
                                    Strings({"yyyy-MM-dd HH:mm", "dd/MMM/yyyy:HH:mm:ss Z"})}),
            "2024-03-05 14:07:00.000000 UTC, 2024-03-05 00:02:03.000000 UTC");
  EXPECT_EQ(Eval("parse_datetime", {Strings({"2024-07-01 08:00 America/New_York"}),
                                    Strings({"yyyy-MM-dd HH:mm ZZZ"})}),
            "2024-07-01 12:00:00.000000 UTC");
  EXPECT_EQ(Eval("parse_datetime", {Strings({"2024-02-30"}), Strings({"yyyy-MM-dd"})}),
            "error: Invalid format: \"2024-02-30\" for pattern \"yyyy-MM-dd\"");
  EXPECT_EQ(Eval("date_parse", {Strings({"2024/03/05 02:07:09 PM", "31-Jan-99", "2024-060"}),
                                Strings({"%Y/%m/%d %h:%i:%s %p", "%d-%b-%y", "%Y-%j"})}),
            "2024-03-05 14:07:09.000000, 1999-01-31 00:00:00.000000, 2024-02-29 00:00:00.000000");
  EXPECT_EQ(Eval("date_parse", {Strings({"2024-13-01"}), Strings({"%Y-%m-%d"})}),
            "error: Invalid format: \"2024-13-01\" for pattern \"%Y-%m-%d\"");
}

TEST(DatetimeFormatTest, Iso8601RoundTrips) {
  EXPECT_EQ(Eval("to_iso8601",
                 {Timestamps({"2024-03-05 14:07:09.000000", "2024-03-05 14:07:09.000123"})}),
            "2024-03-05T14:07:09.000, 2024-03-05T14:07:09.000123");
  EXPECT_EQ(Eval("to_iso8601", {Dates({"2024-03-05"})}), "2024-03-05");
  EXPECT_EQ(Eval("from_iso8601_timestamp",
                 {Strings({"2024-03-05T14:07:09.5+01:00", "2024-03-05", "2024-03-05T14Z"})}),
            "2024-03-05 13:07:09.500000 UTC, 2024-03-05 00:00:00.000000 UTC, 2024-03-05 "
            "14:00:00.000000 UTC");
  EXPECT_EQ(Eval("from_iso8601_date", {Strings({"2024-03-05", "2024-03"})}),
            "2024-03-05, 2024-03-01");
  EXPECT_EQ(Eval("from_iso8601_date", {Strings({"2024-3-5"})}),
            "error: Invalid format: \"2024-3-5\"");
}

TEST(DatetimeFormatTest, HumanReadableSecondsAndZones) {
  EXPECT_EQ(Eval("human_readable_seconds", {Float64s({56363463, 96, 0, 3600.4, std::nullopt})}),
            "93 weeks, 1 day, 8 hours, 31 minutes, 3 seconds, 1 minute, 36 seconds, 0 seconds, "
            "1 hour, NULL");
  EXPECT_EQ(Eval("with_timezone",
                 {Timestamps({"2024-07-01 08:00:00.000000", "2024-01-01 12:00:00.000000"}),
                  Strings({"America/New_York", "Europe/Berlin"})}),
            "2024-07-01 12:00:00.000000 UTC, 2024-01-01 11:00:00.000000 UTC");
  EXPECT_EQ(
      Eval("with_timezone", {Timestamps({"2024-07-01 08:00:00.000000"}), Strings({"Nowhere"})}),
      "error: Time zone not supported: Nowhere (use an IANA zone name such as "
      "'America/New_York' or 'Europe/Paris', or an offset such as '+05:30' or 'UTC')");
  EXPECT_EQ(Eval("from_unixtime", {Float64s({1.5}), Strings({"+02:00"})}),
            "1970-01-01 00:00:01.500000 UTC");
}

}  // namespace
}  // namespace sqe::exec
