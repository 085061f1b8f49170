// ROW values: the ROW(...) / (a, b) constructor over values that are not constants
// (row_constructor) and field access r.x / r[1] ("$row_field", made per row type and
// field by RowFieldFunction). The binder folds rows of constants to literals itself
// (planner/bind_row.cc); these kernels serve the rest.
//
// A ROW constructor's fields are anonymous (Trino's row(integer, varchar)): their names
// are empty, and only CAST(... AS ROW(x T, ...)) names them. A NULL row has NULL fields.

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "exec/functions/builtin_families.h"
#include "exec/functions/kernel_internal.h"
#include "exec/functions/row_functions.h"

namespace sqe::exec {

using columnar::Column;
using columnar::TypeId;
using columnar::TypePtr;

namespace {

/// Field k of row i is args[k] of row i; a row itself is never NULL.
Result<Column> RowConstructor(const std::vector<Column>& args, int64_t rows,
                              const ScalarFunction& fn, const EvalContext& ctx) {
  (void)ctx;
  return Column::Make(fn.return_type, rows, {nullptr}, args, 0);
}

}  // namespace

Result<Column> RowFieldColumn(const Column& row, int field, const EvalContext& ctx) {
  if (row.type_id() != TypeId::kStruct || field < 0 || field >= row.type()->num_fields()) {
    return Status::InvalidArgument("no field " + std::to_string(field + 1) + " in " +
                                   row.type()->ToString());
  }
  Column value = row.StructField(field);
  if (row.null_count() == 0) return value;
  int64_t nulls = 0;
  SQE_ASSIGN_OR_RETURN(columnar::BufferPtr valid,
                       kernel::IntersectValidity({&row, &value}, row.length(), ctx, &nulls));
  return kernel::WithValidity(value, std::move(valid), nulls, ctx);
}

namespace {

/// The metadata key that marks an untyped NULL's field.
constexpr const char* kUnknownField = "sqe.unknown";

}  // namespace

TypePtr AnonymousRowType(const std::vector<TypePtr>& field_types) {
  std::vector<columnar::Field> fields;
  fields.reserve(field_types.size());
  for (const TypePtr& t : field_types) {
    if (t != nullptr) {
      fields.emplace_back("", t, true);
    } else {
      fields.emplace_back("", columnar::Boolean(), true, std::nullopt,
                          columnar::KeyValueMetadata{{kUnknownField, "true"}});
    }
  }
  return columnar::Struct(std::move(fields));
}

bool IsUnknownRowField(const columnar::Field& field) {
  return field.metadata().Contains(kUnknownField);
}

Result<const ScalarFunction*> RowFieldFunction(const TypePtr& row_type, int field) {
  if (row_type == nullptr || row_type->id() != TypeId::kStruct || field < 0 ||
      field >= row_type->num_fields()) {
    return Status::InvalidArgument("no field " + std::to_string(field + 1) + " in " +
                                   (row_type == nullptr ? "unknown" : row_type->ToString()));
  }
  static std::mutex mutex;
  static std::map<std::pair<std::string, int>, std::unique_ptr<ScalarFunction>> made;
  // Field names are part of the key: row(a int) and row(b int) are different types.
  std::string key_type = row_type->ToString();
  for (const columnar::Field& f : row_type->fields()) key_type += "|" + f.name();
  std::lock_guard<std::mutex> lock(mutex);
  auto& slot = made[{std::move(key_type), field}];
  if (slot == nullptr) {
    auto fn = std::make_unique<ScalarFunction>();
    fn->name = "$row_field";
    fn->arg_types = {row_type};
    fn->return_type = row_type->field(field).type();
    fn->kernel = [field](const std::vector<Column>& args, int64_t rows, const ScalarFunction& f,
                         const EvalContext& ctx) -> Result<Column> {
      (void)rows;
      (void)f;
      return RowFieldColumn(args[0], field, ctx);
    };
    slot = std::move(fn);
  }
  return slot.get();
}

void RegisterRowFunctions(FunctionRegistry& r) {
  r.AddScalar("row_constructor",
              [](const std::vector<TypePtr>& types) -> Result<std::optional<ScalarFunction>> {
                if (types.empty()) return std::optional<ScalarFunction>();
                // An untyped NULL argument: a boolean field marked unknown.
                TypePtr row = AnonymousRowType(types);
                std::vector<TypePtr> fields;
                for (const columnar::Field& f : row->fields()) fields.push_back(f.type());
                return kernel::Instance("row_constructor", std::move(fields), std::move(row),
                                        RowConstructor);
              },
              {"row_constructor", "row(T1, ...)", "T1, ...", "scalar",
               "ROW(...) and (a, b, ...): a row of its arguments (anonymous fields)"});
}

}  // namespace sqe::exec
