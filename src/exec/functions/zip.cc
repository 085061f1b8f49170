// zip(array1, array2, ...): Trino's zip, the arrays merged element-wise into an array of
// rows (row k holds element k of every array); a shorter array is padded with NULLs, and
// the result is NULL when any argument is NULL. Two to five arrays, as in Trino. The row
// fields are anonymous, as Trino's: array(row(integer, varchar)).

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "exec/functions/array_elements_internal.h"
#include "exec/functions/builtin_families.h"
#include "exec/functions/interleave.h"
#include "exec/functions/kernel_internal.h"

namespace sqe::exec {

using columnar::Column;
using columnar::TypePtr;
using namespace array_elements;  // NOLINT: the list builders are this file's vocabulary

namespace {

constexpr size_t kMaxZipArrays = 5;

Result<Column> Zip(const std::vector<Column>& args, int64_t rows, const ScalarFunction& fn,
                   const EvalContext& ctx) {
  std::vector<uint8_t> is_null(static_cast<size_t>(rows), 0);
  for (const Column& a : args) {
    for (int64_t i = 0; i < rows; ++i) is_null[i] |= a.IsNull(i) ? 1 : 0;
  }
  std::vector<int64_t> lengths(static_cast<size_t>(rows), 0);
  for (int64_t i = 0; i < rows; ++i) {
    if (is_null[i]) continue;
    for (const Column& a : args) lengths[i] = std::max(lengths[i], a.ListLength(i));
  }
  const TypePtr& row_type = ElementOf(fn.return_type);
  std::vector<Column> fields;
  int64_t total = 0;
  for (size_t f = 0; f < args.size(); ++f) {
    // Field f of result element (i, k): element k of array f in row i, or NULL past its end.
    const Column& a = args[f];
    std::vector<int32_t> piece;
    std::vector<uint32_t> at;
    for (int64_t i = 0; i < rows; ++i) {
      const int64_t start = is_null[i] ? 0 : a.ListStart(i);
      const int64_t length = is_null[i] ? 0 : a.ListLength(i);
      for (int64_t k = 0; k < lengths[i]; ++k) {
        piece.push_back(k < length ? 0 : -1);
        at.push_back(k < length ? static_cast<uint32_t>(start + k) : 0);
      }
    }
    total = static_cast<int64_t>(piece.size());
    SQE_ASSIGN_OR_RETURN(Column field,
                         Interleave(row_type->field(static_cast<int>(f)).type(), {a.ListValues()},
                                    piece.data(), at.data(), total, ctx));
    fields.push_back(std::move(field));
  }
  SQE_ASSIGN_OR_RETURN(Column child,
                       Column::Make(row_type, total, {nullptr}, std::move(fields), 0));
  return MakeListWithNulls(fn.return_type, rows, is_null, lengths, std::move(child), ctx);
}

}  // namespace

void RegisterZipFunction(FunctionRegistry& r) {
  AddFamily(
      r, "zip",
      [](const std::vector<TypePtr>& t) {
        if (t.size() < 2 || t.size() > kMaxZipArrays) return std::optional<ScalarFunction>();
        std::vector<TypePtr> args;
        std::vector<columnar::Field> fields;
        for (size_t f = 0; f < t.size(); ++f) {
          if (t[f] != nullptr && !IsList(t[f])) return std::optional<ScalarFunction>();
          // An untyped NULL argument: an array of booleans (the result is NULL anyway).
          TypePtr array = t[f] != nullptr ? t[f] : columnar::List(columnar::Boolean());
          fields.emplace_back("", ElementOf(array));
          args.push_back(std::move(array));
        }
        return kernel::Instance("zip", args, columnar::List(columnar::Struct(std::move(fields))),
                                Zip);
      },
      "array(row(T1, T2, ...))", "array(T1), array(T2)[, ...] (2 to 5 arrays)",
      "the arrays merged element-wise into rows; shorter arrays are padded with NULL");
}

}  // namespace sqe::exec
