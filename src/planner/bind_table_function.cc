// Table functions in FROM: read_parquet(paths...), iceberg_scan(path, named options), and
// range / generate_series (integers made as they are read, DuckDB's semantics).

#include "exec/range_source.h"
#include "planner/binder_internal.h"

namespace sqe::planner {

namespace {

constexpr const char* kTableFunctions = "read_parquet, iceberg_scan, range, generate_series";

/// range(stop) / range(start, stop[, step]) with stop exclusive, or generate_series with stop
/// inclusive: the scan source of the values; nullopt-valued arguments (NULL) give no rows.
/// `args` are the evaluated arguments (integers or NULL; checked by the caller).
std::shared_ptr<ScanSource> RangeSourceFor(const std::string& fn,
                                           const std::vector<std::optional<int64_t>>& args) {
  const bool inclusive = fn == "generate_series";
  auto source = std::make_shared<ScanSource>();
  source->kind = ScanSource::Kind::kRange;
  source->schema = columnar::Schema::Make({columnar::Field(fn, columnar::Int64(), false)});
  int64_t start = 0, stop = 0, step = 1;
  bool any_null = false;
  for (const auto& a : args) any_null = any_null || !a.has_value();
  if (!any_null) {
    if (args.size() == 1) {
      stop = *args[0];
    } else {
      start = *args[0];
      stop = *args[1];
      if (args.size() == 3) step = *args[2];
    }
  }
  source->range_start = start;
  source->range_step = step;
  source->row_count = any_null ? 0 : exec::RangeSource::CountValues(start, stop, step, inclusive);
  source->distinct_bounds = {source->row_count};
  std::string shown;
  for (const auto& a : args) {
    shown += (shown.empty() ? "" : ", ") + (a ? std::to_string(*a) : std::string("NULL"));
  }
  source->display_name = fn + "(" + shown + ")";
  return source;
}

}  // namespace

Result<LogicalPtr> Binder::BindTableFunction(const ast::Relation& relation, ScopeRelation* bound) {
  std::string fn = Lower(relation.name.parts.back());
  std::shared_ptr<const ScanSource> source;
  if (fn == "read_parquet") {
    SQE_ASSIGN_OR_RETURN(source, ReadParquetSource(relation));
  } else if (fn == "iceberg_scan") {
    SQE_ASSIGN_OR_RETURN(source, IcebergScanSource(relation));
  } else if (fn == "range" || fn == "generate_series") {
    if (relation.args.empty() || relation.args.size() > 3) {
      return ErrorAt(relation.pos, fn + " takes (stop), (start, stop) or (start, stop, step)");
    }
    std::vector<std::optional<int64_t>> args;
    for (const ast::ExprPtr& arg : relation.args) {
      if (arg->kind == ast::ExprKind::kNamedArgument) {
        return ErrorAt(arg->pos, fn + " has no argument named '" + arg->text + "'");
      }
      SQE_ASSIGN_OR_RETURN(exec::Value v, BindConstantValue(*arg));
      if (v.is_null()) {
        args.push_back(std::nullopt);
      } else if (v.type()->is_integer()) {
        args.push_back(v.int_value());
      } else {
        return ErrorAt(arg->pos, fn + " takes BIGINT arguments, not " + v.type()->ToString());
      }
    }
    if (args.size() == 3 && args[2].has_value() && *args[2] == 0) {
      return ErrorAt(relation.args[2]->pos, fn + ": the step cannot be 0");
    }
    source = RangeSourceFor(fn, args);
  } else {
    return ErrorAt(relation.pos, "Table function '" + relation.name.ToString() +
                                     "' not found (available: " + kTableFunctions + ")");
  }
  LogicalPtr plan = ScanNode(std::move(source));
  *bound = RelationFor(fn, plan->output);
  return plan;
}

Result<std::shared_ptr<const ScanSource>> Binder::ReadParquetSource(const ast::Relation& relation) {
  std::vector<std::string> paths;
  for (const ast::ExprPtr& arg : relation.args) {
    if (arg->kind == ast::ExprKind::kNamedArgument) {
      return ErrorAt(arg->pos, "read_parquet has no argument named '" + arg->text + "'");
    }
    SQE_ASSIGN_OR_RETURN(exec::Value v, BindConstantValue(*arg));
    if (v.type()->id() == columnar::TypeId::kString) {
      paths.push_back(v.string_value());
    } else if (v.type()->id() == columnar::TypeId::kList && !v.is_null()) {
      for (const exec::Value& e : v.elements()) {
        if (e.is_null() || e.type()->id() != columnar::TypeId::kString) {
          return ErrorAt(arg->pos, "read_parquet takes file paths as varchar");
        }
        paths.push_back(e.string_value());
      }
    } else {
      return ErrorAt(arg->pos, "read_parquet takes a path, a glob or an ARRAY of them");
    }
  }
  if (paths.empty()) return ErrorAt(relation.pos, "read_parquet needs at least one path");
  auto source = catalog_.ReadParquet(paths);
  if (!source.ok()) return ErrorAt(relation.pos, source.status().message());
  return *source;
}

// iceberg_scan('path' [, snapshot_id => n] [, ref => 'branch'] [, version => 'n']
//              [, timestamp => TIMESTAMP '...']): an Iceberg table without a catalog.
Result<std::shared_ptr<const ScanSource>> Binder::IcebergScanSource(const ast::Relation& relation) {
  std::optional<std::string> path;
  std::string version;
  TimeTravel travel;
  int selectors = 0;
  for (const ast::ExprPtr& arg : relation.args) {
    const bool named = arg->kind == ast::ExprKind::kNamedArgument;
    const ast::Expr& value_expr = named ? *arg->left : *arg;
    SQE_ASSIGN_OR_RETURN(exec::Value v, BindConstantValue(value_expr));
    const std::string name = named ? Lower(arg->text) : (path ? "" : "path");
    if (name.empty()) {
      return ErrorAt(arg->pos,
                     "iceberg_scan takes one path; pass options by name (snapshot_id => ...)");
    }
    if (v.is_null()) return ErrorAt(arg->pos, "iceberg_scan: " + name + " must not be NULL");
    const columnar::TypeId type = v.type()->id();
    if (name == "path") {
      if (path) return ErrorAt(arg->pos, "iceberg_scan: path given twice");
      if (type != columnar::TypeId::kString) {
        return ErrorAt(arg->pos,
                       "iceberg_scan takes the path of a table directory or of a "
                       "metadata JSON file as varchar");
      }
      path = v.string_value();
    } else if (name == "snapshot_id") {
      if (!v.type()->is_integer()) {
        return ErrorAt(arg->pos, "iceberg_scan: snapshot_id must be an integer");
      }
      travel.snapshot_id = v.int_value();
      ++selectors;
    } else if (name == "ref") {
      if (type != columnar::TypeId::kString) {
        return ErrorAt(arg->pos, "iceberg_scan: ref must be a branch or tag name (varchar)");
      }
      travel.ref = v.string_value();
      ++selectors;
    } else if (name == "timestamp") {
      if (type == columnar::TypeId::kTimestamp) {
        const int64_t ticks = v.int_value();
        travel.timestamp_ms =
            v.type()->unit() == columnar::TimeUnit::kNano ? ticks / 1000000 : ticks / 1000;
      } else if (type == columnar::TypeId::kDate32) {
        travel.timestamp_ms = v.int_value() * 86400000;
      } else {
        return ErrorAt(arg->pos, "iceberg_scan: timestamp must be a timestamp");
      }
      ++selectors;
    } else if (name == "version") {
      if (type == columnar::TypeId::kString) {
        version = v.string_value();
      } else if (v.type()->is_integer()) {
        version = std::to_string(v.int_value());
      } else {
        return ErrorAt(arg->pos, "iceberg_scan: version must be a metadata version (\"3\")");
      }
    } else {
      return ErrorAt(arg->pos, "iceberg_scan has no argument named '" + name +
                                   "' (arguments: path, snapshot_id, ref, timestamp, version)");
    }
  }
  if (!path) return ErrorAt(relation.pos, "iceberg_scan needs the path of a table");
  if (selectors > 1) {
    return ErrorAt(relation.pos,
                   "iceberg_scan: give at most one of snapshot_id, ref and timestamp");
  }
  auto source = catalog_.IcebergScan(*path, version, travel);
  if (!source.ok()) {
    return Status(source.status().code(),
                  ErrorAt(relation.pos, source.status().message()).message());
  }
  return *source;
}

}  // namespace sqe::planner
