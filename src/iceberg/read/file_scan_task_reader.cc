#include "iceberg/read/file_scan_task_reader.h"

#include <algorithm>
#include <functional>
#include <nlohmann/json.hpp>

#include "columnar/binary_builder.h"
#include "columnar/boolean_builder.h"
#include "columnar/column_builder.h"
#include "columnar/fixed_size_binary_builder.h"
#include "columnar/fixed_width_builder.h"
#include "columnar/take.h"
#include "formats/parquet/row_group_pruning.h"
#include "iceberg/columnar_schema.h"
#include "iceberg/expr/evaluators.h"

namespace sqe::iceberg {
namespace {

using columnar::Column;
using CT = columnar::TypeId;

template <typename From, typename To>
Result<Column> Widen(const Column& c, const columnar::TypePtr& target, To (*convert)(From)) {
  columnar::FixedWidthBuilder<To> b(target);
  SQE_RETURN_NOT_OK(b.Reserve(c.length()));
  for (int64_t i = 0; i < c.length(); ++i) {
    if (c.IsNull(i)) {
      SQE_RETURN_NOT_OK(b.AppendNull());
    } else {
      SQE_RETURN_NOT_OK(b.Append(convert(c.Value<From>(i))));
    }
  }
  return b.Finish();
}

// A column of `n` copies of `value` (null: all null).
Result<Column> ConstantColumn(const Literal& value, const columnar::TypePtr& type, int64_t n) {
  if (value.is_null()) return Column::MakeAllNull(type, n);
  SQE_ASSIGN_OR_RETURN(auto builder, columnar::MakeBuilder(type));
  SQE_RETURN_NOT_OK(builder->Reserve(n));
  auto fill = [&](auto* b, auto v) -> Status {
    for (int64_t i = 0; i < n; ++i) SQE_RETURN_NOT_OK(b->Append(v));
    return Status::OK();
  };
  switch (type->id()) {
    case CT::kBoolean:
      SQE_RETURN_NOT_OK(
          fill(static_cast<columnar::BooleanBuilder*>(builder.get()), value.bool_value()));
      break;
    case CT::kInt32:
    case CT::kDate32:
      SQE_RETURN_NOT_OK(fill(static_cast<columnar::Int32Builder*>(builder.get()),
                             static_cast<int32_t>(value.int_value())));
      break;
    case CT::kInt64:
    case CT::kTime64:
    case CT::kTimestamp:
      SQE_RETURN_NOT_OK(
          fill(static_cast<columnar::Int64Builder*>(builder.get()), value.int_value()));
      break;
    case CT::kFloat32:
      SQE_RETURN_NOT_OK(fill(static_cast<columnar::Float32Builder*>(builder.get()),
                             static_cast<float>(value.double_value())));
      break;
    case CT::kFloat64:
      SQE_RETURN_NOT_OK(
          fill(static_cast<columnar::Float64Builder*>(builder.get()), value.double_value()));
      break;
    case CT::kDecimal128:
      SQE_RETURN_NOT_OK(
          fill(static_cast<columnar::Decimal128Builder*>(builder.get()), value.decimal_value()));
      break;
    case CT::kString:
    case CT::kBinary:
      SQE_RETURN_NOT_OK(fill(static_cast<columnar::BinaryBuilder*>(builder.get()),
                             std::string_view(value.bytes())));
      break;
    case CT::kFixedSizeBinary:
    case CT::kUuid:
      SQE_RETURN_NOT_OK(fill(static_cast<columnar::FixedSizeBinaryBuilder*>(builder.get()),
                             std::string_view(value.bytes())));
      break;
    default:
      return Status::NotImplemented("a constant " + type->ToString() + " column");
  }
  return builder->Finish();
}

// The field's initial-default (v3) as a literal of its type; nullopt without one.
Result<std::optional<Literal>> InitialDefault(const NestedField& f) {
  if (!f.initial_default_json || !f.type->is_primitive()) return std::optional<Literal>();
  nlohmann::json j = nlohmann::json::parse(*f.initial_default_json, nullptr, false);
  Literal raw = Literal::Null();
  if (j.is_boolean()) {
    raw = Literal::Boolean(j.get<bool>());
  } else if (j.is_number_integer()) {
    raw = Literal::Long(j.get<int64_t>());
  } else if (j.is_number()) {
    raw = Literal::Double(j.get<double>());
  } else if (j.is_string() && f.type->id() == iceberg::TypeId::kDecimal) {
    SQE_ASSIGN_OR_RETURN(raw, Literal::DecimalFromString(j.get<std::string>()));
  } else if (j.is_string()) {
    raw = Literal::String(j.get<std::string>());
  } else if (j.is_null()) {
    return std::optional<Literal>();
  } else {
    return Status::NotImplemented("initial-default " + *f.initial_default_json + " of column '" +
                                  f.name + "'");
  }
  auto converted = expr::ConvertLiteral(raw, *f.type);
  if (!converted.ok()) {
    return Status::InvalidArgument("initial-default " + *f.initial_default_json + " of column '" +
                                   f.name + "' is not a " + f.type->ToString() + ": " +
                                   converted.status().message());
  }
  return std::optional<Literal>(*converted);
}

void CollectIds(const expr::ExprPtr& e, std::vector<int32_t>* out) {
  if (!e) return;
  if (e->is_predicate()) {
    if (std::find(out->begin(), out->end(), e->field_id) == out->end()) out->push_back(e->field_id);
    return;
  }
  CollectIds(e->left, out);
  CollectIds(e->right, out);
}

int64_t RowGroupStart(const parquet::RowGroup& rg) {
  if (!rg.columns.empty() && rg.columns[0].meta_data) {
    const auto& m = *rg.columns[0].meta_data;
    int64_t start = m.data_page_offset;
    if (m.dictionary_page_offset && *m.dictionary_page_offset > 0)
      start = std::min(start, *m.dictionary_page_offset);
    return start;
  }
  return rg.file_offset.value_or(0);
}

}  // namespace

Result<Column> ConformColumn(const Column& c, const columnar::TypePtr& target,
                             const std::string& name) {
  if (c.type()->Equals(*target)) return c;
  const CT from = c.type_id();
  const CT to = target->id();
  if (from == CT::kInt32 && to == CT::kInt64) {
    return Widen<int32_t, int64_t>(c, target, [](int32_t v) { return static_cast<int64_t>(v); });
  }
  if (from == CT::kFloat32 && to == CT::kFloat64) {
    return Widen<float, double>(c, target, [](float v) { return static_cast<double>(v); });
  }
  if (from == CT::kDecimal128 && to == CT::kDecimal128 && c.type()->scale() == target->scale() &&
      c.type()->precision() <= target->precision()) {
    return Column::Make(target, c.length(), c.buffers(), {}, c.null_count(), c.offset());
  }
  if (from == CT::kDate32 && to == CT::kTimestamp) {
    if (target->unit() == columnar::TimeUnit::kNano) {
      return Widen<int32_t, int64_t>(
          c, target, [](int32_t d) { return static_cast<int64_t>(d) * 86'400'000'000'000; });
    }
    return Widen<int32_t, int64_t>(
        c, target, [](int32_t d) { return static_cast<int64_t>(d) * 86'400'000'000; });
  }
  if (from == CT::kStruct && to == CT::kStruct) {
    // Struct fields by id: renamed, reordered, added (null) and promoted children.
    Column dense = c;
    if (c.offset() != 0) {
      SQE_ASSIGN_OR_RETURN(dense, columnar::Take(c, columnar::SelectionVector::Range(
                                                        0, static_cast<uint32_t>(c.length()))));
    }
    std::vector<Column> children;
    for (const columnar::Field& tf : target->fields()) {
      int found = -1;
      for (int i = 0; i < dense.type()->num_fields(); ++i) {
        if (tf.field_id() && dense.type()->field(i).field_id() == tf.field_id()) found = i;
      }
      if (found < 0) {
        SQE_ASSIGN_OR_RETURN(auto nulls, Column::MakeAllNull(tf.type(), dense.length()));
        children.push_back(std::move(nulls));
      } else {
        SQE_ASSIGN_OR_RETURN(
            auto child, ConformColumn(dense.StructField(found), tf.type(), name + "." + tf.name()));
        children.push_back(std::move(child));
      }
    }
    return Column::Make(target, dense.length(), {dense.validity()}, std::move(children),
                        dense.null_count());
  }
  return Status::InvalidArgument("column '" + name + "' is " + c.type()->ToString() +
                                 " in the data file but " + target->ToString() +
                                 " in the table schema, which is not a type promotion Iceberg "
                                 "allows");
}

Result<std::unique_ptr<FileScanTaskReader>> FileScanTaskReader::Open(io::FileSystem& fs,
                                                                     const FileScanTask& task,
                                                                     TaskReaderOptions options,
                                                                     DeleteLoader& deletes) {
  if (!options.schema) return Status::InvalidArgument("TaskReaderOptions.schema is required");
  std::unique_ptr<FileScanTaskReader> r(new FileScanTaskReader());
  r->task_ = task;
  const Schema& schema = *options.schema;
  auto add = [&](int32_t id, const char* why) -> Status {
    for (const NestedField& f : r->fields_) {
      if (f.id == id) return Status::OK();
    }
    for (const NestedField& f : schema.fields()) {
      if (f.id == id) {
        r->fields_.push_back(f);
        return Status::OK();
      }
    }
    return Status::NotImplemented(std::string(why) + " refers to field id " + std::to_string(id) +
                                  ", which is not a top-level column of the table schema");
  };
  if (options.projected_ids.empty()) {
    for (const NestedField& f : schema.fields()) r->fields_.push_back(f);
  } else {
    for (int32_t id : options.projected_ids) SQE_RETURN_NOT_OK(add(id, "the projection"));
  }
  SQE_ASSIGN_OR_RETURN(r->output_schema_, ToColumnarSchema(Schema(0, r->fields_)));
  // Equality delete keys and the residual may need columns outside the projection.
  for (const DataFile& d : task.deletes) {
    if (d.content != FileContent::kEqualityDeletes) continue;
    for (int32_t id : d.equality_ids) SQE_RETURN_NOT_OK(add(id, "an equality delete file"));
    SQE_ASSIGN_OR_RETURN(auto set, deletes.EqualityDeletes(d, schema));
    r->equality_.push_back(std::move(set));
  }
  if (options.apply_residual && task.residual && task.residual->op != expr::Op::kTrue) {
    CollectIds(task.residual, &r->filter_ids_);
    for (int32_t id : r->filter_ids_) SQE_RETURN_NOT_OK(add(id, "the scan filter"));
  }
  SQE_ASSIGN_OR_RETURN(r->internal_schema_, ToColumnarSchema(Schema(0, r->fields_)));
  // add() put every key and filter id into fields_, so each has an index.
  auto index_of = [&](int32_t id) {
    for (int i = 0; i < static_cast<int>(r->fields_.size()); ++i) {
      if (r->fields_[i].id == id) return i;
    }
    return -1;
  };
  for (const auto& set : r->equality_) {
    std::vector<int> cols;
    for (int32_t id : set->field_ids) cols.push_back(index_of(id));
    r->key_columns_.push_back(std::move(cols));
  }
  for (int32_t id : r->filter_ids_) r->filter_columns_.push_back(index_of(id));
  SQE_ASSIGN_OR_RETURN(r->deleted_, deletes.DeletedPositions(task.file, task.deletes));

  SQE_ASSIGN_OR_RETURN(auto in,
                       fs.OpenForReadWithSize(task.file.file_path, task.file.file_size_in_bytes));
  parquet::ReaderOptions ro;
  for (const NestedField& f : r->fields_) ro.field_ids.push_back(f.id);
  SQE_ASSIGN_OR_RETURN(r->reader_, parquet::ParquetFileReader::Open(std::move(in), ro));
  int64_t row = 0;
  const auto& groups = r->reader_->metadata().row_groups;
  for (int g = 0; g < static_cast<int>(groups.size()); ++g) {
    r->first_row_.push_back(row);
    row += groups[g].num_rows;
    int64_t start = RowGroupStart(groups[g]);
    if (start >= task.start && start < task.start + task.length) r->row_groups_.push_back(g);
  }
  if (!options.predicate.empty() && !r->row_groups_.empty()) {
    std::vector<parquet::BoundPredicate> bound;
    for (const parquet::Predicate& p : options.predicate) {
      auto b = parquet::BindPredicate(p, r->reader_->file_schema());
      if (b.ok()) bound.push_back(std::move(*b));
    }
    if (!bound.empty()) {
      std::vector<int> kept;
      for (int g : r->row_groups_) {
        SQE_ASSIGN_OR_RETURN(bool keep, parquet::RowGroupMayMatchWithBloom(
                                            *r->reader_->file(), r->reader_->metadata(), g, bound));
        if (keep) {
          kept.push_back(g);
        } else {
          r->stats_.row_groups_skipped++;
        }
      }
      r->row_groups_ = std::move(kept);
    }
  }
  if (options.batch_size <= 0) options.batch_size = 8192;
  r->options_ = std::move(options);
  return r;
}

Result<Column> FileScanTaskReader::MissingColumn(int index, int64_t rows) const {
  const NestedField& f = fields_[index];
  const columnar::TypePtr& type = internal_schema_->fields()[index].type();
  if (options_.spec != nullptr) {
    const auto& pf = options_.spec->fields();
    for (size_t k = 0; k < pf.size() && k < task_.file.partition.size(); ++k) {
      if (pf[k].source_id == f.id && pf[k].transform.kind() == TransformKind::kIdentity &&
          task_.file.partition[k]) {
        SQE_ASSIGN_OR_RETURN(Literal v, expr::ConvertLiteral(*task_.file.partition[k], *f.type));
        return ConstantColumn(v, type, rows);
      }
    }
  }
  SQE_ASSIGN_OR_RETURN(auto def, InitialDefault(f));
  if (def) return ConstantColumn(*def, type, rows);
  if (f.required) {
    return Status::InvalidArgument("required column '" + f.name + "' (id " + std::to_string(f.id) +
                                   ") is missing from data file " + task_.file.file_path +
                                   " and has no initial-default");
  }
  return Column::MakeAllNull(type, rows);
}

Status FileScanTaskReader::LoadRowGroup() {
  int g = row_groups_[next_group_++];
  SQE_ASSIGN_OR_RETURN(columnar::Batch file_batch, reader_->ReadRowGroup(g));
  stats_.row_groups++;
  stats_.rows_read += file_batch.num_rows();
  const auto& file_fields = file_batch.schema()->fields();
  std::vector<Column> columns;
  for (int i = 0; i < static_cast<int>(fields_.size()); ++i) {
    const columnar::Field& target = internal_schema_->fields()[i];
    int found = -1;
    for (int k = 0; k < static_cast<int>(file_fields.size()); ++k) {
      if (file_fields[k].field_id() == fields_[i].id) found = k;
    }
    if (found < 0) {
      SQE_ASSIGN_OR_RETURN(auto c, MissingColumn(i, file_batch.num_rows()));
      columns.push_back(std::move(c));
    } else {
      SQE_ASSIGN_OR_RETURN(auto c,
                           ConformColumn(file_batch.column(found), target.type(), target.name()));
      columns.push_back(std::move(c));
    }
  }
  SQE_ASSIGN_OR_RETURN(
      current_, columnar::Batch::Make(internal_schema_, std::move(columns), file_batch.num_rows()));
  current_pos_ = first_row_[g];
  current_offset_ = 0;
  return Status::OK();
}

Result<columnar::SelectionVector> FileScanTaskReader::KeptRows(
    const columnar::Batch& slice, int64_t base, std::vector<int64_t>::const_iterator del) {
  const int64_t n = slice.num_rows();
  std::vector<Literal> row_values(filter_ids_.size(), Literal::Null());
  columnar::SelectionVector keep;
  keep.Reserve(n);
  std::string key;
  for (int64_t r = 0; r < n; ++r) {
    const int64_t pos = base + r;
    while (del != deleted_.end() && *del < pos) ++del;
    if (del != deleted_.end() && *del == pos) {
      stats_.rows_deleted_by_position++;
      continue;
    }
    bool deleted = false;
    for (size_t s = 0; s < equality_.size() && !deleted; ++s) {
      key.clear();
      for (int c : key_columns_[s]) SQE_RETURN_NOT_OK(AppendRowKey(slice.column(c), r, &key));
      deleted = equality_[s]->keys.count(key) > 0;
    }
    if (deleted) {
      stats_.rows_deleted_by_equality++;
      continue;
    }
    if (!filter_ids_.empty()) {
      for (size_t k = 0; k < filter_ids_.size(); ++k) {
        SQE_ASSIGN_OR_RETURN(row_values[k], LiteralAt(slice.column(filter_columns_[k]), r,
                                                      *fields_[filter_columns_[k]].type));
      }
      SQE_ASSIGN_OR_RETURN(bool match,
                           expr::Evaluate(task_.residual, [&](int32_t id) -> const Literal* {
                             for (size_t k = 0; k < filter_ids_.size(); ++k) {
                               if (filter_ids_[k] == id)
                                 return row_values[k].is_null() ? nullptr : &row_values[k];
                             }
                             return nullptr;
                           }));
      if (!match) {
        stats_.rows_filtered++;
        continue;
      }
    }
    keep.Append(static_cast<uint32_t>(r));
  }
  return keep;
}

Result<std::optional<columnar::Batch>> FileScanTaskReader::Next() {
  while (true) {
    if (current_offset_ >= current_.num_rows()) {
      if (next_group_ >= row_groups_.size()) return std::optional<columnar::Batch>();
      SQE_RETURN_NOT_OK(LoadRowGroup());
      continue;
    }
    const int64_t n = std::min(options_.batch_size, current_.num_rows() - current_offset_);
    columnar::Batch rows = current_.Slice(current_offset_, n);
    const int64_t base = current_pos_ + current_offset_;
    current_offset_ += n;
    auto del = std::lower_bound(deleted_.cbegin(), deleted_.cend(), base);
    // A slice with no deletes and no residual to apply keeps every row: no row-by-row pass.
    if (!filter_ids_.empty() || !equality_.empty() || (del != deleted_.cend() && *del < base + n)) {
      SQE_ASSIGN_OR_RETURN(columnar::SelectionVector keep, KeptRows(rows, base, del));
      if (keep.empty()) continue;
      if (keep.size() != n) {
        SQE_ASSIGN_OR_RETURN(rows, columnar::Take(rows, keep));
      }
    }
    std::vector<Column> out_columns(rows.columns().begin(),
                                    rows.columns().begin() + output_schema_->num_fields());
    SQE_ASSIGN_OR_RETURN(
        columnar::Batch out,
        columnar::Batch::Make(output_schema_, std::move(out_columns), rows.num_rows()));
    stats_.rows_returned += out.num_rows();
    return std::optional<columnar::Batch>(std::move(out));
  }
}

}  // namespace sqe::iceberg
