// sequence(start, stop[, step]) with Trino's rules, in its two forms:
// * over bigint (step default 1 or -1) and over date (a step of days as bigint, or the
//   default 1 or -1 day);
// * with an INTERVAL step over dates and timestamps. SQE has no INTERVAL type, so the binder
//   (Binder::BindFunctionCall) rewrites such a call to the hidden
//   "$sequence_interval"(start, stop, amount, unit) where unit is 'month' (a YEAR TO MONTH
//   interval in months) or 'millisecond' (a DAY TO SECOND interval in milliseconds); SHOW
//   FUNCTIONS lists it as "sequence".
//
// Dates step by whole days (a DAY TO SECOND step must be a multiple of a day) or by months;
// timestamps step by ticks or by months (the time of day kept, the day clamped to the end
// of a shorter month: Jan 31 + 1 month = Feb 28/29). Element k is start + k * step, as in
// Trino, so a month sequence from Jan 31 goes Jan 31, Feb 29, Mar 31. Every form refuses a
// zero step, a step away from stop, and more than 10000 elements, with Trino's messages.

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "columnar/civil_time.h"
#include "exec/functions/array_elements_internal.h"
#include "exec/functions/builtin_families.h"
#include "exec/functions/calendar_months_internal.h"
#include "exec/functions/kernel_internal.h"
#include "exec/functions/registry.h"

