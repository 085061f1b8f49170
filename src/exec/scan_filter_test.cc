// Pushed-down conjuncts converted to Iceberg expressions and Parquet predicates: a table of
// accepted forms with the exact output, the forms that must not convert (or only partly),
// and the Iceberg results binding to a real schema.
#include "exec/scan_filter.h"

#include <gtest/gtest.h>

#include <memory>

#include "iceberg/schema.h"

namespace sqe::exec {
namespace {

ExprPtr Col(int32_t index, columnar::TypePtr type) {
  auto e = std::make_shared<Expr>();
  e->kind = ExprKind::kColumn;
  e->column = index;
  e->type = std::move(type);
  return e;
}

ExprPtr Lit(Value v) {
  auto e = std::make_shared<Expr>();
  e->kind = ExprKind::kLiteral;
  e->type = v.type();
  e->value = std::move(v);
  return e;
}

ExprPtr Call(std::string name, std::vector<ExprPtr> args) {
  auto e = std::make_shared<Expr>();
  e->kind = ExprKind::kCall;
  e->name = std::move(name);
  e->type = columnar::Boolean();
  e->args = std::move(args);
  return e;
}

ExprPtr Node(ExprKind kind, std::vector<ExprPtr> args) {
  auto e = std::make_shared<Expr>();
  e->kind = kind;
  e->type = columnar::Boolean();
  e->args = std::move(args);
  return e;
}

// Output columns of the scan: id bigint, name varchar, day date, price decimal(10,2),
// ts timestamp(6), small integer, ratio double.
const std::vector<ScanColumn>& Columns() {
  static const std::vector<ScanColumn> columns = {
      {"id", 1, columnar::Int64()},      {"name", 2, columnar::String()},
      {"day", 3, columnar::Date32()},    {"price", 4, columnar::Decimal(10, 2)},
      {"ts", 5, columnar::Timestamp()},  {"small", 6, columnar::Int32()},
      {"ratio", 7, columnar::Float64()},
  };
  return columns;
}

ExprPtr Id() { return Col(0, columnar::Int64()); }
ExprPtr Name() { return Col(1, columnar::String()); }

std::string IcebergText(const ExprPtr& e) {
  auto converted = ToIcebergFilter(*e, Columns());
  return converted ? iceberg::expr::ToString(*converted) : "<none>";
}

// A predicate as "<column> <op> <literals>", the column by name or as #<field id>.
std::string PredText(const parquet::Predicate& p) {
  std::string out = p.column.kind == parquet::ColumnRef::Kind::kFieldId
                        ? "#" + std::to_string(p.column.field_id)
                        : p.column.path.at(0);
  out += " " + std::string(parquet::PredicateOpName(p.op));
  if (p.op == parquet::PredicateOp::kIn) {
    out += " (";
    for (size_t i = 0; i < p.values.size(); ++i) out += (i ? ", " : "") + p.values[i].ToString();
    return out + ")";
  }
  for (const parquet::Literal& v : p.values) out += " " + v.ToString();
  return out;
}

std::string ParquetText(const ExprPtr& e, ParquetColumnRefKind refs = ParquetColumnRefKind::kName) {
  std::vector<parquet::Predicate> preds = ToParquetPredicates(*e, Columns(), refs);
  if (preds.empty()) return "<none>";
  std::string out;
  for (size_t i = 0; i < preds.size(); ++i) out += (i ? " AND " : "") + PredText(preds[i]);
  return out;
}

const iceberg::Schema& TableSchema() {
  static const iceberg::Schema schema(
      0, {{1, "id", false, iceberg::Type::Primitive(iceberg::TypeId::kLong)},
          {2, "name", false, iceberg::Type::Primitive(iceberg::TypeId::kString)},
          {3, "day", false, iceberg::Type::Primitive(iceberg::TypeId::kDate)},
          {4, "price", false, iceberg::Type::Decimal(10, 2)},
          {5, "ts", false, iceberg::Type::Primitive(iceberg::TypeId::kTimestamp)},
          {6, "small", false, iceberg::Type::Primitive(iceberg::TypeId::kInt)},
          {7, "ratio", false, iceberg::Type::Primitive(iceberg::TypeId::kDouble)}});
  return schema;
}

struct Case {
  const char* what;
  ExprPtr expr;
  const char* iceberg;
  const char* parquet;
};

TEST(ScanFilterTest, ConversionTable) {
  using columnar::Decimal128;
  const std::vector<Case> cases = {
      {"column = literal", Call("=", {Id(), Lit(Value::BigInt(5))}), "id == 5", "id = 5"},
      {"literal < column flips", Call("<", {Lit(Value::BigInt(5)), Id()}), "id > 5", "id > 5"},
      {"<>", Call("<>", {Id(), Lit(Value::BigInt(7))}), "id != 7", "id != 7"},
      {"<=", Call("<=", {Id(), Lit(Value::BigInt(7))}), "id <= 7", "id <= 7"},
      {">= flipped", Call(">=", {Lit(Value::BigInt(7)), Id()}), "id <= 7", "id <= 7"},
      {"IS NULL", Node(ExprKind::kIsNull, {Name()}), "name is_null", "name IS NULL"},
      {"IS NOT NULL", Node(ExprKind::kIsNotNull, {Name()}), "name not_null", "name IS NOT NULL"},
      {"NOT IS NULL", Node(ExprKind::kNot, {Node(ExprKind::kIsNull, {Name()})}),
       "not(name is_null)", "name IS NOT NULL"},
      {"NOT comparison", Node(ExprKind::kNot, {Call("<", {Id(), Lit(Value::BigInt(3))})}),
       "not(id < 3)", "id >= 3"},
      {"IN list", Node(ExprKind::kIn, {Id(), Lit(Value::BigInt(1)), Lit(Value::BigInt(2))}),
       "id in (1, 2)", "id IN (1, 2)"},
      {"IN drops nulls",
       Node(ExprKind::kIn, {Id(), Lit(Value::BigInt(1)), Lit(Value::Null(columnar::Int64()))}),
       "id in (1)", "id IN (1)"},
      {"NOT IN with a null does not negate",
       Node(ExprKind::kNot, {Node(ExprKind::kIn, {Id(), Lit(Value::BigInt(1)),
                                                  Lit(Value::Null(columnar::Int64()))})}),
       "<none>", "<none>"},
      {"NOT IN", Node(ExprKind::kNot, {Node(ExprKind::kIn, {Id(), Lit(Value::BigInt(1))})}),
       "not(id in (1))", "<none>"},
      {"BETWEEN", Call("between", {Id(), Lit(Value::BigInt(1)), Lit(Value::BigInt(9))}),
       "(id >= 1 and id <= 9)", "id >= 1 AND id <= 9"},
      {"starts_with", Call("starts_with", {Name(), Lit(Value::Varchar("ab"))}),
       "name starts_with \"ab\"", "name >= 'ab' AND name < 'ac'"},
      {"LIKE prefix", Call("like", {Name(), Lit(Value::Varchar("ab%"))}), "name starts_with \"ab\"",
       "name >= 'ab' AND name < 'ac'"},
      {"LIKE with more pattern keeps the prefix",
       Call("like", {Name(), Lit(Value::Varchar("a_c%"))}), "name starts_with \"a\"",
       "name >= 'a' AND name < 'b'"},
      {"LIKE without wildcards is equality", Call("like", {Name(), Lit(Value::Varchar("abc"))}),
       "name == \"abc\"", "name = 'abc'"},
      {"NOT LIKE prefix",
       Node(ExprKind::kNot, {Call("like", {Name(), Lit(Value::Varchar("ab%"))})}),
       "not(name starts_with \"ab\")", "<none>"},
      {"NOT of an inexact LIKE does not convert",
       Node(ExprKind::kNot, {Call("like", {Name(), Lit(Value::Varchar("a_c%"))})}), "<none>",
       "<none>"},
      {"LIKE '%x' tells only not-null", Call("like", {Name(), Lit(Value::Varchar("%x"))}),
       "name not_null", "name IS NOT NULL"},
      {"date", Call("=", {Col(2, columnar::Date32()), Lit(Value::Date(19000))}), "day == 19000",
       "day = DATE 19000"},
      {"decimal",
       Call(">", {Col(3, columnar::Decimal(10, 2)), Lit(Value::Decimal(Decimal128(1050), 10, 2))}),
       "price > 10.50", "price > DECIMAL '10.50'"},
      {"timestamp",
       Call("<", {Col(4, columnar::Timestamp()), Lit(Value(columnar::Timestamp(), int64_t{1000}))}),
       "ts < 1000", "ts < TIMESTAMP(6) 1000"},
      {"int column, bigint literal in range",
       Call("=", {Col(5, columnar::Int32()), Lit(Value::BigInt(7))}), "small == 7", "small = 7"},
      {"int column, bigint literal out of range",
       Call("<", {Col(5, columnar::Int32()), Lit(Value::BigInt(int64_t{1} << 40))}), "<none>",
       "<none>"},
      {"double", Call(">", {Col(6, columnar::Float64()), Lit(Value::Double(0.5))}), "ratio > 0.5",
       "ratio > 0.500000"},
      {"literal of another type",
       Call("=", {Col(6, columnar::Float64()), Lit(Value::Varchar("x"))}), "<none>", "<none>"},
      {"null literal", Call("=", {Id(), Lit(Value::Null(columnar::Int64()))}), "<none>", "<none>"},
      {"function of a column", Call("=", {Call("abs", {Id()}), Lit(Value::BigInt(3))}), "<none>",
       "<none>"},
      {"column = column", Call("=", {Id(), Col(5, columnar::Int32())}), "<none>", "<none>"},
      {"OR (Iceberg only)",
       Node(ExprKind::kOr,
            {Call("=", {Id(), Lit(Value::BigInt(1))}), Call("=", {Id(), Lit(Value::BigInt(2))})}),
       "(id == 1 or id == 2)", "<none>"},
      {"OR with an unconvertible side",
       Node(ExprKind::kOr, {Call("=", {Id(), Lit(Value::BigInt(1))}), Call("abs", {Id()})}),
       "<none>", "<none>"},
      {"AND keeps its convertible part",
       Node(ExprKind::kAnd, {Call("=", {Id(), Lit(Value::BigInt(1))}), Call("abs", {Id()})}),
       "id == 1", "id = 1"},
      {"NOT of a partly converted AND does not convert",
       Node(ExprKind::kNot, {Node(ExprKind::kAnd, {Call("=", {Id(), Lit(Value::BigInt(1))}),
                                                   Call("abs", {Id()})})}),
       "<none>", "<none>"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(IcebergText(c.expr), c.iceberg) << c.what;
    EXPECT_EQ(ParquetText(c.expr), c.parquet) << c.what;
    // Whatever converts must bind to the table schema (PlanScan binds it).
    if (auto e = ToIcebergFilter(*c.expr, Columns())) {
      auto bound = iceberg::expr::Bind(*e, TableSchema());
      EXPECT_TRUE(bound.ok()) << c.what << ": " << bound.status().ToString();
    }
  }
}

TEST(ScanFilterTest, ParquetPredicatesByFieldId) {
  EXPECT_EQ(ParquetText(Call("=", {Id(), Lit(Value::BigInt(5))}), ParquetColumnRefKind::kFieldId),
            "#1 = 5");
  // A column without a field id has no field-id form.
  std::vector<ScanColumn> columns = {{"a", -1, columnar::Int64()}};
  EXPECT_TRUE(ToParquetPredicates(*Call("=", {Col(0, columnar::Int64()), Lit(Value::BigInt(5))}),
                                  columns, ParquetColumnRefKind::kFieldId)
                  .empty());
}

TEST(ScanFilterTest, ColumnIndexOutOfRangeDoesNotConvert) {
  ExprPtr e = Call("=", {Col(42, columnar::Int64()), Lit(Value::BigInt(5))});
  EXPECT_FALSE(ToIcebergFilter(*e, Columns()).has_value());
  EXPECT_TRUE(ToParquetPredicates(*e, Columns(), ParquetColumnRefKind::kName).empty());
}

TEST(ScanFilterTest, PrefixSuccessorSkipsMaxBytes) {
  std::string prefix = "a";
  prefix += static_cast<char>(0xFF);
  EXPECT_EQ(ParquetText(Call("starts_with", {Name(), Lit(Value::Varchar(prefix))})),
            "name >= 'a\xFF' AND name < 'b'");
  std::string all_max(2, static_cast<char>(0xFF));
  EXPECT_EQ(ParquetText(Call("starts_with", {Name(), Lit(Value::Varchar(all_max))})),
            "name >= '\xFF\xFF'");
  // An empty prefix is every non-null string.
  EXPECT_EQ(IcebergText(Call("starts_with", {Name(), Lit(Value::Varchar(""))})), "name not_null");
}

TEST(ScanFilterTest, SplitConjunctsFlattensNestedAnds) {
  ExprPtr a = Call("=", {Id(), Lit(Value::BigInt(1))});
  ExprPtr b = Call("<", {Id(), Lit(Value::BigInt(9))});
  ExprPtr c = Node(ExprKind::kIsNull, {Name()});
  ExprPtr nested = Node(ExprKind::kAnd, {a, Node(ExprKind::kAnd, {b, c})});
  std::vector<ExprPtr> parts = SplitConjuncts(nested);
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(parts[0], a);
  EXPECT_EQ(parts[1], b);
  EXPECT_EQ(parts[2], c);
  EXPECT_TRUE(SplitConjuncts(nullptr).empty());
  EXPECT_EQ(SplitConjuncts(a).size(), 1u);
}

TEST(ScanFilterTest, ConvertPushedFilterReportsWhatEachTargetTook) {
  std::vector<ExprPtr> conjuncts = {
      Call("=", {Id(), Lit(Value::BigInt(1))}),  // both
      Call("abs", {Id()}),                       // neither
      Node(ExprKind::kOr, {Call("=", {Id(), Lit(Value::BigInt(1))}),
                           Call("=", {Id(), Lit(Value::BigInt(2))})}),  // Iceberg only
      Call("like", {Name(), Lit(Value::Varchar("x%"))}),                // both
  };
  PushedFilter f = ConvertPushedFilter(conjuncts, Columns(), ParquetColumnRefKind::kName);
  EXPECT_EQ(f.iceberg_conjuncts, (std::vector<int>{0, 2, 3}));
  EXPECT_EQ(f.parquet_conjuncts, (std::vector<int>{0, 3}));
  ASSERT_NE(f.iceberg, nullptr);
  EXPECT_EQ(iceberg::expr::ToString(f.iceberg),
            "((id == 1 and (id == 1 or id == 2)) and name starts_with \"x\")");
  EXPECT_EQ(f.parquet.size(), 3u);  // id = 1, name >= 'x', name < 'y'
  EXPECT_TRUE(iceberg::expr::Bind(f.iceberg, TableSchema()).ok());

  PushedFilter none =
      ConvertPushedFilter({Call("abs", {Id()})}, Columns(), ParquetColumnRefKind::kName);
  EXPECT_EQ(none.iceberg, nullptr);
  EXPECT_TRUE(none.parquet.empty());
}

TEST(ScanFilterTest, BoundIcebergResidualToParquet) {
  namespace ice = iceberg::expr;
  ice::ExprPtr unbound =
      ice::And(ice::And(ice::Compare(ice::Op::kGtEq, "id", iceberg::Literal::Long(10)),
                        ice::Compare(ice::Op::kStartsWith, "name", iceberg::Literal::String("ab"))),
               ice::And(ice::In("small", {iceberg::Literal::Int(1), iceberg::Literal::Int(2)}),
                        ice::Or(ice::IsNull("day"), ice::NotNull("name"))));
  auto bound = ice::Bind(unbound, TableSchema());
  ASSERT_TRUE(bound.ok()) << bound.status().ToString();
  std::vector<parquet::Predicate> preds = IcebergToParquetPredicates(*bound);
  std::string text;
  for (const auto& p : preds) text += PredText(p) + "; ";
  // The OR has no Parquet form and is left out.
  EXPECT_EQ(text, "#1 >= 10; #2 >= 'ab'; #2 < 'ac'; #6 IN (1, 2); ");
  EXPECT_TRUE(IcebergToParquetPredicates(nullptr).empty());
}

}  // namespace
}  // namespace sqe::exec
