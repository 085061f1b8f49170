#include "exec/recursive_cte.h"

#include <string>
#include <unordered_set>

#include "columnar/take.h"
#include "exec/batch_concatenate.h"
#include "exec/pipeline.h"
#include "exec/row_key_encoder.h"

namespace sqe::exec {

namespace {

/// The root sink of a nested run: keeps the batches of a plan it does not own.
class BatchSpool : public PhysicalOperator {
 public:
  explicit BatchSpool(PhysicalOperator& input)
      : PhysicalOperator("Spool", input.schema()), input_(input) {}

  bool IsSink() const override { return true; }
  Status Sink(ExecContext&, const columnar::Batch& batch, OperatorState&) override {
    std::lock_guard<std::mutex> lock(mutex_);
    batches_.push_back(batch);
    return Status::OK();
  }
  void BuildPipelines(PipelineBuilder& builder) override {
    input_.BuildPipelines(builder);
    builder.current().sink = this;
  }
  std::vector<columnar::Batch> Take() {
    std::lock_guard<std::mutex> lock(mutex_);
    return std::move(batches_);
  }

 private:
  PhysicalOperator& input_;
  std::mutex mutex_;
  std::vector<columnar::Batch> batches_;
};

/// Rough bytes a hash-set entry of `key_bytes` costs (node, bucket, string header).
int64_t SeenEntryBytes(size_t key_bytes) { return static_cast<int64_t>(key_bytes) + 64; }

}  // namespace

struct SeenRows {
  explicit SeenRows(std::vector<columnar::TypePtr> types) : encoder(std::move(types)) {}
  RowKeyEncoder encoder;
  std::unordered_set<std::string> rows;
  int64_t bytes = 0;
};

Result<std::vector<columnar::Batch>> RunToBatches(ExecContext& ctx, PhysicalOperator& plan) {
  BatchSpool spool(plan);
  SQE_RETURN_NOT_OK(ExecutePlan(ctx, spool));
  return spool.Take();
}

WorkingTableScan::WorkingTableScan(std::shared_ptr<const WorkingTable> table, std::string cte_name,
                                   columnar::SchemaPtr schema)
    : PhysicalOperator("WorkingTableScan", std::move(schema)),
      table_(std::move(table)),
      cte_name_(std::move(cte_name)) {}

Result<std::optional<columnar::Batch>> NextStoredBatch(const std::vector<columnar::Batch>& batches,
                                                       std::atomic<size_t>& next,
                                                       const columnar::SchemaPtr& schema) {
  const size_t i = next.fetch_add(1, std::memory_order_relaxed);
  if (i >= batches.size()) return std::optional<columnar::Batch>();
  const columnar::Batch& b = batches[i];
  SQE_ASSIGN_OR_RETURN(columnar::Batch out,
                       columnar::Batch::Make(schema, b.columns(), b.num_rows()));
  return std::optional<columnar::Batch>(std::move(out));
}

Result<std::optional<columnar::Batch>> WorkingTableScan::GetData(ExecContext&, OperatorState&) {
  return NextStoredBatch(table_->batches, next_, schema_);
}

RecursiveCte::RecursiveCte(std::string cte_name, PhysicalOperatorPtr anchor,
                           PhysicalOperatorPtr first_step, StepFactory make_step,
                           std::shared_ptr<WorkingTable> working, bool union_all,
                           columnar::SchemaPtr schema)
    : PhysicalOperator("RecursiveCte", std::move(schema),
                       Children(std::move(anchor), std::move(first_step))),
      cte_name_(std::move(cte_name)),
      make_step_(std::move(make_step)),
      working_(std::move(working)),
      union_all_(union_all) {}

RecursiveCte::~RecursiveCte() = default;

void RecursiveCte::BuildPipelines(PipelineBuilder& builder) {
  // The anchor and the steps run as nested plans inside GetData, not as pipelines here.
  builder.StartPipeline(this);
}

std::string RecursiveCte::Details() const {
  std::string out = cte_name_ + (union_all_ ? " UNION ALL" : " UNION");
  if (iterations_ > 0) out += " iterations=" + std::to_string(iterations_);
  return out;
}

Result<std::vector<columnar::Batch>> RecursiveCte::KeepNew(ExecContext& ctx,
                                                           std::vector<columnar::Batch> batches,
                                                           int64_t* rows) {
  std::shared_ptr<MemoryTracker> tracker = MakeTracker(ctx);
  std::vector<columnar::Batch> kept;
  *rows = 0;
  for (columnar::Batch& batch : batches) {
    if (batch.num_rows() == 0) continue;
    SQE_ASSIGN_OR_RETURN(batch, columnar::Batch::Make(schema_, batch.columns(), batch.num_rows()));
    if (!union_all_) {
      EncodedRows encoded;
      SQE_RETURN_NOT_OK(seen_->encoder.Encode(batch.columns(), batch.num_rows(), &encoded));
      columnar::SelectionVector fresh;
      int64_t added_bytes = 0;
      for (int64_t r = 0; r < batch.num_rows(); ++r) {
        std::string_view key = encoded.row(r);
        if (seen_->rows.emplace(key).second) {
          fresh.Append(static_cast<uint32_t>(r));
          added_bytes += SeenEntryBytes(key.size());
        }
      }
      seen_->bytes += added_bytes;
      if (fresh.empty()) continue;
      if (fresh.size() < batch.num_rows()) {
        SQE_ASSIGN_OR_RETURN(batch, columnar::Take(batch, fresh, tracker));
      }
    }
    *rows += batch.num_rows();
    kept.push_back(std::move(batch));
  }
  int64_t total = union_all_ ? 0 : seen_->bytes;
  for (const columnar::Batch& b : result_) total += BatchBytes(b);
  for (const columnar::Batch& b : kept) total += BatchBytes(b);
  if (reservation_.tracker() == nullptr && tracker != nullptr) {
    SQE_ASSIGN_OR_RETURN(reservation_, Reservation::Make(tracker, 0));
  }
  SQE_RETURN_NOT_OK(reservation_.Resize(total));
  return kept;
}

Status RecursiveCte::Compute(ExecContext& ctx) {
  if (!union_all_) {
    std::vector<columnar::TypePtr> types;
    for (const columnar::Field& f : schema_->fields()) types.push_back(f.type());
    Status keys = RowKeyEncoder::CheckKeyTypes(types);
    if (!keys.ok()) {
      return Status::NotImplemented(
          "WITH RECURSIVE " + cte_name_ +
          " with UNION (distinct) over these column types: " + keys.message() + "; use UNION ALL");
    }
    seen_ = std::make_unique<SeenRows>(std::move(types));
  }
  SQE_ASSIGN_OR_RETURN(std::vector<columnar::Batch> anchor, RunToBatches(ctx, *children_[0]));
  int64_t rows = 0;
  SQE_ASSIGN_OR_RETURN(std::vector<columnar::Batch> fresh, KeepNew(ctx, std::move(anchor), &rows));
  stats_.rows_in.fetch_add(rows, std::memory_order_relaxed);
  for (int64_t step = 1; rows > 0; ++step) {
    SQE_RETURN_NOT_OK(ctx.CheckInterrupt());
    result_.insert(result_.end(), fresh.begin(), fresh.end());
    working_->batches = std::move(fresh);
    PhysicalOperatorPtr made;
    PhysicalOperator* plan = children_[1].get();
    if (step > 1) {
      SQE_ASSIGN_OR_RETURN(made, make_step_());
      plan = made.get();
    }
    SQE_ASSIGN_OR_RETURN(std::vector<columnar::Batch> produced, RunToBatches(ctx, *plan));
    working_->batches.clear();
    SQE_ASSIGN_OR_RETURN(fresh, KeepNew(ctx, std::move(produced), &rows));
    stats_.rows_in.fetch_add(rows, std::memory_order_relaxed);
    if (rows > 0) {
      iterations_ = step;
      if (step > ctx.max_recursion_depth) {
        return Status::InvalidArgument(
            "Recursion depth limit exceeded (" + std::to_string(ctx.max_recursion_depth) +
            ") in WITH RECURSIVE query '" + cte_name_ +
            "'. Use 'max_recursion_depth' session property to modify the limit.");
      }
    }
  }
  return Status::OK();
}

Result<std::optional<columnar::Batch>> RecursiveCte::GetData(ExecContext& ctx, OperatorState&) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!computed_) {
    computed_ = true;
    compute_status_ = Compute(ctx);
    working_->batches.clear();
    seen_.reset();
    int64_t kept = 0;
    for (const columnar::Batch& b : result_) kept += BatchBytes(b);
    if (compute_status_.ok()) compute_status_ = reservation_.Resize(kept);  // shrinks
  }
  SQE_RETURN_NOT_OK(compute_status_);
  if (next_ >= result_.size()) return std::optional<columnar::Batch>();
  return std::optional<columnar::Batch>(result_[next_++]);
}

}  // namespace sqe::exec