namespace sqe::exec {

using columnar::Column;
using columnar::TypeId;
using columnar::TypePtr;
using namespace array_elements;  // NOLINT: the list builders are this file's vocabulary

namespace {

constexpr int64_t kMaxEntries = 10000;
constexpr int64_t kMillisPerDay = 86'400'000;

using calendar::AddMonths;
using calendar::FloorDivide;
using calendar::MonthsBetween;

Status CheckStep(int64_t start, int64_t stop, int64_t step) {
  if (step == 0) return Status::InvalidArgument("step must not be zero");
  if (step > 0 ? stop < start : stop > start) {
    return Status::InvalidArgument(
        "sequence stop value should be greater than or equal to start value if step is "
        "greater than zero otherwise stop should be less than or equal to start");
  }
  return Status::OK();
}

Status TooMany() {
  return Status::InvalidArgument(
      "result of sequence function must not have more than 10000 entries");
}

/// Appends start, start + step, ... up to stop to *out.
Status FixedStepRow(int64_t start, int64_t stop, int64_t step, std::vector<int64_t>* out) {
  SQE_RETURN_NOT_OK(CheckStep(start, stop, step));
  const __int128 count = (static_cast<__int128>(stop) - start) / step + 1;
  if (count > kMaxEntries) return TooMany();
  for (int64_t k = 0; k < static_cast<int64_t>(count); ++k) out->push_back(start + k * step);
  return Status::OK();
}

/// The list column of `type` whose row i holds lengths[i] of `values` (32-bit dates or
/// 64-bit integers and timestamps), NULL where is_null[i].
Result<Column> ListOfValues(const TypePtr& type, const std::vector<uint8_t>& is_null,
                            const std::vector<int64_t>& lengths, const std::vector<int64_t>& values,
                            const EvalContext& ctx) {
  const TypePtr& element = ElementOf(type);
  const bool narrow = element->id() == TypeId::kDate32;
  const int64_t n = static_cast<int64_t>(values.size());
  SQE_ASSIGN_OR_RETURN(auto buffer, kernel::AllocateBuffer(n * (narrow ? 4 : 8), ctx));
  for (int64_t k = 0; k < n; ++k) {
    if (narrow) {
      buffer->mutable_data_as<int32_t>()[k] = static_cast<int32_t>(values[k]);
    } else {
      buffer->mutable_data_as<int64_t>()[k] = values[k];
    }
  }
  SQE_ASSIGN_OR_RETURN(Column child, kernel::MakeFixed(element, n, nullptr, 0, std::move(buffer)));
  return MakeListWithNulls(type, static_cast<int64_t>(is_null.size()), is_null, lengths,
                           std::move(child), ctx);
}

/// 1 where any argument is NULL in row i.
std::vector<uint8_t> AnyNull(const std::vector<Column>& args, int64_t rows) {
  std::vector<uint8_t> out(static_cast<size_t>(rows), 0);
  for (const Column& a : args) {
    for (int64_t i = 0; i < rows; ++i) out[i] |= a.IsNull(i) ? 1 : 0;
  }
  return out;
}

/// Row i's start or stop (a date's days or a 64-bit value).
int64_t BoundAt(const Column& c, int64_t i) {
  return c.type_id() == TypeId::kDate32 ? c.Value<int32_t>(i) : c.Value<int64_t>(i);
}

/// The sequences of all rows: append_row(i, &values) appends row i's elements (rows with a
/// NULL argument are NULL).
template <typename AppendRow>
Result<Column> Sequences(const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
                         const EvalContext& ctx, AppendRow append_row) {
  std::vector<uint8_t> is_null = AnyNull(args, rows);
  std::vector<int64_t> lengths(static_cast<size_t>(rows), 0);
  std::vector<int64_t> values;
  for (int64_t i = 0; i < rows; ++i) {
    if (is_null[i]) continue;
    const size_t before = values.size();
    SQE_RETURN_NOT_OK(append_row(i, &values));
    lengths[i] = static_cast<int64_t>(values.size() - before);
  }
  return ListOfValues(fn.return_type, is_null, lengths, values, ctx);
}

/// sequence(start, stop[, step]) over bigint, or over date with a step of days.
Result<Column> Sequence(const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
                        const EvalContext& ctx) {
  return Sequences(args, rows, fn, ctx, [&](int64_t i, std::vector<int64_t>* out) {
    const int64_t start = BoundAt(args[0], i);
    const int64_t stop = BoundAt(args[1], i);
    const int64_t step = args.size() > 2 ? args[2].Value<int64_t>(i) : (start <= stop ? 1 : -1);
    return FixedStepRow(start, stop, step, out);
  });
}

/// Appends the values of one row's sequence to *out.
Status SequenceRow(bool is_date, int64_t per_second, int64_t start, int64_t stop, int64_t amount,
                   bool months, std::vector<int64_t>* out) {
  const int64_t per_day = is_date ? 1 : 86'400 * per_second;
  if (months) {
    SQE_RETURN_NOT_OK(CheckStep(start, stop, amount));
    const __int128 count = MonthsBetween(start, stop, per_day) / amount + 1;
    if (count > kMaxEntries) return TooMany();
    const int64_t start_day = FloorDivide(start, per_day);
    const int64_t time_of_day = start - start_day * per_day;
    for (int64_t k = 0; k < static_cast<int64_t>(count); ++k) {
      out->push_back(AddMonths(start_day, k * amount) * per_day + time_of_day);
    }
    return Status::OK();
  }
  int64_t step = 0;
  if (is_date) {
    if (amount % kMillisPerDay != 0) {
      return Status::InvalidArgument(
          "sequence step must be a day interval if start and end values are dates");
    }
    step = amount / kMillisPerDay;
  } else if (per_second >= 1000) {
    if (__builtin_mul_overflow(amount, per_second / 1000, &step)) return TooMany();
  } else {
    step = amount / (1000 / per_second);
  }
  return FixedStepRow(start, stop, step, out);
}

Result<Column> SequenceByInterval(const std::vector<Column>& args, int64_t rows,
                                  const ScalarFunction& fn, const EvalContext& ctx) {
  const TypePtr& element = ElementOf(fn.return_type);
  const bool is_date = element->id() == TypeId::kDate32;
  const int64_t per_second = is_date ? 1 : columnar::TicksPerSecond(element->unit());
  return Sequences(args, rows, fn, ctx, [&](int64_t i, std::vector<int64_t>* out) {
    return SequenceRow(is_date, per_second, BoundAt(args[0], i), BoundAt(args[1], i),
                       args[2].Value<int64_t>(i), args[3].StringAt(i) == "month", out);
  });
}

bool IsTemporal(const TypePtr& t) {
  return t != nullptr &&
         (t->id() == TypeId::kDate32 || (t->id() == TypeId::kTimestamp && !t->has_timezone()));
}

}  // namespace

void RegisterSequenceFunctions(FunctionRegistry& r) {
  AddFamily(
      r, "sequence",
      [](const std::vector<TypePtr>& t) {
        if (t.size() < 2 || t.size() > 3) return std::optional<ScalarFunction>();
        const bool date = t[0] != nullptr && t[0]->id() == TypeId::kDate32 && t[1] != nullptr &&
                          t[1]->id() == TypeId::kDate32;
        std::vector<TypePtr> args = {date ? columnar::Date32() : columnar::Int64(),
                                     date ? columnar::Date32() : columnar::Int64()};
        if (t.size() == 3) args.push_back(columnar::Int64());
        return kernel::Instance("sequence", args, columnar::List(args[0]), Sequence);
      },
      "array(bigint) | array(date)", "bigint, bigint[, bigint] | date, date[, bigint days]",
      "the values from start to stop (inclusive) by step (default 1 or -1); at most 10000");
  r.AddScalar("$sequence_interval",
              [](const std::vector<TypePtr>& t) -> Result<std::optional<ScalarFunction>> {
                if (t.size() != 4) return std::optional<ScalarFunction>();
                TypePtr element = t[0] != nullptr ? t[0] : t[1];
                if (element == nullptr) element = columnar::Date32();
                if (t[1] != nullptr && !t[1]->Equals(*element)) {
                  std::optional<TypePtr> common = CommonSuperType(element, t[1]);
                  if (common.has_value()) element = *common;
                }
                if (!IsTemporal(element) || (t[0] != nullptr && !IsTemporal(t[0])) ||
                    (t[1] != nullptr && !IsTemporal(t[1]))) {
                  return Status::InvalidArgument(
                      "sequence with an INTERVAL step takes two dates or two timestamps, got " +
                      (t[0] != nullptr ? t[0]->ToString() : std::string("unknown")) + ", " +
                      (t[1] != nullptr ? t[1]->ToString() : std::string("unknown")));
                }
                return kernel::Instance("sequence",
                                        {element, element, columnar::Int64(), columnar::String()},
                                        columnar::List(element), SequenceByInterval);
              },
              {"sequence", "array(date) | array(timestamp)",
               "date, date, interval | timestamp, timestamp, interval", "scalar",
               "the dates or timestamps from start to stop (inclusive) by an INTERVAL step (days, "
               "months, or for timestamps any DAY TO SECOND step); at most 10000"});
}

}  // namespace sqe::exec
