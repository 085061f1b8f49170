#pragma once
/// FunctionRegistry: every scalar and aggregate function SQE knows, registered once at
/// startup (one file per family registers its functions: string_functions.cc,
/// math_functions.cc, ...; see docs/dev/adding-a-function.md), and overload resolution
/// with Trino's implicit coercions. Operators are functions too: "+", "-", "*", "/", "%",
/// "negate", "=", "<>", "<", "<=", ">", ">=", "||", "like", "ilike".
///
/// Resolution returns an instance whose `arg_types` are the exact types the kernel
/// expects; the binder casts each argument whose type differs. Instances of parametric
/// signatures (decimal(p,s), varchar, arrays) are made on demand and owned by the
/// registry, so `const ScalarFunction*` stays valid for the process's lifetime.
///
/// A null TypePtr among argument types is SQL's `unknown` (an untyped NULL literal): it
/// coerces to any type.
///
/// Thread safety: Global() is built once; Resolve* and List may be called concurrently.

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "columnar/column.h"
#include "columnar/data_type.h"
#include "common/memory_tracker.h"
#include "common/result.h"

namespace sqe::exec {

/// What a kernel may need beyond its arguments.
struct EvalContext {
  std::shared_ptr<MemoryTracker> tracker;  ///< charged for result buffers (nullptr: untracked)
  int64_t query_start_micros = 0;          ///< current_timestamp / current_date / now()
  std::string time_zone = "UTC";           ///< the session's zone (IANA name or +hh:mm)
};

struct ScalarFunction;
/// Computes one result column of `rows` rows from argument columns of `rows` rows each
/// (already of fn.arg_types). Null handling is the kernel's (most propagate nulls).
using ScalarKernel =
    std::function<Result<columnar::Column>(const std::vector<columnar::Column>& args, int64_t rows,
                                           const ScalarFunction& fn, const EvalContext& ctx)>;

struct ScalarFunction {
  std::string name;
  std::vector<columnar::TypePtr> arg_types;
  columnar::TypePtr return_type;
  ScalarKernel kernel;
  bool deterministic = true;  ///< false: random(), now() may not be folded per row
};

/// A vectorized accumulator of one aggregate over many groups (hash aggregate) or one
/// group (ungrouped aggregate). Group ids are dense: 0 .. num_groups-1. Single-owner.
class GroupAccumulator {
 public:
  virtual ~GroupAccumulator() = default;
  /// Makes room for groups [0, num_groups) (new groups start empty).
  virtual Status Resize(int64_t num_groups) = 0;
  /// Adds row i of `args` (arg_types) to group group_ids[i], for i in [0, rows).
  virtual Status Update(const std::vector<columnar::Column>& args, const uint32_t* group_ids,
                        int64_t rows) = 0;
  /// Merges group g of `other` (same function) into group group_map[g] of this one,
  /// for g in [0, other's group count).
  virtual Status Merge(GroupAccumulator& other, const uint32_t* group_map) = 0;
  /// One row per group, of return_type.
  virtual Result<columnar::Column> Finalize() = 0;
  /// Bytes held (for the MemoryTracker and spilling decisions).
  virtual int64_t MemoryUsage() const = 0;
};

struct AggregateFunction {
  std::string name;
  std::vector<columnar::TypePtr> arg_types;
  columnar::TypePtr return_type;
  bool distinct = false;  ///< count(DISTINCT x): duplicates per group count once
  /// A fresh accumulator; reservations go to `tracker` (may be nullptr).
  std::function<Result<std::unique_ptr<GroupAccumulator>>(std::shared_ptr<MemoryTracker> tracker)>
      make_accumulator;
};

/// One row of SHOW FUNCTIONS.
struct FunctionInfo {
  std::string name;
  std::string return_type;     ///< "bigint", "decimal(p,s)", "T"
  std::string argument_types;  ///< "varchar, bigint"
  std::string kind;            ///< "scalar" or "aggregate"
  std::string description;
};

/// A signature family: decides whether it takes `arg_types` and with which instance.
/// Returns nullopt when it does not apply; an error when it applies but cannot (e.g. a
/// decimal result past 38 digits).
using ScalarResolver = std::function<Result<std::optional<ScalarFunction>>(
    const std::vector<columnar::TypePtr>& arg_types)>;
using AggregateResolver = std::function<Result<std::optional<AggregateFunction>>(
    const std::vector<columnar::TypePtr>& arg_types, bool distinct)>;

class FunctionRegistry {
 public:
  /// The process-wide registry with every built-in function.
  static const FunctionRegistry& Global();

  /// The best overload of scalar `name` (case-insensitive) for arguments of `arg_types`:
  /// an exact match first, else the one needing the fewest implicit coercions (Trino's
  /// rules: tinyint < smallint < integer < bigint < decimal < real < double, date ->
  /// timestamp, varchar(n) -> varchar, unknown (NULL) -> anything). NotFound naming the
  /// function and the argument types when nothing matches ("function 'substr' cannot be
  /// applied to (bigint); candidates: substr(varchar, bigint), ..."), or when there is no
  /// such function (with a close name when one exists).
  Result<const ScalarFunction*> ResolveScalar(
      std::string_view name, const std::vector<columnar::TypePtr>& arg_types) const;
  Result<const AggregateFunction*> ResolveAggregate(std::string_view name,
                                                    const std::vector<columnar::TypePtr>& arg_types,
                                                    bool distinct) const;
  bool IsAggregate(std::string_view name) const;
  bool IsScalar(std::string_view name) const;
  std::vector<FunctionInfo> List() const;

  // Registration (startup only; not thread-safe against concurrent Resolve).
  void AddScalar(std::string name, ScalarResolver resolver, FunctionInfo info);
  void AddAggregate(std::string name, AggregateResolver resolver, FunctionInfo info);
  /// Convenience: a fixed signature.
  void AddScalar(ScalarFunction function, std::string description = "");

 private:
  struct ScalarFamily;
  struct AggregateFamily;
  std::unordered_map<std::string, std::vector<ScalarResolver>> scalars_;
  std::unordered_map<std::string, std::vector<AggregateResolver>> aggregates_;
  std::vector<FunctionInfo> infos_;
  // Instances handed out by Resolve* (stable addresses).
  mutable std::mutex mutex_;
  mutable std::unordered_map<std::string, std::unique_ptr<ScalarFunction>> scalar_instances_;
  mutable std::unordered_map<std::string, std::unique_ptr<AggregateFunction>> aggregate_instances_;
};

/// The type both `a` and `b` coerce to implicitly (CASE branches, COALESCE, IN lists,
/// UNION columns, comparison operands): integer + bigint -> bigint, integer + decimal(5,2)
/// -> decimal(12,2), decimal + double -> double, date + timestamp -> timestamp, varchar +
/// varchar -> varchar; nullopt when there is none (varchar vs integer).
std::optional<columnar::TypePtr> CommonSuperType(const columnar::TypePtr& a,
                                                 const columnar::TypePtr& b);
/// The type of an empty `ARRAY[]`: Trino's array(unknown), kept as a list of boolean whose
/// element field is marked, so that CommonSuperType lets any array type win over it.
columnar::TypePtr UnknownElementArray();
/// Whether `type` is the marked array type of an empty `ARRAY[]` (UnknownElementArray).
bool IsUnknownElementArray(const columnar::TypePtr& type);
/// Whether a value of `from` may be used where `to` is expected without an explicit CAST.
bool CanCoerceImplicitly(const columnar::TypePtr& from, const columnar::TypePtr& to);

}  // namespace sqe::exec
