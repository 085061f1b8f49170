#pragma once
/// The filter a scan hands the Parquet reader for pruning: a conjunction of simple
/// predicates `column OP literal` (OP in = != < <= > >=, IS [NOT] NULL, IN list) on leaf
/// columns named by top-level name, leaf path or Iceberg field id. Binding resolves each
/// column against the file's ParquetSchema, type-checks the literals and converts them into
/// the column's statistics order (stat_value.h) and PLAIN encoding (for Bloom probes).
///
/// Semantics are SQL's: a comparison with a null value is not true, so null rows match only
/// IS NULL; NaN compares as IEEE 754 (only != is true), so a NaN literal never prunes.
/// Pruning is conservative: it only ever drops rows no predicate could accept; the engine
/// still filters what the reader returns. Value types, thread-safe.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "columnar/decimal128.h"
#include "columnar/time_unit.h"
#include "common/result.h"
#include "formats/parquet/schema_mapping.h"
#include "formats/parquet/stat_value.h"

namespace sqe::parquet {

enum class PredicateOp : uint8_t { kEq, kNe, kLt, kLe, kGt, kGe, kIsNull, kIsNotNull, kIn };

/// "=", "!=", "<", "<=", ">", ">=", "IS NULL", "IS NOT NULL", "IN".
std::string_view PredicateOpName(PredicateOp op);

/// A typed, non-null scalar.
class Literal {
 public:
  enum class Kind : uint8_t {
    kBool,
    kInt64,
    kDouble,
    kString,
    kBytes,
    kDecimal,
    kDate,       // days since 1970-01-01
    kTime,       // ticks since midnight
    kTimestamp,  // ticks since the UTC epoch
  };
  static Literal Bool(bool value);
  static Literal Int64(int64_t value);
  static Literal Double(double value);
  static Literal String(std::string value);
  static Literal Bytes(std::string value);
  static Literal Decimal(columnar::Decimal128 unscaled, int32_t scale);
  static Literal Date(int32_t days);
  static Literal Time(int64_t ticks, columnar::TimeUnit unit = columnar::TimeUnit::kMicro);
  static Literal Timestamp(int64_t ticks, columnar::TimeUnit unit = columnar::TimeUnit::kMicro);

  Kind kind() const { return kind_; }
  /// Bool (0/1), int64, date, time and timestamp ticks.
  int64_t int_value() const { return int_; }
  double double_value() const { return double_; }
  /// String and bytes.
  const std::string& bytes() const { return bytes_; }
  const columnar::Decimal128& decimal() const { return decimal_; }
  /// Decimal scale.
  int32_t scale() const { return scale_; }
  columnar::TimeUnit unit() const { return unit_; }

  /// The literal in SQL-ish form for messages: 5, 1.5, true, 'abc', X'0a', DECIMAL '1.23',
  /// DATE 19000, TIMESTAMP(6) 1700000000000000.
  std::string ToString() const;
  /// "bigint", "double", "varchar", "decimal(_,2)", "timestamp(9)" ...
  std::string TypeName() const;

 private:
  Kind kind_ = Kind::kInt64;
  int64_t int_ = 0;
  double double_ = 0;
  std::string bytes_;
  columnar::Decimal128 decimal_;
  int32_t scale_ = 0;
  columnar::TimeUnit unit_ = columnar::TimeUnit::kMicro;
};

/// Which column a predicate is on.
struct ColumnRef {
  enum class Kind : uint8_t { kName, kPath, kFieldId };
  Kind kind = Kind::kName;
  std::vector<std::string> path;  // kName: one element
  int32_t field_id = 0;

  /// A top-level column.
  static ColumnRef Name(std::string name);
  /// A leaf by its path_in_schema ({"s", "a"} for struct s's field a).
  static ColumnRef Path(std::vector<std::string> path);
  /// The leaf with this Iceberg field id (SchemaElement.field_id).
  static ColumnRef FieldId(int32_t id);
  std::string ToString() const;
};

/// One simple predicate. `values` holds one literal for the comparisons, none for the null
/// tests and the list for IN (an empty IN list matches nothing).
struct Predicate {
  ColumnRef column;
  PredicateOp op = PredicateOp::kEq;
  std::vector<Literal> values;

  /// op is one of = != < <= > >=.
  static Predicate Compare(ColumnRef column, PredicateOp op, Literal value);
  static Predicate IsNull(ColumnRef column);
  static Predicate IsNotNull(ColumnRef column);
  static Predicate In(ColumnRef column, std::vector<Literal> values);
  std::string ToString() const;
};

/// A literal in the bound column's terms.
struct BoundValue {
  /// In the column's statistics order (StatType::kind()).
  StatValue value;
  /// False when no value of the column can equal the literal (out of the physical range,
  /// more fractional digits than the column's scale, a fixed width that differs...).
  bool representable = true;
  /// The PLAIN encodings a matching value could have (two for a zero double: +0 and -0);
  /// empty when unknown, so a Bloom filter cannot rule the literal out.
  std::vector<std::string> probes;
};

/// A predicate resolved against one file's schema.
struct BoundPredicate {
  int column = 0;           // leaf index: ParquetSchema::columns and RowGroup::columns
  std::string column_name;  // dotted leaf path, for messages
  PredicateOp op = PredicateOp::kEq;
  StatType stat_type;
  /// False for a leaf that cannot be null (it and every ancestor required): IS NULL is then
  /// never true, whatever the statistics say.
  bool nullable = true;
  /// False when the literals cannot be placed exactly in the statistics order (a bigint
  /// beyond 2^53 against a float column): then only null counts prune.
  bool comparable = true;
  std::vector<BoundValue> values;
  std::string ToString() const;
};

/// Resolves and type-checks one predicate. NotFound for an unknown column (naming the
/// columns that exist), InvalidArgument for a group, a column inside a list or map, or a
/// literal whose type cannot be compared with the column's (naming both types).
Result<BoundPredicate> BindPredicate(const Predicate& predicate, const ParquetSchema& schema);

/// Binds every conjunct; the first failure is returned.
Result<std::vector<BoundPredicate>> BindPredicates(const std::vector<Predicate>& conjunction,
                                                   const ParquetSchema& schema);

}  // namespace sqe::parquet
