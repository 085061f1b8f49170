#include "iceberg/expr/projection.h"

namespace sqe::iceberg::expr {
namespace {

ExprPtr PartitionPredicate(Op op, const PartitionField& field, const TypePtr& type,
                           std::vector<Literal> literals) {
  auto e = std::make_shared<Expression>();
  e->op = op;
  e->column = field.name;
  e->field_id = field.field_id;
  e->type = type;
  e->literals = std::move(literals);
  return e;
}

bool Integral(TypeId t) {
  return t == TypeId::kInt || t == TypeId::kLong || t == TypeId::kDate || t == TypeId::kTime ||
         t == TypeId::kTimestamp || t == TypeId::kTimestampTz || t == TypeId::kTimestampNs ||
         t == TypeId::kTimestampTzNs;
}

// v - 1 or v + 1 for the integral and decimal types (nullopt for others).
std::optional<Literal> Step(const Literal& v, int delta) {
  switch (v.type()) {
    case TypeId::kInt:
      return Literal::Int(static_cast<int32_t>(v.int_value() + delta));
    case TypeId::kLong:
      return Literal::Long(v.int_value() + delta);
    case TypeId::kDate:
      return Literal::Date(static_cast<int32_t>(v.int_value() + delta));
    case TypeId::kTime:
      return Literal::Time(v.int_value() + delta);
    case TypeId::kTimestamp:
      return Literal::Timestamp(v.int_value() + delta);
    case TypeId::kTimestampTz:
      return Literal::TimestampTz(v.int_value() + delta);
    case TypeId::kTimestampNs:
      return Literal::TimestampNs(v.int_value() + delta);
    case TypeId::kTimestampTzNs:
      return Literal::TimestampTzNs(v.int_value() + delta);
    case TypeId::kDecimal: {
      columnar::Decimal128 d = v.decimal_value();
      // Unscaled +- 1 (two's complement on the 128-bit pair).
      if (delta > 0) {
        d.low += 1;
        if (d.low == 0) d.high += 1;
      } else {
        if (d.low == 0) d.high -= 1;
        d.low -= 1;
      }
      return Literal::Decimal(d, v.scale());
    }
    default:
      return std::nullopt;
  }
}

// One predicate through one partition field; nullptr when it projects to true.
Result<ExprPtr> ProjectLeaf(const Expression& e, const PartitionField& field,
                            const TypePtr& result_type) {
  const Transform& t = field.transform;
  TransformKind kind = t.kind();
  if (kind == TransformKind::kVoid) return ExprPtr();
  if (kind == TransformKind::kIdentity) {
    return PartitionPredicate(e.op, field, result_type, e.literals);
  }
  auto apply = [&](const Literal& v) { return t.Apply(v); };
  switch (e.op) {
    case Op::kIsNull:
    case Op::kNotNull:
      return PartitionPredicate(e.op, field, result_type, {});
    case Op::kEq: {
      SQE_ASSIGN_OR_RETURN(Literal p, apply(e.literals[0]));
      return PartitionPredicate(Op::kEq, field, result_type, {p});
    }
    case Op::kIn: {
      std::vector<Literal> out;
      for (const Literal& v : e.literals) {
        SQE_ASSIGN_OR_RETURN(Literal p, apply(v));
        out.push_back(std::move(p));
      }
      return PartitionPredicate(Op::kIn, field, result_type, std::move(out));
    }
    default:
      break;
  }
  if (kind == TransformKind::kBucket) return ExprPtr();  // order is not preserved
  // truncate, year, month, day, hour: order-preserving (monotone non-decreasing).
  const Literal& v = e.literals.empty() ? Literal::Null() : e.literals[0];
  bool integral = Integral(v.type()) || v.type() == TypeId::kDecimal;
  switch (e.op) {
    case Op::kLt: {
      if (integral) {
        auto prev = Step(v, -1);
        SQE_ASSIGN_OR_RETURN(Literal p, apply(*prev));
        return PartitionPredicate(Op::kLtEq, field, result_type, {p});
      }
      SQE_ASSIGN_OR_RETURN(Literal p, apply(v));
      return PartitionPredicate(Op::kLtEq, field, result_type, {p});
    }
    case Op::kLtEq: {
      SQE_ASSIGN_OR_RETURN(Literal p, apply(v));
      return PartitionPredicate(Op::kLtEq, field, result_type, {p});
    }
    case Op::kGt: {
      if (integral) {
        auto next = Step(v, +1);
        SQE_ASSIGN_OR_RETURN(Literal p, apply(*next));
        return PartitionPredicate(Op::kGtEq, field, result_type, {p});
      }
      SQE_ASSIGN_OR_RETURN(Literal p, apply(v));
      return PartitionPredicate(Op::kGtEq, field, result_type, {p});
    }
    case Op::kGtEq: {
      SQE_ASSIGN_OR_RETURN(Literal p, apply(v));
      return PartitionPredicate(Op::kGtEq, field, result_type, {p});
    }
    case Op::kStartsWith: {
      if (kind != TransformKind::kTruncate) return ExprPtr();
      // Partition values are the first W code points: a longer prefix is cut to them.
      SQE_ASSIGN_OR_RETURN(Literal p, apply(v));
      if (p.bytes().size() < v.bytes().size()) {
        return PartitionPredicate(Op::kEq, field, result_type, {p});
      }
      return PartitionPredicate(Op::kStartsWith, field, result_type, {v});
    }
    default:  // not_eq, not_in, not_starts_with, nan checks: no inclusive projection
      return ExprPtr();
  }
}

Result<ExprPtr> ProjectNode(const ExprPtr& e, const PartitionSpec& spec, const Schema& schema) {
  switch (e->op) {
    case Op::kTrue:
    case Op::kFalse:
      return e;
    case Op::kAnd: {
      SQE_ASSIGN_OR_RETURN(ExprPtr l, ProjectNode(e->left, spec, schema));
      SQE_ASSIGN_OR_RETURN(ExprPtr r, ProjectNode(e->right, spec, schema));
      return And(l, r);
    }
    case Op::kOr: {
      SQE_ASSIGN_OR_RETURN(ExprPtr l, ProjectNode(e->left, spec, schema));
      SQE_ASSIGN_OR_RETURN(ExprPtr r, ProjectNode(e->right, spec, schema));
      return Or(l, r);
    }
    case Op::kNot:
      return Status::InvalidArgument("expression is not bound (NOT was not pushed down)");
    default: {
      if (!e->bound())
        return Status::InvalidArgument("predicate on " + e->column + " is not bound");
      ExprPtr result = True();
      for (const PartitionField& field : spec.fields()) {
        if (field.source_id != e->field_id || field.source_ids.size() > 1) continue;
        SQE_ASSIGN_OR_RETURN(TypePtr result_type, field.transform.ResultType(e->type));
        SQE_ASSIGN_OR_RETURN(ExprPtr projected, ProjectLeaf(*e, field, result_type));
        if (projected) result = And(result, projected);
      }
      return result;
    }
  }
}

}  // namespace

Result<ExprPtr> ProjectInclusive(const ExprPtr& bound, const PartitionSpec& spec,
                                 const Schema& schema) {
  return ProjectNode(bound, spec, schema);
}

}  // namespace sqe::iceberg::expr
